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

A player's view (docs/EXPLORE.md "The player's view"): what a real player
sees of each hand at the current point (:meth:`Exploration.seen`, from
:meth:`Knowledge.from_board <solver.knowledge.Knowledge.from_board>`), and
the single-dummy figures of the card to choose from that view
(:meth:`Exploration.single_dummy`): a :class:`Refinement`, the layouts of
``advise`` (:class:`solver.advise.Solving`) solved a few at a time with a
solver of its own, so that a screen shows the figures as the samples
arrive and stops between layouts when the position changes
(:meth:`Exploration.refine`). Refinements are kept per point of the play
(the cards played, which also give the voids shown) and per setting.

Practice (docs/EXPLORE.md "Practice"): the user plays one real player's
cards (with the dummy's when declaring) and the computer the others, each
the card ``advise`` recommends from that player's view with
:attr:`SingleDummy.practice_samples` samples (:meth:`Exploration.computer_card`);
:meth:`Exploration.take_back` undoes the play back to the user's last choice.
"""
from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Dict, Hashable, Iterator, List, Optional, Tuple

from . import analysis
from .advise import Advice, AdviseError, Question, Solving, question, solve_cards
from .analysis import CardAnalysis
from .backend import make_solver
from .contract import Solver
from .board import Board
from .cards import count
from .deal import Deal
from .knowledge import Knowledge
from .limits import LAYOUT_TT_MB
from .position import equivalent_groups
from .review import Scores, scores_at
from .rules import Rules
from .seating import controller
from .simulation import Layout, Settings

#: the most layouts the player's view solves at one point (sampled; exact
#: mode solves every layout, up to ``exact_limit``): docs/EXPLORE.md
VIEW_SAMPLES = 500
#: the samples (and the exact limit) of a computer player's card in practice
PRACTICE_SAMPLES = 50
#: the most seconds of solving for a computer player's card in practice
#: (they bind in hands with a nil that counts: docs/EXPLORE.md "Practice")
PRACTICE_SECONDS = 5.0


@dataclass(frozen=True)
class SingleDummy:
    """How the explorer samples single-dummy figures: ``view``, the settings
    of the player's view (its samples, seed, sampling method, exact limit,
    as for ``advise``); ``practice_samples`` for each card of a computer
    player in practice (exact when there are at most that many layouts),
    ``practice_seconds``: a computer player stops sampling after that many
    seconds of solving and plays by the layouts solved by then (its card
    then depends on the machine's speed; ``None``: no limit); ``tt_mb``: the
    table of the solver of the layouts."""

    view: Settings = Settings(samples=VIEW_SAMPLES)
    practice_samples: int = PRACTICE_SAMPLES
    practice_seconds: Optional[float] = PRACTICE_SECONDS
    tt_mb: float = LAYOUT_TT_MB

    def __post_init__(self) -> None:
        self.settings(self.practice_samples, self.practice_samples)     # checked as samples
        if self.practice_seconds is not None and not 0 < self.practice_seconds < math.inf:
            raise AdviseError(f"{self.practice_seconds!r} seconds", field="practice_seconds",
                              expected="a positive number of seconds")

    def settings(self, samples: int, exact_limit: int,
                 time_limit: Optional[float] = None) -> Settings:
        """The view's settings with these samples, exact limit and
        ``time_limit`` (seconds of solving)."""
        return replace(self.view, samples=samples, exact_limit=exact_limit, time_limit=time_limit)


class Refinement:
    """Single-dummy figures at one point of the play, from the view of the
    player who chooses the next card, refined layout by layout: ``advise``'s
    layouts (:class:`~solver.advise.Solving`: the same layouts, weights and
    figures as ``advise`` with these settings) solved a few at a time.

    ``advice``: the figures of the layouts solved so far (``None`` before
    the first); ``done``: every layout asked for is solved, or the
    settings' ``time_limit`` in seconds of solving is spent (``timed_out``)."""

    def __init__(self, question: Question, settings: Settings) -> None:
        self.question = question
        self.settings = settings
        self.time_limit = settings.time_limit
        #: seconds spent solving layouts so far
        self.seconds = 0.0
        self.timed_out = False
        self._solving: Optional[Solving] = None
        self._items: Optional[Iterator[Tuple[int, Layout]]] = None
        self.advice: Optional[Advice] = None
        self.done = False
        #: the seconds the last figures took to compute from the layouts' answers
        self.summing = 0.0

    @property
    def player(self) -> str:
        return self.question.player

    @property
    def solved(self) -> int:
        """The layouts solved so far."""
        return 0 if self._solving is None else len(self._solving.answers)

    def step(self, solver: Solver, seconds: float,
             stop: Callable[[], bool] = lambda: False) -> int:
        """Solve layouts for about ``seconds`` (at least one, unless
        ``stop()`` says so first; none once done), then refresh ``advice``
        (the figures of every layout solved so far); the layouts solved."""
        if self._solving is None:
            self._solving = Solving(self.question, self.settings)
            self._items = self._solving.items()
        assert self._items is not None
        started = time.monotonic()
        deadline = started + seconds
        solved = 0
        while not self.done and not stop():
            item = next(self._items, None)
            if item is None:
                self.done = True
                break
            self._solving.add(solve_cards(solver, self.question, item))
            solved += 1
            now = time.monotonic()
            if self.time_limit is not None and \
                    self.seconds + (now - started) >= self.time_limit:
                self.done = self.timed_out = True
            if now >= deadline:
                break
        self.seconds += time.monotonic() - started
        if solved:
            started = time.monotonic()
            self.advice = self._solving.advice()
            self.summing = time.monotonic() - started
        return solved

    def card(self) -> int:
        """The card to play: the lowest of the recommended group (its cards
        are worth the same); the figures must have at least one layout."""
        if self.advice is None:
            raise AdviseError("no layout solved yet", field="samples")
        return min(self.advice.recommended.cards)


class Exploration:
    """The board being explored and its history (no screen).

    ``declarer``: the explored declarer (default: the auction's; another
    one is a what-if, before any card is played, and has no scores).
    ``single``: the settings of the single-dummy figures (the player's view,
    practice); ``layout_solver``: the solver of their layouts (default: one
    made when first needed, apart from ``solver``).
    ``moves``: the cards played from the opening lead; ``redo``: cards taken
    back, the next one last. Playing the card at the top of ``redo`` keeps
    the rest of it; any other card clears it."""

    def __init__(self, deal: Deal, declarer: Optional[str] = None,
                 tt_mb: Optional[float] = None, solver: Optional[Solver] = None,
                 single: Optional[SingleDummy] = None,
                 layout_solver: Optional[Solver] = None) -> None:
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
        self.single = single or SingleDummy()
        self._layout_solver = layout_solver
        self._layout_lock = threading.Lock()
        self._refinements: Dict[Tuple[Hashable, ...], Refinement] = {}
        #: the real player the user plays in practice (None: no practice)
        self.practice: Optional[str] = None

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
        return self.deal.with_play(self.board)

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

    # ------------------------------------------------------------ a player's view
    def view_error(self) -> Optional[str]:
        """Why no player's view can be taken of this exploration (``None``:
        it can): it needs the auction's declarer and a complete auction."""
        deal = self.deal
        if deal.auction is None or deal.declarer is None:
            return "a player's view needs the deal's complete auction"
        if not self.scored:
            return (f"a player's view needs the auction's declarer ({deal.declarer}), "
                    f"not a what-if one")
        return None

    def check_view(self) -> None:
        """Raise :class:`~solver.advise.AdviseError` when no player's view can
        be taken (:meth:`view_error` says why)."""
        error = self.view_error()
        if error is not None:
            raise AdviseError(error, field="auction",
                              expected=f"a complete auction with {self.declarer} declaring")

    def knowledge(self, player: str) -> Knowledge:
        """What ``player`` knows at the current point (raises KnowledgeError
        when no player's view can be taken: :meth:`view_error`)."""
        return Knowledge.from_board(self.board, player)

    @property
    def chooser(self) -> Optional[str]:
        """The real player who chooses the next card (the declarer for the
        dummy); ``None`` when the hand is over."""
        seat = self.board.to_move
        return None if seat is None else self.names[controller(seat)]

    def seen(self, player: str) -> Tuple[Tuple[int, int], ...]:
        """What ``player`` sees of each hand now, by play seat: the cards
        they know to be in it, and how many more it holds unseen."""
        k = self.knowledge(player)
        return tuple((k.known(name), k.holds(name) - count(k.known(name)))
                     for name in self.names)

    def forced(self) -> Optional[Tuple[int, ...]]:
        """The legal cards when there is no choice to make: one legal card,
        or several that are all worth the same (one group of equivalent
        cards, :func:`solver.position.equivalent_groups`); ``None`` when
        there is a choice (or the hand is over). No layout need be solved."""
        if self.board.is_over:
            return None
        groups = equivalent_groups(self.board.position)
        return groups[0] if len(groups) == 1 else None

    def single_dummy(self, samples: Optional[int] = None, exact_limit: Optional[int] = None,
                     time_limit: Optional[float] = None) -> Optional[Refinement]:
        """The single-dummy figures of the card to choose now, from the
        chooser's view (``None`` when the hand is over), with ``samples``
        (default: the view's), ``exact_limit`` (default: the settings') and
        ``time_limit`` (seconds of solving; default none); kept per point of
        the play, so asking again continues them."""
        chooser = self.chooser
        if chooser is None:
            return None
        samples = samples or self.single.view.samples
        limit = self.single.view.exact_limit if exact_limit is None else exact_limit
        key = (self.moves, self.breaking, samples, limit, time_limit)
        found = self._refinements.get(key)
        if found is None:
            q = question(self.knowledge(chooser))
            found = self._refinements[key] = Refinement(
                q, self.single.settings(samples, limit, time_limit))
        return found

    def refine(self, refinement: Refinement, stop: Callable[[], bool],
               update: Callable[[Advice], None], seconds: float = 0.2) -> None:
        """Solve ``refinement``'s layouts until it is done or ``stop()``,
        checked between layouts; ``update(advice)`` about every ``seconds``.
        One refinement at a time (the layouts share one solver): a call
        waits for another to stop."""
        with self._layout_lock:
            if self._layout_solver is None:
                self._layout_solver = make_solver(self.single.tt_mb)
            interval = 0.0                 # the first figures at once
            while not refinement.done and not stop():
                if refinement.step(self._layout_solver, interval, stop) and not stop():
                    assert refinement.advice is not None
                    update(refinement.advice)
                # the figures over many layouts take a while to sum: keep them under a tenth
                interval = max(seconds, 10 * refinement.summing)

    # ------------------------------------------------------------ practice
    def start_practice(self, player: str) -> None:
        """The user plays ``player`` (a real player; the declarer plays the
        dummy too), the computer the others (raises AdviseError when no
        player's view can be taken, or for an unknown player)."""
        self.check_view()
        if player not in self.deal.players:
            raise AdviseError(f"unknown player {player!r}", field="player",
                              expected=f"one of {', '.join(self.deal.players)}")
        self.practice = player

    def stop_practice(self) -> None:
        self.practice = None

    @property
    def computer_to_play(self) -> bool:
        """In practice, the computer chooses the next card."""
        chooser = self.chooser
        return self.practice is not None and chooser is not None and chooser != self.practice

    def computer_card(self) -> Refinement:
        """The figures the computer plays the next card by (practice, the
        computer to play, a choice to make: :meth:`forced` is ``None``):
        ``practice_samples`` samples, exact when there are at most as many
        layouts, and ``practice_seconds`` of solving at most; its
        :meth:`Refinement.card` once done. With no choice to
        make, the computer plays the lowest of the :meth:`forced` cards."""
        n = self.single.practice_samples
        found = self.single_dummy(n, n, self.single.practice_seconds)
        assert found is not None and self.computer_to_play
        return found

    def take_back(self, trick: bool = False) -> bool:
        """Practice: undo the play back to the user's last choice (that card
        included), so that the user chooses again; with ``trick``, back to
        the user's first choice in the trick of that card. False, changing
        nothing, when the user has chosen no card yet."""
        if not self._take_back():
            return False
        if trick:
            number = len(self.board.tricks)
            while True:
                n = self._take_back()
                if n and len(self.board.tricks) == number:
                    continue
                for _ in range(n):        # a choice of an earlier trick: not that one
                    self.redo_card()
                break
        return True

    def _take_back(self) -> int:
        """Undo back to the user's last choice; the cards undone (0: none, nothing changed)."""
        user = self.practice
        assert user is not None
        taken = 0
        while self.undo_card():
            taken += 1
            if self.chooser == user:
                return taken
        for _ in range(taken):
            self.redo_card()
        return 0

__all__ = ["Exploration", "PRACTICE_SAMPLES", "PRACTICE_SECONDS", "Refinement", "SingleDummy",
           "VIEW_SAMPLES"]
