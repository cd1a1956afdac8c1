"""The prize allocator: places, withdrawals, categories, one prize each, tied places."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.prizes import (
    Allocation,
    Category,
    Contender,
    Options,
    Player,
    Prize,
    Rule,
    Withdrawn,
    allocate,
)

WOMAN = Player(gender="f", birth_year=1990)
MAN = Player(gender="m", birth_year=1960)
WOMEN = Rule(gender="f")


def field(n: int, *, withdrawn=(), women=(), shared=None) -> list[Contender]:
    """Entries 1..n in places 1..n (``shared``: place -> entries sharing it)."""
    out = []
    for i in range(1, n + 1):
        place = i
        for p, tied in (shared or {}).items():
            if i in tied:
                place = p
        players = (WOMAN, WOMAN) if i in women else (MAN, WOMAN)
        out.append(Contender(entry=i, place=place, order=i, eligible=i not in withdrawn, players=players))
    return out


def money(*amounts: int) -> list[Prize]:
    return [Prize(amount=a, indivisible=False) for a in amounts]


def got(allocation: Allocation) -> dict[tuple[str | None, int], list[tuple[int, int | None]]]:
    return {
        (a.category, a.rank): [(s.entry, s.amount) for s in a.shares if not s.withheld]
        for a in allocation.awards
    }


def test_place_prizes_go_by_place():
    result = allocate(field(4), [Prize("Конь"), Prize("Машина")])
    assert got(result) == {(None, 1): [(1, None)], (None, 2): [(2, None)]}


def test_a_withdrawn_pairs_prize_passes_down_by_default():
    result = allocate(field(4, withdrawn={2}), money(300, 200, 100))
    assert got(result) == {(None, 1): [(1, 300)], (None, 2): [(3, 200)], (None, 3): [(4, 100)]}


def test_the_organiser_may_let_a_withdrawn_pair_keep_its_prize():
    result = allocate(
        field(4, withdrawn={2}), money(300, 200, 100), options=Options(withdrawn=Withdrawn.KEEP)
    )
    assert got(result)[(None, 2)] == [(2, 200)]


def test_or_give_it_to_nobody():
    result = allocate(
        field(4, withdrawn={2}), money(300, 200, 100), options=Options(withdrawn=Withdrawn.NOT_AWARDED)
    )
    assert got(result) == {(None, 1): [(1, 300)], (None, 2): [], (None, 3): [(3, 100)]}
    assert result.of_entry(2) == []


def test_a_pair_is_in_a_category_only_when_both_players_match():
    women = Category("Women", WOMEN, (Prize(amount=50, indivisible=False),))
    result = allocate(field(4, women={3}), money(300, 200), [women])
    assert got(result)[("Women", 1)] == [(3, 50)]


def test_one_prize_each_the_next_in_the_category_moves_up():
    women = Category("Women", WOMEN, tuple(money(50, 20)))
    result = allocate(field(5, women={1, 3, 4}), money(300, 200), [women])
    assert got(result) == {
        (None, 1): [(1, 300)],
        (None, 2): [(2, 200)],
        ("Women", 1): [(3, 50)],
        ("Women", 2): [(4, 20)],
    }


def test_a_richer_category_prize_is_taken_and_the_place_prize_passes_down():
    women = Category("Women", WOMEN, tuple(money(250)))
    result = allocate(field(4, women={2}), money(300, 200, 100), [women])
    assert got(result) == {
        (None, 1): [(1, 300)],
        ("Women", 1): [(2, 250)],
        (None, 2): [(3, 200)],
        (None, 3): [(4, 100)],
    }


def test_at_equal_money_or_none_the_place_prize_ranks_first():
    women = Category("Women", WOMEN, (Prize("Cup"),))
    result = allocate(field(3, women={1, 2}), [Prize("Horse")], [women])
    assert got(result) == {(None, 1): [(1, None)], ("Women", 1): [(2, None)]}


def test_without_the_one_prize_rule_a_pair_may_take_both():
    women = Category("Women", WOMEN, tuple(money(50)))
    result = allocate(field(3, women={1}), money(300), [women], Options(one_prize=False))
    assert got(result) == {(None, 1): [(1, 300)], ("Women", 1): [(1, 50)]}


def test_tied_pairs_split_the_money_of_their_places():
    result = allocate(field(4, shared={2: {2, 3}}), money(300, 201, 100))
    assert got(result) == {
        (None, 1): [(1, 300)],
        (None, 2): [(2, 101), (3, 100)],
        (None, 3): [(2, 50), (3, 50)],
    }


def test_an_indivisible_prize_goes_by_the_tiebreak_order():
    result = allocate(field(3, shared={1: {1, 2}}), [Prize("Horse"), Prize(amount=100, indivisible=False)])
    assert got(result) == {(None, 1): [(1, None)], (None, 2): [(1, 50), (2, 50)]}


def test_without_splitting_money_goes_by_the_tiebreak_order():
    result = allocate(field(3, shared={1: {1, 2}}), money(300, 100), options=Options(split_money=False))
    assert got(result) == {(None, 1): [(1, 300)], (None, 2): [(2, 100)]}


def test_a_tie_past_the_last_prize_shares_it():
    result = allocate(field(4, shared={2: {2, 3, 4}}), money(300, 90))
    assert got(result)[(None, 2)] == [(2, 30), (3, 30), (4, 30)]


def test_a_rule_on_years_club_city_and_newcomers():
    young = Player(birth_year=2010, clubs=frozenset({7}), city="Успенка", newcomer=True)
    assert Rule(born_from=2008).admits([young, young])
    assert not Rule(born_to=2000).admits([young])
    assert not Rule(born_from=2000).admits([Player()])  # no year given: no junior
    assert Rule(club=7, city="успенка", newcomer=True).admits([young])
    assert not Rule(club=8).admits([young])
    assert not Rule(newcomer=True).admits([young, Player()])


# --- properties ----------------------------------------------------------------------------------

prizes_st = st.lists(
    st.builds(
        Prize,
        label=st.sampled_from(["", "Cup"]),
        amount=st.none() | st.integers(0, 1000),
        indivisible=st.booleans(),
    ),
    max_size=6,
)
player_st = st.builds(
    Player, gender=st.sampled_from(["", "f", "m"]), birth_year=st.none() | st.integers(1950, 2015)
)


@st.composite
def contenders_st(draw):
    n = draw(st.integers(0, 10))
    places, place = [], 1
    for i in range(n):
        if i and draw(st.booleans()) and draw(st.booleans()):
            places.append(places[-1])  # shares the place above
        else:
            places.append(i + 1)
        place = places[-1]
    del place
    return [
        Contender(
            entry=i + 1,
            place=places[i],
            order=i,
            eligible=draw(st.booleans()) or draw(st.booleans()),
            players=(draw(player_st), draw(player_st)),
        )
        for i in range(n)
    ]


categories_st = st.lists(
    st.builds(
        Category,
        name=st.sampled_from(["Women", "Juniors", "Seniors"]),
        rule=st.sampled_from([Rule(gender="f"), Rule(born_from=2000), Rule(born_to=1965)]),
        prizes=prizes_st.map(tuple),
    ),
    max_size=3,
    unique_by=lambda c: c.name,
)
options_st = st.builds(
    Options, withdrawn=st.sampled_from(list(Withdrawn)), one_prize=st.booleans(), split_money=st.booleans()
)


@settings(max_examples=300, deadline=None)
@given(contenders_st(), prizes_st, categories_st, options_st)
def test_every_prize_at_most_once_and_money_never_grows(contenders, places, categories, options):
    result = allocate(contenders, places, categories, options)
    seen = [(a.category, a.rank) for a in result.awards]
    assert len(seen) == len(set(seen))
    for a in result.awards:
        ladder = places if a.category is None else next(c.prizes for c in categories if c.name == a.category)
        assert a.prize == ladder[a.rank - 1]
        if a.prize.amount is not None:
            assert sum(s.amount or 0 for s in a.shares) == a.prize.amount
        assert len({s.entry for s in a.shares}) == len(a.shares)
    # nobody left out and no ties: every place prize is given while there are entries for it
    untied = len({c.place for c in contenders}) == len(contenders)
    if not categories and options.withdrawn != Withdrawn.PASS_DOWN and untied:
        assert len(result.awards) == min(len(places), len(contenders))


@settings(max_examples=300, deadline=None)
@given(contenders_st(), prizes_st, categories_st, options_st)
def test_one_prize_rule_and_withdrawn_entries(contenders, places, categories, options):
    result = allocate(contenders, places, categories, options)
    withdrawn = {c.entry for c in contenders if not c.eligible}
    if options.one_prize:
        ladders_of: dict[int, set] = {}
        for a in result.awards:
            for s in a.shares:
                ladders_of.setdefault(s.entry, set()).add(a.category)
        assert all(len(ladders) == 1 for ladders in ladders_of.values())
    if options.withdrawn != Withdrawn.KEEP:
        assert not any(result.of_entry(e) for e in withdrawn)
    if options.withdrawn == Withdrawn.PASS_DOWN:
        assert not any(s.entry in withdrawn for a in result.awards for s in a.shares)
    for a in result.awards:  # category prizes only to members
        if a.category is not None:
            rule = next(c.rule for c in categories if c.name == a.category)
            players = {c.entry: c.players for c in contenders}
            assert all(rule.admits(players[s.entry]) for s in a.shares)


@settings(max_examples=200, deadline=None)
@given(contenders_st(), prizes_st)
def test_without_ties_or_withdrawals_place_prizes_follow_the_places(contenders, places):
    plain = [Contender(c.entry, c.order + 1, c.order, True, c.players) for c in contenders]
    result = allocate(plain, places)
    assert [(a.rank, a.winners) for a in result.awards] == [
        (i + 1, (plain[i].entry,)) for i in range(min(len(places), len(plain)))
    ]
