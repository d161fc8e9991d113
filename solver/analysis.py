"""Double-dummy analysis of a deal: the library behind ``solve`` and ``analyse``.

Everything here returns plain values (no printing):

* :func:`contract_result` - for the auction's declarer, at a board of the
  deal (``deal.board()``: after its played cards; ``deal.opening_board()``;
  any point a review walks to): the declarer side's and the defenders'
  double-dummy trick totals (tricks already won included), each player's bid
  made or set and the hand's scores (through :mod:`solver.scoring`, via
  :meth:`solver.deal.HandResult.build`), and the outcome of every nil bet that
  counts (the engine's nil-aware query).
* :func:`dd_table` - each real player as a potential declarer, from the start
  of the hand (the first bidder leads): the declarer side's tricks.
* :func:`analysis_board` - the board ``analyse`` and ``explore`` start from
  (the file's position, or a what-if declarer's opening lead).
* :func:`card_analysis` - every legal card of the player to move with its
  value (the tricks of that player's side, tricks already won included),
  equivalent cards grouped, the best cards marked.
* :func:`optimal_line` - one optimal play-out from the current position to
  the end of the hand, trick by trick.

Engine seats are the play seats of :mod:`solver.seating` (0 declarer, 1 left
defender, 2 dummy, 3 right defender); the sides are
:data:`~solver.seating.DECLARER_SIDE` and :data:`~solver.seating.DEFENDER_SIDE`.
Every question goes to a :class:`solver.contract.Solver` (the engine contract)
as the board's :class:`~solver.position.Position` (:attr:`Board.position
<solver.board.Board.position>`); one solver serves the questions of one
command (its transposition table is shared by them).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, Optional, Sequence, Tuple

from .contract import Solver
from .board import Board
from .deal import Deal, HandResult
from .errors import DealError
from .scoring import TRICKS_PER_HAND, NilBet, PlayerScore
from .seating import DECLARER_SIDE, DEFENDER_SIDE, Seating, controller, side_name, side_of



class AnalysisError(DealError):
    """A deal that cannot be analysed as asked (hand over, no declarer, ...)."""


class EngineMismatch(RuntimeError):
    """Two engine answers that must agree do not (a bug in the engine, not in the input)."""


def side_members(names: Sequence[str], side: int) -> Tuple[str, ...]:
    """The hand names of a side, in play-seat order."""
    return tuple(n for seat, n in enumerate(names) if side >> seat & 1)


def dd_side_tricks(board: Board, side: int, solver: Solver) -> int:
    """Double-dummy total of ``side``'s tricks: tricks already won plus the
    most it can take from the current position on."""
    if board.is_over:
        return board.side_won(side)
    return board.side_won(side) + solver.max_tricks(board.position, side)


def dd_side_bound(board: Board, side: int, target: int, solver: Solver) -> int:
    """One null-window test of ``side``'s double-dummy total (tricks already
    won included) at ``target``, fail-soft: a result ``v >= target`` means the
    total is at least ``v``, a result ``v < target`` that it is at most ``v``."""
    won = board.side_won(side)
    if board.is_over:
        return won
    return won + solver.bound(board.position, side, target - won)


# ------------------------------------------------------------------ contract
@dataclass(frozen=True)
class NilOutcome:
    """A nil bet that counts, double dummy from the current position.

    ``side``: the nil hand's side (:data:`~solver.seating.DECLARER_SIDE` or
    :data:`~solver.seating.DEFENDER_SIDE`).
    ``kept``: its side can keep the nil hand from winning any trick against
    the best defence of the other side (the engine's nil-aware query).
    ``side_tricks``: the most tricks (total, tricks already won included) the
    side can take while keeping it, ``-1`` when it cannot. ``lost_already``:
    the nil hand has already won a trick in the played cards. ``points``:
    the bidder's points for the bet (from the scoring).
    """

    bidder: str
    hand: str
    side: int
    kept: bool
    side_tricks: int
    lost_already: bool
    points: int

    @property
    def scoring_tricks(self) -> int:
        """Tricks of the nil hand to score with: the scoring only asks whether
        it takes a trick (0 when kept; when not, at least 1)."""
        return 0 if self.kept else 1


@dataclass(frozen=True)
class ContractResult:
    """The double-dummy result for the auction's declarer at the deal's current position."""

    declarer: str
    seating: Seating
    breaking: bool
    tricks_played: int
    cards_played: int
    to_move: str
    played_by: str
    spades_broken: bool
    won_declarer: int
    won_defenders: int
    declarer_tricks: int
    defender_tricks: int
    nils: Tuple[NilOutcome, ...]
    result: HandResult
    #: declarer-side tricks the scores use (see :func:`scoring_range`)
    scoring_low: int = -1
    scoring_high: int = -1
    scoring_basis: str = "tricks"
    #: the scores at ``scoring_high`` when the range is not a single total
    result_high: Optional[HandResult] = None

    @property
    def scores(self) -> Tuple[PlayerScore, ...]:
        return self.result.scores

    @property
    def ignored_nils(self) -> Tuple[NilBet, ...]:
        return self.result.ignored_nils


def nil_outcome(board: Board, bet: NilBet, solver: Solver) -> NilOutcome:
    """The engine's nil-aware answer for one nil bet at ``board`` (``points``
    left 0: the scoring fills it in, see :func:`contract_result`)."""
    seat = board.seating.seat_of(bet.hand)
    side = side_of(seat)
    lost = board.tricks_won[seat] > 0
    keep = -1 if lost else solver.max_tricks(board.position, side, nil_seat=seat)
    kept = keep >= 0
    return NilOutcome(bet.bidder, bet.hand, side, kept,
                      board.side_won(side) + keep if kept else -1, lost, 0)


#: why the scores use the trick totals they do (JSON ``scoring.basis``)
SCORING_BASES = ("tricks", "declarer-nil", "defender-nil", "both-nils")


def scoring_range(declarer_tricks: int, nils: Sequence[NilOutcome]) -> Tuple[int, int, str]:
    """The declarer side's trick totals the scores can defend, and why.

    A side with a nil bet that counts plays first to keep it (a failed nil
    costs its bidder 100, more than any trick is worth) and then for tricks;
    its opponents play first to break it (cut-throat: it is a rival's 100
    points) and then for tricks. The engine's nil-aware query answers exactly
    that game for one side's nil: the side's total while keeping it
    (``side_tricks``). So:

    * no nil can be kept: the plain double-dummy split;
    * kept nils on one side only: that side's nil-aware total (the smallest
      when it has several);
    * kept nils on both sides: each side's nil-aware total is what it can make
      sure of while keeping its nil, whatever the other side does, so the
      declarer side ends between its own nil-aware total and 13 minus the
      defenders'; both ends are reported.
    """
    decl = [n.side_tricks for n in nils if n.kept and n.side == DECLARER_SIDE]
    defs = [n.side_tricks for n in nils if n.kept and n.side == DEFENDER_SIDE]
    if decl and defs:
        low, high = min(decl), TRICKS_PER_HAND - min(defs)
        return min(low, high), max(low, high), SCORING_BASES[3]
    if decl:
        return min(decl), min(decl), SCORING_BASES[1]
    if defs:
        t = TRICKS_PER_HAND - min(defs)
        return t, t, SCORING_BASES[2]
    return declarer_tricks, declarer_tricks, SCORING_BASES[0]


def contract_result(board: Board, solver: Solver) -> ContractResult:
    """Double-dummy result for the auction's declarer at the board's position
    (a board of a deal with a complete auction, played from its opening lead)."""
    deal = board.deal
    auction = None if deal is None else deal.auction
    if deal is None or auction is None or auction.declarer is None:
        raise AnalysisError("the auction is not complete, so there is no declarer to solve for",
                            field="auction", expected="three bids")
    if board.names[0] != auction.declarer:
        raise AnalysisError(f"{board.names[0]} declares on the board, {auction.declarer} in the "
                            "auction", field="auction", expected="a board with the auction's declarer")
    board.check_not_over(AnalysisError)
    seating = board.seating
    declarer_tricks = dd_side_tricks(board, DECLARER_SIDE, solver)
    bets = auction.applicable_nils()
    nils = tuple(nil_outcome(board, bet, solver) for bet in bets)
    hand_tricks = {n.hand: n.scoring_tricks for n in nils}
    low, high, basis = scoring_range(declarer_tricks, nils)
    scoring = board.rules.scoring
    result = HandResult.build(deal, low, hand_tricks, bets, scoring)
    result_high = HandResult.build(deal, high, hand_tricks, bets, scoring) if high != low else None
    points = {(r.bidder, r.hand): r.points for s in result.scores for r in s.nils}
    nils = tuple(replace(n, points=points[(n.bidder, n.hand)]) for n in nils)
    seat = board.to_move
    assert seat is not None
    return ContractResult(
        declarer=seating.declarer, seating=seating, breaking=board.rules.breaking,
        tricks_played=len(board.tricks), cards_played=len(board.moves),
        to_move=seating.names[seat], played_by=seating.names[controller(seat)],
        spades_broken=board.spades_broken,
        won_declarer=board.declarer_tricks, won_defenders=board.defender_tricks,
        declarer_tricks=declarer_tricks, defender_tricks=TRICKS_PER_HAND - declarer_tricks,
        nils=nils, result=result, scoring_low=low, scoring_high=high, scoring_basis=basis,
        result_high=result_high)


# ------------------------------------------------------------------ DD table
@dataclass(frozen=True)
class TableRow:
    """One potential declarer, from the opening lead (the first bidder leads)."""

    declarer: str
    seating: Seating
    declarer_tricks: int

    @property
    def defender_tricks(self) -> int:
        return TRICKS_PER_HAND - self.declarer_tricks

    @property
    def opening_leader(self) -> str:
        return self.seating.opening_leader


def dd_table(deal: Deal, solver: Solver) -> Tuple[TableRow, ...]:
    """Each real player (in ``deal.players`` order) as declarer, from the start of the hand."""
    rows = []
    for player in deal.players:
        board = deal.opening_board(player)
        rows.append(TableRow(player, board.seating, dd_side_tricks(board, DECLARER_SIDE, solver)))
    return tuple(rows)


# ------------------------------------------------------------ the position
def analysis_board(deal: Deal, declarer: Optional[str] = None) -> Board:
    """The board to analyse: after the file's played cards, with the
    auction's declarer or ``declarer``: the declarer when the file has none,
    or a what-if declarer in place of the auction's (only before any card
    is played: the played cards were played with the auction's seating)."""
    if declarer is not None and declarer not in deal.players:
        raise AnalysisError(f"unknown declarer {declarer!r}",
                            expected=f"one of the players {', '.join(deal.players)}")
    if deal.declarer is not None:
        if declarer not in (None, deal.declarer):
            if deal.played:
                raise AnalysisError(
                    f"the played cards were played with {deal.declarer} declaring, so they "
                    f"cannot be replayed with {declarer} as declarer", field="played",
                    expected=f"no --declarer (or --declarer {deal.declarer}), or a deal file "
                             f"without played cards for a what-if declarer")
            return deal.opening_board(declarer)
        declarer = deal.declarer
    if declarer is None:
        what = "the file has no auction" if deal.auction is None else "the auction is not complete"
        raise AnalysisError(f"no declarer: {what}", field="auction",
                            expected=f"a declarer chosen for the analysis (one of "
                                     f"{', '.join(deal.players)})")
    board = deal.board(declarer)
    board.check_not_over(AnalysisError)
    return board


