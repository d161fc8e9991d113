"""Bid soundness by double-dummy simulation (``dummy-spades bid``).

One real player, at their turn in the auction, knows their own hand, the bids
already made (with their nil designations), the seats and the dealer, the
dummy cards they saw under the auction variant (three/four-peeky: their own
peeks; flip-N: every card turned face up) and, if given, the running scores.
This module deals the unseen cards at random many times, consistently with
that knowledge, solves every layout double-dummy for every role the player
can end up in, and turns the counts into probabilities and expected hand
scores for each candidate bid. It prints nothing (``cli/bid.py`` does).

Method (docs/BID.md has the full statement):

* **Knowledge** (:class:`Knowledge`): own hand fixed; the dummy cards the
  player knows fixed in the dummy; the other cards dealt at random to fill
  the dummy and the two other hands to 13 cards (:func:`sample_layout`).
* **Sampling** (:class:`sampling.Sampler`): ``conditioned`` (the default)
  weights each layout by the bidding model's chance (:mod:`.model`) of the
  bids the earlier bidders made with the hands it gives them, by rejection
  before any solve plus importance weights; ``uniform`` solves every layout
  alike (the bids made do not shape the other hands).
* **Seeded**: draw ``i`` uses its own generators seeded from ``(seed, i)``
  and the accepted draws are chosen in order in one process, so the
  samples, and every number derived from them, are the same whatever the
  number of worker processes.
* **Roles** (:func:`solve_layout`): for each real player who can still end
  up declaring (:attr:`Knowledge.declarers`: the player themself with the
  dummy, or another player, the player then defending beside the third),
  one full double-dummy solve of the
  declarer side's tricks, seats as :func:`solver.seating.play_seating`, the
  first bidder on lead. Nil safety uses the engine's nil-aware query
  (``nil_seat``): the nil hand's side plays to keep it trickless, the other
  side to break it; ``-1`` means it cannot be kept. A query is skipped when
  its answer is implied: a hand whose spades cannot all be covered by higher
  spades (the ace, or K-Q, ...) surely wins a trick (:func:`certain_trick`).
* **Who declares**: the earlier bids are known. Under conditioned sampling
  each later bidder bids by the bidding model from their own view
  (:func:`declarer_odds`: every declarer with its chance); under uniform
  sampling each bids the tricks their own side would take as declarer in
  the layout, double-dummy (:func:`declarer_for`). The highest bid
  declares; ties go to the earlier bidder. Every figure is also given per
  role ("if X declares"), which needs no model of the later bids.
* **Bidding variants** (docs/RULES.md "Mirror Spades (dummy version)",
  "Suicide Spades (dummy version)"): the candidates are the legal bids
  (:func:`solver.auction.legal_bids`). Under mirror a bid is the bidder's
  spade count, so the earlier bidders' counts shape the layouts and the later
  bids are their counts in the layout (no model needed); under suicide a
  later bidder makes the legal bid nearest their double-dummy tricks
  (:func:`modelled_bid`).
* **Scores** (:func:`sample_outcome`): through :func:`solver.scoring.score_hand`
  (contract, overtricks, bags, nil bets) and, when the running bags are known,
  :func:`solver.scoring.apply_bags` (bag penalty). With nils that count, the
  player's side chooses, per layout, the better of: keeping one nil hand
  trickless (the nil query's trick count), keeping all of them (only asked for
  explicitly judged multi-nil bids) or ignoring them (full trick count, nils
  counted as lost). This is a lower bound on what that side can secure.

Double-dummy simulation assumes perfect information (every player sees every
card): the declarer never misguesses, and the defence always finds the best
opening lead. Bridge data say the two nearly cancel on average; none exists
for Spades (docs/BID.md "Honesty statement"). Conditioned sampling also
assumes the players bid as the model does.

The steps, one module each: :mod:`.knowledge` (what the player knows),
:mod:`.sampling` (layouts of the unseen cards, the draws solved),
:mod:`.model` and :mod:`.coefficients` (the bidding model), :mod:`.layout`
(solving one layout), :mod:`.candidates` (the bids to judge and the questions they need),
:mod:`.outcome` (a candidate's result in one layout), :mod:`.estimates` and
:mod:`.summary` (statistics and the recommendation), :mod:`.simulate`
(running it all, in worker processes).
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
