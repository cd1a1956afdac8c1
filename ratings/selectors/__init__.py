"""Ratings to read: a player's rating and place, his history, the boards (global, a club's, a
city's), the model's state rebuilt from rows and what it predicts for a pairing.

Every query here runs a fixed number of SQL statements whatever the board's size or page (tested);
the model's sums stay in the pure ``ratings.core``.

It runs past 400 lines since each read takes the game (Bilka, Kozyol, Bilka for two: a rating of
its own each); the boards are the next part to move into a module of their own.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from archive.models import ArchivedSeat
from clubs.models import ClubPlayer, Player
from clubs.translit import search_key
from ratings.core.guard import WINDOW_DAYS, farming_weight
from ratings.core.match_odds import DEFAULT_RULES, ScoringKey
from ratings.core.model import Match, Rating, RatingState, Side
from ratings.models import (
    BILKA_FOUR,
    BILKA_GAME,
    RATED_GAMES,
    PairRating,
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingRun,
    RunStatus,
    game_of_rules,
    rated_game,
)
from ratings.selectors.history import (  # noqa: F401 - the pages read a player's history from here
    ChangeLine,
    Person,
    change_lines,
    history,
    seen_changes,
    seen_count,
    with_seen_matches,
)
from ratings.selectors.moves import (  # noqa: F401 - the card and the match page read moves from here
    MoveLine,
    move_lines,
    why_words,
    with_moves,
)
from ratings.selectors.params import (  # noqa: F401 - read from here
    PARAMS,
    PARAMS_KEY,
    latest_fits,
    model_params,
    params_key,
)

#: The cache key where a running recompute writes its progress (the writer sets it).
PROGRESS_KEY = "bilka:ratings:progress"


def min_matches() -> int:
    """Matches a player needs to appear on a board (the setting ``RATING_BOARD_MIN_MATCHES``)."""
    return int(settings.RATING_BOARD_MIN_MATCHES)


def day_of(moment: datetime.datetime | None = None) -> float:
    """The model's day: the calendar day played, in the site's time zone."""
    return float(timezone.localdate(moment or timezone.now()).toordinal())


def provisional_variance(game: str = BILKA_FOUR) -> float:
    """A rating row whose own variance (``PlayerRating.var``) is above this is provisional: its own
    deviation is above ``provisional_deviation`` (``RatingState.is_provisional``)."""
    params = model_params(game)
    return (params.provisional_deviation / params.scale) ** 2


@dataclass(frozen=True)
class PlayerStanding:
    """A player's rating as a page shows it."""

    rating: float
    deviation: float
    provisional: bool
    matches: int
    place: int | None  # on the global board; None while below the minimum of matches
    game: RatedGame = BILKA_GAME


def _board_base(game: str = BILKA_FOUR) -> QuerySet[PlayerRating]:
    return PlayerRating.objects.filter(game=game, matches__gte=min_matches(), player__merged_into=None)


def player_rating(player_id: int, game: str = BILKA_FOUR) -> PlayerStanding | None:
    """A player's rating in ``game`` now (the deviation grown with the days away) and his place
    on its global board."""
    row = PlayerRating.objects.filter(game=game, player_id=player_id).first()
    if row is None:
        return None
    return _standing(row)


def _standing(row: PlayerRating) -> PlayerStanding:
    state = RatingState(model_params(row.game))
    player_id = row.player_id
    pid = str(player_id)
    state.players[pid] = Rating(row.mu, row.var, row.day, row.matches, row.form)
    best = (PairRating.objects.filter(Q(player_a_id=player_id) | Q(player_b_id=player_id), game=row.game)
            .order_by("-matches").values_list("matches", flat=True).first())
    state.best_partner[pid] = best or 0
    day = day_of()
    rating, deviation = state.display(pid, day)
    place = None
    if row.matches >= min_matches():
        ahead = Q(rating__gt=row.rating) | Q(rating=row.rating, player_id__lt=player_id)
        place = _board_base(row.game).filter(ahead).count() + 1
    return PlayerStanding(rating, deviation, state.is_provisional(pid, day), row.matches, place,
                          rated_game(row.game) or BILKA_GAME)


