"""What a layout's answers mean for the scores (docs/ADVISE.md "Scores").

After a card, the declarer side's whole-hand total and the outcome of each
nil that counts (kept or not, and the nil side's total while keeping it)
are scored exactly as ``solve`` scores a position
(:func:`solver.analysis.scoring_range`, :meth:`solver.deal.HandResult.build`):
a side with a nil that counts plays first to keep it, its opponents first
to break it; with kept nils on both sides the scores are those of the low
end of the range (``solve``'s ``players``). A player's score is the change
of their running total: the hand's points, less any bag penalty they
trigger when the file has running scores.

:class:`Scorer` scores through the player's knowledge
(:meth:`solver.knowledge.Knowledge.score`: the auction, the rules, the
running scores); it keeps each distinct outcome it has scored.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple

from ..analysis import NilOutcome, scoring_range
from ..scoring import TRICKS_PER_HAND
from ..seating import DECLARER_SIDE, side_of
from .question import Question


@dataclass(frozen=True)
class Outcome:
    """The scores after one card in one layout: ``scores`` per real player
    (``question`` players order: the deal's), ``made`` per goal
    (``question.goals`` order)."""

    scores: Tuple[int, ...]
    made: Tuple[bool, ...]


class Scorer:
    """Scores outcomes of ``question``'s position."""

    def __init__(self, question: Question) -> None:
        self.question = question
        self.players = question.knowledge.players
        self._known: Dict[Tuple[int, Tuple[int, ...]], Outcome] = {}
        self._nil_seats = question.nil_seats()

    def side_total(self, side: int) -> int:
        """Completed tricks won by ``side``."""
        return sum(w for s, w in enumerate(self.question.won) if side >> s & 1)

    def outcome(self, declarer_total: int, nils: Tuple[int, ...]) -> Outcome:
        """The outcome when the declarer side takes ``declarer_total`` tricks
        in all (plain double dummy) and ``nils[j]`` is the nil-aware answer
        (from the trick in progress on) of ``question.nil_seats()[j]``."""
        key = (declarer_total, nils)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self._score(declarer_total, nils)
        return known

    def _score(self, declarer_total: int, nils: Tuple[int, ...]) -> Outcome:
        q = self.question
        answers = dict(zip(self._nil_seats, nils))
        outcomes = []
        for bet in q.nils:
            seat = q.names.index(bet.hand)
            side = side_of(seat)
            lost = q.won[seat] > 0
            value = -1 if lost else answers[seat]
            kept = value >= 0
            outcomes.append(NilOutcome(bet.bidder, bet.hand, side, kept,
                                       self.side_total(side) + value if kept else -1, lost, 0))
        low, _, _ = scoring_range(declarer_total, outcomes)
        result = q.knowledge.score(low, {n.hand: n.scoring_tricks for n in outcomes})
        if result.ledger is not None:
            scores = tuple(e.after.points - e.before.points for e in result.ledger)
        else:
            scores = tuple(s.points for s in result.scores)
        made = []
        for goal in q.goals:
            if goal.kind == "nil":
                score = result.score_of(goal.player)
                made.append(any(n.success for n in score.nils if n.hand == goal.hand))
            else:
                made.append(result.score_of(goal.player).made)
        return Outcome(scores, tuple(made))

    def declarer_total(self, side_tricks: int) -> int:
        """The declarer side's total when the chooser's side takes
        ``side_tricks`` from the trick in progress on."""
        side = self.question.side
        total = self.side_total(side) + side_tricks
        return total if side == DECLARER_SIDE else TRICKS_PER_HAND - total


__all__ = ["Outcome", "Scorer"]
