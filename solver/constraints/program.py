"""The compiled form of the ``--where`` conditions: a :class:`Program` for
the compiled dealer (solver/_dealer.pyx), written by an :class:`Emitter`
that each node of the syntax tree emits its code into."""
from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Dict, FrozenSet, List

from .hands import Shape


@dataclass(frozen=True)
class Program:
    """Conditions compiled for the compiled dealer (solver/_dealer.pyx):
    the code, its constants, card masks and shape tables."""

    code: "array[int]"
    consts: "array[float]"
    masks: "array[int]"
    shapes: bytes
    depth: int


class Emitter:
    def __init__(self, ops: Dict[str, int], shape_table: int) -> None:
        self.ops = ops
        self.shape_entries = shape_table
        self.code: List[int] = []
        self.consts: List[float] = []
        self.masks: List[int] = []
        self.tables: List[bytes] = []
        self.sp = 0
        self.depth = 0

    _EFFECT = {"const": 1, "length": 1, "hcp": 1, "hcp_suit": 1, "qt": 1, "qt_suit": 1,
               "cards": 1, "has": 1, "shape": 1, "neg": 0, "not": 0, "require": -1, "end": 0}

    def op(self, name: str, *args: int) -> None:
        self.code.append(self.ops[name])
        self.code.extend(args)
        self.sp += self._EFFECT.get(name, -1)   # binary operators take two, leave one
        self.depth = max(self.depth, self.sp)

    def jump(self, name: str) -> int:
        """An ``and`` / ``or`` jump whose target is set later; its argument's index."""
        self.code.extend((self.ops[name], -1))
        self.sp -= 1    # falls through having popped; the jump keeps the value
        return len(self.code) - 1

    def const(self, value: float) -> int:
        if value not in self.consts:
            self.consts.append(value)
        return self.consts.index(value)

    def mask(self, mask: int) -> int:
        if mask not in self.masks:
            self.masks.append(mask)
        return self.masks.index(mask)

    def shape_table(self, shapes: FrozenSet[Shape]) -> int:
        table = bytearray(self.shape_entries)
        for s, h, d, _ in shapes:
            table[s * 196 + h * 14 + d] = 1
        if bytes(table) not in self.tables:
            self.tables.append(bytes(table))
        return self.tables.index(bytes(table))



__all__ = ["Emitter", "Program"]
