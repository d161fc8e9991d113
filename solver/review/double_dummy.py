"""Review of a played hand: every card played judged double dummy.

:func:`review` walks the deal file's ``played`` cards from the opening lead
(the whole hand or part of it) and, for each card, answers:

* the declarer side's double-dummy total (tricks already won included)
  *before* the card and *after* it, both with perfect play by everyone from
  that point on (the plain trick game of ``solve`` and ``analyse``);
* how many tricks the card cost the side that played it (``lost``): the
  drop of that side's total; a card never raises its own side's total;
* the best cards at that point, in groups of equivalent cards (every legal
  card whose value equals the best, none left out).

Then, for the hand: the tricks each real player gave away (the declarer
answers for the dummy's cards); the double-dummy result and scores from the
opening lead, at the position of each mistake and at the end (the actual
result of a finished hand, else the double-dummy result of the current
position), all scored as ``solve`` scores them
(:func:`solver.analysis.contract_result`); and a cut-throat note where a
card that lost tricks for its side still helped the player who chose it
(the duck analysis's notions, docs/DUCK.md: a player's *value* and
*margin*).

Cost: one solver (one transposition table, one game: the declarer side's
tricks) serves every position. The exact totals along the played line come
from null-window tests started at the previous total (a card moves it by a
trick or two at most); whether another group of cards is also best is one
null-window test at the best total. The exact value of a card that is not
best is never computed. docs/REVIEW.md has the measured cost against one
full solve.

This module never prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Mapping, Optional, Sequence, Tuple

from ..analysis import (AnalysisError, ContractResult, EngineMismatch, contract_result,
                       dd_side_bound, dd_side_tricks)
from ..contract import Solver
from ..board import Board
from ..deal import Deal, HandResult
from ..position import equivalent_groups
from ..scoring import TRICKS_PER_HAND
from ..seating import DECLARER_SIDE, Seating, controller, side_name, side_of


class ReviewError(AnalysisError):
    """A deal that cannot be reviewed (no card played, no complete auction)."""


# ------------------------------------------------------------ values
@dataclass(frozen=True)
class CardJudgement:
    """One card played, judged double dummy.

    ``declarer_before`` / ``declarer_after``: the declarer side's total
    (whole hand, tricks already won included) with perfect play from the
    position before / after the card. ``best``: the groups of equivalent
    legal cards that keep the mover's side at its best total (every such
    card, none omitted). ``choices``: how many groups of equivalent cards
    there were (1: the card was forced, as far as double dummy can tell)."""

    number: int           # 1-based place in the played sequence
    trick: int            # 1-based trick number
    hand: str             # the hand the card came from (may be "dummy")
    player: str           # the real player who chose it (the declarer for the dummy)
    side: int             # the mover's side mask
    card: int
    declarer_before: int
    declarer_after: int
    best: Tuple[Tuple[int, ...], ...]
    choices: int

    @property
    def side_name(self) -> str:
        return side_name(self.side)

    @property
    def side_before(self) -> int:
        """The mover's side's total before the card."""
        return self._side_total(self.declarer_before)

    @property
    def side_after(self) -> int:
        return self._side_total(self.declarer_after)

    def _side_total(self, declarer: int) -> int:
        return declarer if self.side == DECLARER_SIDE else TRICKS_PER_HAND - declarer

    @property
    def lost(self) -> int:
        """Tricks the card cost its own side (0 for a best card)."""
        return self.side_before - self.side_after

    @property
    def best_cards(self) -> Tuple[int, ...]:
        return tuple(sorted(c for g in self.best for c in g))

    @property
    def is_best(self) -> bool:
        return self.lost == 0


def _total_after(board: Board, before: int, declarer_moved: bool,
                 solver: Solver) -> int:
    """The declarer side's total at ``board`` (just after a card), knowing
    the total ``before`` it: the declarer side's card cannot raise it, a
    defender's cannot lower it, so null-window tests from ``before`` on find
    it (one test when the card was best)."""
    if declarer_moved:
        t = before                          # total <= t
        while True:
            b = dd_side_bound(board, DECLARER_SIDE, t, solver)
            if b >= t:
                return t
            t = b
    t = before + 1                          # total >= t - 1
    while True:
        b = dd_side_bound(board, DECLARER_SIDE, t, solver)
        if b < t:
            return t - 1
        t = b + 1


def _is_best(board: Board, card: int, best: int, declarer_moved: bool,
             solver: Solver) -> bool:
    """Does ``card`` keep the declarer side's total at ``best``, the total
    before it? (one null-window test)"""
    board.push(card)
    try:
        if declarer_moved:
            return dd_side_bound(board, DECLARER_SIDE, best, solver) >= best
        return dd_side_bound(board, DECLARER_SIDE, best + 1, solver) <= best
    finally:
        board.pop()


def judge_cards(start: Board, moves: Sequence[int],
                solver: Solver) -> Tuple[CardJudgement, ...]:
    """Judge every card of ``moves`` played from ``start`` (on a copy; each
    card is checked by :meth:`Board.push <solver.board.Board.push>`)."""
    board = start.copy()
    names = board.names
    before = dd_side_tricks(board, DECLARER_SIDE, solver)
    out = []
    for number, card in enumerate(moves, 1):
        seat = board.to_move
        if seat is None:
            board.check(card)               # raises: the hand is over
        assert seat is not None
        side = side_of(seat)
        declarer_moved = side == DECLARER_SIDE
        trick = len(board.tricks) + 1
        groups = equivalent_groups(board.position)
        board.push(card)
        after = _total_after(board, before, declarer_moved, solver)
        board.pop()
        best = []
        for group in groups:
            if card in group:
                keeps = after == before
            elif len(groups) == 1:
                keeps = True
            else:
                keeps = _is_best(board, group[0], before, declarer_moved, solver)
            if keeps:
                best.append(group)
        if not best:
            raise EngineMismatch("double-dummy values disagree: no legal card keeps the total")
        out.append(CardJudgement(number, trick, names[seat], names[controller(seat)], side, card,
                                 before, after, tuple(best), len(groups)))
        board.push(card)
        before = after
    return tuple(out)


# ------------------------------------------------------------ scores
@dataclass(frozen=True)
class Scores:
    """The hand's result at some point: the declarer side's tricks, each real
    player's hand score and the value the duck analysis ranks players by
    (the running total after the hand with running scores, else the hand
    score). ``kind``: ``actual`` (the finished hand as played) or
    ``double-dummy`` (perfect play from the position on, scored as
    ``solve`` scores it, nil bets included)."""

    kind: str
    declarer_tricks: int
    result: HandResult
    contract: Optional[ContractResult] = None

    @property
    def actual(self) -> bool:
        """The finished hand as played (not a double-dummy continuation)."""
        return self.kind == "actual"

    @property
    def points(self) -> Dict[str, int]:
        return {s.player: s.points for s in self.result.scores}

    @property
    def values(self) -> Dict[str, int]:
        return self.result.points_after

    def made(self, player: str) -> bool:
        return self.result.score_of(player).made

    def bag_penalties(self, player: str) -> int:
        """Bag penalties the player pays after the hand (running scores only)."""
        ledger = self.result.ledger or ()
        return next((e.bag_penalties for e in ledger if e.player == player), 0)

    def margin(self, player: str) -> int:
        values = self.values
        return values[player] - max(v for p, v in values.items() if p != player)


def scores_at(board: Board, solver: Solver) -> Scores:
    """The result at ``board`` (a board of a deal with a complete auction):
    the actual one when the hand is over, else the double-dummy one of its
    position."""
    if board.is_over:
        return Scores("actual", board.declarer_tricks, board.score())
    r = contract_result(board, solver)
    return Scores("double-dummy", r.declarer_tricks, r.result, r)


@dataclass(frozen=True)
class CutThroatNote:
    """A card that lost tricks for its side but helped the player who chose
    it, in the duck analysis's terms (docs/DUCK.md): ``kind`` ``duck`` (a
    defender) or ``settle`` (the declarer conceding); ``own_change``: the
    change of the player's value, ``margin_change`` of their margin over the
    best of the other two, ``margins_change[other]`` of their margin over
    each other player, from the double-dummy result before the card to the
    one after it. ``sets``: players whose contract made before the card and
    is set after it; ``nils_broken``: nil hands kept before, lost after;
    ``bag_penalties``: players who pay a bag penalty after it and did not
    before (with running scores)."""

    player: str
    kind: str
    own_change: int
    margin_change: int
    margins_change: Mapping[str, int]
    sets: Tuple[str, ...]
    nils_broken: Tuple[str, ...]
    bag_penalties: Tuple[str, ...] = ()


def cut_throat_note(judgement: CardJudgement, before: Scores,
                    after: Scores) -> Optional[CutThroatNote]:
    """The note for a card that lost tricks, or ``None`` when it did not help
    the player who chose it (own value, margin and every pairwise margin did
    not rise)."""
    if judgement.lost <= 0:
        return None
    p = judgement.player
    vb, va = before.values, after.values
    others = [o for o in vb if o != p]
    own = va[p] - vb[p]
    margin = after.margin(p) - before.margin(p)
    margins = {o: (va[p] - va[o]) - (vb[p] - vb[o]) for o in others}
    if own <= 0 and margin <= 0 and all(m <= 0 for m in margins.values()):
        return None
    sets = tuple(o for o in others if before.made(o) and not after.made(o))
    kept_before = {(n.bidder, n.hand) for s in before.result.scores for n in s.nils if n.success}
    broken = tuple(sorted({n.hand for s in after.result.scores for n in s.nils
                           if not n.success and (n.bidder, n.hand) in kept_before}))
    penalties = tuple(o for o in others if after.bag_penalties(o) > before.bag_penalties(o))
    kind = "settle" if judgement.side == DECLARER_SIDE else "duck"
    return CutThroatNote(p, kind, own, margin, margins, sets, broken, penalties)


@dataclass(frozen=True)
class Mistake:
    """A card that lost tricks: the double-dummy result of the position where
    it was played (``at``) and of the position after it (``after``), and the
    cut-throat note if it helped its player."""

    card: CardJudgement
    at: Scores
    after: Scores
    note: Optional[CutThroatNote]


@dataclass(frozen=True)
class HandReview:
    """A played hand (or part of one) reviewed card by card.

    ``opening``: the double-dummy result from the opening lead. ``final``:
    the actual result of a finished hand, else the double-dummy result of
    the position after the last card played. ``given_away[player]``: the
    tricks the cards chosen by each real player cost their side (the
    declarer's include the dummy's cards). The declarer side's totals add
    up: ``opening.declarer_tricks - declarer side's losses + defenders'
    losses = final.declarer_tricks``, when nil bets do not shift the
    scoring totals (``solve``'s scoring basis)."""

    deal: Deal
    seating: Seating
    cards: Tuple[CardJudgement, ...]
    opening: Scores
    final: Scores
    mistakes: Tuple[Mistake, ...]

    @property
    def finished(self) -> bool:
        return self.final.kind == "actual"

    @property
    def players(self) -> Tuple[str, ...]:
        return self.deal.players

    @property
    def given_away(self) -> Dict[str, int]:
        out = {p: 0 for p in self.deal.players}
        for c in self.cards:
            out[c.player] += c.lost
        return out

    def side_lost(self, side: int) -> int:
        return sum(c.lost for c in self.cards if c.side == side)

    @property
    def notes(self) -> Tuple[CutThroatNote, ...]:
        return tuple(m.note for m in self.mistakes if m.note is not None)


def review(deal: Deal, solver: Solver) -> HandReview:
    """Review the deal's played cards from the opening lead (see the module
    docstring). Raises :class:`ReviewError` when nothing was played."""
    if not deal.played:
        what = ("no auction" if deal.auction is None else
                "an incomplete auction" if deal.declarer is None else "no played cards")
        raise ReviewError(f"nothing to review: the deal has {what}", field="played",
                          expected="cards played after a complete auction (a `played:` list)")
    assert deal.declarer is not None  # a deal with played cards has a complete auction
    board = deal.opening_board()
    moves = tuple(deal.played)
    cards = judge_cards(board, moves, solver)
    # the scores at the opening lead, before and after each mistake, and at the end,
    # on one walk of the board through the played cards
    wanted = {0, len(moves)} | {n for c in cards if c.lost > 0 for n in (c.number - 1, c.number)}
    at: Dict[int, Scores] = {}
    for n in range(len(moves) + 1):
        if n in wanted:
            at[n] = scores_at(board, solver)
        if n < len(moves):
            board.push(moves[n])
    mistakes = tuple(Mistake(c, at[c.number - 1], at[c.number],
                             cut_throat_note(c, at[c.number - 1], at[c.number]))
                     for c in cards if c.lost > 0)
    return HandReview(deal, board.seating, cards, at[0], at[len(moves)], mistakes)


__all__ = [
    "CardJudgement", "CutThroatNote", "HandReview", "Mistake", "ReviewError", "Scores",
    "cut_throat_note", "judge_cards", "review", "scores_at",
]
