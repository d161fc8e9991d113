"""The figures of each card and the recommendation (docs/ADVISE.md
"Figures" and "The recommended card").

Every figure is a mean over the solved layouts, each weighing its weight
(:mod:`.conditioning`), with the standard error of :mod:`solver.simulation.estimates`
(weighted means, Kish's effective sample size). In exact mode the layouts
are all of them, so a figure is exact: its standard error is 0. The
difference of a card to the best card is paired: the mean, over the same
layouts, of the chooser's score after the card minus the score after the
best card, so that the layout-to-layout spread cancels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..simulation import DOUBLE_DUMMY_HONESTY, Estimate, SamplingReport
from .answers import LayoutAnswers
from .outcome import Outcome, Scorer
from .question import Question

EXACT, SAMPLED = "exact", "sampled"

HONESTY = (DOUBLE_DUMMY_HONESTY + " advise also assumes that the player will know the whole "
           "layout from the next card on (strategy fusion, the standard critique of this "
           "method: a card that needs a later guess is credited as if the guess were always "
           "right), that both sides then play the trick game double dummy (a side with a nil "
           "that counts first plays to keep it), and that the defenders cooperate as one side.")
#: the best cards are "close" when within this many standard errors
CLOSE_SE = 2.0


@dataclass(frozen=True)
class Lookahead:
    """The figures without hindsight. ``lookahead``: M asked (capped at
    ``covering``, the M that covers every card the side has left);
    ``completed``: the M the figures are of (1: the hindsight figures, when
    no deeper search finished); ``goal``: N, the side's whole-hand tricks;
    ``fusion_free[g]`` and ``hindsight[g]``: per card group
    (``question.groups`` order) the chance of the goal without and with
    hindsight; ``exact``: every consistent layout and an M that covers the
    hand; ``stopped_by``: None, ``time`` or ``nodes``; ``nodes``,
    ``leaves``, ``engine_nodes``: the search's work."""

    lookahead: int
    covering: int
    completed: int
    goal: int
    groups: Tuple[Tuple[int, ...], ...]
    fusion_free: Tuple[Estimate, ...]
    hindsight: Tuple[Estimate, ...]
    exact: bool
    stopped_by: Optional[str]
    nodes: int
    leaves: int
    engine_nodes: int

    def fusion_free_of(self, cards: Tuple[int, ...]) -> Estimate:
        """The figure without hindsight of the group ``cards``."""
        return self.fusion_free[self.groups.index(cards)]

    def hindsight_of(self, cards: Tuple[int, ...]) -> Estimate:
        """The double-dummy chance of the goal after a card of ``cards``."""
        return self.hindsight[self.groups.index(cards)]

    def pick(self, order: Sequence[Tuple[int, ...]]) -> int:
        """The index in ``order`` (groups, best first by the hindsight advice)
        of the best group without hindsight, ties to the earliest."""
        return min(range(len(order)), key=lambda i: (-self.fusion_free_of(order[i]).value, i))


@dataclass(frozen=True)
class CardFigures:
    """One group of equivalent legal cards.

    ``tricks``: the chooser's side's whole-hand total (tricks already won
    included); ``makes``: per goal (``question.goals`` order) the chance it
    makes; ``scores``: per real player (the deal's order) the expected
    change of their running total; ``score``: the chooser's; ``diff``:
    ``score`` minus the best card's, paired; ``tricks_diff``: the same for
    tricks; ``double_dummy``: the group's double-dummy total on the real
    layout (hindsight, never part of the advice), or None."""

    cards: Tuple[int, ...]
    tricks: Estimate
    makes: Tuple[Estimate, ...]
    scores: Tuple[Estimate, ...]
    score: Estimate
    diff: Estimate
    tricks_diff: Estimate
    double_dummy: Optional[int] = None


