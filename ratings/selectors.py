"""Ratings to read: a player's rating and place, his history, the boards (global, a club's, a
city's), the model's state rebuilt from rows and what it predicts for a pairing.

Every query here runs a fixed number of SQL statements whatever the board's size or page (tested);
the model's sums stay in the pure ``ratings.core``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, replace

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone

from clubs.models import ClubPlayer, Player
from clubs.translit import search_key
from ratings.core.model import Match, ModelParams, Rating, RatingState
from ratings.models import BILKA_FOUR, PairRating, PlayerRating, RatingChange, RatingRun, RunStatus

#: The cache key where a running recompute writes its progress (the writer sets it).
PROGRESS_KEY = "bilka:ratings:progress"
PARAMS = ModelParams()


def min_matches() -> int:
    """Matches a player needs to appear on a board (the setting ``RATING_BOARD_MIN_MATCHES``)."""
    return int(settings.RATING_BOARD_MIN_MATCHES)


def day_of(moment: datetime.datetime | None = None) -> float:
    """The model's day: the calendar day played, in the site's time zone."""
    return float(timezone.localdate(moment or timezone.now()).toordinal())


def is_provisional(deviation: float) -> bool:
    return deviation > PARAMS.provisional_deviation


@dataclass(frozen=True)
class PlayerStanding:
    """A player's rating as a page shows it."""

    rating: float
    deviation: float
    provisional: bool
    matches: int
    place: int | None  # on the global board; None while below the minimum of matches


def _board_base() -> QuerySet[PlayerRating]:
    return PlayerRating.objects.filter(game=BILKA_FOUR, matches__gte=min_matches(), player__merged_into=None)


def player_rating(player_id: int) -> PlayerStanding | None:
    """A player's rating now (the deviation grown with the days away) and his global place."""
    row = PlayerRating.objects.filter(game=BILKA_FOUR, player_id=player_id).first()
    if row is None:
        return None
    state = RatingState(PARAMS)
    state.players[str(player_id)] = Rating(row.mu, row.var, row.day, row.matches)
    rating, deviation = state.display(str(player_id), day_of())
    place = None
    if row.matches >= min_matches():
        ahead = Q(rating__gt=row.rating) | Q(rating=row.rating, player_id__lt=player_id)
        place = _board_base().filter(ahead).count() + 1
    return PlayerStanding(rating, deviation, is_provisional(deviation), row.matches, place)


def history(player_id: int, limit: int | None = None) -> list[RatingChange]:
    """The player's rating changes, oldest first (the last ``limit`` when given), with their match."""
    qs = RatingChange.objects.filter(game=BILKA_FOUR, player_id=player_id).select_related("match")
    if limit is None:
        return list(qs.order_by("seq"))
    return list(reversed(qs.order_by("-seq")[:limit]))


def ratings_of(player_ids: Iterable[int]) -> dict[int, PlayerRating]:
    """Each given player's rating row (players never rated are missing), in one query."""
    rows = PlayerRating.objects.filter(game=BILKA_FOUR, player_id__in=list(player_ids))
    return {r.player_id: r for r in rows}


# -- boards ------------------------------------------------------------------------------------
def board(*, club_id: int | None = None, city_key: str | None = None) -> QuerySet[PlayerRating]:
    """A leaderboard's rows, best first: players with at least ``min_matches()`` rated matches,
    on a club's active roster or from a city (its key: "Успенка" and "Uspenka" are one)."""
    qs = _board_base()
    if club_id is not None:
        roster = ClubPlayer.objects.filter(club_id=club_id, active=True).values("player_id")
        qs = qs.filter(player_id__in=roster)
    if city_key is not None:
        qs = qs.filter(player__city__in=city_spellings(city_key))
    return qs.select_related("player").order_by("-rating", "player_id")


def place_in(qs: QuerySet[PlayerRating], player_id: int) -> tuple[int, PlayerRating] | None:
    """The player's place on a board and his row, or None when he is not on it (two queries)."""
    row = qs.filter(player_id=player_id).first()
    if row is None:
        return None
    better = qs.filter(Q(rating__gt=row.rating) | Q(rating=row.rating, player_id__lt=player_id)).count()
    return better + 1, row


