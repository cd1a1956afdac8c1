"""Club, player and account pages."""

from django.urls import path

from . import views

app_name = "clubs"
urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/", views.offline, name="offline"),
    path("clubs/", views.club_list, name="club_list"),
    path("clubs/new/", views.club_create, name="club_create"),
    path("clubs/<slug:slug>/", views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/edit/", views.club_edit, name="club_edit"),
    path("clubs/<slug:slug>/join/", views.club_join, name="club_join"),
    path("clubs/<slug:slug>/leave/", views.club_leave, name="club_leave"),
    path("clubs/<slug:slug>/members/", views.members, name="members"),
    path("clubs/<slug:slug>/members/add/", views.member_add, name="member_add"),
    path(
        "clubs/<slug:slug>/members/in-person/", views.member_invite_in_person, name="member_invite_in_person"
    ),
    path(
        "clubs/<slug:slug>/members/invitations/<int:pk>/", views.member_invitation, name="member_invitation"
    ),
    path(
        "clubs/<slug:slug>/members/invitations/<int:pk>/withdraw/",
        views.member_invitation_withdraw,
        name="member_invitation_withdraw",
    ),
    path("clubs/<slug:slug>/members/<int:user_id>/role/", views.member_role, name="member_role"),
    path("clubs/<slug:slug>/members/<int:user_id>/remove/", views.member_remove, name="member_remove"),
    path("clubs/<slug:slug>/audit/", views.club_audit, name="audit"),
    path("clubs/<slug:slug>/roster/", views.roster, name="roster"),
    path("clubs/<slug:slug>/roster/add/", views.roster_add, name="roster_add"),
    path("clubs/<slug:slug>/roster/bulk/", views.roster_bulk, name="roster_bulk"),
    path(
        "clubs/<slug:slug>/roster/members/<int:player_id>/", views.roster_add_member, name="roster_add_member"
    ),
    path("clubs/<slug:slug>/roster/merge/", views.roster_merge, name="roster_merge"),
    path("clubs/<slug:slug>/roster/<int:entry_id>/toggle/", views.roster_toggle, name="roster_toggle"),
    path("clubs/<slug:slug>/roster/invite/<int:player_id>/", views.roster_invite, name="roster_invite"),
    path("clubs/<slug:slug>/invitations/<int:pk>/", views.invitation, name="invitation"),
    path("players/", views.player_search, name="player_search"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("players/<int:pk>/edit/", views.player_edit, name="player_edit"),
    path("claim/<str:token>/", views.claim, name="claim"),
    path("join/<str:token>/", views.join_invitation, name="join_invitation"),
    path("me/", views.my_profile, name="my_profile"),
    path("me/keys/", views.api_token_create, name="api_token_create"),
    path("me/keys/<int:pk>/revoke/", views.api_token_revoke, name="api_token_revoke"),
]
