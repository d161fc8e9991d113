"""Duck analysis: what each player can bring about in cut-throat play, and
what it does to every score (docs/RULES.md "Cut-throat play and ducking").

The defenders share their tricks but are scored one by one, so a defender may
*duck* (lose a trick on purpose) to set the other defender; the declarer may
concede tricks to shed overtricks (bags). Everything here is double dummy and
is about one number, the **defender total** ``D``: the tricks the two
defenders take in the whole hand (tricks already won included). The scores of
all three real players, the bags and (with running scores) the bag penalties
follow from ``D`` and from the nil bets; the scoring itself is
:mod:`solver.scoring`'s (through :meth:`solver.deal.HandResult.build`).

Two layers:

* **Position level** (engine arguments, counts from the current position on,
  the trick in progress included): :func:`team_splits`, :func:`reach`,
  :func:`reachable_totals`, :func:`nil_keep_max`, :func:`card_totals`. They
  take an :class:`Oracle` (the compiled engine by default, the reference twin
  for tests).
* **Deal level**: :func:`analyse` -> :class:`DuckAnalysis` at a deal file's
  current position (after its ``played`` cards), for the auction's declarer.

Seats: 0 declarer, 1 left defender, 2 dummy, 3 right defender; the declarer
plays the dummy. The exact meaning of every number is in docs/DUCK.md.

This module never prints.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from .cards import count as popcount
from .cards import suit_of
from .deal import Deal, HandResult
from .errors import DealError
from .play import Position
from .rules import breaks_spades, trick_winner
from .scoring import TRICKS_PER_HAND, NilBet
from .seating import (DECLARER_SEAT, DECLARER_SIDE, DEFENDER_SIDE, DUMMY_SEAT,
                      LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT, controller, side_of)

ALL_SEATS = 0b1111
DEFENDER_SEATS = (LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT)

#: Roles of a seat in a :func:`reach` search: ``CHOOSE`` seats play whatever
#: they like (the player whose options are asked about), ``MAX`` seats play to
#: maximise the defender total, ``MIN`` seats to minimise it.
CHOOSE, MAX, MIN = "choose", "max", "min"

#: Default node budget of one :func:`reach` search (positions expanded).
REACH_BUDGET = 600


class DuckError(DealError):
    """A deal the duck analysis cannot work on (no complete auction, hand over)."""


# --------------------------------------------------------------------- oracle
class Oracle:
    """The double-dummy queries of the analysis, on one backend.

    ``backend="engine"``: the compiled engine (:mod:`solver.engine`), one
    :class:`solver.engine.Solver` per kind of query (side, count, nil seat), so
    the transposition tables of different games stay apart.
    ``backend="reference"``: the pure-Python twin (:mod:`solver.reference`),
    for tests on small positions. ``queries`` counts the calls made.
    """

    def __init__(self, backend: str = "engine", tt_mb: float = 32.0) -> None:
        if backend not in ("engine", "reference"):
            raise ValueError(f"unknown backend {backend!r}; expected 'engine' or 'reference'")
        self.backend = backend
        self.tt_mb = tt_mb
        self.queries = 0
        self._solvers: Dict[Tuple[int, int, int], object] = {}
        if backend == "engine":
            from . import engine  # raises EngineNotBuiltError (an ImportError) if not built
            self._engine = engine
        else:
            from . import reference
            self._reference = reference

    def _solver(self, side: int, count: int, nil_seat: Optional[int]):  # type: ignore[no-untyped-def]
        key = (side, count, -1 if nil_seat is None else nil_seat)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = self._engine.Solver(self.tt_mb)
        return solver

    def max_tricks(self, pos: Position, side: int, count: int,
                   nil_seat: Optional[int] = None) -> int:
        """``max_tricks`` of the engine interface (``-1``: the nil cannot be kept)."""
        self.queries += 1
        args = (pos.hands, pos.leader, side, pos.trick, pos.spades_broken, pos.breaking, count,
                nil_seat)
        if self.backend == "engine":
            return self._solver(side, count, nil_seat).max_tricks(*args)
        return self._reference.max_tricks(*args)

    def at_least(self, pos: Position, side: int, count: int, target: int) -> bool:
        """Is ``max_tricks(pos, side, count) >= target``? (one null-window search)"""
        if target <= 0:
            return True
        if target > tricks_left(pos):
            return False
        self.queries += 1
        if self.backend == "engine":
            solver = self._solver(side, count, None)
            return bool(solver.at_least(pos.hands, pos.leader, side, target, pos.trick,  # type: ignore[attr-defined]
                                        pos.spades_broken, pos.breaking, count))
        return self._reference.max_tricks(pos.hands, pos.leader, side, pos.trick, pos.spades_broken,
                                          pos.breaking, count) >= target

    def card_groups(self, pos: Position, side: int, count: int,
                    nil_seat: Optional[int] = None) -> List[Tuple[Tuple[int, ...], int]]:
        """Legal cards of the player to move in groups of equivalent cards, each
        with its value (``card_values`` semantics: the trick in progress included)."""
        self.queries += 1
        args = (pos.hands, pos.leader, side, pos.trick, pos.spades_broken, pos.breaking, count,
                nil_seat)
        if self.backend == "engine":
            return [(tuple(c), v) for c, v in self._solver(side, count, nil_seat).card_groups(*args)]
        values = self._reference.card_values(*args)
        return [((card,), v) for card, v in sorted(values.items())]


_default_oracle: Optional[Oracle] = None


def default_oracle() -> Oracle:
    global _default_oracle
    if _default_oracle is None:
        _default_oracle = Oracle()
    return _default_oracle


# ------------------------------------------------------------------ positions
def tricks_left(pos: Position) -> int:
    """Tricks still to be completed, the one in progress included."""
    return popcount(pos.hands[pos.leader]) + (1 if pos.trick else 0)


def to_move(pos: Position) -> int:
    return (pos.leader + len(pos.trick)) % 4


def play_card(pos: Position, card: int) -> Tuple[Position, int]:
    """The position after ``card`` (legal, of the seat to move) and the
    defender tricks it completes (0 or 1)."""
    seat = to_move(pos)
    hands = list(pos.hands)
    hands[seat] &= ~(1 << card)
    trick = pos.trick + (card,)
    if len(trick) < 4:
        return Position(tuple(hands), pos.leader, trick, pos.spades_broken, pos.breaking), 0  # type: ignore[arg-type]
    winner = (pos.leader + trick_winner(trick)) % 4
    broken = pos.spades_broken or breaks_spades(trick)
    won = 1 if DEFENDER_SIDE >> winner & 1 else 0
    return Position(tuple(hands), winner, (), broken, pos.breaking), won  # type: ignore[arg-type]


# ---------------------------------------------------------------- team splits
@dataclass(frozen=True)
class TeamSplits:
    """Defender tricks from a position on (trick in progress included), each
    the value of a zero-sum double-dummy game (docs/DUCK.md):

    * ``cooperative``: both defenders maximise, the declarer minimises
      (``side`` = both defenders).
    * ``duck[seat]`` for a defender seat X: the fewest the declarer and X
      together can hold the defenders to while the other defender Y
      maximises (``side`` = {declarer, dummy, X}, ``count`` = {declarer,
      dummy}; defenders = tricks left - that). Equal to the most Y alone can
      make sure of.
    * ``lowest`` / ``highest``: the fewest / most of any legal play-out
      (everyone cooperating to minimise / maximise); ``None`` unless asked for
      (these two searches can be slow on full deals).
    """

    tricks_left: int
    cooperative: int
    duck: Mapping[int, int]
    lowest: Optional[int] = None
    highest: Optional[int] = None


def team_splits(pos: Position, oracle: Optional[Oracle] = None,
                extremes: bool = True) -> TeamSplits:
    oracle = oracle or default_oracle()
    left = tricks_left(pos)
    coop = oracle.max_tricks(pos, DEFENDER_SIDE, DEFENDER_SIDE)
    duck = {}
    for x in DEFENDER_SEATS:
        duck[x] = left - oracle.max_tricks(pos, DECLARER_SIDE | (1 << x), DECLARER_SIDE)
    if not extremes:
        return TeamSplits(left, coop, duck)
    return TeamSplits(left, coop, duck, lowest_total(pos, oracle), highest_total(pos, oracle))


def lowest_total(pos: Position, oracle: Optional[Oracle] = None) -> int:
    """The fewest defender tricks of any legal play-out from ``pos`` on."""
    oracle = oracle or default_oracle()
    return tricks_left(pos) - oracle.max_tricks(pos, ALL_SEATS, DECLARER_SIDE)


def highest_total(pos: Position, oracle: Optional[Oracle] = None) -> int:
    """The most defender tricks of any legal play-out from ``pos`` on."""
    oracle = oracle or default_oracle()
    return oracle.max_tricks(pos, ALL_SEATS, DEFENDER_SIDE)


def defender_roles(seat: int) -> Tuple[str, str, str, str]:
    """Roles for a defender's duck options: that defender chooses, the
    declarer (and dummy) minimise, the other defender maximises."""
    roles = [MIN, MIN, MIN, MIN]
    roles[seat] = CHOOSE
    roles[LEFT_DEFENDER_SEAT + RIGHT_DEFENDER_SEAT - seat] = MAX
    return tuple(roles)  # type: ignore[return-value]


#: Roles for the declarer's options: the declarer chooses, both defenders maximise.
DECLARER_ROLES = (CHOOSE, MAX, CHOOSE, MAX)
#: Roles for "some legal play-out ends here": everybody chooses.
EVERYONE_ROLES = (CHOOSE, CHOOSE, CHOOSE, CHOOSE)


# ---------------------------------------------------------------- reachability
class _OverBudget(Exception):
    pass


def _role_masks(roles: Sequence[str]) -> Tuple[int, int]:
    if len(roles) != 4 or any(r not in (CHOOSE, MAX, MIN) for r in roles):
        raise ValueError(f"roles must be four of {CHOOSE!r}, {MAX!r}, {MIN!r}, not {roles!r}")
    if roles[DECLARER_SEAT] != roles[DUMMY_SEAT]:
        raise ValueError("the declarer and the dummy must have the same role (one player)")
    choose = sum(1 << s for s, r in enumerate(roles) if r == CHOOSE)
    maxi = sum(1 << s for s, r in enumerate(roles) if r == MAX)
    return choose, maxi


def child_lows(pos: Position, roles: Sequence[str],
               oracle: Optional[Oracle] = None) -> List[Tuple[Tuple[int, ...], int]]:
    """For each group of equivalent legal cards of the seat to move: the
    fewest defender tricks (from ``pos`` on, the trick in progress included)
    the ``CHOOSE`` seats can bring about after it (they and the ``MIN`` seats
    minimise against the ``MAX`` seats). Highest value first."""
    oracle = oracle or default_oracle()
    _, maxi = _role_masks(roles)
    return sorted(oracle.card_groups(pos, maxi, DEFENDER_SIDE), key=lambda g: (-g[1], g[0][0]))


def reach(pos: Position, roles: Sequence[str], lo: int, hi: int,
          oracle: Optional[Oracle] = None, budget: int = REACH_BUDGET) -> Optional[bool]:
    """Can the ``CHOOSE`` seats make the defenders take between ``lo`` and
    ``hi`` tricks from ``pos`` on (the trick in progress included), when the
    ``MAX`` seats maximise and the ``MIN`` seats minimise that number, each
    knowing the choosers' plan (double dummy)? ``None`` when the search
    exceeds ``budget`` positions.

    For a fixed plan of the choosers the total is, at a maximiser's turn, the
    largest over its cards; at a minimiser's turn the smallest; at a
    chooser's turn the chosen card's. So at a maximiser's turn a total in
    ``[lo, hi]`` is reachable iff every card's fewest total (the choosers
    minimising) is at most ``hi`` and some card can still lead into
    ``[lo, hi]``; at a minimiser's turn iff every card's most total (the
    choosers maximising) is at least ``lo`` and some card can lead there; at
    a chooser's turn iff some card can. A card's fewest and most totals are
    both reachable, so a card leads into ``[lo, hi]`` when one of them lies
    in it, and can only do so when the fewest is at most ``hi`` and the most
    at least ``lo``; otherwise the search descends. The fewest come from one
    engine query per position (:func:`child_lows`), the "most at least ``lo``"
    tests from null-window searches.
    """
    oracle = oracle or default_oracle()
    choose, maxi = _role_masks(roles)
    high_side = choose | maxi
    memo: Dict[tuple, bool] = {}
    nodes = [0]

    def high_reaches(child: Position, won: int, target: int) -> bool:
        return oracle.at_least(child, high_side, DEFENDER_SIDE, target - won)

    def search(p: Position, lo: int, hi: int) -> bool:
        lo = max(lo, 0)
        if lo > hi or lo > tricks_left(p):
            return False
        if not any(p.hands) and not p.trick:
            return lo <= 0 <= hi
        key = (p, lo, hi)
        if key in memo:
            return memo[key]
        nodes[0] += 1
        if nodes[0] > budget:
            raise _OverBudget
        role = roles[to_move(p)]
        lows = child_lows(p, roles, oracle)
        children = {cards[0]: play_card(p, cards[0]) for cards, _ in lows}
        result = False
        if role == MAX and any(mn > hi for _, mn in lows):
            result = False
        elif role == MIN and not all(high_reaches(*children[cards[0]], lo) for cards, _ in lows):
            result = False
        elif any(lo <= mn <= hi for _, mn in lows):
            result = True
        else:
            for cards, mn in lows:            # nearest below the target first
                if mn >= lo:
                    continue
                child, won = children[cards[0]]
                if role != MIN and not high_reaches(child, won, lo):
                    continue
                if search(child, lo - won, hi - won):
                    result = True
                    break
        memo[key] = result
        return result

    try:
        return search(pos, lo, hi)
    except _OverBudget:
        return None


def reachable_totals(pos: Position, roles: Sequence[str], lo: int, hi: int,
                     oracle: Optional[Oracle] = None,
                     budget: int = REACH_BUDGET) -> Dict[int, Optional[bool]]:
    """``{total: reach(pos, roles, total, total)}`` for every total in ``[lo, hi]``
    (defender tricks from ``pos`` on)."""
    return {t: reach(pos, roles, t, t, oracle, budget) for t in range(lo, hi + 1)}


# ------------------------------------------------------------------------ nils
def nil_keep_max(pos: Position, seat: int, oracle: Optional[Oracle] = None) -> int:
    """The most tricks (from ``pos`` on) the side of ``seat`` can take while
    keeping ``seat`` trickless, against the other side trying first to make
    it win a trick and then to hold the side's tricks down; ``-1`` when the
    other side can force a trick on it."""
    oracle = oracle or default_oracle()
    side = side_of(seat)
    return oracle.max_tricks(pos, side, side, nil_seat=seat)


def card_nil_keep_max(pos: Position, seat: int,
                      oracle: Optional[Oracle] = None) -> Dict[int, int]:
    """:func:`nil_keep_max` after each legal card of the player to move."""
    oracle = oracle or default_oracle()
    side = side_of(seat)
    return {c: v for cards, v in oracle.card_groups(pos, side, side, nil_seat=seat) for c in cards}


# ------------------------------------------------------------------ card level
def card_totals(pos: Position, oracle: Optional[Oracle] = None) -> List[Tuple[Tuple[int, ...], int]]:
    """Groups of equivalent legal cards of the player to move, each with the
    defender tricks (from ``pos`` on, trick in progress included) that follow
    when play is cooperative afterwards (defenders maximise, declarer minimises)."""
    oracle = oracle or default_oracle()
    return oracle.card_groups(pos, DEFENDER_SIDE, DEFENDER_SIDE)


# ================================================================ deal level
@dataclass(frozen=True)
class NilSettlement:
    """How one applicable nil bet ends in an outcome row.

    ``reason``: ``already-lost`` (the hand has won a trick), ``kept`` (its
    side takes no more than the most tricks it can take while keeping the
    nil), ``side-takes-more`` (its side takes more than that),
    ``cannot-be-kept`` (the other side can force a trick on the hand).
    ``decides``: settling it the other way would change who leads the row
    (:attr:`Outcome.leaders`)."""

    bidder: str
    hand: str
    kept: bool
    points: int
    reason: str
    decides: bool = False


@dataclass(frozen=True)
class PlayerLine:
    """One real player in one outcome row. ``value`` is what the player is
    ranked by: the running total after the hand (bag penalties included) when
    the deal has running scores, else the hand score. ``margin`` = own value
    minus the best value of the other two; ``margins[other]`` = own value
    minus that player's."""

    player: str
    role: str
    bid: int
    side_tricks: int
    made: bool
    contract_points: int
    bags: int
    nil_points: int
    points: int
    before: Optional[Tuple[int, int]]        # (points, bags) before the hand
    after: Optional[Tuple[int, int]]         # (points, bags) after it
    bag_penalties: int
    value: int
    margin: int
    margins: Mapping[str, int]


