"""Admin for tournaments: read and fix rows; results change through the services' correction log."""

from django.contrib import admin

from .models import DealLine, Entry, Match, ResultCorrection, Round, Substitution, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "format", "status", "starts_on")
    list_filter = ("format", "status")
    search_fields = ("name", "club__name")
    raw_id_fields = ("club", "created_by")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "status", "seed", "late")
    list_filter = ("status",)
    raw_id_fields = ("tournament", "player_a", "player_b", "registered_by")


class DealLineInline(admin.TabularInline):
    model = DealLine
    extra = 0
    can_delete = False
    readonly_fields = [f.name for f in DealLine._meta.fields]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "home", "away", "home_eyes", "away_eyes", "status")
    list_filter = ("status", "forfeit", "bye")
    raw_id_fields = ("tournament", "round", "home", "away", "winner", "reported_by", "confirmed_by")
    readonly_fields = ("home_eyes", "away_eyes", "winner", "status", "forfeit")
    inlines = [DealLineInline]


admin.site.register(Round)
admin.site.register(Substitution)


@admin.register(ResultCorrection)
class ResultCorrectionAdmin(admin.ModelAdmin):
    list_display = ("match", "actor", "at", "reason")
    readonly_fields = ("match", "actor", "at", "before", "after", "reason")
