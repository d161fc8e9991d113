"""Cut-throat equilibrium in endings (docs/DUCK.md "Equilibrium").

A **max-n** search: each of the three real players (the declarer choosing
the dummy's cards too) plays to maximise their own value (the hand score,
or with running scores the total after the hand), all four hands known. At
every turn the player to move takes the card whose outcome, with everybody
playing the same way afterwards, is best for them; ties go to the higher
margin over the best other player, then to more tricks for their side, then
to the card that comes first (spades, hearts, diamonds, clubs; low to high).
This is backward induction: the outcome is a subgame-perfect equilibrium of
the three-player game.

Max-n rather than paranoid: the question is what happens when each player
plays for their own score, not what one player can make sure of against the
other two combined (the duck analysis's ``alone`` and ``duck`` totals answer
that).

The search is exact and runs in Python; where nothing but the trick total
can change any more and every player's preference runs the same way as
their side's (a two-team game), a position is valued by the engine
(``max_tricks``), which gives the same result as the search below it.
Endings of at most :data:`MAX_TRICKS` tricks only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

from ..board import Board
from ..cards import iter_cards, suit_of
from ..position import Position
from ..seating import DEFENDER_SIDE, controller
from .hand import DuckError
from .outcomes import NilStatus, OutcomeRow, OutcomeRows
from .questions import (DEFENDER_SEATS, Oracle, after_card_won_by, card_totals,
                        default_oracle)

#: The largest ending the search takes: tricks left (the one in progress
#: included), i.e. cards per hand at the start of a trick.
MAX_TRICKS = 5

#: An outcome of the play: the defenders' tricks for the whole hand and the
#: seats of the nil hands that have won a trick during the search.
Leaf = Tuple[int, int]


@dataclass(frozen=True)
class EquilibriumStep:
    """One card of the equilibrium line: the ``hand`` playing it (may be
    the dummy), the ``player`` choosing it, and whether it is also a best
    card of cooperative double-dummy play at that point (``cooperative``)."""

    hand: str
    player: str
    card: int
    cooperative: bool


@dataclass(frozen=True)
class EquilibriumCard:
    """A group of equivalent legal cards of the player to move, with the
    equilibrium outcome after it; ``chosen``: the equilibrium card."""

    cards: Tuple[int, ...]
    outcome: OutcomeRow
    chosen: bool


@dataclass(frozen=True)
class Equilibrium:
    """The outcome when each real player maximises their own value, against
    the cooperative double-dummy outcome (both defenders maximise the
    defender total, the declarer minimises it).

    ``line``: the equilibrium play to the end; ``first_deviation``: the index
    in ``line`` of the first card that is not a best card of cooperative
    play (``None``: every card is one); ``changes[player]``: value in the
    equilibrium outcome minus value in the cooperative one; ``differs``:
    the defender total or some player's value differs."""

    outcome: OutcomeRow
    cooperative: OutcomeRow
    line: Tuple[EquilibriumStep, ...]
    cards: Tuple[EquilibriumCard, ...]
    first_deviation: Optional[int]
    changes: Mapping[str, int]
    nodes: int
    engine_leaves: int

    @property
    def differs(self) -> bool:
        return (self.outcome.defender_tricks != self.cooperative.defender_tricks
                or any(self.changes.values()))


def check_size(at: Board) -> None:
    """Raise :class:`DuckError` unless the position is small enough."""
    if at.tricks_left > MAX_TRICKS:
        raise DuckError(f"the equilibrium is not available with {at.tricks_left} tricks left",
                        field="played", expected=f"an ending of at most {MAX_TRICKS} tricks "
                        f"({MAX_TRICKS} cards per hand); play more cards first")


def card_groups(pos: Position) -> List[Tuple[int, ...]]:
    """The legal cards of the player to move in groups of equivalent cards:
    cards of one suit, held by that player, with no card between them still
    in play (held by anyone or on the table). Each group ascends; groups
    come in card order."""
    legal = pos.legal_mask()
    live = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    for c in pos.trick:
        live |= 1 << c
    groups: List[Tuple[int, ...]] = []
    run: List[int] = []
    for card in iter_cards(live):
        if legal >> card & 1 and run and suit_of(run[-1]) == suit_of(card):
            run.append(card)
            continue
        if run:
            groups.append(tuple(run))
        run = [card] if legal >> card & 1 else []
    if run:
        groups.append(tuple(run))
    return groups