@dataclass(frozen=True)
class Outcome:
    """The hand ending with ``defender_tricks`` tricks for the defenders.

    ``reachable``: some legal play-out from the current position ends here
    (``None``: not determined within the time limit). ``reachable_by``: the
    real players who can bring this total about by their own choice of cards
    (see :class:`PlayerOptions`)."""

    defender_tricks: int
    declarer_tricks: int
    players: Tuple[PlayerLine, ...]
    nils: Tuple[NilSettlement, ...]
    leaders: Tuple[str, ...]      # the player(s) with the highest value
    winner: Optional[str]         # game winner (running scores only)
    marks: Tuple[str, ...] = ()
    reachable: Optional[bool] = True
    reachable_by: Tuple[str, ...] = ()

    def line(self, player: str) -> PlayerLine:
        for p in self.players:
            if p.player == player:
                return p
        raise KeyError(player)

    def value(self, player: str) -> int:
        return self.line(player).value

    @property
    def nil_decides(self) -> bool:
        return any(n.decides for n in self.nils)


@dataclass(frozen=True)
class NilStatus:
    """An applicable nil bet at the current position: ``keep_max`` is the
    most tricks (whole hand) the nil hand's side can take while keeping the
    hand trickless against the other side's best attempt to force a trick on
    it (``None``: the other side can force one); ``won``: tricks the hand has
    already won (the bet is lost if any)."""

    bidder: str
    hand: str
    seat: int
    side: str                   # "declarer" or "defenders"
    won: int
    keep_max: Optional[int]

    def side_total(self, defender_tricks: int) -> int:
        return defender_tricks if self.side == "defenders" else TRICKS_PER_HAND - defender_tricks

    def settle(self, defender_tricks: int, keep_max: Optional[int] = None,
               use_given: bool = False) -> Tuple[bool, str]:
        """(kept, reason) in a row with ``defender_tricks``. The nil is kept
        iff its hand has won nothing yet, its side can keep it, and the side
        takes no more than ``keep_max`` tricks (``use_given``: this
        ``keep_max`` instead of the position's, for the card level)."""
        k = keep_max if use_given else self.keep_max
        if self.won:
            return False, "already-lost"
        if k is None:
            return False, "cannot-be-kept"
        if self.side_total(defender_tricks) <= k:
            return True, "kept"
        return False, "side-takes-more"


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
class DuckEffect:
    """A player's outcome compared with the cooperative outcome: the change
    in their value (``own_change``) and in their margin (``margin_change``)."""

    player: str
    kind: str                  # "duck" (a defender's fewest), "settle" (declarer), "best"
    total: Optional[int]
    own_change: Optional[int]
    margin_change: Optional[int]

    @property
    def raises_own(self) -> bool:
        return bool(self.own_change and self.own_change > 0)

    @property
    def raises_margin(self) -> bool:
        return bool(self.margin_change and self.margin_change > 0)


