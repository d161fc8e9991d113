"""The duck analysis (solver.duck) against independent computation.

* Team splits on small positions: a minimax written here (seats in a set
  maximise the defender total, the rest minimise), the reference twin with
  the brief's queries (side {declarer, dummy, X}, count {declarer, dummy}),
  and the compiled engine.
* Reachable totals: the exact set of totals a player can bring about, built
  here bottom-up from sets (a maximiser's turn yields every m found in some
  card's set such that every card's set has an element <= m), against
  :func:`solver.duck.reach` on both backends.
* Deal level on late positions (3-4 cards left per hand, made by playing a
  seeded random line): every row's scores from score_hand, the rows are
  exactly the totals of some play-out, each player's reachable totals, the
  card level (values, ducks, who gains and loses), nils settled as
  documented and where a nil decides the leader.
* The rules' worked example as a real deal (hands/duck-worked-example.yaml).
"""
from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from dummy_spades.solver.auction import Auction
from dummy_spades.solver.cards import format_card, format_hand
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.duck import (CHOOSE, DECLARER_ROLES, EVERYONE_ROLES, MAX, MIN, NOT_FORCED,
                                     BreakGame, DuckError, Oracle, analyse, break_value, can_force,
                                     card_can_force, card_totals, defender_roles, nil_keep_max,
                                     reach, reachable_totals, team_splits)
from dummy_spades.solver.duck import HandLevel, OutcomeRows, duck_board, find_equilibrium
from dummy_spades.solver.duck.equilibrium import card_groups as eq_card_groups
from dummy_spades.solver.duck.hand import nil_statuses
from dummy_spades.solver.duck.questions import after_card_won_by
from dummy_spades.solver.position import Position
from dummy_spades.solver.rules import breaks_spades, legal_cards, trick_winner
from dummy_spades.solver.scoring import TRICKS_PER_HAND, NilBet, Standing, score_hand
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE

from model_helpers import with_breaking
from solver_checks import REF

try:
    from dummy_spades.solver import engine  # noqa: F401

    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - before the extension is built
    HAVE_ENGINE = False

needs_engine = pytest.mark.skipif(not HAVE_ENGINE, reason="compiled engine not built")
BACKENDS = ["reference"] + (["engine"] if HAVE_ENGINE else [])

HANDS = Path(__file__).resolve().parent.parent / "hands"
PLAYERS = ("Alice", "Bob", "Carol")
DEF = DEFENDER_SIDE


# ------------------------------------------------------------ brute force
def _children(hands, leader, trick, broken, breaking):
    """(card, child position, defender trick won) for each legal card."""
    seat = (leader + len(trick)) % 4
    legal = legal_cards(hands[seat], trick, broken, breaking)
    for card in range(52):
        if not legal >> card & 1:
            continue
        h = list(hands)
        h[seat] &= ~(1 << card)
        t = trick + (card,)
        if len(t) < 4:
            yield card, (tuple(h), leader, t, broken, breaking), 0
        else:
            w = (leader + trick_winner(t)) % 4
            yield card, (tuple(h), w, (), broken or breaks_spades(t), breaking), DEF >> w & 1


@lru_cache(maxsize=None)
def minimax(hands, leader, trick, broken, breaking, maxers):
    """Defender tricks from here when the seats in ``maxers`` maximise and the others minimise."""
    if not any(hands) and not trick:
        return 0
    seat = (leader + len(trick)) % 4
    vals = [won + minimax(*child, maxers)
            for _, child, won in _children(hands, leader, trick, broken, breaking)]
    return max(vals) if maxers >> seat & 1 else min(vals)


@lru_cache(maxsize=None)
def totals(hands, leader, trick, broken, breaking, roles):
    """The exact set of defender totals the CHOOSE seats can bring about."""
    if not any(hands) and not trick:
        return frozenset([0])
    seat = (leader + len(trick)) % 4
    sets = [frozenset(won + v for v in totals(*child, roles))
            for _, child, won in _children(hands, leader, trick, broken, breaking)]
    every = frozenset().union(*sets)
    if roles[seat] == CHOOSE:
        return every
    if roles[seat] == MAX:
        return frozenset(m for m in every if all(min(s) <= m for s in sets))
    return frozenset(m for m in every if all(max(s) >= m for s in sets))


def random_position(rng, n, in_trick=0, breaking=True):
    deck = rng.sample(range(52), 4 * n)
    hands = [sum(1 << c for c in deck[k * n:(k + 1) * n]) for k in range(4)]
    leader = rng.randrange(4)
    broken = rng.random() < 0.5
    trick = ()
    for i in range(in_trick):
        seat = (leader + i) % 4
        card = rng.choice([c for c in range(52) if legal_cards(hands[seat], trick, broken, breaking) >> c & 1])
        hands[seat] &= ~(1 << card)
        trick += (card,)
    return Position(tuple(hands), leader, trick, broken, breaking)


