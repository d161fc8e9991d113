"""The dealer (docs/DEAL.md): the constraint language, the random stream and
its plain-Python twin, the compiled conditions against their definitions,
reproducibility, and uniformity against exact hypergeometric figures."""
from __future__ import annotations

import importlib.util
import math
from typing import Dict, Sequence

import pytest

from dummy_spades.solver import limits
from dummy_spades.solver.cards import SUIT_MASK, count, parse_hand
from dummy_spades.solver.constraints import (SHAPES, Table, WhereError, parse_condition,
                                             suit_quick_tricks)
from dummy_spades.solver.dealer import (FULL, ReferenceStream, deal_hands, default_declarer,
                                        random_hands, random_seat_deals, reference_deal_hands,
                                        seat_order)

HAVE_DEALER = importlib.util.find_spec("dummy_spades.solver._dealer") is not None
needs_dealer = pytest.mark.skipif(not HAVE_DEALER, reason="the compiled dealer is not built")

TABLE = Table(("Alice", "Bob", "Carol"), "Carol")
ALICE, BOB, CAROL, DUMMY = range(4)


def cond(text: str):
    return parse_condition(text, TABLE)


def spades(hand: int) -> int:
    return count(hand & SUIT_MASK[0])


# ------------------------------------------------------------------ the stream
def test_the_stream_starts_from_splitmix64_of_the_seed():
    # splitmix64's first output from 0 (Vigna's reference, prng.di.unimi.it)
    assert ReferenceStream(0).s[0] == 0xE220A8397B1DCDAF


def test_below_draws_every_value_without_bias_on_a_small_range():
    stream = ReferenceStream(5)
    draws = [stream.below(3) for _ in range(3000)]
    assert set(draws) == {0, 1, 2}
    assert all(abs(draws.count(v) - 1000) < 4 * math.sqrt(3000 * 2 / 9) for v in range(3))


@needs_dealer
@pytest.mark.parametrize("seed", [0, 1, 2 ** 63, limits.SEED_MAX])
def test_the_compiled_stream_is_the_twin(seed):
    from dummy_spades.solver.dealer import compiled_stream

    compiled, twin = compiled_stream(seed), ReferenceStream(seed)
    assert [compiled.next_u64() for _ in range(200)] == [twin.next_u64() for _ in range(200)]
    for n in list(range(1, 60)) + [2 ** 32 + 1, 2 ** 63 + 5, 3 * 2 ** 62, 2 ** 64 - 1] * 10:
        assert compiled.below(n) == twin.below(n)


@needs_dealer
@pytest.mark.parametrize("cards", [1, 4, 8, 12, 13])
def test_the_compiled_deals_are_the_twins(cards):
    assert deal_hands(30, 9, cards=cards).hands == reference_deal_hands(30, 9, cards=cards).hands


@pytest.mark.parametrize("cards", [1, 5, 13])
def test_a_deal_gives_each_hand_its_cards_once(cards):
    stream = ReferenceStream(3)
    for _ in range(50):
        hands = stream.deal(cards)
        assert [count(h) for h in hands] == [cards] * 4
        assert count(hands[0] | hands[1] | hands[2] | hands[3]) == 4 * cards


# ------------------------------------------------------------------ reproducibility
@needs_dealer
def test_the_same_seed_gives_the_same_deals_and_a_longer_run_extends_a_shorter():
    assert deal_hands(40, 11).hands == deal_hands(40, 11).hands
    assert deal_hands(40, 11).hands == deal_hands(90, 11).hands[:40]
    assert deal_hands(40, 11).hands != deal_hands(40, 12).hands


@needs_dealer
def test_conditions_keep_the_deals_of_the_stream_that_pass():
    """Every candidate draws the same numbers whatever the conditions, so the
    deals kept are the unconditioned stream's deals that pass, in order."""
    c = cond("spades(Carol) >= 5 and hcp(Carol) >= 11")
    dealt = deal_hands(25, 4, [c], max_tries=100_000)
    stream = random_hands(dealt.tries, 4)
    assert list(dealt.hands) == [h for h in stream if c.holds(h)]
    assert c.holds(stream[dealt.tries - 1])   # the last candidate was the 25th kept


