"""The syntax tree of a constraint: the numbers (:class:`Number`,
:class:`Length`, :class:`Hcp`, :class:`QuickTricks`, :class:`CardCount`,
arithmetic) and the conditions (:class:`Boolean`: holdings, shapes,
comparisons, ``not``, ``and`` / ``or``), each with its range of values, its
value on a deal (the definition, in Python) and the code it emits for the
compiled dealer; and :class:`Condition`, one parsed expression."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, ClassVar, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..cards import SUIT_MASK
from ..cards import count as popcount
from ..scoring import TRICKS_PER_HAND
from .hands import (DECK_HCP, MAX_HCP, MAX_LENGTH, MAX_QT, MAX_SUIT_HCP, MAX_SUIT_QT, Hands,
                    Shape, Table)
from .program import Emitter


@dataclass(frozen=True)
class Node:
    """A parsed expression: its source span ``[start, end)`` (0-based)."""

    start: int
    end: int

    @property
    def is_number(self) -> bool:
        return True

    @property
    def low(self) -> float:
        return 0.0

    @property
    def high(self) -> float:
        return 0.0

    @property
    def hcp_only(self) -> bool:
        """A sum of high-card points (the deck holds 40 in all)."""
        return False

    def value(self, hands: Hands) -> float:
        raise NotImplementedError

    def emit(self, out: Emitter) -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Number(Node):
    number: float = 0.0

    @property
    def low(self) -> float:
        return self.number

    @property
    def high(self) -> float:
        return self.number

    def value(self, hands: Hands) -> float:
        return self.number

    def emit(self, out: Emitter) -> None:
        out.op("const", out.const(self.number))


@dataclass(frozen=True)
class Length(Node):
    hand: int = 0
    suit: int = 0

    @property
    def high(self) -> float:
        return MAX_LENGTH

    def value(self, hands: Hands) -> float:
        return popcount(hands[self.hand] & SUIT_MASK[self.suit])

    def emit(self, out: Emitter) -> None:
        out.op("length", self.hand, self.suit)


_POINTS = {14: 4, 13: 3, 12: 2, 11: 1}


def _ranks(hand: int, suit: int) -> List[int]:
    bits = hand >> (13 * suit) & 0x1FFF
    return [r + 2 for r in range(13) if bits >> r & 1]


def _suits(suit: Optional[int]) -> Sequence[int]:
    return range(4) if suit is None else (suit,)


@dataclass(frozen=True)
class SuitSum(Node):
    """A count of a hand's suits, summed over one suit (``suit``) or all four."""

    hand: int = 0
    suit: Optional[int] = None
    #: the opcodes for the whole hand and for one suit, and their ranges' tops
    OPS: ClassVar[Tuple[str, str]] = ("", "")
    HIGH: ClassVar[Tuple[float, float]] = (0.0, 0.0)

    @property
    def high(self) -> float:
        return self.HIGH[0] if self.suit is None else self.HIGH[1]

    def of_suit(self, ranks: Sequence[int]) -> float:
        raise NotImplementedError

    def value(self, hands: Hands) -> float:
        return sum(self.of_suit(_ranks(hands[self.hand], s)) for s in _suits(self.suit))

    def emit(self, out: Emitter) -> None:
        if self.suit is None:
            out.op(self.OPS[0], self.hand)
        else:
            out.op(self.OPS[1], self.hand, self.suit)


@dataclass(frozen=True)
class Hcp(SuitSum):
    """High-card points: ace 4, king 3, queen 2, jack 1."""

    OPS = ("hcp", "hcp_suit")
    HIGH = (MAX_HCP, MAX_SUIT_HCP)

    @property
    def hcp_only(self) -> bool:
        return True

    def of_suit(self, ranks: Sequence[int]) -> float:
        return sum(_POINTS.get(r, 0) for r in ranks)


def suit_quick_tricks(ranks: Sequence[int]) -> float:
    """Quick tricks of one suit's ranks: AK 2, AQ 1.5, A 1, KQ 1, K with
    another card 0.5, else 0 (docs/DEAL.md "Quick tricks")."""
    held = set(ranks)
    if 14 in held:
        return 2.0 if 13 in held else 1.5 if 12 in held else 1.0
    if 13 in held:
        return 1.0 if 12 in held else 0.5 if len(held) >= 2 else 0.0
    return 0.0


@dataclass(frozen=True)
class QuickTricks(SuitSum):
    OPS = ("qt", "qt_suit")
    HIGH = (MAX_QT, MAX_SUIT_QT)

    def of_suit(self, ranks: Sequence[int]) -> float:
        return suit_quick_tricks(ranks)


@dataclass(frozen=True)
class CardCount(Node):
    """How many of the listed cards the hand holds."""

    hand: int = 0
    mask: int = 0

    @property
    def high(self) -> float:
        return min(popcount(self.mask), TRICKS_PER_HAND)

    def value(self, hands: Hands) -> float:
        return popcount(hands[self.hand] & self.mask)

    def emit(self, out: Emitter) -> None:
        out.op("cards", self.hand, out.mask(self.mask))


