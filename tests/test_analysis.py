"""solver.analysis: the DD result for a deal, the DD table, card analysis and
the optimal line, checked against independent answers.

* Small positions (the bundled deals played at random down to a few cards,
  tricks in progress included, breaking on and off): every number against
  the reference twin (solver.reference), which is slow but obviously right.
* Full deals: the answers' internal consistency (side totals add up to 13,
  the best card's value is the solve value, the line replays legally and
  reaches it, the two sides' searches agree).
* The rules: scores through solver.scoring, which nils count, errors.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from dummy_spades.solver import analysis
from dummy_spades.solver.auction import Auction
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.board import Board
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.position import Position
from dummy_spades.solver.scoring import DUMMY, TRICKS_PER_HAND, NilBet, score_hand
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE, Seating, side_of

from model_helpers import PLAYERS, WORKED_HANDS, dealt, with_breaking, worked_deal
from solver_checks import REF

ROOT = Path(__file__).resolve().parent.parent
HANDS = sorted((ROOT / "hands").glob("*.yaml"))
SOLVABLE = [p for p in HANDS if p.stem not in ("bag-penalty",)]


@pytest.fixture(scope="module")
def solver():
    return make_solver(32)


def random_position(deal: Deal, rng: random.Random, cards_left: int, quiet: bool = False) -> Deal:
    """``deal`` with random legal cards played until ``cards_left`` tricks
    remain, then 0-3 more cards (a trick in progress). ``quiet``: nobody plays
    a spade while they hold another legal card, and the hands under a nil bet
    play their lowest card (so spades tend to stay unbroken and nils alive)."""
    state = deal.board()
    nil_hands = {b.hand for b in deal.auction.applicable_nils()}
    inside = rng.randrange(4)
    while len(state.tricks) < TRICKS_PER_HAND - cards_left or len(state.trick) != inside:
        moves = state.legal_moves()
        if quiet:
            moves = [c for c in moves if c >= 13] or moves
            if state.names[state.to_move] in nil_hands:
                moves = [min(moves, key=lambda c: c % 13)]
        state.push(rng.choice(moves))
    return deal.with_played(state.moves)


def nil_deal(breaking: bool) -> Deal:
    """The worked hands with nils on all four hands that count (Carol declares)."""
    auction = Auction.from_calls(PLAYERS, "Carol", ["5 nil self Bob", "4 nil Carol", "7 nil dummy self"])
    deal = Deal(PLAYERS, "Carol", WORKED_HANDS, auction=auction)
    return with_breaking(deal, breaking)


def small_cases():
    """(name, deal) pairs: bundled deals with a declarer played down to 2-4 cards."""
    out = []
    rng = random.Random(20240611)
    sources = [(p.stem, load_deal(p)) for p in SOLVABLE]
    sources = [(n, d) for n, d in sources if d.declarer is not None]
    sources.append(("nils", nil_deal(True)))
    for name, deal in sources:
        for breaking in (True, False):
            try:
                base = with_breaking(deal, breaking)
            except DealError:  # a spade led early with the rule off cannot be replayed with it on
                continue
            for k in range(3):
                case = random_position(base, rng, rng.choice((2, 3, 4)), quiet=k == 2)
                out.append((f"{name}-{'on' if breaking else 'off'}-{k}", case))
    return out


SMALL = small_cases()


# ------------------------------------------------------- small: vs reference
@pytest.mark.parametrize("name, deal", SMALL, ids=[n for n, _ in SMALL])
def test_contract_result_matches_reference(name, deal, solver):
    state = deal.board()
    r = analysis.contract_result(deal.board(), solver)
    want = state.declarer_tricks + REF.max_tricks(state.position, DECLARER_SIDE)
    assert r.declarer_tricks == want
    assert r.defender_tricks == TRICKS_PER_HAND - want
    assert r.won_declarer == state.declarer_tricks and r.won_defenders == state.defender_tricks
    # the other side's search gives the same split
    other = state.defender_tricks + REF.max_tricks(state.position, DEFENDER_SIDE)
    assert other == r.defender_tricks


@pytest.mark.parametrize("name, deal", SMALL, ids=[n for n, _ in SMALL])
def test_nil_outcomes_match_reference(name, deal, solver):
    state = deal.board()
    seating = deal.seating()
    r = analysis.contract_result(deal.board(), solver)
    bets = deal.auction.applicable_nils()
    assert [(n.bidder, n.hand) for n in r.nils] == [(b.bidder, b.hand) for b in bets]
    for n in r.nils:
        seat = seating.seat_of(n.hand)
        side = side_of(seat)
        assert n.side == side
        won = state.tricks_won[seat]
        assert n.lost_already == (won > 0)
        if won:
            assert not n.kept and n.side_tricks == -1
            continue
        keep = REF.max_tricks(state.position, side, nil_seat=seat)
        assert n.kept == (keep >= 0)
        side_so_far = sum(w for s, w in enumerate(state.tricks_won) if side >> s & 1)
        assert n.side_tricks == (side_so_far + keep if keep >= 0 else -1)
        # kept exactly when the other side cannot force a trick on the nil hand
        forced = REF.max_tricks(state.position, 0b1111 ^ side, count=1 << seat)
        assert n.kept == (forced == 0)
        assert n.points == (100 if n.kept else -100)


@pytest.mark.parametrize("name, deal", SMALL, ids=[n for n, _ in SMALL])
def test_card_analysis_matches_reference(name, deal, solver):
    state = deal.board()
    cards = analysis.card_analysis(state, solver)
    seat = state.to_move
    side = side_of(seat)
    assert cards.seat == seat and cards.side == side
    assert cards.to_move == state.names[seat]
    assert cards.played_by == state.names[0 if seat == 2 else seat]
    won = sum(w for s, w in enumerate(state.tricks_won) if side >> s & 1)
    want = {c: won + v for c, v in REF.card_values(state.position, side).items()}
    assert cards.values == want
    assert cards.best_value == max(want.values())
    assert set(cards.best_cards) == {c for c, v in want.items() if v == cards.best_value}
    listed = [c for g in cards.groups for c in g.cards]
    assert sorted(listed) == sorted(state.legal_moves())  # every legal card once
    for g in cards.groups:
        assert g.best == (g.value == cards.best_value)


@pytest.mark.parametrize("name, deal", SMALL, ids=[n for n, _ in SMALL])
def test_optimal_line_is_legal_and_optimal(name, deal, solver):
    state = deal.board()
    line = analysis.optimal_line(state, solver)
    value = analysis.card_analysis(state, solver).best_value
    replay = state.copy()
    for i, card in enumerate(line.cards):
        mover_side = side_of(replay.to_move)
        won = sum(w for s, w in enumerate(replay.tricks_won) if mover_side >> s & 1)
        # every card of the line keeps the position's value (reference)
        before = won + REF.max_tricks(replay.position, mover_side)
        after = REF.card_values(replay.position, mover_side)[card] + won
        assert after == before, (i, card)
        replay.push(card)
    assert replay.is_over
    side = side_of(state.to_move)
    final = replay.declarer_tricks if side == DECLARER_SIDE else replay.defender_tricks
    assert final == value
    assert (line.declarer_tricks, line.defender_tricks) == (replay.declarer_tricks,
                                                            replay.defender_tricks)


def unbroken_states():
    """Random 3-4 card endings with the rule on and spades not yet broken
    (the case random play of a full deal rarely reaches)."""
    rng = random.Random(77)
    out = []
    while len(out) < 24:
        hands = dealt(rng, rng.choice((3, 4)))
        if not any(h & 0x1FFF for h in hands):
            continue  # no spades at all: nothing to test
        state = Board.at(Position(tuple(hands), rng.randrange(4)))
        for _ in range(rng.randrange(3)):
            state.push(rng.choice(state.legal_moves()))
        out.append(state)
    return out


@pytest.mark.parametrize("k", range(24))
def test_unbroken_endings_match_reference(k, solver):
    state = unbroken_states()[k]
    cards = analysis.card_analysis(state, solver)
    side = side_of(state.to_move)
    assert cards.values == REF.card_values(state.position, side)
    line = analysis.optimal_line(state, solver)
    final = line.declarer_tricks if side == DECLARER_SIDE else line.defender_tricks
    assert final == cards.best_value
    for seat, hand in enumerate(state.names):
        n = analysis.nil_outcome(state, NilBet("someone", hand), solver)
        nil_side = side_of(seat)
        keep = REF.max_tricks(state.position, nil_side, nil_seat=seat)
        assert n.kept == (keep >= 0)
        assert n.side_tricks == keep  # nothing won yet


# ------------------------------------------------------- full deals: consistency
@pytest.mark.parametrize("path", SOLVABLE, ids=[p.stem for p in SOLVABLE])
def test_full_position_consistency(path, session_solver):
    """The analyses of a bundled deal agree with each other (asked of the
    session's solver: the commands' tests ask the same questions)."""
    solver = session_solver
    deal = load_deal(path)
    declarer = deal.declarer or deal.players[0]
    state = analysis.analysis_board(deal, declarer)
    cards = analysis.card_analysis(state, solver)
    decl = analysis.dd_side_tricks(state, DECLARER_SIDE, solver)
    defs = analysis.dd_side_tricks(state, DEFENDER_SIDE, solver)
    assert decl + defs == TRICKS_PER_HAND
    assert cards.best_value == (decl if cards.side == DECLARER_SIDE else defs)
    line = analysis.optimal_line(state, solver)
    assert (line.declarer_tricks, line.defender_tricks) == (decl, defs)
    replay = state.copy()
    for card in line.cards:
        replay.push(card)  # raises on an illegal card
    assert replay.is_over
    if deal.declarer is not None:
        r = analysis.contract_result(deal.board(), solver)
        assert (r.declarer_tricks, r.defender_tricks) == (decl, defs)


def test_line_tricks_are_numbered_and_running(solver):
    deal = load_deal(ROOT / "hands" / "mid-play.yaml")
    state = deal.board()
    line = analysis.optimal_line(state, solver)
    assert [t.number for t in line.tricks] == list(range(7, 14))
    first = line.tricks[0]
    assert first.on_table == 1 and first.leader == "Alice" and first.cards[0] == ("Alice", 40)
    assert all(t.on_table == 0 for t in line.tricks[1:])
    totals = [(3, 3)] + [(t.declarer_tricks, t.defender_tricks) for t in line.tricks]
    for (a, b), (c, d) in zip(totals, totals[1:]):
        assert (c - a, d - b) in ((1, 0), (0, 1))
    for t in line.tricks:
        assert [h for h, _ in t.cards] == [state.names[(state.names.index(t.leader) + i) % 4]
                                           for i in range(4)]


def test_dd_table_rows_use_each_declarers_seating(solver):
    deal = load_deal(ROOT / "hands" / "worked-example.yaml")
    rows = analysis.dd_table(deal, solver)
    assert [r.declarer for r in rows] == list(deal.players)
    for row in rows:
        assert row.seating == deal.seating(row.declarer)
        assert row.opening_leader == "Alice"  # the first bidder, whoever declares
        assert row.declarer_tricks + row.defender_tricks == TRICKS_PER_HAND
        state = deal.opening_board(row.declarer)
        assert row.declarer_tricks == TRICKS_PER_HAND - make_solver(8).max_tricks(
            state.position, DEFENDER_SIDE)


def test_dd_table_ignores_played_cards(solver):
    fresh = analysis.dd_table(load_deal(ROOT / "hands" / "worked-example.yaml"), solver)
    played = analysis.dd_table(load_deal(ROOT / "hands" / "mid-play.yaml"), solver)
    assert [(r.declarer, r.declarer_tricks) for r in fresh] == \
        [(r.declarer, r.declarer_tricks) for r in played]


# ------------------------------------------------------- scoring and rules
def test_scores_come_from_the_scoring_rules(solver):
    deal = nil_deal(True)
    r = analysis.contract_result(deal.board(), solver)
    assert (r.scoring_low, r.scoring_high, r.scoring_basis) == analysis.scoring_range(
        r.declarer_tricks, r.nils)
    want = score_hand(deal.auction.tricks_bid, "Carol", r.scoring_low,
                      deal.auction.applicable_nils(),
                      {n.hand: 0 if n.kept else 1 for n in r.nils})
    assert r.scores == tuple(want[p] for p in deal.players)
    for s in r.scores:
        tricks = r.scoring_low if s.role == "declarer" else 13 - r.scoring_low
        assert s.side_tricks == tricks and s.made == (tricks >= s.bid)
    assert r.ignored_nils == (NilBet("Bob", "Carol"),)
    assert {(n.bidder, n.hand) for n in r.nils} == {
        ("Alice", "Alice"), ("Alice", "Bob"), ("Carol", DUMMY), ("Carol", "Carol")}
    for n in r.nils:
        assert n.points == (100 if n.kept else -100)


def test_worked_example_values(solver):
    """The worked example: the numbers every other check also confirms."""
    deal = worked_deal("5", "6", "7")
    r = analysis.contract_result(deal.board(), solver)
    assert r.declarer == "Carol" and r.to_move == "Alice" and r.cards_played == 0
    assert r.declarer_tricks + r.defender_tricks == 13


def test_with_breaking_switches_only_the_rule():
    deal = load_deal(ROOT / "hands" / "spade-breaking.yaml")
    off = with_breaking(deal, False)
    assert deal.rules.breaking and not off.rules.breaking
    assert off.played == deal.played and off.hands == deal.hands
    assert with_breaking(deal, None) is deal
    assert with_breaking(deal, True) is deal


def test_spade_breaking_file_values(solver):
    """The file's notes: with the rule the declarer side takes 2 of the last 5
    tricks, without it 3 (checked on the reference twin here)."""
    deal = load_deal(ROOT / "hands" / "spade-breaking.yaml")
    for breaking, last in ((True, 2), (False, 3)):
        d = with_breaking(deal, breaking)
        state = d.board()
        assert REF.max_tricks(state.position, DECLARER_SIDE) == last
        r = analysis.contract_result(d.board(), solver)
        assert r.declarer_tricks == state.declarer_tricks + last


# ------------------------------------------------------- errors
def test_finished_hand_is_refused(solver):
    deal = load_deal(ROOT / "hands" / "bag-penalty.yaml")
    with pytest.raises(analysis.AnalysisError, match="the hand is over"):
        analysis.contract_result(deal.board(), solver)
    with pytest.raises(analysis.AnalysisError, match="the hand is over"):
        analysis.analysis_board(deal)


def test_no_declarer_and_wrong_declarer():
    partial = load_deal(ROOT / "hands" / "freak-distribution.yaml")
    with pytest.raises(analysis.AnalysisError, match="no declarer"):
        analysis.analysis_board(partial)
    assert analysis.analysis_board(partial, "Bob").names[0] == "Bob"
    with pytest.raises(analysis.AnalysisError, match="unknown declarer"):
        analysis.analysis_board(partial, "Zed")
    full = load_deal(ROOT / "hands" / "worked-example.yaml")
    what_if = analysis.analysis_board(full, "Bob")       # no card played yet: a what-if
    assert what_if.names[0] == "Bob" and not what_if.moves
    assert analysis.analysis_board(full, "Carol").names[0] == "Carol"
    played = load_deal(ROOT / "hands" / "mid-play.yaml")
    with pytest.raises(analysis.AnalysisError, match="played with Carol declaring"):
        analysis.analysis_board(played, "Bob")
    with pytest.raises(DealError, match="auction is not complete"):
        analysis.contract_result(partial.board(), make_solver(8))


def _nil(side: int, kept: bool, side_tricks: int) -> "analysis.NilOutcome":
    return analysis.NilOutcome("Alice", "dummy", side, kept, side_tricks if kept else -1, False, 0)


@pytest.mark.parametrize("nils, want", [
    ((), (9, 9, "tricks")),
    ((_nil(DECLARER_SIDE, False, 0),), (9, 9, "tricks")),          # a lost nil: play for tricks
    ((_nil(DECLARER_SIDE, True, 8),), (8, 8, "declarer-nil")),     # keeping it costs a trick
    ((_nil(DECLARER_SIDE, True, 8), _nil(DECLARER_SIDE, True, 7)), (7, 7, "declarer-nil")),
    ((_nil(DEFENDER_SIDE, True, 3),), (10, 10, "defender-nil")),   # defenders keep theirs: 13 - 3
    ((_nil(DECLARER_SIDE, True, 8), _nil(DEFENDER_SIDE, True, 3)), (8, 10, "both-nils")),
])
def test_scoring_range_plays_for_nils_first(nils, want):
    """A side with a nil that counts plays to keep it before taking tricks
    (docs/SOLVE.md); the scores use the totals that game defends."""
    assert analysis.scoring_range(9, nils) == want
