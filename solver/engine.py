"""The compiled double-dummy engine, behind the interface of solver.reference.

Same functions, arguments and semantics as :mod:`solver.reference` (its
module docstring is the specification):

``max_tricks(hands, leader, side, trick=(), spades_broken=False,
breaking=True, count=None, nil_seat=None) -> int``
    the most tricks (of the seats in ``count``, default ``side``) the side
    can take from the trick in progress on; ``-1`` when ``nil_seat`` is given
    and its nil cannot be kept.

``card_values(...) -> dict[card, int]``
    the value of every legal card of the player to move (never omitting one).

``card_groups(...) -> list[tuple[tuple[int, ...], int]]``
    the legal cards grouped into sets of equivalent cards (adjacent cards of
    one suit in the hand to move once the cards of finished tricks are
    removed), each with its value, like DDS's all-cards mode; every legal card
    is in exactly one group.  Groups are listed best value first (for the
    player to move), then by suit and rank; each group's cards ascend.

``optimal_line(...) -> list[int]``
    the cards of one optimal play-out from the position to the end of the hand.

Module-level functions use a lazily created default :class:`Solver`; create
your own ``Solver(tt_mb=...)`` to control the transposition table's memory or
to keep tables apart (one per thread or process).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .cards import iter_cards
from .play import Position as PlayPosition
from .reference import NIL_LOST, PositionError, check_position

__all__ = [
    "EngineNotBuiltError", "NIL_LOST", "PositionError", "Solver", "DEFAULT_TT_MB",
    "max_tricks", "card_values", "card_groups", "optimal_line", "default_solver",
]


class EngineNotBuiltError(ImportError):
    """The compiled extension solver._engine is missing."""


try:
    from . import _engine
except ImportError as exc:  # pragma: no cover - depends on the build
    raise EngineNotBuiltError(
        "the compiled engine solver._engine is not built: run `pip install -e .` "
        "(or `python setup.py build_ext --inplace`) in the dummy-spades checkout"
    ) from exc

DEFAULT_TT_MB: float = _engine.DEFAULT_TT_MB

Query = Tuple[PlayPosition, int, int, int]


def _normalise(hands: Sequence[int], leader: int, side: int, trick: Sequence[int],
               spades_broken: bool, breaking: bool, count: Optional[int],
               nil_seat: Optional[int]) -> Query:
    """The compiled questions' arguments: (position, side, count, nil seat or -1)."""
    try:
        hands_t = tuple(int(h) for h in hands)
        trick_t = tuple(int(c) for c in trick)
        leader = int(leader)
        side = int(side)
    except (TypeError, ValueError) as exc:
        raise PositionError(f"position fields must be integers: {exc}") from None
    check_position(hands_t, leader, side, trick_t, nil_seat)
    if count is None:
        count = side
    count = int(count)
    if not 0 <= count <= 15:
        raise PositionError(f"count must be a seat mask 0..15, not {count!r}")
    if nil_seat is not None:
        nil_seat = int(nil_seat)
        if not 0 <= nil_seat <= 3:
            raise PositionError(f"nil_seat must be a seat 0..3, not {nil_seat!r}")
    pos = PlayPosition(hands_t, leader, trick_t, bool(spades_broken), bool(breaking))
    return pos, side, count, -1 if nil_seat is None else nil_seat


def _cards_of(mask: int) -> Tuple[int, ...]:
    return tuple(iter_cards(mask))


