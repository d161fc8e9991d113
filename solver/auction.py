"""The auction (docs/RULES.md "Auction (one round)" and "Nil designations").

* One round: the first real player left of the dealer bids first, the dealer
  last; the dummy never bids. A bid is 0-13 tricks for the bidder's side.
* Declarer = the highest bid; a tie goes to the earliest bidder
  (:func:`auction_winner` is the one place for that rule).
* Nil designations: on one's own hand (always counts), on the dummy (counts
  only if the bidder becomes declarer), on another real player's hand (counts
  only if both end up defenders). :func:`nil_counts` is the one place for that rule.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

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
        order = bidding_order(check_table(players, dealer), dealer)
        bids = []
        for i, (player, text) in enumerate(zip(order, calls)):
            try:
                bids.append(Bid.parse(player, text))
            except AuctionError as err:
                raise err.within(f"auction[{i}]") from None
        if len(calls) > len(order):
            raise AuctionError(f"{len(calls)} bids", field="auction",
                               expected="at most three bids, one per real player")
        return cls(tuple(players), dealer, tuple(bids))  # type: ignore[arg-type]
