"""The bids a player could make (:class:`Candidate`) and the nil questions
they need (:func:`plan_for`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..auction import (STANDARD, Auction, Bid, check_bid, legal_bids, nil_counts, own_nil_name,
                       spade_count)
from ..deal import Deal
from ..errors import DealError
from ..scoring import DUMMY, TRICKS_PER_HAND
from .knowledge import BidError, Knowledge
from .layout import Plan


BIDS = tuple(range(TRICKS_PER_HAND + 1))


@dataclass(frozen=True)
class Candidate:
    """A bid the player could make: ``tricks`` and the hands declared nil
    (canonical names: the player's own name, ``dummy`` or another player)."""

    tricks: int
    nils: Tuple[str, ...] = ()

    def bid(self, player: str) -> Bid:
        return Bid(player, self.tricks, self.nils)

    def call(self, player: str) -> str:
        return self.bid(player).call()


def plan_for(knowledge: Knowledge, extra: Sequence[Candidate] = ()) -> Plan:
    """The nil questions needed for the default candidates and ``extra``.

    For each role the player can end up in (:attr:`Knowledge.declarers`):
    the player's own hand as declarer and as defender beside each other
    player, and the dummy when the player declares. A nil on another player
    ``R`` (counts when the third player declares) is asked for when ``R``
    already declared nil on their own hand (they play to keep it), or when
    a candidate in ``extra`` names it. ``zeros`` for the roles in which an
    ``extra`` candidate has two nils that count together."""
    k = knowledge
    p = k.player
    nils: List[Tuple[str, str]] = [(p, p)] + [(o, p) for o in k.others] + [(p, DUMMY)]
    for other in _piggyback(k):
        nils.append((k.third(other), other))
    if k.bidding != STANDARD:   # only the nils the legal bids name, where they count
        extra = list(default_candidates(k)) + list(extra)
        nils = [(d, h) for c in extra for h in c.nils for d in k.declarers if nil_counts(p, h, d)]
    zeros: List[str] = []
    for cand in extra:
        for hand in cand.nils:
            if hand not in (p, DUMMY):
                nils.append((k.third(hand), hand))
        for declarer in k.players:
            if len([h for h in cand.nils if nil_counts(p, h, declarer)]) > 1:
                zeros.append(declarer)
    return Plan(tuple(dict.fromkeys(q for q in nils if q[0] in k.declarers)),
                tuple(dict.fromkeys(d for d in zeros if d in k.declarers)))


def _piggyback(knowledge: Knowledge) -> List[str]:
    """Earlier bidders who declared nil on their own hand."""
    return [b.player for b in knowledge.bids if b.player in b.nils]


def default_candidates(knowledge: Knowledge) -> List[Candidate]:
    """Every bid 0-13 plain, with nil on the own hand, with nil on the dummy,
    and with nil on an earlier bidder who declared nil on their own hand;
    under a bidding variant, the legal bids."""
    k = knowledge
    allowed = legal_bids(k.bidding, Auction(k.players, k.dealer, k.bids), spade_count(k.hand))
    if allowed is not None:
        return [Candidate(b.tricks, b.nils) for b in allowed]
    nil_sets = [(), (k.player,), (DUMMY,)] + [(o,) for o in _piggyback(k)]
    return [Candidate(t, n) for t in BIDS for n in nil_sets]


def nil_hand(knowledge: Knowledge, name: str) -> str:
    """Canonical hand name of a nil designation (``self`` -> the player)."""
    hand = own_nil_name(knowledge.player, str(name).strip())
    if hand.lower() == DUMMY:
        return DUMMY
    if hand not in knowledge.players:
        raise BidError(f"nil on unknown hand {name!r}", field="nil",
                       expected=f"self, dummy or one of {', '.join(knowledge.others)}")
    return hand


def check_candidate(knowledge: Knowledge, candidate: Candidate) -> Candidate:
    try:
        candidate.bid(knowledge.player)
    except DealError as err:
        raise BidError(err.problem, field="bid", expected=err.expected) from None
    for hand in candidate.nils:
        nil_hand(knowledge, hand)
    k = knowledge
    if k.bidding != STANDARD:
        try:
            check_bid(k.bidding, Auction(k.players, k.dealer, k.bids), candidate.bid(k.player),
                      spade_count(k.hand))
        except DealError as err:
            raise BidError(err.problem, field="bid", expected=err.expected) from None
    return candidate


def parse_candidate(knowledge: Knowledge, tricks: int, nils: Sequence[str] = ()) -> Candidate:
    """A candidate from ``--bid N --nil self dummy Bob`` (names canonicalised)."""
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= TRICKS_PER_HAND:
        raise BidError(f"bid {tricks!r}", field="bid", expected="a number of tricks from 0 to 13")
    hands: List[str] = []
    for name in nils:
        for part in str(name).replace(",", " ").split():
            hand = nil_hand(knowledge, part)
            if hand in hands:
                raise BidError(f"nil on {part!r} is given twice", field="nil",
                               expected="each hand named at most once")
            hands.append(hand)
    return check_candidate(knowledge, Candidate(tricks, tuple(hands)))


def file_bid(deal: Deal, player: str) -> Optional[Candidate]:
    """The player's bid in the deal file's auction, if made."""
    bid = deal.auction.bid_of(player) if deal.auction else None
    return None if bid is None else Candidate(bid.tricks, bid.nils)
