"""The duck analysis of a deal: :func:`analyse`, made of the steps that
docs/DUCK.md defines, one function each.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Dict, List, Mapping, Optional, Tuple

from ..board import Board
from ..cards import suit_of
from ..deal import Deal
from ..scoring import TRICKS_PER_HAND, NilBet
from ..seating import DEFENDER_SIDE
from .equilibrium import Equilibrium, check_size, find_equilibrium
from .hand import HandLevel, duck_board, nil_statuses
from .nilbreak import BreakQuestion, CardBreak, NilBreak, break_questions, card_breaks, nil_break
from .outcomes import DuckEffect, NilStatus, OutcomeRow, OutcomeRows, best_total, effect
from .questions import DEFENDER_SEATS, Oracle, card_nil_keep_max, card_totals, default_oracle
from .reachable import REACH_BUDGET
from .searches import Findings, Reachability, listed, run_searches

#: Default wall-clock limit (seconds) for the searches beyond the core
#: numbers: reachable totals, the declarer's settle total, lowest / highest.
DEFAULT_TIME_LIMIT = 10.0

Rows = Dict[int, OutcomeRow]


@dataclass(frozen=True)
class PlayerOptions:
    """What one real player can bring about (defender totals, whole hand).

    A defender X chooses their cards while the declarer minimises the
    defender total and the other defender maximises it: ``low`` = ``duck`` =
    the fewest they reach (the declarer and X against the other defender),
    ``high`` = the cooperative total; ``alone`` = the most X alone makes sure
    of whatever the other two do (= the other defender's ``duck``).

    The declarer chooses while both defenders maximise: ``low`` = ``alone``
    = the cooperative total (the most the declarer holds the defence to),
    ``high`` = the highest total of any play-out; ``duck`` = the settle
    total: the most defender tricks the declarer can concede while still
    making the contract (None if the contract cannot be made).

    ``reachable[total]``: True / False / None (not determined) for the totals
    from ``low`` to ``high`` (the declarer's only up to the contract total
    and, time permitting, beyond). ``best``: the reachable total with the
    highest value for the player (ties: higher margin, then nearer the
    cooperative total)."""

    player: str
    role: str
    low: int
    high: Optional[int]
    duck: Optional[int]
    alone: int
    reachable: Mapping[int, Optional[bool]]
    best: Optional[int]


@dataclass(frozen=True)
class CardOption:
    """A group of equivalent legal cards at the current position: the hand's
    outcome if play is cooperative after it, how many tricks it gives up
    against the best card for the player choosing it, and who gains / loses
    (value higher / lower than after the best card)."""

    cards: Tuple[int, ...]
    outcome: OutcomeRow
    tricks_given_up: int
    gains: Tuple[str, ...]
    loses: Tuple[str, ...]
    nil_breaks: Tuple[CardBreak, ...] = ()

    @property
    def duck(self) -> bool:
        return self.tricks_given_up > 0

    @property
    def defender_tricks(self) -> int:
        return self.outcome.defender_tricks


@dataclass(frozen=True)
class CardLevel:
    """The card level: every group of legal cards of the player to move and
    the best card's total for that player (highest for a defender, lowest
    for the declarer)."""

    cards: Tuple[CardOption, ...]
    best_total: int


@dataclass(frozen=True)
class DuckAnalysis:
    """The whole duck analysis of a deal at its current position (totals are
    defender tricks for the whole hand, tricks already won included)."""

    deal: Deal
    declarer: str
    left_defender: str
    right_defender: str
    names: Tuple[str, str, str, str]
    won: Tuple[int, int]          # (declarer side, defenders) tricks won so far
    tricks_left: int
    to_move: str                  # hand to play (may be "dummy")
    played_by: str                # real player choosing the card
    cooperative: int
    duck: Mapping[str, int]       # defender -> fewest (with the declarer)
    lowest: Optional[int]
    highest: Optional[int]
    contract_total: int           # most defender tricks with the declarer's contract made
    settle: Optional[int]
    nils: Tuple[NilStatus, ...]
    ignored_nils: Tuple[NilBet, ...]
    options: Tuple[PlayerOptions, ...]
    outcomes: Tuple[OutcomeRow, ...]
    effects: Tuple[DuckEffect, ...]
    cards: Tuple[CardOption, ...]
    best_card_total: int
    complete: bool                # every search finished within the time limit
    undetermined: Tuple[str, ...] = ()
    nil_breaks: Tuple[NilBreak, ...] = ()
    equilibrium: Optional[Equilibrium] = None

    @property
    def defenders(self) -> Tuple[str, str]:
        return self.left_defender, self.right_defender

    @property
    def players(self) -> Tuple[str, str, str]:
        return self.declarer, self.left_defender, self.right_defender

    def outcome(self, defender_tricks: int) -> OutcomeRow:
        for o in self.outcomes:
            if o.defender_tricks == defender_tricks:
                return o
        raise KeyError(defender_tricks)

    def options_of(self, player: str) -> PlayerOptions:
        for o in self.options:
            if o.player == player:
                return o
        raise KeyError(player)

    def effects_of(self, player: str) -> Tuple[DuckEffect, ...]:
        return tuple(e for e in self.effects if e.player == player)

    def nil_break(self, breaker: str, hand: str) -> NilBreak:
        for b in self.nil_breaks:
            if (b.breaker, b.hand) == (breaker, hand):
                return b
        raise KeyError((breaker, hand))


# ------------------------------------------------------------------ the steps
def outcome_rows(at: Board, hand: HandLevel, reach: Reachability,
                 scorer: OutcomeRows) -> Tuple[Rows, List[int]]:
    """One row per total from the lowest to the highest, without the totals
    no play-out reaches; and the totals not known to be reached by any."""
    lo = reach.lowest if reach.lowest is not None else min(hand.duck.values())
    hi = reach.highest if reach.highest is not None else reach.declarer_top
    rows: Rows = {}
    unsure = []
    for t in range(lo, hi + 1):
        reachable = reach.some_playout(at.seating.players, t)
        if reachable is None:
            unsure.append(t)
        if reachable is not False:
            rows[t] = replace(scorer.outcome(t), reachable=reachable,
                              reachable_by=reach.reachable_by(at.seating.players, t))
    return rows, unsure


def player_options(at: Board, hand: HandLevel, reach: Reachability,
                   rows: Rows) -> Tuple[PlayerOptions, ...]:
    """What each real player can bring about, and their best total."""
    options = []
    for p in at.seating.players:
        reachable = reach.reachable[p]
        best = best_total([t for t, r in reachable.items() if r], p, rows, hand.cooperative)
        if p == at.seating.declarer:
            options.append(PlayerOptions(p, "declarer", hand.cooperative, reach.highest,
                                         reach.settle, hand.cooperative, reachable, best))
        else:
            options.append(PlayerOptions(p, "defender", hand.duck[p], hand.cooperative,
                                         hand.duck[p], hand.duck[at.seating.other_defender(p)],
                                         reachable, best))
    return tuple(options)


def row_marks(at: Board, hand: HandLevel, reach: Reachability,
              options: Tuple[PlayerOptions, ...], nils: Tuple[NilStatus, ...]
              ) -> List[Tuple[Optional[int], str]]:
    """The labelled totals, in the order their marks are listed in a row."""
    marks: List[Tuple[Optional[int], str]] = [(hand.cooperative, "coop")]
    marks += [(hand.duck[x], f"duck {x}") for x in at.seating.players[1:]]
    marks.append((reach.settle, f"settle {at.seating.declarer}"))
    marks += [(o.best, f"best {o.player}") for o in options
              if o.best is not None and o.best not in (hand.cooperative, o.duck)]
    marks += [(n.keep_max if n.side == DEFENDER_SIDE else TRICKS_PER_HAND - n.keep_max,
               f"nil {n.hand} kept") for n in nils if n.keep_max is not None]
    marks += [(reach.lowest, "lowest"), (reach.highest, "highest")]
    return marks


def marked(rows: Rows, marks: List[Tuple[Optional[int], str]]) -> Tuple[OutcomeRow, ...]:
    """The rows in order of the total, each with its marks (once each)."""
    labels: Dict[int, List[str]] = {}
    for t, label in marks:
        if t is not None and t in rows and label not in labels.setdefault(t, []):
            labels[t].append(label)
    return tuple(replace(rows[t], marks=tuple(labels.get(t, ()))) for t in sorted(rows))


def duck_effects(options: Tuple[PlayerOptions, ...], rows: Rows,
                 cooperative: int) -> Tuple[DuckEffect, ...]:
    """Each player's duck (or settle) and best outcome against the cooperative row."""
    base = rows[cooperative]
    effects = []
    for o in options:
        kind = "settle" if o.role == "declarer" else "duck"
        for k, t in ((kind, o.duck), ("best", o.best)):
            effects.append(effect(o.player, k, t, rows, base))
    return tuple(effects)


