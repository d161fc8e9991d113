"""A brute-force reference for αμ, written apart from the search
(solver/alphamu.py): the declarer side's strategies enumerated one by one
as functions from its information sets to cards, the defenders answering
each strategy in each world on their own (they see every card), each world
played out to the end (no solver, no fronts, no masks).

An information set is what the declarer's side sees when it is to move:
the cards played since the root, in order, and the side's own hands then
(two worlds whose side hands differ are told apart).

* :func:`best_chance` enumerates the strategies one by one. A strategy is
  built lazily: a world played out under a partial strategy that reaches
  an information set without a card stops, and the reference tries every
  legal card there. Only two-card endings with a few worlds are small
  enough.
* :func:`strategy_outcomes` gives the same strategies' outcomes composed
  subtree by subtree: the information sets after different cards are
  different, so a strategy of the whole is any one strategy after each
  card of the defenders (each world meeting the one its defender's card
  leads to, the defenders choosing per world), and any one strategy of
  each group of worlds the side tells apart. It keeps every distinct
  outcome vector (none dropped as dominated), a tuple of booleans per
  world, and plays every world out to the end. It reaches three-card
  endings with all their worlds.
"""
from __future__ import annotations

from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

from dummy_spades.solver.cards import iter_cards
from dummy_spades.solver.position import Position
from dummy_spades.solver.rules import breaks_spades, legal_cards, trick_winner

InfoSet = Tuple[Tuple[int, ...], Tuple[int, ...]]


class Unassigned(Exception):
    def __init__(self, key: InfoSet, choices: List[int]) -> None:
        super().__init__(key)
        self.key = key
        self.choices = choices


def _reaches(hands: List[int], leader: int, trick: List[int], broken: bool, breaking: bool,
             won: int, need: int, side: int, history: Tuple[int, ...],
             strategy: Dict[InfoSet, int]) -> bool:
    """Does the side reach ``need`` tricks in this world, the side playing
    ``strategy`` and the other side its best answer?"""
    if won >= need:
        return True
    if not trick and not any(hands):
        return False
    seat = (leader + len(trick)) % 4
    legal = list(iter_cards(legal_cards(hands[seat], tuple(trick), broken, breaking)))
    if side >> seat & 1:
        key = (history, tuple(hands[s] for s in range(4) if side >> s & 1))
        if key not in strategy:
            raise Unassigned(key, legal)
        choices = [strategy[key]]
    else:
        choices = legal
    results = []
    for card in choices:
        h = list(hands)
        h[seat] &= ~(1 << card)
        t = trick + [card]
        lead, b, w = leader, broken, won
        if len(t) == 4:
            lead = (leader + trick_winner(t)) % 4
            b = broken or breaks_spades(t)
            w += 1 if side >> lead & 1 else 0
            t = []
        result = _reaches(h, lead, t, b, breaking, w, need, side, history + (card,), strategy)
        if not side >> seat & 1 and not result:
            return False
        results.append(result)
    return all(results)


def best_chance(worlds: Sequence[Position], side: int, need: int, first: int,
                weights: Optional[Sequence[float]] = None) -> float:
    """The best weighted share of ``worlds`` where ``side`` reaches ``need``
    tricks, over every strategy of the side that plays ``first`` now."""
    w = [1.0] * len(worlds) if weights is None else list(weights)
    total = sum(w)
    root = worlds[0]
    root_key = ((), tuple(root.hands[s] for s in range(4) if side >> s & 1))

    def value(strategy: Dict[InfoSet, int]) -> float:
        got = 0.0
        for weight, p in zip(w, worlds):
            key = ((), tuple(p.hands[s] for s in range(4) if side >> s & 1))
            s = dict(strategy)
            s[key] = first
            try:
                ok = _reaches(list(p.hands), p.leader, list(p.trick), p.spades_broken,
                              p.breaking, 0, need, side, (), s)
            except Unassigned as u:
                return max(value({**strategy, u.key: c}) for c in u.choices)
            got += weight if ok else 0.0
        return got / total

    return value({root_key: first})


