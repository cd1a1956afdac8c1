"""Check a finished record's deals against its revealed shuffle seed (bilka-shuffle/1; a Kozyol
record by kozyol-shuffle/1, a Bilka-for-two one by bilka-2-shuffle/1, its stock's order included).

Anyone holding the record can run this (`python -m gameplay.engine verify-deal RECORD.json`, or the
site's verify pages): the seed must hash to the commitment shown before the match, and every deal's
hands must be the ones the scheme gives for that deal number. A record that cannot be compared at
all (not a record, no `shuffle`, no revealed seed, hands that are not cards) is a RecordError; a
record that can be compared gets a `Verdict`, whatever it says.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gameplay.engine.cards import SEATS, card_to_str, hand_sort_key, mask_cards
from gameplay.engine.errors import RecordError, RulesError
from gameplay.engine.games import rules_from_json
from gameplay.engine.record import FORMAT, read_hands, record_game, record_rules
from gameplay.engine.record_games import read_two_hands
from gameplay.engine.shuffle import BILKA2_SCHEME, GAME_SCHEMES, Shuffle, commitment_of, read_shuffle


class Uncheckable(RecordError):
    """A record whose deals cannot be checked; `code` says why in one word, for a page to word it:
    `not_json`, `no_shuffle`, `no_seed` (the match is not over) or `broken` (the message says more)."""

    def __init__(self, message: str, code: str = "broken", deal: int | None = None) -> None:
        super().__init__(message, deal)
        self.code = code


@dataclass
class DealCheck:
    """One deal: the hands the scheme gives and whether the record holds exactly those."""

    number: int
    agrees: bool
    #: The seats whose recorded hand differs from the scheme's.
    differing: list[str]
    expected: dict[str, list[str]]
    recorded: dict[str, list[str]]

    @property
    def differences(self) -> list[tuple[str, str, str]]:
        """(seat, its hand by the scheme, its hand in the record) for each seat that differs."""
        return [(s, " ".join(self.expected[s]), " ".join(self.recorded[s])) for s in self.differing]


@dataclass
class Verdict:
    scheme: str
    commitment: str
    #: SHA-256 of the revealed seed (what the commitment must equal).
    seed_hash: str
    seed: str
    client_seeds: dict[str, str]
    deals: list[DealCheck] = field(default_factory=list)
    #: The first dealer by the scheme, and as the record has him (None: the record has no deal).
    first_dealer: str = ""
    recorded_dealer: str | None = None

    @property
    def dealer_ok(self) -> bool:
        return self.recorded_dealer is None or self.recorded_dealer == self.first_dealer

    @property
    def commitment_ok(self) -> bool:
        return self.seed_hash == self.commitment

    @property
    def disagreeing(self) -> list[int]:
        return [d.number for d in self.deals if not d.agrees]

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.dealer_ok and not self.disagreeing

    def lines(self) -> list[str]:
        """The verdict as the command line prints it: one line per check, a summary last."""
        out = [f"scheme: {self.scheme}",
               f"commitment: {'ok' if self.commitment_ok else 'WRONG'} "
               f"(sha256 of the seed is {self.seed_hash}, the record committed to {self.commitment})"]
        if self.recorded_dealer is not None:
            out.append(f"first dealer: ok ({self.first_dealer})" if self.dealer_ok else
                       f"first dealer: DIFFERS: should be {self.first_dealer}, "
                       f"the record has {self.recorded_dealer}")
        for d in self.deals:
            if d.agrees:
                out.append(f"deal {d.number}: ok")
            else:
                seats = ", ".join(f"{s} should hold {' '.join(d.expected[s])}" for s in d.differing)
                out.append(f"deal {d.number}: DIFFERS: {seats}")
        if self.ok:
            out.append(f"all {len(self.deals)} deals agree with {self.scheme}")
        else:
            what = []
            if not self.commitment_ok:
                what.append("the seed does not match the commitment")
            if not self.dealer_ok:
                what.append("the first dealer disagrees")
            if self.disagreeing:
                what.append("deals " + ", ".join(map(str, self.disagreeing)) + " disagree")
            out.append("NOT VERIFIED: " + "; ".join(what))
        return out


def _sorted(mask: int) -> list[str]:
    return [card_to_str(c) for c in sorted(mask_cards(mask), key=hand_sort_key)]


def verify_record(data: str | bytes | dict[str, Any]) -> Verdict:
    """The verdict on every deal of a record with a revealed seed; RecordError if none can be given."""
    rec = data
    if isinstance(data, (str, bytes)):
        try:
            rec = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise Uncheckable(f"not JSON: {exc}", "not_json") from None
    if not isinstance(rec, dict):
        raise Uncheckable("a record is a JSON object", "not_json")
    if rec.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {rec.get('format')!r}")
    if "shuffle" not in rec:
        raise Uncheckable("the record has no shuffle: its deals were not dealt by a verifiable scheme",
                          "no_shuffle")
    game = record_game(rec)
    shuffle: Shuffle = read_shuffle(rec["shuffle"], GAME_SCHEMES[game])
    if shuffle.seed is None:
        raise Uncheckable("the record has no revealed seed: it is published when the match is over",
                          "no_seed")
    rules_in = record_rules(rec, game)
    try:
        deck = rules_from_json(rules_in | {"game": game}).deck
    except (RulesError, TypeError) as exc:
        raise RecordError(str(exc)) from None
    deals = rec.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals must be a list")
    verdict = Verdict(scheme=shuffle.scheme, commitment=shuffle.commitment,
                      seed_hash=commitment_of(shuffle.seed), seed=shuffle.seed.hex(),
                      client_seeds=dict(zip(shuffle.seats, shuffle.client_seeds, strict=True)),
                      first_dealer=shuffle.seats[shuffle.first_dealer()])
    if deals and isinstance(deals[0], dict):
        dealer = deals[0].get("dealer")
        verdict.recorded_dealer = dealer if isinstance(dealer, str) else repr(dealer)
    for number, deal in enumerate(deals, start=1):
        if not isinstance(deal, dict):
            raise RecordError("a deal is a JSON object", number)
        if shuffle.scheme == BILKA2_SCHEME:
            verdict.deals.append(_check_two(shuffle, deck, deal, number))
            continue
        recorded = read_hands(deal, number)
        expected = shuffle.hands(deck, number)
        differing = [SEATS[s] for s in range(4) if recorded[s] != expected[s]]
        verdict.deals.append(DealCheck(
            number=number, agrees=not differing, differing=differing,
            expected={SEATS[s]: _sorted(expected[s]) for s in range(4)},
            recorded={SEATS[s]: _sorted(recorded[s]) for s in range(4)},
        ))
    return verdict


def _check_two(shuffle: Shuffle, deck: str, deal: dict[str, Any], number: int) -> DealCheck:
    """A Bilka-for-two deal: the hands of N and S and the stock, in its order, by the scheme."""
    recorded = read_two_hands(deal, number)
    (north, south), stock = shuffle.hands_and_stock(deck, number)
    expected = (north, south)
    differing = [seat for s, seat in enumerate("NS") if recorded[s] != expected[s]]
    stock_shown = [card_to_str(c) for c in stock]
    recorded_stock = deal.get("stock")
    if recorded_stock != stock_shown:
        differing.append("stock")
    return DealCheck(
        number=number, agrees=not differing, differing=differing,
        expected={"N": _sorted(north), "S": _sorted(south), "stock": stock_shown},
        recorded={"N": _sorted(recorded[0]), "S": _sorted(recorded[1]),
                  "stock": [str(c) for c in recorded_stock] if isinstance(recorded_stock, list) else []},
    )
