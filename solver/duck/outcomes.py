"""Outcomes and scores of the duck analysis (docs/DUCK.md "Outcome rows",
"Nils", "Duck effects").

Everything here follows from one number, the **defender total** ``D`` for
the whole hand, and from how the applicable nil bets settle: an
:class:`OutcomeRow` holds every real player's score exactly as ``score``
gives it (through :meth:`solver.deal.HandResult.build`, never
re-implemented here), their value, margins and the leaders.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Sequence, Tuple

from ..deal import Deal, HandResult
from ..scoring import TRICKS_PER_HAND
from ..seating import DEFENDER_SIDE


@dataclass(frozen=True)
class NilSettlement:
    """How one applicable nil bet ends in an outcome row.

    ``reason``: ``already-lost`` (the hand has won a trick), ``kept`` (its
    side takes no more than the most tricks it can take while keeping the
    nil), ``side-takes-more`` (its side takes more than that),
    ``cannot-be-kept`` (the other side can force a trick on the hand).
    ``decides``: settling it the other way would change who leads the row
    (:attr:`OutcomeRow.leaders`)."""

    bidder: str
    hand: str
    kept: bool
    points: int
    reason: str
    decides: bool = False


@dataclass(frozen=True)
class PlayerLine:
    """One real player in one outcome row. ``value`` is what the player is
    ranked by: the running total after the hand (bag penalties included) when
    the deal has running scores, else the hand score. ``margin`` = own value
    minus the best value of the other two; ``margins[other]`` = own value
    minus that player's."""

    player: str
    role: str
    bid: int
    side_tricks: int
    made: bool
    contract_points: int
    bags: int
    nil_points: int
    points: int
    before: Optional[Tuple[int, int]]        # (points, bags) before the hand
    after: Optional[Tuple[int, int]]         # (points, bags) after it
    bag_penalties: int
    value: int
    margin: int
    margins: Mapping[str, int]


@dataclass(frozen=True)
class OutcomeRow:
    """The hand ending with ``defender_tricks`` tricks for the defenders.

    ``reachable``: some legal play-out from the current position ends here
    (``None``: not determined within the time limit). ``reachable_by``: the
    real players who can bring this total about by their own choice of cards
    (see :class:`PlayerOptions`)."""

    defender_tricks: int
    declarer_tricks: int
    players: Tuple[PlayerLine, ...]
    nils: Tuple[NilSettlement, ...]
    leaders: Tuple[str, ...]      # the player(s) with the highest value
    winner: Optional[str]         # game winner (running scores only)
    marks: Tuple[str, ...] = ()
    reachable: Optional[bool] = True
    reachable_by: Tuple[str, ...] = ()

    def line(self, player: str) -> PlayerLine:
        for p in self.players:
            if p.player == player:
                return p
        raise KeyError(player)

    def value(self, player: str) -> int:
        return self.line(player).value

    @property
    def nil_decides(self) -> bool:
        return any(n.decides for n in self.nils)


@dataclass(frozen=True)
class NilStatus:
    """An applicable nil bet at the current position: ``keep_max`` is the
    most tricks (whole hand) the nil hand's side can take while keeping the
    hand trickless against the other side's best attempt to force a trick on
    it (``None``: the other side can force one); ``won``: tricks the hand has
    already won (the bet is lost if any)."""

    bidder: str
    hand: str
    seat: int
    side: int                   # DECLARER_SIDE or DEFENDER_SIDE
    won: int
    keep_max: Optional[int]

    def side_total(self, defender_tricks: int) -> int:
        return defender_tricks if self.side == DEFENDER_SIDE else TRICKS_PER_HAND - defender_tricks

    def settle(self, defender_tricks: int, keep_max: Optional[int] = None,
               use_given: bool = False) -> Tuple[bool, str]:
        """(kept, reason) in a row with ``defender_tricks``. The nil is kept
        iff its hand has won nothing yet, its side can keep it, and the side
        takes no more than ``keep_max`` tricks (``use_given``: this
        ``keep_max`` instead of the position's, for the card level)."""
        k = keep_max if use_given else self.keep_max
        if self.won:
            return False, "already-lost"
        if k is None:
            return False, "cannot-be-kept"
        if self.side_total(defender_tricks) <= k:
            return True, "kept"
        return False, "side-takes-more"


@dataclass(frozen=True)
class DuckEffect:
    """A player's outcome compared with the cooperative outcome: the change
    in their value (``own_change``) and in their margin (``margin_change``)."""

    player: str
    kind: str                  # "duck" (a defender's fewest), "settle" (declarer), "best"
    total: Optional[int]
    own_change: Optional[int]
    margin_change: Optional[int]

    @property
    def raises_own(self) -> bool:
        return bool(self.own_change and self.own_change > 0)

    @property
    def raises_margin(self) -> bool:
        return bool(self.margin_change and self.margin_change > 0)