def positions(seed, count, n):
    rng = random.Random(seed)
    return [random_position(rng, n, in_trick=i % 4, breaking=i % 5 != 4) for i in range(count)]


SMALL = positions(4242, 24, 3) + positions(4343, 12, 4)
# a position where the totals of all play-outs have a gap (0, 2, 3 but not 1)
GAP = Position((5370806272, 1130300100837376, 137581559808, 268533760), 0, (), False, True)


# ------------------------------------------------------------ team splits
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("pos", SMALL, ids=lambda p: format_hand(p.hands[0]))
def test_team_splits_match_independent_minimax(pos, backend):
    s = team_splits(pos, Oracle(backend))
    args = pos[:]
    assert s.tricks_left == bin(pos.hands[pos.leader]).count("1") + (1 if pos.trick else 0)
    assert s.cooperative == minimax(*args, DEF)
    assert s.duck[1] == minimax(*args, 0b1000)    # the right defender alone maximises
    assert s.duck[3] == minimax(*args, 0b0010)
    assert s.lowest == minimax(*args, 0)
    assert s.highest == minimax(*args, 0b1111)
    assert s.lowest <= min(s.duck.values()) and max(s.duck.values()) <= s.cooperative <= s.highest


@pytest.mark.parametrize("pos", SMALL[:12], ids=lambda p: format_hand(p.hands[0]))
def test_team_splits_are_the_briefs_reference_queries(pos):
    s = team_splits(pos, Oracle("reference"))
    left = s.tricks_left
    assert s.cooperative == REF.max_tricks(pos, DEF)
    for x in (1, 3):
        assert s.duck[x] == left - REF.max_tricks(pos, DECLARER_SIDE | 1 << x, count=DECLARER_SIDE)


