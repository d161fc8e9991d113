"""The optional searches of the duck analysis, run under a time limit
(docs/DUCK.md "Reachable totals", "Nil breaking"): which totals each player
can bring about, the declarer's settle total, the totals of the nil-breaking
games, and the lowest and highest totals of any play-out.

The searches ask typed questions (:class:`Reach`, :class:`Break`,
:class:`Extreme`), most
important first; :func:`run_searches` runs them for at most the time limit
and :class:`Reachability` reads what they settled. Totals are whole-hand
defender totals.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from ..board import Board
from ..run import run_limited
from .hand import HandLevel
from .nilbreak import BreakQuestion, break_total
from .questions import DEFENDER_SEATS, Oracle, highest_total, lowest_total
from .reachable import DECLARER_ROLES, EVERYONE_ROLES, Roles, defender_roles, reach


@dataclass(frozen=True)
class Reach:
    """Can ``player`` bring about the whole-hand total ``total`` by their own
    choice of cards (``player=None``: does some legal play-out end there)?"""

    player: Optional[str]
    total: int


@dataclass(frozen=True)
class Break:
    """The whole-hand total of ``breaker``'s game against the nil on ``hand``
    (:class:`~.nilbreak.BreakQuestion`)."""

    breaker: str
    hand: str


@dataclass(frozen=True)
class Extreme:
    """The ``"lowest"`` or ``"highest"`` total of any legal play-out."""

    which: str


LOWEST, HIGHEST = Extreme("lowest"), Extreme("highest")
Question = Union[Reach, Break, Extreme]


@dataclass(frozen=True)
class Findings:
    """The answers the searches gave within the time limit; ``finished``:
    every search ran."""

    answers: Mapping[Question, object]
    finished: bool

    def reach(self, player: Optional[str], total: int) -> Optional[bool]:
        v = self.answers.get(Reach(player, total))
        return None if v is None else bool(v)

    def extreme(self, which: Extreme) -> Optional[int]:
        return _total(self.answers.get(which))

    def break_total(self, q: BreakQuestion) -> Optional[int]:
        return _total(self.answers.get(Break(q.breaker, q.hand)))

    def reached_by(self, player: str) -> List[int]:
        """The totals ``player`` was shown to bring about."""
        return [q.total for q, v in self.answers.items()
                if isinstance(q, Reach) and q.player == player and v]


def _total(answer: object) -> Optional[int]:
    """A total found by a search (``None``: none found)."""
    return answer if isinstance(answer, int) else None


class _Searches:
    """The search questions of one analysis, most important first."""

    def __init__(self, at: Board, hand: HandLevel, breaks: Sequence[BreakQuestion],
                 oracle: Oracle, budget: int) -> None:
        self.at, self.hand, self.oracle, self.budget = at, hand, oracle, budget
        self.breaks = [q for q in breaks if q.can_force]
        self.roles: Dict[Optional[str], Roles] = {at.seating.declarer: DECLARER_ROLES, None: EVERYONE_ROLES}
        for x in DEFENDER_SEATS:
            self.roles[at.names[x]] = defender_roles(x)
        self.done: Dict[Question, object] = {}

    def ask(self, q: Reach) -> Tuple[Question, object]:
        won = self.at.defender_tricks
        self.done[q] = reach(self.at.position, self.roles[q.player], q.total - won, q.total - won,
                             self.oracle, self.budget)
        return q, self.done[q]

    def breaking(self, q: BreakQuestion) -> Tuple[Question, object]:
        key = Break(q.breaker, q.hand)
        self.done[key] = break_total(self.at, q, self.oracle, self.budget)
        return key, self.done[key]

    def extreme(self, q: Extreme) -> Tuple[Question, int]:
        find = lowest_total if q is LOWEST else highest_total
        total = self.at.defender_tricks + find(self.at.position, self.oracle)
        self.done[q] = total
        return q, total

    def __call__(self) -> Iterator[Tuple[Question, object]]:
        hand, declarer = self.hand, self.at.seating.declarer
        coop = hand.cooperative
        # 1. each defender's totals between their duck and the cooperative total
        for x in DEFENDER_SEATS:
            name = self.at.names[x]
            for t in range(hand.duck[name] + 1, coop):
                yield self.ask(Reach(name, t))
        # 2. the declarer's settle total: the most conceded while still making
        if hand.declarer_can_make:
            for t in range(min(hand.contract_total, hand.top_possible), coop, -1):
                q, r = self.ask(Reach(declarer, t))
                yield q, r
                if r:
                    break
        # 3. the totals of the nil-breaking games
        for b in self.breaks:
            yield self.breaking(b)
        # 4. the fewest of any play-out (usually quick)
        _, lowest = self.extreme(LOWEST)
        yield LOWEST, lowest
        # 5. the declarer's other totals upwards, while reachable
        for t in range(coop + 1, hand.top_possible + 1):
            q = Reach(declarer, t)
            if q not in self.done:
                yield self.ask(q)
            if not self.done[q]:
                break
        # 6. the most of any play-out (proving it can be slow), the rest
        _, highest = self.extreme(HIGHEST)
        yield HIGHEST, highest
        for t in range(coop + 1, highest):
            if Reach(declarer, t) not in self.done:
                yield self.ask(Reach(declarer, t))
        for t in range(lowest + 1, highest):
            if not any(self.done.get(Reach(p, t)) for p in self.at.seating.players) and \
                    not (t == coop or t in hand.duck.values()):
                yield self.ask(Reach(None, t))


def run_searches(at: Board, hand: HandLevel, breaks: Sequence[BreakQuestion],
                 oracle: Oracle, time_limit: Optional[float], budget: int) -> Findings:
    """Run the searches for at most ``time_limit`` seconds (``None``: no
    limit, in this process; ``0``: none)."""
    answers, finished = run_limited(_Searches(at, hand, breaks, oracle, budget), time_limit)
    return Findings(answers, finished)


def listed(totals: Sequence[int]) -> str:
    return ", ".join(str(t) for t in sorted(totals))


@dataclass(frozen=True)
class Reachability:
    """What the searches settled: each real player's reachable totals
    (``True`` / ``False`` / ``None`` not determined), the declarer's settle
    total, the lowest and highest totals (``None``: not determined), and
    what was not determined, in words."""

    reachable: Mapping[str, Mapping[int, Optional[bool]]]
    settle: Optional[int]
    lowest: Optional[int]
    highest: Optional[int]
    declarer_top: int           # the highest total the declarer was shown to reach
    findings: Findings
    undetermined: Tuple[str, ...]

    @classmethod
    def settled(cls, at: Board, hand: HandLevel, found: Findings) -> "Reachability":
        lowest, highest = found.extreme(LOWEST), found.extreme(HIGHEST)
        undetermined = [f"{e.which} total" for e, v in ((LOWEST, lowest), (HIGHEST, highest))
                        if v is None]
        coop = hand.cooperative
        reachable: Dict[str, Dict[int, Optional[bool]]] = {}
        for x in at.seating.players[1:]:
            reachable[x] = {t: (True if t in (hand.duck[x], coop) else found.reach(x, t))
                            for t in range(hand.duck[x], coop + 1)}
        top = highest if highest is not None else max([coop] + found.reached_by(at.seating.declarer))
        reachable[at.seating.declarer] = {t: (True if t in (coop, highest) else found.reach(at.seating.declarer, t))
                                  for t in range(coop, top + 1)}
        settle, unsure = _settle(at.seating.declarer, hand, reachable[at.seating.declarer], found)
        if unsure:
            undetermined.append(f"whether {at.seating.declarer} can settle for D = {listed(unsure)}")
        for p in at.seating.players:
            unsure = [t for t, r in reachable[p].items() if r is None]
            if unsure:
                undetermined.append(f"whether {p} can bring about D = {listed(unsure)}")
        return cls(reachable, settle, lowest, highest, top, found, tuple(undetermined))

    def reachable_by(self, players: Sequence[str], total: int) -> Tuple[str, ...]:
        return tuple(p for p in players if self.reachable[p].get(total))

    def some_playout(self, players: Sequence[str], total: int) -> Optional[bool]:
        """Does some legal play-out end with ``total`` (``None``: not determined)?"""
        if total in (self.lowest, self.highest) or self.reachable_by(players, total):
            return True
        return self.findings.reach(None, total)


def _settle(declarer: str, hand: HandLevel, reachable: Mapping[int, Optional[bool]],
            found: Findings) -> Tuple[Optional[int], List[int]]:
    """The settle total (the most defender tricks the declarer can concede
    and still make; ``None`` when he cannot make) and the totals above it
    not determined in time."""
    if not hand.declarer_can_make:
        return None, []
    unsure: List[int] = []
    for t in range(min(hand.contract_total, hand.top_possible), hand.cooperative, -1):
        r = reachable.get(t, found.reach(declarer, t))
        if r:
            return t, unsure
        if r is None:
            unsure.append(t)
    return hand.cooperative, unsure

