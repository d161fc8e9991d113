"""The play of one hand: a mutable board with a move stack (python-chess style).

>>> state = PlayState(hands, leader=1)          # hands: four masks by play seat
>>> state.legal_moves()                          # card ints, ascending
>>> state.play(card); state.unplay()

Seats are the play seats of :mod:`solver.seating` (0 declarer, 1 left
defender, 2 dummy, 3 right defender); the declarer chooses the dummy's cards
(:attr:`PlayState.controller`). Legality and trick winners come from
:mod:`solver.rules` only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from .cards import SUIT_NAMES, format_card, iter_cards, suit_of
from .cards import count as popcount
from .errors import IllegalPlayError
from .position import Position
from .rules import breaks_spades, legal_cards, trick_winner
from .seating import DECLARER_SEAT, DUMMY_SEAT, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT, controller


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


DEFAULT_NAMES = ("declarer", "left defender", "dummy", "right defender")


class PlayState:
    """The play from a starting position (usually the opening lead) on.

    ``hands``: the four holdings by play seat (equal sizes); ``leader``: the
    seat to lead; ``breaking``: the spade-breaking rule is on;
    ``spades_broken``: spades were already broken before this position;
    ``names``: the hand names by seat, used in error messages; ``moves``:
    cards to play from the start (each checked).
    """

    def __init__(self, hands: Sequence[int], leader: int, breaking: bool = True,
                 spades_broken: bool = False, names: Sequence[str] = DEFAULT_NAMES,
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
        self._hands = list(hands)
        self._leader = leader
        self._trick: List[int] = []
        self._tricks: List[Trick] = []
        self._moves: List[int] = []
        self._won = [0, 0, 0, 0]
        self._broken = bool(spades_broken)
        for card in moves:
            self.play(card)

    # ----------------------------------------------------------------- reading
    @property
    def breaking(self) -> bool:
        return self.start.breaking

    @property
    def hands(self) -> Tuple[int, int, int, int]:
        """Cards still held, by seat (cards on the table excluded)."""
        h = self._hands
        return h[0], h[1], h[2], h[3]

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the trick in progress."""
        return self._leader

    @property
    def trick(self) -> Tuple[int, ...]:
        """Cards played to the trick in progress, in order."""
        return tuple(self._trick)

    @property
    def current_trick(self) -> Trick:
        return Trick(self._leader, tuple(self._trick))

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
        return None if self.is_over else (self._leader + len(self._trick)) % 4

    @property
    def controller(self) -> Optional[int]:
        """The seat that chooses the next card (the declarer for the dummy)."""
        seat = self.to_move
        return None if seat is None else controller(seat)

    @property
    def spades_broken(self) -> bool:
        """A spade was played to a completed trick (or before the start)."""
        return self._broken

    @property
    def is_over(self) -> bool:
        return not self._trick and not any(self._hands)

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
        return popcount(self._hands[self._leader]) + (1 if self._trick else 0)

    def legal_mask(self) -> int:
        seat = self.to_move
        if seat is None:
            return 0
        return legal_cards(self._hands[seat], self._trick, self._broken, self.breaking)

    def legal_moves(self) -> List[int]:
        """The cards the player to move may play, ascending."""
        return list(iter_cards(self.legal_mask()))

    def is_legal(self, card: int) -> bool:
        return bool(self.legal_mask() >> card & 1) if 0 <= card < 52 else False

    def holder(self, card: int) -> Optional[int]:
        """The seat still holding ``card``, or ``None``."""
        for seat, hand in enumerate(self._hands):
            if hand >> card & 1:
                return seat
        return None

    def engine_position(self) -> Position:
        """The current position in the engine's arguments."""
        return Position(self.hands, self._leader, self.trick, self._broken, self.breaking)

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
        if self._trick:
            led = SUIT_NAMES[suit_of(self._trick[0])]
            raise IllegalPlayError(f"{who} plays {text} but holds {led}: a revoke",
                                   reason="revoke", expected=f"a card of the suit led, {led} ({legal})")
        raise IllegalPlayError(f"{who} leads {text} but spades are not broken and {who} holds other suits",
                               reason="spade-lead", expected=f"a lead from another suit ({legal})")

    def play(self, card: int) -> Optional[Trick]:
        """Play ``card`` for the seat to move. Returns the trick if it completed one."""
        self.check(card)
        seat = self.to_move
        assert seat is not None
        self._hands[seat] &= ~(1 << card)
        self._trick.append(card)
        self._moves.append(card)
        if len(self._trick) < 4:
            return None
        done = Trick(self._leader, tuple(self._trick))
        self._tricks.append(done)
        self._won[done.winner] += 1
        self._broken = self._broken or breaks_spades(done.cards)
        self._leader, self._trick = done.winner, []
        return done

    def unplay(self) -> int:
        """Take back the last card played; returns it."""
        if not self._moves:
            raise IndexError("no card to take back")
        card = self._moves.pop()
        if not self._trick:
            done = self._tricks.pop()
            self._won[done.winner] -= 1
            self._leader, self._trick = done.leader, list(done.cards)
            self._broken = self.start.spades_broken or any(breaks_spades(t.cards) for t in self._tricks)
        self._trick.pop()
        self._hands[(self._leader + len(self._trick)) % 4] |= 1 << card
        return card

    def copy(self) -> "PlayState":
        return PlayState(self.start.hands, self.start.leader, self.breaking,
                         self.start.spades_broken, self.names, self._moves)

    def __repr__(self) -> str:
        return (f"PlayState(hands={self.start.hands!r}, leader={self.start.leader!r}, "
                f"breaking={self.breaking!r}, spades_broken={self.start.spades_broken!r}, "
                f"names={self.names!r}, moves={self.moves!r})")
