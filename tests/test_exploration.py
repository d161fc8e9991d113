"""The explorer's state as a library object (solver/exploration.py), without
Textual: moving through the play, the redo list, the rule switch, the
answers kept per position, and saving."""
from __future__ import annotations

from pathlib import Path

import pytest

from dummy_spades.solver import analysis
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import parse_card
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.errors import IllegalPlayError
from dummy_spades.solver.exploration import Exploration
from dummy_spades.solver.review import scores_at

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
