"""The hand level of the duck analysis (docs/DUCK.md "Hand level", "Nils"):
the deal at its current position, the core numbers every other part builds
on, and the applicable nil bets.

Totals here are for the whole hand: defender tricks already won included.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Optional, Tuple

from ..deal import Deal
from ..errors import DealError
from ..position import Position
from ..scoring import TRICKS_PER_HAND
from ..seating import (DECLARER_SEAT, DECLARER_SIDE, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT,
                       controller, side_of)
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


@dataclass(frozen=True)
class DealPosition:
    """A deal at its current position (after its ``played`` cards): the
    engine position, the hand names by seat, the tricks won by each side and
    each seat, who is to play and which real player chooses that card."""

    deal: Deal
    names: Tuple[str, str, str, str]
    pos: Position
    won: Tuple[int, int]                 # (declarer side, defenders)
    won_by_seat: Tuple[int, int, int, int]
    tricks_left: int
    seat_to_move: int
    chooser: int                         # the seat choosing the card (the declarer for the dummy)

    @classmethod
    def of(cls, deal: Deal, breaking: Optional[bool] = None) -> "DealPosition":
        """``deal`` at its current position; ``breaking`` overrides the
        spade-breaking rule (``None``: the deal's)."""
        check_deal(deal)
        if breaking is not None and breaking != deal.rules.breaking:
            deal = replace(deal, rules=replace(deal.rules, breaking=breaking))
        state = deal.play_state()
        if state.is_over:
            raise DuckError("all 13 tricks are played, so nothing is left to duck",
                            field="played", expected="a deal with tricks still to play "
                            "(use `score` for a finished hand)")
        seat = state.to_move
        assert seat is not None
        n = state.names
        return cls(deal, (n[0], n[1], n[2], n[3]), state.engine_position(),
                   (state.declarer_tricks, state.defender_tricks), state.tricks_won,
                   state.tricks_left, seat, controller(seat))

    @property
    def declarer(self) -> str:
        return self.names[DECLARER_SEAT]

    @property
    def left_defender(self) -> str:
        return self.names[LEFT_DEFENDER_SEAT]

    @property
    def right_defender(self) -> str:
        return self.names[RIGHT_DEFENDER_SEAT]

    @property
    def players(self) -> Tuple[str, str, str]:
        """The real players: declarer, left defender, right defender."""
        return self.declarer, self.left_defender, self.right_defender

    def other_defender(self, defender: str) -> str:
        return self.right_defender if defender == self.left_defender else self.left_defender

    @property
    def won_by_defenders(self) -> int:
        return self.won[1]

    def side_won(self, side: int) -> int:
        """Tricks won so far by a side (:data:`DECLARER_SIDE`, with the dummy, or
        :data:`DEFENDER_SIDE`)."""
        return self.won[0] if side == DECLARER_SIDE else self.won[1]


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
    def at(cls, at: DealPosition, oracle: Oracle) -> "HandLevel":
        splits = team_splits(at.pos, oracle, extremes=False)
        won = at.won_by_defenders
        auction = at.deal.auction
        assert auction is not None
        return cls(won + splits.cooperative,
                   {at.names[x]: won + splits.duck[x] for x in DEFENDER_SEATS},
                   TRICKS_PER_HAND - auction.tricks_bid[at.declarer],
                   won + at.tricks_left)

    @property
    def declarer_can_make(self) -> bool:
        return self.cooperative <= self.contract_total


def nil_statuses(at: DealPosition, oracle: Oracle) -> Tuple[NilStatus, ...]:
    """Every applicable nil bet with the tricks its hand has won and its
    ``keep_max`` (whole hand; ``None`` when the other side can force a trick
    on the hand or it has won one already)."""
    auction = at.deal.auction
    assert auction is not None
    nils = []
    for bet in auction.applicable_nils():
        seat = at.names.index(bet.hand)
        side = side_of(seat)
        won = at.won_by_seat[seat]
        keep = None
        if not won:
            k = nil_keep_max(at.pos, seat, oracle)
            if k >= 0:
                keep = k + at.side_won(side)
        nils.append(NilStatus(bet.bidder, bet.hand, seat, side, won, keep))
    return tuple(nils)
