"""The auction (docs/RULES.md "Auction (one round)" and "Nil designations").

* One round: the first real player left of the dealer bids first, the dealer
  last; the dummy never bids. A bid is 0-13 tricks for the bidder's side.
* Declarer = the highest bid; a tie goes to the earliest bidder
  (:func:`auction_winner` is the one place for that rule).
* Nil designations: on one's own hand (always counts), on the dummy (counts
  only if the bidder becomes declarer), on another real player's hand (counts
  only if both end up defenders). :func:`nil_counts` is the one place for that rule.
* Bidding variants (docs/RULES.md "Mirror Spades (dummy version)" and
  "Suicide Spades (dummy version)"): which bids the next bidder may make.
  :func:`legal_bids` lists them and :func:`check_bid` explains a bid that is
  not among them; both are the one place for those rules.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from .cards import SPADES, SUIT_MASK
from .cards import count as popcount
from .errors import AuctionError
from .scoring import DUMMY, TRICKS_PER_HAND, NilBet
from .seating import bidding_order, check_table, first_bidder


def check_bid_tricks(tricks: object) -> int:
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= TRICKS_PER_HAND:
        raise AuctionError(f"bid {tricks!r} is not allowed", field="bid",
                           expected="a whole number of tricks from 0 to 13")
    return tricks


@dataclass(frozen=True)
class Bid:
    """One real player's bid: ``tricks`` (0-13) for their side, and the hands
    they declare nil on (``nils``: real players' names or ``"dummy"``; the
    bidder's own name for a nil on their own hand)."""

    player: str
    tricks: int
    nils: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check_bid_tricks(self.tricks)
        nils = (self.nils,) if isinstance(self.nils, str) else tuple(self.nils)
        for hand in nils:
            if not isinstance(hand, str) or not hand.strip():
                raise AuctionError(f"nil on {hand!r}", field="nil",
                                   expected="the name of a hand (a player, dummy or self)")
        nils = tuple(own_nil_name(self.player, h) for h in nils)
        for i, hand in enumerate(nils):
            if hand in nils[:i]:
                raise AuctionError(f"nil on {hand!r} is declared twice", field="nil",
                                   expected="each hand named at most once")
        object.__setattr__(self, "nils", nils)

    def call(self) -> str:
        """The bid as text: ``7``, ``5 nil Bob``, ``0 nil self dummy``; see :meth:`parse`."""
        names = ["self" if h == self.player else h for h in self.nils]
        return " ".join([str(self.tricks)] + (["nil"] + names if names else []))

    @classmethod
    def parse(cls, player: str, text: str) -> "Bid":
        """Parse :meth:`call` text for ``player``: ``"6"``, ``"6 nil dummy Bob"``
        (``self`` or ``own`` names the bidder's own hand)."""
        m = re.fullmatch(r"\s*(\d+)\s*(?:nil\b[\s:]*(.*))?", str(text), re.IGNORECASE)
        if not m:
            raise AuctionError(f"bid {text!r} cannot be read", field="bid",
                               expected="a number of tricks 0-13, optionally followed by "
                                        "'nil' and the hands declared nil")
        names = [n for n in re.split(r"[\s,]+", m.group(2) or "") if n]
        return cls(player, int(m.group(1)), tuple(names))

    def __str__(self) -> str:
        return f"{self.player} {self.call()}"


def auction_winner(calls: Iterable[Tuple[str, int]]) -> Optional[str]:
    """Who holds the auction after these ``(player, tricks)`` bids, given
    in bidding order: the highest bid; a tie goes to the earliest bidder.
    ``None`` when there is no bid."""
    best_player, best = None, -1
    for player, tricks in calls:
        if tricks > best:
            best_player, best = player, tricks
    return best_player


def own_nil_name(bidder: str, hand: str) -> str:
    """``self``/``own`` in a nil designation stand for the bidder's own hand."""
    return bidder if hand.lower() in ("self", "own") else hand


def nil_counts(bidder: str, hand: str, declarer: str) -> bool:
    """Does ``bidder``'s nil on ``hand`` count once ``declarer`` is known?

    Own hand: always. The dummy: only if the bidder is declarer. Another real
    player's hand: only if both are defenders.
    """
    if hand == bidder:
        return True
    if hand == DUMMY:
        return bidder == declarer
    return declarer not in (bidder, hand)


@dataclass(frozen=True)
class Auction:
    """The bids so far, in bidding order (complete after three bids)."""

    players: Tuple[str, str, str]
    dealer: str
    bids: Tuple[Bid, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_table(self.players, self.dealer))
        object.__setattr__(self, "bids", tuple(self.bids))
        order = self.bidding_order
        if len(self.bids) > len(order):
            raise AuctionError(f"{len(self.bids)} bids", field="auction",
                               expected="at most three bids, one per real player")
        for i, bid in enumerate(self.bids):
            if bid.player not in self.players:
                raise AuctionError(f"unknown player {bid.player!r}", field=f"auction[{i}].player",
                                   expected=f"{order[i]} (bidding order: {', '.join(order)})")
            if bid.player != order[i]:
                raise AuctionError(f"{bid.player!r} bids out of turn", field=f"auction[{i}].player",
                                   expected=f"{order[i]} (bidding order: {', '.join(order)})")
            for hand in bid.nils:
                if hand != DUMMY and hand not in self.players:
                    raise AuctionError(f"nil on unknown hand {hand!r}", field=f"auction[{i}].nil",
                                       expected=f"one of {', '.join(self.players)}, dummy "
                                                "(or self for the bidder's own hand)")

    @property
    def bidding_order(self) -> Tuple[str, str, str]:
        return bidding_order(self.players, self.dealer)

    @property
    def first_bidder(self) -> str:
        return first_bidder(self.players, self.dealer)

    @property
    def is_complete(self) -> bool:
        return len(self.bids) == len(self.players)

    @property
    def next_bidder(self) -> Optional[str]:
        return None if self.is_complete else self.bidding_order[len(self.bids)]

    @property
    def declarer(self) -> Optional[str]:
        """Highest bid, ties to the earliest bidder; ``None`` until all three have bid."""
        if not self.is_complete:
            return None
        return auction_winner((b.player, b.tricks) for b in self.bids)

    @property
    def defenders(self) -> Tuple[str, ...]:
        """The two defenders in clockwise order from the declarer; ``()`` until complete."""
        d = self.declarer
        if d is None:
            return ()
        i = self.players.index(d)
        return (self.players[(i + 1) % 3], self.players[(i + 2) % 3])

    def bid_of(self, player: str) -> Optional[Bid]:
        for bid in self.bids:
            if bid.player == player:
                return bid
        return None

    @property
    def tricks_bid(self) -> Dict[str, int]:
        """player -> tricks bid, in bidding order (the ``bids`` of ``score_hand``)."""
        return {b.player: b.tricks for b in self.bids}

    def applicable_nils(self, declarer: Optional[str] = None) -> List[NilBet]:
        """The nil designations that count, in bidding order. ``declarer``
        defaults to the auction's; give one to ask "what if"."""
        declarer = declarer or self.declarer
        if declarer is None:
            raise AuctionError("the auction is not complete, so no declarer is known yet",
                               field="auction", expected="three bids")
        return [NilBet(b.player, hand) for b in self.bids for hand in b.nils
                if nil_counts(b.player, hand, declarer)]

    def ignored_nils(self, declarer: Optional[str] = None) -> List[NilBet]:
        """The nil designations that do not count (ignored by the scoring)."""
        counted = self.applicable_nils(declarer)
        return [NilBet(b.player, h) for b in self.bids for h in b.nils
                if NilBet(b.player, h) not in counted]

    def with_bid(self, bid: Bid) -> "Auction":
        """The auction after one more bid (validated)."""
        return Auction(self.players, self.dealer, self.bids + (bid,))

    @classmethod
    def from_calls(cls, players: Sequence[str], dealer: str, calls: Sequence[str]) -> "Auction":
        """``Auction.from_calls(players, dealer, ["5", "6 nil Bob", "7"])`` in bidding order."""
        table = check_table(players, dealer)
        order = bidding_order(table, dealer)
        bids = []
        for i, (player, text) in enumerate(zip(order, calls)):
            try:
                bids.append(Bid.parse(player, text))
            except AuctionError as err:
                raise err.within(f"auction[{i}]") from None
        if len(calls) > len(order):
            raise AuctionError(f"{len(calls)} bids", field="auction",
                               expected="at most three bids, one per real player")
        return cls(table, dealer, tuple(bids))


# ------------------------------------------------------------ bidding variants
STANDARD, MIRROR, SUICIDE = "standard", "mirror", "suicide"
BIDDING_RULES = (STANDARD, MIRROR, SUICIDE)
#: The smallest bid other than nil under Suicide.
SUICIDE_LEAST = 4

def spade_count(hand: int) -> int:
    """The number of spades in ``hand`` (a card mask)."""
    return popcount(hand & SUIT_MASK[SPADES])


def _own_nil(bid: Bid) -> bool:
    return bid.tricks == 0 and bid.nils == (bid.player,)


def legal_bids(bidding: str, auction: Auction, spades: int) -> Optional[Tuple[Bid, ...]]:
    """Every bid the next bidder of ``auction`` may make under ``bidding``
    when they hold ``spades`` spades; ``None`` under the standard rules
    (any number 0-13 with any nil designations).

    * Mirror: the one bid equal to the spade count, ``0 nil self`` without spades.
    * Suicide: ``0 nil self`` while nobody has bid nil; ``N nil dummy``
      (N = 4..13) unless the bidder is the dealer and nobody has bid nil.
    """
    player = auction.next_bidder
    if player is None:
        raise AuctionError("the auction is complete", field="auction",
                           expected="an auction with a bid still to come")
    if bidding == STANDARD:
        return None
    if bidding == MIRROR:
        return (Bid(player, spades, (player,) if spades == 0 else ()),)
    if bidding == SUICIDE:
        nil_taken = any(_own_nil(b) for b in auction.bids)
        last = len(auction.bids) == len(auction.players) - 1
        out = [] if nil_taken else [Bid(player, 0, (player,))]
        if nil_taken or not last:
            out += [Bid(player, t, (DUMMY,)) for t in range(SUICIDE_LEAST, TRICKS_PER_HAND + 1)]
        return tuple(out)
    raise AuctionError(f"unknown bidding rules {bidding!r}", field="variant",
                       expected=f"one of {', '.join(BIDDING_RULES)}")


def possible_declarers(bidding: str, auction: Auction, spades: int,
                       spare_spades: int) -> Tuple[str, ...]:
    """The real players who can still end up declaring, in seat order, when
    the next bidder of ``auction`` holds ``spades`` spades: of the earlier
    bidders only the one holding the highest bid (the earliest on a tie);
    the next bidder and the later ones unless that bid is 13, which nobody
    can outbid. Under Mirror: the holder of the highest of the earlier bids
    and the bidder's own count, and each later bidder if ``spare_spades``
    (the spades no earlier bid accounts for, out of the bidder's sight) are
    more than it. Under Suicide: whoever may still bid the highest
    ``SUICIDE_LEAST`` or more."""
    bidder = auction.next_bidder
    if bidder is None:
        raise AuctionError("the auction is complete", field="auction",
                           expected="an auction with a bid still to come")
    order = auction.bidding_order
    later = set(order[order.index(bidder) + 1:])
    bids = auction.bids
    can: Set[Optional[str]]
    if bidding == MIRROR:
        holder = auction_winner([(b.player, b.tricks) for b in bids] + [(bidder, spades)])
        best = max([b.tricks for b in bids] + [spades])
        can = {holder} | (later if spare_spades > best else set())
    elif bidding == SUICIDE:
        high = [b for b in bids if b.tricks >= SUICIDE_LEAST]
        holder = auction_winner((b.player, b.tricks) for b in high)
        can = {holder} if holder is not None else set()
        if not high or max(b.tricks for b in high) < TRICKS_PER_HAND:
            if any(b.tricks for b in legal_bids(bidding, auction, spades) or ()):
                can.add(bidder)
            can |= later
    else:
        holder = auction_winner((b.player, b.tricks) for b in bids)
        if holder is None:
            return auction.players
        can = {holder}
        if max(b.tricks for b in bids) < TRICKS_PER_HAND:
            can |= {bidder, *later}
    return tuple(p for p in auction.players if p in can)


def check_bid(bidding: str, auction: Auction, bid: Bid, spades: int) -> None:
    """Raise an :class:`AuctionError` (field ``bid`` or ``nil``) saying why
    ``bid`` is not one of :func:`legal_bids` for the next bidder of ``auction``."""
    allowed = legal_bids(bidding, auction, spades)
    if allowed is None or bid in allowed:
        return
    who = bid.player
    if bidding == MIRROR:
        (want,) = allowed
        held = "no spades" if spades == 0 else f"{spades} spade{'' if spades == 1 else 's'}"
        if bid.tricks != spades:
            why = ("a player without spades bids nil" if spades == 0 else
                   "each bid is the bidder's own number of spades")
            raise AuctionError(f"{who} bids {bid.call()} holding {held}", field="bid",
                               expected=f"{want.call()}: under mirror {why}")
        why = ("a player without spades bids nil" if spades == 0 else
               "only a player without spades declares nil, on their own hand")
        raise AuctionError(f"{who} holds {held} and bids {bid.call()}", field="nil",
                           expected=f"{want.call()}: under mirror {why}")
    # suicide
    nil_bidder = next((b.player for b in auction.bids if _own_nil(b)), None)
    if bid.tricks == 0 or who in bid.nils:
        if bid.tricks != 0 or bid.nils != (who,):
            raise AuctionError(f"{who} bids {bid.call()}", field="nil" if bid.tricks == 0 else "bid",
                               expected="0 nil self: under suicide a nil bid is 0 with a nil on "
                                        "the bidder's own hand and no other")
        raise AuctionError(f"{who} bids nil after {nil_bidder} has", field="bid",
                           expected=f"{SUICIDE_LEAST} to 13 nil dummy: under suicide exactly one "
                                    "player bids nil")
    if bid.tricks < SUICIDE_LEAST:
        raise AuctionError(f"{who} bids {bid.call()}", field="bid",
                           expected=f"0 nil self, or {SUICIDE_LEAST} to 13 nil dummy: under "
                                    f"suicide a player bids nil or at least {SUICIDE_LEAST}")
    if bid.nils != (DUMMY,):
        raise AuctionError(f"{who} bids {bid.call()}", field="nil",
                           expected=f"{bid.tricks} nil dummy: under suicide a bid of "
                                    f"{SUICIDE_LEAST} or more names the dummy nil and no other "
                                    "hand (the declarer's side holds its nil through the dummy)")
    raise AuctionError(f"{who} bids {bid.call()} but nobody has bid nil", field="bid",
                       expected="0 nil self: under suicide exactly one player bids nil, and the "
                                "dealer bids last")


def check_auction(bidding: str, auction: Auction, spades: Mapping[str, int]) -> None:
    """Check every bid of ``auction`` under ``bidding``; ``spades``: each
    real player's spade count. Errors name ``auction[i]``."""
    for i, bid in enumerate(auction.bids):
        try:
            check_bid(bidding, Auction(auction.players, auction.dealer, auction.bids[:i]), bid,
                      spades[bid.player])
        except AuctionError as err:
            raise err.within(f"auction[{i}]") from None