@dataclass(frozen=True)
class CardOption:
    """A group of equivalent legal cards at the current position: the hand's
    outcome if play is cooperative after it, how many tricks it gives up
    against the best card for the player choosing it, and who gains / loses
    (value higher / lower than after the best card)."""

    cards: Tuple[int, ...]
    outcome: Outcome
    tricks_given_up: int
    gains: Tuple[str, ...]
    loses: Tuple[str, ...]

    @property
    def duck(self) -> bool:
        return self.tricks_given_up > 0

    @property
    def defender_tricks(self) -> int:
        return self.outcome.defender_tricks


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
    outcomes: Tuple[Outcome, ...]
    effects: Tuple[DuckEffect, ...]
    cards: Tuple[CardOption, ...]
    best_card_total: int
    complete: bool                # every search finished within the time limit
    undetermined: Tuple[str, ...] = ()

    @property
    def defenders(self) -> Tuple[str, str]:
        return self.left_defender, self.right_defender

    @property
    def players(self) -> Tuple[str, str, str]:
        return self.declarer, self.left_defender, self.right_defender

    def outcome(self, defender_tricks: int) -> Outcome:
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


# ------------------------------------------------------------------ scoring
def _values(result: HandResult) -> Dict[str, int]:
    if result.ledger is not None:
        return {e.player: e.after.points for e in result.ledger}
    return {s.player: s.points for s in result.scores}