@needs_dealer
def test_bench_deals_are_the_commands_pbn_seats():
    """N Bob (declarer, the second bidder), E Carol, S dummy, W Alice."""
    assert default_declarer(("Alice", "Bob", "Carol"), "Carol") == "Bob"
    assert seat_order(("Alice", "Bob", "Carol"), "Bob") == (BOB, CAROL, DUMMY, ALICE)
    by_name = random_hands(5, 1)
    assert random_seat_deals(5, 1) == [(h[1], h[2], h[3], h[0]) for h in by_name]


# ------------------------------------------------------------------ the compiled conditions
EXPRESSIONS = [
    "spades(Alice) >= 4", "hearts(Bob) < 3", "diamonds(Carol) == 4", "clubs(dummy) != 3",
    "length(leader, ♥) > 4", "length(dealer, d) <= 2",
    "hcp(Bob) >= 12", "hcp(Carol, spades) >= 4", "13 <= hcp(dummy) <= 15",
    "qt(Alice) >= 2", "qt(Bob, hearts) == 1.5", "quick_tricks(dummy, C) > 0.5", "qt(Carol) < 1",
    "cards(Alice, SA SK SQ HA) >= 2", "has(Bob, SA)", "has(Carol, DA, DK)",
    "shape(Alice, any 4333)", "shape(Bob, any 4333 + any 4432 + any 5332)",
    "shape(Carol, 5xxx + x5xx - any 5-4-3-1)", "shape(dummy, 4-3-3-3)", "shape(Alice, any 10-x-x-x)",
    "spades(Alice) + spades(dummy) >= 7", "hcp(Alice) - hcp(Bob) > 3", "-spades(Bob) >= -2",
    "hcp(Alice) + hcp(Carol) + hcp(dummy) - 2 >= 25",
    "not has(leader, SA) and spades(leader) <= 3", "qt(Alice) >= 2 or shape(Alice, any 4333)",
    "(spades(Bob) >= 5 or hearts(Bob) >= 5) and not (hcp(Bob) < 10 || has(Bob, CA))",
    "! (spades(Alice) > 2) && hcp(Alice) = 10",
    "1 < spades(Carol) < hearts(Carol) <= 7",
    "hcp(Bob) > hcp(Carol)",
]


@needs_dealer
@pytest.mark.parametrize("text", EXPRESSIONS)
def test_the_compiled_condition_agrees_with_its_definition(text):
    c = cond(text)
    candidates = 4000
    stream = random_hands(candidates, 21)
    passing = [h for h in stream if c.holds(h)]
    dealt = deal_hands(candidates, 21, [c], max_tries=candidates)
    assert dealt.tries == candidates and list(dealt.hands) == passing
    assert 0 < len(passing) < candidates or text in ("shape(Alice, any 10-x-x-x)",)


@needs_dealer
def test_several_conditions_must_all_hold():
    cs = [cond("spades(Alice) >= 4"), cond("hcp(Alice) >= 10"), cond("not has(Bob, HA)")]
    dealt = deal_hands(300, 2, cs)
    assert all(all(c.holds(h) for c in cs) for h in dealt.hands)
    assert list(dealt.hands) == list(reference_deal_hands(300, 2, cs).hands)


@needs_dealer
def test_hand_features_of_the_compiled_dealer_are_the_definitions():
    from dummy_spades.solver import _dealer

    for hands in random_hands(300, 8):
        for hand in hands:
            lengths, hcp, qt = _dealer.hand_features(hand)
            assert lengths == tuple(count(hand & SUIT_MASK[s]) for s in range(4))
            assert hcp == sum({14: 4, 13: 3, 12: 2, 11: 1}.get(c % 13 + 2, 0)
                              for c in range(52) if hand >> c & 1)
            assert qt == sum(suit_quick_tricks([r + 2 for r in range(13) if hand >> (13 * s + r) & 1])
                             for s in range(4))


@pytest.mark.parametrize("ranks, tricks", [
    ("AK", 2), ("AKQ", 2), ("AQ", 1.5), ("AQ2", 1.5), ("A", 1), ("AJT", 1), ("KQ", 1),
    ("KQJ", 1), ("K2", 0.5), ("KJ", 0.5), ("K", 0), ("Q2", 0), ("", 0), ("QJT98765432", 0),
])
def test_quick_tricks_of_a_suit(ranks, tricks):
    hand = parse_hand(f"{ranks}...")
    assert cond("qt(Alice, spades) >= 0").tree.left.value([hand, 0, 0, 0]) == tricks
    assert cond("qt(Alice) >= 0").tree.left.value([hand, 0, 0, 0]) == tricks


