"""Bid soundness by double-dummy simulation (solver/bid.py).

Most tests run on a fake solver (a cheap deterministic function of the
hands) so that the sampling, the plan, the scoring arithmetic and the
statistics are checked without the cost of full-deal searches. The
statistical sanity checks and the determinism across job counts use the
compiled engine with fixed seeds and few samples.
"""
from __future__ import annotations

import math
import random

import pytest

from dummy_spades.solver import bid as sim
from dummy_spades.solver.bid import simulate
from dummy_spades.solver.auction import Auction, Bid
from dummy_spades.solver.bid import (BidError, Candidate, Knowledge, KnowledgeError, Plan,
                                     SampleResult, declarer_for, plan_for, sample_layout,
                                     sample_outcome)
from dummy_spades.solver.simulation import Estimate, Settings, SimulationError, checkpoints
from dummy_spades.solver.simulation.model import certain_trick
from dummy_spades.solver.cards import FULL_DECK, count, parse_card, parse_hand
from dummy_spades.solver.deal import Deal, Rules, Variant
from dummy_spades.solver.dealfile import loads_deal
from dummy_spades.solver.limits import LAYOUT_TT_MB
from dummy_spades.solver.position import Position
from dummy_spades.solver.run import Inline, ProcessPool
from dummy_spades.solver.scoring import DUMMY, NilBet, ScoringRules, Standing, apply_bags, score_hand
from dummy_spades.solver.seating import DECLARER_SIDE

PLAYERS = ("Alice", "Bob", "Carol")


class FakeSolver:
    """A cheap stand-in for the engine: tricks = high cards of the side
    (aces, kings, queens and spades above the nine), at most 13; a nil is
    kept when the nil hand holds no card above the ten. ``bound`` answers
    with the exact value (a fail-soft bound that is never loose)."""

    nodes = trick_nodes = 0

    def __init__(self):
        self.calls = []

    def clear(self):
        pass

    def reset_stats(self):
        pass

    def max_tricks(self, pos, side, count=None, nil_seat=None):
        hands = pos.hands
        self.calls.append((tuple(hands), pos.leader, side, count, nil_seat))
        mask = count if count is not None else side
        high = 0
        for seat in range(4):
            if mask >> seat & 1:
                h = hands[seat]
                for c in range(52):
                    if h >> c & 1 and (c % 13 >= 10 or (c < 13 and c % 13 >= 8)):
                        high += 1
        tricks = min(13, high)
        if nil_seat is not None:
            h = hands[nil_seat]
            if any(h >> c & 1 and c % 13 >= 9 for c in range(52)):
                return -1
            return max(0, tricks - 1)
        if count is not None and count != side:
            return 0 if tricks <= 1 else 1
        return tricks

    def bound(self, pos, side, target, count=None, nil_seat=None):
        return self.max_tricks(pos, side, count, nil_seat)

    def at_least(self, pos, side, target, count=None, nil_seat=None):
        return self.bound(pos, side, target, count, nil_seat) >= target


def deal(**over):
    fields = dict(
        players=PLAYERS, dealer="Carol",
        hands={"Alice": "AKQJ.A32.A32.A32", "Bob": "T98.KQJ.KQJ.KQJ4",
               "Carol": "765.T987.T987.T9", "dummy": "432.654.654.8765"},
    )
    fields.update(over)
    return Deal(**fields)


STRONG = deal()  # Alice (first bidder): the four top spades and three side aces
NIL_HAND = Deal(PLAYERS, "Carol", {
    "Alice": "AKQ.AKQ.J98.T987", "Bob": ".5432.5432.65432",
    "Carol": "J98765.J98.KQ7.A", "dummy": "T432.T76.AT6.KQJ"},
    auction=Auction(PLAYERS, "Carol", (Bid("Alice", 6),)))  # Bob: low cards, no spades


# ---------------------------------------------------------------- knowledge
def test_knowledge_defaults_to_the_next_bidder():
    d = deal(auction=Auction(PLAYERS, "Carol", (Bid("Alice", 5),)))
    k = Knowledge.from_deal(d)
    assert k.player == "Bob" and k.position == 1 and k.bids == (Bid("Alice", 5),)
    assert k.later_bidders == ("Carol",) and k.first_bidder == "Alice"
    assert k.others == ("Carol", "Alice")
    assert k.hand == d.hands["Bob"] and k.dummy_seen == 0


def test_knowledge_of_a_player_who_has_bid_keeps_only_earlier_bids():
    d = deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5", "6 nil Carol", "7"]))
    assert Knowledge.from_deal(d, "Alice").bids == ()
    assert Knowledge.from_deal(d, "Carol").bids == d.auction.bids[:2]
    assert sim.file_bid(d, "Bob") == Candidate(6, ("Carol",))