def player_ratings(player_id: int) -> list[PlayerStanding]:
    """The player's rating in each game he has one in, in the site's order of games (Bilka first)."""
    rows = {r.game: r for r in PlayerRating.objects.filter(player_id=player_id)}
    return [_standing(rows[g.key]) for g in RATED_GAMES if g.key in rows]


def ratings_of(player_ids: Iterable[int], game: str = BILKA_FOUR) -> dict[int, PlayerRating]:
    """Each given player's rating row in ``game`` (players never rated are missing), in one query."""
    rows = PlayerRating.objects.filter(game=game, player_id__in=list(player_ids))
    return {r.player_id: r for r in rows}


# -- boards ------------------------------------------------------------------------------------
def board(*, club_id: int | None = None, city_key: str | None = None,
          game: str = BILKA_FOUR) -> QuerySet[PlayerRating]:
    """A game's leaderboard rows, best first: players with at least ``min_matches()`` rated
    matches, on a club's active roster or from a city (its key: "Успенка" and "Uspenka" are one)."""
    qs = _board_base(game)
    if club_id is not None:
        roster = ClubPlayer.objects.filter(club_id=club_id, active=True).values("player_id")
        qs = qs.filter(player_id__in=roster)
    if city_key is not None:
        qs = qs.filter(player__city__in=city_spellings(city_key, game))
    return qs.select_related("player").order_by("-rating", "player_id")


def place_in(qs: QuerySet[PlayerRating], player_id: int) -> tuple[int, PlayerRating] | None:
    """The player's place on a board and his row, or None when he is not on it (two queries)."""
    row = qs.filter(player_id=player_id).first()
    if row is None:
        return None
    better = qs.filter(Q(rating__gt=row.rating) | Q(rating=row.rating, player_id__lt=player_id)).count()
    return better + 1, row


def _rated_cities(game: str = BILKA_FOUR) -> dict[str, set[str]]:
    spellings: dict[str, set[str]] = {}
    raw = (Player.objects.filter(merged_into=None, ratings__game=game,
                                 ratings__matches__gte=min_matches())
           .exclude(city="").values_list("city", flat=True).distinct())
    for city in raw:
        key = search_key(city)
        if key:
            spellings.setdefault(key, set()).add(city)
    return spellings


def city_known(city_key: str) -> bool:
    """Whether any player wrote this city, in any spelling (rated yet or not)."""
    key = search_key(city_key)
    cities = Player.objects.filter(merged_into=None).exclude(city="").values_list("city", flat=True)
    return bool(key) and any(search_key(city) == key for city in cities.distinct().iterator())


def city_spellings(city_key: str, game: str = BILKA_FOUR) -> list[str]:
    """The ways players rated in ``game`` wrote a city (its key from ``clubs.translit``)."""
    return sorted(_rated_cities(game).get(search_key(city_key), set()))


@dataclass(frozen=True)
class City:
    key: str
    name: str  # the spelling most players used
    players: int


def cities(game: str = BILKA_FOUR) -> list[City]:
    """The cities of the players on a game's global board, one per key, most players first."""
    counts: dict[str, dict[str, int]] = {}
    rows = (_board_base(game).exclude(player__city="").values_list("player__city", flat=True))
    for city in rows:
        key = search_key(city)
        if key:
            counts.setdefault(key, {}).setdefault(city, 0)
            counts[key][city] += 1
    out = [City(key, max(names, key=lambda n: (names[n], n)), sum(names.values()))
           for key, names in counts.items()]
    return sorted(out, key=lambda c: (-c.players, c.name))


# -- the model's state -------------------------------------------------------------------------
def rating_state(player_ids: Iterable[int] | None = None, *, game: str = BILKA_FOUR) -> RatingState:
    """A game's model state as the rows hold it: everyone's, or only the given players' and their pairs'."""
    state = RatingState(model_params(game))
    players = PlayerRating.objects.filter(game=game)
    pairs = PairRating.objects.filter(game=game)
    if player_ids is not None:
        ids = list(player_ids)
        players = players.filter(player_id__in=ids)
        # every pair of theirs, not only those among them: a player's most frequent partner
        # widens his deviation (RatingState.display)
        pairs = pairs.filter(Q(player_a_id__in=ids) | Q(player_b_id__in=ids))
    # plain rows, not model instances: a 256-pair event's standings read 512 players' and their
    # pairs' ratings each time they are worked out again (bench/web/load.py)
    for player_id, mu, var, day, matches, form in players.values_list("player_id", "mu", "var", "day",
                                                                      "matches", "form"):
        state.players[str(player_id)] = Rating(mu, var, day, matches, form)
    for a, b, mu, var, day, matches, form in pairs.values_list("player_a_id", "player_b_id", "mu", "var",
                                                               "day", "matches", "form"):
        state.pairs[(str(a), str(b))] = Rating(mu, var, day, matches, form)
    state.index_partners()
    return state


