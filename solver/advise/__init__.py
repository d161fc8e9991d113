"""Single-dummy advice (``dummy-spades advise``): the card to play from
what the player who chooses it can see.

The player knows their own hand, the dummy (before the opening lead only
the cards they saw under the variant), the auction with its nils, every
card played and the voids the play has shown. The cards they have not seen
are dealt to the hidden hands in every way consistent with that
(:mod:`.layouts`), weighted by the earlier bids as ``bid`` weights them
(:mod:`.conditioning`); each layout is solved double dummy for every legal
card (:mod:`.answers`), scored as ``solve`` scores a position
(:mod:`.outcome`), and the figures are averaged over the layouts, every one
of them when they are few (exact mode), else a seeded sample
(:mod:`.summary`, :mod:`.simulate`). docs/ADVISE.md has the method, the
assumptions and the JSON fields. Nothing here prints (``cli/advise.py``
does).
"""
from __future__ import annotations

from .answers import LayoutAnswers, group_values, solve_layout
from .conditioning import Draws, SamplingReport, Weighted, bid_chances, exact_layouts, layout_rng
from .layouts import Layout, LayoutError, LayoutSpace
from .lookahead import HONESTY as LOOKAHEAD_HONESTY
from .lookahead import (AUTO_LOOKAHEAD_TRICKS, Lookahead, LookaheadError, automatic_lookahead,
                        default_goal)
from .outcome import Outcome, Scorer
from .question import AdviseError, Bidder, Goal, Question, question, question_of
from .simulate import (DEFAULT_EXACT_LIMIT, DEFAULT_SAMPLES, DEFAULT_SEED,
                       EXACT_LIMIT_MAX, Solving, advise, advise_on, check_exact_limit,
                       check_precision, check_samples, double_dummy, layout_work)
from .summary import (CLOSE_SE, EXACT, HONESTY, SAMPLED, Advice, CardFigures, card_figures,
                      estimate, within)

__all__ = [
    "LayoutAnswers", "group_values", "solve_layout", "Draws", "SamplingReport", "Weighted",
    "bid_chances", "exact_layouts", "layout_rng", "Layout", "LayoutError", "LayoutSpace",
    "Outcome", "Scorer", "AdviseError", "Bidder", "Goal", "Question", "question", "question_of",
    "DEFAULT_EXACT_LIMIT", "DEFAULT_SAMPLES", "DEFAULT_SEED", "EXACT_LIMIT_MAX",
    "Solving", "layout_work", "advise", "advise_on", "check_exact_limit", "check_precision",
    "check_samples", "double_dummy", "CLOSE_SE", "EXACT", "HONESTY", "SAMPLED", "Advice",
    "CardFigures", "card_figures", "estimate", "within", "AUTO_LOOKAHEAD_TRICKS",
    "LOOKAHEAD_HONESTY", "Lookahead", "LookaheadError", "automatic_lookahead", "default_goal",
]