def test_hcp_and_shapes_of_a_known_hand():
    hand = parse_hand("AKQJ.AKQ.AKQ.AKQ")
    assert cond("hcp(Alice) >= 0").tree.left.value([hand, 0, 0, 0]) == 37
    assert len(SHAPES) == 560
    tree = cond("shape(Alice, any 4333)").tree
    assert tree.holds([hand, 0, 0, 0]) and len(tree.shapes) == 4
    assert len(cond("shape(Alice, any 4432)").tree.shapes) == 12
    assert len(cond("shape(Alice, any 5431)").tree.shapes) == 24
    assert len(cond("shape(Alice, 5xxx)").tree.shapes) == len([s for s in SHAPES if s[0] == 5])
    assert cond("shape(Alice, any 4333 - 3334)").tree.shapes == {(4, 3, 3, 3), (3, 4, 3, 3),
                                                                 (3, 3, 4, 3)}


def test_role_words_and_names():
    assert cond("spades(leader) >= 1").tree.left.hand == ALICE      # left of the dealer Carol
    assert cond("spades(dealer) >= 1").tree.left.hand == CAROL
    assert cond("spades(DUMMY) >= 1").tree.left.hand == DUMMY
    assert cond("spades('Bob') >= 1").tree.left.hand == BOB
    odd = Table(("Mary Ann", "leader", "Zoë"), "Zoë")
    assert parse_condition('hcp("Mary Ann") > 3', odd).tree.left.hand == 0
    assert parse_condition("hcp(leader) > 3", odd).tree.left.hand == 1   # the name wins
    assert parse_condition("hcp(Zoë) > 3", odd).tree.left.hand == 2


# ------------------------------------------------------------------ bad expressions
BAD = [
    # (text, position, words in the message)
    ("spades(Carol) >=", 17, "found the end"),
    ("spades(Carol) >= 5 5", 20, "after a complete condition"),
    ("(spades(Carol) >= 5", 20, "')' to close the '(' at position 1"),
    ("spades(Carol) >= 5)", 19, "found ')'"),
    ("spades(Carol) >= 5 and", 23, "found the end"),
    ("spades(Carol) => 5", 16, "found '>'"),
    ("spades(Carol) >= 5 & hcp(Bob) > 3", 20, "unexpected character '&'"),
    ("spades Carol >= 5", 8, "spades without '('"),
    ("spades(Caro) >= 5", 8, "unknown player 'Caro'"),
    ("hcp(South) >= 12", 5, "unknown player 'South'"),
    ("spades() >= 1", 8, "names no hand"),
    ("hcp(Bob, X) > 3", 10, "unknown suit 'X'"),
    ("length(Bob, spadez) > 3", 13, "unknown suit 'spadez'"),
    ("length(Bob) > 3", 11, "needs a second argument"),
    ("spades(Bob, S) > 3", 11, "takes one hand"),
    ("has(Bob, SA ZZ)", 13, "unknown card 'ZZ'"),
    ("has(Bob, )", 10, "no cards listed"),
    ("foo(Carol) > 1", 1, "unknown function 'foo'"),
    ("hcpp(Carol) > 1", 1, "did you mean 'hcp'?"),
    ("Carol > 3", 1, "'Carol' is a hand"),
    ("spades(Carol)", 1, "is a number, not a condition"),
    ("has(Bob, SA) + 1 > 1", 1, "is a condition, not a number"),
    ("spades(Carol) >= 5 and 3", 24, "is a number, not a condition"),
    ("", 1, "the expression is empty"),
    # impossible numbers: 13+ cards, 40+ points
    ("spades(Carol) >= 14", 18, "14 is out of reach: spades(Carol) is 0 to 13"),
    ("spades(Carol) > 13", 15, "can never hold"),
    ("14 <= spades(Carol)", 1, "14 is out of reach"),
    ("clubs(dummy) == -1", 17, "-1 is out of reach"),
    ("hcp(Alice) >= 38", 15, "38 is out of reach: hcp(Alice) is 0 to 37"),
    ("hcp(Alice) >= 40", 15, "40 is out of reach"),
    ("hcp(Alice, hearts) > 10", 20, "can never hold"),
    ("hcp(Alice) + hcp(Bob) >= 41", 26, "41 is out of reach: hcp(Alice) + hcp(Bob) is 0 to 40"),
    ("qt(Bob) >= 8.5", 12, "8.5 is out of reach: qt(Bob) is 0 to 8"),
    ("cards(Bob, SA SK) == 3", 22, "3 is out of reach"),
    ("spades(Alice) + spades(Bob) >= 27", 32, "27 is out of reach"),
    ("spades(Alice) < 0", 15, "can never hold"),
    ("spades(Alice) > hcp(Bob) + 14", 15, "can never hold"),
    ("shape(Bob, 5-4-3-2)", 12, "'5-4-3-2' adds up to 14 cards"),
    ("shape(Bob, 4442)", 12, "'4442' adds up to 14 cards"),
    ("shape(Bob, 14-x-x-x)", 12, "a suit of 14 cards"),
    ("shape(Bob, 7-7-x-x)", 12, "needs more than 13 cards"),
    ("shape(Bob, any)", 12, "'any' without a shape"),
    ("shape(Bob, 4333 4432)", 17, "where + or - belongs"),
    ("shape(Bob, 4333 +)", 18, "'+' without a shape"),
    ("shape(Bob, 43)", 12, "unexpected '43'"),
    ("shape(Bob, any 4333 - any 3433)", 12, "leave no shape"),
    ("has(Bob, SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2 HA)", 10, "no hand holds them all"),
]


