"""bilka-shuffle/1: every deal of a match dealt from a committed server seed and four client seeds.

The server draws a secret 32-byte match seed and shows its SHA-256 (the commitment) before the
players' client seeds are final; deal k (from 1, redeals counted) is then a fixed function of the
seed, the four client seeds and k, so once the seed is revealed anyone can recompute every deal
(README, "Provably fair shuffles"; `verify.py` checks a record). In short:

    message = "bilka-shuffle/1" | for N, E, S, W: len(seed) as 1 byte | seed (ASCII) | k (4 bytes BE)
    block b = HMAC-SHA256(key = match seed, message | b (4 bytes BE)),  b = 0, 1, 2, ...
    bytes   = block 0 | block 1 | ...  read one byte at a time
    deck    = the deck's cards clubs, diamonds, hearts, spades, each low to high (7C 8C ... AS)
    for i = n-1 down to 1: draw bytes until one is < 256 - 256 % (i + 1); j = byte % (i + 1);
                           swap deck[i], deck[j]
    hands   = deck[0:h] to N, deck[h:2h] to E, deck[2h:3h] to S, deck[3h:4h] to W

Only hashlib/hmac (C) run per byte block, so a deal costs a few microseconds.

The other games (docs/shuffle.md, "Kozyol and Bilka for two") use the same recipe under their own
scheme names, which are the message's first bytes, so one seed never deals the same cards to two
games: `kozyol-shuffle/1` (four seats, exactly as above) and `bilka-2-shuffle/1` (two seats N and S,
their two client seeds in the message; deck[0:h] to N, deck[h:2h] to S, deck[2h:] the stock, top
first; the first dealer is the first byte of deal 0's stream mod 2).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from typing import Final

from gameplay.engine.cards import DECK_RANKS, SEATS, deck_cards
from gameplay.engine.errors import RecordError

SCHEME: Final = "bilka-shuffle/1"
KOZYOL_SCHEME: Final = "kozyol-shuffle/1"
BILKA2_SCHEME: Final = "bilka-2-shuffle/1"
#: The seats of each scheme, in the order of the message's client seeds.
SCHEME_SEATS: Final = {SCHEME: SEATS, KOZYOL_SCHEME: SEATS, BILKA2_SCHEME: "NS"}
#: The scheme a match of each game (`games.GAMES`) is dealt by.
GAME_SCHEMES: Final = {"bilka": SCHEME, "kozyol": KOZYOL_SCHEME, "bilka-2": BILKA2_SCHEME}
SEED_BYTES: Final = 32
CLIENT_SEED_MAX: Final = 64
_HEX = frozenset("0123456789abcdef")
_PREFIX: Final = SCHEME.encode("ascii")
#: _LIMIT[n] = the largest multiple of n not above 256: a byte below it, taken mod n, is unbiased.
_LIMIT: Final = tuple(256 - 256 % n if n else 0 for n in range(257))
_DECKS: Final = {deck: tuple(deck_cards(deck)) for deck in DECK_RANKS}
_KEYS: Final = frozenset({"scheme", "commitment", "seed", "client_seeds"})


def new_match_seed() -> bytes:
    """A fresh secret match seed from the operating system's randomness."""
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """A random client seed, for a player who does not choose one (and for bots)."""
    return secrets.token_hex(8)


def commitment_of(seed: bytes) -> str:
    """The commitment shown before the match: SHA-256 of the 32 seed bytes, lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def is_hex64(text: object) -> bool:
    return isinstance(text, str) and len(text) == 64 and set(text) <= _HEX


def client_seed_problem(text: object) -> str | None:
    """Why `text` is not a client seed (1 to 64 printable ASCII characters), or None."""
    if not isinstance(text, str):
        return "a client seed is a string"
    if not 1 <= len(text) <= CLIENT_SEED_MAX:
        return f"a client seed has 1 to {CLIENT_SEED_MAX} characters"
    if any(not " " <= ch <= "~" for ch in text):
        return "a client seed has only printable ASCII characters (space to ~)"
    return None


def deal_message(client_seeds: tuple[str, ...] | list[str], k: int, scheme: str = SCHEME) -> bytes:
    """The HMAC message of deal k: the scheme, each client seed after its length byte, k."""
    parts = [_PREFIX if scheme == SCHEME else scheme.encode("ascii")]
    for text in client_seeds:
        raw = text.encode("ascii")
        parts.append(bytes((len(raw),)))
        parts.append(raw)
    parts.append(k.to_bytes(4, "big"))
    return b"".join(parts)


def dealt_cards(seed: bytes, client_seeds: tuple[str, ...] | list[str], k: int,
                deck: str = "32", scheme: str = SCHEME) -> list[int]:
    """The deck of deal k after the shuffle (card ids, see `cards.py`): N's hand comes first."""
    return shuffled_deck(seed, deal_message(client_seeds, k, scheme), deck)


