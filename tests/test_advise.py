"""``advise``: single-dummy advice, checked against independent answers.

* the layout space: counts, listings and draws against brute force over
  every way to deal the unseen cards (voids, fixed cards, known suit
  counts), and the draws' uniformity by a chi-square test;
* what the chooser knows: the voids the play shows, the hidden hands, the
  dummy before and after the opening lead; every drawn layout checked
  against what the chooser has seen;
* exact mode: in endings small enough for the reference twin, every figure
  equals the (weighted) average, over every consistent layout found by
  brute force, of the twin's card values and of ``solve``'s scores
  (``contract_result``) after the card; breaking on and off, voids shown,
  declarer, defenders and the dummy's card;
* sampled mode converges to exact mode (a statistical test, fixed seed);
* no information leaks: other hidden hands in the file give the same
  advice; only ``double_dummy`` may change;
* the result does not depend on the executor.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from dummy_spades.solver import advise as sd
from dummy_spades.solver.advise import question_of as question
from dummy_spades.solver.analysis import contract_result
from dummy_spades.solver.auction import Auction, Bid
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.cards import FULL_DECK, SPADES, SUIT_MASK, iter_cards, parse_hand, suit_of
from dummy_spades.solver.cards import count as popcount
from dummy_spades.solver.deal import Deal, FrozenMap
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.run import ProcessPool
from dummy_spades.solver.simulation import (LayoutError, LayoutSpace, Settings, SimulationError,
                                            model)
from dummy_spades.solver.rules import Rules
from dummy_spades.solver.scoring import DUMMY
from dummy_spades.solver.seating import side_of

from solver_checks import REF

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"


def bundled(stem: str) -> Deal:
    return load_deal(HANDS / f"{stem}.yaml")


_ENGINE = None


def engine():
    global _ENGINE
    if _ENGINE is None:
        _ENGINE = make_solver(16)
    return _ENGINE


def later(stem: str, cards: int, breaking: Optional[bool] = None) -> Deal:
    """The bundled deal ``stem`` with ``cards`` more cards of an optimal line played."""
    deal = bundled(stem)
    if breaking is not None:
        deal = deal.with_rules(Rules(breaking, deal.rules.scoring))
    state = deal.board()
    line = engine().optimal_line(state.position, side_of(state.to_move))
    return deal.with_played(list(deal.played) + line[:cards])


# ------------------------------------------------------------ layout space
def brute_layouts(space: LayoutSpace) -> List[Tuple[int, ...]]:
    """Every way to deal the pool to the hands, filtered by the constraints."""
    pool = list(iter_cards(space.pool))
    out = []

    def deal(i: int, left: List[int], hands: Tuple[int, ...]) -> None:
        if i == len(space.names) - 1:
            out.append(hands + (sum(1 << c for c in left),))
            return
        for chosen in itertools.combinations(left, space.sizes[i]):
            rest = [c for c in left if c not in chosen]
            deal(i + 1, rest, hands + (sum(1 << c for c in chosen),))

    deal(0, pool, ())
    good = []
    for hands in out:
        if all(row[s] is None or popcount(h & SUIT_MASK[s]) == row[s]
               for h, row in zip(hands, space.counts) for s in range(4)):
            good.append(tuple(h | f for h, f in zip(hands, space.fixed)))
    return good


SPACES = [
    LayoutSpace(("A", "B"), parse_hand("AKQ.JT9.87.65"), (5, 5),
                counts=((None, 0, None, None), (None, None, None, None))),
    LayoutSpace(("A", "B", "C"), parse_hand("AK2.QJ.T9.8"), (3, 3, 2),
                fixed=(0, 0, parse_hand(".A..")),
                counts=((None, None, 0, None), (0, None, None, None), (None, None, None, None))),
    LayoutSpace(("A", "B", "dummy"), parse_hand("AK32.QJ.T9.8"), (3, 3, 3),
                counts=((2, None, None, None), (None, 0, 0, None), (None, None, None, None))),
    LayoutSpace(("A", "B"), parse_hand("AKQJT.98765.."), (6, 4),
                counts=((None, None, 0, 0), (5, None, None, None))),
]


@pytest.mark.parametrize("space", SPACES)
def test_count_and_listing_match_brute_force(space):
    want = sorted(brute_layouts(space))
    assert space.count() == len(want)
    listed = list(space.layouts())
    assert sorted(listed) == want and len(set(listed)) == len(listed)
    assert sum(space.split_counts().values()) == len(want)
    assert all(space.contains(layout) for layout in want)


def test_contains_rejects_what_breaks_a_constraint():
    space = SPACES[1]
    good = next(space.layouts())
    assert space.contains(good)
    a, b, c = good
    moved = next(x for x in iter_cards(a))
    assert not space.contains((a & ~(1 << moved), b | 1 << moved, c))       # sizes
    assert not space.contains((a, b, c & ~parse_hand(".A..")))               # fixed card
    assert not space.contains((a, b))


@pytest.mark.parametrize("space", SPACES[:3])
def test_draws_are_exactly_uniform(space):
    """Chi-square test of the draws against the uniform distribution over
    every consistent layout (fixed seed; the statistic must stay below
    the 99.9th percentile of its distribution)."""
    layouts = brute_layouts(space)
    k = len(layouts)
    draws = 200 * k
    rng = random.Random(7)
    seen = Counter(space.sample(rng) for _ in range(draws))
    assert set(seen) <= set(layouts)
    expected = draws / k
    chi2 = sum((seen[x] - expected) ** 2 / expected for x in layouts)
    # Wilson-Hilferty: the 99.9th percentile of chi-square with k - 1 degrees of freedom
    df = k - 1
    limit = df * (1 - 2 / (9 * df) + 3.09 * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < limit, (chi2, limit)


def test_a_space_that_does_not_add_up_is_refused():
    with pytest.raises(LayoutError):
        LayoutSpace(("A", "B"), parse_hand("AK..."), (1, 2))
    with pytest.raises(LayoutError):
        LayoutSpace(("A", "B"), parse_hand("AK..."), (1, 1), fixed=(parse_hand("A..."), 0))


def test_nothing_hidden_is_one_empty_layout():
    space = LayoutSpace((), 0, ())
    assert space.count() == 1 and list(space.layouts()) == [()]
    assert space.sample(random.Random(1)) == () and space.contains(())
    with pytest.raises(LayoutError):
        LayoutSpace((), parse_hand("A..."), ())


#: the worked example 50 cards in: Alice, to play, has seen every card left
PINNED = ("C2 C8 CJ CA HJ HQ H7 H2 HA H6 H5 H8 H4 H3 HK SK SJ SA SQ S6 D2 DT DQ DA S7 H9 S5 S8 "
          "S9 S4 HT S3 ST DK D8 S2 D4 DJ C3 D9 D5 C9 D3 D6 D7 CQ CT C7 C4 C6").split()


def test_a_chooser_who_has_seen_every_card_left_is_advised_exactly():
    deal = bundled("worked-example").with_played(PINNED)
    q = question(deal)
    assert q.player == "Alice" and q.knowledge.unknown == 0 and q.space.names == ()
    a = sd.advise(deal, solver=engine())
    assert a.method == sd.EXACT and a.consistent == a.layouts == a.samples == 1
    assert [c.tricks.value for c in a.cards] == [float(c.double_dummy) for c in a.cards]


# ------------------------------------------------------------ what the chooser knows
def independent_voids(deal: Deal) -> Dict[str, int]:
    """Suits each hand is shown void in, by replaying the played cards."""
    state = deal.opening_board()
    names = state.names
    voids = {n: 0 for n in names}
    broken = False
    for card in deal.played:
        seat = state.to_move
        trick = state.trick
        if trick and suit_of(card) != suit_of(trick[0]):
            voids[names[seat]] |= 1 << suit_of(trick[0])
        if not trick and suit_of(card) == SPADES and deal.rules.breaking and not broken:
            voids[names[seat]] |= 0b1110
        done = state.push(card)
        if done is not None:
            broken = broken or any(suit_of(c) == SPADES for c in done.cards)
    return voids


def check_layout(deal: Deal, q: sd.Question, layout: Tuple[int, ...]) -> None:
    """A layout respects the hand sizes, the shown voids, the cards the
    chooser sees and the dummy cards they saw; the hidden hands get every
    unseen card."""
    state = deal.board()
    voids = independent_voids(deal)
    names = state.names
    hands = q.hands(layout)
    assert hands[names.index(q.player)] == state.hands[names.index(q.player)]
    on_table = sum(1 << c for c in state.trick)
    for seat, name in enumerate(names):
        assert popcount(hands[seat]) == popcount(state.hands[seat]), name
        for s in range(4):
            if voids[name] >> s & 1:
                assert not hands[seat] & SUIT_MASK[s], (name, s)
    everything = sum(hands) | sum(1 << c for c in deal.played)
    assert everything == FULL_DECK and not sum(hands) & on_table
    seen_dummy = deal.variant.known_to(q.player) if not deal.played else deal.hands[DUMMY]
    assert hands[names.index(DUMMY)] & seen_dummy == seen_dummy & ~sum(1 << c for c in deal.played)


@pytest.mark.parametrize("stem,cards", [("mid-play", 0), ("spade-breaking", 0),
                                        ("three-peeky", 0), ("flip-2", 0), ("mirror", 0),
                                        ("nil-break", 0), ("worked-example", 9),
                                        ("no-spade-breaking", 0)])
def test_every_draw_respects_what_the_chooser_has_seen(stem, cards):
    deal = later(stem, cards) if cards else bundled(stem)
    q = question(deal)
    for i in range(300):
        check_layout(deal, q, q.space.sample(sd.layout_rng(1, i)))


def test_before_the_opening_lead_the_unseen_dummy_cards_are_dealt_as_hidden_cards():
    deal = bundled("three-peeky")
    q = question(deal)                          # Carol leads: she saw SQ H2 D6 of the dummy
    assert "dummy" in q.space.names and q.visible[2] is None
    i = q.space.names.index("dummy")
    assert q.space.fixed[i] == deal.variant.known_to("Carol") == parse_hand("Q.2.6.")
    assert q.space.sizes[i] == 10
    dummies = {q.space.sample(sd.layout_rng(3, j))[i] for j in range(50)}
    assert len(dummies) == 50                   # the ten unseen dummy cards vary
    assert all(d & parse_hand("Q.2.6.") == parse_hand("Q.2.6.") for d in dummies)
    after = later("three-peeky", 1)             # after the lead the dummy is seen
    qa = question(after)
    assert "dummy" not in qa.space.names and qa.visible[2] == after.board().hands[2]


def test_the_cards_face_up_in_the_auction_weigh_the_layouts_after_the_lead():
    """Under flip-N every bidder saw the cards turned face up; after the
    opening lead the chooser still knows it (the knowledge holds it), and
    each bidder's chance is the model's with those cards seen."""
    deal = later("flip-2", 1)
    q = question(deal)
    assert q.knowledge.face_up == deal.variant.face_up != 0
    layout = q.space.sample(sd.layout_rng(1, 0))
    chances = sd.bid_chances(q, layout, 1, 0)
    for b, chance in zip(q.bidders, chances):
        view = model.View(q.original(layout, b.seat), deal.variant.face_up, b.position,
                          b.earlier)
        assert chance == model.call_chance(b.bid, view)


def test_voids_shown_by_the_play():
    q = question(bundled("mid-play"))           # Alice ruffed a diamond with the ace of spades
    assert q.space.counts[q.space.names.index("Alice")][2] == 0
    k = q.knowledge
    for name, row in zip(q.space.names, q.space.counts):
        assert {s for s in range(4) if row[s] == 0} == set(k.voids(name))


@pytest.mark.parametrize("stem,player,message", [
    ("bag-penalty", None, "the hand is over"),
    ("mid-play", "Alice", "Alice is not to play: Carol chooses the dummy's card"),
    ("mid-play", "Zed", "unknown player 'Zed'"),
    ("mid-play", "dummy", "the declarer chooses the dummy's cards"),
    ("nil-candidate", None, "the auction is not complete"),
])
def test_bad_positions(stem, player, message):
    with pytest.raises(sd.AdviseError, match=message):
        question(bundled(stem), player)


# ------------------------------------------------------------ exact mode against the twin
def brute_consistent(deal: Deal, player: str) -> Tuple[List[Dict[str, int]], List[str]]:
    """Every layout of the hidden hands' current cards, by brute force:
    the unseen cards dealt to the hands the chooser cannot see, in the
    sizes they hold, none of a suit a hand has shown void in."""
    state = deal.board()
    names = state.names
    me = names.index(player)
    visible = {me} if not deal.played else {me, names.index(DUMMY)}
    hidden = [n for s, n in enumerate(names) if s not in visible]
    played = sum(1 << c for c in deal.played)
    seen = sum(state.hands[s] for s in visible) | played
    unseen = list(iter_cards(FULL_DECK & ~seen))
    voids = independent_voids(deal)
    sizes = [popcount(state.hands[names.index(n)]) for n in hidden]
    out = []
    assert len(hidden) == 2
    for chosen in itertools.combinations(unseen, sizes[0]):
        a = sum(1 << c for c in chosen)
        b = sum(1 << c for c in unseen) & ~a
        layout = {hidden[0]: a, hidden[1]: b}
        if all(not layout[n] & SUIT_MASK[s] for n in hidden for s in range(4)
               if voids[n] >> s & 1):
            out.append(layout)
    return out, hidden


def layout_deal(deal: Deal, layout: Dict[str, int]) -> Deal:
    """The deal with the hidden hands' current cards replaced by ``layout``
    (each hand's played cards stay its own)."""
    state = deal.board()
    names = state.names
    played_by = {n: 0 for n in names}
    for t in state.tricks:
        for s, c in zip(t.seats, t.cards):
            played_by[names[s]] |= 1 << c
    for s, c in zip(state.current_trick.seats, state.trick):
        played_by[names[s]] |= 1 << c
    hands = dict(deal.hands)
    for name, cards in layout.items():
        hands[name] = cards | played_by[name]
    return Deal(deal.players, deal.dealer, FrozenMap(hands), deal.auction, deal.played,
                deal.rules, deal.scores, deal.variant)


def independent_weight(deal: Deal, lay: Deal, player: str) -> float:
    """The bidding model's likelihood of the other players' bids with the
    hands ``lay`` deals them (no-peeky deals: no dummy card seen)."""
    assert deal.variant.name == "no-peeky"
    auction = deal.auction
    order = auction.bidding_order
    w = 1.0
    for i, b in enumerate(auction.bids):
        if b.player == player:
            continue
        view = model.View(lay.hands[b.player], 0, i, tuple(x.tricks for x in auction.bids[:i]))
        w *= max(model.call_chance(b, view), 1e-9)
    return w


def expected_figures(deal: Deal, conditioned: bool):
    """Per legal card: the weighted means of the twin's value (the side's
    whole-hand total), each player's score change and each goal, over every
    consistent layout, each after the card by contract_result on the twin."""
    state = deal.board()
    player = state.names[0] if state.to_move == 2 else state.names[state.to_move]
    layouts, hidden = brute_consistent(deal, player)
    side = side_of(state.to_move)
    won = sum(w for s, w in enumerate(state.tricks_won) if side >> s & 1)
    sums: Dict[int, List[float]] = {}
    total = 0.0
    for layout in layouts:
        lay = layout_deal(deal, layout)
        w = independent_weight(deal, lay, player) if conditioned else 1.0
        total += w
        lstate = lay.board()
        values = REF.card_values(lstate.position, side)
        for card, v in values.items():
            after = lay.with_played(list(lay.played) + [card])
            if after.board().is_over:
                continue   # not in these endings
            cr = contract_result(after.board(), REF)
            if cr.result.ledger is not None:
                scores = [e.after.points - e.before.points for e in cr.result.ledger]
            else:
                scores = [s.points for s in cr.scores]
            made = [cr.result.score_of(deal.declarer).made]
            made += [cr.result.score_of(p).made for p in deal.auction.defenders
                     if deal.auction.tricks_bid[p] > 0]
            made += [any(n.success for n in cr.result.score_of(b.bidder).nils if n.hand == b.hand)
                     for b in deal.auction.applicable_nils()]
            row = [won + v] + scores + [float(m) for m in made]
            acc = sums.setdefault(card, [0.0] * len(row))
            for j, x in enumerate(row):
                acc[j] += w * x
    return {card: [x / total for x in acc] for card, acc in sums.items()}, len(layouts)


ENDINGS = [
    ("spade-breaking", 6, None),     # a defender leads; voids shown
    ("nil-break", 2, None),          # a defender who bid nil, running scores
    ("nil-break", 3, False),         # the declarer chooses the dummy's card, breaking off
    ("nil-break", 4, None),          # the declarer, an opponent of the nil
    ("worked-example", 40, False),   # the declarer, breaking off
    ("nil-bets", 39, None),          # a defender; a nil on each side
    ("nil-bets", 46, False),         # the dummy's card, two nils, breaking off
    ("three-peeky", 39, None),       # the dummy's card under three-peeky
]
CONDITIONED = [e + (c,) for e in ENDINGS for c in (False, True)
               if not (c and bundled(e[0]).variant.name != "no-peeky")]


@pytest.mark.parametrize("stem,cards,breaking,conditioned", CONDITIONED)
def test_exact_mode_is_the_twins_average_over_every_layout(stem, cards, breaking, conditioned):
    deal = later(stem, cards, breaking)
    want, count = expected_figures(deal, conditioned)
    a = sd.advise(deal, solver=REF, hindsight=False,
                  settings=Settings(sampling="conditioned" if conditioned else "uniform"))
    assert a.method == sd.EXACT and a.consistent == count == a.layouts == a.samples
    assert a.sampling.conditioned == conditioned
    players = list(deal.players)
    for c in a.cards:
        for card in c.cards:
            row = want[card]
            assert c.tricks.value == pytest.approx(row[0]) and c.tricks.se == 0
            for p, s in zip(a.players, c.scores):
                assert s.value == pytest.approx(row[1 + players.index(p)])
            assert len(c.makes) == len(row) - 4
            for m, x in zip(c.makes, row[4:]):
                assert m.value == pytest.approx(x)
    # best first, ties by tricks; each difference is the mean paired difference
    best = a.cards[0]
    for c in a.cards:
        assert c.diff.value == pytest.approx(c.score.value - best.score.value)
        assert (c.score.value, c.tricks.value) <= (best.score.value, best.tricks.value)


def test_exact_mode_weights_are_the_bid_likelihoods():
    deal = later("spade-breaking", 6)
    q = question(deal)
    items, report = sd.exact_layouts(q, 1)
    assert report.conditioned and report.drawn == len(items) == q.space.count()
    by_layout = {w.layout: w.weight for w in items}
    layouts, hidden = brute_consistent(deal, q.player)
    for layout in layouts:
        lay = layout_deal(deal, layout)
        key = tuple(layout[n] for n in q.space.names)
        assert by_layout[key] == pytest.approx(independent_weight(deal, lay, q.player))


# ------------------------------------------------------------ scoring as solve scores
def test_scores_after_each_card_are_solves_on_the_real_layout():
    """With the real layout as the only layout, every card's figures are
    contract_result's on the deal cut after that card (running scores and a
    nil that counts: nil-break)."""
    deal = bundled("nil-break")
    q = question(deal)
    real = tuple(deal.board().hands[s] for s in q.hidden)
    answers = sd.solve_cards(engine(), q, (0, real))
    scorer = sd.Scorer(q)
    figures = sd.card_figures(q, scorer, [answers], None, True)
    for c in figures:
        cr = contract_result(deal.with_played(list(deal.played) + [c.cards[0]]).board(), engine())
        assert [s.value for s in c.scores] == \
            [e.after.points - e.before.points for e in cr.result.ledger]
        side = cr.declarer_tricks if q.side == 0b0101 else 13 - cr.declarer_tricks
        assert c.tricks.value == side


# ------------------------------------------------------------ sampled against exact
@pytest.mark.parametrize("method", ["uniform", "conditioned"])
def test_sampling_converges_to_enumeration(method):
    """At a position with 3,432 consistent layouts, 400 sampled layouts (seed
    5) give every card's expected tricks and score, and its paired difference
    to the sampled best card, within 4 standard errors of the exact values
    (a difference no sampled layout shows has a standard error of 0: then
    within 1 point). About 20 comparisons: a 4-SE miss by chance is a
    1-in-800 event."""
    deal = later("worked-example", 24)
    exact = sd.advise(deal, solver=engine(), hindsight=False,
                      settings=Settings(sampling=method, exact_limit=5000))
    assert exact.method == sd.EXACT and exact.consistent == 3432
    sampled = sd.advise(deal, solver=engine(), hindsight=False,
                        settings=Settings(sampling=method, samples=400, seed=5, exact_limit=1000))
    assert sampled.method == sd.SAMPLED and sampled.samples == 400
    assert sampled.sampling.conditioned == (method == "conditioned")
    want = {c.cards: c for c in exact.cards}
    best = sampled.cards[0].cards
    assert len(sampled.cards) == len(exact.cards) > 1
    for s in sampled.cards:
        e = want[s.cards]
        for got, value in ((s.tricks, e.tricks.value), (s.score, e.score.value),
                           (s.diff, e.score.value - want[best].score.value)):
            tolerance = 4 * got.se if got.se > 0 else 1.0
            assert abs(got.value - value) <= tolerance, (s.cards, got, value)


# ------------------------------------------------------------ no leaks, reproducible
def relaid(deal: Deal, seed: int) -> Deal:
    """The deal with its hidden hands dealt again, consistently with what the
    chooser has seen (and with every dummy card anybody saw still in it)."""
    q = question(deal)
    rng = random.Random(seed)
    required = 0
    for mask in deal.variant.seen.values():
        required |= mask
    for _ in range(1000):
        layout = list(q.space.sample(rng))
        if DUMMY in q.space.names and not deal.played:
            # move the dummy cards the other players saw back into the dummy
            d = q.space.names.index(DUMMY)
            for card in iter_cards(required & ~layout[d]):
                holder = next(i for i, h in enumerate(layout) if h >> card & 1)
                spare = next(c for c in iter_cards(layout[d] & ~required))
                layout[holder] = layout[holder] & ~(1 << card) | 1 << spare
                layout[d] = layout[d] & ~(1 << spare) | 1 << card
        new = layout_deal(deal, dict(zip(q.space.names, layout)))
        if new.hands != deal.hands:
            return new
    raise AssertionError("no other layout")


def advice_without_hindsight(a: sd.Advice):
    return [(c.cards, c.tricks, c.makes, c.scores, c.diff) for c in a.cards], \
        (a.method, a.samples, a.layouts, a.effective_samples, a.sampling)


@pytest.mark.parametrize("stem,cards,samples", [("mid-play", 0, 20), ("three-peeky", 0, 6),
                                                ("spade-breaking", 3, 20),
                                                ("worked-example", 9, 12)])
def test_other_hidden_hands_give_the_same_advice(stem, cards, samples):
    deal = later(stem, cards) if cards else bundled(stem)
    other = relaid(deal, 11)
    a = sd.advise(deal, solver=engine(), settings=Settings(samples=samples, seed=3))
    b = sd.advise(other, solver=engine(), settings=Settings(samples=samples, seed=3))
    assert advice_without_hindsight(a) == advice_without_hindsight(b)


def test_the_same_advice_whatever_runs_the_solves():
    deal = later("worked-example", 9)
    a = sd.advise(deal, solver=engine(), settings=Settings(samples=12, seed=4))
    with ProcessPool(2) as pool:
        b = sd.advise(deal, executor=pool, settings=Settings(samples=12, seed=4))
    assert advice_without_hindsight(a) == advice_without_hindsight(b)
    assert a.queries == b.queries


# ------------------------------------------------------------ conditioning
def test_conditioned_sampling_is_weighted_draws_of_the_uniform_stream():
    deal = later("worked-example", 9)
    q = question(deal)
    draws = sd.Draws(q, 2)
    taken = list(draws.draws(15))
    assert draws.conditioning and len(taken) == 15
    for w in taken:
        assert w.layout == q.space.sample(sd.layout_rng(2, w.index)) and w.weight >= 1.0
    assert [w.index for w in taken] == sorted(w.index for w in taken)


def test_a_bid_no_layout_fits_is_left_out_and_named(monkeypatch):
    deal = later("worked-example", 9)
    q = question(deal)
    left_out = q.bidders[0].bid
    real = model.call_chance
    monkeypatch.setattr(model, "call_chance",
                        lambda bid, view: 0.0 if bid == left_out else real(bid, view))
    draws = sd.Draws(q, 1)
    assert draws.conditioning and draws.report().ignored == (left_out,)
    a = sd.advise(deal, solver=engine(), hindsight=False, settings=Settings(samples=4))
    assert a.sampling.conditioned and a.sampling.ignored == (left_out,)


def test_when_no_layout_fits_any_bid_the_layouts_are_uniform_with_a_note(monkeypatch):
    monkeypatch.setattr(model, "call_chance", lambda bid, view: 0.0)
    deal = later("worked-example", 9)
    a = sd.advise(deal, solver=engine(), hindsight=False, settings=Settings(samples=5))
    assert a.sampling.method == "uniform" and not a.sampling.conditioned
    assert "no layout fits" in a.sampling.note and a.samples == 5
    e = sd.advise(later("spade-breaking", 3), solver=engine(), hindsight=False)
    assert e.method == sd.EXACT and "no layout fits" in e.sampling.note


def test_no_draw_accepted_within_the_cap_falls_back_to_uniform(monkeypatch):
    from dummy_spades.solver.simulation import conditioning
    monkeypatch.setattr(conditioning, "DRAWS_PER_SAMPLE", 1)
    monkeypatch.setattr(conditioning.RejectionControl, "weight", lambda self, index, like: None)
    deal = later("worked-example", 9)
    a = sd.advise(deal, solver=engine(), hindsight=False, settings=Settings(samples=4))
    assert a.samples == 4 and a.sampling.method == "uniform" and not a.sampling.conditioned
    assert "draw cap" in a.sampling.note and a.sampling.drawn == 504 + 4
    assert a.stopped_by == "samples"


def test_bidding_variants_sample_uniformly_and_mirror_bids_fix_spade_counts():
    deal = later("mirror", 5)
    q = question(deal)
    a = sd.advise(deal, solver=engine(), hindsight=False, settings=Settings(samples=3))
    assert a.sampling.method == "uniform" and "mirror" in a.sampling.note
    for i in range(100):
        layout = q.space.sample(sd.layout_rng(1, i))
        for seat in q.hidden:
            name = q.names[seat]
            if name in deal.players:
                spades = popcount(q.original(layout, seat) & SUIT_MASK[SPADES])
                assert spades == deal.auction.tricks_bid[name]


# ------------------------------------------------------------ the run
def test_time_limit_and_precision_stop_early():
    deal = later("worked-example", 9)
    a = sd.advise(deal, solver=engine(), hindsight=False,
                  settings=Settings(samples=60, time_limit=0))
    assert a.samples == 1 and a.stopped_by == "time" and a.stopped_early
    b = sd.advise(deal, solver=engine(), hindsight=False,
                  settings=Settings(samples=500, precision=1000.0))
    assert b.samples == 20 and b.stopped_by == "precision" and b.precision() <= 1000.0


@pytest.mark.parametrize("field,kwargs", [("samples", {"samples": 0}),
                                          ("exact_limit", {"exact_limit": -1}),
                                          ("precision", {"precision": 0.0}),
                                          ("sampling", {"sampling": "magic"})])
def test_out_of_range_arguments(field, kwargs):
    with pytest.raises(SimulationError) as err:
        sd.advise(bundled("mid-play"), solver=engine(), settings=Settings(**kwargs))
    assert err.value.field == field


def test_the_recommendation_says_when_the_best_cards_are_close():
    exact = sd.advise(bundled("mid-play"), solver=engine(), hindsight=False)
    assert exact.method == sd.EXACT
    # the five and the eight-seven of clubs are equally good
    assert {c.cards for c in (exact.recommended,) + exact.close} == {(42,), (44, 45)}
    assert all(c.diff.value == 0 for c in exact.close)


def test_double_dummy_is_the_real_layouts_value():
    deal = later("spade-breaking", 3)
    a = sd.advise(deal, solver=engine())
    from dummy_spades.solver.analysis import card_analysis
    values = card_analysis(deal.board(), engine()).values
    for c in a.cards:
        assert c.double_dummy == values[c.cards[0]]