class _MaxN:
    """The max-n search over one ending: memo, preference keys, counters."""

    def __init__(self, at: Board, scorer: OutcomeRows, nils: Tuple[NilStatus, ...],
                 oracle: Oracle) -> None:
        self.at, self.scorer, self.oracle = at, scorer, oracle
        self.nils = {n.hand: n for n in nils}
        self.live = 0            # seats of nil hands that have won nothing yet
        for n in nils:
            if not n.won:
                self.live |= 1 << n.seat
        self.memo: Dict[Tuple[Position, int, int], Leaf] = {}
        self.rows: Dict[Leaf, OutcomeRow] = {}
        self.keys: Dict[Tuple[Leaf, str], Tuple[int, int, int]] = {}
        self.nodes = 0
        self.engine_leaves = 0

    def row(self, leaf: Leaf) -> OutcomeRow:
        """The outcome row of a leaf: each nil kept iff its hand won no trick."""
        if leaf not in self.rows:
            d, lost = leaf
            settled = {}
            for hand, n in self.nils.items():
                if n.won:
                    settled[hand] = (False, "already-lost")
                elif lost >> n.seat & 1:
                    settled[hand] = (False, "wins-a-trick")
                else:
                    settled[hand] = (True, "kept")
            self.rows[leaf] = self.scorer.row(d, settled)
        return self.rows[leaf]

    def key(self, leaf: Leaf, player: str) -> Tuple[int, int, int]:
        """What ``player`` maximises: value, then margin, then side tricks."""
        k = (leaf, player)
        if k not in self.keys:
            row = self.row(leaf)
            line = row.line(player)
            side = row.defender_tricks if player != self.at.seating.declarer else row.declarer_tricks
            self.keys[k] = (line.value, line.margin, side)
        return self.keys[k]

    def two_team(self, d: int, left: int, lost: int) -> bool:
        """From here on only the defender total can change, and every
        player prefers it in their side's direction: the defenders more, the
        declarer fewer (each preference strict: the side tricks break ties)."""
        if self.live & ~lost:
            return False
        for player in self.at.seating.players:
            sign = -1 if player == self.at.seating.declarer else 1
            keys = [self.key((t, lost), player) for t in range(d, d + left + 1)]
            if sign < 0:
                keys.reverse()
            if any(a >= b for a, b in zip(keys, keys[1:])):
                return False
        return True

    def value(self, p: Position, d: int, lost: int) -> Leaf:
        """The leaf reached from ``p`` (``d``: whole-hand defender tricks so
        far, ``lost``: nil seats that have won a trick) under equilibrium play."""
        if p.is_over:
            return d, lost
        key = (p, d, lost)
        if key not in self.memo:
            self.nodes += 1
            left = p.tricks_left
            if self.two_team(d, left, lost):
                self.engine_leaves += 1
                self.memo[key] = d + self.oracle.max_tricks(p, DEFENDER_SIDE, DEFENDER_SIDE), lost
            else:
                self.memo[key] = self.best(p, d, lost)[1]
        return self.memo[key]

    def children(self, p: Position, d: int, lost: int) -> List[Tuple[Tuple[int, ...], Leaf]]:
        """Each group of legal cards with the leaf reached after it."""
        out = []
        for cards in card_groups(p):
            child, winner = after_card_won_by(p, cards[0])
            dd, ll = d, lost
            if winner is not None:
                dd += DEFENDER_SIDE >> winner & 1
                ll |= self.live & (1 << winner)
            out.append((cards, self.value(child, dd, ll)))
        return out

    def best(self, p: Position, d: int, lost: int) -> Tuple[Tuple[int, ...], Leaf]:
        """The card group the player to move takes, and its leaf."""
        player = self.at.names[controller(p.to_move)]
        options = self.children(p, d, lost)
        chosen = options[0]
        for option in options[1:]:
            if self.key(option[1], player) > self.key(chosen[1], player):
                chosen = option
        return chosen


def cooperative_cards(pos: Position, oracle: Oracle) -> List[int]:
    """The best cards of cooperative double-dummy play for the player to
    move (the most defender tricks for a defender, the fewest for the declarer)."""
    groups = card_totals(pos, oracle)
    best = (max if controller(pos.to_move) in DEFENDER_SEATS else min)(v for _, v in groups)
    return [c for cards, v in groups if v == best for c in cards]


def _line(search: _MaxN, oracle: Oracle) -> List[EquilibriumStep]:
    at = search.at
    p, d, lost = at.position, at.defender_tricks, 0
    steps = []
    while not p.is_over:
        seat = p.to_move
        cards, _ = search.best(p, d, lost)
        card = cards[0]
        steps.append(EquilibriumStep(at.names[seat], at.names[controller(seat)], card,
                                     card in cooperative_cards(p, oracle)))
        p, winner = after_card_won_by(p, card)
        if winner is not None:
            d += DEFENDER_SIDE >> winner & 1
            lost |= search.live & (1 << winner)
    return steps


def find_equilibrium(at: Board, scorer: OutcomeRows, nils: Tuple[NilStatus, ...],
                cooperative: OutcomeRow, oracle: Optional[Oracle] = None) -> Equilibrium:
    """The max-n equilibrium of the ending at ``at`` against the
    ``cooperative`` row (raises :class:`DuckError` above :data:`MAX_TRICKS`)."""
    check_size(at)
    oracle = oracle or default_oracle()
    search = _MaxN(at, scorer, nils, oracle)
    leaf = search.value(at.position, at.defender_tricks, 0)
    chosen, _ = search.best(at.position, at.defender_tricks, 0)
    cards = tuple(EquilibriumCard(cards, search.row(child), cards == chosen)
                  for cards, child in search.children(at.position, at.defender_tricks, 0))
    line = _line(search, oracle)
    outcome = search.row(leaf)
    deviation = next((i for i, s in enumerate(line) if not s.cooperative), None)
    changes = {p: outcome.value(p) - cooperative.value(p) for p in at.seating.players}
    return Equilibrium(outcome, cooperative, tuple(line), cards, deviation, changes,
                       search.nodes, search.engine_leaves)

