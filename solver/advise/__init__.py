"""Single-dummy advice (``dummy-spades advise``): the card to play from
what the player who chooses it can see.

The player knows their own hand, the dummy (before the opening lead only
the cards they saw under the variant), the auction with its nils, every
card played and the voids the play has shown. The cards they have not seen
are dealt to the hidden hands in every way consistent with that
(:mod:`solver.simulation.layouts`), weighted by the earlier bids as
``bid`` weights them (:mod:`.conditioning`, on the simulation floor's
rejection control); each layout is solved double dummy for every legal
card (:mod:`.answers`), scored as ``solve`` scores a position
(:mod:`.outcome`), and the figures are averaged over the layouts, every one
of them when they are few (exact mode), else a seeded sample
(:mod:`.summary`, :mod:`.simulate`). docs/ADVISE.md has the method, the
assumptions and the JSON fields. Nothing here prints (``cli/advise.py``
does).
"""
from __future__ import annotations

from .answers import LayoutAnswers, group_values, solve_cards
from .conditioning import Draws, bid_chances, exact_layouts, layout_rng
from .lookahead import HONESTY as LOOKAHEAD_HONESTY
from .lookahead import (AUTO_LOOKAHEAD_TRICKS, Lookahead, LookaheadError, automatic_lookahead,
                        default_goal, lookahead_figures)
from .outcome import Outcome, Scorer
from .question import AdviseError, Bidder, Goal, Question, question, question_of
from .simulate import Solving, advise, advise_on, double_dummy, layout_work
from .summary import (CLOSE_SE, EXACT, HONESTY, SAMPLED, Advice, CardFigures, card_figures,
                      chooser_scores, within)

__all__ = [
    "LayoutAnswers", "group_values", "solve_cards", "Draws", "bid_chances", "exact_layouts",
    "layout_rng", "Outcome", "Scorer", "AdviseError", "Bidder", "Goal", "Question", "question",
    "question_of", "Solving", "layout_work", "advise", "advise_on", "double_dummy", "CLOSE_SE",
    "EXACT", "HONESTY", "SAMPLED", "Advice", "CardFigures", "card_figures", "chooser_scores",
    "within",
    "AUTO_LOOKAHEAD_TRICKS", "LOOKAHEAD_HONESTY", "Lookahead", "LookaheadError",
    "automatic_lookahead", "default_goal", "lookahead_figures",
]
