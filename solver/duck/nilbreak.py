"""Nil breaking (docs/DUCK.md "Nil breaking"): can a player force a trick on
a nil hand they do not want kept, and what does it do to every score?

Two breakers are asked about for each applicable nil on a defender's hand
that has won nothing yet: the other defender (the cut-throat partner) and
the declarer. Position level (engine arguments, counts from the position
on):

* :func:`can_force`: the nil-aware query with the teams split so that the
  breakers play against everybody else keeping the nil;
* :func:`break_value`: the lexicographic game "first force a trick on the
  nil hand, then take as many counted tricks as possible" against "first
  keep the nil, then hold those tricks down", a search on top of the engine
  (null-window tests, one pair of ``card_groups`` queries per position).

Deal level: :func:`break_questions`, :func:`nil_break` (the outcome and
what it does to every score), :func:`card_breaks` (card by card).

Seats: 0 declarer, 1 left defender, 2 dummy, 3 right defender.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..board import Board
from ..position import ALL_SEATS, Position
from ..seating import DECLARER_SIDE, DEFENDER_SIDE, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT
from .outcomes import NilStatus, OutcomeRow, OutcomeRows, changes
from .questions import Oracle, OverBudget, after_card_won_by, by_card, default_oracle

#: Default node budget of one :func:`break_value` search (positions expanded).
BREAK_BUDGET = 600


@dataclass(frozen=True)
class BreakGame:
    """Who breaks which nil: the ``breakers`` (a seat mask) play first to
    make ``nil_seat`` win a trick and then to take as many tricks of the
    seats in ``count`` as they can; every other seat plays first to keep
    ``nil_seat`` trickless and then to hold those tricks down."""

    nil_seat: int
    breakers: int
    count: int

    @property
    def keepers(self) -> int:
        return ALL_SEATS & ~self.breakers

    @classmethod
    def by_defender(cls, nil_seat: int) -> "BreakGame":
        """The other defender alone breaks a defender's nil and then plays
        for defender tricks, against the nil hand and the declarer."""
        other = LEFT_DEFENDER_SEAT + RIGHT_DEFENDER_SEAT - nil_seat
        return cls(nil_seat, 1 << other, DEFENDER_SIDE)

    @classmethod
    def with_declarer(cls, nil_seat: int) -> "BreakGame":
        """The other defender and the declarer together against the nil
        hand (asked only whether they can force the trick)."""
        other = LEFT_DEFENDER_SEAT + RIGHT_DEFENDER_SEAT - nil_seat
        return cls(nil_seat, DECLARER_SIDE | 1 << other, DECLARER_SIDE)

    @classmethod
    def by_declarer(cls, nil_seat: int) -> "BreakGame":
        """The declarer breaks a defender's nil and then plays for his own
        tricks, against both defenders."""
        return cls(nil_seat, DECLARER_SIDE, DECLARER_SIDE)


def can_force(pos: Position, game: BreakGame, oracle: Optional[Oracle] = None) -> bool:
    """Can the breakers force a trick on the nil hand from ``pos`` on,
    whatever the other seats do? (the nil-aware query with the keepers as
    the side; ``-1``: the nil cannot be kept)."""
    oracle = oracle or default_oracle()
    return oracle.max_tricks(pos, game.keepers, game.keepers, nil_seat=game.nil_seat) < 0


def card_can_force(pos: Position, game: BreakGame,
                   oracle: Optional[Oracle] = None) -> Dict[int, bool]:
    """:func:`can_force` after each legal card of the player to move."""
    oracle = oracle or default_oracle()
    groups = oracle.card_groups(pos, game.keepers, game.keepers, nil_seat=game.nil_seat)
    return {c: v < 0 for c, v in by_card(groups).items()}


class _BreakSearch:
    """Null-window tests of one :class:`BreakGame`: "can the breakers force
    the trick on the nil hand and take at least ``t`` counted tricks?"."""

    def __init__(self, game: BreakGame, oracle: Oracle, budget: int) -> None:
        self.game, self.oracle, self.budget = game, oracle, budget
        self.nodes = 0
        self.memo: Dict[Tuple[Position, int], bool] = {}

    def plain(self, p: Position) -> int:
        """The counted tricks of the game without the nil: the breakers
        maximise them, everybody else minimises (what follows a break)."""
        return 0 if p.is_over else self.oracle.max_tricks(p, self.game.breakers, self.game.count)

    def wins(self, p: Position, t: int) -> bool:
        """``p``: the nil hand has not won a trick and the breakers can force one."""
        if t <= 0:
            return True
        if t > p.tricks_left:
            return False
        key = (p, t)
        if key not in self.memo:
            self.nodes += 1
            if self.nodes > self.budget:
                raise OverBudget
            self.memo[key] = self.expand(p, t)
        return self.memo[key]

    def expand(self, p: Position, t: int) -> bool:
        g = self.game
        forced = by_card(self.oracle.card_groups(p, g.keepers, g.keepers, nil_seat=g.nil_seat))
        groups = self.oracle.card_groups(p, g.breakers, g.count)
        breaking = bool(g.breakers >> p.to_move & 1)
        groups.sort(key=lambda grp: -grp[1] if breaking else grp[1])
        for cards, bound in groups:
            card = cards[0]
            if bound < t:             # not even the game without the nil gets there
                ok = False
            else:
                child, winner = after_card_won_by(p, card)
                gained = 1 if winner is not None and g.count >> winner & 1 else 0
                if winner == g.nil_seat:
                    ok = True         # broken here; the plain game gives ``bound``
                elif forced[card] >= 0:
                    ok = False        # the keepers can keep the nil after this card
                else:
                    ok = self.wins(child, t - gained)
            if breaking and ok:
                return True
            if not breaking and not ok:
                return False
        return not breaking


