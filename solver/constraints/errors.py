"""The error of the ``--where`` language: :class:`WhereError`, a problem at a
1-based position of the text."""
from __future__ import annotations

from typing import Optional

from ..errors import DealError


class WhereError(DealError):
    """An expression that cannot be used: ``problem`` at ``position``
    (1-based) of ``text``, given to ``option``; ``str()`` is one line."""

    def __init__(self, problem: str, *, text: str, position: int, option: str = "--where",
                 expected: Optional[str] = None) -> None:
        self.text = text
        self.position = position
        self.option = option
        super().__init__(problem, field=f"{option} {_shown(text)}, position {position}",
                         expected=expected)


def _shown(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit - 3] + "...")


__all__ = ["WhereError"]
