"""The score of one hand: :class:`HandResult`, built from the trick totals
by the rules of :mod:`solver.scoring`, for a table (:class:`ScoredTable`: a
deal, or what a player knows of it).

:func:`hand_result` scores a board's play (:meth:`Board.score
<solver.board.Board.score>`, which :meth:`Deal.score <solver.deal.Deal.score>`
asks): from the tricks won when the hand is over, else from trick totals
given, checked against the tricks won so far (:func:`check_trick_totals`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Protocol, Sequence, Tuple

from .auction import Auction
from .errors import DealError
from .frozen_map import FrozenMap
from .rules import Rules
from .scoring import (TRICKS_PER_HAND, Ledger, LedgerEntry, NilBet, PlayerScore, ScoringRules,
                      Standing, score_hand)
from .seating import DECLARER_SIDE, DEFENDER_SIDE, Seating, side_of


class ScoredTable(Protocol):
    """What scoring a hand reads: a :class:`~solver.deal.Deal`, or a player's
    :class:`~solver.knowledge.Knowledge` of the play (no hand needed)."""

    @property
    def players(self) -> Tuple[str, str, str]: ...

    @property
    def auction(self) -> Optional[Auction]: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def scores(self) -> Optional[Mapping[str, Standing]]: ...


@dataclass(frozen=True)
class HandResult:
    """The score of one hand: per player scores (in ``players`` order), the
    nil bets that counted and those ignored, and with running scores the
    ledger entries and the winner (if any)."""

    declarer: str
    declarer_tricks: int
    hand_tricks: FrozenMap[str, int]
    scores: Tuple[PlayerScore, ...]
    ignored_nils: Tuple[NilBet, ...] = ()
    ledger: Optional[Tuple[LedgerEntry, ...]] = None
    winner: Optional[str] = None

    @property
    def defender_tricks(self) -> int:
        return TRICKS_PER_HAND - self.declarer_tricks

    @property
    def points_after(self) -> Dict[str, int]:
        """Each player's points after the hand, what players are ranked by:
        the running total with running scores, else the hand's points."""
        if self.ledger is not None:
            return {e.player: e.after.points for e in self.ledger}
        return {s.player: s.points for s in self.scores}

    def score_of(self, player: str) -> PlayerScore:
        for s in self.scores:
            if s.player == player:
                return s
        raise KeyError(player)

    @classmethod
    def build(cls, table: ScoredTable, declarer_tricks: int, hand_tricks: Mapping[str, int],
              nils: Sequence[NilBet], scoring: Optional[ScoringRules] = None) -> "HandResult":
        """The score of ``table``'s hand when the declarer side takes
        ``declarer_tricks`` and each hand under a bet of ``nils``
        ``hand_tricks[hand]``, under ``scoring`` (default: the table's)."""
        auction = table.auction
        assert auction is not None and auction.declarer is not None
        scoring = scoring or table.rules.scoring
        by_player = score_hand(auction.tricks_bid, auction.declarer, declarer_tricks, nils,
                               hand_tricks, scoring)
        scores = tuple(by_player[p] for p in table.players)
        ledger = winner = None
        if table.scores is not None:
            book = Ledger(table.players, scoring, dict(table.scores))
            ledger = book.record(by_player)
            winner = book.winner()
        return cls(auction.declarer, declarer_tricks, FrozenMap(hand_tricks), scores,
                   tuple(auction.ignored_nils()), ledger, winner)


def hand_result(table: ScoredTable, scoring: ScoringRules, seating: Seating,
                won: Mapping[str, int], tricks_left: int, declarer_tricks: Optional[int],
                hand_tricks: Optional[Mapping[str, int]]) -> HandResult:
    """The score of a play of ``table``'s hand with ``seating``: ``won`` the
    completed tricks by hand name, ``tricks_left`` to play. Over (no trick
    left), the totals come from the play; else ``declarer_tricks`` and the
    tricks of each hand under a nil bet that counts (``hand_tricks``) must
    be given and fit the tricks won so far."""
    auction = table.auction
    if auction is None or auction.declarer is None:
        raise DealError("the hand cannot be scored before the auction is complete",
                        field="auction", expected="three bids")
    nils = auction.applicable_nils()
    given = dict(hand_tricks or {})
    if tricks_left == 0:
        if declarer_tricks is not None or given:
            raise DealError("all 13 tricks are played, so the trick totals come from the play",
                            field="declarer_tricks" if declarer_tricks is not None else "hand_tricks",
                            expected="no trick totals given")
        side = sum(won[n] for i, n in enumerate(seating.names) if side_of(i) == DECLARER_SIDE)
        return HandResult.build(table, side, won, nils, scoring)
    if declarer_tricks is None:
        played = TRICKS_PER_HAND - tricks_left
        raise DealError(f"only {played} of 13 tricks are played", field="played",
                        expected="the declarer side's trick total for the hand")
    check_trick_totals(seating, won, tricks_left, declarer_tricks, given)
    missing = sorted({b.hand for b in nils} - set(given))
    if missing:
        raise DealError(f"the tricks of {', '.join(missing)} are not known",
                        field="hand_tricks",
                        expected="the tricks of every hand under a nil bet that counts")
    return HandResult.build(table, declarer_tricks, given, nils, scoring)


def check_trick_totals(seating: Seating, won: Mapping[str, int], tricks_left: int,
                       declarer_tricks: int, hand_tricks: Mapping[str, int]) -> None:
    """Check trick totals given for a hand against the tricks already won
    (``won`` by hand name) with ``tricks_left`` still to play."""
    side_won = sum(won[n] for i, n in enumerate(seating.names) if side_of(i) == DECLARER_SIDE)
    if not side_won <= declarer_tricks <= side_won + tricks_left:
        raise DealError(f"declarer-side tricks {declarer_tricks} cannot happen",
                        field="declarer_tricks",
                        expected=f"{side_won} to {side_won + tricks_left} "
                                 f"({side_won} won so far, {tricks_left} to play)")
    totals = {DECLARER_SIDE: declarer_tricks, DEFENDER_SIDE: TRICKS_PER_HAND - declarer_tricks}
    for side, total in totals.items():
        hands = [n for i, n in enumerate(seating.names) if side_of(i) == side]
        for name in hands:
            if name not in hand_tricks:
                continue
            t = hand_tricks[name]
            others = sum(won[o] for o in hands if o != name)
            if isinstance(t, bool) or not isinstance(t, int) or not won[name] <= t <= total - others:
                raise DealError(f"{name} cannot take {t!r} tricks", field=f"hand_tricks.{name}",
                                expected=f"{won[name]} to {total - others} "
                                         f"(their side takes {total})")
        if all(n in hand_tricks for n in hands) and sum(hand_tricks[n] for n in hands) != total:
            raise DealError(f"{' + '.join(hands)} take {sum(hand_tricks[n] for n in hands)} tricks "
                            f"but their side takes {total}", field="hand_tricks",
                            expected=f"tricks adding up to {total}")
    unknown = set(hand_tricks) - set(seating.names)
    if unknown:
        name = sorted(unknown)[0]
        raise DealError(f"unknown hand {name!r}", field=f"hand_tricks.{name}",
                        expected=f"one of {', '.join(seating.names)}")


__all__ = ["HandResult", "ScoredTable", "check_trick_totals", "hand_result"]