def shuffled_deck(seed: bytes, message: bytes, deck: str = "32") -> list[int]:
    """The deck shuffled by the HMAC stream of `seed` over `message` (the module's recipe; a
    duplicate board's message is `boards.board_message`)."""
    cards = list(_DECKS[deck])
    digest = hmac.digest
    block = 0
    stream = digest(seed, message + b"\0\0\0\0", "sha256")
    pos = 0
    limit = _LIMIT
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        below = limit[n]
        while True:
            if pos == 32:
                block += 1
                stream = digest(seed, message + block.to_bytes(4, "big"), "sha256")
                pos = 0
            r = stream[pos]
            pos += 1
            if r < below:
                break
        j = r % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def first_dealer(seed: bytes, client_seeds: tuple[str, ...] | list[str], scheme: str = SCHEME) -> int:
    """The match's first dealer (0..3 = N E S W), from the stream of "deal 0" (no deal is 0):
    its first byte below 252, mod 4, so the server cannot choose him once it knows the hands.
    With two seats (`bilka-2-shuffle/1`): its first byte mod 2, 0 = N, 1 = S."""
    message = deal_message(client_seeds, 0, scheme)
    seats = len(SCHEME_SEATS[scheme])
    block = 0
    while True:
        for r in hmac.digest(seed, message + block.to_bytes(4, "big"), "sha256"):
            if r < _LIMIT[seats]:
                return r % seats
        block += 1


def deal_hands(seed: bytes, client_seeds: tuple[str, ...] | list[str], k: int,
               deck: str = "32") -> list[int]:
    """The four hands (bitmasks, N E S W) of deal k: consecutive slices of `dealt_cards`."""
    cards = dealt_cards(seed, client_seeds, k, deck)
    h = len(cards) // 4
    return [sum(1 << c for c in cards[s * h:(s + 1) * h]) for s in range(4)]


def deal_with_stock(seed: bytes, client_seeds: tuple[str, ...] | list[str], k: int,
                    deck: str = "32") -> tuple[tuple[int, int], list[int]]:
    """Deal k of Bilka for two (`bilka-2-shuffle/1`): the hands of N and S (bitmasks, a quarter of
    the deck each: the shuffled deck's first quarter to N, its second to S) and the stock, the
    other half in the shuffled deck's order, its top card first."""
    cards = dealt_cards(seed, client_seeds, k, deck, BILKA2_SCHEME)
    h = len(cards) // 4
    return (sum(1 << c for c in cards[:h]), sum(1 << c for c in cards[h:2 * h])), cards[2 * h:]