def _leaders(values: Mapping[str, int]) -> Tuple[str, ...]:
    top = max(values.values())
    return tuple(p for p, v in values.items() if v == top)


class _Scorer:
    """Outcome rows for a deal: nil settlement, scores, values, margins."""

    def __init__(self, deal: Deal, nils: Sequence[NilStatus]) -> None:
        assert deal.auction is not None
        self.deal = deal
        self.nils = {n.hand: n for n in nils}
        self.bets = deal.auction.applicable_nils()

    def _result(self, d: int, kept: Mapping[str, bool]) -> HandResult:
        hand_tricks = {h: (0 if kept[h] else max(1, n.won)) for h, n in self.nils.items()}
        return HandResult.build(self.deal, TRICKS_PER_HAND - d, hand_tricks, self.bets)

    def outcome(self, d: int, keep_max: Optional[Mapping[str, Optional[int]]] = None) -> Outcome:
        settled = {h: (n.settle(d, keep_max[h], use_given=True) if keep_max is not None
                       else n.settle(d)) for h, n in self.nils.items()}
        kept = {h: k for h, (k, _) in settled.items()}
        result = self._result(d, kept)
        values = _values(result)
        leaders = _leaders(values)
        by_player = {s.player: s for s in result.scores}
        nil_rows = []
        for bet in self.bets:
            k, reason = settled[bet.hand]
            decides = False
            if reason != "already-lost":
                flipped = self._result(d, {**kept, bet.hand: not k})
                decides = _leaders(_values(flipped)) != leaders
            pts = next(r.points for r in by_player[bet.bidder].nils if r.hand == bet.hand)
            nil_rows.append(NilSettlement(bet.bidder, bet.hand, k, pts, reason, decides))
        entries = {e.player: e for e in result.ledger} if result.ledger is not None else {}
        lines = []
        for s in result.scores:
            others = {p: v for p, v in values.items() if p != s.player}
            e = entries.get(s.player)
            lines.append(PlayerLine(
                s.player, s.role, s.bid, s.side_tricks, s.made, s.contract_points, s.bags,
                s.nil_points, s.points,
                (e.before.points, e.before.bags) if e else None,
                (e.after.points, e.after.bags) if e else None,
                e.bag_penalties if e else 0,
                values[s.player], values[s.player] - max(others.values()),
                {p: values[s.player] - v for p, v in others.items()}))
        return Outcome(d, TRICKS_PER_HAND - d, tuple(lines), tuple(nil_rows), leaders,
                       result.winner)


