"""The constraint language of ``dummy-spades deal --where`` (docs/DEAL.md
"Constraints").

A constraint is a condition on the four hands of a deal written the way a
player would say it: ``spades(Carol) >= 5 and 12 <= hcp(Carol) <= 14``,
``shape(dummy, any 4333 + any 4432)``, ``has(leader, SA) or qt(leader) >= 2``.
It is read by a small recursive-descent parser of its own (user text is
never evaluated as Python), which checks types (numbers against conditions),
names (players, suits, cards, functions) and numbers no hand can reach, and
reports each problem with its 1-based position in the text
(:class:`WhereError`).

A parsed :class:`Condition` can

* be evaluated in Python on a deal (:meth:`Condition.holds`): the
  definition, obviously right and slow;
* be compiled with others into one :class:`Program` for the compiled dealer
  (:func:`compile_program`), which runs it on millions of candidate deals a
  second. The tests check that the two agree.

Hands are indexed as in a deal file: the three players in their order, then
the dummy (``HANDS = 4``).

The package, in the order a condition goes through it: :mod:`.tokens` (the
words), :mod:`.parser` (:func:`parse_condition`), :mod:`.tree` (the syntax
tree and :class:`Condition`), :mod:`.program` and :mod:`.compiler`
(:func:`compile_program`); :mod:`.hands` (the hands' names and shapes, the
largest values) and :mod:`.errors` (:class:`WhereError`) serve them all.
"""
from __future__ import annotations

from .compiler import compile_program
from .errors import WhereError
from .hands import SHAPES, Table
from .parser import parse_condition
from .program import Program
from .tree import Condition, suit_quick_tricks

__all__ = ["Condition", "Program", "Table", "WhereError", "compile_program", "parse_condition",
           "suit_quick_tricks", "SHAPES"]
