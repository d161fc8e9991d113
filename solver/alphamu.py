"""αμ (alpha-mu) search: the chance of a goal for the declarer's side when
it does not learn the layout during its next M moves (docs/ADVISE.md
"Without hindsight: αμ").

The question: a set of *worlds* (complete layouts of the cards, the
positions of one moment of the play that the side to move cannot tell
apart), a *goal* (the side takes at least ``need`` more tricks, the trick
in progress included) and a *lookahead* M. The side's next M moves are
chosen from what it sees: one card for every world it cannot tell apart.
The other side sees every card and answers each world on its own. After
the M-th move of the side each world is solved double dummy
(``Solver.at_least``). M = 1 is the plain average over the worlds of the
double-dummy answers (Perfect Information Monte Carlo); an M that covers
every move the side has left gives the exact best chance of any strategy
that chooses from what the side sees, against opponents who see all.

The search (Cazenave & Ventos's αμ) keeps, at each node, a *front*: the
set of undominated outcome vectors, one bit per world (1: the goal is
reached), each vector what one strategy of the side achieves. A vector is a
Python int, bit ``w`` for world ``w``; a node also has its *valid worlds*
(those consistent with the cards played on the way to it).

* At a node of the side (Max) one card is played in every world it cannot
  tell apart: the front is the union of the children's fronts, dominated
  vectors removed. The worlds it *can* tell apart (before the dummy is
  faced, the dummy's cards differ between worlds) choose apart: the fronts
  of those groups combine by every union of one vector of each.
* At a node of the other side (Min) each world takes its own best reply:
  the children's fronts combine by the elementwise minimum (bitwise and) of
  every pair, a child's vectors counted as 1 on the worlds where its card
  cannot be played.
* A node stops at once when the goal is reached (all ones), cannot be
  reached any more (all zeros) or M moves of the side have been made.

Cuts that keep every answer the same: the *early cut* (a Min node whose
front so far is dominated by its Max parent's front so far can add nothing
to it and stops), the *cut on win* (a Max node stops at a child whose front
holds the all-ones vector), a *transposition table* (the cards played, the
trick, the tricks won, M and the valid worlds) and a table of the
double-dummy leaves shared by every M (a leaf is the same whatever M led to
it). Every card of the root is searched in full (its own figure is
reported), so there is no root cut. The lookahead deepens one move at a
time (iterative deepening); a search stopped by a deadline or a node budget
reports the last M it completed.

This module knows nothing of how the worlds are drawn: it takes positions,
weights and a :class:`~solver.contract.Solver`.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .analysis import AnalysisError
from .cards import iter_cards
from .cards import count as popcount
from .contract import Solver
from .limits import LOOKAHEAD_MAX
from .position import Card, Position, SeatMask, equivalent_groups, play_card
from .rules import legal_cards

#: how often (in search nodes) the deadline and the node budget are checked
CHECK_EVERY = 64
TIME, NODES = "time", "nodes"

#: an outcome vector (bit w: the goal is reached in world w) and a front of them
Vector = int
Front = List[Vector]


class AlphaMuError(AnalysisError):
    """A question αμ cannot answer as asked (a lookahead or goal out of range,
    worlds the side to move could tell apart at the root)."""


def check_lookahead(m: int) -> int:
    if isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= LOOKAHEAD_MAX:
        raise AlphaMuError(f"lookahead {m!r}", field="lookahead",
                           expected=f"a whole number of moves from 1 to {LOOKAHEAD_MAX}")
    return m


def side_moves_left(pos: Position, side: SeatMask) -> int:
    """The cards the side still has to play: the lookahead that covers every
    move it has left (any larger lookahead gives the same answers)."""
    return sum(popcount(h) for s, h in enumerate(pos.hands) if side >> s & 1)


# ----------------------------------------------------------------- fronts
#: comparisons of vectors between two calls of a long prune's ``check``
PRUNE_CHECK_WORK = 1 << 14


def prune(vectors: Sequence[Vector], check: Optional[Callable[[], None]] = None) -> Front:
    """The undominated vectors of ``vectors`` (no vector a subset of
    another kept one; duplicates once), most bits first. ``check()`` is
    called every :data:`PRUNE_CHECK_WORK` comparisons (a deadline)."""
    out: Front = []
    work = 0
    for v in sorted(set(vectors), key=lambda x: -x.bit_count()):
        work += len(out)
        if check is not None and work >= PRUNE_CHECK_WORK:
            check()
            work = 0
        for k in out:
            if v & ~k == 0:
                break
        else:
            out.append(v)
    return out


def dominated(front: Sequence[Vector], by: Sequence[Vector]) -> bool:
    """Is every vector of ``front`` a subset of some vector of ``by``?"""
    return all(any(v & ~k == 0 for k in by) for v in front)


def bits(mask: int) -> List[int]:
    """The worlds of ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ----------------------------------------------------------------- result
