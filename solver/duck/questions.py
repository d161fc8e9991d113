"""The position-level questions of the duck analysis (docs/DUCK.md).

Every function here takes a :class:`~solver.position.Position` and
answers one double-dummy question about the **defender total**: the tricks
the two defenders take from that position on, the trick in progress
included. They are all engine queries, through an :class:`Oracle`:

* :func:`team_splits`: the zero-sum games of the hand level (cooperative,
  each defender's duck, the lowest and highest totals);
* :func:`nil_keep_max` / :func:`card_nil_keep_max`: the nil-aware query;
* :func:`card_totals`: every legal card's total when play is cooperative
  afterwards.

Seats: 0 declarer, 1 left defender, 2 dummy, 3 right defender.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Tuple

from ..backend import solver_class
from ..limits import DUCK_TT_MB

from ..contract import CardGroups, Solver
from ..position import ALL_SEATS, Position
from ..seating import (DECLARER_SIDE, DEFENDER_SIDE, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT,
                       side_of)

DEFENDER_SEATS = (LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT)


class OverBudget(Exception):
    """A search of the duck analysis went past its node budget (the
    searches that have one end with no answer)."""


class Oracle:
    """The double-dummy queries of the analysis, on one backend
    (:func:`solver.backend.solver_class`): the compiled engine by default,
    ``backend="reference"`` for the pure-Python twin (tests on small
    positions). One solver per kind of query (side, count, nil seat), so the
    transposition tables of different games stay apart. ``queries`` counts
    the calls made."""

    def __init__(self, backend: Optional[str] = None, tt_mb: float = DUCK_TT_MB) -> None:
        self._make = solver_class(backend)   # EngineNotBuiltError, ValueError
        self.tt_mb = tt_mb
        self.queries = 0
        self._solvers: Dict[Tuple[int, int, int], Solver] = {}

    def _solver(self, side: int, count: int, nil_seat: Optional[int]) -> Solver:
        key = (side, count, -1 if nil_seat is None else nil_seat)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = self._make(self.tt_mb)
        return solver

    def max_tricks(self, pos: Position, side: int, count: int,
                   nil_seat: Optional[int] = None) -> int:
        """``max_tricks`` of the engine contract (``-1``: the nil cannot be kept)."""
        self.queries += 1
        return self._solver(side, count, nil_seat).max_tricks(pos, side, count, nil_seat)

    def at_least(self, pos: Position, side: int, count: int, target: int) -> bool:
        """Is ``max_tricks(pos, side, count) >= target``? (one null-window search)"""
        if target <= 0:
            return True
        if target > pos.tricks_left:
            return False
        self.queries += 1
        return self._solver(side, count, None).at_least(pos, side, target, count)

    def card_groups(self, pos: Position, side: int, count: int,
                    nil_seat: Optional[int] = None) -> CardGroups:
        """Legal cards of the player to move in groups of equivalent cards, each
        with its value (``card_values`` semantics: the trick in progress included)."""
        self.queries += 1
        return self._solver(side, count, nil_seat).card_groups(pos, side, count, nil_seat)


_default_oracle: Optional[Oracle] = None


def default_oracle() -> Oracle:
    global _default_oracle
    if _default_oracle is None:
        _default_oracle = Oracle()
    return _default_oracle


# ------------------------------------------------------------------ positions
def after_card(pos: Position, card: int) -> Tuple[Position, int]:
    """The position after ``card`` (:meth:`Position.play`) and the defender
    tricks it completes (0 or 1)."""
    after, winner = after_card_won_by(pos, card)
    return after, 1 if winner is not None and DEFENDER_SIDE >> winner & 1 else 0


def after_card_won_by(pos: Position, card: int) -> Tuple[Position, Optional[int]]:
    """The position after ``card`` (:meth:`Position.play`) and the seat that
    wins the trick it completes (``None`` while the trick goes on)."""
    after = pos.play(card)
    return after, None if after.trick else after.leader


# ---------------------------------------------------------------- team splits
@dataclass(frozen=True)
class TeamSplits:
    """Defender tricks from a position on (trick in progress included), each
    the value of a zero-sum double-dummy game (docs/DUCK.md):

    * ``cooperative``: both defenders maximise, the declarer minimises
      (``side`` = both defenders).
    * ``duck[seat]`` for a defender seat X: the fewest the declarer and X
      together can hold the defenders to while the other defender Y
      maximises (``side`` = {declarer, dummy, X}, ``count`` = {declarer,
      dummy}; defenders = tricks left - that). Equal to the most Y alone can
      make sure of.
    * ``lowest`` / ``highest``: the fewest / most of any legal play-out
      (everyone cooperating to minimise / maximise); ``None`` unless asked for
      (these two searches can be slow on full deals).
    """

    tricks_left: int
    cooperative: int
    duck: Mapping[int, int]
    lowest: Optional[int] = None
    highest: Optional[int] = None


def team_splits(pos: Position, oracle: Optional[Oracle] = None,
                extremes: bool = True) -> TeamSplits:
    oracle = oracle or default_oracle()
    left = pos.tricks_left
    coop = oracle.max_tricks(pos, DEFENDER_SIDE, DEFENDER_SIDE)
    duck = {}
    for x in DEFENDER_SEATS:
        duck[x] = left - oracle.max_tricks(pos, DECLARER_SIDE | (1 << x), DECLARER_SIDE)
    if not extremes:
        return TeamSplits(left, coop, duck)
    return TeamSplits(left, coop, duck, lowest_total(pos, oracle), highest_total(pos, oracle))


def lowest_total(pos: Position, oracle: Optional[Oracle] = None) -> int:
    """The fewest defender tricks of any legal play-out from ``pos`` on."""
    oracle = oracle or default_oracle()
    return pos.tricks_left - oracle.max_tricks(pos, ALL_SEATS, DECLARER_SIDE)


def highest_total(pos: Position, oracle: Optional[Oracle] = None) -> int:
    """The most defender tricks of any legal play-out from ``pos`` on."""
    oracle = oracle or default_oracle()
    return oracle.max_tricks(pos, ALL_SEATS, DEFENDER_SIDE)


# ------------------------------------------------------------------------ nils
def nil_keep_max(pos: Position, seat: int, oracle: Optional[Oracle] = None) -> int:
    """The most tricks (from ``pos`` on) the side of ``seat`` can take while
    keeping ``seat`` trickless, against the other side trying first to make
    it win a trick and then to hold the side's tricks down; ``-1`` when the
    other side can force a trick on it."""
    oracle = oracle or default_oracle()
    side = side_of(seat)
    return oracle.max_tricks(pos, side, side, nil_seat=seat)


def card_nil_keep_max(pos: Position, seat: int,
                      oracle: Optional[Oracle] = None) -> Dict[int, int]:
    """:func:`nil_keep_max` after each legal card of the player to move."""
    oracle = oracle or default_oracle()
    side = side_of(seat)
    return by_card(oracle.card_groups(pos, side, side, nil_seat=seat))


def by_card(groups: CardGroups) -> Dict[int, int]:
    """``{card: value}`` from groups of equivalent cards."""
    return {c: v for cards, v in groups for c in cards}


# ------------------------------------------------------------------ card level
def card_totals(pos: Position, oracle: Optional[Oracle] = None) -> CardGroups:
    """Groups of equivalent legal cards of the player to move, each with the
    defender tricks (from ``pos`` on, trick in progress included) that follow
    when play is cooperative afterwards (defenders maximise, declarer minimises)."""
    oracle = oracle or default_oracle()
    return oracle.card_groups(pos, DEFENDER_SIDE, DEFENDER_SIDE)
