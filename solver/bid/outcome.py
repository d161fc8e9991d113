"""The player's result in one layout for one candidate bid: who declares,
the side's tricks, nils kept, hand score.

Who declares depends on the bids after the player's. Two models of them:

* :func:`declarer_for` (uniform sampling): each later bidder bids the tricks
  their own side would take as declarer in the layout, double-dummy, so
  one declarer per layout;
* :func:`declarer_odds` (conditioned sampling): each later bidder bids from
  their own view, by the bidding model (:mod:`.model`), so each possible
  declarer has a chance, summed exactly over the model's bids.

Either way the highest bid declares, ties to the earlier bidder
(:func:`auction.auction_winner`).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..auction import (MIRROR, STANDARD, SUICIDE, Auction, Bid, auction_winner, legal_bids,
                       nil_counts, spade_count)
from ..scoring import TRICKS_PER_HAND, NilBet, ScoringRules, Standing, apply_bags, score_hand
from ..simulation import model
from .candidates import Candidate
from .knowledge import BidError, Knowledge
from .layout import Plan, SampleResult
from .sampling import LaterBidder

#: who declares, with what chance: ``((declarer, chance), ...)`` in seat order
Odds = Tuple[Tuple[str, float], ...]


#: How the later bidders' bids are modelled, by bidding rules (:func:`declarer_for`).
LATER_BID_MODEL = {
    STANDARD: "each later bidder bids their own side's double-dummy tricks as declarer in the "
              "layout; ties go to the earlier bidder",
    MIRROR: "each later bidder bids their spade count in the layout (the mirror rule: no model "
            "needed); ties go to the earlier bidder",
    SUICIDE: "each later bidder makes the legal suicide bid nearest their own side's "
             "double-dummy tricks as declarer in the layout (nil counts as 0; the lower bid on a "
             "tie); ties go to the earlier bidder",
}


#: How the later bidders' bids are modelled under conditioned sampling (:func:`declarer_odds`).
MODEL_LATER_BIDS = ("each later bidder bids by the bidding model from their own hand, the dummy "
                    "cards they saw and the bids before them (the chance of each bid summed "
                    "exactly); ties go to the earlier bidder")


def declarer_for(knowledge: Knowledge, tricks: int, sample: SampleResult) -> str:
    """Who declares if the player bids ``tricks`` in this layout: the earlier
    bids as made, each later bidder bidding their own side's double-dummy
    tricks as declarer; highest bid wins, ties to the earlier bidder."""
    k = knowledge
    if k.bidding != STANDARD:
        return _variant_declarer(k, tricks, sample)

    def calls() -> Iterator[Tuple[str, int]]:
        for i, name in enumerate(k.order):
            if i < k.position:
                yield name, k.bids[i].tricks
            elif i == k.position:
                yield name, tricks
            else:
                t = sample.declarer_tricks[k.players.index(name)]
                if t is not None:   # None: cannot outbid the bids made (a 13), not solved
                    yield name, t

    winner = auction_winner(calls())
    assert winner is not None       # the player's own bid is among the calls
    return winner


def modelled_bid(bidding: str, auction: Auction, spades: int, tricks: Optional[int]) -> Bid:
    """A later bidder's bid in the bid analyser's model: the legal bid whose
    number is nearest ``tricks`` (their side's double-dummy tricks as
    declarer; ``None``: not solved, the auction already rules them out, so
    their lowest legal bid); ties go to the lower bid. Under mirror this is
    the one legal bid, under the standard rules ``tricks`` itself."""
    player = auction.next_bidder
    assert player is not None
    allowed = legal_bids(bidding, auction, spades)
    if allowed is None:
        return Bid(player, tricks or 0)
    if tricks is None:
        return allowed[0]
    return min(allowed, key=lambda b: (abs(b.tricks - tricks), b.tricks))


def _variant_declarer(knowledge: Knowledge, tricks: int, sample: SampleResult) -> str:
    """:func:`declarer_for` under a bidding variant: the player's legal bid
    of ``tricks`` (the candidate), the later bids by :func:`modelled_bid`."""
    k = knowledge
    auction = Auction(k.players, k.dealer, k.bids)
    own = spade_count(k.hand)
    mine = [b for b in legal_bids(k.bidding, auction, own) or () if b.tricks == tricks]
    auction = auction.with_bid(mine[0] if mine else Bid(k.player, tricks))
    for name in k.later_bidders:
        i = k.players.index(name)
        spades = sample.spades[i] if sample.spades else 0
        auction = auction.with_bid(modelled_bid(k.bidding, auction, spades,
                                                sample.declarer_tricks[i]))
    declarer = auction.declarer
    assert declarer is not None
    return declarer


def declarer_odds(knowledge: Knowledge, tricks: int, later: Sequence[LaterBidder]) -> Odds:
    """Who declares if the player bids ``tricks``, and with what chance, when
    each later bidder calls by the bidding model from their own view:
    ``later`` (their trick estimates in the layout, :class:`sampling.Draw`)
    plus the model's terms for the numbers bid before them, the player's
    ``tricks`` included; a nil bids 0."""
    k = knowledge
    odds: Dict[str, float] = {}

    def walk(calls: List[Tuple[str, int]], j: int, chance: float) -> None:
        if j == len(later):
            winner = auction_winner(calls)
            assert winner is not None
            odds[winner] = odds.get(winner, 0.0) + chance
            return
        b = later[j]
        mean = b.mean + model.earlier_terms(b.position, [t for _, t in calls])
        if j == len(later) - 1:       # the last bid only matters above the highest so far
            top = max(t for _, t in calls)
            above = (1.0 - b.nil) * model.chance_above(top, mean, b.spread)
            if above > 0:             # the last bidder outbids everyone
                odds[b.name] = odds.get(b.name, 0.0) + chance * above
            if above < 1:             # a 0 wins nothing: the calls so far decide
                winner = auction_winner(calls)
                assert winner is not None
                odds[winner] = odds.get(winner, 0.0) + chance * (1.0 - above)
            return
        for number, p in enumerate(model.number_chances(mean, b.spread)):
            p *= 1.0 - b.nil
            if number == 0:
                p += b.nil
            if p > 0:
                walk(calls + [(b.name, number)], j + 1, chance * p)

    walk([(bid.player, bid.tricks) for bid in k.bids] + [(k.player, tricks)], 0, 1.0)
    return tuple((d, odds[d]) for d in k.players if d in odds)


def side_tricks(knowledge: Knowledge, sample: SampleResult, declarer: str) -> int:
    """The player's side's tricks in the layout when ``declarer`` declares."""
    t = sample.declarer_tricks[knowledge.players.index(declarer)]
    assert t is not None, f"the role of {declarer} was not solved"
    return t if declarer == knowledge.player else TRICKS_PER_HAND - t


@dataclass(frozen=True)
class BidOutcome:
    """The player's result in one layout for one candidate bid."""

    bid: int
    declarer: str
    side_tricks: int
    nils: Tuple[Tuple[str, bool], ...]  # (hand, kept) for each nil that counts
    points: int                         # hand points: contract + nil bets
    bags: int
    penalty: int                        # bag-penalty points this hand triggers (0 if unknown)

    @property
    def score(self) -> int:
        return self.points - self.penalty

    @property
    def made(self) -> bool:
        return self.side_tricks >= self.bid


