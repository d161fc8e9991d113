"""Review of a played hand (``dummy-spades review``, docs/REVIEW.md): every
card played judged double dummy (:mod:`.double_dummy`), and with
``--single-dummy`` each card that had a choice judged also from what its
chooser could see (:mod:`.single_dummy`, standing on ``advise``).

The double-dummy review is what this package exports; the single-dummy
review is imported as :mod:`solver.review.single_dummy`.
"""
from __future__ import annotations

from .double_dummy import (CardJudgement, CutThroatNote, HandReview, Mistake, ReviewError, Scores,
                           cut_throat_note, judge_cards, review, scores_at)

__all__ = [
    "CardJudgement", "CutThroatNote", "HandReview", "Mistake", "ReviewError", "Scores",
    "cut_throat_note", "judge_cards", "review", "scores_at",
]
