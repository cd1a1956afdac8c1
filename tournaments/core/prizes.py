"""Who takes which prize: one allocation from the final places, the prizes and the organiser's options.

Pure (no Django); the page, the exports, the bracket, the hall screen and the prints all read the one
``allocate`` answer through ``selectors.prize_list``. The rules, as docs/formats.md tells organisers:

- **Place prizes** go by the final places: the prize of place 1 to the first, and so on.
- **Withdrawn or disqualified** (``Contender.eligible`` false), as the organiser chooses
  (``Options.withdrawn``): ``PASS_DOWN`` (default) leaves them out, so their prize goes to the next
  eligible entry and everyone below moves up; ``KEEP`` gives them what their place earned;
  ``NOT_AWARDED`` keeps the places as played but their prize (or their share) is given to nobody.
- **Categories** (women, juniors, a village...) are ladders of their own: a rule on the players
  (``Rule``), and the category's prizes to its best members by the same final places. A pair
  belongs to a category only when *both* its players match the rule (a mixed pair is not a women's
  pair); a fact left empty (no year of birth) never matches.
- **One prize each** (``Options.one_prize``, default on): prizes are handed out from the highest
  down, and an entry already holding one is passed over, so the next in the ladder moves up.
  "Highest" is the larger money amount; at equal money, or where a prize has none, place prizes rank
  above category prizes. A place prize without money counts as worth the place prize above it (the
  first place's as worth the most), so the place prizes are always handed out in place order. With the
  option off every ladder is handed out on its own and an entry may take one prize of each.
- **Tied places** (entries sharing a place: "3=" or a bracket's "5–8"): the tied entries that reach a
  ladder's prize together take the block of prizes of the places they cover. Money of a prize with
  nothing else to it (``Prize.indivisible`` false) is split evenly among them when the organiser says
  so (``Options.split_money``), the first by the tiebreak order taking the odd tenge; an indivisible
  prize (a cup, a horse) goes by the tiebreak order, the first tied entry the first prize of the block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class Withdrawn(StrEnum):
    """What a withdrawn or disqualified entry's prize does."""

    PASS_DOWN = "pass"  # noqa: S105 (a choice, not a password)
    KEEP = "keep"
    NOT_AWARDED = "none"


class Gender(StrEnum):
    WOMAN = "f"
    MAN = "m"


@dataclass(frozen=True)
class Prize:
    """A prize: what the organiser calls it, its money (whole units; None for none) and whether it
    can be split among tied entries (``indivisible`` false: money only)."""

    label: str = ""
    amount: int | None = None
    indivisible: bool = True


@dataclass(frozen=True)
class Player:
    """What a category may ask of a player. ``clubs``: the clubs whose roster he is on (their ids);
    ``newcomer``: he has played no earlier finished event on the site."""

    clubs: frozenset[int] = frozenset()
    city: str = ""
    birth_year: int | None = None
    gender: str = ""
    newcomer: bool = False


@dataclass(frozen=True)
class Rule:
    """Who belongs to a category; every condition given must hold for every player of the entry."""

    club: int | None = None
    city: str = ""
    born_from: int | None = None
    born_to: int | None = None
    gender: str = ""
    newcomer: bool = False

    @property
    def empty(self) -> bool:
        return self == Rule()

    def admits_player(self, player: Player) -> bool:
        if self.club is not None and self.club not in player.clubs:
            return False
        if self.city and self.city.casefold().strip() != player.city.casefold().strip():
            return False
        if self.born_from is not None or self.born_to is not None:
            year = player.birth_year
            if year is None:
                return False
            if self.born_from is not None and year < self.born_from:
                return False
            if self.born_to is not None and year > self.born_to:
                return False
        if self.gender and player.gender != self.gender:
            return False
        return not self.newcomer or player.newcomer

    def admits(self, players: Sequence[Player]) -> bool:
        """Both players of a pair (the one of an individual entry) match; an empty rule admits all."""
        return bool(players) and all(self.admits_player(p) for p in players)


@dataclass(frozen=True)
class Category:
    name: str
    rule: Rule
    prizes: tuple[Prize, ...]


@dataclass(frozen=True)
class Options:
    withdrawn: Withdrawn = Withdrawn.PASS_DOWN
    one_prize: bool = True
    split_money: bool = True