@dataclass(frozen=True)
class CardChance:
    """One group of equivalent legal cards at the root: ``vector``, the
    outcome vector of the side's best strategy after it (bit w: the goal is
    reached in world w); ``value``, its weighted share of the worlds."""

    cards: Tuple[Card, ...]
    vector: Vector
    value: float

    def outcomes(self, worlds: int) -> List[float]:
        """The vector as 0/1 per world."""
        return [float(self.vector >> w & 1) for w in range(worlds)]


@dataclass(frozen=True)
class Search:
    """What :func:`search` found. ``lookahead``: the M asked (capped at
    ``covering``, the M that covers every move the side has left);
    ``completed``: the largest M searched for every card (0: none, then
    ``cards`` is empty); ``cards``: per root group (the order of
    :func:`~solver.position.equivalent_groups`) at ``completed``;
    ``stopped_by``: None, :data:`TIME` or :data:`NODES`; ``nodes``: the
    αμ nodes; ``leaves``: the double-dummy questions asked;
    ``engine_nodes``: the solver's nodes for them; ``depths``: the cards'
    figures at each M completed, from the first M searched."""

    lookahead: int
    covering: int
    completed: int
    cards: Tuple[CardChance, ...]
    stopped_by: Optional[str]
    nodes: int
    leaves: int
    engine_nodes: int
    depths: Tuple[Tuple[CardChance, ...], ...] = ()

    @property
    def exact_depth(self) -> bool:
        """Did the completed M cover every move the side has left?"""
        return self.completed >= self.covering


@dataclass(frozen=True)
class Cuts:
    """The cuts a search uses (all by default; each can be turned off to
    measure what it saves, ``benches/alphamu_cost.py cuts``): the early cut
    at the other side's nodes, the cut on win, the transposition table."""

    early: bool = True
    win: bool = True
    table: bool = True


ALL_CUTS = Cuts()