def splits(pos: Position, seats: Tuple[int, int]) -> List[Position]:
    """Every layout of the cards of ``seats`` between them, each keeping its
    size: the worlds a player who sees the other two hands cannot tell apart."""
    a, b = seats
    pool = list(iter_cards(pos.hands[a] | pos.hands[b]))
    size = bin(pos.hands[a]).count("1")
    out = []
    for chosen in combinations(pool, size):
        first = sum(1 << c for c in chosen)
        hands = list(pos.hands)
        hands[a] = first
        hands[b] = (pos.hands[a] | pos.hands[b]) & ~first
        out.append(Position((hands[0], hands[1], hands[2], hands[3]), pos.leader, pos.trick,
                            pos.spades_broken, pos.breaking))
    return out


State = Tuple[Tuple[int, int, int, int], int, Tuple[int, ...], bool, int]


def _advance(state: State, card: int, side: int) -> State:
    hands, leader, trick, broken, won = state
    seat = (leader + len(trick)) % 4
    h = list(hands)
    h[seat] &= ~(1 << card)
    t = trick + (card,)
    if len(t) == 4:
        leader = (leader + trick_winner(t)) % 4
        broken = broken or breaks_spades(t)
        won += 1 if side >> leader & 1 else 0
        t = ()
    return (h[0], h[1], h[2], h[3]), leader, t, broken, won


Outcomes = set  # of tuples: per world True (reached), False, or None (not this subtree's)


def _outcomes(states: List[Optional[State]], side: int, need: int, breaking: bool) -> Outcomes:
    live = [i for i, s in enumerate(states) if s is not None]
    first = states[live[0]]
    assert first is not None
    hands, leader, trick, _, won = first
    if won >= need or (not trick and not any(hands)):
        return {tuple(None if s is None else s[4] >= need for s in states)}
    seat = (leader + len(trick)) % 4
    if side >> seat & 1:
        groups: Dict[Tuple[int, ...], List[int]] = {}
        for i in live:
            s = states[i]
            assert s is not None
            groups.setdefault(tuple(s[0][k] for k in range(4) if side >> k & 1), []).append(i)
        combined: Outcomes = {tuple(None for _ in states)}
        for members in groups.values():
            s0 = states[members[0]]
            assert s0 is not None
            options: Outcomes = set()
            for card in iter_cards(legal_cards(s0[0][seat], s0[2], s0[3], breaking)):
                child: List[Optional[State]] = [None] * len(states)
                for i in members:
                    s = states[i]
                    assert s is not None
                    child[i] = _advance(s, card, side)
                options |= _outcomes(child, side, need, breaking)
            combined = {tuple(a if a is not None else b for a, b in zip(x, y))
                        for x in combined for y in options}
        return combined
    cards: Dict[int, List[int]] = {}
    for i in live:
        s = states[i]
        assert s is not None
        for card in iter_cards(legal_cards(s[0][seat], s[2], s[3], breaking)):
            cards.setdefault(card, []).append(i)
    result: Outcomes = {tuple(None if s is None else True for s in states)}
    for card, members in cards.items():
        child = [None] * len(states)
        for i in members:
            s = states[i]
            assert s is not None
            child[i] = _advance(s, card, side)
        answers = _outcomes(child, side, need, breaking)
        result = {tuple(a if b is None else (a and b) for a, b in zip(x, y))
                  for x in result for y in answers}
    return result


def strategy_outcomes(worlds: Sequence[Position], side: int, need: int,
                      first: int) -> Outcomes:
    """The outcome vectors of every strategy of ``side`` that plays ``first``
    now, the defenders answering each world on its own."""
    states: List[Optional[State]] = [
        _advance((p.hands, p.leader, p.trick, p.spades_broken, 0), first, side) for p in worlds]
    return _outcomes(states, side, need, worlds[0].breaking)


def composed_best_chance(worlds: Sequence[Position], side: int, need: int, first: int,
                         weights: Optional[Sequence[float]] = None) -> float:
    """:func:`best_chance` from :func:`strategy_outcomes`."""
    w = [1.0] * len(worlds) if weights is None else list(weights)
    total = sum(w)
    return max(sum(x for x, ok in zip(w, v) if ok) / total
               for v in strategy_outcomes(worlds, side, need, first))