@dataclass(frozen=True)
class Contender:
    """An entry as the final places put it: ``place`` (shared by tied entries), ``order`` its
    position in the standings (the tiebreak order, unique), ``eligible`` false when withdrawn or
    disqualified, and its players."""

    entry: int
    place: int
    order: int
    eligible: bool = True
    players: tuple[Player, ...] = ()


@dataclass(frozen=True)
class Share:
    """Who takes a prize (or a part of it): ``amount`` the money he takes (None: a prize with none);
    ``withheld``: it was his place's, but he withdrew and the organiser gives it to nobody."""

    entry: int
    amount: int | None
    withheld: bool = False


@dataclass(frozen=True)
class Award:
    """One prize and who takes it. ``category`` is None for a place prize; ``rank`` the prize's
    position in its ladder (the place, or 1 for a category's first prize)."""

    prize: Prize
    category: str | None
    rank: int
    shares: tuple[Share, ...]

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.entry for s in self.shares if not s.withheld)


@dataclass(frozen=True)
class Allocation:
    awards: tuple[Award, ...] = ()

    def of_entry(self, entry: int) -> list[tuple[Award, Share]]:
        return [(a, s) for a in self.awards for s in a.shares if s.entry == entry and not s.withheld]


@dataclass
class _Ladder:
    """A list of prizes and the contenders who may take them, best first."""

    category: str | None
    prizes: tuple[Prize, ...]
    members: list[Contender]
    given: set[int] = field(default_factory=set)
    """Indices of this ladder's prizes handed out already."""


def _worth(ladders: list[_Ladder]) -> list[tuple[float, int, int, int]]:
    """Every prize as (sort key parts..., ladder index, prize index), highest first (module docstring)."""
    keys: list[tuple[float, int, int, int]] = []
    for li, ladder in enumerate(ladders):
        worth = float("inf")
        for pi, prize in enumerate(ladder.prizes):
            if prize.amount is not None:
                worth = min(worth, prize.amount)
            elif ladder.category is not None:
                worth = -1.0  # a category prize without money: after every place prize
            keys.append((-worth, 0 if ladder.category is None else 1, li, pi))
    keys.sort()
    return keys


def _split(prize: Prize, block: list[Contender], position: int, split: bool) -> list[Share]:
    """The shares of a block prize: evenly when it is money only and splitting is on, else the tied
    entry at ``position`` (tiebreak order) takes it whole."""
    if split and not prize.indivisible and prize.amount is not None and len(block) > 1:
        base, odd = divmod(prize.amount, len(block))
        return [Share(c.entry, base + (1 if i < odd else 0)) for i, c in enumerate(block)]
    if position < len(block):
        return [Share(block[position].entry, prize.amount)]
    return [Share(block[0].entry, prize.amount)]


def allocate(
    contenders: Sequence[Contender],
    places: Sequence[Prize],
    categories: Sequence[Category] = (),
    options: Options = Options(),
) -> Allocation:
    """Hand out the place prizes and the categories' prizes (the rules: module docstring)."""
    ranked = sorted(contenders, key=lambda c: (c.place, c.order))
    if options.withdrawn == Withdrawn.PASS_DOWN:
        ranked = [c for c in ranked if c.eligible]
    ladders = [_Ladder(None, tuple(places), ranked)]
    ladders += [
        _Ladder(cat.name, cat.prizes, [c for c in ranked if cat.rule.admits(c.players)]) for cat in categories
    ]
    withhold = options.withdrawn == Withdrawn.NOT_AWARDED
    not_eligible = {c.entry for c in contenders if not c.eligible}
    holders: set[int] = set()
    awards: list[tuple[int, int, Award]] = []
    taken: list[set[int]] = [set() for _ in ladders]
    for _key, _kind, li, pi in _worth(ladders):
        ladder = ladders[li]
        if pi in ladder.given:
            continue
        out = holders if options.one_prize else taken[li]
        free = [c for c in ladder.members if c.entry not in out]
        if not free:
            ladder.given.add(pi)
            continue
        first = free[0]
        block = [c for c in free if c.place == first.place]
        indices = [i for i in range(pi, len(ladder.prizes)) if i not in ladder.given][: len(block)]
        for position, index in enumerate(indices):
            prize = ladder.prizes[index]
            shares = [
                Share(s.entry, s.amount, withheld=withhold and s.entry in not_eligible)
                for s in _split(prize, block, position, options.split_money)
            ]
            awards.append((li, index, Award(prize, ladder.category, index + 1, tuple(shares))))
            ladder.given.add(index)
            out.update(s.entry for s in shares)
    awards.sort(key=lambda a: (a[0], a[1]))
    return Allocation(tuple(a for _li, _pi, a in awards))