@pytest.mark.parametrize("calls,player,declarers", [
    ([], "Alice", ("Alice", "Bob", "Carol")),                    # first to bid: any role
    (["5"], "Bob", ("Alice", "Bob", "Carol")),                   # Carol may still outbid both
    (["5", "6"], "Carol", ("Bob", "Carol")),                     # Alice is outbid for good
    (["6", "6"], "Carol", ("Alice", "Carol")),                   # ties go to the earlier bidder
    (["13"], "Bob", ("Alice",)),                                 # nobody outbids 13
    (["4", "13"], "Carol", ("Bob",)),
])
def test_roles_the_auction_leaves_open(calls, player, declarers):
    """Only the roles the player can still end up in are solved and reported."""
    d = deal(auction=Auction.from_calls(PLAYERS, "Carol", calls + ["0"] * (3 - len(calls))))
    k = Knowledge.from_deal(d, player)
    assert k.declarers == declarers
    plan = plan_for(k, [Candidate(2, ("Alice", "Bob", "Carol"))])
    assert {d for d, _ in plan.nils} <= set(declarers) and set(plan.zeros) <= set(declarers)
    solver = FakeSolver()
    result = sim.solve_layout(solver, k, sample_layout(k, 1, 0), plan)
    assert [t is not None for t in result.declarer_tricks] == [p in declarers for p in PLAYERS]
    assert sum(1 for c in solver.calls if c[4] is None and c[3] is None) == len(declarers)
    a = sim.analyse(k, Settings(samples=4, seed=1), executor=Inline(FakeSolver()))
    assert {r.declarer for r in a.roles} == set(declarers)
    assert all({d for d, _ in c.by_role} == set(declarers) for c in a.candidates)
    assert all(sample_outcome(k, plan, c.candidate, r).declarer in declarers
               for c in a.candidates for r in a.results)


def test_knowledge_errors():
    d = deal(auction=Auction(PLAYERS, "Carol", (Bid("Alice", 5),)))
    with pytest.raises(KnowledgeError, match="unknown player 'Zed'"):
        Knowledge.from_deal(d, "Zed")
    with pytest.raises(KnowledgeError, match="has not bid yet"):
        Knowledge.from_deal(d, "Carol")
    full = deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5", "6", "7"]))
    with pytest.raises(KnowledgeError, match="auction is complete"):
        Knowledge.from_deal(full)
    with pytest.raises(KnowledgeError, match="13 cards"):
        Knowledge("Alice", PLAYERS, "Carol", parse_hand("AKQ..."))


def test_knowledge_of_dummy_cards_under_the_variants():
    peeky = Variant("three-peeky", {"Alice": parse_hand("4.6.6."), "Bob": parse_hand("3.5..8")})
    two_bids = Auction.from_calls(PLAYERS, "Carol", ["5", "6"])
    d = deal(variant=peeky, auction=two_bids)
    assert Knowledge.from_deal(d, "Alice").dummy_seen == parse_hand("4.6.6.")  # own peeks only
    assert Knowledge.from_deal(d, "Carol").dummy_seen == 0
    flip = Variant("flip-2", {"Alice": parse_hand("4.6.."), "Bob": parse_hand("3...8")})
    d = deal(variant=flip, auction=two_bids)
    for p in PLAYERS:  # every flipped card is seen by everyone
        assert Knowledge.from_deal(d, p).dummy_seen == parse_hand("43.6..8")


def test_knowledge_takes_scores_and_the_deals_rules():
    d = deal(scores={"Alice": Standing(120, 8), "Bob": Standing(0, 0), "Carol": Standing(5, 1)},
             rules=Rules(False, ScoringRules(bag_threshold=5)))
    k = Knowledge.from_deal(d, "Alice")
    assert k.standing == Standing(120, 8) and k.rules.scoring.bag_threshold == 5 and not k.breaking
    assert k.rules == d.rules and k.scores == d.scores
    assert Knowledge.from_deal(deal(), "Alice").breaking is True


# ---------------------------------------------------------------- sampling
def _check_layout(k: Knowledge, layout):
    assert set(layout) == {*PLAYERS, DUMMY}
    assert layout[k.player] == k.hand
    assert layout[DUMMY] & k.dummy_seen == k.dummy_seen
    total = 0
    for mask in layout.values():
        assert count(mask) == 13
        assert total & mask == 0
        total |= mask
    assert total == FULL_DECK


@pytest.mark.parametrize("variant,player", [
    (Variant(), "Bob"),
    (Variant("three-peeky", {"Alice": parse_hand("4.6.6."), "Bob": parse_hand("4.5..8")}), "Bob"),
    (Variant("four-peeky", {"Carol": parse_hand("432.6..")}), "Carol"),
    (Variant("flip-3", {"Alice": parse_hand("4.6.6."), "Bob": parse_hand("3.5..8"),
                        "Carol": parse_hand("..54.7")}), "Alice"),
])
def test_every_sample_respects_the_knowledge(variant, player):
    two_bids = Auction.from_calls(PLAYERS, "Carol", ["5", "6"])
    k = Knowledge.from_deal(deal(variant=variant, auction=two_bids), player)
    assert k.dummy_seen == variant.known_to(player)
    for i in range(300):
        _check_layout(k, sample_layout(k, 7, i))


def test_samples_are_a_function_of_seed_and_index():
    k = Knowledge.from_deal(deal(), "Alice")
    assert sample_layout(k, 3, 17) == sample_layout(k, 3, 17)
    assert sample_layout(k, 3, 17) != sample_layout(k, 3, 18)
    assert sample_layout(k, 3, 17) != sample_layout(k, 4, 17)


