"""The explorer's state as a library object (solver/exploration.py), without
Textual: moving through the play, the redo list, the rule switch, the
answers kept per position, saving; a player's view (what each player sees,
single-dummy figures refined layout by layout, equal to advise's) and
practice (the computer's cards, taking back)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from dummy_spades.solver import analysis
from dummy_spades.solver.advise import AdviseError, advise
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import count, parse_card
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.errors import IllegalPlayError
from dummy_spades.solver.exploration import Exploration, SingleDummy
from dummy_spades.solver.knowledge import Knowledge
from dummy_spades.solver.review import scores_at
from dummy_spades.solver.simulation import Settings, SimulationError

from model_helpers import with_breaking
from solver_checks import session_solver

HANDS = Path(__file__).resolve().parent.parent / "hands"


def exploration(stem: str, **kwargs) -> Exploration:
    return Exploration(load_deal(HANDS / f"{stem}.yaml"), solver=session_solver(), **kwargs)


def test_starts_at_the_files_played_cards():
    deal = load_deal(HANDS / "mid-play.yaml")
    x = exploration("mid-play")
    assert x.moves == deal.played and x.names == deal.board().names and x.scored
    assert x.pending() and x.known_values() is None and x.known_scores() is None


def test_moves_undo_and_redo():
    x = exploration("mid-play")
    start = x.moves
    legal = x.board.legal_moves()
    x.play(legal[0])
    assert x.undo_card() and x.redo == [legal[0]] and x.moves == start
    assert x.redo_card() and x.moves == start + (legal[0],) and not x.redo
    assert x.undo_trick() and x.moves == start[:24]       # the trick in progress taken back
    assert x.redo_trick() and x.moves == start + (legal[0],)
    x.undo_card()
    x.play(legal[-1])                                     # another card: the redo list goes
    assert not x.redo
    assert x.to_start() and x.moves == () and not x.to_start()
    assert not x.undo_card() and not x.undo_trick()


def test_answers_are_kept_per_position_and_asked_of_copies():
    x = exploration("mid-play")
    copy = x.board.copy()
    values = x.card_values(copy)
    assert x.known_values() is values and x.card_values() is values
    want = analysis.card_analysis(load_deal(HANDS / "mid-play.yaml").board(), session_solver())
    assert values.values == want.values
    scores = x.scores(copy)
    assert x.known_scores() is scores and not scores.actual and not x.pending()
    assert scores == scores_at(load_deal(HANDS / "mid-play.yaml").board(), session_solver())
    line = x.optimal_line()
    assert x.board.moves == copy.moves          # asking moves nothing
    for card in line:
        x.play(card)
    assert x.board.is_over and x.card_values() is None and x.optimal_line() == ()
    assert x.scores().actual and x.scores().declarer_tricks == x.board.declarer_tricks


def test_switching_the_rule_on_keeps_played_cards_legal():
    """worked-example with the rule off: Alice leads her spade ace; switching
    the rule on would make that lead illegal, so the switch is refused."""
    deal = with_breaking(load_deal(HANDS / "worked-example.yaml"), False)
    x = Exploration(deal, solver=session_solver())
    spade = parse_card("SA")
    x.play(spade)
    with pytest.raises(IllegalPlayError):
        x.toggle_breaking()
    assert x.breaking is False and x.moves == (spade,)
    x.undo_card()
    x.toggle_breaking()
    assert x.breaking and x.board.position.breaking and not x.redo


def test_what_if_declarer_has_no_scores():
    x = exploration("worked-example", declarer="Bob")
    assert x.names[0] == "Bob" and not x.scored and x.scores() is None
    assert x.deal_now() == load_deal(HANDS / "worked-example.yaml")


def test_no_declarer_is_refused():
    with pytest.raises(analysis.AnalysisError, match="--declarer NAME"):
        exploration("freak-distribution")


def test_deal_now_holds_the_cards_played_and_the_rule():
    x = exploration("mid-play")
    x.play(x.board.legal_moves()[0])
    x.toggle_breaking()
    saved = x.deal_now()
    assert saved.played == x.moves and saved.rules.breaking is False
    assert isinstance(saved.board(), Board) and saved.board().moves == x.moves


# ------------------------------------------------------------ a player's view
def single(view_samples: int = 12, seed: int = 1, practice_samples: int = 6,
           practice_seconds: Optional[float] = None) -> SingleDummy:
    return SingleDummy(Settings(view_samples, seed), practice_samples, practice_seconds)


def test_a_player_sees_their_hand_and_the_dummy_as_the_knowledge_says():
    """three-peeky, Bob declaring: before the opening lead Carol (on lead)
    sees her hand and her three peeks at the dummy; after it, every player
    sees the dummy, and the declarer both of his hands."""
    deal = load_deal(HANDS / "three-peeky.yaml")
    x = Exploration(deal, solver=session_solver(), single=single())
    assert x.chooser == "Carol" and x.declarer == "Bob"
    seen = dict(zip(x.names, x.seen("Carol")))
    assert seen["Carol"] == (deal.hands["Carol"], 0)
    assert seen["dummy"] == (deal.variant.known_to("Carol"), 10)
    assert seen["Bob"] == (0, 13) and seen["Alice"] == (0, 13)
    x.play(x.board.legal_moves()[0])
    assert x.chooser == "Bob"                  # for the dummy
    seen = dict(zip(x.names, x.seen("Bob")))
    assert seen["dummy"] == (x.board.hands[x.names.index("dummy")], 0)
    assert seen["Bob"] == (deal.hands["Bob"], 0)
    assert seen["Carol"] == (0, 12) and seen["Alice"] == (0, 13)
    for player in deal.players:
        k = Knowledge.from_board(x.board, player)
        assert x.seen(player) == tuple((k.known(n), k.holds(n) - count(k.known(n)))
                                       for n in x.names)


def figures(advice):
    return [(c.cards, c.tricks.value, c.tricks.se, c.score.value) for c in advice.cards]


@pytest.mark.parametrize("stem,samples", [("worked-example", 12), ("mid-play", 12)])
def test_refined_figures_are_those_of_advise(stem, samples):
    """Solved layout by layout, the figures are advise's with the same
    settings: sampled at the opening lead, exact (924 layouts) in mid-play."""
    x = exploration(stem, single=single(view_samples=samples, seed=3))
    ref = x.single_dummy()
    updates = []
    x.refine(ref, lambda: False, updates.append)
    assert ref.done and updates and updates[-1] is ref.advice
    assert [u.samples for u in updates] == sorted({u.samples for u in updates})
    assert updates[0].samples == 1                       # the first figures at once
    want = advise(x.deal_now(), hindsight=False, settings=Settings(samples=samples, seed=3))
    assert ref.advice.method == want.method and ref.advice.samples == want.samples
    assert figures(ref.advice) == figures(want)
    assert ref.advice.method == ("exact" if stem == "mid-play" else "sampled")


def test_a_refinement_stopped_between_layouts_resumes_where_it_stopped():
    x = exploration("worked-example", single=single(view_samples=10))
    ref = x.single_dummy()
    seen = []

    def stop() -> bool:
        return ref.solved >= 4

    x.refine(ref, stop, seen.append)
    assert not ref.done and ref.advice.samples == 4
    assert x.single_dummy() is ref                       # kept for the point of the play
    x.refine(ref, lambda: False, seen.append)
    assert ref.done and ref.advice.samples == 10
    whole = exploration("worked-example", single=single(view_samples=10)).single_dummy()
    Exploration.refine(x, whole, lambda: False, lambda a: None)
    assert figures(whole.advice) == figures(ref.advice)


def test_refinements_are_kept_per_point_of_the_play_and_setting():
    x = exploration("mid-play", single=single())
    here = x.single_dummy()
    assert x.single_dummy() is here and x.single_dummy(7, 7) is not here
    x.play(x.board.legal_moves()[0])
    other = x.single_dummy()
    assert other is not here and other.player == x.chooser
    x.undo_card()
    assert x.single_dummy() is here
    x.toggle_breaking()
    assert x.single_dummy() is not here


def test_no_view_without_the_auctions_declarer():
    x = exploration("worked-example", declarer="Bob")
    assert "what-if" in x.view_error()
    with pytest.raises(AdviseError, match="what-if"):
        x.check_view()
    with pytest.raises(AdviseError):
        x.start_practice("Alice")
    y = Exploration(load_deal(HANDS / "freak-distribution.yaml"), "Bob", solver=session_solver())
    assert "complete auction" in y.view_error()
    assert exploration("worked-example").view_error() is None


def test_settings_out_of_range_are_refused():
    for bad in ({"practice_samples": -1}, {"practice_seconds": 0.0},
                {"practice_seconds": float("inf")}):
        with pytest.raises((AdviseError, SimulationError)):
            SingleDummy(**bad)       # the view's settings are checked as Settings


# ------------------------------------------------------------ practice
def test_the_computer_plays_advises_card_with_its_samples():
    """Bob practises on worked-example (Alice leads, Carol declares): the
    computer's figures are advise's with ``practice_samples`` samples (and
    as exact limit), and its card the lowest of the recommended group."""
    x = exploration("worked-example", single=single(practice_samples=6, seed=5))
    x.start_practice("Bob")
    assert x.computer_to_play and x.chooser == "Alice"
    played = []
    while x.computer_to_play:
        ref = x.computer_card()
        x.refine(ref, lambda: False, lambda a: None)
        want = advise(x.deal_now(), hindsight=False,
                      settings=Settings(samples=6, exact_limit=6, seed=5))
        assert figures(ref.advice) == figures(want)
        assert ref.card() == min(want.recommended.cards)
        played.append(ref.card())
        x.play(ref.card())
    assert x.chooser == "Bob" and len(played) == 2      # Alice's lead, the dummy's card


def test_a_computer_with_a_time_limit_plays_by_the_layouts_solved_by_then():
    x = exploration("worked-example", single=single(practice_samples=50, practice_seconds=1e-6))
    x.start_practice("Bob")
    ref = x.computer_card()
    x.refine(ref, lambda: False, lambda a: None)
    assert ref.done and ref.timed_out and ref.advice.samples == 1 and ref.seconds > 0
    assert ref.card() in ref.advice.recommended.cards


def test_take_back_returns_to_the_users_last_choice():
    x = exploration("worked-example", single=single())
    x.start_practice("Bob")
    assert not x.take_back() and not x.take_back(trick=True)
    lead, dummy = x.board.legal_moves()[0], None
    x.play(lead)
    dummy = x.board.legal_moves()[0]
    x.play(dummy)
    assert not x.take_back() and x.moves == (lead, dummy)   # Bob has not chosen yet
    bob = x.board.legal_moves()[0]
    x.play(bob)
    x.play(x.board.legal_moves()[0])                    # Carol: the trick complete
    x.play(x.board.legal_moves()[0])                    # the next lead
    assert x.take_back() and x.moves == (lead, dummy) and x.chooser == "Bob"
    assert x.redo[-1] == bob and len(x.redo) == 3
    # Carol declares: two choices of hers (her card and the dummy's) in one trick
    y = exploration("worked-example", single=single())
    y.start_practice("Carol")
    y.play(y.board.legal_moves()[0])                    # Alice leads
    y.play(y.board.legal_moves()[0])                    # Carol for the dummy
    y.play(y.board.legal_moves()[0])                    # Bob
    y.play(y.board.legal_moves()[0])                    # Carol: the trick complete
    before = y.moves
    assert y.take_back() and y.moves == before[:3]
    y.redo_card()
    assert y.take_back(trick=True) and y.moves == before[:1] and y.chooser == "Carol"
    y.stop_practice()
    assert y.practice is None and not y.computer_to_play


def test_no_choice_to_make_needs_no_layout():
    """mid-play: the dummy holds ♣8 ♣7 ♣5 (♣8 ♣7 equivalent), a choice; at
    the last trick every hand has one card, none."""
    x = exploration("mid-play")
    assert x.forced() is None
    for card in x.optimal_line()[:-4]:
        x.play(card)
    assert len(x.board.legal_moves()) == 1 and x.forced() == tuple(x.board.legal_moves())
    x.play(x.board.legal_moves()[0])
    for _ in range(3):
        x.play(x.board.legal_moves()[0])
    assert x.board.is_over and x.forced() is None and x.single_dummy() is None