def _rated_cities() -> dict[str, set[str]]:
    spellings: dict[str, set[str]] = {}
    raw = (Player.objects.filter(merged_into=None, ratings__game=BILKA_FOUR,
                                 ratings__matches__gte=min_matches())
           .exclude(city="").values_list("city", flat=True).distinct())
    for city in raw:
        key = search_key(city)
        if key:
            spellings.setdefault(key, set()).add(city)
    return spellings


def city_spellings(city_key: str) -> list[str]:
    """The ways players wrote a city (its key from ``clubs.translit``)."""
    return sorted(_rated_cities().get(search_key(city_key), set()))


@dataclass(frozen=True)
class City:
    key: str
    name: str  # the spelling most players used
    players: int


def cities() -> list[City]:
    """The cities of the players on the global board, one per key, most players first."""
    counts: dict[str, dict[str, int]] = {}
    rows = (_board_base().exclude(player__city="").values_list("player__city", flat=True))
    for city in rows:
        key = search_key(city)
        if key:
            counts.setdefault(key, {}).setdefault(city, 0)
            counts[key][city] += 1
    out = [City(key, max(names, key=lambda n: (names[n], n)), sum(names.values()))
           for key, names in counts.items()]
    return sorted(out, key=lambda c: (-c.players, c.name))


# -- the model's state -------------------------------------------------------------------------
def rating_state(player_ids: Iterable[int] | None = None) -> RatingState:
    """The model's state as the rows hold it: everyone's, or only the given players' and their pairs'."""
    state = RatingState(PARAMS)
    players = PlayerRating.objects.filter(game=BILKA_FOUR)
    pairs = PairRating.objects.filter(game=BILKA_FOUR)
    if player_ids is not None:
        ids = list(player_ids)
        players = players.filter(player_id__in=ids)
        pairs = pairs.filter(player_a_id__in=ids, player_b_id__in=ids)
    # plain rows, not model instances: a 256-pair event's standings read 512 players' and their
    # pairs' ratings each time they are worked out again (bench/web/load.py)
    for player_id, mu, var, day, matches in players.values_list("player_id", "mu", "var", "day", "matches"):
        state.players[str(player_id)] = Rating(mu, var, day, matches)
    for a, b, mu, var, day, matches in pairs.values_list("player_a_id", "player_b_id", "mu", "var", "day",
                                                         "matches"):
        state.pairs[(str(a), str(b))] = Rating(mu, var, day, matches)
    return state


@dataclass(frozen=True)
class Seen:
    """One of the four before a match: his rating now and what a win or a loss would move it."""

    player_id: int
    rating: float
    deviation: float
    provisional: bool
    win: float
    loss: float
    name: str = ""


@dataclass(frozen=True)
class Prediction:
    home_chance: float  # the first pair's chance to win the match
    home: tuple[Seen, Seen]
    away: tuple[Seen, Seen]

    @property
    def away_chance(self) -> float:
        return 1.0 - self.home_chance

    @property
    def home_percent(self) -> int:
        return round(100 * self.home_chance)

    @property
    def away_percent(self) -> int:
        return 100 - self.home_percent


def predict_pairing(home: tuple[int, int], away: tuple[int, int]) -> Prediction:
    """Each partnership's chance to win and each player's move on a win or a loss (two queries)."""
    state = rating_state([*home, *away])
    day = day_of()
    ns, ew = (str(home[0]), str(home[1])), (str(away[0]), str(away[1]))
    chance = state.predict(Match(ns, ew, "NS", None, day))
    moves = state.preview(ns, ew, day=day)

    def seen(pid: str) -> Seen:
        rating, deviation = state.display(pid, day)
        win, loss = moves.get(pid, (0.0, 0.0))
        return Seen(int(pid), rating, deviation, is_provisional(deviation), win, loss)

    return Prediction(chance, (seen(ns[0]), seen(ns[1])), (seen(ew[0]), seen(ew[1])))


