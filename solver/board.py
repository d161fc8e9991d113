"""The board: one deal in play, as python-chess has one ``Board``.

A :class:`Board` is one mutable play on an immutable deal. It knows the
seating (:attr:`Board.names`: the hand names by play seat), the rules, the
trick in progress, the completed tricks and the tricks won by each seat and
side, who is to move and who chooses (the declarer for the dummy), what
everyone has seen of the play (:meth:`Board.open_play`); with its deal's
auction it scores itself (:meth:`Board.score`, by
:func:`solver.hand_result.hand_result`).

>>> board = deal.board()                 # after the deal's played cards
>>> board.legal_moves()                  # card ints, ascending
>>> board.push(card); board.pop()
>>> board.position                       # the engine's Position, as it is

The play is a stack of :class:`~solver.position.Position` values: a card
moves it on by :meth:`Position.play <solver.position.Position.play>`
(legality and trick winners from :mod:`solver.rules` only), :meth:`Board.pop`
takes it back, :meth:`Board.copy` copies the stacks (it never replays),
:meth:`Board.frozen` freezes them into a :class:`Play` and
:meth:`Board.resume` makes a board of one again.

Where a board comes from:

* :meth:`Deal.board <solver.deal.Deal.board>`: after the deal's played cards
  (the deal replays them once, when it is built: loading a file, and keeps
  the :class:`Play`);
* :meth:`Deal.opening_board <solver.deal.Deal.opening_board>`: the opening
  lead for any declarer (the DD table, what-if declarers);
* :meth:`Board.opening`: the opening lead of a layout given by hand name
  (the bid simulation's layouts, each declarer in turn);
* :meth:`Board.at`: any position, with fewer than 13 cards a hand (batch
  endings, positions of the tests), optionally with the tricks already won.

Seats are the play seats of :mod:`solver.seating` (0 declarer, 1 left
defender, 2 dummy, 3 right defender). The hands are checked by
:func:`solver.cards.check_hands`, the one check of a set of hands. A deal
builds its boards and the board reads only what scoring needs of it (a
:class:`~solver.hand_result.ScoredTable`): this module imports no deal.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple

from .cards import SPADES, SUIT_NAMES, SUITS, format_card, iter_cards, suit_of
from .errors import DealError, IllegalPlayError
from .hand_result import HandResult, ScoredTable, hand_result
from .position import Position, check_position
from .rules import DEFAULT_DEAL_RULES, Rules, trick_winner
from .seating import (DECLARER_SIDE, DEFENDER_SIDE, ROLES, Seating, controller)


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


class Play(NamedTuple):
    """A board's play frozen (:meth:`Board.frozen`): the position before each
    card and the one now, the tricks completed, the cards played, the tricks
    each seat has won and had won at the start. What a deal keeps of the one
    replay of its played cards; :meth:`Board.resume` makes a board of it."""

    positions: Tuple[Position, ...]
    tricks: Tuple[Trick, ...]
    moves: Tuple[int, ...]
    won: Tuple[int, int, int, int]
    won_at_start: Tuple[int, ...]


@dataclass(frozen=True)
class OpenPlay:
    """What everyone at the table has seen of a board's play, and no card
    still held (:meth:`Board.open_play`): each card played with the seat
    that played it, the completed tricks won by seat, the seat that led the
    trick in progress and its cards, whether spades are broken, and by seat
    the suits the play has shown it not to hold, ascending."""

    plays: Tuple[Tuple[int, int], ...]
    won: Tuple[int, int, int, int]
    leader: int
    trick: Tuple[int, ...]
    spades_broken: bool
    voids: Tuple[Tuple[int, ...], ...]


class Board:
    """A deal in play: the seating, the rules and a stack of positions.

    ``start``: the position the play starts from (its ``breaking`` is set
    from ``rules``); ``names``: the hand names by play seat; ``rules``: the
    rule settings (default: the deal's, else the start's breaking switch
    with the default scoring); ``deal``: the deal the board plays, for its
    players, auction and running scores (the rules are the board's);
    ``won``: the tricks each seat had already won at ``start``. Prefer the
    constructors (module docstring).
    """

    def __init__(self, start: Position, names: Sequence[str] = ROLES,
                 rules: Optional[Rules] = None, deal: Optional[ScoredTable] = None,
                 won: Sequence[int] = (0, 0, 0, 0)) -> None:
        if rules is None:
            rules = deal.rules if deal is not None else Rules(bool(start.breaking))
        names = tuple(names)
        if len(names) != 4:
            raise ValueError("a board needs the four hands' names")
        start = check_position(start, names)._replace(breaking=rules.breaking)
        won = tuple(int(w) for w in won)
        if len(won) != 4 or min(won) < 0:
            raise ValueError(f"tricks won must be four counts of 0 or more, not {won!r}")
        self.start = start
        leader = start.leader
        self.names: Tuple[str, str, str, str] = (names[0], names[1], names[2], names[3])
        self.rules = rules
        self.deal = deal
        self.seating = Seating(self.names, leader)
        self._positions: List[Position] = [self.start]   # before each move, then the current one
        self._tricks: List[Trick] = []
        self._moves: List[int] = []
        self._won = list(won)
        self._won_at_start = won

    # ------------------------------------------------------------ constructors
    @classmethod
    def opening(cls, seating: Seating, hands: Mapping[str, int], rules: Rules = DEFAULT_DEAL_RULES,
                deal: Optional[ScoredTable] = None) -> "Board":
        """The opening lead of the layout ``hands`` (hand name -> cards) with
        ``seating`` (its declarer and opening leader)."""
        names = seating.names
        start = Position((hands[names[0]], hands[names[1]], hands[names[2]], hands[names[3]]),
                         seating.leader, (), False, rules.breaking)
        return cls(start, names, rules, deal)

    @classmethod
    def at(cls, position: Position, names: Sequence[str] = ROLES, rules: Optional[Rules] = None,
           won: Sequence[int] = (0, 0, 0, 0), deal: Optional[ScoredTable] = None) -> "Board":
        """A board from any position (a trick may be in progress), with the
        tricks each seat ``won`` before it. ``deal`` (if given) supplies the
        auction, the scoring rules and the running scores; its hands are not
        the position's."""
        return cls(position, names, rules, deal, won)

    def copy(self) -> "Board":
        """An independent board at the same point: the stacks copied, nothing replayed."""
        new = Board.__new__(Board)
        new.__dict__.update(self.__dict__)
        new._positions = self._positions.copy()
        new._tricks = self._tricks.copy()
        new._moves = self._moves.copy()
        new._won = self._won.copy()
        return new

    def frozen(self) -> Play:
        """The play so far as an immutable value (the stacks copied)."""
        return Play(tuple(self._positions), tuple(self._tricks), tuple(self._moves),
                    self.tricks_won, self._won_at_start)

    @classmethod
    def resume(cls, play: Play, names: Sequence[str], rules: Rules,
               deal: Optional[ScoredTable] = None) -> "Board":
        """A board at the end of ``play`` (:meth:`frozen` gave it), played
        with ``names`` and ``rules``: the stacks copied, nothing replayed."""
        board = cls(play.positions[0], names, rules, deal, play.won_at_start)
        board._positions = list(play.positions)
        board._tricks = list(play.tricks)
        board._moves = list(play.moves)
        board._won = list(play.won)
        return board

    def with_rules(self, rules: Rules) -> "Board":
        """The same play under other rules. Raises :class:`IllegalPlayError`
        if a card played is not legal under them. Nothing is replayed: each
        card is checked at the position it was played from."""
        new = self.copy()
        new.rules = rules
        new._positions = [p._replace(breaking=rules.breaking) for p in self._positions]
        new.start = new._positions[0]
        for i, card in enumerate(self._moves):
            if not new._positions[i].legal_mask() >> card & 1:
                while len(new._moves) > i:
                    new.pop()
                new.check(card)       # raises, saying why
        return new

    # ------------------------------------------------------------------ reading
    @property
    def position(self) -> Position:
        """The current position: what a solver is asked about."""
        return self._positions[-1]

    def transposition_key(self) -> Tuple[Position, Tuple[int, int, int, int]]:
        """The position and the tricks won: boards with equal keys have the
        same answers (however their cards were played)."""
        return self.position, self.tricks_won

    @property
    def breaking(self) -> bool:
        return self.rules.breaking

    @property
    def hands(self) -> Tuple[int, int, int, int]:
        """Cards still held, by seat (cards on the table excluded)."""
        return self.position.hands

    @property
    def leader(self) -> int:
        """The seat that led (or is to lead) the trick in progress."""
        return self.position.leader

    @property
    def trick(self) -> Tuple[int, ...]:
        """Cards played to the trick in progress, in order."""
        return self.position.trick

    @property
    def current_trick(self) -> Trick:
        return Trick(self.position.leader, self.position.trick)

    @property
    def tricks(self) -> Tuple[Trick, ...]:
        """The tricks completed on this board, in order."""
        return tuple(self._tricks)

    @property
    def moves(self) -> Tuple[int, ...]:
        """Every card played on this board, in order (the move stack)."""
        return tuple(self._moves)

    @property
    def to_move(self) -> Optional[int]:
        """The seat whose card is next; ``None`` when the hand is over."""
        pos = self.position
        return None if pos.is_over else pos.to_move

    @property
    def chooser(self) -> Optional[int]:
        """The seat that chooses the next card (the declarer for the dummy)."""
        seat = self.to_move
        return None if seat is None else controller(seat)

    @property
    def spades_broken(self) -> bool:
        """A spade was played to a completed trick (or before the start)."""
        return self.position.spades_broken

    @property
    def is_over(self) -> bool:
        return self.position.is_over

    @property
    def tricks_won(self) -> Tuple[int, int, int, int]:
        """Completed tricks won by each seat."""
        w = self._won
        return w[0], w[1], w[2], w[3]

    def side_won(self, side: int) -> int:
        """Completed tricks won by the seats of ``side`` (a seat mask)."""
        w = self._won
        return sum(w[seat] for seat in range(4) if side >> seat & 1)

    @property
    def declarer_tricks(self) -> int:
        """Declarer-side tricks won (declarer + dummy)."""
        return self.side_won(DECLARER_SIDE)

    @property
    def defender_tricks(self) -> int:
        """Defender-side tricks won (both defenders together)."""
        return self.side_won(DEFENDER_SIDE)

    def won_by_name(self) -> Dict[str, int]:
        """Completed tricks won by each hand, by name."""
        return dict(zip(self.names, self._won))

    def open_play(self) -> OpenPlay:
        """What everyone has seen of the play, read from the stacks: the voids
        shown are the suit led where a seat did not follow, and every suit but
        spades where it led a spade unbroken under the breaking rule."""
        voids: List[Set[int]] = [set(), set(), set(), set()]
        plays = []
        for before, card in zip(self._positions, self._moves):
            seat = before.to_move
            plays.append((seat, card))
            if not before.trick:
                if before.breaking and not before.spades_broken and suit_of(card) == SPADES:
                    voids[seat].update(s for s in SUITS if s != SPADES)
            elif suit_of(card) != suit_of(before.trick[0]):
                voids[seat].add(suit_of(before.trick[0]))
        now = self.position
        return OpenPlay(tuple(plays), self.tricks_won, now.leader, now.trick, now.spades_broken,
                        tuple(tuple(sorted(v)) for v in voids))

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete (the one in progress included)."""
        return self.position.tricks_left

    def legal_mask(self) -> int:
        pos = self.position
        return 0 if pos.is_over else pos.legal_mask()

    def legal_moves(self) -> List[int]:
        """The cards the player to move may play, ascending."""
        return list(iter_cards(self.legal_mask()))

    def is_legal(self, card: int) -> bool:
        return bool(self.legal_mask() >> card & 1) if 0 <= card < 52 else False

    def holder(self, card: int) -> Optional[int]:
        """The seat still holding ``card``, or ``None``."""
        for seat, hand in enumerate(self.position.hands):
            if hand >> card & 1:
                return seat
        return None

    def check_not_over(self, error: type = DealError, task: str = "solve") -> None:
        """Raise ``error`` (a :class:`DealError` class) when the hand is over:
        there is nothing left to ``task``."""
        if self.is_over:
            raise error(f"the hand is over: all 13 tricks are played, so there is nothing left "
                        f"to {task}", field="played",
                        expected="a deal with cards still to play (`dummy-spades score FILE` "
                                 "scores a finished hand)")

    # ------------------------------------------------------------------ playing
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
        if self.position.trick:
            led = SUIT_NAMES[suit_of(self.position.trick[0])]
            raise IllegalPlayError(f"{who} plays {text} but holds {led}: a revoke",
                                   reason="revoke", expected=f"a card of the suit led, {led} ({legal})")
        raise IllegalPlayError(f"{who} leads {text} but spades are not broken and {who} holds other suits",
                               reason="spade-lead", expected=f"a lead from another suit ({legal})")

    def push(self, card: int) -> Optional[Trick]:
        """Play ``card`` for the seat to move (checked). Returns the trick if it completed one."""
        self.check(card)
        before = self.position
        after = before.play(card)
        self._positions.append(after)
        self._moves.append(card)
        if after.trick:
            return None
        done = Trick(before.leader, before.trick + (card,))
        self._tricks.append(done)
        self._won[after.leader] += 1
        return done

    def pop(self) -> int:
        """Take back the last card played; returns it."""
        if not self._moves:
            raise IndexError("no card to take back")
        card = self._moves.pop()
        after = self._positions.pop()
        if not after.trick:
            self._tricks.pop()
            self._won[after.leader] -= 1
        return card

    # ------------------------------------------------------------------ scoring
    def score(self, declarer_tricks: Optional[int] = None,
              hand_tricks: Optional[Mapping[str, int]] = None) -> HandResult:
        """The hand's score under the board's rules (see :meth:`Deal.score
        <solver.deal.Deal.score>`): from the tricks won when the hand is
        over, else from the trick totals given, which must fit the tricks
        won so far."""
        if self.deal is None:
            raise DealError("a board without a deal has no auction to score",
                            field="auction", expected="a board of a deal")
        return hand_result(self.deal, self.rules.scoring, self.seating, self.won_by_name(),
                           self.tricks_left, declarer_tricks, hand_tricks)

    def __repr__(self) -> str:
        return (f"Board(start={self.start!r}, names={self.names!r}, rules={self.rules!r}, "
                f"won={tuple(self._won)!r}, moves={self.moves!r})")


__all__ = ["Board", "OpenPlay", "Play", "Trick"]