@pytest.mark.parametrize("text, position, words", BAD, ids=[b[0] or "empty" for b in BAD])
def test_a_bad_expression_names_the_option_and_the_position(text, position, words):
    with pytest.raises(WhereError) as info:
        cond(text)
    err = info.value
    message = str(err)
    assert err.position == position, message
    assert message.startswith(f"--where {' '.join(text.split())!r}, position {position}: ")
    assert words in message
    assert "\n" not in message


def test_long_and_deep_expressions_are_refused_at_their_limits():
    long = " or ".join(["spades(Bob) >= 1"] * 200)
    with pytest.raises(WhereError, match=f"expected at most {limits.WHERE_MAX_CHARS:,} characters"):
        cond(long)
    deep = "(" * 60 + "spades(Bob) >= 1" + ")" * 60
    with pytest.raises(WhereError, match=f"nested more than {limits.WHERE_MAX_DEPTH} deep"):
        cond(deep)
    assert cond("(" * 10 + "spades(Bob) >= 1" + ")" * 10)


def test_the_parser_never_evaluates_python():
    for text in ("__import__('os').system('true')", "spades(Bob) >= len('xx')",
                 "open('/etc/passwd')"):
        with pytest.raises(WhereError):
            cond(text)


# ------------------------------------------------------------------ uniformity
def hypergeometric(k: int, successes: int, population: int, draws: int) -> float:
    return math.comb(successes, k) * math.comb(population - successes, draws - k) / math.comb(population, draws)


def check_distribution(observed: Sequence[int], expected: Dict[int, float]) -> float:
    """Each value's count within 4 standard errors of its expected count, and
    the chi-square statistic (bins of expected count 5 or more; the rest
    pooled) below its 0.999 quantile; returns the statistic."""
    n = len(observed)
    counts = {k: 0 for k in expected}
    for k in observed:
        counts[k] += 1
    chi2 = 0.0
    bins = 0
    pooled_e = pooled_o = 0.0
    for k, p in expected.items():
        e = n * p
        assert abs(counts[k] - e) <= 4 * math.sqrt(e * (1 - p)) + 1e-9, (k, counts[k], e)
        if e >= 5:
            chi2 += (counts[k] - e) ** 2 / e
            bins += 1
        else:
            pooled_e += e
            pooled_o += counts[k]
    if pooled_e > 0:
        chi2 += (pooled_o - pooled_e) ** 2 / pooled_e
        bins += 1
    # 0.999 quantile of chi-square with bins - 1 degrees of freedom (Wilson-Hilferty)
    dof = bins - 1
    z = 3.090
    quantile = dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3
    assert chi2 < quantile, (chi2, quantile, dof)
    return chi2