# --- the stored shape ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PrizeSetup:
    """Everything the organiser said about prizes: the place prizes, the categories, the options."""

    places: tuple[Prize, ...] = ()
    categories: tuple[Category, ...] = ()
    options: Options = Options()


_MONEY = re.compile(r"(\d[\d \u00a0\u202f]*)\s*(₸|тг\.?|тенге|₽|руб\.?|₴|грн\.?|€|\$)?\s*$", re.IGNORECASE)


def prize_of_line(text: str) -> Prize:
    """A prize as the organiser types it on one line: "30 000" or "30 000 ₸" is money that tied
    entries may split; anything with words is a thing ("Конь", "Cup and 20 000 ₸"), given whole,
    its money (the number it ends with) counting for which prize is higher."""
    text = text.strip()
    found = _MONEY.search(text)
    amount = int(re.sub(r"\D", "", found.group(1))) if found else None
    if found and not text[: found.start()].strip(" :;,-–—=+"):
        return Prize(label="", amount=amount, indivisible=False)
    return Prize(label=text, amount=amount, indivisible=True)


def line_of_prize(prize: Prize) -> str:
    """The line ``prize_of_line`` reads back as the same prize."""
    return prize.label or (f"{prize.amount:,}".replace(",", " ") if prize.amount is not None else "")


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _prize(data: object) -> Prize:
    if isinstance(data, str):
        return prize_of_line(data)
    if not isinstance(data, dict):
        return Prize()
    return Prize(
        label=str(data.get("label") or ""),
        amount=_int(data.get("amount")),
        indivisible=bool(data.get("indivisible", True)),
    )


def _rule(data: object) -> Rule:
    if not isinstance(data, dict):
        return Rule()
    return Rule(
        club=_int(data.get("club")),
        city=str(data.get("city") or ""),
        born_from=_int(data.get("born_from")),
        born_to=_int(data.get("born_to")),
        gender=str(data.get("gender") or ""),
        newcomer=bool(data.get("newcomer")),
    )


def setup_from_json(data: object) -> PrizeSetup:
    """The stored prizes in either shape: the list of lines events kept before (one per place, read
    as the settings form reads a line), or the object ``setup_to_json`` writes."""
    if isinstance(data, list):
        return PrizeSetup(places=tuple(_prize(p) for p in data))
    if not isinstance(data, dict):
        return PrizeSetup()
    categories = tuple(
        Category(
            name=str(c.get("name") or ""),
            rule=_rule(c.get("rule")),
            prizes=tuple(_prize(p) for p in c.get("prizes") or []),
        )
        for c in data.get("categories") or []
        if isinstance(c, dict)
    )
    withdrawn = str(data.get("withdrawn") or "")
    options = Options(
        withdrawn=Withdrawn(withdrawn) if withdrawn in Withdrawn._value2member_map_ else Withdrawn.PASS_DOWN,
        one_prize=bool(data.get("one_prize", True)),
        split_money=bool(data.get("split_money", True)),
    )
    return PrizeSetup(
        places=tuple(_prize(p) for p in data.get("places") or []), categories=categories, options=options
    )


def setup_to_json(setup: PrizeSetup) -> dict[str, object]:
    def prize(p: Prize) -> dict[str, object]:
        return {"label": p.label, "amount": p.amount, "indivisible": p.indivisible}

    def rule(r: Rule) -> dict[str, object]:
        return {
            "club": r.club,
            "city": r.city,
            "born_from": r.born_from,
            "born_to": r.born_to,
            "gender": r.gender,
            "newcomer": r.newcomer,
        }

    return {
        "places": [prize(p) for p in setup.places],
        "categories": [
            {"name": c.name, "rule": rule(c.rule), "prizes": [prize(p) for p in c.prizes]}
            for c in setup.categories
        ],
        "withdrawn": setup.options.withdrawn.value,
        "one_prize": setup.options.one_prize,
        "split_money": setup.options.split_money,
    }
