"""The play of one hand: a mutable board with a move stack (python-chess style).

>>> state = PlayState(hands, leader=1)          # hands: four masks by play seat
>>> state.legal_moves()                          # card ints, ascending
>>> state.play(card); state.unplay()

Seats are the play seats of :mod:`solver.seating` (0 declarer, 1 left
defender, 2 dummy, 3 right defender); the declarer chooses the dummy's cards
(:attr:`PlayState.controller`). The state is a stack of
:class:`~solver.position.Position` values: a card moves it on by
:meth:`Position.play <solver.position.Position.play>` (legality and trick
winners from :mod:`solver.rules` only), taking it back pops it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from .cards import SUIT_NAMES, format_card, iter_cards, suit_of
from .cards import count as popcount
from .errors import IllegalPlayError
from .position import Position
from .rules import trick_winner
from .seating import (DECLARER_SEAT, DUMMY_SEAT, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT, ROLES,
                      controller)


@dataclass(frozen=True)
class Trick:
    """A trick: the seat that led and the cards in play order (1-4 of them)."""

    leader: int
    cards: Tuple[int, ...]

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def seats(self) -> Tuple[int, ...]:
        """The seat that played each card."""
        return tuple((self.leader + i) % 4 for i in range(len(self.cards)))

    @property
    def winner(self) -> int:
        """The seat winning the trick (so far, if incomplete)."""
        return (self.leader + trick_winner(self.cards)) % 4

    def __str__(self) -> str:
        return " ".join(format_card(c) for c in self.cards)


class PlayState:
    """The play from a starting position (usually the opening lead) on.

    ``hands``: the four holdings by play seat (equal sizes); ``leader``: the
    seat to lead; ``breaking``: the spade-breaking rule is on;
    ``spades_broken``: spades were already broken before this position;
    ``names``: the hand names by seat, used in error messages; ``moves``:
    cards to play from the start (each checked).
    """

    def __init__(self, hands: Sequence[int], leader: int, breaking: bool = True,
                 spades_broken: bool = False, names: Sequence[str] = ROLES,
                 moves: Sequence[int] = ()) -> None:
        hands = tuple(int(h) for h in hands)
        if len(hands) != 4:
            raise ValueError("a play state needs exactly four hands")
        if leader not in (0, 1, 2, 3):
            raise ValueError(f"leader must be a seat 0..3, not {leader!r}")
        seen = 0
        for h in hands:
            if h < 0 or h >> 52 or seen & h:
                raise ValueError("hands must be disjoint sets of the 52 cards")
            seen |= h
        if len({popcount(h) for h in hands}) != 1:
            raise ValueError(f"hands must be the same size, not {[popcount(h) for h in hands]}")
        self.start = Position(hands, leader, (), bool(spades_broken), bool(breaking))
        self.names = tuple(names)
        self._pos = self.start
        self._before: List[Position] = []     # the position before each move
        self._tricks: List[Trick] = []
        self._moves: List[int] = []
        self._won = [0, 0, 0, 0]
        for card in moves:
            self.play(card)

    # ----------------------------------------------------------------- reading
    @property
    def breaking(self) -> bool:
        return self.start.breaking

    @property
    def hands(self) -> Tuple[int, int, int, int]:
        """Cards still held, by seat (cards on the table excluded)."""
        return self._pos.hands

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the trick in progress."""
        return self._pos.leader

    @property
    def trick(self) -> Tuple[int, ...]:
        """Cards played to the trick in progress, in order."""
        return self._pos.trick

    @property
    def current_trick(self) -> Trick:
        return Trick(self._pos.leader, self._pos.trick)

    @property
    def tricks(self) -> Tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple(self._tricks)

    @property
    def moves(self) -> Tuple[int, ...]:
        """Every card played from the start, in order."""
        return tuple(self._moves)

    @property
    def to_move(self) -> Optional[int]:
        """The seat whose card is next; ``None`` when the hand is over."""
        return None if self._pos.is_over else self._pos.to_move

    @property
    def controller(self) -> Optional[int]:
        """The seat that chooses the next card (the declarer for the dummy)."""
        seat = self.to_move
        return None if seat is None else controller(seat)

    @property
    def spades_broken(self) -> bool:
        """A spade was played to a completed trick (or before the start)."""
        return self._pos.spades_broken

    @property
    def is_over(self) -> bool:
        return self._pos.is_over

    @property
    def tricks_won(self) -> Tuple[int, int, int, int]:
        """Completed tricks won by each seat."""
        w = self._won
        return w[0], w[1], w[2], w[3]

    @property
    def declarer_tricks(self) -> int:
        """Declarer-side tricks (declarer + dummy)."""
        return self._won[DECLARER_SEAT] + self._won[DUMMY_SEAT]

    @property
    def defender_tricks(self) -> int:
        """Defender-side tricks (both defenders together)."""
        return self._won[LEFT_DEFENDER_SEAT] + self._won[RIGHT_DEFENDER_SEAT]

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete (the one in progress included)."""
        return self._pos.tricks_left

    def legal_mask(self) -> int:
        return 0 if self._pos.is_over else self._pos.legal_mask()

    def legal_moves(self) -> List[int]:
        """The cards the player to move may play, ascending."""
        return list(iter_cards(self.legal_mask()))

    def is_legal(self, card: int) -> bool:
        return bool(self.legal_mask() >> card & 1) if 0 <= card < 52 else False

    def holder(self, card: int) -> Optional[int]:
        """The seat still holding ``card``, or ``None``."""
        for seat, hand in enumerate(self._pos.hands):
            if hand >> card & 1:
                return seat
        return None

    def engine_position(self) -> Position:
        """The current position: what a solver is asked about."""
        return self._pos

    # ---------------------------------------------------------------- playing
    def check(self, card: int) -> None:
        """Raise :class:`IllegalPlayError` saying why ``card`` may not be played now."""
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise IllegalPlayError(f"{card!r} is not a card", reason="not-held",
                                   expected="a card int 0..51")
        seat = self.to_move
        text = format_card(card)
        if seat is None:
            raise IllegalPlayError(f"{text} cannot be played: all 13 tricks are over",
                                   reason="hand-over", expected="no more cards")
        if self.is_legal(card):
            return
        who = self.names[seat]
        owner = self.holder(card)
        if owner is None:
            raise IllegalPlayError(f"{text} has already been played", reason="not-held",
                                   expected=f"a card {who} still holds")
        if owner != seat:
            raise IllegalPlayError(f"{text} is {self.names[owner]}'s card, but it is {who}'s turn",
                                   reason="not-your-turn", expected=f"a card from {who}'s hand")
        legal = " ".join(format_card(c) for c in self.legal_moves())
        if self._pos.trick:
            led = SUIT_NAMES[suit_of(self._pos.trick[0])]
            raise IllegalPlayError(f"{who} plays {text} but holds {led}: a revoke",
                                   reason="revoke", expected=f"a card of the suit led, {led} ({legal})")
        raise IllegalPlayError(f"{who} leads {text} but spades are not broken and {who} holds other suits",
                               reason="spade-lead", expected=f"a lead from another suit ({legal})")

    def play(self, card: int) -> Optional[Trick]:
        """Play ``card`` for the seat to move. Returns the trick if it completed one."""
        self.check(card)
        before = self._pos
        self._before.append(before)
        self._moves.append(card)
        self._pos = before.play(card)
        if self._pos.trick:
            return None
        done = Trick(before.leader, before.trick + (card,))
        self._tricks.append(done)
        self._won[self._pos.leader] += 1
        return done

    def unplay(self) -> int:
        """Take back the last card played; returns it."""
        if not self._moves:
            raise IndexError("no card to take back")
        card = self._moves.pop()
        if not self._pos.trick:
            self._tricks.pop()
            self._won[self._pos.leader] -= 1
        self._pos = self._before.pop()
        return card

    def copy(self) -> "PlayState":
        return PlayState(self.start.hands, self.start.leader, self.breaking,
                         self.start.spades_broken, self.names, self._moves)

    def __repr__(self) -> str:
        return (f"PlayState(hands={self.start.hands!r}, leader={self.start.leader!r}, "
                f"breaking={self.breaking!r}, spades_broken={self.start.spades_broken!r}, "
                f"names={self.names!r}, moves={self.moves!r})")