# ------------------------------------------------------------ card analysis
@dataclass(frozen=True)
class CardGroup:
    """Equivalent legal cards (ascending card ints) and their value: the
    total tricks of the mover's side if one of them is played now."""

    cards: Tuple[int, ...]
    value: int
    best: bool


@dataclass(frozen=True)
class CardAnalysis:
    seat: int
    to_move: str
    played_by: str
    side: int
    won: int
    best_value: int
    groups: Tuple[CardGroup, ...]

    @property
    def side_name(self) -> str:
        return side_name(self.side)

    @property
    def values(self) -> Dict[int, int]:
        """card -> value for every legal card (ascending card ints)."""
        return dict(sorted((c, g.value) for g in self.groups for c in g.cards))

    @property
    def best_cards(self) -> Tuple[int, ...]:
        return tuple(sorted(c for g in self.groups if g.best for c in g.cards))


def card_analysis(board: Board, solver: Solver) -> CardAnalysis:
    """The value of every legal card of the player to move (never omitting one)."""
    board.check_not_over(AnalysisError)
    seat = board.to_move
    assert seat is not None
    side = side_of(seat)
    won = board.side_won(side)
    raw = solver.card_groups(board.position, side)
    best = max(v for _, v in raw)
    groups = tuple(CardGroup(tuple(cards), won + v, v == best) for cards, v in raw)
    legal = set(board.legal_moves())
    listed = [c for g in groups for c in g.cards]
    if sorted(listed) != sorted(legal):  # never omit (or invent) a card
        raise EngineMismatch(f"engine card groups {listed} differ from the legal cards {sorted(legal)}")
    return CardAnalysis(seat, board.names[seat], board.names[controller(seat)], side, won,
                        won + best, groups)


