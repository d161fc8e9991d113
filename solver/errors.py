"""Errors of the game model and of deal files.

Every error names *what* is wrong (``problem``), *where* (``field``, a path in
the deal-file vocabulary such as ``hands.Alice`` or ``auction[2].nil``; plus
``file`` and ``line`` once a deal file is known) and what was *expected*. The
model raises them with a field path only; :mod:`solver.dealfile` adds the file
and the line of that field.

``str(err)`` is one line: ``deal.yaml:12: hands.Alice: 12 cards; expected 13 cards``.
"""
from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple, Type, TypeVar

E = TypeVar("E", bound="DealError")


class DealError(ValueError):
    """A deal, auction, played sequence or deal file that breaks the rules or the format."""

    def __init__(self, problem: str, *, field: Optional[str] = None,
                 expected: Optional[str] = None, file: Optional[str] = None,
                 line: Optional[int] = None) -> None:
        self.problem = problem
        self.field = field
        self.expected = expected
        self.file = file
        self.line = line
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        if self.field:
            where += f"{self.field}: "
        text = where + self.problem
        if self.expected:
            text += f"; expected {self.expected}"
        return text

    def __str__(self) -> str:
        return self.message

    def relocated(self: E, **changes: object) -> E:
        """A copy with some of ``field``, ``file``, ``line``, ``expected`` changed."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        for key, value in changes.items():
            if key not in ("field", "file", "line", "expected", "problem"):
                raise TypeError(f"unknown error attribute {key!r}")
            setattr(new, key, value)
        new.args = (new.message,)
        return new

    def __reduce__(self) -> Tuple[Callable[..., "DealError"], Tuple[Type["DealError"], Dict[str, object]]]:
        """Pickle with every attribute (errors cross process pools)."""
        return (_rebuild, (type(self), self.__dict__.copy()))

    def within(self: E, prefix: str) -> E:
        """A copy whose field path is nested under ``prefix`` (``auction[1]`` + ``nil``)."""
        if not self.field:
            return self.relocated(field=prefix)
        sep = "" if self.field.startswith("[") else "."
        return self.relocated(field=f"{prefix}{sep}{self.field}")


class AuctionError(DealError):
    """A bid or an auction that breaks the rules (bid outside 0-13, out of turn, bad nil)."""


class IllegalPlayError(DealError):
    """A card that may not be played now. ``reason`` is one of
    ``not-your-turn``, ``revoke``, ``spade-lead``, ``not-held``, ``hand-over``."""

    def __init__(self, problem: str, *, reason: str, field: Optional[str] = None,
                 expected: Optional[str] = None, file: Optional[str] = None,
                 line: Optional[int] = None) -> None:
        self.reason = reason
        super().__init__(problem, field=field, expected=expected, file=file, line=line)


class DealFileError(DealError):
    """A deal file that cannot be read: always carries ``file`` (and ``line``
    where YAML provides it)."""

    @classmethod
    def from_error(cls, err: DealError, file: str, line: Optional[int]) -> "DealFileError":
        return cls(err.problem, field=err.field, expected=err.expected, file=file, line=line)


def _rebuild(cls: Type[DealError], state: Dict[str, object]) -> DealError:
    err = cls.__new__(cls)
    err.__dict__.update(state)
    err.args = (err.message,)
    return err