def card_level(at: Board, nils: Tuple[NilStatus, ...], breaks: Tuple[BreakQuestion, ...],
               scorer: OutcomeRows, oracle: Oracle) -> CardLevel:
    """Every legal card of the player to move, with the outcome when play is
    cooperative afterwards (each nil settled by the nil-aware query after
    that card), the tricks it gives up, who gains or loses by it, and who
    can still force a trick on each defender's nil hand after it."""
    won = at.defender_tricks
    groups = card_totals(at.position, oracle)
    card_keep = {n.hand: card_nil_keep_max(at.position, n.seat, oracle) for n in nils if not n.won}
    breaks_after = card_breaks(at, breaks, oracle)
    totals = [won + v for _, v in groups]
    best = max(totals) if at.chooser in DEFENDER_SEATS else min(totals)
    built = []
    for cards, v in groups:
        keeps: Dict[str, Optional[int]] = {}
        for n in nils:
            k = card_keep[n.hand][cards[0]] if not n.won else -1
            keeps[n.hand] = None if k < 0 else k + at.side_won(n.side)
        built.append((tuple(cards), scorer.outcome(won + v, keeps), abs(won + v - best)))
    ref = next(row for _, row, given in built if given == 0)
    options = []
    for cards, row, given in built:
        gains = tuple(p for p in at.seating.players if row.value(p) > ref.value(p))
        loses = tuple(p for p in at.seating.players if row.value(p) < ref.value(p))
        options.append(CardOption(cards, row, given, gains, loses,
                                  breaks_after.get(cards[0], ())))
    options.sort(key=lambda c: (c.tricks_given_up, suit_of(c.cards[0]), -max(c.cards)))
    return CardLevel(tuple(options), best)


