"""What a constraint speaks of: the hands, by the names a :class:`Table`
gives them (deal-file order: the three players, then the dummy), their
shapes (:data:`SHAPES`, :class:`ShapePattern`) and the largest values a hand
can reach (docs/DEAL.md "Impossible numbers")."""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from ..scoring import DUMMY, TRICKS_PER_HAND
from ..seating import check_table, first_bidder

Hands = Sequence[int]
Shape = Tuple[int, int, int, int]

#: The largest values a hand can reach (docs/DEAL.md "Impossible numbers").
MAX_LENGTH = TRICKS_PER_HAND          # cards of one suit in one hand
MAX_HCP = 37                          # AKQ of every suit and one jack: 13 cards
MAX_SUIT_HCP = 10                     # AKQJ
DECK_HCP = 40                         # every high card: the most any hands hold together
MAX_QT = 8.0                          # AK of every suit
MAX_SUIT_QT = 2.0

#: Role words that name a hand by its place at the table.
ROLE_WORDS = ("leader", "dealer")


@dataclass(frozen=True)
class Table:
    """The names a constraint may give a hand: the three players (clockwise),
    ``dummy``, and the role words ``leader`` (the first bidder, left of the
    dealer: the opening leader) and ``dealer``. A player's own name wins
    over a role word."""

    players: Tuple[str, str, str]
    dealer: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_table(self.players, self.dealer))

    @property
    def names(self) -> Tuple[str, str, str, str]:
        """The hands in deal-file order: the players, then the dummy."""
        return self.players + (DUMMY,)

    def index(self, word: str) -> Optional[int]:
        if word in self.players:
            return self.players.index(word)
        key = word.lower()
        if key == DUMMY:
            return 3
        if key == "leader":
            return self.players.index(first_bidder(self.players, self.dealer))
        if key == "dealer":
            return self.players.index(self.dealer)
        return None

    def choices(self) -> str:
        return f"one of {', '.join(self.names)} (or {' or '.join(ROLE_WORDS)})"


def _all_shapes() -> List[Shape]:
    return [(s, h, d, TRICKS_PER_HAND - s - h - d)
            for s in range(14) for h in range(14 - s) for d in range(14 - s - h)]


SHAPES = _all_shapes()   # the 560 shapes of a 13-card hand, spades first


@dataclass(frozen=True)
class ShapePattern:
    """One pattern: four lengths spades first, ``None`` for any (``x``);
    ``any`` for every order of the suits."""

    lengths: Tuple[Optional[int], ...]
    any_order: bool

    def matches(self, shape: Shape) -> bool:
        orders = set(itertools.permutations(self.lengths)) if self.any_order else {self.lengths}
        return any(all(want is None or want == got for want, got in zip(order, shape))
                   for order in orders)


__all__ = ["DECK_HCP", "MAX_HCP", "MAX_LENGTH", "MAX_QT", "MAX_SUIT_HCP", "MAX_SUIT_QT",
           "ROLE_WORDS", "SHAPES", "Hands", "Shape", "ShapePattern", "Table"]