def _best(totals: Sequence[int], player: str, rows: Mapping[int, Outcome],
          coop: int) -> Optional[int]:
    totals = [t for t in totals if t in rows]
    if not totals:
        return None
    return max(totals, key=lambda t: (rows[t].value(player), rows[t].line(player).margin,
                                      -abs(t - coop)))


# ------------------------------------------------------------------ limited runs
def run_limited(tasks: Callable[[], Iterator[Tuple[tuple, object]]],
                seconds: Optional[float]) -> Tuple[Dict[tuple, object], bool]:
    """Run the generator ``tasks()`` of ``(key, value)`` results, for at most
    ``seconds`` (in a forked worker process, killed when time is up; ``None``:
    in this process, no limit; ``0``: not at all). Returns the results that arrived and whether
    the generator finished."""
    if seconds is None:
        return dict(tasks()), True
    if seconds <= 0:
        return {}, False
    import multiprocessing as mp
    import time

    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def work() -> None:
        try:
            for item in tasks():
                send.send(("item", item))
            send.send(("done", None))
        except BaseException as exc:  # pragma: no cover - reported to the parent
            send.send(("error", exc))

    proc = ctx.Process(target=work, daemon=True)
    proc.start()
    send.close()
    out: Dict[tuple, object] = {}
    finished = False
    deadline = time.monotonic() + max(0.0, seconds)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not recv.poll(left):
                break
            try:
                kind, payload = recv.recv()
            except EOFError:
                break
            if kind == "item":
                key, value = payload  # type: ignore[misc]
                out[key] = value
            elif kind == "done":
                finished = True
                break
            else:
                raise payload  # type: ignore[misc]
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    return out, finished