def test_unseen_cards_are_spread_uniformly():
    """Each unseen card lands in the dummy with chance (13 - known) / unseen."""
    variant = Variant("four-peeky", {"Bob": parse_hand("432.6..")})
    k = Knowledge.from_deal(deal(variant=variant, auction=Auction.from_calls(PLAYERS, "Carol", ["5"])),
                            "Bob")
    card = parse_card("HA")
    n = 1200
    to_dummy = sum(1 for i in range(n) if sample_layout(k, 1, i)[DUMMY] >> card & 1)
    p = 9 / 35
    assert abs(to_dummy / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_certain_trick():
    assert certain_trick(parse_hand("A..."))
    assert certain_trick(parse_hand("KQ..."))
    assert certain_trick(parse_hand("QJT..."))
    assert not certain_trick(parse_hand("K..."))
    assert not certain_trick(parse_hand("KJ..."))
    assert not certain_trick(parse_hand("QJ..."))
    assert not certain_trick(parse_hand(".AKQ.AKQ.AKQ"))
    assert certain_trick(parse_hand("AKQJT98765432..."))


# ------------------------------------------------------------------ solving
def test_plan_asks_own_nil_in_every_role_and_the_dummy_when_declaring():
    k = Knowledge.from_deal(deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5"])), "Bob")
    plan = plan_for(k)
    assert plan.nils == (("Bob", "Bob"), ("Carol", "Bob"), ("Alice", "Bob"), ("Bob", DUMMY))
    assert plan.zeros == ()
    plan = plan_for(k, [Candidate(0, ("Bob", "Alice")), Candidate(4, ("Bob", DUMMY))])
    assert ("Carol", "Alice") in plan.nils  # Bob and Alice both defend when Carol declares
    assert set(plan.zeros) == {"Bob", "Carol"}


def test_plan_piggybacks_on_an_earlier_own_nil():
    d = deal(auction=Auction.from_calls(PLAYERS, "Carol", ["0 nil self"]))
    k = Knowledge.from_deal(d)  # Bob
    assert ("Carol", "Alice") in plan_for(k).nils
    assert Candidate(3, ("Alice",)) in sim.default_candidates(k)


def test_solve_layout_seats_roles_and_skips_implied_nils():
    k = Knowledge.from_deal(deal(), "Alice")  # Alice holds the spade ace: no nil query for her
    layout = dict(STRONG.hands)
    fake = FakeSolver()
    r = sim.solve_layout(fake, k, layout, plan_for(k))
    full = [c for c in fake.calls if c[4] is None]
    assert len(full) == 3
    for (hands, leader, side, _, _), declarer in zip(full, PLAYERS):
        names = STRONG.seating(declarer).names
        assert hands == tuple(layout[n] for n in names)
        assert names[leader] == "Alice"  # the first bidder leads
        assert side == DECLARER_SIDE
    nil_calls = [c for c in fake.calls if c[4] is not None]
    assert {c[4] for c in nil_calls} == {2}  # only the dummy's nil, seat 2, declarer side
    assert r.nils[:3] == (-1, -1, -1) and r.queries == 4
    assert r.declarer_tricks == tuple(c and fake.max_tricks(Position(*c[:2]), c[2]) for c in full)


def test_run_samples_is_in_order_and_seeded():
    k = Knowledge.from_deal(deal(), "Alice")
    plan = plan_for(k)
    ticks = []
    a = sim.run_samples(k, plan, Settings(samples=12, seed=5), progress=lambda: ticks.append(1),
                        executor=Inline(FakeSolver()))
    b = sim.run_samples(k, plan, Settings(samples=12, seed=5), executor=Inline(FakeSolver()))
    assert a == b and [r.index for r in a] == list(range(12)) and len(ticks) == 12
    with pytest.raises(SimulationError, match="at least 1"):
        sim.run_samples(k, plan, Settings(samples=0), executor=Inline(FakeSolver()))


# ------------------------------------------------------------------ scoring
def test_declarer_for_uses_earlier_bids_and_models_later_ones():
    d = deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5"]))
    k = Knowledge.from_deal(d)  # Bob, second; Carol bids later
    r = SampleResult(0, (9, 7, 3))  # declarer tricks when Alice / Bob / Carol declares
    assert declarer_for(k, 4, r) == "Alice"
    assert declarer_for(k, 5, r) == "Alice"  # tie: the earlier bidder
    assert declarer_for(k, 6, r) == "Bob"
    r = SampleResult(0, (9, 7, 8))           # Carol is modelled to bid 8
    assert declarer_for(k, 7, r) == "Carol"
    assert declarer_for(k, 8, r) == "Bob"    # tie with Carol's 8: Bob bid earlier
    assert declarer_for(k, 2, r) == "Carol"


def _score(player, bid, declarer, declarer_tricks, bets=(), hand_tricks=None, rules=None):
    bids = {player: bid}
    if declarer != player:
        bids[declarer] = 0
    return score_hand(bids, declarer, declarer_tricks, bets, hand_tricks or {},
                      rules or ScoringRules())[player]


def test_outcome_arithmetic_matches_score_hand():
    d = deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5"]))
    k = Knowledge.from_deal(d)  # Bob
    plan = Plan(nils=(("Bob", "Bob"), ("Carol", "Bob"), ("Alice", "Bob"), ("Bob", DUMMY)))
    # declarer tricks: Alice 9, Bob 7, Carol 4 ; nils: own kept with 2 / 3 / broken; dummy kept 6
    r = SampleResult(0, (9, 7, 4), (2, 3, -1, 6))
    # Bob bids 7: outbids Alice's 5 and Carol's modelled 4: declares, takes 7
    o = sample_outcome(k, plan, Candidate(7), r)
    assert (o.declarer, o.side_tricks, o.made) == ("Bob", 7, True)
    assert o.score == _score("Bob", 7, "Bob", 7).points == 70
    # Bob bids 3: Alice declares, Bob defends: 13 - 9 = 4 tricks, one bag
    o = sample_outcome(k, plan, Candidate(3), r)
    s = _score("Bob", 3, "Alice", 9)
    assert (o.declarer, o.side_tricks, o.points, o.bags) == ("Alice", 4, s.points, s.bags) == \
        ("Alice", 4, 31, 1)
    # own nil broken when Alice declares: the side plays for tricks, nil lost
    o = sample_outcome(k, plan, Candidate(0, ("Bob",)), r)
    s = _score("Bob", 0, "Alice", 9, [NilBet("Bob", "Bob")], {"Bob": 1})
    assert o.nils == (("Bob", False),) and o.score == s.points == 4 - 100
    # nil on the dummy as declarer: keeping it (6 tricks) beats ignoring it (7 tricks, -100)
    o = sample_outcome(k, plan, Candidate(6, (DUMMY,)), r)
    s = _score("Bob", 6, "Bob", 6, [NilBet("Bob", DUMMY)], {DUMMY: 0})
    assert (o.side_tricks, o.nils, o.score) == (6, ((DUMMY, True),), s.points) == \
        (6, ((DUMMY, True),), 160)
    # a dummy nil does not count when Bob defends
    o = sample_outcome(k, plan, Candidate(2, (DUMMY,)), r)
    assert o.nils == () and o.score == _score("Bob", 2, "Alice", 9).points
    # forcing the role: if Carol declares, Bob defends beside Alice and keeps his nil
    o = sample_outcome(k, plan, Candidate(0, ("Bob",)), r, declarer="Carol")
    s = _score("Bob", 0, "Carol", 13 - 3, [NilBet("Bob", "Bob")], {"Bob": 0})
    assert (o.side_tricks, o.score) == (3, s.points) == (3, 103)


def test_outcome_prefers_ignoring_a_nil_that_costs_the_contract():
    k = Knowledge.from_deal(deal(), "Alice")
    plan = Plan(nils=(("Alice", "Alice"), ("Bob", "Alice"), ("Carol", "Alice"), ("Alice", DUMMY)))
    r = SampleResult(0, (12, 2, 2), (-1, -1, -1, 1))
    o = sample_outcome(k, plan, Candidate(12, (DUMMY,)), r)  # keeping it: 1 trick, set -120 +100
    assert (o.side_tricks, o.nils, o.score) == (12, ((DUMMY, False),), 120 - 100)


def test_outcome_with_two_nils_uses_the_zero_question():
    k = Knowledge.from_deal(deal(), "Alice")
    cand = Candidate(0, ("Alice", DUMMY))
    plan = plan_for(k, [cand])
    assert plan.zeros == ("Alice",)
    nils = tuple(0 if h == DUMMY else -1 for _, h in plan.nils)
    r = SampleResult(0, (0, 0, 0), nils, (True,))  # Alice declares at 0 (all bid 0)
    o = sample_outcome(k, plan, cand, r)
    assert o.nils == (("Alice", True), (DUMMY, True)) and o.score == 200
    r = SampleResult(0, (0, 0, 0), nils, (False,))
    o = sample_outcome(k, plan, cand, r)  # only the dummy's nil can be kept
    assert o.nils == (("Alice", False), (DUMMY, True)) and o.score == 0


def test_outcome_includes_the_bag_penalty_when_bags_are_known():
    d = deal(scores={"Alice": Standing(200, 8), "Bob": Standing(0, 0), "Carol": Standing(0, 0)})
    k = Knowledge.from_deal(d, "Alice")
    plan = plan_for(k)
    r = SampleResult(0, (10, 3, 3), (-1, -1, -1, -1))
    o = sample_outcome(k, plan, Candidate(7), r)  # 73 points, 3 bags: 11 bags -> one penalty
    after, penalties = apply_bags(Standing(200, 8), 73, 3)
    assert (o.points, o.bags, o.penalty, o.score) == (73, 3, 100, -27)
    assert after.points - 200 == o.score and penalties == 1
    o = sample_outcome(k, plan, Candidate(9), r)  # 91 points, 1 bag: 9 bags, no penalty
    assert (o.points, o.penalty, o.score) == (91, 0, 91)


def test_estimates():
    e = Estimate.share(30, 120)
    assert e.value == 0.25 and math.isclose(e.se, math.sqrt(0.25 * 0.75 / 120)) and e.n == 120
    e = Estimate.of([1, 2, 3, 4])
    assert e.value == 2.5 and math.isclose(e.se, math.sqrt(5 / 3 / 4))
    assert math.isnan(Estimate.of([]).value) and math.isnan(Estimate.of([3]).se)


def test_summary_statistics_and_judgement_on_fixed_results():
    d = deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5"]))
    k = Knowledge.from_deal(d)  # Bob
    plan = plan_for(k)
    rng = random.Random(4)
    results = [SampleResult(i, (rng.randint(4, 10), rng.randint(3, 9), rng.randint(2, 8)),
                            tuple(rng.choice((-1, 0, 1, 2)) for _ in plan.nils))
               for i in range(60)]
    a = sim.summarise(k, plan, results, seed=1, bid=Candidate(6))
    bob = a.roles[0]
    assert bob.role == "declarer" and bob.partner == DUMMY and sum(bob.histogram) == 60
    assert bob.make[0].value == 1.0
    assert bob.make[7].value == sum(1 for r in results if r.declarer_tricks[1] >= 7) / 60
    carol = a.roles[1]
    assert carol.declarer == "Carol" and carol.partner == "Alice"
    assert carol.tricks.value == sum(13 - r.declarer_tricks[2] for r in results) / 60
    six = a.bids[6]
    outcomes = [sample_outcome(k, plan, Candidate(6), r) for r in results]
    assert six.score.value == pytest.approx(sum(o.score for o in outcomes) / 60)
    assert six.declare.value == sum(1 for o in outcomes if o.declarer == "Bob") / 60
    assert a.recommended.score.value == max(c.score.value for c in a.candidates)
    j = a.judged
    assert j.stats.candidate == Candidate(6)
    assert j.difference.value == pytest.approx(j.stats.score.value - j.best_alternative.score.value)
    assert j.rank == 1 + sum(1 for c in a.candidates
                             if c.candidate != Candidate(6) and c.score.value > six.score.value)


def test_parse_candidate():
    k = Knowledge.from_deal(deal(), "Alice")
    assert sim.parse_candidate(k, 0, ["self", "dummy"]) == Candidate(0, ("Alice", DUMMY))
    assert sim.parse_candidate(k, 3, ["Bob,dummy"]) == Candidate(3, ("Bob", DUMMY))
    with pytest.raises(BidError, match="unknown hand 'Zed'"):
        sim.parse_candidate(k, 3, ["Zed"])
    with pytest.raises(BidError, match="twice"):
        sim.parse_candidate(k, 3, ["self", "Alice"])
    with pytest.raises(BidError, match="0 to 13"):
        sim.parse_candidate(k, 14)


# ---------------------------------------------------- with the real engine
try:
    import dummy_spades.solver.engine  # noqa: F401
    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - depends on the build
    HAVE_ENGINE = False
needs_engine = pytest.mark.skipif(not HAVE_ENGINE, reason="the compiled engine is not built")


@needs_engine
def test_top_spades_and_side_aces_make_a_low_bid_almost_always():
    k = Knowledge.from_deal(STRONG, "Alice")
    a = sim.analyse(k, Settings(samples=12, seed=3), executor=Inline())
    for role in a.roles:
        assert role.make[4].value == 1.0  # the four top spades are four sure tricks
        assert role.make[3].value >= 0.95
    assert a.recommended.tricks >= 4 and "Alice" not in a.recommended.candidate.nils
    assert all(n.kept.value == 0 and n.implied for r in a.roles for n in r.nils
               if n.hand == "Alice")


@needs_engine
def test_low_cards_without_spades_nil_safely_most_of_the_time():
    k = Knowledge.from_deal(NIL_HAND, "Bob")
    a = sim.analyse(k, Settings(samples=10, seed=2), bid=Candidate(0, ("Bob",)), executor=Inline())
    for role in a.roles[1:]:  # Bob defends
        own = next(n for n in role.nils if n.hand == "Bob")
        assert own.kept.value >= 0.7 and own.kept.n == 10
    nil = a.judged.stats.nils[0]
    assert nil.counts.value > 0.5 and nil.kept.value >= 0.7


@needs_engine
def test_same_result_whatever_the_number_of_jobs():
    k = Knowledge.from_deal(NIL_HAND, "Bob")
    one = sim.analyse(k, Settings(samples=4, seed=9), executor=Inline())
    two = sim.analyse(k, Settings(samples=4, seed=9), executor=ProcessPool(2))
    assert one.results == two.results
    assert [c.score for c in one.candidates] == [c.score for c in two.candidates]


@needs_engine
def test_check_all_judges_every_bid_beside_the_actual_result():
    d = loads_deal("""
players: [Alice, Bob, Carol]
dealer: Carol
hands:
  Alice: AKQJ.A32.A32.A32
  Bob: T98.KQJ.KQJ.KQJ4
  Carol: 765.T987.T987.T9
  dummy: 432.654.654.8765
auction:
  - {player: Alice, bid: 8}
  - {player: Bob, bid: 4}
  - {player: Carol, bid: 0, nil: [self]}
""")
    checks = sim.check_all(d, Settings(samples=2, seed=1), executor=Inline())
    assert [c.player for c in checks] == ["Alice", "Bob", "Carol"]
    assert [c.analysis.knowledge.bids for c in checks] == [(), d.auction.bids[:1], d.auction.bids[:2]]
    assert checks[2].bid == Candidate(0, ("Carol",))
    for c in checks:
        assert c.actual.declarer == "Alice" and c.actual.outcome is not None
        assert c.analysis.judged.stats.candidate == c.bid
    alice = checks[0].actual
    assert alice.outcome.side_tricks == alice.side_tricks["Alice"]
    assert checks[1].actual.outcome.side_tricks == 13 - alice.side_tricks["Alice"]


class TopFirst(sim.NilOrder):
    def top_first(self, j):
        return True


@needs_engine
@pytest.mark.parametrize("order", [None, sim.NilOrder(), TopFirst()], ids=["zero-first", "learnt", "top-first"])
def test_nil_questions_by_null_window_tests_match_the_exact_query(order):
    """solve_layout's null-window paths (keep test then fail-soft tests from
    the full tricks down, or fail-soft tests from the full tricks only) give
    the same answers as max_tricks with nil_seat."""
    from dummy_spades.solver.engine import CompiledSolver

    class ExactOnly(CompiledSolver):  # the engine, every null-window test answered by the exact value
        def bound(self, pos, side, target, count=None, nil_seat=None):
            return self.max_tricks(pos, side, count, nil_seat)

    k = Knowledge.from_deal(NIL_HAND, "Bob")
    plan = plan_for(k, [Candidate(0, ("Bob", "Carol"))])
    tests, exact = CompiledSolver(8), ExactOnly(8)
    kept = 0
    for i in range(8):
        layout = sample_layout(k, 11, i)
        a = sim.solve_layout(tests, k, layout, plan, i, order)
        b = sim.solve_layout(exact, k, layout, plan, i)
        assert (a.declarer_tricks, a.nils, a.zeros) == (b.declarer_tricks, b.nils, b.zeros)
        kept += sum(1 for t in a.nils if t > 0)
    assert kept, "no kept nil with tricks beside it: the narrowing loop was not exercised"


# ---------------------------------------------------------------- time limit
def test_time_limit_keeps_the_first_samples(monkeypatch):
    """A time limit stops the run with samples 0..n-1 (at least one), the
    same ones an unlimited run starts with, in one process and in a pool."""
    k = Knowledge.from_deal(deal(), "Alice")
    plan = plan_for(k)
    full = sim.run_samples(k, plan, Settings(samples=6, seed=3), executor=Inline(FakeSolver()))
    assert len(full) == 6
    assert sim.run_samples(k, plan, Settings(samples=6, seed=3, time_limit=1e-9),
                           executor=Inline(FakeSolver())) == full[:1]
    assert sim.run_samples(k, plan, Settings(samples=6, seed=3, time_limit=0),
                           executor=Inline(FakeSolver())) == full[:1]
    assert sim.run_samples(k, plan, Settings(samples=6, seed=3, time_limit=600),
                           executor=Inline(FakeSolver())) == full
    monkeypatch.setattr(simulate, "make_solver", lambda tt_mb=LAYOUT_TT_MB: FakeSolver())
    assert sim.run_samples(k, plan, Settings(samples=6, seed=3, time_limit=1e-9),
                           executor=ProcessPool(2)) == full[:1]
    a = sim.analyse(k, Settings(samples=6, seed=3, time_limit=1e-9), executor=Inline(FakeSolver()))
    assert a.samples == 1 and a.requested == 6 and a.stopped_early
    b = sim.analyse(k, Settings(samples=6, seed=3), executor=Inline(FakeSolver()))
    assert b.samples == b.requested == 6 and not b.stopped_early


@pytest.mark.parametrize("bad", [-1.5, float("inf"), float("nan"), True, "3"])
def test_time_limit_must_be_a_number_of_seconds(bad):
    k = Knowledge.from_deal(deal(), "Alice")
    with pytest.raises(SimulationError, match="seconds, 0 or more"):
        sim.run_samples(k, plan_for(k), Settings(samples=2, time_limit=bad),
                        executor=Inline(FakeSolver()))


# ------------------------------------------------------- conditioned sampling
from dummy_spades.solver.simulation import conditioning as sampling  # noqa: E402
from dummy_spades.solver.simulation import model as bidding_model  # noqa: E402
from dummy_spades.solver.simulation.estimates import effective_samples  # noqa: E402
from dummy_spades.solver.bid.outcome import declarer_odds  # noqa: E402
from dummy_spades.solver.bid.sampling import LaterBidder, Sampler  # noqa: E402

HIGH_AUCTION = Auction.from_calls(PLAYERS, "Carol", ["9", "3"])


def test_conditioned_draws_are_weighted_uniform_draws():
    """Accepted draws are uniform draws (same layouts by index) with weights
    at least 1, the same on every reading, cheaper than uniform in solves."""
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    a = list(Sampler(k, 5).draws(40))
    b = list(Sampler(k, 5).draws(25))
    assert a[:25] == b
    assert [d.index for d in a] == sorted({d.index for d in a})
    assert all(d.weight >= 1.0 for d in a) and a[-1].drawn > 40
    assert [d.drawn for d in a] == [d.index + 1 for d in a]
    evaluations = [d.evaluations for d in a]
    assert evaluations == sorted(evaluations) and evaluations[0] >= 2 * sampling.PILOT
    for d in a[:5]:
        _check_layout(k, sample_layout(k, 5, d.index))
    assert [d.index for d in Sampler(k, 5, "uniform").draws(6)] == list(range(6))


def test_conditioning_makes_a_high_bidders_hand_stronger():
    """Alice bid 9: her sampled hands are worth more than uniform ones by
    the model, Bob's (who bid 3) less."""
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    s = Sampler(k, 2)
    draws = list(s.draws(150))
    report = s.report(draws, "samples")
    worth = {name: (sampled, uniform) for name, sampled, uniform in report.worth}
    assert worth["Alice"][0] > worth["Alice"][1] + 0.6
    assert worth["Bob"][0] < worth["Bob"][1] - 0.5
    assert report.accepted == 150 and report.drawn == draws[-1].drawn
    assert 0 < report.effective_samples <= 150 and report.threshold is not None
    assert report.evaluations == draws[-1].evaluations


def test_first_bidder_draws_are_uniform_with_modelled_later_bids():
    k = Knowledge.from_deal(deal(), "Alice")
    draws = list(Sampler(k, 3).draws(8))
    assert [d.index for d in draws] == list(range(8)) and {d.weight for d in draws} == {1.0}
    assert [[b.name for b in d.later] for d in draws] == [["Bob", "Carol"]] * 8


def test_an_impossible_bid_falls_back_to_uniform(monkeypatch):
    """A call the model gives no chance on any hand is left out of the
    conditioning (named in the report), without dividing by zero."""
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    real = bidding_model.call_chance
    monkeypatch.setattr(bidding_model, "call_chance",
                        lambda bid, view: 0.0 if bid.player == "Alice" else real(bid, view))
    s = Sampler(k, 1)
    assert s.ignored == (HIGH_AUCTION.bids[0],)
    draws = list(s.draws(20))
    assert len(draws) == 20 and all(math.isfinite(d.weight) for d in draws)


def test_tiny_acceptance_stops_at_the_draw_cap(monkeypatch):
    """A likelihood that is high for very few hands: the threshold keeps
    about 1% accepted; a small cap stops the run with what it has."""
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    low_hearts = parse_hand(".65432..")
    monkeypatch.setattr(bidding_model, "call_chance",
                        lambda bid, view: 1.0 if bid.player != "Alice" or
                        view.hand & low_hearts == low_hearts else 1e-7)
    monkeypatch.setattr(sampling, "DRAWS_PER_SAMPLE", 3)
    s = Sampler(k, 4)
    assert s.threshold < 1.0
    draws = list(s.draws(200))
    assert s.capped and 0 < len(draws) < 200 and draws[-1].drawn <= s.max_draws
    a = sim.analyse(k, Settings(samples=200, seed=4), executor=Inline(FakeSolver()))
    assert a.sampling.stopped_by == "draws" and a.samples == len(draws) and a.stopped_early


def test_acceptance_threshold():
    assert sampling.acceptance_threshold([0.1, 0.2, 0.4]) == 0.4
    tiny = [1.0] + [1e-9] * 999
    c = sampling.acceptance_threshold(tiny)
    assert c < 1.0 and sum(min(1.0, x / c) for x in tiny) / 1000 == pytest.approx(0.01, rel=1e-3)


def test_declarer_odds_follow_the_later_bidders_model():
    k = Knowledge.from_deal(deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5"])), "Bob")
    strong = (LaterBidder("Carol", 2, 11.0, 1.0, 0.0),)
    weak = (LaterBidder("Carol", 2, 1.0, 1.0, 0.0),)
    odds = dict(declarer_odds(k, 6, strong))
    assert odds["Carol"] > 0.95 and math.isclose(sum(odds.values()), 1.0)
    assert dict(declarer_odds(k, 6, weak))["Bob"] > 0.99
    assert dict(declarer_odds(k, 4, weak))["Alice"] > 0.99
    nil = (LaterBidder("Carol", 2, 11.0, 1.0, 1.0),)      # a sure nil bids 0
    assert declarer_odds(k, 6, nil) == (("Bob", 1.0),)
    first = Knowledge.from_deal(deal(), "Alice")         # two later bidders
    later = (LaterBidder("Bob", 1, 6.0, 2.0, 0.1), LaterBidder("Carol", 2, 6.0, 2.0, 0.1))
    for tricks in (0, 6, 13):
        odds = dict(declarer_odds(first, tricks, later))
        assert math.isclose(sum(odds.values()), 1.0)
    (only,) = declarer_odds(first, 13, later)           # nobody outbids a 13
    assert only[0] == "Alice" and only[1] == pytest.approx(1.0)


def test_weighted_estimates_reduce_to_the_unweighted_ones():
    values = [3, 5, 5, 9, 2]
    plain, ones = Estimate.of(values), Estimate.mean(values, [1.0] * 5)
    assert math.isclose(plain.value, ones.value) and math.isclose(plain.se, ones.se)
    assert ones.n == 5 and ones.n_eff == 5
    hits = [1, 0, 1, 1, 0]
    share, weighted = Estimate.share(3, 5), Estimate.proportion(hits, [2.0] * 5)
    assert math.isclose(share.value, weighted.value) and math.isclose(share.se, weighted.se)
    ratio = Estimate.ratio([1, 0, 0, 1], [1, 1, 0, 1], [1.0] * 4)
    assert math.isclose(ratio.value, 2 / 3) and ratio.n == 3
    assert math.isclose(ratio.se, Estimate.share(2, 3).se)
    skewed = Estimate.mean([0, 10], [1.0, 3.0])
    assert skewed.value == 7.5 and skewed.n_eff == pytest.approx(16 / 10)
    assert effective_samples([1.0, 1.0, 0.0]) == 2.0
    assert Estimate.mean([4], [2.0]).n_eff == 1.0 and math.isnan(Estimate.mean([4], [2.0]).se)


def test_conditioned_analysis_uses_weights_everywhere():
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    a = sim.analyse(k, Settings(samples=30, seed=6), executor=Inline(FakeSolver()))
    assert a.weighted and a.sampling.method == "conditioned" and a.sampling.accepted == 30
    weights = [d.weight for d in a.draws]
    n_eff = effective_samples(weights)
    assert a.effective_samples == pytest.approx(n_eff)
    assert all(e.n_eff is not None for e in a.chances_shown())
    role = a.roles[0]
    assert sum(role.histogram) == pytest.approx(30)
    assert role.make[0].value == pytest.approx(1.0) and role.make[0].n_eff == pytest.approx(n_eff)
    best = a.recommended
    scores = [sum(p * sample_outcome(k, a.plan, best.candidate, r, d).score
                  for d, p in declarer_odds(k, best.tricks, draw.later))
              for r, draw in zip(a.results, a.draws)]
    assert best.score.value == pytest.approx(sum(w * s for w, s in zip(weights, scores)) / sum(weights))


def test_conditioned_result_whatever_the_jobs(monkeypatch):
    monkeypatch.setattr(simulate, "make_solver", lambda tt_mb=LAYOUT_TT_MB: FakeSolver())
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    one = sim.analyse(k, Settings(samples=12, seed=3), executor=Inline())
    two = sim.analyse(k, Settings(samples=12, seed=3), executor=ProcessPool(2))
    assert one.results == two.results and one.draws == two.draws
    assert [c.score for c in one.candidates] == [c.score for c in two.candidates]


def test_precision_target_stops_at_a_checkpoint():
    k = Knowledge.from_deal(deal(auction=HIGH_AUCTION), "Carol")
    assert list(zip(range(7), checkpoints())) == [
        (0, 20), (1, 30), (2, 40), (3, 50), (4, 60), (5, 72), (6, 87)]
    seen = []
    a = sim.analyse(k, Settings(samples=500, seed=2, precision=12.0), update=seen.append,
                    executor=Inline(FakeSolver()))
    assert a.sampling.stopped_by == "precision" and a.samples in set(range(20, 500))
    assert a.precision() <= 12.0 and a.stopped_early
    assert [x.samples for x in seen] == [n for n in (20, 30, 40, 50, 60, 72, 87, 105, 126)
                                         if n < a.samples]
    again = sim.analyse(k, Settings(samples=500, seed=2, precision=12.0),
                        executor=Inline(FakeSolver()))
    assert again.samples == a.samples and again.recommended == a.recommended
    capped = sim.analyse(k, Settings(samples=25, seed=2, precision=0.01),
                         executor=Inline(FakeSolver()))
    assert capped.samples == 25 and capped.sampling.stopped_by == "samples"
    with pytest.raises(SimulationError, match="positive number"):
        sim.analyse(k, Settings(samples=25, seed=2, precision=0), executor=Inline(FakeSolver()))


def test_uniform_sampling_is_the_double_dummy_later_bid_model():
    k = Knowledge.from_deal(deal(auction=Auction.from_calls(PLAYERS, "Carol", ["5"])), "Bob")
    a = sim.analyse(k, Settings(samples=10, seed=1, sampling="uniform"),
                    executor=Inline(FakeSolver()), controls=False)
    assert not a.weighted and a.sampling.drawn == a.sampling.accepted == 10
    b = sim.summarise(k, a.plan, a.results, 1)
    assert a.candidates == b.candidates and a.roles == b.roles
    with pytest.raises(SimulationError, match="one of conditioned, uniform"):
        sim.analyse(k, Settings(samples=10, seed=1, sampling="rejection"),
                    executor=Inline(FakeSolver()))


@needs_engine
def test_uniform_sampling_gives_the_double_dummy_model_answers():
    """--sampling uniform on a bundled deal, plain means (no control
    variates): every JSON field as the uniform method has always given it
    (a snapshot), plus the sampling block."""
    import json
    from pathlib import Path

    from dummy_spades.cli.bid_report import analysis_json
    from dummy_spades.solver.dealfile import load_deal

    root = Path(__file__).resolve().parent
    d = load_deal(root.parent / "hands" / "three-peeky.yaml")
    k = Knowledge.from_deal(d, "Bob")
    data = analysis_json(sim.analyse(k, Settings(samples=5, seed=1, sampling="uniform"),
                                     bid=sim.file_bid(d, "Bob"), executor=Inline(), controls=False))
    assert data.pop("sampling")["method"] == "uniform"
    golden = json.loads((root / "golden" / "bid" / "uniform-three-peeky-Bob-5.json").read_text())
    assert json.loads(json.dumps(data)) == golden


@pytest.mark.slow
@needs_engine
def test_an_earlier_high_bid_shapes_the_hands_and_the_recommendation():
    """hands/earlier-bid-low.yaml and -high.yaml differ only in Alice's
    opening (4 or 9; Bob bid 3 and Alice holds the auction either way).
    Uniform sampling gives both the same answer. Conditioned sampling finds
    Alice's hand stronger than uniform after the 9 and weaker after the 4,
    and Carol bids lower against the strong opener (she defends beside Bob)
    than against the weak one. One solver for all four runs: its table
    answers the layouts the runs share."""
    from pathlib import Path

    from dummy_spades.solver.dealfile import load_deal

    hands = Path(__file__).resolve().parent.parent / "hands"
    low, high = (Knowledge.from_deal(load_deal(hands / f"earlier-bid-{x}.yaml"))
                 for x in ("low", "high"))
    solver = sim.make_solver()
    ul, uh = (sim.analyse(k, Settings(samples=6, seed=1, sampling="uniform"),
                          executor=Inline(solver))
              for k in (low, high))
    assert ul.results == uh.results and ul.roles == uh.roles
    assert ul.recommended == uh.recommended and ul.recommended.tricks <= 4
    assert ul.bids[:5] == uh.bids[:5]            # Carol defends with 0-4 in both files
    cl, ch = (sim.analyse(k, Settings(samples=24, seed=1), executor=Inline(solver)) for k in (low,
                          high))
    (low_alice,), (high_alice,) = ([(s, u) for p, s, u in a.sampling.worth if p == "Alice"]
                                   for a in (cl, ch))
    assert high_alice[0] > high_alice[1] + 0.3         # sampled against uniform
    assert low_alice[0] < low_alice[1] - 0.3
    assert high_alice[0] > low_alice[0] + 1.0
    assert ch.recommended.tricks < cl.recommended.tricks