class _Stopped(Exception):
    """The deadline or the node budget was reached (``reason``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Key = Tuple[int, int, Tuple[int, ...], int, int, int]


class _AlphaMu:
    """One αμ search over fixed worlds (docs/ADVISE.md "Without hindsight: αμ")."""

    def __init__(self, worlds: Sequence[Position], side: SeatMask, need: int, solver: Solver,
                 deadline: Optional[float], node_budget: Optional[int],
                 cuts: Cuts = ALL_CUTS) -> None:
        root = worlds[0]
        self.cuts = cuts
        self.root = root
        self.side = side
        self.need = need
        self.solver = solver
        self.deadline = deadline
        self.node_budget = node_budget
        self.hands = [p.hands for p in worlds]
        self.breaking = root.breaking
        self.on_table = len(root.trick)
        self.tricks_left = root.tricks_left
        # holders[seat]: the worlds by the seat's hand at the root
        self.holders: List[Dict[int, int]] = [{}, {}, {}, {}]
        # the worlds by the side's hands at the root: those the side tells apart
        self.views: Dict[Tuple[int, ...], int] = {}
        seats = [s for s in range(4) if side >> s & 1]
        for w, hands in enumerate(self.hands):
            bit = 1 << w
            for s in range(4):
                self.holders[s][hands[s]] = self.holders[s].get(hands[s], 0) | bit
            view = tuple(hands[s] for s in seats)
            self.views[view] = self.views.get(view, 0) | bit
        self.table: Dict[Key, Front] = {}
        self.leaf: Dict[Tuple[int, int, Tuple[int, ...], int], Tuple[int, int]] = {}
        self.nodes = 0
        self.leaves = 0
        self.engine_start = solver.nodes
        self.engine_nodes = 0

    # ------------------------------------------------------------ helpers
    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self.check()

    def check(self) -> None:
        """Stop at the deadline or the node budget."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _Stopped(TIME)
        if self.node_budget is not None and \
                self.nodes + self.leaves + self.solver.nodes - self.engine_start \
                >= self.node_budget:
            raise _Stopped(NODES)

    def position(self, w: int, played: int, leader: int, trick: Tuple[int, ...],
                 broken: bool) -> Position:
        keep = ~played
        h = self.hands[w]
        return Position((h[0] & keep, h[1] & keep, h[2] & keep, h[3] & keep), leader, trick,
                        broken, self.breaking)

    def play(self, played: int, leader: int, trick: Tuple[int, ...], broken: bool, won: int,
             card: Card) -> Tuple[int, int, Tuple[int, ...], bool, int]:
        _, leader2, trick2, broken2 = play_card((0, 0, 0, 0), leader, trick, broken, card)
        if not trick2 and self.side >> leader2 & 1:
            won += 1
        return played | 1 << card, leader2, trick2, broken2, won

    # ------------------------------------------------------------ search
    def node(self, played: int, leader: int, trick: Tuple[int, ...], broken: bool, won: int,
             m: int, valid: int, above: Optional[Front]) -> Front:
        """The front of a node (``above``: the Max parent's front so far, for
        the early cut; a cut node's front is dominated by it and not kept)."""
        self.tick()
        if won >= self.need:
            return [valid]
        done = (self.on_table + popcount(played) - len(trick)) // 4
        if won + self.tricks_left - done < self.need:
            return [0]
        if m == 0:
            return [self.dd(played, leader, trick, broken, won, valid)]
        key = (played, leader, trick, won, m, valid)
        known = self.table.get(key) if self.cuts.table else None
        if known is not None:
            return known
        to_move = (leader + len(trick)) % 4
        if self.side >> to_move & 1:
            front = self.max_node(played, leader, trick, broken, won, m, valid)
        else:
            front, cut = self.min_node(played, leader, trick, broken, won, m, valid, above)
            if cut:
                return front
        self.table[key] = front
        return front

    def max_node(self, played: int, leader: int, trick: Tuple[int, ...], broken: bool, won: int,
                 m: int, valid: int) -> Front:
        combined: Front = [0]
        for view in self.views.values():
            group = view & valid
            if not group:
                continue
            pos = self.position(bits(group & -group)[0], played, leader, trick, broken)
            front: Front = []
            for cards in equivalent_groups(pos):
                child = self.play(played, leader, trick, broken, won, cards[0])
                front = prune(front + self.node(*child, m - 1, group,
                                                front if self.cuts.early else None), self.check)
                if front[0] == group and self.cuts.win:   # cut on win
                    break
            combined = prune([a | b for a in combined for b in front], self.check)
        return combined

    def min_node(self, played: int, leader: int, trick: Tuple[int, ...], broken: bool, won: int,
                 m: int, valid: int, above: Optional[Front]) -> Tuple[Front, bool]:
        seat = (leader + len(trick)) % 4
        moves: Dict[int, int] = {}
        for hand, worlds in self.holders[seat].items():
            worlds &= valid
            if worlds:
                for c in iter_cards(legal_cards(hand & ~played, trick, broken, self.breaking)):
                    moves[c] = moves.get(c, 0) | worlds
        front: Front = [valid]
        for card, worlds in sorted(moves.items(), key=lambda kv: -kv[1].bit_count()):
            child = self.play(played, leader, trick, broken, won, card)
            rest = valid & ~worlds
            answers = self.node(*child, m, worlds, None)
            if len(front) * len(answers) > PRUNE_CHECK_WORK:
                self.check()
            front = prune([a & (b | rest) for a in front for b in answers], self.check)
            if front == [0]:
                break
            if above is not None and dominated(front, above):
                return front, True
        return front, False

    def dd(self, played: int, leader: int, trick: Tuple[int, ...], broken: bool, won: int,
           valid: int) -> Vector:
        """The worlds of ``valid`` where the side reaches the goal double
        dummy from here (a table shared by every M)."""
        key = (played, leader, trick, won)
        asked, yes = self.leaf.get(key, (0, 0))
        todo = valid & ~asked
        if todo:
            target = self.need - won
            for w in bits(todo):
                self.leaves += 1
                if self.solver.at_least(self.position(w, played, leader, trick, broken),
                                        self.side, target):
                    yes |= 1 << w
                self.check()    # a leaf early in the hand is a whole solve
            self.leaf[key] = (asked | todo, yes)
        return yes & valid

    def root_cards(self, m: int, roots: Optional[Sequence[int]] = None
                   ) -> List[Tuple[Tuple[Card, ...], Front]]:
        """Each root group of equivalent cards (those of index ``roots``; None:
        all) with its front at lookahead ``m``."""
        r = self.root
        everyone = (1 << len(self.hands)) - 1
        out = []
        groups = equivalent_groups(r)
        for cards in groups if roots is None else [groups[i] for i in roots]:
            child = self.play(0, r.leader, r.trick, r.spades_broken, 0, cards[0])
            out.append((tuple(cards), self.node(*child, m - 1, everyone, None)))
        return out


