"""Bid soundness by double-dummy simulation (``dummy-spades bid``).

One real player, at their turn in the auction, knows their own hand, the
bids already made, the dummy cards they saw under the variant and the
running scores. The unseen cards are dealt many times consistently with
that, each layout is solved double dummy for every role the player can end
up in, and the counts become probabilities and expected hand scores for
each candidate bid. It prints nothing (``cli/bid.py`` does). The method,
one section a step, is docs/BID.md "Method"; what double-dummy simulation
assumes, docs/BID.md "Honesty statement".

It stands on the simulation floor (:mod:`solver.simulation`: the settings,
the draws weighted by the earlier bids with the bidding model, the
estimates, the stopping rules). Its own steps, one module each:
:mod:`.knowledge` (its error; what the player knows is
:class:`solver.knowledge.Knowledge`), :mod:`.sampling` (layouts of the
unseen cards, the draws solved), :mod:`.layout` (solving one layout),
:mod:`.candidates` (the bids to judge and the questions they need),
:mod:`.outcome` (a candidate's result in one layout), :mod:`.summary`
(statistics and the recommendation), :mod:`.control` (the control
variates), :mod:`.simulate` (running it all, on an executor).
"""
from __future__ import annotations

from ..backend import make_solver  # the one solver factory (runs look it up in .simulate)
from ..position import NIL_LOST
from .candidates import (BIDS, Candidate, check_candidate, default_candidates, file_bid,
                         parse_candidate, plan_for)
from .knowledge import BidError, Knowledge, KnowledgeError
from .layout import (NOT_ASKED, NilOrder, Plan, SampleResult,
                     layout_board, mirror_declarers, nil_tricks, solve_layout)
from .outcome import (LATER_BID_MODEL, MODEL_LATER_BIDS, BidOutcome, declarer_for, declarer_odds,
                      modelled_bid, sample_outcome, side_tricks)
from .sampling import Draw, LaterBidder, Sampler, dummy_seen_by, sample_layout, sample_rng
from .simulate import (ActualResult, PlayerCheck, Run, actual_result, analyse, check_all, run,
                       run_samples)
from .summary import (HONESTY, MODEL_HONESTY, BidAnalysis, CandidateStats, Judgement, Layouts,
                      NilChance, NilResultStats, RoleStats, candidate_stats, judge, role_stats,
                      roles, solved, solved_in, summarise)

__all__ = [
    "BIDS", "Candidate", "check_candidate", "default_candidates", "file_bid",
    "parse_candidate", "plan_for", "BidError", "Knowledge", "KnowledgeError",
    "NIL_LOST", "NOT_ASKED", "NilOrder", "Plan", "SampleResult",
    "layout_board", "mirror_declarers", "nil_tricks", "solve_layout", "LATER_BID_MODEL",
    "MODEL_LATER_BIDS", "BidOutcome", "declarer_for", "declarer_odds", "modelled_bid",
    "sample_outcome", "side_tricks", "Draw", "LaterBidder", "Sampler",
    "dummy_seen_by", "sample_layout", "sample_rng", "ActualResult", "PlayerCheck", "Run",
    "actual_result", "analyse", "check_all", "run", "run_samples",
    "HONESTY", "MODEL_HONESTY", "BidAnalysis", "CandidateStats", "Judgement", "Layouts",
    "NilChance", "NilResultStats", "RoleStats", "candidate_stats", "judge", "role_stats", "roles",
    "solved", "solved_in", "summarise", "make_solver",
]