@dataclass(frozen=True)
class Seen:
    """One of the four before a match: his rating now and what a win or a loss would move it."""

    player_id: int
    rating: float
    deviation: float
    provisional: bool
    win: float  # a close win (12:11), as learning it would apply
    loss: float  # a close loss (11:12)
    name: str = ""
    win_big: float = 0.0  # a win 12:0
    loss_big: float = 0.0  # a loss 0:12

    @property
    def win_range(self) -> bool:
        """Whether the score matters to the shown figure (rounded, a close and a big win differ)."""
        return round(self.win) != round(self.win_big)

    @property
    def loss_range(self) -> bool:
        return round(self.loss) != round(self.loss_big)


@dataclass(frozen=True)
class Prediction:
    home_chance: float  # the first side's chance to win the match
    home: tuple[Seen, ...]  # a pair, or in Bilka for two one player
    away: tuple[Seen, ...]
    weight: float = 1.0  # how much the match will count (below 1: the same four again lately)
    game: RatedGame = BILKA_GAME

    @property
    def away_chance(self) -> float:
        return 1.0 - self.home_chance

    @property
    def home_percent(self) -> int:
        return round(100 * self.home_chance)

    @property
    def away_percent(self) -> int:
        return 100 - self.home_percent


def predict_pairing(home: tuple[int, ...], away: tuple[int, ...], *, rules: dict | None = None,
                    weight: float = 1.0, names: dict[int, str] | None = None) -> Prediction:
    """Each side's chance to win and each player's move on a win or a loss (two queries): exactly
    what learning the match now would apply (``RatingState.preview``), in the rating of the game
    the match's ``rules`` name, under those rules and with its ``weight`` (the farming guard's,
    for a casual match). A side is a pair, or in Bilka for two one player."""
    game = game_of_rules(rules or {}) or BILKA_GAME
    state = rating_state([*home, *away], game=game.key)
    day = day_of()
    # the other games' match to 12 is reckoned with Bilka's default scoring (docs/ratings.md)
    key = ScoringKey.from_rules(rules or {}) if game.key == BILKA_FOUR else DEFAULT_RULES
    ns = cast(Side, tuple(str(p) for p in home))
    ew = cast(Side, tuple(str(p) for p in away))
    chance = state.predict(Match(ns, ew, "NS", None, day, key, weight=weight))
    if game.key == BILKA_FOUR:
        moves = state.preview(ns, ew, day=day, rules=key, weight=weight)
    else:  # learnt from the winner, not the final score (``recompute._as_match``): one move each way
        won = state.preview_result(ns, ew, "NS", day=day, rules=key, weight=weight)
        lost = state.preview_result(ns, ew, "EW", day=day, rules=key, weight=weight)
        moves = {pid: ((won if pid in ns else lost)[pid],) * 2 + ((lost if pid in ns else won)[pid],) * 2
                 for pid in (*ns, *ew)}
    names = names or {}

    def seen(pid: str) -> Seen:
        rating, deviation = state.display(pid, day)
        win, win_big, loss, loss_big = moves.get(pid, (0.0, 0.0, 0.0, 0.0))
        name = names.get(int(pid), "")
        return Seen(int(pid), rating, deviation, state.is_provisional(pid, day), win, loss, name,
                    win_big, loss_big)

    return Prediction(chance, tuple(seen(p) for p in ns), tuple(seen(p) for p in ew), weight, game)