def changes_of_match(archived_ids: Iterable[int]) -> dict[int, RatingChange]:
    """What an archived match did to each player's rating, by player id."""
    rows = RatingChange.objects.filter(game=BILKA_FOUR, match_id__in=list(archived_ids))
    return {c.player_id: c for c in rows}


# -- recompute progress ------------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    done: int
    total: int


def recompute_progress() -> Progress | None:
    """How far a running recompute is, or None when none runs (organisers see it on their pages)."""
    run = RatingRun.objects.filter(status__in=(RunStatus.RUNNING, RunStatus.PENDING)).order_by("-id").first()
    if run is None:
        return None
    seen = cache.get(PROGRESS_KEY) or {}
    if seen.get("run") == run.pk:
        return Progress(int(seen.get("done", 0)), int(seen.get("total", 0)))
    return Progress(run.done, run.total)


@dataclass(frozen=True)
class EntryRating:
    """A standings row's rating: the player's, or the pair's (both partners and the pair's own term)."""

    rating: float
    provisional: bool


def entry_ratings(entries: Iterable[object], *, individual: bool) -> dict[int, EntryRating]:
    """Each entry's current rating by its id (entries whose players were never rated are missing);
    two queries whatever the field's size."""
    people = {e.pk: ((e.player_id,) if individual else (e.player_a_id, e.player_b_id))  # type: ignore[attr-defined]
              for e in entries}
    state = rating_state(pid for ids in people.values() for pid in ids)
    day = day_of()
    out: dict[int, EntryRating] = {}
    for pk, ids in people.items():
        keys = [str(i) for i in ids]
        if not any(k in state.players for k in keys):
            continue
        provisional = any(state.is_provisional(k, day) for k in keys)
        rating = state.display(keys[0], day)[0] if individual else state.pair_display(keys[0], keys[1])[0]
        out[pk] = EntryRating(rating, provisional)
    return out


@dataclass(frozen=True)
class Moved:
    """What a played match did to one player's rating."""

    player_id: int
    name: str
    before: float
    after: float
    weight: float

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class MatchRatings:
    """The match page's rating part: unrated, a prediction before it is played, the changes after."""

    rated: bool
    prediction: Prediction | None = None
    names: dict[int, str] | None = None
    home_moved: list[Moved] | None = None
    away_moved: list[Moved] | None = None


def match_ratings(match: object, archived_id: int | None) -> MatchRatings:
    """Before the match: each pair's chance and each player's win/loss move; after it: the change
    each player got from its archived match (none when it was a forfeit before the first card)."""
    m = match  # a tournaments Match with home and away loaded
    if not m.tournament.rated or m.bye or m.away_id is None:  # type: ignore[attr-defined]
        return MatchRatings(rated=bool(m.tournament.rated) and not m.bye)  # type: ignore[attr-defined]
    home, away = m.home, m.away  # type: ignore[attr-defined]
    names = {p.pk: p.display_name for p in (home.player_a, home.player_b, away.player_a, away.player_b)}
    if archived_id is not None:
        changes = changes_of_match([archived_id])

        def moved(ids: tuple[int, int]) -> list[Moved]:
            return [Moved(i, names[i], changes[i].before, changes[i].after, changes[i].weight)
                    for i in ids if i in changes]

        return MatchRatings(True, None, names, moved((home.player_a_id, home.player_b_id)),
                            moved((away.player_a_id, away.player_b_id)))
    if m.has_result:  # type: ignore[attr-defined]
        return MatchRatings(True, None, names)  # played, not archived yet (unconfirmed)
    p = predict_pairing((home.player_a_id, home.player_b_id), (away.player_a_id, away.player_b_id))
    named = Prediction(p.home_chance, tuple(replace(s, name=names[s.player_id]) for s in p.home),  # type: ignore[arg-type]
                       tuple(replace(s, name=names[s.player_id]) for s in p.away))  # type: ignore[arg-type]
    return MatchRatings(True, named, names)