def check_worlds(worlds: Sequence[Position], side: SeatMask) -> None:
    """The worlds must be one moment of the play that the side to move cannot
    tell apart: the same trick, leader and spade state, the same cards in
    play, the same hand to move, and that hand the side's."""
    if not worlds:
        raise AlphaMuError("no world to search", field="worlds", expected="at least one layout")
    r = worlds[0]
    if not side >> r.to_move & 1:
        raise AlphaMuError("the side to move is not the side searched", field="side",
                           expected="the seat to move among the side's seats")
    in_play = r.hands[0] | r.hands[1] | r.hands[2] | r.hands[3]
    for p in worlds[1:]:
        if (p.leader, p.trick, p.spades_broken, p.breaking) != \
                (r.leader, r.trick, r.spades_broken, r.breaking) \
                or p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3] != in_play \
                or p.hands[r.to_move] != r.hands[r.to_move] \
                or any(popcount(p.hands[s]) != popcount(r.hands[s]) for s in range(4)):
            raise AlphaMuError("the worlds are not one position the side to move cannot tell "
                               "apart", field="worlds",
                               expected="the same trick, cards in play and hand to move")


def weighted_value(vector: Vector, weights: Optional[Sequence[float]], worlds: int) -> float:
    """The weighted share of the worlds in ``vector``."""
    if weights is None:
        return vector.bit_count() / worlds
    total = float(sum(weights))
    return sum(weights[w] for w in bits(vector)) / total if total > 0 else 0.0


def search(worlds: Sequence[Position], side: SeatMask, need: int, lookahead: int,
           solver: Solver, *, weights: Optional[Sequence[float]] = None,
           deadline: Optional[float] = None, node_budget: Optional[int] = None,
           start: int = 1, progress: Optional[Callable[[int], None]] = None,
           cuts: Cuts = ALL_CUTS, roots: Optional[Sequence[int]] = None) -> Search:
    """αμ over ``worlds`` for ``side`` (the seats whose moves are chosen
    without seeing the layout; the side to move) needing ``need`` more
    tricks from the trick in progress on, looking ``lookahead`` of the
    side's moves ahead, deepening from M = ``start`` (``progress(m)`` after
    each M completed; a caller that has the figures of M = 1, the
    double-dummy average, starts at 2). ``weights``: per world (None: all
    alike). ``deadline`` (``time.monotonic()``) and ``node_budget`` (αμ
    nodes, double-dummy leaves and the solver's nodes) stop it; then the
    answers are those of the last M completed. ``roots``: search only the
    root groups of these indices (of
    :func:`~solver.position.equivalent_groups`; a worker's share)."""
    check_lookahead(lookahead)
    check_worlds(worlds, side)
    if weights is not None and len(weights) != len(worlds):
        raise AlphaMuError(f"{len(weights)} weights for {len(worlds)} worlds", field="weights",
                           expected="one weight per world")
    covering = max(1, side_moves_left(worlds[0], side))
    target = min(lookahead, covering)
    state = _AlphaMu(worlds, side, need, solver, deadline, node_budget, cuts)
    n = len(worlds)
    done: Tuple[CardChance, ...] = ()
    depths: List[Tuple[CardChance, ...]] = []
    completed = 0
    stopped: Optional[str] = None
    for m in range(max(1, start), target + 1):
        try:
            fronts = state.root_cards(m, roots)
        except _Stopped as stop:
            stopped = stop.reason
            break
        chances = []
        for cards, front in fronts:
            best = max(front, key=lambda v: (weighted_value(v, weights, n), v.bit_count()))
            chances.append(CardChance(cards, best, weighted_value(best, weights, n)))
        done, completed = tuple(chances), m
        depths.append(done)
        if progress is not None:
            progress(m)
    return Search(target, covering, completed, done, stopped, state.nodes, state.leaves,
                  solver.nodes - state.engine_start, tuple(depths))


__all__ = ["ALL_CUTS", "AlphaMuError", "CHECK_EVERY", "CardChance", "Cuts", "LOOKAHEAD_MAX",
           "NODES", "Search", "TIME", "bits", "check_lookahead", "check_worlds", "dominated",
           "prune", "search", "side_moves_left", "weighted_value"]
