"""The position-level questions of the duck analysis (docs/DUCK.md).

Every function here takes an engine :class:`~solver.play.Position` and
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
from typing import Dict, List, Mapping, Optional, Tuple

from ..cards import count as popcount
from ..play import Position
from ..rules import breaks_spades, trick_winner
from ..seating import (DECLARER_SIDE, DEFENDER_SIDE, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT,
                       side_of)

ALL_SEATS = 0b1111
DEFENDER_SEATS = (LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT)

#: Legal cards of the player to move in groups of equivalent cards, each with a value.
CardGroups = List[Tuple[Tuple[int, ...], int]]


class Oracle:
    """The double-dummy queries of the analysis, on one backend.

    ``backend="engine"``: the compiled engine (:mod:`solver.engine`), one
    :class:`solver.engine.Solver` per kind of query (side, count, nil seat), so
    the transposition tables of different games stay apart.
    ``backend="reference"``: the pure-Python twin (:mod:`solver.reference`),
    for tests on small positions. ``queries`` counts the calls made.
    """

    def __init__(self, backend: str = "engine", tt_mb: float = 32.0) -> None:
        if backend not in ("engine", "reference"):
            raise ValueError(f"unknown backend {backend!r}; expected 'engine' or 'reference'")
        self.backend = backend
        self.tt_mb = tt_mb
        self.queries = 0
        self._solvers: Dict[Tuple[int, int, int], object] = {}
        if backend == "engine":
            from .. import engine  # raises EngineNotBuiltError (an ImportError) if not built
            self._engine = engine
        else:
            from .. import reference
            self._reference = reference

    def _solver(self, side: int, count: int, nil_seat: Optional[int]):  # type: ignore[no-untyped-def]
        key = (side, count, -1 if nil_seat is None else nil_seat)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = self._engine.Solver(self.tt_mb)
        return solver

    def max_tricks(self, pos: Position, side: int, count: int,
                   nil_seat: Optional[int] = None) -> int:
        """``max_tricks`` of the engine interface (``-1``: the nil cannot be kept)."""
        self.queries += 1
        args = (pos.hands, pos.leader, side, pos.trick, pos.spades_broken, pos.breaking, count,
                nil_seat)
        if self.backend == "engine":
            return self._solver(side, count, nil_seat).max_tricks(*args)
        return self._reference.max_tricks(*args)

    def at_least(self, pos: Position, side: int, count: int, target: int) -> bool:
        """Is ``max_tricks(pos, side, count) >= target``? (one null-window search)"""
        if target <= 0:
            return True
        if target > tricks_left(pos):
            return False
        self.queries += 1
        if self.backend == "engine":
            solver = self._solver(side, count, None)
            return bool(solver.at_least(pos.hands, pos.leader, side, target, pos.trick,  # type: ignore[attr-defined]
                                        pos.spades_broken, pos.breaking, count))
        return self._reference.max_tricks(pos.hands, pos.leader, side, pos.trick, pos.spades_broken,
                                          pos.breaking, count) >= target

    def card_groups(self, pos: Position, side: int, count: int,
                    nil_seat: Optional[int] = None) -> CardGroups:
        """Legal cards of the player to move in groups of equivalent cards, each
        with its value (``card_values`` semantics: the trick in progress included)."""
        self.queries += 1
        args = (pos.hands, pos.leader, side, pos.trick, pos.spades_broken, pos.breaking, count,
                nil_seat)
        if self.backend == "engine":
            return [(tuple(c), v) for c, v in self._solver(side, count, nil_seat).card_groups(*args)]
        values = self._reference.card_values(*args)
        return [((card,), v) for card, v in sorted(values.items())]


_default_oracle: Optional[Oracle] = None


def default_oracle() -> Oracle:
    global _default_oracle
    if _default_oracle is None:
        _default_oracle = Oracle()
    return _default_oracle


# ------------------------------------------------------------------ positions
def tricks_left(pos: Position) -> int:
    """Tricks still to be completed, the one in progress included."""
    return popcount(pos.hands[pos.leader]) + (1 if pos.trick else 0)


def to_move(pos: Position) -> int:
    return (pos.leader + len(pos.trick)) % 4


def is_over(pos: Position) -> bool:
    return not any(pos.hands) and not pos.trick


def play_card(pos: Position, card: int) -> Tuple[Position, int]:
    """The position after ``card`` (legal, of the seat to move) and the
    defender tricks it completes (0 or 1)."""
    seat = to_move(pos)
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = pos.trick + (card,)
    if len(trick) < 4:
        return Position(tuple(hands), pos.leader, trick, pos.spades_broken, pos.breaking), 0  # type: ignore[arg-type]
    winner = (pos.leader + trick_winner(trick)) % 4
    broken = pos.spades_broken or breaks_spades(trick)
    won = 1 if DEFENDER_SIDE >> winner & 1 else 0
    return Position(tuple(hands), winner, (), broken, pos.breaking), won  # type: ignore[arg-type]


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
    left = tricks_left(pos)
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
    return tricks_left(pos) - oracle.max_tricks(pos, ALL_SEATS, DECLARER_SIDE)


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
