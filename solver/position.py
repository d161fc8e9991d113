"""A position of the play as the solvers see it, and the one check of a question about it.

A :class:`Position` is a small immutable value: the cards still held by each
seat, the seat that led the trick in progress, the cards on the table, and
the spade state. Every solver (:mod:`solver.engine`, the compiled engine, and
:mod:`solver.reference`, its plain-minimax twin) takes one, together with

* ``side``: the seats that maximise (a :data:`SeatMask`); the others minimise;
* ``count``: the seats whose tricks are counted (default ``side``); it differs
  from ``side`` in the duck analysis, where a defender plays with the
  declarer but its tricks still count for the defenders;
* ``nil_seat``: if given (a seat of ``side``), the maximiser must also keep
  that seat from winning any trick; the value is then the most tricks it can
  take while doing so, or :data:`NIL_LOST` if the nil cannot be kept.

Values count the tricks from the trick in progress (included) to the end of
the hand. :func:`check_position` is the one check of a position's cards
(through :func:`solver.cards.check_hands`, the one check of a set of
hands); :func:`check_query` checks a question: the position and those three
arguments.

Seats are the play seats of :mod:`solver.seating` (0 declarer, 1 left
defender, 2 dummy, 3 right defender, in clockwise play order); cards and
hands are the ints and 52-bit masks of :mod:`solver.cards`.
"""
from __future__ import annotations

from typing import List, NamedTuple, Optional, Sequence, Tuple

from .cards import count as popcount
from .cards import HandsError, check_hands, iter_cards, suit_of
from .rules import breaks_spades, legal_cards, trick_winner
from .seating import ROLES

#: A play seat 0..3 (:mod:`solver.seating`).
Seat = int
#: A set of seats, bit ``1 << seat``: a side, the counted seats.
SeatMask = int
#: A card as the int ``suit * 13 + rank - 2`` in ``range(52)`` (:mod:`solver.cards`).
Card = int
#: A set of cards, bit ``1 << card``: a hand.
CardMask = int

#: The value of a question with a ``nil_seat`` whose nil cannot be kept.
NIL_LOST = -1
#: Every seat.
ALL_SEATS: SeatMask = 0b1111


class PositionError(ValueError):
    """A position or question the solvers cannot search (wrong hand sizes, bad seats)."""


class Position(NamedTuple):
    """A position of the play (python-chess style: an immutable value).

    ``hands``: the four card masks by seat, the cards still held (those on
    the table excluded). ``leader``: the seat that led the trick in progress
    (or is to lead when ``trick`` is empty). ``trick``: the cards already
    played to it, in order. ``spades_broken``: a spade was played to an
    earlier trick. ``breaking``: the spade-breaking rule is on.
    """

    hands: Tuple[CardMask, CardMask, CardMask, CardMask]
    leader: Seat
    trick: Tuple[Card, ...] = ()
    spades_broken: bool = False
    breaking: bool = True

    @property
    def to_move(self) -> Seat:
        """The seat whose card is next."""
        return (self.leader + len(self.trick)) % 4

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, the one in progress included."""
        return popcount(self.hands[self.leader]) + (1 if self.trick else 0)

    @property
    def is_over(self) -> bool:
        return not self.trick and not any(self.hands)

    def legal_mask(self) -> CardMask:
        """The cards the seat to move may play (:func:`solver.rules.legal_cards`)."""
        return legal_cards(self.hands[self.to_move], self.trick, self.spades_broken,
                           self.breaking)

    def play(self, card: Card) -> "Position":
        """The position after ``card``, a legal card of the seat to move. A
        fourth card completes the trick: its winner leads the next one, and a
        spade in it breaks spades."""
        return Position(*play_card(self.hands, self.leader, self.trick, self.spades_broken, card),
                        self.breaking)


def play_card(hands: Tuple[CardMask, CardMask, CardMask, CardMask], leader: Seat,
              trick: Tuple[Card, ...], spades_broken: bool, card: Card
              ) -> Tuple[Tuple[CardMask, CardMask, CardMask, CardMask], Seat, Tuple[Card, ...], bool]:
    """:meth:`Position.play` on the plain fields (for the reference twin's
    search): the hands, leader, trick and spade state after ``card``."""
    keep = ~(1 << card)
    hands = (hands[0] & keep, hands[1] & keep, hands[2] & keep, hands[3] & keep)
    trick = trick + (card,)
    if len(trick) < 4:
        return hands, leader, trick, spades_broken
    winner = (leader + trick_winner(trick)) % 4
    return hands, winner, (), spades_broken or breaks_spades(trick)


def equivalent_groups(pos: Position) -> List[Tuple[Card, ...]]:
    """The legal cards of the seat to move in groups of equivalent cards:
    cards of one suit with no card between them still in play (held by
    anyone or on the table in the trick in progress). Cards of one group
    always have the same double-dummy value. Groups ascend by suit and rank;
    each group's cards ascend."""
    in_play = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    for card in pos.trick:
        in_play |= 1 << card
    groups: List[List[Card]] = []
    for card in iter_cards(pos.legal_mask()):
        if groups:
            last = groups[-1][-1]
            if suit_of(last) == suit_of(card) and not in_play & ((1 << card) - (2 << last)):
                groups[-1].append(card)
                continue
        groups.append([card])
    return [tuple(g) for g in groups]