def nil_breaks(questions: Tuple[BreakQuestion, ...], found: Findings, scorer: OutcomeRows,
               cooperative: OutcomeRow) -> Tuple[Tuple[NilBreak, ...], List[str]]:
    """Each breaking game's outcome, and the totals not found in time."""
    out, unsure = [], []
    for q in questions:
        total = found.break_total(q) if q.can_force else None
        if q.can_force and total is None:
            unsure.append(f"the total when {q.breaker} breaks the nil on {q.hand}")
        out.append(nil_break(q, total, scorer, cooperative))
    return tuple(out), unsure


# ------------------------------------------------------------------ analyse
def analyse(deal: Deal, oracle: Optional[Oracle] = None,
            time_limit: Optional[float] = DEFAULT_TIME_LIMIT, budget: int = REACH_BUDGET,
            with_equilibrium: bool = False) -> DuckAnalysis:
    """The duck analysis of ``deal`` at its current position (after its
    ``played`` cards) for the auction's declarer.

    The rules are the deal's. The core numbers (cooperative, ducks, nils, who can break
    a defender's nil, card level) are always computed; the searches for
    reachable totals, the settle total, the totals of the nil-breaking games
    and the lowest / highest totals run for at most ``time_limit`` seconds
    (``None``: no limit, in this process); what they did not settle is listed
    in :attr:`DuckAnalysis.undetermined`. ``with_equilibrium``: add the
    max-n equilibrium of the ending (a :class:`DuckError` above its size
    limit, raised before any search)."""
    at = duck_board(deal)
    if with_equilibrium:
        check_size(at)
    oracle = oracle or default_oracle()
    hand = HandLevel.at(at, oracle)
    nils = nil_statuses(at, oracle)
    breaks = break_questions(at, nils, oracle)
    found = run_searches(at, hand, breaks, oracle, time_limit, budget)
    reach = Reachability.settled(at, hand, found)
    scorer = OutcomeRows(deal, nils)
    rows, unsure = outcome_rows(at, hand, reach, scorer)
    options = player_options(at, hand, reach, rows)
    outcomes = marked(rows, row_marks(at, hand, reach, options, nils))
    effects = duck_effects(options, rows, hand.cooperative)
    coop = next(o for o in outcomes if o.defender_tricks == hand.cooperative)
    broken, unsure_breaks = nil_breaks(breaks, found, scorer, coop)
    cards = card_level(at, nils, breaks, scorer, oracle)
    eq = find_equilibrium(at, scorer, nils, coop, oracle) if with_equilibrium else None
    undetermined = list(reach.undetermined)
    if unsure:
        undetermined.append(f"whether any play-out ends with D = {listed(unsure)}")
    undetermined += unsure_breaks
    if not found.finished and not undetermined:
        undetermined.append("some reachable totals")
    auction = deal.auction
    assert auction is not None and at.to_move is not None and at.chooser is not None
    return DuckAnalysis(
        deal=deal, declarer=at.seating.declarer, left_defender=at.seating.defenders[0],
        right_defender=at.seating.defenders[1], names=at.names,
        won=(at.declarer_tricks, at.defender_tricks), tricks_left=at.tricks_left,
        to_move=at.names[at.to_move], played_by=at.names[at.chooser],
        cooperative=hand.cooperative, duck=hand.duck, lowest=reach.lowest, highest=reach.highest,
        contract_total=hand.contract_total, settle=reach.settle, nils=nils,
        ignored_nils=tuple(auction.ignored_nils()), options=options, outcomes=outcomes,
        effects=effects, cards=cards.cards, best_card_total=cards.best_total,
        complete=not undetermined, undetermined=tuple(undetermined), nil_breaks=broken,
        equilibrium=eq)