class Solver:
    """A double-dummy solver owning one transposition table.

    ``tt_mb`` bounds the table's memory (megabytes); the table starts small
    and grows up to the bound, then replaces old entries.  ``nodes`` counts
    the search nodes visited since the solver was made (or since
    :meth:`clear` / :meth:`reset_stats`).  Entries stay valid across
    positions and queries, so reusing a solver speeds up related queries.
    """

    def __init__(self, tt_mb: float = DEFAULT_TT_MB) -> None:
        try:
            tt_mb = float(tt_mb)
        except (TypeError, ValueError):
            raise ValueError(f"tt_mb must be a number of megabytes, not {tt_mb!r}") from None
        if not tt_mb > 0:
            raise ValueError(f"tt_mb must be a positive number of megabytes, not {tt_mb!r}")
        self._core = _engine.Solver(tt_mb)

    @property
    def tt_mb(self) -> float:
        return self._core.tt_mb

    @property
    def nodes(self) -> int:
        return self._core.nodes

    @property
    def trick_nodes(self) -> int:
        """Search nodes at trick starts (what DDS counts as nodes)."""
        return self._core.trick_nodes

    @property
    def tt_entries(self) -> int:
        return self._core.tt_entries

    @property
    def tt_bytes(self) -> int:
        return self._core.tt_bytes

    def clear(self) -> None:
        """Empty the transposition table (cold start) and zero the statistics."""
        self._core.clear()

    def reset_stats(self) -> None:
        self._core.reset_stats()

    def max_tricks(self, hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                   spades_broken: bool = False, breaking: bool = True,
                   count: Optional[int] = None, nil_seat: Optional[int] = None) -> int:
        pos = _normalise(hands, leader, side, trick, spades_broken, breaking, count, nil_seat)
        return self._core.max_tricks(*pos)

    def at_least(self, hands: Sequence[int], leader: int, side: int, target: int,
                 trick: Sequence[int] = (), spades_broken: bool = False, breaking: bool = True,
                 count: Optional[int] = None, nil_seat: Optional[int] = None) -> bool:
        """Is ``max_tricks(...) >= target``? One null-window search, cheaper
        than the exact value. With ``nil_seat`` and ``target=0``: can the side
        keep that seat from winning any trick?"""
        target = int(target)
        return self.bound(hands, leader, side, target, trick, spades_broken, breaking,
                          count, nil_seat) >= target

    def bound(self, hands: Sequence[int], leader: int, side: int, target: int,
              trick: Sequence[int] = (), spades_broken: bool = False, breaking: bool = True,
              count: Optional[int] = None, nil_seat: Optional[int] = None) -> int:
        """The fail-soft result of the null-window search behind
        :meth:`at_least`: a value ``v >= target`` means ``max_tricks(...) >= v``,
        a value ``v < target`` means ``max_tricks(...) <= v`` (``-1``: the nil
        cannot be kept). Lets a caller narrow a value in few searches."""
        pos = _normalise(hands, leader, side, trick, spades_broken, breaking, count, nil_seat)
        return self._core.bound(*pos, int(target))

    def card_groups(self, hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                    spades_broken: bool = False, breaking: bool = True,
                    count: Optional[int] = None,
                    nil_seat: Optional[int] = None) -> List[Tuple[Tuple[int, ...], int]]:
        pos = _normalise(hands, leader, side, trick, spades_broken, breaking, count, nil_seat)
        groups = [(_cards_of(mask), value) for mask, value in self._core.card_groups(*pos)]
        position, side = pos[0], pos[1]
        seat = (position.leader + len(position.trick)) % 4
        sign = -1 if side >> seat & 1 else 1
        groups.sort(key=lambda g: (sign * g[1], g[0][0]))
        return groups

    def card_values(self, hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                    spades_broken: bool = False, breaking: bool = True,
                    count: Optional[int] = None, nil_seat: Optional[int] = None) -> Dict[int, int]:
        pos = _normalise(hands, leader, side, trick, spades_broken, breaking, count, nil_seat)
        out: Dict[int, int] = {}
        for mask, value in self._core.card_groups(*pos):
            for card in iter_cards(mask):
                out[card] = value
        return dict(sorted(out.items()))

    def optimal_line(self, hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                     spades_broken: bool = False, breaking: bool = True,
                     count: Optional[int] = None, nil_seat: Optional[int] = None) -> List[int]:
        pos = _normalise(hands, leader, side, trick, spades_broken, breaking, count, nil_seat)
        return self._core.optimal_line(*pos)


_default: Optional[Solver] = None


def default_solver() -> Solver:
    """The module's shared Solver (created on first use)."""
    global _default
    if _default is None:
        _default = Solver()
    return _default


def max_tricks(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
               spades_broken: bool = False, breaking: bool = True,
               count: Optional[int] = None, nil_seat: Optional[int] = None) -> int:
    return default_solver().max_tricks(hands, leader, side, trick, spades_broken, breaking,
                                       count, nil_seat)


def card_values(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                spades_broken: bool = False, breaking: bool = True,
                count: Optional[int] = None, nil_seat: Optional[int] = None) -> Dict[int, int]:
    return default_solver().card_values(hands, leader, side, trick, spades_broken, breaking,
                                        count, nil_seat)


def card_groups(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                spades_broken: bool = False, breaking: bool = True,
                count: Optional[int] = None,
                nil_seat: Optional[int] = None) -> List[Tuple[Tuple[int, ...], int]]:
    return default_solver().card_groups(hands, leader, side, trick, spades_broken, breaking,
                                        count, nil_seat)


def optimal_line(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                 spades_broken: bool = False, breaking: bool = True,
                 count: Optional[int] = None, nil_seat: Optional[int] = None) -> List[int]:
    return default_solver().optimal_line(hands, leader, side, trick, spades_broken, breaking,
                                         count, nil_seat)
