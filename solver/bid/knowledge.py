"""What one real player knows at their turn in the auction (:class:`Knowledge`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple, cast

from ..auction import (MIRROR, STANDARD, Auction, Bid, auction_winner, check_bid, legal_bids,
                       own_nil_name, spade_count)
from ..cards import FULL_DECK, SPADES, SUIT_MASK, format_card, iter_cards
from ..cards import count as popcount
from ..deal import Deal
from ..errors import DealError
from ..scoring import DEFAULT_RULES, DUMMY, TRICKS_PER_HAND, ScoringRules, Standing
from ..seating import bidding_order, first_bidder, left_of


class BidError(DealError):
    """A bid-analysis request that cannot be answered (unknown player, bad
    sample count, a nil on an unknown hand, ...)."""


@dataclass(frozen=True)
class Knowledge:
    """What ``player`` knows at their turn in the auction.

    ``bids``: the bids made before the player's turn, in bidding order.
    ``dummy_seen``: the dummy cards the player knows (peeked or face up).
    ``standing``: the player's running score and bags, if known.
    """

    player: str
    players: Tuple[str, str, str]
    dealer: str
    hand: int
    dummy_seen: int = 0
    bids: Tuple[Bid, ...] = ()
    variant: str = "no-peeky"
    standing: Optional[Standing] = None
    rules: ScoringRules = DEFAULT_RULES
    breaking: bool = True
    bidding: str = STANDARD

    def __post_init__(self) -> None:
        players = cast(Tuple[str, str, str], tuple(self.players))  # Auction checks there are three
        auction = Auction(players, self.dealer, tuple(self.bids))  # validates
        object.__setattr__(self, "players", auction.players)
        object.__setattr__(self, "bids", auction.bids)
        if self.player not in self.players:
            raise BidError(f"unknown player {self.player!r}", field="player",
                           expected=f"one of {', '.join(self.players)}")
        if auction.next_bidder != self.player:
            raise BidError(f"{len(self.bids)} bids before {self.player}'s turn", field="bids",
                           expected=f"the bids of the players before {self.player} "
                                    f"(bidding order: {', '.join(auction.bidding_order)})")
        if popcount(self.hand) != TRICKS_PER_HAND:
            raise BidError(f"{popcount(self.hand)} cards", field=f"hands.{self.player}",
                           expected="13 cards")
        if self.dummy_seen & self.hand:
            raise BidError(f"{_cards(self.dummy_seen & self.hand)} both in the player's hand "
                           "and seen in the dummy", field="variant.seen",
                           expected="dummy cards that are not in the player's hand")
        if popcount(self.dummy_seen) > TRICKS_PER_HAND:
            raise BidError(f"{popcount(self.dummy_seen)} dummy cards seen", field="variant.seen",
                           expected="at most 13")
        self._check_variant_bids(auction)

    def _check_variant_bids(self, auction: Auction) -> None:
        """The earlier bids under the bidding variant; under mirror, their
        spade counts must fit the spades the player has not seen."""
        if self.bidding == STANDARD:
            return
        for i, bid in enumerate(self.bids):
            spades = bid.tricks if self.bidding == MIRROR else 0
            try:
                check_bid(self.bidding, Auction(auction.players, auction.dealer, self.bids[:i]),
                          bid, spades)
            except DealError as err:
                raise BidError(err.problem, field=f"bids[{i}]", expected=err.expected) from None
        unseen = popcount(self.unknown & SUIT_MASK[SPADES])
        known = self.spades_known
        if sum(known.values()) > unseen or \
                sum(TRICKS_PER_HAND - s for s in known.values()) > popcount(self.unknown) - unseen:
            raise BidError(f"the mirror bids before {self.player} need {sum(known.values())} "
                           "spades", field="bids",
                           expected=f"spade counts that fit the cards {self.player} has not seen "
                                    f"({unseen} spades, {popcount(self.unknown) - unseen} others)")

    @classmethod
    def from_deal(cls, deal: Deal, player: Optional[str] = None,
                  breaking: Optional[bool] = None) -> "Knowledge":
        """The knowledge of ``player`` (default: the next bidder) at their turn.

        When the deal's auction already holds the player's bid, only the bids
        made before it are known."""
        auction = deal.auction or Auction(deal.players, deal.dealer)
        if player is None:
            player = auction.next_bidder
            if player is None:
                raise BidError("the auction is complete, so there is no next bidder",
                               field="player",
                               expected=f"a player to analyse (one of {', '.join(deal.players)})")
        if player not in deal.players:
            raise BidError(f"unknown player {player!r}", field="player",
                           expected=f"one of {', '.join(deal.players)}")
        order = auction.bidding_order
        position = order.index(player)
        if position > len(auction.bids):
            raise BidError(f"{player} bids after {order[len(auction.bids)]}, who has not bid yet",
                           field="player",
                           expected=f"a player who has bid, or the next bidder "
                                    f"{order[len(auction.bids)]}")
        standing = deal.scores[player] if deal.scores is not None else None
        return cls(player, deal.players, deal.dealer, deal.hands[player],
                   deal.variant.known_to(player), auction.bids[:position], deal.variant.label,
                   standing, deal.rules.scoring,
                   deal.rules.breaking if breaking is None else breaking, deal.variant.bidding)

    # ---------------------------------------------------------- derived
    @property
    def order(self) -> Tuple[str, str, str]:
        return bidding_order(self.players, self.dealer)

    @property
    def position(self) -> int:
        """0 = first to bid ... 2 = the dealer, last to bid."""
        return self.order.index(self.player)

    @property
    def first_bidder(self) -> str:
        """Also the opening leader."""
        return first_bidder(self.players, self.dealer)

    @property
    def later_bidders(self) -> Tuple[str, ...]:
        return self.order[self.position + 1:]

    @property
    def others(self) -> Tuple[str, str]:
        """The other two real players, clockwise from the player."""
        return left_of(self.players, self.player, 1), left_of(self.players, self.player, 2)

    @property
    def declarers(self) -> Tuple[str, ...]:
        """The real players who can still end up declaring (in seat order):
        of the earlier bidders only the one holding the highest bid (the
        earliest on a tie); the player and the later bidders unless that bid
        is 13, which nobody can outbid. The roles of :func:`solve_layout`."""
        if self.bidding != STANDARD:
            return self._variant_declarers()
        holder = auction_winner((b.player, b.tricks) for b in self.bids)
        if holder is None:
            return self.players
        can = {holder}
        if max(b.tricks for b in self.bids) < TRICKS_PER_HAND:
            can |= {self.player, *self.later_bidders}
        return tuple(p for p in self.players if p in can)

    def _variant_declarers(self) -> Tuple[str, ...]:
        """Under mirror: the holder of the highest of the earlier bids and the
        player's own count, and each later bidder who may hold more spades.
        Under suicide: whoever may still bid the highest 4 or more."""
        own = spade_count(self.hand)
        if self.bidding == MIRROR:
            holder = auction_winner([(b.player, b.tricks) for b in self.bids] + [(self.player, own)])
            best = max([b.tricks for b in self.bids] + [own])
            spare = popcount(self.unknown & SUIT_MASK[SPADES]) - sum(self.spades_known.values())
            can = {holder} | ({*self.later_bidders} if spare > best else set())
            return tuple(p for p in self.players if p in can)
        high = [b for b in self.bids if b.tricks >= 4]
        holder = auction_winner((b.player, b.tricks) for b in high)
        can = {holder} if holder is not None else set()
        if not high or max(b.tricks for b in high) < TRICKS_PER_HAND:
            mine = legal_bids(self.bidding, Auction(self.players, self.dealer, self.bids), own)
            if any(b.tricks for b in mine or ()):
                can.add(self.player)
            can |= {*self.later_bidders}
        return tuple(p for p in self.players if p in can)

    @property
    def spades_known(self) -> Dict[str, int]:
        """The spade counts of other hands the player knows from the bids
        (under mirror each earlier bid is the bidder's count)."""
        if self.bidding != MIRROR:
            return {}
        return {b.player: b.tricks for b in self.bids}

    @property
    def unknown(self) -> int:
        """The cards the player has not seen."""
        return FULL_DECK & ~self.hand & ~self.dummy_seen

    def third(self, other: str) -> str:
        """The real player who is neither the player nor ``other``."""
        return next(p for p in self.players if p not in (self.player, other))

    def nil_hand(self, name: str) -> str:
        """Canonical hand name of a nil designation (``self`` -> the player)."""
        hand = own_nil_name(self.player, str(name).strip())
        if hand.lower() == DUMMY:
            return DUMMY
        if hand not in self.players:
            raise BidError(f"nil on unknown hand {name!r}", field="nil",
                           expected=f"self, dummy or one of {', '.join(self.others)}")
        return hand


def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in iter_cards(mask))
