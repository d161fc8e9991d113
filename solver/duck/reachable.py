"""Reachable totals (docs/DUCK.md "Reachable totals"): can one player, by
their own choice of cards, make the hand end with exactly a given defender
total, when every other seat plays its stated objective knowing that plan?

A search on top of the engine: one ``card_groups`` query per position and
null-window ``at_least`` tests.
"""
from __future__ import annotations

from typing import Dict, Optional, Sequence, Tuple

from ..position import Position
from ..seating import DECLARER_SEAT, DEFENDER_SIDE, DUMMY_SEAT, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT
from ..contract import CardGroups
from .questions import Oracle, OverBudget, after_card, default_oracle

#: Roles of a seat in a :func:`reach` search: ``CHOOSE`` seats play whatever
#: they like (the player whose options are asked about), ``MAX`` seats play to
#: maximise the defender total, ``MIN`` seats to minimise it.
CHOOSE, MAX, MIN = "choose", "max", "min"

#: Default node budget of one :func:`reach` search (positions expanded).
REACH_BUDGET = 600

Roles = Tuple[str, str, str, str]


def defender_roles(seat: int) -> Roles:
    """Roles for a defender's duck options: that defender chooses, the
    declarer (and dummy) minimise, the other defender maximises."""
    roles = [MIN, MIN, MIN, MIN]
    roles[seat] = CHOOSE
    roles[LEFT_DEFENDER_SEAT + RIGHT_DEFENDER_SEAT - seat] = MAX
    return roles[0], roles[1], roles[2], roles[3]


#: Roles for the declarer's options: the declarer chooses, both defenders maximise.
DECLARER_ROLES: Roles = (CHOOSE, MAX, CHOOSE, MAX)
#: Roles for "some legal play-out ends here": everybody chooses.
EVERYONE_ROLES: Roles = (CHOOSE, CHOOSE, CHOOSE, CHOOSE)


def _role_masks(roles: Sequence[str]) -> Tuple[int, int]:
    if len(roles) != 4 or any(r not in (CHOOSE, MAX, MIN) for r in roles):
        raise ValueError(f"roles must be four of {CHOOSE!r}, {MAX!r}, {MIN!r}, not {roles!r}")
    if roles[DECLARER_SEAT] != roles[DUMMY_SEAT]:
        raise ValueError("the declarer and the dummy must have the same role (one player)")
    choose = sum(1 << s for s, r in enumerate(roles) if r == CHOOSE)
    maxi = sum(1 << s for s, r in enumerate(roles) if r == MAX)
    return choose, maxi


def child_lows(pos: Position, roles: Sequence[str], oracle: Optional[Oracle] = None) -> CardGroups:
    """For each group of equivalent legal cards of the seat to move: the
    fewest defender tricks (from ``pos`` on, the trick in progress included)
    the ``CHOOSE`` seats can bring about after it (they and the ``MIN`` seats
    minimise against the ``MAX`` seats). Highest value first."""
    oracle = oracle or default_oracle()
    _, maxi = _role_masks(roles)
    return sorted(oracle.card_groups(pos, maxi, DEFENDER_SIDE), key=lambda g: (-g[1], g[0][0]))


class _ReachSearch:
    """One :func:`reach` search: the roles, the memo and the node budget."""

    def __init__(self, roles: Sequence[str], oracle: Oracle, budget: int) -> None:
        choose, maxi = _role_masks(roles)
        self.roles = tuple(roles)
        self.oracle = oracle
        self.high_side = choose | maxi
        self.budget = budget
        self.nodes = 0
        self.memo: Dict[Tuple[Position, int, int], bool] = {}

    def high_reaches(self, child: Position, won: int, target: int) -> bool:
        """Can the choosers, maximising, make at least ``target`` from the
        parent's point of view after this child (``won`` completed there)?"""
        return self.oracle.at_least(child, self.high_side, DEFENDER_SIDE, target - won)

    def search(self, p: Position, lo: int, hi: int) -> bool:
        lo = max(lo, 0)
        if lo > hi or lo > p.tricks_left:
            return False
        if p.is_over:
            return lo <= 0 <= hi
        key = (p, lo, hi)
        if key not in self.memo:
            self.nodes += 1
            if self.nodes > self.budget:
                raise OverBudget
            self.memo[key] = self.expand(p, lo, hi)
        return self.memo[key]

    def expand(self, p: Position, lo: int, hi: int) -> bool:
        role = self.roles[p.to_move]
        lows = child_lows(p, self.roles, self.oracle)
        children = {cards[0]: after_card(p, cards[0]) for cards, _ in lows}
        if role == MAX and any(mn > hi for _, mn in lows):
            return False
        if role == MIN and not all(self.high_reaches(*children[cards[0]], lo) for cards, _ in lows):
            return False
        if any(lo <= mn <= hi for _, mn in lows):
            return True
        for cards, mn in lows:            # nearest below the target first
            if mn >= lo:
                continue
            child, won = children[cards[0]]
            if role != MIN and not self.high_reaches(child, won, lo):
                continue
            if self.search(child, lo - won, hi - won):
                return True
        return False


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
    search = _ReachSearch(roles, oracle or default_oracle(), budget)
    try:
        return search.search(pos, lo, hi)
    except OverBudget:
        return None


def reachable_totals(pos: Position, roles: Sequence[str], lo: int, hi: int,
                     oracle: Optional[Oracle] = None,
                     budget: int = REACH_BUDGET) -> Dict[int, Optional[bool]]:
    """``{total: reach(pos, roles, total, total)}`` for every total in ``[lo, hi]``
    (defender tricks from ``pos`` on)."""
    return {t: reach(pos, roles, t, t, oracle, budget) for t in range(lo, hi + 1)}

