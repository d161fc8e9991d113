"""A deal: everything a deal file describes, as one immutable value.

``Deal`` holds the three real players (clockwise), the dealer, the four hands
(``"dummy"`` included), the auction so far, the cards already played, the
rule settings, the running scores and the auction variant
(:class:`~solver.variant.Variant`). It validates
itself on construction (raising :class:`~solver.errors.DealError` with the
deal-file field path of the problem) and answers the questions the commands
ask: the seating for any declarer, the board (:class:`~solver.board.Board`)
at the opening lead or after the played cards, the hand's score.

A deal with played cards replays them once, when it is built (they are
checked card by card), and keeps that play frozen (a :class:`~solver.board.Play`):
:meth:`Deal.board` resumes a board from it. The deal builds its boards; a
board reads back only what scoring needs (:mod:`solver.hand_result`).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from .auction import Auction, check_auction, spade_count
from .board import Board, Play
from .cards import (CardError, check_hands, format_card, format_cards, format_hand, parse_card,
                    parse_hand)
from .errors import DealError, IllegalPlayError
from .frozen_map import FrozenMap
from .hand_result import HandResult, ScoredTable, check_trick_totals
from .pbn import format_pbn_deal, parse_pbn_deal
from .rules import DEFAULT_DEAL_RULES, Rules
from .scoring import DUMMY, TRICKS_PER_HAND, Standing
from .seating import Seating, check_table, play_seating
from .variant import VARIANT_CARDS, VARIANT_FORMS, Variant, parse_variant, parse_variant_name

# -------------------------------------------------------------------- deal
def _as_mask(value: Union[int, str], where: str) -> int:
    if isinstance(value, str):
        try:
            return parse_hand(value)
        except CardError as err:
            raise err.relocated(field=where) from None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value >> 52:
        raise DealError(f"{value!r} is not a hand", field=where,
                        expected="a card mask or PBN dot notation")
    return value


def _as_cards(values: Sequence[Union[int, str]]) -> Tuple[int, ...]:
    cards = []
    for i, value in enumerate(values):
        try:
            cards.append(parse_card(value) if isinstance(value, str) else int(value))
        except CardError as err:
            raise err.relocated(field=f"played[{i}]") from None
        except (TypeError, ValueError):
            raise DealError(f"{value!r} is not a card", field=f"played[{i}]",
                            expected="a card such as SA or a card int 0..51") from None
    return tuple(cards)


@dataclass(frozen=True)
class Deal:
    """One hand of Dummy Hand Spades as a deal file describes it (validated).

    ``hands`` and ``played`` also accept PBN text / card text, and
    ``scores`` plain dicts: ``Deal(("Ann", "Bob", "Cy"), "Cy", {"Ann":
    "AKQ...", ...})``.
    """

    players: Tuple[str, str, str]
    dealer: str
    hands: FrozenMap[str, int]
    auction: Optional[Auction] = None
    played: Tuple[int, ...] = ()
    rules: Rules = DEFAULT_DEAL_RULES
    scores: Optional[FrozenMap[str, Standing]] = None
    variant: Variant = Variant()
    title: str = ""
    notes: str = ""
    _play: Optional[Play] = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        players = check_table(self.players, self.dealer)
        object.__setattr__(self, "players", players)
        self._check_hands()
        self._check_auction()
        object.__setattr__(self, "played", _as_cards(self.played))
        if self.scores is not None:
            self._check_scores()
        for player, mask in self.variant.seen.items():
            if player not in players:
                raise DealError(f"unknown player {player!r}", field=f"variant.seen.{player}",
                                expected=f"one of {', '.join(players)}")
            if mask & ~self.hands[DUMMY]:
                raise DealError(f"{format_cards(mask & ~self.hands[DUMMY])} not in the dummy",
                                field=f"variant.seen.{player}", expected="cards of the dummy's hand")
        object.__setattr__(self, "_play", self._replay().frozen() if self.played else None)

    # ------------------------------------------------------------ validation
    def _check_hands(self) -> None:
        names = self.players + (DUMMY,)
        hands: Dict[str, int] = {}
        for name, value in dict(self.hands).items():
            where = f"hands.{name}"
            if name not in names:
                raise DealError(f"unknown hand {name!r}", field=where,
                                expected=f"one hand each for {', '.join(self.players)} and dummy")
            hands[name] = _as_mask(value, where)
        missing = [n for n in names if n not in hands]
        if missing:
            raise DealError(f"no hand for {', '.join(missing)}", field="hands",
                            expected=f"one hand each for {', '.join(self.players)} and dummy")
        check_hands([hands[n] for n in names], names, TRICKS_PER_HAND)
        object.__setattr__(self, "hands", FrozenMap((n, hands[n]) for n in names))

    def _check_auction(self) -> None:
        a = self.auction
        if a is not None and (a.players != self.players or a.dealer != self.dealer):
            raise DealError("the auction's players or dealer differ from the deal's", field="auction",
                            expected=f"players {', '.join(self.players)} with dealer {self.dealer}")
        if a is not None:
            check_auction(self.variant.bidding, a, {p: spade_count(self.hands[p]) for p in self.players})

    def _check_scores(self) -> None:
        scores = dict(self.scores or {})
        for name, standing in scores.items():
            if name not in self.players:
                raise DealError(f"unknown player {name!r}", field=f"scores.{name}",
                                expected=f"one of {', '.join(self.players)}")
            if not isinstance(standing, Standing):
                raise DealError(f"{standing!r} is not a standing", field=f"scores.{name}",
                                expected="points and bags")
            if standing.bags < 0:
                raise DealError(f"{standing.bags} bags", field=f"scores.{name}.bags",
                                expected="a number of bags of 0 or more")
        missing = [p for p in self.players if p not in scores]
        if missing:
            raise DealError(f"no score for {', '.join(missing)}", field="scores",
                            expected=f"points and bags for each of {', '.join(self.players)}")
        object.__setattr__(self, "scores", FrozenMap((p, scores[p]) for p in self.players))

    # --------------------------------------------------------------- reading
    @property
    def declarer(self) -> Optional[str]:
        return self.auction.declarer if self.auction else None

    @property
    def dummy(self) -> int:
        return self.hands[DUMMY]

    def hand(self, name: str) -> int:
        return self.hands[name]

    def seating(self, declarer: Optional[str] = None) -> Seating:
        """The play seating for ``declarer`` (default: the auction's declarer)."""
        declarer = declarer or self.declarer
        if declarer is None:
            raise DealError("no declarer yet: the auction is not complete", field="auction",
                            expected="three bids, or a declarer chosen for the analysis")
        if declarer not in self.players:
            raise DealError(f"unknown declarer {declarer!r}",
                            expected=f"one of {', '.join(self.players)}")
        return Seating.for_deal(self.players, self.dealer, declarer)

    def opening_board(self, declarer: Optional[str] = None) -> Board:
        """The board at the opening lead, for ``declarer`` (default: the auction's)."""
        return Board.opening(self.seating(declarer), self.hands, self.rules, self)

    def board(self, declarer: Optional[str] = None) -> Board:
        """The board after the ``played`` cards (they need the auction's
        declarer): resumed from the play the deal kept when it checked them."""
        if self._play is None:
            return self.opening_board(declarer)
        if declarer not in (None, self.declarer):
            raise DealError(f"the played cards were played with {self.declarer} as declarer, "
                            f"not {declarer}", field="played")
        return Board.resume(self._play, self.seating().names, self.rules, self)

    def played_from_opening(self, board: Board) -> bool:
        """Is ``board`` played from this deal's opening lead, with its
        declarer ``board.names[0]`` (under any spade-breaking rule)?"""
        if board.names[0] not in self.players or sum(board.tricks_won) != len(board.tricks):
            return False
        opening = self.opening_board(board.names[0])
        return board.names == opening.names and \
            board.start == opening.start._replace(breaking=board.rules.breaking)

    def _replay(self) -> Board:
        """The board after the played cards, each checked (the one replay)."""
        if self.declarer is None:
            raise DealError("cards were played but the auction is not complete", field="played",
                            expected="a complete auction (three bids) before any played card")
        board = self.opening_board()
        for i, card in enumerate(self.played):
            try:
                board.push(card)
            except IllegalPlayError as err:
                where = f"trick {i // 4 + 1}, card {i % 4 + 1}"
                raise err.relocated(field=f"played[{i}]",
                                    problem=f"{err.problem} ({where})") from None
        return board

    # ------------------------------------------------------------------- PBN
    def to_pbn(self, declarer: Optional[str] = None) -> str:
        """The hands as a PBN deal string ``N:<declarer> <left defender> <dummy>
        <right defender>`` (the engine's seats). ``declarer`` defaults to the
        auction's, else the first listed player."""
        names = play_seating(self.players, declarer or self.declarer or self.players[0])
        return format_pbn_deal([self.hands[n] for n in names])

    @classmethod
    def from_pbn(cls, pbn: str, players: Sequence[str], dealer: str,
                 declarer: Optional[str] = None, **fields: Any) -> "Deal":
        """Build a deal from a PBN deal string read as :meth:`to_pbn` writes it
        (``declarer`` defaults to the auction's in ``fields``, else the first player)."""
        players = check_table(players, dealer)
        auction = fields.get("auction")
        declarer = declarer or (auction.declarer if isinstance(auction, Auction) else None) or players[0]
        try:
            hands = parse_pbn_deal(pbn)
        except DealError as err:
            raise err.relocated(field="pbn") from None
        names = play_seating(players, declarer)
        return cls(players, dealer, FrozenMap(zip(names, hands)), **fields)

    # --------------------------------------------------------------- scoring
    def score(self, declarer_tricks: Optional[int] = None,
              hand_tricks: Optional[Mapping[str, int]] = None) -> "HandResult":
        """Score the hand. Trick totals come from the played cards when all 13
        tricks are played; otherwise give ``declarer_tricks`` (declarer +
        dummy) and, for each hand under an applicable nil bet, its tricks in
        ``hand_tricks``. Totals must fit the tricks already played."""
        if self.auction is None or self.declarer is None:
            raise DealError("the hand cannot be scored before the auction is complete",
                            field="auction", expected="three bids")
        return self.board().score(declarer_tricks, hand_tricks)

    # -------------------------------------------------------------- changing
    def with_play(self, board: Board) -> "Deal":
        """The deal with ``board``'s rules and cards played: what a file saved
        from it holds (a board played from the deal's opening lead, its
        cards checked as loading checks them)."""
        if not self.played_from_opening(board):
            raise DealError("only a board played from its deal's opening lead makes a deal",
                            field="played")
        return replace(self, rules=board.rules, played=board.moves)

    def with_played(self, cards: Sequence[Union[int, str]]) -> "Deal":
        """The deal with other cards played (checked: a replay, as loading a file)."""
        return replace(self, played=_as_cards(cards))

    def with_rules(self, rules: Rules) -> "Deal":
        """The deal under other rule settings. Its played cards are checked
        under them at the positions they were played from (nothing is replayed)."""
        if rules == self.rules:
            return self
        new = copy.copy(self)
        object.__setattr__(new, "rules", rules)
        if self._play is not None:
            try:
                play = self.board().with_rules(rules).frozen()
            except IllegalPlayError:
                return replace(self, rules=rules)   # the replay says where, as loading does
            object.__setattr__(new, "_play", play)
        return new

    def __repr__(self) -> str:
        parts = [f"players={self.players!r}", f"dealer={self.dealer!r}",
                 f"hands={ {n: format_hand(m) for n, m in self.hands.items()}!r}"]
        if self.auction is not None:
            parts.append(f"auction={self.auction!r}")
        if self.played:
            parts.append(f"played={tuple(format_card(c) for c in self.played)!r}")
        if self.rules != DEFAULT_DEAL_RULES:
            parts.append(f"rules={self.rules!r}")
        if self.scores is not None:
            parts.append(f"scores={dict(self.scores)!r}")
        if self.variant != Variant():
            parts.append(f"variant={self.variant!r}")
        if self.title:
            parts.append(f"title={self.title!r}")
        if self.notes:
            parts.append(f"notes={self.notes!r}")
        return f"Deal({', '.join(parts)})"


__all__ = ["DEFAULT_DEAL_RULES", "VARIANT_CARDS", "VARIANT_FORMS", "Deal", "FrozenMap", "HandResult",
           "Rules", "ScoredTable", "Variant", "check_trick_totals", "parse_variant", "parse_variant_name"]