def casual_weight(player_ids: Iterable[int], moment: datetime.datetime | None = None,
                  game: RatedGame = BILKA_GAME) -> float:
    """The weight the farming guard gives a casual match of these players played at ``moment``
    (now): ``1 / (1 + n)`` after ``n`` rated casual matches of the same players in ``game`` in the
    window, counted as the recompute counts them (``ratings.services.recompute``), in one query."""
    four = {int(p) for p in player_ids}
    moment = moment or timezone.now()
    day = day_of(moment)
    since = moment - datetime.timedelta(days=WINDOW_DAYS + 1)
    seats = (ArchivedSeat.objects.exclude(match__rules__has_key="game") if game.key == BILKA_FOUR
             else ArchivedSeat.objects.filter(match__rules__game=game.engine))
    rows = (seats.filter(player_id__in=four, match__rated=True, match__tournament=None,
                         match__played_at__lt=moment, match__played_at__gte=since)
            .values("match_id", "match__played_at").annotate(n=Count("player_id", distinct=True))
            .filter(n=len(four)).values_list("match__played_at", flat=True))
    return farming_weight(sum(1 for played in rows if day_of(played) >= day - WINDOW_DAYS))


@dataclass(frozen=True)
class TableOdds:
    """A casual rated table before its match: the chances and moves once four players sit, or who
    is still missing."""

    prediction: Prediction | None
    waiting: bool  # seats still empty
    unrated_seat: bool  # a bot or a guest sits: the match will not be rated
    game: RatedGame = BILKA_GAME  # whose rating the match moves


def table_odds(table: object) -> TableOdds | None:
    """What a casual rated live table's page shows before play (None for any other table): NS as
    the first pair, EW the second. The table comes from the page (ratings know nothing of the live
    tables' rows): its ``seats``, ``rules``, ``rated`` and ``casual``."""
    if not getattr(table, "rated", False) or not getattr(table, "casual", False):
        return None
    game = game_of_rules(getattr(table, "rules", None) or {})
    if game is None:
        return None
    size = 2 * game.side  # four seats, or two at a table of Bilka for two
    seats = {s.seat: s for s in table.seats.all()}  # type: ignore[attr-defined]
    if len(seats) < size:
        return TableOdds(None, True, False, game)
    users = {n: s.user_id for n, s in seats.items() if not s.is_bot and s.user_id is not None}
    players = {p.user_id: p for p in Player.objects.filter(user_id__in=users.values(), merged_into=None)}
    if len(users) < size or len(players) < size:
        return TableOdds(None, False, True, game)
    ids = {n: players[u].pk for n, u in users.items()}
    names = {p.pk: p.display_name for p in players.values()}
    order = sorted(ids)  # N E S W, or the two seats of Bilka for two in their order
    if game.side == 1:
        home, away = (ids[order[0]],), (ids[order[1]],)
    else:
        home, away = (ids[0], ids[2]), (ids[1], ids[3])
    weight = casual_weight(ids.values(), game=game)
    return TableOdds(predict_pairing(home, away, rules=table.rules, weight=weight, names=names),  # type: ignore[attr-defined]
                     False, False, game)


def changes_of_match(archived_ids: Iterable[int]) -> dict[int, RatingChange]:
    """What an archived match did to each player's rating, by player id."""
    rows = RatingChange.objects.filter(match_id__in=list(archived_ids))  # a match is of one game
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
    """A standings row's rating: the player's, or the pair's on the players' scale (the mean of
    both partners' ratings with half the pair's own term)."""

    rating: float
    provisional: bool


def entry_ratings(entries: Iterable[object], *, individual: bool,
                  game: str = BILKA_FOUR) -> dict[int, EntryRating]:
    """Each entry's current rating in ``game`` by its id (entries whose players were never rated
    are missing); two queries whatever the field's size."""
    people = {e.pk: ((e.player_id,) if individual else (e.player_a_id, e.player_b_id))  # type: ignore[attr-defined]
              for e in entries}
    state = rating_state((pid for ids in people.values() for pid in ids), game=game)
    day = day_of()
    out: dict[int, EntryRating] = {}
    for pk, ids in people.items():
        keys = [str(i) for i in ids]
        if not any(k in state.players for k in keys):
            continue
        provisional = any(state.is_provisional(k, day) for k in keys)
        # A pair on its players' scale: half its strength (both partners and the pair's own term),
        # so two 1500 players make a 1500 pair and a board's and a standings' figures read alike.
        rating = state.display(keys[0], day)[0] if individual else state.pair_display(keys[0], keys[1])[0] / 2
        out[pk] = EntryRating(rating, provisional)
    return out
