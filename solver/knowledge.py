"""What one real player knows (:class:`Knowledge`), and nothing else.

In the auction (at the player's turn to bid, :meth:`Knowledge.from_deal`):
the player's own 13 cards, the dummy cards they saw under the variant
(peeked at, or turned face up for everyone in flip-N), the bids made before
their turn with their nil designations, the running scores and the rules.

In the play (at any point of it, :meth:`Knowledge.from_board`): the same
with the whole auction, and every card played from the opening lead. Before
the opening lead the dummy is seen only as the variant shows it; from the
opening lead on everyone sees all of it (the declarer then sees both of
their hands). Who saw which dummy cards in the auction stays known: under
flip-N the cards turned face up (``face_up``) were seen by every bidder;
the peeks of three/four-peeky are private, so the player knows only their
own. Which hand played each card, the tricks, who won them, who is to
play and the voids the play has shown (a hand that did not follow suit
holds none of the suit led, and a spade led before spades were broken, with
the breaking rule on, shows a hand of nothing but spades) are read from the
board (:meth:`Board.open_play <solver.board.Board.open_play>`): what
everyone at the table has seen, nothing replayed here.

A knowledge holds no hidden card: it is built from the player's view only,
and two deals that differ only in what the player cannot see give equal
knowledge. For a layout sampler, per hand name (:meth:`Knowledge.known`,
:meth:`Knowledge.holds`, :meth:`Knowledge.voids`, :attr:`Knowledge.unknown`):

* ``known(name)``: the cards known to be in the hand now (the player's own,
  the dummy's once seen);
* ``holds(name)``: how many cards the hand still holds;
* ``voids(name)``: the suits the play has shown it not to hold;
* ``unknown``: the pool of cards the player has not seen, to be dealt to the
  hands, ``holds(name) - count(known(name))`` cards to each
  (:meth:`Knowledge.to_deal`), none of a void suit
  (:meth:`Knowledge.allowed`);
* under Mirror, ``spades_known``: each other bidder's spades as dealt (the
  bid is the count), the cards they played included
  (:meth:`Knowledge.played_by`).

:meth:`Knowledge.fits` checks a layout against all of that;
:meth:`Knowledge.board` gives the board of a layout at the current point
(the engine's position, the tricks won), :meth:`Knowledge.score` the
hand's score for given trick totals. ``to_move`` and ``chooser`` name who
plays next and who chooses the card (the declarer for the dummy).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Dict, Mapping, Optional, Tuple, cast

from .auction import (MIRROR, STANDARD, Auction, Bid, check_bid, possible_declarers,
                      spade_count)
from .board import Board, OpenPlay
from .cards import FULL_DECK, SPADES, SUIT_MASK, format_cards
from .cards import count as popcount
from .deal import Deal
from .errors import DealError
from .frozen_map import FrozenMap
from .hand_result import HandResult
from .position import Position
from .rules import DEFAULT_DEAL_RULES, Rules
from .scoring import DUMMY, TRICKS_PER_HAND, NilBet, Standing
from .seating import (ROLES, Seating, bidding_order, controller, first_bidder, left_of)
from .variant import parse_variant


class KnowledgeError(DealError):
    """A player's knowledge that cannot be built (unknown player, bids out of
    turn, cards that contradict each other)."""


@dataclass(frozen=True)
class Knowledge:
    """What ``player`` knows: in the auction at their turn to bid, or in the play.

    ``hand``: the 13 cards the player was dealt. ``dummy_seen``: the dummy
    cards the player has seen (in the play from the opening lead on: the
    whole dummy). ``face_up``: the dummy cards turned face up for everyone
    in the auction (flip-N; every bidder saw them; 0 in other variants),
    kept in the play. ``bids``: in the auction the bids made before the
    player's turn, in bidding order; in the play all three. ``variant``:
    the variant's label; ``bidding``: its bidding rules. ``standing``: the
    player's running score and bags, if known; ``scores``: every player's.
    ``rules``: the deal's rule settings. ``play``: in the play, what
    everyone has seen of it from the opening lead (every card played in
    order, with its seat, the tricks, the voids shown), read from a board.
    """

    player: str
    players: Tuple[str, str, str]
    dealer: str
    hand: int
    dummy_seen: int = 0
    bids: Tuple[Bid, ...] = ()
    variant: str = "no-peeky"
    standing: Optional[Standing] = None
    rules: Rules = DEFAULT_DEAL_RULES
    bidding: str = STANDARD
    play: Optional[OpenPlay] = None
    scores: Optional[FrozenMap[str, Standing]] = None
    face_up: int = 0

    def __post_init__(self) -> None:
        players = cast(Tuple[str, str, str], tuple(self.players))  # Auction checks there are three
        auction = Auction(players, self.dealer, tuple(self.bids))  # validates
        object.__setattr__(self, "players", auction.players)
        object.__setattr__(self, "bids", auction.bids)
        if self.scores is not None:
            object.__setattr__(self, "scores", FrozenMap(self.scores))
        if self.player not in self.players:
            raise KnowledgeError(f"unknown player {self.player!r}", field="player",
                                 expected=f"one of {', '.join(self.players)}")
        if not auction.is_complete and auction.next_bidder != self.player:
            raise KnowledgeError(f"{len(self.bids)} bids before {self.player}'s turn", field="bids",
                                 expected=f"the bids of the players before {self.player} "
                                          f"(bidding order: {', '.join(auction.bidding_order)})")
        if popcount(self.hand) != TRICKS_PER_HAND:
            raise KnowledgeError(f"{popcount(self.hand)} cards", field=f"hands.{self.player}",
                                 expected="13 cards")
        if self.dummy_seen & self.hand:
            raise KnowledgeError(f"{format_cards(self.dummy_seen & self.hand)} both in the "
                                 "player's hand and seen in the dummy", field="variant.seen",
                                 expected="dummy cards that are not in the player's hand")
        if popcount(self.dummy_seen) > TRICKS_PER_HAND:
            raise KnowledgeError(f"{popcount(self.dummy_seen)} dummy cards seen",
                                 field="variant.seen", expected="at most 13")
        if self.face_up & ~self.dummy_seen or (self.face_up and
                                               not parse_variant(self.variant)[0].startswith("flip")):
            raise KnowledgeError(f"{format_cards(self.face_up)} face up", field="variant.seen",
                                 expected="dummy cards the player has seen, face up only under "
                                          "flip-N")
        if self.played:
            if not auction.is_complete:
                raise KnowledgeError("cards were played but the auction is not complete",
                                     field="played", expected="a complete auction (three bids)")
            self._check_play()
        else:
            self._check_variant_bids(auction)

    def _check_variant_bids(self, auction: Auction) -> None:
        """The earlier bids under the bidding variant; under mirror, their
        spade counts must fit the spades the player has not seen."""
        if self.bidding == STANDARD:
            return
        for i, bid in enumerate(self.bids):
            spades = bid.tricks if self.bidding == MIRROR else 0
            try:
                check_bid(self.bidding, Auction(auction.players, auction.dealer, self.bids[:i]),
                          bid, spades)
            except DealError as err:
                raise KnowledgeError(err.problem, field=f"bids[{i}]",
                                     expected=err.expected) from None
        unseen = popcount(self.unknown & SUIT_MASK[SPADES])
        known = self.spades_known
        if sum(known.values()) > unseen or \
                sum(TRICKS_PER_HAND - s for s in known.values()) > popcount(self.unknown) - unseen:
            raise KnowledgeError(f"the mirror bids before {self.player} need "
                                 f"{sum(known.values())} spades", field="bids",
                                 expected=f"spade counts that fit the cards {self.player} has not "
                                          f"seen ({unseen} spades, {popcount(self.unknown) - unseen} "
                                          "others)")

    def _check_play(self) -> None:
        """The played cards agree with what the player sees: 52 different
        cards at most, the player's own cards played by the player's hand
        only, the dummy's (once seen whole) by the dummy only."""
        if len(set(self.played)) != len(self.played) or \
                any(not 0 <= c < 52 for c in self.played) or len(self.played) > 52:
            raise KnowledgeError("the played cards repeat a card or are not cards", field="played",
                                 expected="each card played at most once")
        names = self.seating.names
        dummy_known = popcount(self.dummy_seen) == TRICKS_PER_HAND
        for i, (seat, card) in enumerate(self._seen.plays):
            name = names[seat]
            mine = bool(self.hand >> card & 1)
            dummy = bool(self.dummy_seen >> card & 1)
            if mine != (name == self.player) or (dummy_known and dummy != (name == DUMMY)):
                raise KnowledgeError(f"{format_cards(1 << card)} cannot come from {name}'s hand",
                                     field=f"played[{i}]",
                                     expected=f"the cards {self.player} can see where they are")

    # ---------------------------------------------------------- building
    @classmethod
    def from_deal(cls, deal: Deal, player: Optional[str] = None) -> "Knowledge":
        """The knowledge of ``player`` (default: the next bidder) at their
        turn in the auction. When the deal's auction already holds the
        player's bid, only the bids made before it are known."""
        auction = deal.auction or Auction(deal.players, deal.dealer)
        if player is None:
            player = auction.next_bidder
            if player is None:
                raise KnowledgeError("the auction is complete, so there is no next bidder",
                                     field="player",
                                     expected=f"a player to analyse (one of {', '.join(deal.players)})")
        if player not in deal.players:
            raise KnowledgeError(f"unknown player {player!r}", field="player",
                                 expected=f"one of {', '.join(deal.players)}")
        order = auction.bidding_order
        position = order.index(player)
        if position > len(auction.bids):
            raise KnowledgeError(f"{player} bids after {order[len(auction.bids)]}, who has not bid "
                                 "yet", field="player",
                                 expected=f"a player who has bid, or the next bidder "
                                          f"{order[len(auction.bids)]}")
        if position == len(auction.bids) == 3:
            raise KnowledgeError("the auction is complete", field="player")  # pragma: no cover
        return cls._of(deal, player, auction.bids[:position], 0, None)

    @classmethod
    def from_board(cls, board: Board, player: str) -> "Knowledge":
        """The knowledge of ``player`` at ``board``'s point of the play (a
        board of a deal with a complete auction, played from its opening
        lead, with the auction's declarer)."""
        deal = board.deal
        if not isinstance(deal, Deal) or deal.auction is None or deal.declarer is None:
            raise KnowledgeError("a player's view of the play needs the deal's complete auction",
                                 field="auction", expected="three bids")
        if player not in deal.players:
            raise KnowledgeError(f"unknown player {player!r}", field="player",
                                 expected=f"one of {', '.join(deal.players)}")
        if board.names[0] != deal.declarer or not deal.played_from_opening(board):
            raise KnowledgeError("the board is not played from its deal's opening lead with the "
                                 "auction's declarer", field="played")
        # the dummy is faced after the opening lead (docs/RULES.md "Seating for the play")
        seen = deal.dummy if board.moves else deal.variant.known_to(player)
        return cls._of(deal, player, deal.auction.bids, seen, board.open_play(), board.rules)

    @classmethod
    def _of(cls, deal: Deal, player: str, bids: Tuple[Bid, ...], seen: int,
            play: Optional[OpenPlay], rules: Optional[Rules] = None) -> "Knowledge":
        standing = deal.scores[player] if deal.scores is not None else None
        return cls(player, deal.players, deal.dealer, deal.hands[player],
                   seen or deal.variant.known_to(player), bids, deal.variant.label, standing,
                   rules or deal.rules, deal.variant.bidding, play, deal.scores,
                   deal.variant.face_up)

    # ---------------------------------------------------------- the auction
    @property
    def auction(self) -> Auction:
        return Auction(self.players, self.dealer, self.bids)

    @property
    def breaking(self) -> bool:
        """The spade-breaking rule is on."""
        return self.rules.breaking

    @property
    def in_play(self) -> bool:
        """The auction is over: this is a view of the play."""
        return len(self.bids) == 3

    @property
    def order(self) -> Tuple[str, str, str]:
        return bidding_order(self.players, self.dealer)

    @property
    def position(self) -> int:
        """0 = first to bid ... 2 = the dealer, last to bid."""
        return self.order.index(self.player)

    @property
    def first_bidder(self) -> str:
        """Also the opening leader."""
        return first_bidder(self.players, self.dealer)

    @property
    def later_bidders(self) -> Tuple[str, ...]:
        return self.order[self.position + 1:]

    @property
    def others(self) -> Tuple[str, str]:
        """The other two real players, clockwise from the player."""
        return left_of(self.players, self.player, 1), left_of(self.players, self.player, 2)

    @property
    def declarers(self) -> Tuple[str, ...]:
        """The real players who can still end up declaring (in seat order,
        :func:`solver.auction.possible_declarers`); in the play, the declarer
        alone."""
        if self.in_play:
            return (self.declarer,)
        spare = popcount(self.unknown & SUIT_MASK[SPADES]) - sum(self.spades_known.values())
        return possible_declarers(self.bidding, self.auction, spade_count(self.hand), spare)

    @property
    def spades_known(self) -> Dict[str, int]:
        """The spade counts of other hands the player knows from the bids
        (under mirror each earlier bid is the bidder's count)."""
        if self.bidding != MIRROR:
            return {}
        return {b.player: b.tricks for b in self.bids if b.player != self.player}

    @property
    def unknown(self) -> int:
        """The cards the player has not seen: neither in their hand, nor
        seen in the dummy, nor played. The pool a layout deals out."""
        played = 0
        for c in self.played:
            played |= 1 << c
        return FULL_DECK & ~self.hand & ~self.dummy_seen & ~played

    def third(self, other: str) -> str:
        """The real player who is neither the player nor ``other``."""
        return next(p for p in self.players if p not in (self.player, other))

    # ---------------------------------------------------------- the play
    @property
    def declarer(self) -> str:
        """The auction's declarer (in the play)."""
        declarer = self.auction.declarer
        if declarer is None:
            raise KnowledgeError("no declarer before the auction is complete", field="auction",
                                 expected="three bids")
        return declarer

    @cached_property
    def seating(self) -> Seating:
        """The play seating (in the play)."""
        return Seating.for_deal(self.players, self.dealer, self.declarer)

    @property
    def nils(self) -> Tuple[NilBet, ...]:
        """The nil bets that count (in the play)."""
        return tuple(self.auction.applicable_nils())

    @cached_property
    def _seen(self) -> OpenPlay:
        """What everyone has seen of the play (nothing before the opening lead)."""
        if self.play is not None:
            return self.play
        leader = self.seating.leader if self.in_play else 0
        return OpenPlay((), (0, 0, 0, 0), leader, (), False, ((), (), (), ()))

    @cached_property
    def played(self) -> Tuple[int, ...]:
        """Every card played from the opening lead, in order."""
        return tuple(card for _, card in self._seen.plays)

    @property
    def names(self) -> Tuple[str, str, str, str]:
        """The hand names by play seat (in the play)."""
        return self.seating.names

    @property
    def plays(self) -> Tuple[Tuple[str, int], ...]:
        """Every card played, with the hand that played it, in order."""
        names = self.names if self.in_play else ROLES
        return tuple((names[s], c) for s, c in self._seen.plays)

    def played_by(self, name: str) -> int:
        """The cards hand ``name`` has played (a mask)."""
        mask = 0
        for hand, card in self.plays:
            if hand == name:
                mask |= 1 << card
        return mask

    @property
    def won(self) -> Dict[str, int]:
        """Completed tricks won by each hand, by name."""
        return dict(zip(self.names, self._seen.won))

    def side_won(self, side: int) -> int:
        """Completed tricks won by the seats of ``side`` (a seat mask)."""
        return sum(w for s, w in enumerate(self._seen.won) if side >> s & 1)

    @property
    def leader(self) -> str:
        """The hand that led (or is to lead) the trick in progress."""
        return self.names[self._seen.leader]

    @property
    def trick(self) -> Tuple[int, ...]:
        """The cards of the trick in progress, in order."""
        return self._seen.trick

    @property
    def spades_broken(self) -> bool:
        return self._seen.spades_broken

    @property
    def is_over(self) -> bool:
        return len(self.played) == 52

    @property
    def to_move(self) -> Optional[str]:
        """The hand to play next (in the play; ``None`` when the hand is over)."""
        if self.is_over:
            return None
        return self.names[(self._seen.leader + len(self._seen.trick)) % 4]

    @property
    def chooser(self) -> Optional[str]:
        """The real player who chooses the next card (the declarer for the dummy)."""
        if self.is_over:
            return None
        return self.names[controller((self._seen.leader + len(self._seen.trick)) % 4)]

    def known(self, name: str) -> int:
        """The cards known to be in hand ``name`` now (still held)."""
        gone = 0
        for c in self.played:
            gone |= 1 << c
        if name == self.player:
            return self.hand & ~gone
        if name == DUMMY:
            return self.dummy_seen & ~gone
        self._hand_name(name)
        return 0

    def holds(self, name: str) -> int:
        """How many cards hand ``name`` still holds."""
        self._hand_name(name)
        return TRICKS_PER_HAND - sum(1 for hand, _ in self.plays if hand == name)

    def voids(self, name: str) -> Tuple[int, ...]:
        """The suits the play has shown hand ``name`` not to hold, ascending."""
        names = self.names if self.in_play else ROLES
        return self._seen.voids[names.index(self._hand_name(name))] if self.played else ()

    def to_deal(self, name: str) -> int:
        """How many unseen cards hand ``name`` still holds: ``holds`` minus ``known``."""
        return self.holds(name) - popcount(self.known(name))

    def allowed(self, name: str) -> int:
        """The unseen cards hand ``name`` may hold: the pool less its void suits."""
        mask = self.unknown
        for suit in self.voids(name):
            mask &= ~SUIT_MASK[suit]
        return mask

    def _hand_name(self, name: str) -> str:
        if name not in self.players and name != DUMMY:
            raise KnowledgeError(f"unknown hand {name!r}", field="hand",
                                 expected=f"dummy or one of {', '.join(self.players)}")
        return name

    def fits(self, layout: Mapping[str, int]) -> bool:
        """Does ``layout`` (hand name -> the cards it holds now) agree with
        everything the player knows: the known cards in their hands, every
        hand's size, the voids shown, the unseen cards dealt exactly once,
        and under Mirror the spade counts the bids give?"""
        names = self.players + (DUMMY,)
        if set(layout) != set(names):
            return False
        dealt = 0
        for name in names:
            cards = layout[name]
            known = self.known(name)
            if popcount(cards) != self.holds(name) or cards & known != known or dealt & cards:
                return False
            if (cards & ~known) & ~self.allowed(name):
                return False
            dealt |= cards
        for name, spades in self.spades_known.items():
            if spade_count(layout[name] | self.played_by(name)) != spades:
                return False
        return dealt & self.unknown == self.unknown

    def board(self, layout: Mapping[str, int]) -> Board:
        """The board of ``layout`` (hand name -> cards held now) at the
        current point of the play: its position, names, rules and the tricks
        won (no deal: :meth:`score` scores it)."""
        names = self.names
        p = self._seen
        position = Position((layout[names[0]], layout[names[1]], layout[names[2]],
                             layout[names[3]]), p.leader, p.trick, p.spades_broken,
                            self.rules.breaking)
        return Board.at(position, names, self.rules, p.won)

    def score(self, declarer_tricks: int, hand_tricks: Mapping[str, int]) -> HandResult:
        """The hand's score (every real player's, with the running scores if
        known) when the declarer side takes ``declarer_tricks`` and each hand
        under a nil bet that counts ``hand_tricks[hand]`` tricks."""
        return HandResult.build(self, declarer_tricks, hand_tricks, list(self.nils))


__all__ = ["Knowledge", "KnowledgeError"]