def _leaders(values: Mapping[str, int]) -> Tuple[str, ...]:
    top = max(values.values())
    return tuple(p for p, v in values.items() if v == top)


class OutcomeRows:
    """Outcome rows for a deal: nil settlement, scores, values, margins.

    ``outcome(d)`` settles each applicable nil with the position's
    ``keep_max`` (:meth:`NilStatus.settle`); ``outcome(d, keep_max)`` with
    the given ``keep_max`` per nil hand instead (the card level)."""

    def __init__(self, deal: Deal, nils: Sequence[NilStatus]) -> None:
        assert deal.auction is not None
        self.deal = deal
        self.nils = {n.hand: n for n in nils}
        self.bets = deal.auction.applicable_nils()

    def _result(self, d: int, kept: Mapping[str, bool]) -> HandResult:
        hand_tricks = {h: (0 if kept[h] else max(1, n.won)) for h, n in self.nils.items()}
        return HandResult.build(self.deal, TRICKS_PER_HAND - d, hand_tricks, self.bets)

    def outcome(self, d: int, keep_max: Optional[Mapping[str, Optional[int]]] = None) -> OutcomeRow:
        """The row for defender total ``d``, each nil settled by :meth:`settle`."""
        return self.row(d, self.settle(d, keep_max))

    def settle(self, d: int, keep_max: Optional[Mapping[str, Optional[int]]] = None
               ) -> Dict[str, Tuple[bool, str]]:
        """``{nil hand: (kept, reason)}`` at defender total ``d``."""
        return {h: (n.settle(d, keep_max[h], use_given=True) if keep_max is not None
                    else n.settle(d)) for h, n in self.nils.items()}

    def row(self, d: int, settled: Mapping[str, Tuple[bool, str]]) -> OutcomeRow:
        """The row for defender total ``d`` with the nils settled as given."""
        kept = {h: k for h, (k, _) in settled.items()}
        result = self._result(d, kept)
        values = result.points_after
        leaders = _leaders(values)
        return OutcomeRow(d, TRICKS_PER_HAND - d, _lines(result, values),
                       self._nil_rows(d, settled, result, leaders), leaders, result.winner)

    def _nil_rows(self, d: int, settled: Mapping[str, Tuple[bool, str]], result: HandResult,
                  leaders: Tuple[str, ...]) -> Tuple[NilSettlement, ...]:
        kept = {h: k for h, (k, _) in settled.items()}
        rows = []
        for bet in self.bets:
            k, reason = settled[bet.hand]
            decides = False
            if reason != "already-lost":
                flipped = self._result(d, {**kept, bet.hand: not k})
                decides = _leaders(flipped.points_after) != leaders
            pts = next(r.points for r in result.score_of(bet.bidder).nils if r.hand == bet.hand)
            rows.append(NilSettlement(bet.bidder, bet.hand, k, pts, reason, decides))
        return tuple(rows)


def _lines(result: HandResult, values: Mapping[str, int]) -> Tuple[PlayerLine, ...]:
    """Each real player's line: score, running total, value and margins."""
    entries = {e.player: e for e in result.ledger} if result.ledger is not None else {}
    lines = []
    for s in result.scores:
        others = {p: v for p, v in values.items() if p != s.player}
        e = entries.get(s.player)
        lines.append(PlayerLine(
            s.player, s.role, s.bid, s.side_tricks, s.made, s.contract_points, s.bags,
            s.nil_points, s.points,
            (e.before.points, e.before.bags) if e else None,
            (e.after.points, e.after.bags) if e else None,
            e.bag_penalties if e else 0,
            values[s.player], values[s.player] - max(others.values()),
            {p: values[s.player] - v for p, v in others.items()}))
    return tuple(lines)


def best_total(totals: Sequence[int], player: str, rows: Mapping[int, OutcomeRow],
               coop: int) -> Optional[int]:
    """Among ``totals`` with a row, the one with the highest value for
    ``player``; ties go to the higher margin, then to the total nearer the
    cooperative one. ``None`` when no total has a row."""
    totals = [t for t in totals if t in rows]
    if not totals:
        return None
    return max(totals, key=lambda t: (rows[t].value(player), rows[t].line(player).margin,
                                      -abs(t - coop)))


def effect(player: str, kind: str, total: Optional[int], rows: Mapping[int, OutcomeRow],
           base: OutcomeRow) -> DuckEffect:
    """``player``'s outcome at ``total`` against the ``base`` row (the
    cooperative one); no changes when ``total`` is unknown or has no row."""
    if total is None or total not in rows:
        return DuckEffect(player, kind, total, None, None)
    own, margin = changes(player, rows[total], base)
    return DuckEffect(player, kind, total, own, margin)


def changes(player: str, row: OutcomeRow, base: OutcomeRow) -> Tuple[int, int]:
    """``player``'s value and margin in ``row`` minus those in ``base``."""
    return (row.value(player) - base.value(player),
            row.line(player).margin - base.line(player).margin)