class Shuffle:
    """The shuffle of one match: its commitment and client seeds (public), its seed (secret).

    `seed` is None where it is not known (a record read before the match ended); such a state
    replays its deals from their recorded hands but cannot deal a new one.
    """

    __slots__ = ("client_seeds", "commitment", "scheme", "seed")

    def __init__(self, client_seeds: tuple[str, ...], *, seed: bytes | None = None,
                 commitment: str | None = None, scheme: str = SCHEME) -> None:
        if scheme not in SCHEME_SEATS:
            raise ValueError(f"unknown shuffle scheme {scheme!r}")
        if len(client_seeds) != len(SCHEME_SEATS[scheme]):
            raise ValueError(f"{scheme} needs {len(SCHEME_SEATS[scheme])} client seeds")
        if commitment is None:
            if seed is None:
                raise ValueError("a shuffle needs its seed or its commitment")
            commitment = commitment_of(seed)
        self.scheme = scheme
        self.seed = seed
        self.commitment = commitment
        self.client_seeds = client_seeds

    @classmethod
    def fresh(cls, client_seeds: tuple[str, ...] | None = None, scheme: str = SCHEME) -> Shuffle:
        """A new match's shuffle: a fresh secret seed (and random client seeds if none given)."""
        if client_seeds is None:
            client_seeds = tuple(new_client_seed() for _ in SCHEME_SEATS[scheme])
        return cls(client_seeds, seed=new_match_seed(), scheme=scheme)

    @property
    def seats(self) -> str:
        """The seat letters of the client seeds: NESW, or NS for Bilka for two."""
        return SCHEME_SEATS[self.scheme]

    def hands(self, deck: str, k: int) -> list[int]:
        """The hands of deal k; ValueError when the seed is not known."""
        if self.seed is None:
            raise ValueError("the match seed is not known, so no new deal can be dealt")
        if self.scheme == SCHEME:
            return deal_hands(self.seed, self.client_seeds, k, deck)
        if self.scheme == BILKA2_SCHEME:
            raise ValueError(f"{BILKA2_SCHEME} deals two hands and a stock: use deal_with_stock")
        cards = dealt_cards(self.seed, self.client_seeds, k, deck, self.scheme)
        h = len(cards) // 4
        return [sum(1 << c for c in cards[s * h:(s + 1) * h]) for s in range(4)]

    def hands_and_stock(self, deck: str, k: int) -> tuple[tuple[int, int], list[int]]:
        """Deal k of Bilka for two: the hands of N and S and the stock, top first; ValueError when
        the seed is not known or the scheme is not `bilka-2-shuffle/1`."""
        if self.seed is None:
            raise ValueError("the match seed is not known, so no new deal can be dealt")
        if self.scheme != BILKA2_SCHEME:
            raise ValueError(f"{self.scheme} deals no stock")
        return deal_with_stock(self.seed, self.client_seeds, k, deck)

    def first_dealer(self) -> int:
        """The first dealer of the match; ValueError when the seed is not known."""
        if self.seed is None:
            raise ValueError("the match seed is not known")
        return first_dealer(self.seed, self.client_seeds, self.scheme)

    def to_json(self, *, reveal: bool) -> dict[str, object]:
        """The record's `shuffle`; the seed only when `reveal` (the match is over)."""
        out: dict[str, object] = {
            "scheme": self.scheme,
            "commitment": self.commitment,
            "client_seeds": dict(zip(self.seats, self.client_seeds, strict=True)),
        }
        if reveal and self.seed is not None:
            out["seed"] = self.seed.hex()
        return out


def read_shuffle(value: object, scheme: str = SCHEME) -> Shuffle:
    """The record's `shuffle` object, checked (RecordError says what is wrong); the seed is not
    compared with the commitment here: that is the verifier's verdict, not a broken record.
    `scheme` is the one the record's game is dealt by (`GAME_SCHEMES`)."""
    if not isinstance(value, dict):
        raise RecordError("shuffle must be a JSON object")
    unknown = set(value) - _KEYS
    if unknown:
        raise RecordError(f"unknown key {sorted(unknown)[0]!r} in shuffle")
    if value.get("scheme") != scheme:
        raise RecordError(f"shuffle.scheme must be {scheme!r}, not {value.get('scheme')!r}")
    commitment = value.get("commitment")
    if not is_hex64(commitment):
        raise RecordError("shuffle.commitment must be 64 lowercase hex digits (a SHA-256)")
    seed = value.get("seed")
    if seed is not None and not is_hex64(seed):
        raise RecordError("shuffle.seed must be 64 lowercase hex digits (32 bytes)")
    seeds = value.get("client_seeds")
    seats = SCHEME_SEATS[scheme]
    if not isinstance(seeds, dict) or set(seeds) != set(seats):
        named = "N and S" if len(seats) == 2 else "N, E, S and W"
        raise RecordError(f"shuffle.client_seeds must give the client seeds of {named}")
    for seat in seats:
        problem = client_seed_problem(seeds[seat])
        if problem:
            raise RecordError(f"shuffle.client_seeds.{seat}: {problem}")
    return Shuffle(tuple(seeds[seat] for seat in seats),
                   seed=bytes.fromhex(seed) if seed is not None else None,
                   commitment=commitment, scheme=scheme)


def draw_first_dealer(shuffle: Shuffle | None, rng: random.Random, seats: int) -> int:
    """A new match's first dealer: by the shuffle's scheme where its seed is known (so anyone can
    check him), else drawn from `rng`."""
    if shuffle is not None and shuffle.seed is not None:
        return shuffle.first_dealer()
    return rng.randrange(seats)