# ------------------------------------------------------------------ analyse
def _listed(totals: Sequence[int]) -> str:
    return ", ".join(str(t) for t in sorted(totals))


def check_deal(deal: Deal) -> None:
    """Raise :class:`DuckError` unless the deal has a complete auction."""
    if deal.auction is None:
        raise DuckError("the deal has no auction, so there is no declarer to analyse",
                        field="auction", expected="a complete auction (three bids)")
    if not deal.auction.is_complete:
        raise DuckError(f"the auction is not complete ({len(deal.auction.bids)} of 3 bids; "
                        f"{deal.auction.next_bidder} to bid)", field="auction",
                        expected="three bids, so that the declarer is known")


#: Default wall-clock limit (seconds) for the searches beyond the core
#: numbers: reachable totals, the declarer's settle total, lowest / highest.
DEFAULT_TIME_LIMIT = 10.0


def analyse(deal: Deal, breaking: Optional[bool] = None, oracle: Optional[Oracle] = None,
            time_limit: Optional[float] = DEFAULT_TIME_LIMIT,
            budget: int = REACH_BUDGET) -> DuckAnalysis:
    """The duck analysis of ``deal`` at its current position (after its
    ``played`` cards) for the auction's declarer.

    ``breaking=False`` switches the spade-breaking rule off (``None``: the
    deal's rule). The core numbers (cooperative, ducks, nils, card level) are
    always computed; the searches for reachable totals, the settle total and
    the lowest / highest totals run for at most ``time_limit`` seconds
    (``None``: no limit, in this process); what they did not settle is listed
    in :attr:`DuckAnalysis.undetermined`."""
    check_deal(deal)
    if breaking is not None and breaking != deal.rules.breaking:
        deal = replace(deal, rules=replace(deal.rules, breaking=breaking))
    auction = deal.auction
    assert auction is not None and auction.declarer is not None
    state = deal.play_state()
    if state.is_over:
        raise DuckError("all 13 tricks are played, so nothing is left to duck", field="played",
                        expected="a deal with tricks still to play (use `score` for a finished hand)")
    oracle = oracle or default_oracle()
    names = state.names
    pos = state.engine_position()
    left = state.tricks_left
    won_decl, won_def = state.declarer_tricks, state.defender_tricks
    seat_to_move = state.to_move
    assert seat_to_move is not None
    declarer = names[DECLARER_SEAT]
    left_def, right_def = names[LEFT_DEFENDER_SEAT], names[RIGHT_DEFENDER_SEAT]
    players = (declarer, left_def, right_def)
    bids = auction.tricks_bid

    # ---- core: cooperative and the two ducks (whole-hand totals)
    splits = team_splits(pos, oracle, extremes=False)
    coop = won_def + splits.cooperative
    duck = {names[x]: won_def + splits.duck[x] for x in DEFENDER_SEATS}
    contract_total = TRICKS_PER_HAND - bids[declarer]
    top_possible = won_def + left

    # ---- nils
    nils = []
    for bet in auction.applicable_nils():
        seat = names.index(bet.hand)
        side = "declarer" if side_of(seat) == DECLARER_SIDE else "defenders"
        won_h = state.tricks_won[seat]
        keep = None
        if not won_h:
            k = nil_keep_max(pos, seat, oracle)
            if k >= 0:
                keep = k + (won_decl if side == "declarer" else won_def)
        nils.append(NilStatus(bet.bidder, bet.hand, seat, side, won_h, keep))
    scorer = _Scorer(deal, nils)

    # ---- searches under the time limit, most important first
    def rel(t: int) -> int:
        return t - won_def

    def tasks() -> Iterator[Tuple[tuple, object]]:
        done: Dict[tuple, object] = {}

        def ask(key: tuple, roles: Sequence[str], t: int) -> Tuple[tuple, object]:
            done[key] = reach(pos, roles, rel(t), rel(t), oracle, budget)
            return key, done[key]

        # 1. each defender's totals between their duck and the cooperative total
        for x in DEFENDER_SEATS:
            for t in range(duck[names[x]] + 1, coop):
                yield ask(("reach", names[x], t), defender_roles(x), t)
        # 2. the declarer's settle total: the most conceded while still making
        if coop <= contract_total:
            for t in range(min(contract_total, top_possible), coop, -1):
                key, r = ask(("reach", declarer, t), DECLARER_ROLES, t)
                yield key, r
                if r:
                    break
        # 3. the fewest of any play-out (usually quick)
        lowest = won_def + lowest_total(pos, oracle)
        yield ("lowest",), lowest
        # 4. the declarer's other totals upwards, while reachable
        for t in range(coop + 1, top_possible + 1):
            key = ("reach", declarer, t)
            r = done[key] if key in done else None
            if key not in done:
                key, r = ask(key, DECLARER_ROLES, t)
                yield key, r
            if not r:
                break
        # 5. the most of any play-out (proving it can be slow), the rest
        highest = won_def + highest_total(pos, oracle)
        yield ("highest",), highest
        for t in range(coop + 1, highest):
            if ("reach", declarer, t) not in done:
                yield ask(("reach", declarer, t), DECLARER_ROLES, t)
        for t in range(lowest + 1, highest):
            if not any(done.get(("reach", p, t)) for p in players) and \
                    not (t == coop or t in duck.values()):
                yield ask(("everyone", t), EVERYONE_ROLES, t)

    found, finished = run_limited(tasks, time_limit)
    undetermined: List[str] = []
    lowest = found.get(("lowest",))
    highest = found.get(("highest",))
    if lowest is None:
        undetermined.append("lowest total")
    if highest is None:
        undetermined.append("highest total")

    def known(key: tuple) -> Optional[bool]:
        v = found.get(key)
        return None if v is None else bool(v)

    reach_of: Dict[str, Dict[int, Optional[bool]]] = {}
    for x in (left_def, right_def):
        reach_of[x] = {t: (True if t in (duck[x], coop) else known(("reach", x, t)))
                       for t in range(duck[x], coop + 1)}
    decl_top = highest if highest is not None else max(
        [coop] + [k[2] for k, v in found.items() if k[:2] == ("reach", declarer) and v])
    reach_of[declarer] = {}
    for t in range(coop, decl_top + 1):
        if t in (coop, highest):
            reach_of[declarer][t] = True
        else:
            reach_of[declarer][t] = known(("reach", declarer, t))
    # the settle total: the most the declarer can concede and still make
    settle: Optional[int] = None
    if coop <= contract_total:
        settle = coop
        unsure = []
        for t in range(min(contract_total, top_possible), coop, -1):
            r = reach_of[declarer].get(t, known(("reach", declarer, t)))
            if r:
                settle = t
                break
            if r is None:
                unsure.append(t)
        if unsure:
            undetermined.append(f"whether {declarer} can settle for D = {_listed(unsure)}")
    for p in players:
        unsure = [t for t, r in reach_of[p].items() if r is None]
        if unsure:
            undetermined.append(f"whether {p} can bring about D = {_listed(unsure)}")

    # ---- rows
    lo_row = lowest if lowest is not None else min(duck.values())
    hi_row = highest if highest is not None else decl_top
    rows: Dict[int, Outcome] = {}
    unsure = []
    for t in range(lo_row, hi_row + 1):
        by = tuple(p for p in players if reach_of[p].get(t))
        if t in (lowest, highest) or by:
            reachable: Optional[bool] = True
        else:
            reachable = known(("everyone", t))
            if reachable is None:
                unsure.append(t)
        if reachable is False:
            continue
        rows[t] = replace(scorer.outcome(t), reachable=reachable, reachable_by=by)
    if unsure:
        undetermined.append(f"whether any play-out ends with D = {_listed(unsure)}")

    options = []
    for p in players:
        ok = [t for t, r in reach_of[p].items() if r]
        best = _best(ok, p, rows, coop)
        if p == declarer:
            options.append(PlayerOptions(p, "declarer", coop, highest, settle, coop,
                                         reach_of[p], best))
        else:
            other = right_def if p == left_def else left_def
            options.append(PlayerOptions(p, "defender", duck[p], coop, duck[p], duck[other],
                                         reach_of[p], best))

    # ---- marks
    marks: Dict[int, List[str]] = {}

    def mark(t: Optional[int], label: str) -> None:
        if t is not None and t in rows and label not in marks.setdefault(t, []):
            marks[t].append(label)

    mark(coop, "coop")
    for x in (left_def, right_def):
        mark(duck[x], f"duck {x}")
    mark(settle, f"settle {declarer}")
    for o in options:
        if o.best is not None and o.best not in (coop, o.duck):
            mark(o.best, f"best {o.player}")
    for n in nils:
        if n.keep_max is not None:
            mark(n.keep_max if n.side == "defenders" else TRICKS_PER_HAND - n.keep_max,
                 f"nil {n.hand} kept")
    mark(lowest, "lowest")
    mark(highest, "highest")
    for t in rows:
        rows[t] = replace(rows[t], marks=tuple(marks.get(t, ())))
    outcomes = tuple(rows[t] for t in sorted(rows))

    # ---- effects against the cooperative outcome
    base = rows[coop]
    effects = []
    for o in options:
        kind = "settle" if o.role == "declarer" else "duck"
        for k, t in ((kind, o.duck), ("best", o.best)):
            if t is None or t not in rows:
                effects.append(DuckEffect(o.player, k, t, None, None))
                continue
            row = rows[t]
            effects.append(DuckEffect(o.player, k, t, row.value(o.player) - base.value(o.player),
                                      row.line(o.player).margin - base.line(o.player).margin))

    # ---- card level
    chooser = controller(seat_to_move)
    groups = card_totals(pos, oracle)
    card_keep = {n.hand: card_nil_keep_max(pos, n.seat, oracle) for n in nils if not n.won}
    totals_ = [won_def + v for _, v in groups]
    best_total = max(totals_) if chooser in DEFENDER_SEATS else min(totals_)
    built = []
    for cards_, v in groups:
        t = won_def + v
        keeps: Dict[str, Optional[int]] = {}
        for n in nils:
            k = card_keep[n.hand][cards_[0]] if not n.won else -1
            keeps[n.hand] = None if k < 0 else k + (won_decl if n.side == "declarer" else won_def)
        built.append((tuple(cards_), scorer.outcome(t, keeps), abs(t - best_total)))
    ref = next(row for _, row, given in built if given == 0)
    cards = []
    for cards_, row, given in built:
        gains = tuple(p for p in players if row.value(p) > ref.value(p))
        loses = tuple(p for p in players if row.value(p) < ref.value(p))
        cards.append(CardOption(cards_, row, given, gains, loses))
    cards.sort(key=lambda c: (c.tricks_given_up, suit_of(c.cards[0]), -max(c.cards)))

    if not finished and not undetermined:
        undetermined.append("some reachable totals")
    return DuckAnalysis(
        deal=deal, declarer=declarer, left_defender=left_def, right_defender=right_def,
        names=names, won=(won_decl, won_def), tricks_left=left,
        to_move=names[seat_to_move], played_by=names[chooser],
        cooperative=coop, duck=duck, lowest=lowest, highest=highest,
        contract_total=contract_total, settle=settle, nils=tuple(nils),
        ignored_nils=tuple(auction.ignored_nils()), options=tuple(options), outcomes=outcomes,
        effects=tuple(effects), cards=tuple(cards), best_card_total=best_total,
        complete=not undetermined, undetermined=tuple(undetermined))