#: :func:`break_value` when the breakers cannot force a trick on the nil hand.
NOT_FORCED = -1


def break_value(pos: Position, game: BreakGame, oracle: Optional[Oracle] = None,
                budget: int = BREAK_BUDGET) -> Optional[int]:
    """The most tricks of the seats in ``game.count`` (from ``pos`` on, the
    trick in progress included) the breakers can make sure of while making
    sure the nil hand wins a trick, every other seat playing first to keep
    the nil and then to hold those tricks down. :data:`NOT_FORCED` when the
    breakers cannot force the trick; ``None`` when the search exceeds
    ``budget`` positions.

    Once the nil hand has won a trick the keepers have lost their first aim,
    so the rest is the game without the nil (the engine's ``max_tricks``).
    Before that, the breakers may only play cards after which the trick can
    still be forced, so the value is at most that of the game without the
    nil; the search tests ``t`` = that value, then ``t - 1``, ... ."""
    oracle = oracle or default_oracle()
    if not can_force(pos, game, oracle):
        return NOT_FORCED
    search = _BreakSearch(game, oracle, budget)
    try:
        for t in range(search.plain(pos), 0, -1):
            if search.wins(pos, t):
                return t
        return 0
    except OverBudget:
        return None


# ================================================================ deal level
@dataclass(frozen=True)
class BreakQuestion:
    """One player (``breaker``) against the applicable nil bets on a
    defender's ``hand`` (made by ``bidders``): the game they play, whether
    they can force a trick on the hand whatever the other two do
    (``can_force``) and, for a defender, whether they can with the
    declarer's help (``with_declarer``; ``None`` for the declarer)."""

    breaker: str
    hand: str
    bidders: Tuple[str, ...]
    game: BreakGame
    can_force: bool
    with_declarer: Optional[bool]


def break_questions(at: Board, nils: Sequence[NilStatus],
                    oracle: Oracle) -> Tuple[BreakQuestion, ...]:
    """For each defender's hand with an applicable nil that has won nothing
    yet: the other defender, then the declarer, as breakers."""
    hands: Dict[str, List[NilStatus]] = {}
    for n in nils:
        if n.side == DEFENDER_SIDE and not n.won:
            hands.setdefault(n.hand, []).append(n)
    out = []
    for hand, bets in hands.items():
        seat = bets[0].seat
        bidders = tuple(n.bidder for n in bets)
        game = BreakGame.by_defender(seat)
        alone = can_force(at.position, game, oracle)
        helped = alone or can_force(at.position, BreakGame.with_declarer(seat), oracle)
        out.append(BreakQuestion(at.seating.other_defender(hand), hand, bidders, game, alone, helped))
        game = BreakGame.by_declarer(seat)
        out.append(BreakQuestion(at.seating.declarer, hand, bidders, game,
                                 can_force(at.position, game, oracle), None))
    return tuple(out)


def break_total(at: Board, q: BreakQuestion, oracle: Oracle,
                budget: int = BREAK_BUDGET) -> Optional[int]:
    """The whole-hand defender total of ``q``'s game (``None``: over budget)."""
    v = break_value(at.position, q.game, oracle, budget)
    if v is None or v == NOT_FORCED:
        return None
    tricks = v if q.game.count == DEFENDER_SIDE else at.tricks_left - v
    return at.defender_tricks + tricks


@dataclass(frozen=True)
class NilBreak:
    """A breaker against a defender's nil (docs/DUCK.md "Nil breaking"):
    the question asked, the defender total of the breaking game
    (``defender_tricks``; ``None`` when the trick cannot be forced or the
    search did not finish in time), that outcome with the nil bets on the
    hand lost, and the change in the breaker's value and margin against the
    cooperative row."""

    question: BreakQuestion
    defender_tricks: Optional[int]
    outcome: Optional[OutcomeRow]
    own_change: Optional[int]
    margin_change: Optional[int]

    @property
    def breaker(self) -> str:
        return self.question.breaker

    @property
    def hand(self) -> str:
        return self.question.hand

    @property
    def pays(self) -> Optional[bool]:
        """The breaker's value rises, or stays and their margin rises."""
        if self.own_change is None or self.margin_change is None:
            return None
        return (self.own_change, self.margin_change) > (0, 0)


def nil_break(q: BreakQuestion, total: Optional[int], scorer: OutcomeRows,
              base: OutcomeRow) -> NilBreak:
    """The outcome of ``q``'s game ending with defender total ``total``."""
    if total is None:
        return NilBreak(q, None, None, None, None)
    settled = dict(scorer.settle(total))
    settled[q.hand] = (False, "broken")
    row = scorer.row(total, settled)
    return NilBreak(q, total, row, *changes(q.breaker, row, base))


@dataclass(frozen=True)
class CardBreak:
    """At the card level: can ``breaker`` still force a trick on ``hand``
    after this card, whatever the other two do?"""

    breaker: str
    hand: str
    can_force: bool


def card_breaks(at: Board, questions: Sequence[BreakQuestion],
                oracle: Oracle) -> Dict[int, Tuple[CardBreak, ...]]:
    """``{card: breaks}`` for every legal card of the player to move."""
    after = [(q, card_can_force(at.position, q.game, oracle)) for q in questions]
    cards = after[0][1] if after else {}
    return {c: tuple(CardBreak(q.breaker, q.hand, forced[c]) for q, forced in after)
            for c in cards}