@dataclass(frozen=True)
class Negative(Node):
    operand: Node = field(default_factory=lambda: Number(0, 0))

    @property
    def low(self) -> float:
        return -self.operand.high

    @property
    def high(self) -> float:
        return -self.operand.low

    def value(self, hands: Hands) -> float:
        return -self.operand.value(hands)

    def emit(self, out: Emitter) -> None:
        self.operand.emit(out)
        out.op("neg")


@dataclass(frozen=True)
class Arithmetic(Node):
    op: str = "+"
    left: Node = field(default_factory=lambda: Number(0, 0))
    right: Node = field(default_factory=lambda: Number(0, 0))

    @property
    def hcp_only(self) -> bool:
        return self.op == "+" and self.left.hcp_only and self.right.hcp_only

    @property
    def low(self) -> float:
        if self.op == "+":
            return self.left.low + self.right.low
        return self.left.low - self.right.high

    @property
    def high(self) -> float:
        if self.op == "+":
            top = self.left.high + self.right.high
            return min(top, DECK_HCP) if self.hcp_only else top
        return self.left.high - self.right.low

    def value(self, hands: Hands) -> float:
        a, b = self.left.value(hands), self.right.value(hands)
        return a + b if self.op == "+" else a - b

    def emit(self, out: Emitter) -> None:
        self.left.emit(out)
        self.right.emit(out)
        out.op(self.op)


class Boolean(Node):
    """A node whose value is true or false."""

    @property
    def is_number(self) -> bool:
        return False

    def holds(self, hands: Hands) -> bool:
        raise NotImplementedError

    def value(self, hands: Hands) -> float:
        return 1.0 if self.holds(hands) else 0.0


@dataclass(frozen=True)
class Holds(Boolean):
    """Whether the hand holds every listed card."""

    hand: int = 0
    mask: int = 0

    def holds(self, hands: Hands) -> bool:
        return hands[self.hand] & self.mask == self.mask

    def emit(self, out: Emitter) -> None:
        out.op("has", self.hand, out.mask(self.mask))


@dataclass(frozen=True)
class ShapeIs(Boolean):
    """Whether the hand's shape is one of ``shapes``."""

    hand: int = 0
    shapes: FrozenSet[Shape] = frozenset()

    def holds(self, hands: Hands) -> bool:
        shape = tuple(popcount(hands[self.hand] & SUIT_MASK[s]) for s in range(4))
        return shape in self.shapes

    def emit(self, out: Emitter) -> None:
        out.op("shape", self.hand, out.shape_table(self.shapes))


COMPARE: Dict[str, Callable[[float, float], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


@dataclass(frozen=True)
class Comparison(Boolean):
    op: str = "=="
    left: Node = field(default_factory=lambda: Number(0, 0))
    right: Node = field(default_factory=lambda: Number(0, 0))

    def holds(self, hands: Hands) -> bool:
        return COMPARE[self.op](self.left.value(hands), self.right.value(hands))

    def emit(self, out: Emitter) -> None:
        self.left.emit(out)
        self.right.emit(out)
        out.op(self.op)


@dataclass(frozen=True)
class Not(Boolean):
    operand: Node = field(default_factory=lambda: Number(0, 0))

    def holds(self, hands: Hands) -> bool:
        return not self.operand.value(hands)

    def emit(self, out: Emitter) -> None:
        self.operand.emit(out)
        out.op("not")


@dataclass(frozen=True)
class Logic(Boolean):
    """``and`` / ``or`` of two or more conditions, evaluated left to right
    until the answer is known."""

    op: str = "and"
    operands: Tuple[Node, ...] = ()

    def holds(self, hands: Hands) -> bool:
        if self.op == "and":
            return all(o.value(hands) for o in self.operands)
        return any(o.value(hands) for o in self.operands)

    def emit(self, out: Emitter) -> None:
        jumps = []
        for i, operand in enumerate(self.operands):
            operand.emit(out)
            if i < len(self.operands) - 1:
                jumps.append(out.jump(self.op))
        for at in jumps:
            out.code[at] = len(out.code)


# ------------------------------------------------------------------- the condition
@dataclass(frozen=True)
class Condition:
    """One parsed ``--where`` expression over the hands of :attr:`table`."""

    text: str
    table: Table
    tree: Boolean

    def holds(self, hands: Hands) -> bool:
        """Whether the deal ``hands`` (deal-file order) satisfies it."""
        return self.tree.holds(hands)

    def __str__(self) -> str:
        return " ".join(self.text.split())


__all__ = ["COMPARE", "Arithmetic", "Boolean", "CardCount", "Comparison", "Condition", "Hcp",
           "Holds", "Length", "Logic", "Negative", "Node", "Not", "Number", "QuickTricks",
           "ShapeIs", "SuitSum", "suit_quick_tricks"]
