"""The hand level of the duck analysis (docs/DUCK.md "Hand level", "Nils"):
the deal's board at its current position (:func:`duck_board`), the core
numbers every other part builds on, and the applicable nil bets.

Totals here are for the whole hand: defender tricks already won included.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Tuple

from ..board import Board
from ..deal import Deal
from ..errors import DealError
from ..scoring import TRICKS_PER_HAND
from ..seating import side_of
from .outcomes import NilStatus
from .questions import DEFENDER_SEATS, Oracle, nil_keep_max, team_splits


class DuckError(DealError):
    """A deal the duck analysis cannot work on (no complete auction, hand over)."""


def check_deal(deal: Deal) -> None:
    """Raise :class:`DuckError` unless the deal has a complete auction."""
    if deal.auction is None:
        raise DuckError("the deal has no auction, so there is no declarer to analyse",
                        field="auction", expected="a complete auction (three bids)")
    if not deal.auction.is_complete:
        raise DuckError(f"the auction is not complete ({len(deal.auction.bids)} of 3 bids; "
                        f"{deal.auction.next_bidder} to bid)", field="auction",
                        expected="three bids, so that the declarer is known")


def duck_board(deal: Deal) -> Board:
    """``deal``'s board at its current position (after its ``played``
    cards), for the auction's declarer, with tricks still to play."""
    check_deal(deal)
    board = deal.board()
    board.check_not_over(DuckError, "duck")
    return board


def deal_of(at: Board) -> Deal:
    """The deal of a duck board (:func:`duck_board` gives one)."""
    assert isinstance(at.deal, Deal)
    return at.deal


@dataclass(frozen=True)
class HandLevel:
    """The core numbers (whole-hand defender totals, docs/DUCK.md "Hand
    level"): ``cooperative``; ``duck[X]`` for each defender X; the
    ``contract_total`` (13 - the declarer's bid) and ``top_possible`` (every
    trick left to the defenders)."""

    cooperative: int
    duck: Mapping[str, int]
    contract_total: int
    top_possible: int

    @classmethod
    def at(cls, at: Board, oracle: Oracle) -> "HandLevel":
        splits = team_splits(at.position, oracle, extremes=False)
        won = at.defender_tricks
        auction = deal_of(at).auction
        assert auction is not None
        return cls(won + splits.cooperative,
                   {at.names[x]: won + splits.duck[x] for x in DEFENDER_SEATS},
                   TRICKS_PER_HAND - auction.tricks_bid[at.seating.declarer],
                   won + at.tricks_left)

    @property
    def declarer_can_make(self) -> bool:
        return self.cooperative <= self.contract_total


def nil_statuses(at: Board, oracle: Oracle) -> Tuple[NilStatus, ...]:
    """Every applicable nil bet with the tricks its hand has won and its
    ``keep_max`` (whole hand; ``None`` when the other side can force a trick
    on the hand or it has won one already)."""
    auction = deal_of(at).auction
    assert auction is not None
    nils = []
    for bet in auction.applicable_nils():
        seat = at.names.index(bet.hand)
        side = side_of(seat)
        won = at.tricks_won[seat]
        keep = None
        if not won:
            k = nil_keep_max(at.position, seat, oracle)
            if k >= 0:
                keep = k + at.side_won(side)
        nils.append(NilStatus(bet.bidder, bet.hand, seat, side, won, keep))
    return tuple(nils)
