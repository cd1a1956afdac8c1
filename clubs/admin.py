"""Admin for site staff. Role changes go through the same service as the site (last-owner rule, audit)."""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext_lazy as _

from . import selectors, services
from .models import AuditEntry, Club, ClubPlayer, Membership, Player, PlayerInvitation, Role, User


@admin.register(User)
class BilkaUserAdmin(UserAdmin):
    list_display = ("username", "email", "player_name", "is_staff", "is_active", "date_joined")
    list_select_related = ("player",)

    @admin.display(description=_("player"))
    def player_name(self, obj):
        player = getattr(obj, "player", None)
        return player.display_name if player else "—"


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ("user", "role", "created_at")
    readonly_fields = ("user", "role", "created_at")
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


class ClubPlayerInline(admin.TabularInline):
    model = ClubPlayer
    fk_name = "club"
    extra = 0
    fields = ("player", "added_as", "active", "added_by", "added_at")
    readonly_fields = ("player", "added_as", "active", "added_by", "added_at")
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "city", "created_at")
    list_filter = ("city",)
    search_fields = ("name", "slug", "city")
    readonly_fields = ("created_by", "created_at")
    inlines = [MembershipInline, ClubPlayerInline]
    date_hierarchy = "created_at"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("display_name", "city", "user", "merged_into", "created_at")
    list_filter = ("city", ("user", admin.EmptyFieldListFilter), ("merged_into", admin.EmptyFieldListFilter))
    search_fields = ("display_name", "search_name", "city", "user__username", "user__email")
    readonly_fields = ("search_name", "merged_into", "created_by", "created_at")
    raw_id_fields = ("user",)
    list_select_related = ("user", "merged_into")

    def get_search_results(self, request, queryset, search_term):
        # Let staff type "Nurlan" and find "Нұрлан" too.
        from .translit import search_key

        queryset, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        key = search_key(search_term)
        if key:
            queryset |= self.model.objects.filter(search_name__icontains=key)
        return queryset, may_have_duplicates


def _role_action(role):
    def action(modeladmin, request, queryset):
        done = 0
        for membership in queryset.select_related("club", "user"):
            try:
                services.set_member_role(
                    actor=request.user, club=membership.club, user=membership.user, role=role
                )
            except (ValidationError, PermissionDenied) as e:
                text = " ".join(e.messages) if isinstance(e, ValidationError) else _("Not allowed.")
                modeladmin.message_user(request, f"{membership}: {text}", messages.ERROR)
            else:
                done += 1
        if done:
            modeladmin.message_user(
                request, _("Roles changed: %(count)d.") % {"count": done}, messages.SUCCESS
            )

    action.__name__ = f"make_{role}"
    action.short_description = _("Make %(role)s") % {"role": Role(role).label}
    return action


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """Roles are read-only here: the actions call set_member_role, which keeps the last owner."""

    list_display = ("club", "user", "role", "created_at")
    list_filter = ("role", "club")
    search_fields = ("club__name", "user__username", "user__email")
    list_select_related = ("club", "user")
    actions = [_role_action(Role.OWNER), _role_action(Role.ORGANISER), _role_action(Role.MEMBER)]
    raw_id_fields = ("club", "user")

    def get_readonly_fields(self, request, obj=None):
        return ("club", "user", "role", "created_at") if obj is not None else ("created_at",)

    def save_model(self, request, obj, form, change):
        if change:
            return  # every field is read-only on change
        try:
            membership = services.add_member(actor=request.user, club=obj.club, user=obj.user, role=obj.role)
        except ValidationError as e:
            raise PermissionDenied(" ".join(e.messages)) from e
        obj.pk = membership.pk

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.role == Role.OWNER:
            if selectors.owner_count(club_id=obj.club_id) <= 1:
                return False  # the last owner stays; the service would refuse anyway
        return super().has_delete_permission(request, obj)

    def delete_model(self, request, obj):
        services.remove_member(actor=request.user, club=obj.club, user=obj.user)

    def get_actions(self, request):
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # bulk delete would skip the last-owner rule
        return actions


@admin.register(ClubPlayer)
class ClubPlayerAdmin(admin.ModelAdmin):
    list_display = ("player", "club", "added_as", "active", "added_by", "added_at")
    list_filter = ("active", "club")
    search_fields = ("player__display_name", "player__search_name", "added_as", "club__name")
    list_select_related = ("player", "club", "added_by")
    readonly_fields = ("club", "player", "added_as", "added_by", "added_at", "active")

    def has_add_permission(self, request):
        return False  # organisers add players on the roster page, which records who and when

    def has_delete_permission(self, request, obj=None):
        return False  # the roster keeps its history


@admin.register(PlayerInvitation)
class PlayerInvitationAdmin(admin.ModelAdmin):
    list_display = ("player", "club", "created_by", "created_at", "expires_at", "claimed_by", "claimed_at")
    list_filter = ("club", ("claimed_at", admin.EmptyFieldListFilter))
    search_fields = ("player__display_name", "club__name", "token")
    list_select_related = ("player", "club", "created_by", "claimed_by")
    readonly_fields = ("token", "player", "club", "created_by", "created_at", "claimed_by", "claimed_at")

    def has_add_permission(self, request):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "action", "club", "tournament_id", "round_number", "object_repr", "reason")
    list_filter = ("action", "club")
    search_fields = ("object_repr", "actor__username", "action", "reason")
    list_select_related = ("actor", "club")
    date_hierarchy = "at"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
