"""Checks shared by the solver tests: random small positions, a replay of a
line by the rules, and each contract entry point against the reference twin.

A test case is a dict with the position's fields (``hands``, ``leader``,
``trick``, ``spades_broken``, ``breaking``) and the question's (``side``,
``count``, ``nil_seat``), so a test can change one field at a time;
:func:`query` turns it into the keyword arguments of a solver's entry points.
"""
from __future__ import annotations

import copy
import functools
import inspect
import random
from typing import Any, Dict, List, Optional, Sequence

from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.position import NIL_LOST, Position
from dummy_spades.solver.reference import ReferenceSolver
from dummy_spades.solver.rules import breaks_spades, legal_cards, trick_winner



class SessionSolver:
    """A solver whose answers are kept for the whole test session: each
    question (entry point and arguments, defaults filled in) is searched
    once, by ``solver``; asked again, it is answered from memory (a copy).
    Everything else (statistics, ``clear``) is the wrapped solver's.
    """

    QUESTIONS = frozenset({"max_tricks", "bound", "at_least", "card_values", "card_groups",
                           "optimal_line"})

    def __init__(self, solver: Any) -> None:
        self._solver = solver
        self._answers: Dict[str, Any] = {}
        self.searched = 0  # questions searched, not answered from memory

    def __getattr__(self, name: str) -> Any:
        entry = getattr(self._solver, name)
        if name not in self.QUESTIONS:
            return entry
        signature = inspect.signature(entry)

        def answer(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = repr((name, sorted(bound.arguments.items())))
            if key not in self._answers:
                self._answers[key] = entry(*args, **kwargs)
                self.searched += 1
            return copy.deepcopy(self._answers[key])

        return answer


#: The reference twin, its answers kept for the session (it keeps no table;
#: several test files ask it about the same positions).
REF = SessionSolver(ReferenceSolver())

#: The table size of the session's engine solvers, in megabytes.
SESSION_TT_MB = 64


@functools.lru_cache(maxsize=None)
def session_solver() -> SessionSolver:
    """The engine, its answers kept for the session: for the tests of what is
    built on its answers (analyses, commands) over the bundled deals, which
    several test files ask about. Tests of the engine itself use their own."""
    return SessionSolver(make_solver(SESSION_TT_MB))


@functools.lru_cache(maxsize=None)
def independent_solver() -> SessionSolver:
    """A second engine, its answers kept for the session: for the checks of
    results that the session's solver (or a command) produced, so that they
    do not share its table."""
    return SessionSolver(make_solver(SESSION_TT_MB))


@functools.lru_cache(maxsize=None)
def plain_engine() -> Any:
    """The engine with its table and every technique of ``_engine.FEATURES``
    switched off: plain alpha-beta. Exact values for positions too large for
    the reference twin (tests/test_engine_bounds.py); checked against the twin
    on random positions by tests/test_engine_reference.py."""
    from dummy_spades.solver import _engine
    from dummy_spades.solver.engine import CompiledSolver

    old = _engine.set_features(**{name: False for name in _engine.FEATURES})
    try:
        return CompiledSolver(tt_mb=1)
    finally:
        _engine.set_features(**old)


def query(case: Dict) -> Dict:
    """The keyword arguments ``pos``, ``side``, ``count``, ``nil_seat`` of a case."""
    pos = Position(tuple(case["hands"]), case["leader"], tuple(case.get("trick", ())),
                   case.get("spades_broken", False), case.get("breaking", True))
    return dict(pos=pos, side=case["side"], count=case.get("count"), nil_seat=case.get("nil_seat"))


def tricks_left(case: Dict) -> int:
    return bin(case["hands"][case["leader"]]).count("1") + (1 if case["trick"] else 0)


def random_deck(rng: random.Random, cards: int, fewest_suits: int = 1) -> List[int]:
    """The cards to deal ``cards`` a hand from: all 52, or half the time
    those of ``fewest_suits`` to 4 suits (more following, ruffing and rank
    fights) when they are enough."""
    deck = list(range(52))
    if rng.random() < 0.5:
        suits = rng.sample(range(4), rng.randint(fewest_suits, 4))
        few = [c for c in deck if c // 13 in suits]
        if len(few) >= 4 * cards:
            deck = few
    return deck


def random_trick(rng: random.Random, hands: List[int], leader: int, broken: bool, breaking: bool,
                 lengths: Sequence[int] = (0, 0, 0, 1, 2, 3)) -> List[int]:
    """A trick in progress of a length drawn from ``lengths``: random legal
    cards, taken out of ``hands``."""
    trick: List[int] = []
    for i in range(rng.choice(lengths)):
        seat = (leader + i) % 4
        legal = legal_cards(hands[seat], trick, broken, breaking)
        card = rng.choice([c for c in range(52) if legal >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return trick


def random_position(rng: random.Random, cards: int) -> Dict:
    """A random legal position with ``cards`` cards per hand before the trick."""
    deck = random_deck(rng, cards)
    dealt = rng.sample(deck, 4 * cards)
    hands = [sum(1 << c for c in dealt[i * cards:(i + 1) * cards]) for i in range(4)]
    leader = rng.randrange(4)
    broken = rng.random() < 0.4
    breaking = rng.random() < 0.5
    trick = random_trick(rng, hands, leader, broken, breaking)
    roll = rng.random()
    if roll < 0.35:
        side = rng.choice((5, 10))                 # declarer+dummy or the defenders
    elif roll < 0.5:
        side = rng.choice((7, 11, 13, 14, 1, 2, 4, 8))  # three against one, one against three
    else:
        side = rng.randrange(16)                   # anything, 0 and 15 included
    count = side if rng.random() < 0.6 else rng.randrange(16)
    nil_seat = None
    if side and rng.random() < 0.25:
        nil_seat = rng.choice([s for s in range(4) if side >> s & 1])
    return dict(hands=hands, leader=leader, side=side, trick=tuple(trick),
                spades_broken=broken, breaking=breaking, count=count, nil_seat=nil_seat)


def replay(pos: Dict, line: Sequence[int]) -> int:
    """Play ``line`` out from ``pos`` by the rules; the counted tricks (or -1 if the nil fails)."""
    hands = list(pos["hands"])
    leader, trick, broken = pos["leader"], list(pos["trick"]), pos["spades_broken"]
    count, nil_seat = pos["count"], pos["nil_seat"]
    total, lost = 0, False
    for card in line:
        seat = (leader + len(trick)) % 4
        legal = legal_cards(hands[seat], trick, broken, pos["breaking"])
        assert legal >> card & 1, f"illegal card {card} for seat {seat} in line {line}"
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == 4:
            winner = (leader + trick_winner(trick)) % 4
            lost = lost or winner == nil_seat
            total += count >> winner & 1
            broken = broken or breaks_spades(trick)
            leader, trick = winner, []
    assert not any(hands) and not trick, f"line {line} does not play the hand out"
    return NIL_LOST if lost else total


def check_groups(pos: Dict, groups, values: Dict[int, int]) -> None:
    """Groups partition the legal cards; each is a run of one hand's suit; values agree."""
    seat = (pos["leader"] + len(pos["trick"])) % 4
    hand = pos["hands"][seat]
    alive = pos["hands"][0] | pos["hands"][1] | pos["hands"][2] | pos["hands"][3]
    for c in pos["trick"]:
        alive |= 1 << c
    seen = []
    for cards, value in groups:
        assert cards == tuple(sorted(cards)) and cards
        suit = cards[0] // 13
        lo, hi = cards[0], cards[-1]
        between = alive & ((1 << (hi + 1)) - (1 << lo))
        assert between == sum(1 << c for c in cards), f"group {cards} is not a run of equivalent cards"
        assert all(c // 13 == suit and hand >> c & 1 for c in cards)
        for c in cards:
            assert values[c] == value
        seen.extend(cards)
    assert sorted(seen) == sorted(values), "groups must hold every legal card exactly once"


def check(pos: Dict, solver, label: str, want_values: Optional[Dict[int, int]] = None) -> int:
    """Every entry point of ``solver`` at ``pos`` against the reference twin's
    card values (``want_values``, asked of the twin when not given): the value
    is the best card's for the side to move (the twin's own value is its best
    card's: test_solver_contract.py), the card values and groups agree, the
    line achieves the value. Returns the value."""
    where = f"{label}: {pos}"
    if want_values is None:
        want_values = REF.card_values(**query(pos))
    maximise = pos["side"] >> ((pos["leader"] + len(pos["trick"])) % 4) & 1
    want = (max if maximise else min)(want_values.values())
    assert solver.max_tricks(**query(pos)) == want, where
    assert solver.card_values(**query(pos)) == want_values, where
    check_groups(pos, solver.card_groups(**query(pos)), want_values)
    line = solver.optimal_line(**query(pos))
    assert replay(pos, line) == want, f"{where}: line {line}"
    return want


def check_null_window(pos: Dict, solver, label: str, want: int) -> None:
    """Solver.at_least and Solver.bound at every target around ``want`` (the
    reference value): ``at_least`` is ``want >= target``; a fail-soft bound
    ``v >= target`` proves the value is at least ``v``, ``v < target`` that
    it is at most ``v``."""
    for target in range(-1, tricks_left(pos) + 2):
        got = solver.at_least(**query(pos), target=target)
        assert got == (want >= target), f"{label} target {target}: {pos}"
        v = solver.bound(**query(pos), target=target)
        assert (v >= target and want >= v) or (v < target and want <= v), \
            f"{label} target {target}: bound {v}, value {want}: {pos}"
