"""The table: three real players clockwise plus the dummy; who bids when;
where everybody sits for the play (docs/RULES.md "Table and deal", "Seating for
the play").

Seats for the play are ints 0..3 in clockwise play order (the engine's seats):

* 0 = declarer, 1 = left defender (the next real player clockwise after the
  declarer), 2 = dummy (opposite the declarer), 3 = right defender.

The opening leader is the first bidder (the real player to the dealer's
left), whatever their role.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence, Tuple

from .errors import DealError
from .scoring import DUMMY

DECLARER_SEAT, LEFT_DEFENDER_SEAT, DUMMY_SEAT, RIGHT_DEFENDER_SEAT = 0, 1, 2, 3
SEATS = (0, 1, 2, 3)
DECLARER_SIDE = (1 << DECLARER_SEAT) | (1 << DUMMY_SEAT)          # 0b0101
DEFENDER_SIDE = (1 << LEFT_DEFENDER_SEAT) | (1 << RIGHT_DEFENDER_SEAT)  # 0b1010
ROLES = ("declarer", "left defender", "dummy", "right defender")
PBN_DIRECTIONS = "NESW"  # seat 0..3 in a PBN deal string: N declarer ... W right defender


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a C0 or C1 control character or DEL (escape,
    newline, tab, ...): names are shown on terminals and must not steer them."""
    return _CONTROL.search(text) is not None


def check_table(players: Sequence[str], dealer: str) -> Tuple[str, str, str]:
    """Validate the three real players (clockwise) and the dealer; returns the players as a tuple."""
    players = tuple(players)
    if len(players) != 3:
        raise DealError(f"{len(players)} players given", field="players",
                        expected="exactly three real players, in clockwise order")
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            raise DealError(f"player name {name!r} is empty or not text", field=f"players[{i}]",
                            expected="a non-empty name")
        if has_control_characters(name):
            raise DealError(f"player name {name!r} holds control characters", field=f"players[{i}]",
                            expected="a name of printable characters (no escape, tab or newline)")
        if name.strip().lower() == DUMMY:
            raise DealError(f"{name!r} cannot be a player's name", field=f"players[{i}]",
                            expected="a name other than 'dummy' (the dummy is the fourth hand)")
        if name in players[:i]:
            raise DealError(f"player {name!r} is listed twice", field=f"players[{i}]",
                            expected="three different names")
    if dealer not in players:
        raise DealError(f"unknown dealer {dealer!r}", field="dealer",
                        expected=f"one of the players {', '.join(players)}")
    return players


def left_of(players: Sequence[str], player: str, steps: int = 1) -> str:
    """The real player ``steps`` places clockwise from ``player`` (the dummy skipped)."""
    return players[(list(players).index(player) + steps) % len(players)]


def next_dealer(players: Sequence[str], dealer: str) -> str:
    """The dealer of the next hand: the deal passes clockwise among the real
    players, skipping the dummy."""
    return left_of(players, dealer)


def bidding_order(players: Sequence[str], dealer: str) -> Tuple[str, str, str]:
    """First real player left of the dealer first, the dealer last."""
    return left_of(players, dealer, 1), left_of(players, dealer, 2), left_of(players, dealer, 3)


def first_bidder(players: Sequence[str], dealer: str) -> str:
    """The first bidder, who is also the opening leader."""
    return left_of(players, dealer)


def play_seating(players: Sequence[str], declarer: str) -> Tuple[str, str, str, str]:
    """The four hand names by play seat: declarer, next real player clockwise,
    ``"dummy"``, remaining real player."""
    if declarer not in players:
        raise DealError(f"unknown declarer {declarer!r}",
                        expected=f"one of the players {', '.join(players)}")
    return (declarer, left_of(players, declarer, 1), DUMMY, left_of(players, declarer, 2))


def side_name(side: int) -> str:
    """The name of a side where it is shown (JSON, text): ``"declarer"`` for
    :data:`DECLARER_SIDE` (declarer + dummy), ``"defenders"`` for
    :data:`DEFENDER_SIDE`. Everywhere else a side is its seat mask."""
    return "declarer" if side == DECLARER_SIDE else "defenders"


def controller(seat: int) -> int:
    """The seat that chooses the card for ``seat``: the declarer plays the dummy's cards."""
    return DECLARER_SEAT if seat == DUMMY_SEAT else seat


def side_of(seat: int) -> int:
    """The side mask (:data:`DECLARER_SIDE` or :data:`DEFENDER_SIDE`) of a seat."""
    return DECLARER_SIDE if DECLARER_SIDE >> seat & 1 else DEFENDER_SIDE


@dataclass(frozen=True)
class Seating:
    """Who sits where for the play: ``names[seat]`` for seats 0..3 and the
    opening leader's seat. Build it with :meth:`for_deal`."""

    names: Tuple[str, str, str, str]
    leader: int

    @classmethod
    def for_deal(cls, players: Sequence[str], dealer: str, declarer: str) -> "Seating":
        names = play_seating(players, declarer)
        return cls(names, names.index(first_bidder(players, dealer)))

    @property
    def declarer(self) -> str:
        return self.names[DECLARER_SEAT]

    @property
    def defenders(self) -> Tuple[str, str]:
        """(left defender, right defender)."""
        return self.names[LEFT_DEFENDER_SEAT], self.names[RIGHT_DEFENDER_SEAT]

    @property
    def players(self) -> Tuple[str, str, str]:
        """The real players: declarer, left defender, right defender."""
        return self.names[DECLARER_SEAT], self.names[LEFT_DEFENDER_SEAT], self.names[RIGHT_DEFENDER_SEAT]

    def other_defender(self, defender: str) -> str:
        """The defender who is not ``defender``."""
        left, right = self.defenders
        return right if defender == left else left

    @property
    def opening_leader(self) -> str:
        return self.names[self.leader]

    def seat_of(self, name: str) -> int:
        if name not in self.names:
            raise DealError(f"unknown hand {name!r}", expected=f"one of {', '.join(self.names)}")
        return self.names.index(name)

    def role(self, name: str) -> str:
        """``declarer``, ``left defender``, ``dummy`` or ``right defender``."""
        return ROLES[self.seat_of(name)]

    def side(self, name: str) -> int:
        """The side (:data:`DECLARER_SIDE` or :data:`DEFENDER_SIDE`) of a hand."""
        return side_of(self.seat_of(name))
