"""What `advise` works from: the position as the player to choose sees it
(docs/ADVISE.md "What the player knows").

:func:`question` turns a player's :class:`~solver.knowledge.Knowledge` of
the play (their own hand, the dummy as far as they have seen it, the
auction, every card played and by which hand, the voids shown) into a
:class:`Question`: the public part of the position (the seating, the trick
in progress, the tricks won, the cards each hand has played), the hands the
chooser sees, the :class:`~.layouts.LayoutSpace` of the hidden hands (hand
sizes, shown voids, the dummy cards seen before the opening lead, under
Mirror the spades the bids show), the goals that matter (the declarer's
contract, each defender's own bid, each nil that counts) and the other
players' bids that weight the layouts. :func:`question_of` does it for a
deal at its current position; the deal's hidden hands go into none of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import List, Optional, Tuple

from ..analysis import AnalysisError
from ..board import Board
from ..auction import Bid
from ..cards import SPADES, SUIT_MASK, SUITS
from ..cards import count as popcount
from ..deal import Deal, parse_variant
from ..knowledge import Knowledge
from ..position import Position, equivalent_groups
from ..scoring import DUMMY, NilBet
from ..seating import DUMMY_SEAT, side_of
from ..simulation import Layout, LayoutSpace


class AdviseError(AnalysisError):
    """A position `advise` cannot answer (a finished hand, a player who is not
    to play, an unknown player, no complete auction)."""


@dataclass(frozen=True)
class Goal:
    """A goal whose chance `advise` reports. ``kind``: ``contract`` (the
    declarer's bid against the declarer side's tricks), ``bid`` (a
    defender's own bid against the defenders' combined tricks) or ``nil``
    (``bidder``'s nil on ``hand`` that counts). ``key``: its name in the
    JSON (the player for a contract or bid, ``nil HAND by BIDDER``)."""

    kind: str
    player: str
    bid: int = 0
    hand: str = ""

    @property
    def key(self) -> str:
        return f"nil {self.hand} by {self.player}" if self.kind == "nil" else self.player

    @property
    def text(self) -> str:
        if self.kind == "nil":
            return f"{self.player}'s nil on {self.hand}"
        return f"{self.player}'s {self.bid}"


@dataclass(frozen=True)
class Bidder:
    """An earlier bid the layouts are weighted by (docs/ADVISE.md
    "Conditioning on the bids"): the bid, the bidder's play seat, position
    in the bidding order (0-2), the numbers bid before them, and the dummy
    cards the chooser knows they saw (flip-N: the cards face up)."""

    bid: Bid
    seat: int
    position: int
    earlier: Tuple[int, ...]


@dataclass(frozen=True)
class Question:
    """The position as the player of ``knowledge`` (who chooses the next
    card) sees it: what ``advise`` adds to their knowledge.

    ``seat``: the seat to move (the dummy's when the declarer chooses for
    it); ``visible``: per seat, the cards the player sees in that hand now
    (``None``: hidden, dealt by ``space``, whose names are those hands'
    names); ``goals``: the goals reported; ``bidders``: the other players'
    bids, for the conditioning; ``groups``: the legal cards in groups of
    equivalent cards (the same in every layout: the cards still in play are
    known to everyone); ``knowledge``: what the player knows, whence all of
    it. The play so far is read from ``knowledge`` by seat (``names``,
    ``leader``, ``trick``, ``won``, ``played``...), each once."""

    seat: int
    visible: Tuple[Optional[int], Optional[int], Optional[int], Optional[int]]
    space: LayoutSpace
    goals: Tuple[Goal, ...]
    bidders: Tuple[Bidder, ...]
    groups: Tuple[Tuple[int, ...], ...]
    knowledge: Knowledge

    # ------------------------------------------------------------ the play, by seat
    @property
    def player(self) -> str:
        return self.knowledge.player

    @property
    def names(self) -> Tuple[str, str, str, str]:
        """The hand names by play seat."""
        return self.knowledge.names

    @cached_property
    def leader(self) -> int:
        """The seat that led the trick in progress."""
        return self.names.index(self.knowledge.leader)

    @property
    def trick(self) -> Tuple[int, ...]:
        return self.knowledge.trick

    @cached_property
    def won(self) -> Tuple[int, int, int, int]:
        """Completed tricks won by each seat."""
        won = self.knowledge.won
        return (won[self.names[0]], won[self.names[1]], won[self.names[2]], won[self.names[3]])

    @cached_property
    def played(self) -> Tuple[int, int, int, int]:
        """The cards each seat has played (the trick in progress included)."""
        k, names = self.knowledge, self.names
        return (k.played_by(names[0]), k.played_by(names[1]), k.played_by(names[2]),
                k.played_by(names[3]))

    @property
    def nils(self) -> Tuple[NilBet, ...]:
        """The nil bets that count."""
        return self.knowledge.nils

    @cached_property
    def variant(self) -> str:
        """The dummy-visibility variant's name."""
        return parse_variant(self.knowledge.variant)[0]

    @property
    def bidding(self) -> str:
        """The bidding rules."""
        return self.knowledge.bidding

    # ------------------------------------------------------------ derived
    @property
    def side(self) -> int:
        """The side of the seat to move (the chooser's side)."""
        return side_of(self.seat)

    @property
    def hidden(self) -> Tuple[int, ...]:
        """The hidden seats, in ``space.names`` order."""
        return tuple(self.names.index(n) for n in self.space.names)

    @property
    def opening_lead(self) -> bool:
        """Is this the opening lead (no card played yet)?"""
        return not any(self.played)

    @property
    def tricks_played(self) -> int:
        return sum(self.won)

    def hands(self, layout: Layout) -> Tuple[int, int, int, int]:
        """The four hands by seat, now, in ``layout``."""
        hands = list(self.visible)
        for seat, cards in zip(self.hidden, layout):
            hands[seat] = cards
        return (int(hands[0] or 0), int(hands[1] or 0), int(hands[2] or 0), int(hands[3] or 0))

    def board(self, layout: Layout) -> Board:
        """The board of ``layout`` at this point of the play
        (:meth:`Knowledge.board <solver.knowledge.Knowledge.board>`)."""
        return self.knowledge.board(dict(zip(self.names, self.hands(layout))))

    def original(self, layout: Layout, seat: int) -> int:
        """The 13 cards ``seat`` was dealt, in ``layout``: still held and played."""
        return self.hands(layout)[seat] | self.played[seat]

    def nil_seats(self) -> Tuple[int, ...]:
        """The seats under a nil bet that counts and has not failed yet (no
        trick won), each once, in seat order: the nil questions of a layout."""
        seats = {self.names.index(b.hand) for b in self.nils}
        return tuple(s for s in sorted(seats) if not self.won[s])


# ---------------------------------------------------------------- building
def question_of(deal: Deal, player: Optional[str] = None) -> Question:
    """The position of ``deal`` after its played cards, as ``player`` sees it
    (default: the player who chooses the next card; it must be them)."""
    if player is not None and player not in deal.players:
        also = " (the declarer chooses the dummy's cards)" if player == DUMMY else ""
        raise AdviseError(f"unknown player {player!r}{also}", field="player",
                          expected=f"one of {', '.join(deal.players)}")
    if deal.auction is None or deal.declarer is None:
        raise AdviseError("the auction is not complete, so there is no play to advise on",
                          field="auction", expected="three bids (`dummy-spades bid FILE` "
                                                    "advises on the bids)")
    board = deal.board()
    board.check_not_over(AdviseError, "advise on")
    seat = board.to_move
    chooser = board.names[board.chooser or 0]
    assert seat is not None
    if player is not None and player != chooser:
        whose = f"the dummy's card ({chooser} declares)" if seat == DUMMY_SEAT else "the next card"
        raise AdviseError(f"{player} is not to play: {chooser} chooses {whose}",
                          field="player", expected=f"{chooser} (or no --player)")
    return question(Knowledge.from_board(board, chooser))


def question(knowledge: Knowledge) -> Question:
    """The question of the player of ``knowledge`` (a view of the play), who
    must choose the next card."""
    k = knowledge
    if not k.in_play or k.is_over or k.chooser != k.player:
        raise AdviseError(f"{k.player} does not choose the next card", field="player",
                          expected=f"{k.chooser} (the player to choose)" if k.chooser else
                          "a position with a card to play")
    names = k.names
    seat = names.index(k.to_move or "")
    visible: List[Optional[int]] = [None, None, None, None]
    hidden, sizes, fixed, counts = [], [], [], []
    spades = k.spades_known
    for s, name in enumerate(names):
        if k.to_deal(name) == 0:
            visible[s] = k.known(name)
            continue
        hidden.append(name)
        sizes.append(k.to_deal(name))
        fixed.append(k.known(name))
        row: List[Optional[int]] = [0 if suit in k.voids(name) else None for suit in SUITS]
        if name in spades:   # mirror: the bid is the spades dealt, the cards played included
            row[SPADES] = spades[name] - popcount(k.played_by(name) & SUIT_MASK[SPADES]) \
                - popcount(k.known(name) & SUIT_MASK[SPADES])
        counts.append(tuple(row))
    space = LayoutSpace(tuple(hidden), k.unknown, tuple(sizes), tuple(fixed), tuple(counts))
    auction = k.auction
    order = auction.bidding_order
    bidders = tuple(Bidder(b, names.index(b.player), order.index(b.player),
                           tuple(x.tricks for x in auction.bids[:order.index(b.player)]))
                    for b in auction.bids if b.player != k.player)
    declarer = k.declarer
    bids = auction.tricks_bid
    goals = [Goal("contract", declarer, bids[declarer])]
    goals += [Goal("bid", p, bids[p]) for p in auction.defenders if bids[p] > 0]
    goals += [Goal("nil", b.bidder, 0, b.hand) for b in k.nils]
    return Question(seat, (visible[0], visible[1], visible[2], visible[3]), space, tuple(goals),
                    bidders, _groups(k, seat), k)


def _groups(k: Knowledge, seat: int) -> Tuple[Tuple[int, ...], ...]:
    """The legal cards of ``seat`` (to move) in groups of equivalent cards:
    those with no card between them still in play, held by anyone or on the
    table. The cards in play are known to everyone, so the groups are the
    same in every layout: :func:`solver.position.equivalent_groups` on a
    position whose next seat holds all the other cards in play (the sizes
    do not matter to the grouping)."""
    hands = [0, 0, 0, 0]
    hands[seat] = k.known(k.names[seat])
    rest = k.unknown
    for name in k.names:
        if name != k.names[seat]:
            rest |= k.known(name)
    hands[(seat + 1) % 4] = rest
    position = Position((hands[0], hands[1], hands[2], hands[3]), k.names.index(k.leader),
                        k.trick, k.spades_broken, k.breaking)
    return tuple(equivalent_groups(position))


__all__ = ["AdviseError", "Bidder", "Goal", "Question", "question", "question_of"]