@functools.lru_cache(maxsize=65536)
def _score(player: str, bid: int, declarer: str, tricks: int,
           nils: Tuple[Tuple[str, bool], ...], rules: ScoringRules,
           standing: Optional[Standing]) -> Tuple[int, int, int]:
    """(hand points, bags, bag-penalty points) via scoring.score_hand."""
    bids = {player: bid}
    if declarer != player:
        bids[declarer] = 0
    declarer_tricks = tricks if declarer == player else TRICKS_PER_HAND - tricks
    hand_tricks = {h: (0 if kept else 1) for h, kept in nils}
    bets = [NilBet(player, h) for h, _ in nils]
    s = score_hand(bids, declarer, declarer_tricks, bets, hand_tricks, rules)[player]
    penalty = 0
    if standing is not None:
        after, _ = apply_bags(standing, s.points, s.bags, rules)
        penalty = standing.points + s.points - after.points
    return s.points, s.bags, penalty


def sample_outcome(knowledge: Knowledge, plan: Plan, candidate: Candidate,
                   sample: SampleResult, declarer: Optional[str] = None) -> BidOutcome:
    """The player's result in one layout for ``candidate``; ``declarer``
    defaults to :func:`declarer_for` (the later-bid model).

    With nils that count the side takes the best of: ignore them (full
    tricks, nils lost); keep one nil hand trickless (tricks from its nil
    query); keep them all (no trick at all, when asked via ``plan.zeros``)."""
    k = knowledge
    p = k.player
    declarer = declarer or declarer_for(k, candidate.tricks, sample)
    counting = tuple(h for h in candidate.nils if nil_counts(p, h, declarer))
    full = side_tricks(k, sample, declarer)
    options: List[Tuple[int, Tuple[Tuple[str, bool], ...]]] = [
        (full, tuple((h, False) for h in counting))]
    for hand in counting:
        try:
            t = sample.nils[plan.nils.index((declarer, hand))]
        except ValueError:
            raise BidError(f"no nil answer for {hand} when {declarer} declares",
                           expected="a plan that includes the candidate's nils "
                                    "(solver.bid.plan_for)") from None
        if t >= 0:
            options.append((t, tuple((h, h == hand) for h in counting)))
    if len(counting) > 1 and declarer in plan.zeros and sample.zeros[plan.zeros.index(declarer)]:
        options.append((0, tuple((h, True) for h in counting)))
    best: Optional[BidOutcome] = None
    for tricks, nils in options:
        points, bags, penalty = _score(p, candidate.tricks, declarer, tricks, nils,
                                       k.rules.scoring, k.standing)
        o = BidOutcome(candidate.tricks, declarer, tricks, nils, points, bags, penalty)
        if best is None or o.score > best.score:
            best = o
    assert best is not None
    return best
