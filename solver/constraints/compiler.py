"""The compiler of the ``--where`` conditions: :func:`compile_program`, one
program for the compiled dealer from every condition given."""
from __future__ import annotations

from array import array
from typing import Dict, Sequence

from .errors import WhereError
from .program import Emitter, Program
from .tree import Condition


def compile_program(conditions: Sequence[Condition], ops: Dict[str, int],
                    shape_table: int, stack_max: int) -> Program:
    """One program accepting the deals that satisfy every condition, the
    cheapest test first in the order given (each one rejects at once)."""
    out = Emitter(ops, shape_table)
    for condition in conditions:
        condition.tree.emit(out)
        out.op("require")
    out.op("end")
    if out.depth > stack_max:
        first = conditions[0]
        raise WhereError(f"the expressions need a stack of {out.depth} values", text=first.text,
                         position=1, expected=f"at most {stack_max}: simpler expressions")
    return Program(array("i", out.code), array("d", out.consts), array("Q", out.masks),
                   b"".join(out.tables), out.depth)



__all__ = ["compile_program"]
