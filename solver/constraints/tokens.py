"""The words of the ``--where`` language: the tokens of an expression and of
a list of shapes, the keywords, the functions with their arguments, and the
forms the messages name as expected."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from ..cards import SUIT_NAMES

QUOTES = "'\""

TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<name>[^\W\d]\w*)
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<op><=|>=|==|!=|&&|\|\||[<>=!+\-(),])
""", re.VERBOSE)

KEYWORDS = {"and": "and", "or": "or", "not": "not", "&&": "and", "||": "or", "!": "not"}
SUIT_FUNCTIONS = {name: i for i, name in enumerate(SUIT_NAMES)}
#: Every function: its argument after the hand (None, "suit", "cards",
#: "shapes"), whether that argument may be left out, and what it gives.
FUNCTIONS: Dict[str, Tuple[Optional[str], bool]] = {
    **{name: (None, False) for name in SUIT_NAMES},
    "length": ("suit", False),
    "hcp": ("suit", True),
    "qt": ("suit", True),
    "quick_tricks": ("suit", True),
    "cards": ("cards", False),
    "has": ("cards", False),
    "shape": ("shapes", False),
}
FUNCTION_FORMS = ("a function of a hand: spades(P), hearts(P), diamonds(P), clubs(P), "
                   "length(P, suit), hcp(P), hcp(P, suit), qt(P), qt(P, suit), "
                   "cards(P, SA SK), has(P, SA SK), shape(P, any 4333 + 5-4-3-1)")
SUIT_FORMS = "a suit: spades, hearts, diamonds, clubs (or S H D C, ♠ ♥ ♦ ♣)"
SHAPE_FORMS = ("shapes such as 5-4-3-1, 4333, 5xxx or any 4432, joined by + (add) "
                "and - (take away)")
SHAPE_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<any>any\b)
  | (?P<dashed>[0-9xX]{1,2}(?:-[0-9xX]{1,2}){3})(?![\w-])
  | (?P<compact>[0-9xX]{4})(?!\w)
  | (?P<op>[+-])
""", re.VERBOSE | re.IGNORECASE)


@dataclass
class Token:
    kind: str     # number, name, string, op, end
    text: str
    start: int
    end: int



__all__ = ["FUNCTIONS", "FUNCTION_FORMS", "KEYWORDS", "QUOTES", "SHAPE_FORMS", "SHAPE_TOKEN",
           "SUIT_FORMS", "SUIT_FUNCTIONS", "TOKEN", "Token"]
