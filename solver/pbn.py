"""PBN deal strings, ``N:<hand> <hand> <hand> <hand>``: the one reader and writer.

The four hands run clockwise from the first direction (N, E, S or W). The
directions are the play seats of :mod:`solver.seating`: N the declarer, E
the left defender, S the dummy, W the right defender. Hands are in PBN dot
notation, spades first (``AKT73.QJ2.984.A52``, a void suit empty). A deal
string may be quoted (as in a PBN file's ``[Deal "..."]`` tag).
"""
from __future__ import annotations

import re
from typing import Sequence, Tuple

from .cards import CardError, format_hand, parse_hand
from .errors import DealError
from .seating import PBN_DIRECTIONS, ROLES

#: The form of a deal string, for messages.
DEAL_FORM = "N:<declarer> <left defender> <dummy> <right defender>"

_DEAL = re.compile(r"([NESWnesw])\s*:(.*)")


def _clip(text: str, n: int = 40) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def parse_pbn_deal(text: str) -> Tuple[int, int, int, int]:
    """The hands of a PBN deal string by seat (N E S W: play seats 0..3),
    whatever its first direction. Only the form is checked here (four hands
    of cards); sizes and duplicates are the caller's rules. Raises
    :class:`~solver.errors.DealError` saying what was expected (without a
    field: the caller places it)."""
    s = str(text).strip().strip('"').strip()
    m = _DEAL.fullmatch(s)
    if not m:
        raise DealError(f"{_clip(s)!r} is not a deal",
                        expected=f"'{DEAL_FORM}' (first seat letter N, E, S or W, then a colon)")
    first = PBN_DIRECTIONS.index(m.group(1).upper())
    fields = m.group(2).split()
    if len(fields) != 4:
        raise DealError(f"found {len(fields)} hand{'s' if len(fields) != 1 else ''}",
                        expected=f"four hands separated by spaces: '{DEAL_FORM}'")
    hands = [0, 0, 0, 0]
    for i, field in enumerate(fields):
        seat = (first + i) % 4
        try:
            hands[seat] = parse_hand(field)
        except CardError as exc:
            raise DealError(f"hand {i + 1} ({PBN_DIRECTIONS[seat]}, {ROLES[seat]}): {exc}") from None
    return hands[0], hands[1], hands[2], hands[3]


def format_pbn_deal(hands: Sequence[int]) -> str:
    """The PBN deal string of four hands by seat, N first."""
    return "N:" + " ".join(format_hand(h) for h in hands)


__all__ = ["DEAL_FORM", "format_pbn_deal", "parse_pbn_deal"]
