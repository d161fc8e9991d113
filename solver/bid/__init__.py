"""Bid soundness by double-dummy simulation (``dummy-spades bid``).

One real player, at their turn in the auction, knows their own hand, the
bids already made, the dummy cards they saw under the variant and the
running scores. The unseen cards are dealt many times consistently with
that, each layout is solved double dummy for every role the player can end
up in, and the counts become probabilities and expected hand scores for
each candidate bid. It prints nothing (``cli/bid.py`` does). The method,
one section a step, is docs/BID.md "Method"; what double-dummy simulation
assumes, docs/BID.md "Honesty statement".

The steps, one module each: :mod:`.knowledge` (what the player knows),
:mod:`.sampling` (layouts of the unseen cards, the draws solved),
:mod:`.model` and :mod:`.coefficients` (the bidding model), :mod:`.layout`
(solving one layout), :mod:`.candidates` (the bids to judge and the questions they need),
:mod:`.outcome` (a candidate's result in one layout), :mod:`.estimates` and
:mod:`.summary` (statistics and the recommendation), :mod:`.control` (the
control variates), :mod:`.simulate` (running it all, on an executor).
"""
from __future__ import annotations

from ..backend import make_solver  # the one solver factory (runs look it up in .simulate)
from ..position import NIL_LOST
from . import model
from .candidates import (BIDS, Candidate, check_candidate, default_candidates, file_bid,
                         parse_candidate, plan_for)
from .estimates import Estimate, effective_samples
from .knowledge import BidError, Knowledge, KnowledgeError
from .layout import (NOT_ASKED, NilOrder, Plan, SampleResult,
                     certain_trick, layout_board, mirror_declarers, nil_tricks, solve_layout)
from .outcome import (LATER_BID_MODEL, MODEL_LATER_BIDS, BidOutcome, declarer_for, declarer_odds,
                      modelled_bid, sample_outcome, side_tricks)
from .sampling import (Draw, LaterBidder, Sampler, SamplingReport, acceptance_threshold,
                       dummy_seen_by, sample_layout, sample_rng)
from .simulate import (DEFAULT_SAMPLES, DEFAULT_SEED, ActualResult, PlayerCheck, Run,
                       actual_result, analyse, check_all, check_precision, check_samples,
                       check_time_limit, checkpoints, run, run_samples)
from .summary import (HONESTY, MODEL_HONESTY, BidAnalysis, CandidateStats, Judgement, Layouts,
                      NilChance, NilResultStats, RoleStats, candidate_stats, judge, role_stats,
                      roles, solved, solved_in, summarise)

__all__ = [
    "model", "BIDS", "Candidate", "check_candidate", "default_candidates", "file_bid",
    "parse_candidate", "plan_for", "Estimate", "effective_samples", "BidError", "Knowledge", "KnowledgeError",
    "NIL_LOST", "NOT_ASKED", "NilOrder", "Plan", "SampleResult",
    "certain_trick", "layout_board", "mirror_declarers", "nil_tricks", "solve_layout", "LATER_BID_MODEL",
    "MODEL_LATER_BIDS", "BidOutcome", "declarer_for", "declarer_odds", "modelled_bid",
    "sample_outcome", "side_tricks", "Draw", "LaterBidder", "Sampler", "SamplingReport",
    "acceptance_threshold", "dummy_seen_by", "sample_layout", "sample_rng", "DEFAULT_SAMPLES",
    "DEFAULT_SEED", "ActualResult", "PlayerCheck", "Run", "actual_result", "analyse", "check_all",
    "check_precision", "check_samples", "check_time_limit", "checkpoints", "run", "run_samples",
    "HONESTY", "MODEL_HONESTY", "BidAnalysis", "CandidateStats", "Judgement", "Layouts",
    "NilChance", "NilResultStats", "RoleStats", "candidate_stats", "judge", "role_stats", "roles",
    "solved", "solved_in", "summarise", "make_solver",
]