# ------------------------------------------------------------ optimal line
@dataclass(frozen=True)
class LineTrick:
    """One trick of an optimal line. ``cards``: (hand name, card) in play
    order; the first ``on_table`` of them were already played before the
    analysed position. ``declarer_tricks`` / ``defender_tricks``: running
    totals after the trick."""

    number: int
    leader: str
    cards: Tuple[Tuple[str, int], ...]
    on_table: int
    winner: str
    declarer_tricks: int
    defender_tricks: int


@dataclass(frozen=True)
class Line:
    cards: Tuple[int, ...]
    tricks: Tuple[LineTrick, ...]
    declarer_tricks: int
    defender_tricks: int


def optimal_line(board: Board, solver: Solver) -> Line:
    """One optimal play-out from ``board`` to the end, played on a copy of it
    trick by trick (each card checked by :meth:`Board.push <solver.board.Board.push>`)."""
    board.check_not_over(AnalysisError)
    seat = board.to_move
    assert seat is not None
    cards = tuple(solver.optimal_line(board.position, side_of(seat)))
    replay = board.copy()
    on_table = len(replay.trick)
    tricks = []
    for card in cards:
        done = replay.push(card)
        if done is None:
            continue
        names = replay.names
        tricks.append(LineTrick(
            number=len(replay.tricks), leader=names[done.leader],
            cards=tuple((names[s], c) for s, c in zip(done.seats, done.cards)),
            on_table=on_table, winner=names[done.winner],
            declarer_tricks=replay.declarer_tricks, defender_tricks=replay.defender_tricks))
        on_table = 0
    if not replay.is_over:
        raise EngineMismatch("the engine's optimal line does not reach the end of the hand")
    return Line(cards, tuple(tricks), replay.declarer_tricks, replay.defender_tricks)


__all__ = [
    "AnalysisError", "CardAnalysis", "CardGroup", "ContractResult", "EngineMismatch", "Line",
    "LineTrick", "NilOutcome", "TableRow", "analysis_board", "card_analysis", "contract_result",
    "dd_side_bound", "dd_side_tricks", "dd_table", "optimal_line", "side_members",
]
