"""Admin for the live tables: read-mostly; a table changes only through gameplay.services."""

from django.contrib import admin

from gameplay.models import Seat, Table, TableEvent


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("seat", "name", "user", "is_bot", "connections", "grace_used")
    readonly_fields = fields
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "seating", "created_by", "created_at", "event_seq")
    list_filter = ("status", "seating")
    readonly_fields = ("rules", "status", "event_seq", "record", "result", "move_deadline", "invite_token",
                       "started_at", "finished_at")
    inlines = [SeatInline]


@admin.register(TableEvent)
class TableEventAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "kind", "created_at")
    list_filter = ("kind",)
    readonly_fields = ("table", "number", "kind", "public", "private", "spectator", "move_id", "move_seat",
                       "created_at")
