"""Exploring a deal double dummy: the state behind ``dummy-spades explore``.

:class:`Exploration` holds the deal, the board being explored (played from
the opening lead, or from the file's played cards), a redo list, one solver
and its answers per position: every legal card's value
(:func:`solver.analysis.card_analysis`), the hand's scores
(:func:`solver.review.scores_at`, as ``review`` scores a position) and an
optimal line. It has no screen: the explorer (``cli/explore/``) draws it,
and asks for answers from worker threads with a copy of the board, so the
screen can move on meanwhile.

Answers are kept per position, keyed by :meth:`Board.transposition_key
<solver.board.Board.transposition_key>` (the position and the tricks won),
and computed under one lock.
"""
from __future__ import annotations

import threading
from typing import Dict, Hashable, List, Optional, Tuple

from . import analysis
from .analysis import CardAnalysis
from .backend import make_solver
from .contract import Solver
from .board import Board
from .deal import Deal
from .review import Scores, scores_at
from .rules import Rules


class Exploration:
    """The board being explored and its history (no screen).

    ``declarer``: the explored declarer (default: the auction's; another
    one is a what-if, before any card is played, and has no scores).
    ``moves``: the cards played from the opening lead; ``redo``: cards taken
    back, the next one last. Playing the card at the top of ``redo`` keeps
    the rest of it; any other card clears it."""

    def __init__(self, deal: Deal, declarer: Optional[str] = None,
                 tt_mb: Optional[float] = None, solver: Optional[Solver] = None) -> None:
        self.deal = deal
        self.declarer = declarer or deal.declarer
        if self.declarer is None:
            raise analysis.AnalysisError(
                "no declarer: the auction is not complete", field="auction",
                expected=f"--declarer NAME (one of {', '.join(deal.players)})")
        self.board = analysis.analysis_board(deal, self.declarer) if deal.played \
            else deal.opening_board(self.declarer)
        self.redo: List[int] = []
        self.solver = solver if solver is not None else make_solver(tt_mb)
        self._lock = threading.Lock()
        self._values: Dict[Hashable, Optional[CardAnalysis]] = {}
        self._scores: Dict[Hashable, Optional[Scores]] = {}
        self._lines: Dict[Hashable, Tuple[int, ...]] = {}

    # ------------------------------------------------------------ reading
    @property
    def moves(self) -> Tuple[int, ...]:
        return self.board.moves

    @property
    def names(self) -> Tuple[str, str, str, str]:
        return self.board.names

    @property
    def breaking(self) -> bool:
        return self.board.rules.breaking

    @property
    def key(self) -> Hashable:
        """The current position's key for the answers kept."""
        return self.board.transposition_key()

    @property
    def scored(self) -> bool:
        """Scores are known: the auction's declarer is the one explored."""
        return self.declarer == self.deal.declarer

    def deal_now(self) -> Deal:
        """The deal with the current cards played and rule (what ``save`` writes)."""
        return self.board.to_deal()

    def known_values(self) -> Optional[CardAnalysis]:
        """The current position's card values if computed (never computes)."""
        return self._values.get(self.key)

    def known_scores(self) -> Optional[Scores]:
        """The current position's scores if computed (never computes)."""
        return self._scores.get(self.key)

    def pending(self) -> bool:
        """Answers still due at the current position: the card values
        (before the end of the hand) or the scores (when scored)."""
        key = self.key
        return (not self.board.is_over and key not in self._values) or \
            (self.scored and key not in self._scores)

    # ------------------------------------------------------------ moving
    def play(self, card: int) -> None:
        """Play ``card`` for the player to move (raises IllegalPlayError)."""
        self.board.push(card)
        if self.redo and self.redo[-1] == card:
            self.redo.pop()
        else:
            self.redo.clear()

    def undo_card(self) -> bool:
        if not self.board.moves:
            return False
        self.redo.append(self.board.pop())
        return True

    def undo_trick(self) -> bool:
        """Take back the trick in progress, or the last complete trick."""
        if not self.board.moves:
            return False
        self.undo_card()
        while self.board.trick:
            self.undo_card()
        return True

    def redo_card(self) -> bool:
        if not self.redo:
            return False
        self.board.push(self.redo.pop())
        return True

    def redo_trick(self) -> bool:
        """Replay cards until a trick is complete (or nothing is left to redo)."""
        if not self.redo:
            return False
        self.redo_card()
        while self.redo and self.board.trick:
            self.redo_card()
        return True

    def to_start(self) -> bool:
        if not self.board.moves:
            return False
        while self.board.moves:
            self.undo_card()
        return True

    def toggle_breaking(self) -> None:
        """Switch the spade-breaking rule; the cards played must stay legal
        (raises IllegalPlayError, leaving everything as it was)."""
        rules = self.board.rules
        self.board = self.board.with_rules(Rules(not rules.breaking, rules.scoring))
        self.redo.clear()

    # ------------------------------------------------------------ the engine
    def card_values(self, board: Optional[Board] = None) -> Optional[CardAnalysis]:
        """Every legal card's value at ``board`` (default: the current one;
        ``None`` when the hand is over)."""
        board = board or self.board
        key = board.transposition_key()
        with self._lock:
            if key not in self._values:
                self._values[key] = None if board.is_over else \
                    analysis.card_analysis(board, self.solver)
            return self._values[key]

    def scores(self, board: Optional[Board] = None) -> Optional[Scores]:
        """The scores at ``board`` (default: the current one; ``None`` when
        the explored declarer is not the auction's)."""
        board = board or self.board
        key = board.transposition_key()
        with self._lock:
            if key not in self._scores:
                self._scores[key] = scores_at(board, self.solver) if self.scored else None
            return self._scores[key]

    def optimal_line(self, board: Optional[Board] = None) -> Tuple[int, ...]:
        """One optimal play-out from ``board`` (default: the current one) to
        the end of the hand."""
        board = board or self.board
        key = board.transposition_key()
        with self._lock:
            if key not in self._lines:
                self._lines[key] = () if board.is_over else \
                    analysis.optimal_line(board, self.solver).cards
            return self._lines[key]


__all__ = ["Exploration"]