# ------------------------------------------------------------ reachable totals
ROLE_SETS = {"declarer": DECLARER_ROLES, "left": defender_roles(1), "right": defender_roles(3),
             "everyone": EVERYONE_ROLES, "mixed": (MIN, CHOOSE, MIN, MIN)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("who", sorted(ROLE_SETS))
def test_reach_matches_exact_sets(who, backend):
    roles = ROLE_SETS[who]
    oracle = Oracle(backend)
    for pos in SMALL[:24] + [GAP]:
        exact = totals(*pos[:], roles)
        got = reachable_totals(pos, roles, 0, 4, oracle)
        assert {t for t, r in got.items() if r} == set(exact), pos
        assert all(r is not None for r in got.values())


def test_reach_sees_a_gap():
    assert totals(*GAP[:], EVERYONE_ROLES) == {0, 2, 3}
    got = reachable_totals(GAP, EVERYONE_ROLES, 0, 3, Oracle("reference"))
    assert got == {0: True, 1: False, 2: True, 3: True}


def test_reach_ranges_and_budget():
    pos = SMALL[30]
    o = Oracle("reference")
    exact = totals(*pos[:], DECLARER_ROLES)
    lo, hi = min(exact), max(exact)
    assert reach(pos, DECLARER_ROLES, lo, hi, o) is True
    assert reach(pos, DECLARER_ROLES, hi + 1, 99, o) is False
    assert reach(pos, DECLARER_ROLES, -5, lo - 1, o) is False
    # a budget of one position cannot descend: unknown (None) or decided at the root
    assert reach(pos, EVERYONE_ROLES, 0, 0, o, budget=1) in (None, 0 in totals(*pos[:], EVERYONE_ROLES))


def test_roles_are_checked():
    pos = SMALL[0]
    with pytest.raises(ValueError):
        reach(pos, (CHOOSE, MAX, MIN, MAX), 0, 1, Oracle("reference"))   # declarer != dummy
    with pytest.raises(ValueError):
        reach(pos, ("x", MAX, "x", MAX), 0, 1, Oracle("reference"))
    with pytest.raises(ValueError):
        Oracle("dds")


# ------------------------------------------------------------ deal level
def random_hands(rng):
    deck = list(range(52))
    rng.shuffle(deck)
    masks = [sum(1 << c for c in deck[k * 13:(k + 1) * 13]) for k in range(4)]
    return {name: format_hand(m) for name, m in zip(PLAYERS + ("dummy",), masks)}


def late_deal(seed, calls=("5", "6", "7"), tricks=9, extra=0, scores=None, dealer="Carol",
              breaking=True):
    """A random deal with an auction, after ``tricks`` random tricks (+ ``extra`` cards)."""
    rng = random.Random(seed)
    auction = Auction.from_calls(PLAYERS, dealer, calls)
    deal = Deal(PLAYERS, dealer, random_hands(rng), auction=auction, scores=scores)
    if not breaking:
        from dummy_spades.solver.deal import Rules
        deal = replace(deal, rules=Rules(breaking=False))
    state = deal.board()
    for _ in range(4 * tricks + extra):
        state.push(rng.choice(state.legal_moves()))
    return replace(deal, played=state.moves)


def check_rows(deal, a):
    """Every row scored by score_hand (nils as the row settles them), values and margins."""
    auction = deal.auction
    for o in a.outcomes:
        hand_tricks = {n.hand: (0 if n.kept else 1) for n in o.nils}
        want = score_hand(auction.tricks_bid, auction.declarer, TRICKS_PER_HAND - o.defender_tricks,
                          auction.applicable_nils(), hand_tricks, deal.rules.scoring)
        values = {}
        for line in o.players:
            s = want[line.player]
            assert (line.points, line.bags, line.made) == (s.points, s.bags, s.made)
            values[line.player] = line.value
            if deal.scores is None:
                assert line.value == s.points
        for line in o.players:
            others = [v for p, v in values.items() if p != line.player]
            assert line.margin == line.value - max(others)
            assert dict(line.margins) == {p: line.value - v for p, v in values.items() if p != line.player}
        top = max(values.values())
        assert set(o.leaders) == {p for p, v in values.items() if v == top}


LATE = [late_deal(seed, tricks=9 + seed % 2, extra=seed % 3) for seed in range(1, 9)]


@pytest.mark.parametrize("deal", LATE, ids=lambda d: f"{len(d.played)}cards")
def test_deal_level_matches_brute_force(deal):
    a = analyse(deal, oracle=Oracle("reference"), time_limit=None)
    state = deal.board()
    pos = state.position
    w = state.defender_tricks
    assert a.won == (state.declarer_tricks, w)
    assert a.cooperative == w + minimax(*pos[:], DEF)
    assert a.duck == {a.left_defender: w + minimax(*pos[:], 0b1000),
                      a.right_defender: w + minimax(*pos[:], 0b0010)}
    everyone = {w + t for t in totals(*pos[:], EVERYONE_ROLES)}
    assert (a.lowest, a.highest) == (min(everyone), max(everyone))
    assert [o.defender_tricks for o in a.outcomes] == sorted(everyone)
    assert a.complete and all(o.reachable for o in a.outcomes)
    # what each player can bring about by their own choice of cards
    for player, roles in ((a.declarer, DECLARER_ROLES), (a.left_defender, defender_roles(1)),
                          (a.right_defender, defender_roles(3))):
        exact = {w + t for t in totals(*pos[:], roles)}
        opt = a.options_of(player)
        assert {t for t, r in opt.reachable.items() if r} == exact
        for o in a.outcomes:
            assert (player in o.reachable_by) == (o.defender_tricks in exact)
    # the settle total: the most conceded while making, against defenders who maximise
    contract = TRICKS_PER_HAND - deal.auction.tricks_bid[a.declarer]
    makeable = [t for t in {w + t for t in totals(*pos[:], DECLARER_ROLES)} if t <= contract]
    assert a.settle == (max(makeable) if makeable else None)
    check_rows(deal, a)
    marks = {m: o.defender_tricks for o in a.outcomes for m in o.marks}
    assert marks["coop"] == a.cooperative
    assert marks[f"duck {a.left_defender}"] == a.duck[a.left_defender]


@pytest.mark.parametrize("deal", LATE, ids=lambda d: f"{len(d.played)}cards")
def test_card_level(deal):
    a = analyse(deal, oracle=Oracle("reference"), time_limit=0)
    state = deal.board()
    pos = state.position
    w = state.defender_tricks
    values = REF.card_values(pos, DEF)
    assert sorted(c for opt in a.cards for c in opt.cards) == sorted(values)
    chooser_defends = state.chooser in (1, 3)
    best = (max if chooser_defends else min)(values.values()) + w
    assert a.best_card_total == best
    by_card = {}
    for opt in a.cards:
        for c in opt.cards:
            assert opt.defender_tricks == w + values[c]
            by_card[c] = opt
        assert opt.tricks_given_up == abs(opt.defender_tricks - best)
        assert opt.duck == (opt.defender_tricks != best)
        ref = next(o for o in a.cards if not o.duck).outcome
        for p in a.players:
            assert (p in opt.gains) == (opt.outcome.value(p) > ref.value(p))
            assert (p in opt.loses) == (opt.outcome.value(p) < ref.value(p))
        if opt.duck:
            # a defender's duck gives the declarer a trick, the declarer's gives one away
            assert (opt.defender_tricks < best) == chooser_defends
    assert any(not o.duck for o in a.cards)


@pytest.mark.parametrize("seed", [72, 83])
def test_a_defenders_duck_gains_and_losses(seed):
    """A defender's duck can set the other defender: on these seeded late
    positions (the first two such among seeds 1-199) a defender to play has a
    duck that gains the declarer something and costs only defenders."""
    deal = late_deal(seed, calls=("4", "7", "8"), tricks=9)
    assert deal.board().chooser in (1, 3)  # a defender to play
    a = analyse(deal, oracle=Oracle("reference"), time_limit=0)
    found = [o for o in a.cards if o.duck and o.gains and a.declarer in o.gains and o.loses]
    assert found
    for o in found:
        assert all(p in a.defenders for p in o.loses)


# ------------------------------------------------------------ nils
NIL_CALLS = ("5 nil self", "3 nil Alice", "7 nil dummy")  # Alice, Bob, Carol (declarer)


@pytest.mark.parametrize("seed", range(1, 7))
def test_nils_settled_in_every_row(seed):
    deal = late_deal(seed, calls=NIL_CALLS, tricks=9, extra=seed % 4)
    assert deal.auction.applicable_nils() == [NilBet("Alice", "Alice"), NilBet("Bob", "Alice"),
                                              NilBet("Carol", "dummy")]
    a = analyse(deal, oracle=Oracle("reference"), time_limit=None)
    state = deal.board()
    pos = state.position
    names = state.names
    side_won = {DECLARER_SIDE: state.declarer_tricks, DEFENDER_SIDE: state.defender_tricks}
    keep = {}
    for n in a.nils:
        seat = names.index(n.hand)
        assert n.won == state.tricks_won[seat]
        if n.won:
            assert n.keep_max is None
            keep[n.hand] = None
            continue
        k = REF.max_tricks(pos, DEFENDER_SIDE if seat in (1, 3) else DECLARER_SIDE, nil_seat=seat)
        assert n.keep_max == (None if k < 0 else k + side_won[n.side])
        keep[n.hand] = n.keep_max
    check_rows(deal, a)
    for o in a.outcomes:
        for s in o.nils:
            side = "declarer" if s.hand == "dummy" else "defenders"
            side_total = o.defender_tricks if side == "defenders" else TRICKS_PER_HAND - o.defender_tricks
            k = keep[s.hand]
            assert s.kept == (k is not None and side_total <= k)
            assert s.points == (100 if s.kept else -100)
            # "decides": the other result changes who leads
            flipped = {n.hand: (n.kept != (n.hand == s.hand)) for n in o.nils}
            scores = score_hand(deal.auction.tricks_bid, "Carol", o.declarer_tricks,
                                deal.auction.applicable_nils(),
                                {h: 0 if k_ else 1 for h, k_ in flipped.items()})
            top = max(x.points for x in scores.values())
            leaders = {p for p, x in scores.items() if x.points == top}
            if s.reason != "already-lost":
                assert s.decides == (leaders != set(o.leaders))
    # the card level settles each nil after each card
    for opt in a.cards:
        for s in opt.outcome.nils:
            seat = names.index(s.hand)
            if state.tricks_won[seat]:
                assert not s.kept and s.reason == "already-lost"
                continue
            after = REF.card_values(pos, DEFENDER_SIDE if seat in (1, 3) else DECLARER_SIDE,
                                    nil_seat=seat)[opt.cards[0]]
            k = None if after < 0 else after + side_won[DECLARER_SIDE if seat in (0, 2) else DEFENDER_SIDE]
            side_total = (opt.defender_tricks if seat in (1, 3)
                          else TRICKS_PER_HAND - opt.defender_tricks)
            assert s.kept == (k is not None and side_total <= k)


def test_a_nil_decides_somewhere():
    """On this seeded late position (the first such among seeds 1-39) a nil
    decides who leads in some row."""
    deal = late_deal(5, calls=NIL_CALLS, tricks=9)
    a = analyse(deal, oracle=Oracle("reference"), time_limit=0)
    assert any(o.nil_decides for o in a.outcomes)


def test_running_scores_and_bag_penalties():
    scores = {"Alice": Standing(300, 9), "Bob": Standing(280, 2), "Carol": Standing(290, 8)}
    deal = late_deal(3, scores=scores)
    a = analyse(deal, oracle=Oracle("reference"), time_limit=None)
    check_rows(deal, a)
    for o in a.outcomes:
        for line in o.players:
            before = scores[line.player]
            bags = before.bags + line.bags
            penalties = bags // 10
            assert line.before == (before.points, before.bags)
            assert line.bag_penalties == penalties
            assert line.after == (before.points + line.points - 100 * penalties, bags - 10 * penalties)
            assert line.value == line.after[0]


# ------------------------------------------------------------ bad input
def test_bad_deals():
    base = late_deal(1)
    with pytest.raises(DuckError, match="no auction"):
        analyse(replace(base, auction=None, played=()), oracle=Oracle("reference"))
    partial = Auction.from_calls(PLAYERS, "Carol", ["5", "6"])
    with pytest.raises(DuckError, match="not complete"):
        analyse(replace(base, auction=partial, played=()), oracle=Oracle("reference"))
    over = load_deal(HANDS / "bag-penalty.yaml")
    with pytest.raises(DuckError, match="all 13 tricks.*nothing left to duck"):
        analyse(over, oracle=Oracle("reference"))


def test_no_spade_breaking_switch():
    """The rules come on the deal: switched off there, the analysis plays without them."""
    deal = late_deal(5, tricks=9)
    a = analyse(with_breaking(deal, False), oracle=Oracle("reference"), time_limit=0)
    assert not a.deal.rules.breaking
    pos = deal.board().position._replace(breaking=False)
    assert a.cooperative == deal.board().defender_tricks + minimax(*pos[:], DEF)


# ------------------------------------------------------------ the worked example
@pytest.fixture(scope="module")
def worked():
    if not HAVE_ENGINE:
        pytest.skip("compiled engine not built")
    deal = load_deal(HANDS / "duck-worked-example.yaml")
    return deal, analyse(deal, time_limit=0)


def scores_at(a, d):
    o = a.outcome(d)
    return {p.player: p.points for p in o.players}


@needs_engine
def test_worked_example_deal(worked):
    deal, a = worked
    assert deal.auction.tricks_bid == {"Alice": 5, "Bob": 6, "Carol": 7}
    assert not deal.auction.applicable_nils()
    assert (a.declarer, a.left_defender, a.right_defender) == ("Carol", "Alice", "Bob")
    assert a.cooperative == 7
    assert scores_at(a, 7) == {"Carol": -70, "Alice": 52, "Bob": 61}
    assert a.duck["Alice"] == 5
    assert scores_at(a, 5) == {"Carol": 71, "Alice": 50, "Bob": -60}
    assert "coop" in a.outcome(7).marks and "duck Alice" in a.outcome(5).marks
    assert a.options_of("Bob").alone == 5          # what Bob alone makes sure of
    assert a.settle is None                         # Carol cannot make 7
    duck = next(e for e in a.effects if e.player == "Alice" and e.kind == "duck")
    assert (duck.total, duck.own_change) == (5, -2) and not duck.raises_own
    row = a.outcome(5).line("Alice")
    assert row.margins["Bob"] - a.outcome(7).line("Alice").margins["Bob"] == 119


@needs_engine
def test_worked_example_card_level(worked):
    deal, a = worked
    assert a.to_move == "Alice" and a.best_card_total == 7
    best = [o for o in a.cards if not o.duck]
    ducks = [o for o in a.cards if o.duck]
    assert best and ducks
    assert all(o.defender_tricks == 7 for o in best)
    for o in ducks:
        assert o.defender_tricks < 7 and "Carol" in o.gains and "Carol" not in o.loses
    pos = deal.board().position
    groups = card_totals(pos, Oracle())
    assert sorted(c for g, _ in groups for c in g) == sorted(c for o in a.cards for c in o.cards)


@needs_engine
def test_engine_nil_queries_match_reference():
    for seed in range(1, 5):
        deal = late_deal(seed, calls=NIL_CALLS, tricks=9)
        pos = deal.board().position
        for seat in (0, 1, 2):
            assert nil_keep_max(pos, seat, Oracle()) == nil_keep_max(pos, seat, Oracle("reference"))


# ------------------------------------------------------------ nil breaking
@lru_cache(maxsize=None)
def lex_break(hands, leader, trick, broken, breaking, game, done=False):
    """The breaking game by plain lexicographic minimax: values are (the nil
    hand has won a trick, tricks of game.count); the breakers maximise, the
    other seats minimise. NOT_FORCED when the hand can be kept trickless."""
    @lru_cache(maxsize=None)
    def value(hands, leader, trick, broken, done):
        if not any(hands) and not trick:
            return done, 0
        seat = (leader + len(trick)) % 4
        vals = []
        for _, child, _ in _children(hands, leader, trick, broken, breaking):
            if child[2]:                       # the trick goes on
                vals.append(value(*child[:4], done))
                continue
            w = child[1]
            b, n = value(*child[:4], done or w == game.nil_seat)
            vals.append((b, n + (game.count >> w & 1)))
        return max(vals) if game.breakers >> seat & 1 else min(vals)

    b, n = value(hands, leader, trick, broken, done)
    return n if b else NOT_FORCED


def break_games(seat):
    return {"partner": BreakGame.by_defender(seat), "declarer": BreakGame.by_declarer(seat),
            "with-declarer": BreakGame.with_declarer(seat)}


@pytest.mark.parametrize("backend", BACKENDS)
def test_break_value_matches_lexicographic_minimax(backend):
    oracle = Oracle(backend)
    forced = kept = 0
    for pos in SMALL[:24] + positions(4545, 12, 3):
        for seat in (1, 3):
            for name, game in break_games(seat).items():
                want = lex_break(*pos[:], game)
                assert break_value(pos, game, oracle) == want, (pos, name)
                assert can_force(pos, game, oracle) == (want != NOT_FORCED)
                forced += want != NOT_FORCED
                kept += want == NOT_FORCED
    assert forced > 20 and kept > 20


@pytest.mark.parametrize("backend", BACKENDS)
def test_card_can_force_matches_minimax(backend):
    oracle = Oracle(backend)
    for pos in SMALL[:12]:
        for seat in (1, 3):
            for game in break_games(seat).values():
                got = card_can_force(pos, game, oracle)
                for card, child, _ in _children(*pos[:]):
                    done = not child[2] and child[1] == seat
                    assert got[card] == (lex_break(*child, game, done) != NOT_FORCED), (pos, card)


def test_break_value_budget():
    pos = next(p for p in SMALL if lex_break(*p[:], BreakGame.by_defender(1)) not in (NOT_FORCED, 0))
    assert break_value(pos, BreakGame.by_defender(1), Oracle("reference"), budget=0) is None


def live_nil_deal(seed, calls, tricks=9, extra=0, scores=None):
    """A late deal in which every applicable nil hand has won nothing: the
    nil hands always play their lowest card (seeds are tried from ``seed`` on)."""
    while True:
        rng = random.Random(seed)
        auction = Auction.from_calls(PLAYERS, "Carol", calls)
        deal = Deal(PLAYERS, "Carol", random_hands(rng), auction=auction, scores=scores)
        state = deal.board()
        nil_seats = {state.names.index(b.hand) for b in auction.applicable_nils()}
        for _ in range(4 * tricks + extra):
            moves = state.legal_moves()
            low = state.to_move in nil_seats
            state.push(min(moves, key=lambda c: c % 13) if low else rng.choice(moves))
        if not any(state.tricks_won[s] for s in nil_seats):
            return replace(deal, played=state.moves)
        seed += 1000


#: Alice defends with a nil on her own hand, Bob bets nil on Alice too.
PARTNER_NIL_CALLS = ("2 nil self", "3 nil Alice", "7")
BREAK_DEALS = [live_nil_deal(s, PARTNER_NIL_CALLS, tricks=9 + s % 2, extra=s % 4)
               for s in (1, 2, 3, 4, 5, 6, 13, 16)] + \
    [live_nil_deal(s, ("1 nil self", "4", "7"), tricks=9, extra=s % 4,
                   scores={"Alice": Standing(420, 3), "Bob": Standing(410, 2),
                           "Carol": Standing(380, 5)}) for s in range(7, 12)]


@lru_cache(maxsize=None)
def break_analysis(i):
    """The reference analysis of BREAK_DEALS[i], once per session."""
    return analyse(BREAK_DEALS[i], oracle=Oracle("reference"), time_limit=None)


@pytest.mark.parametrize("i", range(len(BREAK_DEALS)),
                         ids=[f"{len(d.played)}cards" for d in BREAK_DEALS])
def test_nil_breaks_at_deal_level(i):
    deal, a = BREAK_DEALS[i], break_analysis(i)
    state = deal.board()
    pos = state.position
    w, left = state.defender_tricks, state.tricks_left
    assert [(b.breaker, b.hand) for b in a.nil_breaks] == [("Bob", "Alice"), ("Carol", "Alice")]
    coop = a.outcome(a.cooperative)
    for b in a.nil_breaks:
        q = b.question
        assert set(q.bidders) == {n.bidder for n in a.nils if n.hand == "Alice"}
        partner = b.breaker != a.declarer
        game = BreakGame.by_defender(1) if partner else BreakGame.by_declarer(1)
        want = lex_break(*pos[:], game)
        assert q.can_force == (want != NOT_FORCED)
        if partner:
            assert q.with_declarer == (lex_break(*pos[:], BreakGame.with_declarer(1)) != NOT_FORCED)
        else:
            assert q.with_declarer is None
            assert q.can_force == (a.nils[0].keep_max is None)   # the table's nil query
        if not q.can_force:
            assert b.outcome is None and b.pays is None
            continue
        assert b.defender_tricks == w + (want if partner else left - want)
        o = b.outcome
        assert o.defender_tricks == b.defender_tricks
        for s in o.nils:
            if s.hand == "Alice":
                assert not s.kept and s.reason == "broken" and s.points == -100
        hand_tricks = {"Alice": 1}
        result = deal.score(TRICKS_PER_HAND - o.defender_tricks, hand_tricks)
        for line in o.players:
            want_value = (result.ledger and next(e.after.points for e in result.ledger
                                                 if e.player == line.player))
            assert line.points == result.score_of(line.player).points
            assert line.value == (want_value if deal.scores else line.points)
        assert b.own_change == o.value(b.breaker) - coop.value(b.breaker)
        assert b.margin_change == o.line(b.breaker).margin - coop.line(b.breaker).margin
        assert b.pays == ((b.own_change, b.margin_change) > (0, 0))
    # card level: who can still force the trick after each card
    for opt in a.cards:
        assert [(x.breaker, x.hand) for x in opt.nil_breaks] == [("Bob", "Alice"), ("Carol", "Alice")]
        for x in opt.nil_breaks:
            game = BreakGame.by_defender(1) if x.breaker == "Bob" else BreakGame.by_declarer(1)
            child, winner = after_card_won_by(pos, opt.cards[0])
            after = lex_break(*child, game, winner == 1)
            assert x.can_force == (after != NOT_FORCED)


def test_the_deals_cover_every_kind_of_break():
    seen = set()
    for i in range(len(BREAK_DEALS)):
        for b in break_analysis(i).nil_breaks:
            seen.add((b.breaker, b.question.can_force, b.question.with_declarer, b.pays))
    for kind in (("Bob", True, True, True), ("Bob", True, True, False), ("Bob", False, True, None),
                 ("Bob", False, False, None), ("Carol", True, None, False),
                 ("Carol", False, None, None)):
        assert kind in seen


def test_break_total_not_determined_in_time():
    deal = BREAK_DEALS[-1]
    a = analyse(deal, oracle=Oracle("reference"), time_limit=0)
    for b in a.nil_breaks:
        assert b.defender_tricks is None and b.outcome is None
        if b.question.can_force:
            assert f"the total when {b.breaker} breaks the nil on Alice" in a.undetermined


@needs_engine
def test_nil_break_deal():
    deal = load_deal(HANDS / "nil-break.yaml")
    a = analyse(deal, time_limit=None)
    coop = a.outcome(a.cooperative)
    assert a.cooperative == 7 and coop.winner == "Alice" and coop.nils[0].kept
    bob = a.nil_break("Bob", "Alice")
    assert bob.question.can_force and bob.defender_tricks == 7 and bob.pays
    assert (bob.own_change, bob.margin_change) == (0, 200)
    assert bob.outcome.leaders == ("Bob",) and bob.outcome.winner is None
    assert {p.player: p.value for p in bob.outcome.players} == {"Alice": 336, "Bob": 453, "Carol": 310}
    assert not a.nil_break("Carol", "Alice").question.can_force
    keeps = {format_card(c): opt.nil_breaks[0].can_force for opt in a.cards for c in opt.cards}
    assert keeps == {"SA": True, "S6": False, "S3": False, "D7": True}


# ------------------------------------------------------------ equilibrium
def brute_equilibrium(deal):
    """Max-n by enumeration: every legal card tried, the finished hand scored
    by Deal.score; each player takes the card with the highest (value,
    margin, side tricks), the lowest card on ties. Returns (moves, result)."""
    state = deal.board()
    names = state.names
    declarer = names[0]

    def key(result, player):
        if result.ledger is not None:
            values = {e.player: e.after.points for e in result.ledger}
        else:
            values = {s.player: s.points for s in result.scores}
        margin = values[player] - max(v for p, v in values.items() if p != player)
        side = result.declarer_tricks if player == declarer else result.defender_tricks
        return values[player], margin, side

    def search():
        if state.is_over:
            return tuple(state.moves), replace(deal, played=state.moves).score()
        player = names[state.chooser]
        best = None
        for card in sorted(state.legal_moves()):
            state.push(card)
            leaf = search()
            state.pop()
            if best is None or key(leaf[1], player) > key(best[1], player):
                best = leaf
        return best

    return search()


EQ_SCORES = {"Alice": Standing(455, 8), "Bob": Standing(440, 2), "Carol": Standing(430, 9)}
EQ_CALLS = [("5", "6", "7"), ("4", "7", "8"), ("2 nil self", "3 nil Alice", "7"),
            ("1 nil self", "4", "7"), ("3", "5", "6 nil dummy")]


def eq_deal(seed):
    return live_nil_deal(seed, EQ_CALLS[seed % 5], tricks=10 + seed % 2, extra=seed % 4,
                         scores=EQ_SCORES if seed % 3 == 0 else None)


# seeds 22 ... 148: endings where the equilibrium differs from cooperative play
EQ_DEALS = [eq_deal(s) for s in list(range(1, 21)) + [22, 32, 54, 88, 108, 148]]


@lru_cache(maxsize=None)
def brute_equilibrium_of(i):
    """brute_equilibrium of EQ_DEALS[i], once per session (each backend is compared with it)."""
    return brute_equilibrium(EQ_DEALS[i])


def equilibrium_of(deal, oracle):
    at = duck_board(deal)
    nils = nil_statuses(at, oracle)
    scorer = OutcomeRows(deal, nils)
    return find_equilibrium(at, scorer, nils,
                            scorer.outcome(HandLevel.at(at, oracle).cooperative), oracle)


@pytest.mark.parametrize("backend", BACKENDS)
def test_equilibrium_matches_brute_force(backend):
    oracle = Oracle(backend)
    differs = engine_leaves = searched = 0
    for i, deal in enumerate(EQ_DEALS):
        moves, result = brute_equilibrium_of(i)
        e = equilibrium_of(deal, oracle)
        assert tuple(s.card for s in e.line) == moves[len(deal.played):]
        o = e.outcome
        assert o.declarer_tricks == result.declarer_tricks
        assert [p.points for p in o.players] == [s.points for s in result.scores]
        assert {n.hand: n.kept for n in o.nils} == {r.hand: r.success for s in result.scores
                                                     for r in s.nils}
        state = deal.board()
        for s in e.line:
            assert s.hand == state.names[state.to_move]
            assert s.player == state.names[state.chooser]
            values = REF.card_values(state.position, DEF)
            best = (max if state.chooser in (1, 3) else min)(values.values())
            assert s.cooperative == (values[s.card] == best)
            state.push(s.card)
        assert e.first_deviation == next((i for i, s in enumerate(e.line) if not s.cooperative),
                                         None)
        assert dict(e.changes) == {p.player: p.value - e.cooperative.value(p.player)
                                   for p in o.players}
        chosen = [c for c in e.cards if c.chosen]
        assert len(chosen) == 1 and chosen[0].cards[0] == e.line[0].card
        assert chosen[0].outcome == o
        differs += e.differs
        engine_leaves += e.engine_leaves
        searched += e.nodes - e.engine_leaves
    assert differs >= 6 and engine_leaves and searched


def test_equilibrium_card_groups_are_equivalent_cards():
    for pos in SMALL:
        groups = eq_card_groups(pos)
        legal = legal_cards(pos.hands[(pos.leader + len(pos.trick)) % 4], pos.trick,
                            pos.spades_broken, pos.breaking)
        assert sorted(c for g in groups for c in g) == [c for c in range(52) if legal >> c & 1]
        for g in groups:
            # equivalent: the same defender total whoever maximises, for each card of the group
            for maxers in (DEF, 0b0101):
                vals = {minimax(*child, maxers) + won
                        for card, child, won in _children(*pos[:]) if card in g}
                assert len(vals) == 1


def test_equilibrium_above_the_size_limit():
    deal = late_deal(1, tricks=7)
    with pytest.raises(DuckError, match="not available with 6 tricks left"):
        analyse(deal, oracle=Oracle("reference"), with_equilibrium=True)


@needs_engine
def test_equilibrium_at_the_size_limit():
    for seed in range(1, 4):
        deal = live_nil_deal(seed, ("1 nil self", "4", "7"), tricks=8)
        a = analyse(deal, time_limit=0, with_equilibrium=True)
        assert a.tricks_left == 5 and a.equilibrium.line[-1].card in range(52)
        assert len(a.equilibrium.line) == 20


@needs_engine
def test_nil_break_deal_equilibrium():
    a = analyse(load_deal(HANDS / "nil-break.yaml"), time_limit=0, with_equilibrium=True)
    e = a.equilibrium
    assert e.differs and dict(e.changes) == {"Carol": 0, "Alice": -200, "Bob": 0}
    assert e.outcome.defender_tricks == 7 and e.outcome.leaders == ("Bob",)
    assert [(n.hand, n.reason) for n in e.outcome.nils] == [("Alice", "wins-a-trick")]
    assert e.cooperative.winner == "Alice" and e.outcome.winner is None