@needs_dealer
def test_spades_of_the_constrained_hand_follow_the_conditioned_hypergeometric():
    """Carol's spades under spades(Carol) >= 5: P(k) / P(at least 5), k = 5..13."""
    dealt = deal_hands(20_000, 1, [cond("spades(Carol) >= 5")], max_tries=1_000_000)
    assert dealt.complete
    p = {k: hypergeometric(k, 13, 52, 13) for k in range(5, 14)}
    tail = sum(p.values())
    check_distribution([spades(h[CAROL]) for h in dealt.hands], {k: v / tail for k, v in p.items()})
    assert abs(dealt.rate - tail) <= 4 * dealt.rate_se


@needs_dealer
def test_spades_of_another_hand_follow_the_exact_mixture():
    """Bob's spades when Alice holds six or more: for Alice's a spades (her
    share conditioned on a >= 6), Bob's 13 cards come from the other 39 with
    13 - a spades."""
    dealt = deal_hands(20_000, 2, [cond("spades(Alice) >= 6")], max_tries=2_000_000)
    assert dealt.complete
    alice = {a: hypergeometric(a, 13, 52, 13) for a in range(6, 14)}
    tail = sum(alice.values())
    bob = {b: sum(pa / tail * hypergeometric(b, 13 - a, 39, 13) for a, pa in alice.items()
                  if b <= 13 - a) for b in range(0, 8)}
    assert abs(sum(bob.values()) - 1) < 1e-12
    check_distribution([spades(h[BOB]) for h in dealt.hands], bob)


@needs_dealer
@pytest.mark.parametrize("cards, hand", [(13, DUMMY), (8, DUMMY), (5, ALICE)])
def test_unconditioned_spades_follow_the_hypergeometric(cards, hand):
    """The remainder hand of a full deal, and the hands of endings."""
    dealt = deal_hands(20_000, 3, cards=cards)
    expected = {k: hypergeometric(k, 13, 52, cards) for k in range(0, cards + 1)}
    check_distribution([spades(h[hand]) for h in dealt.hands], expected)


@needs_dealer
def test_the_acceptance_rate_of_a_shape_is_its_exact_frequency():
    """any 4333: 4 * C(13,4) C(13,3)^3 / C(52,13) = 10.54%."""
    dealt = deal_hands(5_000, 6, [cond("shape(dummy, any 4333)")], max_tries=1_000_000)
    exact = 4 * math.comb(13, 4) * math.comb(13, 3) ** 3 / math.comb(52, 13)
    assert abs(dealt.rate - exact) <= 4 * dealt.rate_se


# ------------------------------------------------------------------ the cap
@needs_dealer
def test_contradictory_conditions_stop_at_the_cap():
    dealt = deal_hands(5, 1, [cond("spades(Alice) >= 7"), cond("spades(Bob) >= 7")],
                       max_tries=50_000)
    assert not dealt.complete and dealt.hands == () and dealt.tries == 50_000
    assert dealt.rate == 0 and dealt.rate_bound == pytest.approx(6e-5)


@needs_dealer
def test_rare_conditions_keep_what_the_cap_allowed():
    dealt = deal_hands(100, 1, [cond("spades(Alice) >= 8")], max_tries=20_000)
    assert 0 < len(dealt.hands) < 100 and dealt.tries == 20_000
    assert dealt.rate == len(dealt.hands) / 20_000


def test_endings_take_no_conditions():
    from dummy_spades.solver.dealer import DealingError

    with pytest.raises(DealingError, match="full deals"):
        deal_hands(5, 1, [cond("spades(Alice) >= 2")], cards=8)
    with pytest.raises(DealingError, match="1 to 13"):
        deal_hands(5, 1, cards=14)


# ------------------------------------------------------------------ the speed bench
@needs_dealer
def test_the_speed_bench_runs_and_passes_its_bar(capsys, monkeypatch):
    import sys
    from pathlib import Path

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "benches"))
    import deal_speed

    assert deal_speed.main(["--tries", "50000"]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and all(label in out for label, _ in deal_speed.CASES)
    assert "benches" in sys.modules["deal_speed"].__file__
