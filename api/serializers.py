"""What the API shows of each thing: no more of a person than the pages do (no e-mail, no account
name; a player without an account by the name the club entered), never a match's PINs."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from clubs.models import Club, Player
from ratings.models import BILKA_GAME, rated_game
from tournaments.models import (
    ByeKind,
    Currency,
    EntryStatus,
    Format,
    Match,
    MatchStatus,
    RoundStatus,
    Seeding,
    Tournament,
    TournamentStatus,
)

from .fields import ProseField, model_text

#: The largest id a row may have (a bigint): a larger number is refused, never sent to the database.
MAX_ID = 2**63 - 1


class ClubSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = model_text(Club, "name")
    city = model_text(Club, "city")
    description = model_text(Club, "description")


class ClubLinkSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = model_text(Club, "name")


class PlayerBriefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    display_name = model_text(Player, "display_name")
    city = model_text(Player, "city")


class RosterLineSerializer(serializers.Serializer):
    """A club on the player's page: the club, whether he is on its roster now, and since when."""

    club = ClubLinkSerializer()
    active = serializers.BooleanField()
    since = serializers.DateTimeField(source="added_at")


class PlayerSerializer(PlayerBriefSerializer):
    has_account = serializers.SerializerMethodField()
    clubs = RosterLineSerializer(many=True, source="roster_entries.all")

    def get_has_account(self, player: Player) -> bool:
        return player.user_id is not None


class TournamentSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = model_text(Tournament, "name")
    club = ClubLinkSerializer()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True)
    venue = model_text(Tournament, "venue")
    online = serializers.BooleanField()
    format = serializers.ChoiceField(choices=Format.choices)
    status = serializers.ChoiceField(choices=TournamentStatus.choices)
    rated = serializers.BooleanField()
    description = model_text(Tournament, "description")
    entry_fee = serializers.IntegerField(
        allow_null=True, help_text="The entry fee per pair (per player in an individual event); null: none."
    )
    fee_currency = serializers.ChoiceField(choices=Currency.choices)


class PairSerializer(serializers.Serializer):
    """One side of a match: the entry (a pair) and its two players."""

    id = serializers.IntegerField()
    players = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=["pair", "player"]))
    def get_kind(self, entry) -> str:
        return "player" if hasattr(entry, "player") else "pair"

    @extend_schema_field(PlayerBriefSerializer(many=True))
    def get_players(self, entry) -> list[dict]:
        return PlayerBriefSerializer([entry.player_a, entry.player_b], many=True).data


def side_of_winner(match) -> str | None:
    if match.winner_id is None:
        return None
    return "home" if match.winner_id == match.home_id else "away"


class MatchSerializer(serializers.Serializer):
    """A pairing and its result as the round's page shows it."""

    id = serializers.IntegerField()
    tournament = serializers.CharField(source="tournament.slug")
    round = serializers.IntegerField(source="round.number")
    table = serializers.IntegerField()
    game = serializers.IntegerField()
    bracket = serializers.CharField()
    home = PairSerializer()
    away = PairSerializer(allow_null=True)
    bye = serializers.BooleanField()
    requested_bye = serializers.ChoiceField(
        choices=["", *ByeKind.values],
        help_text="A bye the pair asked for: half (half a win) or zero (as a loss); empty for the"
        " pairing's bye and for matches.",
    )
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    home_eyes = serializers.IntegerField(allow_null=True)
    away_eyes = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField()
    winner = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=["home", "away"], allow_null=True))
    def get_winner(self, match) -> str | None:
        return side_of_winner(match)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RoundStatus.choices)
    deadline = serializers.DateTimeField(allow_null=True)
    matches = MatchSerializer(many=True, source="matches.all")


class StandingEntrySerializer(serializers.Serializer):
    """A line's entry: a pair (two players) or, in an individual event, one player."""

    id = serializers.IntegerField()
    players = PlayerBriefSerializer(many=True)