@dataclass(frozen=True)
class Advice:
    """Everything `advise` found (docs/ADVISE.md "JSON" names the fields)."""

    question: Question
    players: Tuple[str, str, str]
    method: str                     # exact or sampled
    consistent: int                 # consistent layouts in all
    layouts: int                    # distinct layouts the figures cover
    samples: int                    # layouts solved (sampled: draws solved, repeats counted)
    requested: int                  # samples asked for (exact: every layout)
    effective_samples: float
    seed: int
    stopped_by: str                 # samples, layouts, time, precision or draws
    sampling: SamplingReport
    cards: Tuple[CardFigures, ...]  # best first
    queries: int
    nodes: int
    target: Optional[float] = None  # --precision
    lookahead: Optional[Lookahead] = None  # the figures without hindsight (αμ)

    @property
    def recommended(self) -> CardFigures:
        """The best card: by the expected score (:attr:`hindsight_pick`), or
        with a lookahead the best chance of the goal without hindsight, ties
        in that order."""
        if self.lookahead is None:
            return self.cards[0]
        return self.cards[self.lookahead.pick([c.cards for c in self.cards])]

    @property
    def hindsight_pick(self) -> CardFigures:
        """The card with the best expected score (double dummy in each layout)."""
        return self.cards[0]

    @property
    def close(self) -> Tuple[CardFigures, ...]:
        """The other cards within :data:`CLOSE_SE` standard errors of the
        hindsight pick (exact: those with the same expected score and tricks)."""
        return tuple(c for c in self.cards[1:] if within(c))

    @property
    def stopped_early(self) -> bool:
        return self.samples < self.requested

    def precision(self) -> float:
        """The largest standard error of a paired difference to the best card
        (points): what ``--precision`` compares with its target."""
        worst = 0.0
        for c in self.cards[1:]:
            if math.isnan(c.diff.se):
                return math.inf
            worst = max(worst, c.diff.se)
        return worst


def within(card: CardFigures) -> bool:
    """Is ``card`` within :data:`CLOSE_SE` standard errors of the best card
    (in score, and when the scores are equal, in tricks)?"""
    d, t = card.diff, card.tricks_diff
    if d.se == 0:
        return d.value == 0 and (t.value == 0 if t.se == 0 else t.value + CLOSE_SE * t.se >= 0)
    return d.value + CLOSE_SE * d.se >= 0


def group_outcomes(scorer: Scorer, answers: Sequence[LayoutAnswers], group: int) -> List[Outcome]:
    """The outcome after a card of ``question.groups[group]`` in each layout of ``answers``."""
    return [scorer.outcome(scorer.declarer_total(a.tricks[group]),
                           tuple(n[group] for n in a.nils)) for a in answers]


def chooser_scores(scorer: Scorer, answers: Sequence[LayoutAnswers],
                   group: int) -> List[float]:
    """The chooser's score after a card of ``question.groups[group]`` in each
    layout of ``answers``."""
    me = scorer.players.index(scorer.question.player)
    return [float(o.scores[me]) for o in group_outcomes(scorer, answers, group)]


def card_figures(question: Question, scorer: Scorer, answers: Sequence[LayoutAnswers],
                 weights: Optional[Sequence[float]], exact: bool,
                 double_dummy: Optional[Sequence[int]] = None) -> Tuple[CardFigures, ...]:
    """The figures of every card group over ``answers`` (with ``weights``;
    None: all equal), best first: by the chooser's expected score, then by
    the side's expected tricks. ``double_dummy``: each group's total on the
    real layout (``question.groups`` order), shown beside."""
    q = question
    won = scorer.side_total(q.side)
    me = scorer.players.index(q.player)
    tricks: List[List[float]] = []
    scores: List[List[Tuple[int, ...]]] = []
    made: List[List[Tuple[bool, ...]]] = []
    for g in range(len(q.groups)):
        outcomes = group_outcomes(scorer, answers, g)
        tricks.append([float(won + a.tricks[g]) for a in answers])
        scores.append([o.scores for o in outcomes])
        made.append([o.made for o in outcomes])
    mine = [[float(s[me]) for s in scores[g]] for g in range(len(q.groups))]

    def mean(values: Sequence[float], chance: bool = False) -> Estimate:
        return Estimate.over(values, weights, exact, chance)

    key = [(mean(mine[g]).value, mean(tricks[g]).value) for g in range(len(q.groups))]
    order = sorted(range(len(q.groups)), key=lambda g: (-key[g][0], -key[g][1], g))
    best = order[0]
    return tuple(CardFigures(
        q.groups[g], mean(tricks[g]),
        tuple(mean([float(m[j]) for m in made[g]], True) for j in range(len(q.goals))),
        tuple(mean([float(s[p]) for s in scores[g]]) for p in range(len(scorer.players))),
        mean(mine[g]), Estimate.paired(mine[g], mine[best], weights, exact),
        Estimate.paired(tricks[g], tricks[best], weights, exact),
        None if double_dummy is None else double_dummy[g]) for g in order)


__all__ = ["Advice", "Lookahead", "CLOSE_SE", "HONESTY", "CardFigures", "EXACT", "SAMPLED",
           "card_figures", "chooser_scores", "group_outcomes", "within"]