def check_position(pos: Position, names: Sequence[str] = ROLES) -> Position:
    """Check a position's fields and cards: four hands, a seat to lead, at
    most three cards on the table, none of them held, and the hands as dealt
    (the cards on the table back in the hands that played them) a set of
    hands of one size (:func:`solver.cards.check_hands`, field
    ``hands.<name>`` with ``names`` by seat). Returns it with int, tuple and
    bool fields. Raises :class:`PositionError`, or
    :class:`~solver.cards.HandsError` for the hands."""
    try:
        hands = tuple(int(h) for h in pos.hands)
        leader = int(pos.leader)
        trick = tuple(int(c) for c in pos.trick)
        spades_broken, breaking = bool(pos.spades_broken), bool(pos.breaking)
    except AttributeError as exc:
        raise PositionError(f"not a position: {exc}") from None
    except (TypeError, ValueError) as exc:
        raise PositionError(f"position fields must be integers: {exc}") from None
    if len(hands) != 4:
        raise PositionError("a position needs exactly four hands")
    if not 0 <= leader <= 3:
        raise PositionError(f"leader must be a seat 0..3, not {leader!r}")
    if len(trick) > 3:
        raise PositionError("a trick in progress holds at most three cards")
    dealt = list(hands)
    for i, card in enumerate(trick):
        if not 0 <= card < 52 or any(h >> card & 1 for h in hands) or card in trick[:i]:
            raise PositionError("trick cards must be cards not held by any hand")
        dealt[(leader + i) % 4] |= 1 << card
    check_hands(dealt, names)
    return Position((hands[0], hands[1], hands[2], hands[3]), leader, trick, spades_broken, breaking)


def check_query(pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                nil_seat: Optional[Seat] = None) -> Tuple[Position, SeatMask, SeatMask, Seat]:
    """Check a question about ``pos``; return it normalised: the position with
    int, tuple and bool fields, ``side``, ``count`` (``side`` when ``None``)
    and the nil seat (``-1`` for none). Raises :class:`PositionError`."""
    try:
        side = int(side)
        count = side if count is None else int(count)
        nil = -1 if nil_seat is None else int(nil_seat)
    except (TypeError, ValueError) as exc:
        raise PositionError(f"position fields must be integers: {exc}") from None
    try:
        pos = check_position(pos)
    except HandsError as err:
        raise PositionError(f"{err.problem} ({err.field}); expected {err.expected}") from None
    if not 0 <= side <= 15:
        raise PositionError(f"side must be a seat mask 0..15, not {side!r}")
    if not 0 <= count <= 15:
        raise PositionError(f"count must be a seat mask 0..15, not {count!r}")
    if nil_seat is not None and not (0 <= nil <= 3 and side >> nil & 1):
        raise PositionError(f"nil_seat must be one of the maximising side's seats, not {nil!r}")
    return pos, side, count, nil


__all__ = ["ALL_SEATS", "NIL_LOST", "Card", "CardMask", "Position", "PositionError", "Seat",
           "SeatMask", "check_position", "check_query", "equivalent_groups", "play_card"]