class StandingLineSerializer(serializers.Serializer):
    place = serializers.IntegerField(source="row.place")
    place_label = serializers.CharField()
    entry = serializers.SerializerMethodField()
    match_points = serializers.FloatField(source="row.match_points")
    played = serializers.IntegerField(source="row.played")
    wins = serializers.IntegerField(source="row.wins")
    losses = serializers.IntegerField(source="row.losses")
    byes = serializers.IntegerField(source="row.byes", help_text="Byes the pairing gave.")
    requested_byes = serializers.IntegerField(
        source="row.requested_byes", help_text="Rounds sat out at the entry's own ask."
    )
    eyes_for = serializers.IntegerField(source="row.eyes_for")
    eyes_against = serializers.IntegerField(source="row.eyes_against")
    eye_difference = serializers.IntegerField(source="row.eye_difference")
    buchholz = serializers.FloatField(source="row.buchholz")
    sonneborn_berger = serializers.FloatField(source="row.sonneborn_berger")
    lucy = serializers.IntegerField(source="row.lucy")
    withdrawn = serializers.BooleanField(source="row.withdrawn")
    prize = serializers.CharField()

    @extend_schema_field(StandingEntrySerializer)
    def get_entry(self, line) -> dict:
        entry = line.entry
        players = [entry.player] if hasattr(entry, "player") else [entry.player_a, entry.player_b]
        return {"id": entry.pk, "players": PlayerBriefSerializer(players, many=True).data}


class StandingsSerializer(serializers.Serializer):
    final = serializers.BooleanField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    lines = StandingLineSerializer(many=True)


class EntrySerializer(serializers.Serializer):
    """A pair (or, in an individual event, a player) as the entries page lists it: the seed only
    where the page shows it (once round 1 is paired, or when the organiser seeds by hand).
    ``kind`` says which the id names: a pair's and a player's ids are looked up apart, each in its
    own event (``/api/v1/tournaments/<slug>/entries/<id>/…``)."""

    id = serializers.IntegerField()
    kind = serializers.SerializerMethodField()
    name = serializers.CharField()
    players = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=EntryStatus.choices)
    seed = serializers.SerializerMethodField()
    late = serializers.SerializerMethodField()

    @extend_schema_field(serializers.ChoiceField(choices=["pair", "player"]))
    def get_kind(self, entry) -> str:
        return "player" if hasattr(entry, "player") else "pair"

    @extend_schema_field(PlayerBriefSerializer(many=True))
    def get_players(self, entry) -> list[dict]:
        players = [entry.player] if hasattr(entry, "player") else [entry.player_a, entry.player_b]
        return PlayerBriefSerializer(players, many=True).data

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_seed(self, entry) -> int | None:
        tournament = entry.tournament
        shown = tournament.status != TournamentStatus.REGISTRATION or tournament.seeding == Seeding.MANUAL
        return (entry.seed or None) if shown else None

    def get_late(self, entry) -> bool:
        return bool(getattr(entry, "late", False))


class PairEntrySerializer(serializers.Serializer):
    """The two players of a pair the organiser registers, by their ids (``/api/v1/players/``).
    Only their form is checked here (400); that they are there, and two, the view and the service
    check (409, as every refusal the schema cannot describe)."""

    player_a = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    player_b = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class ResultSerializer(serializers.Serializer):
    """The final eyes of both pairs, as the match page's form takes them."""

    home_eyes = serializers.IntegerField(min_value=0, max_value=99)
    away_eyes = serializers.IntegerField(min_value=0, max_value=99)


class ArchivedSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.CharField()
    name = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)
    #: A bot's level ("beginner", "strong"); "" for a person or a bot archived before levels were kept.
    bot_level = serializers.CharField()


class ArchivedDealSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    outcome = serializers.CharField()
    ns_eyes = serializers.IntegerField()
    ew_eyes = serializers.IntegerField()
    ns_score = serializers.IntegerField()
    ew_score = serializers.IntegerField()


class ArchivedMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    source = serializers.CharField()
    event_name = serializers.CharField()
    tournament = serializers.IntegerField(allow_null=True)
    round_number = serializers.IntegerField(allow_null=True)
    club = ClubLinkSerializer(allow_null=True)
    played_at = serializers.DateTimeField()
    rules_key = serializers.CharField()
    ns_eyes = serializers.IntegerField()
    ew_eyes = serializers.IntegerField()
    winner = serializers.CharField()
    reason = serializers.CharField()
    deal_count = serializers.IntegerField()
    has_record = serializers.BooleanField()
    rated = serializers.BooleanField()
    public = serializers.BooleanField()
    seats = ArchivedSeatSerializer(many=True, source="seats.all")


class ArchivedMatchDetailSerializer(ArchivedMatchSerializer):
    rules = serializers.DictField()
    deals = ArchivedDealSerializer(many=True, source="deals.all")


class RatingSerializer(serializers.Serializer):
    """A leaderboard row: the rating is public; ``matches`` and ``last_played`` count only the
    rated matches the caller may see (the archive's visibility rule)."""

    player = PlayerBriefSerializer()
    game = serializers.SerializerMethodField(
        help_text="the game whose rating this is: bilka, kozyol or bilka2")
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    matches = serializers.IntegerField(source="seen_matches", help_text="rated matches the caller may see")
    last_played = serializers.DateTimeField(
        source="seen_last_played",
        allow_null=True,
        help_text="the last of the rated matches the caller may see",
    )

    def get_game(self, row) -> str:
        return (rated_game(row.game) or BILKA_GAME).slug


# --- running an event's rounds and settling its results (organising keys) -----------------------

#: What the organiser's pages ask before a change that breaks a rule or loses something.
ACCEPT_WARNINGS_HELP = (
    "What the page asks as a second step: without it the change is refused with 409 and its "
    "warnings; send the request again with true to make it anyway."
)


class UnpairSerializer(serializers.Serializer):
    """Unpairing loses the results reported but not yet confirmed: accepted only explicitly."""

    accept_warnings = serializers.BooleanField(default=False, help_text=ACCEPT_WARNINGS_HELP)


class UnpairedSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The round that was unpaired.")


class SwapSerializer(serializers.Serializer):
    """Two pairs (in an individual event, two players) by their entry ids; a pair with the bye
    swapped with a playing pair moves the bye."""

    first = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    second = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    accept_warnings = serializers.BooleanField(default=False, help_text=ACCEPT_WARNINGS_HELP)


class TableSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=999)


class CorrectionSerializer(ResultSerializer):
    """The organiser's correction: the eyes, and the reason the players read with the match
    (needed once the result is confirmed or later rounds were paired on it)."""

    reason = ProseField(max_length=300, required=False, allow_blank=True, default="")


class ForfeitSerializer(serializers.Serializer):
    """The pair (its entry id; in an individual event, the partnership's) that loses 0:12."""

    loser = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    reason = ProseField(max_length=300, required=False, allow_blank=True, default="")


class DisputeSerializer(serializers.Serializer):
    """What the other pair says is wrong with the reported score (the organiser reads it)."""

    note = model_text(Match, "dispute_note", required=False, default="")

    def to_internal_value(self, data):
        # A number is no note (DRF's text fields would take 5 as "5"): refused as the schema says.
        if isinstance(data, dict) and "note" in data and not isinstance(data["note"], str):
            raise serializers.ValidationError({"note": [self.fields["note"].error_messages["invalid"]]})
        return super().to_internal_value(data)


class SettleSerializer(serializers.Serializer):
    """Without eyes the reported result stands; with them, the organiser's score replaces it. One
    pair's eyes alone is refused by the view (409: the schema cannot say "both or neither")."""

    home_eyes = serializers.IntegerField(min_value=0, max_value=99, required=False)
    away_eyes = serializers.IntegerField(min_value=0, max_value=99, required=False)
    reason = ProseField(max_length=300, required=False, allow_blank=True, default="")


class WarningsSerializer(serializers.Serializer):
    """A 409: with ``warnings``, one the request can overrule with ``accept_warnings``; without,
    a refusal by the game's rules as every operation's 409."""

    detail = serializers.CharField()
    warnings = serializers.ListField(child=serializers.CharField(), required=False)
