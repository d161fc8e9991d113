"""The reference twin: a plain, exhaustive minimax double-dummy solver.

Slow and obviously correct; it is the specification the compiled engine
(``solver._engine``) is tested against. Both expose the same functions with
the same arguments:

``max_tricks(hands, leader, side, trick=(), spades_broken=False,
breaking=True, count=None, nil_seat=None) -> int``

* ``hands``: four 52-bit card masks, seats 0..3 in clockwise play order,
  the cards still held (cards already on the table in ``trick`` excluded).
* ``leader``: the seat that led the trick in progress (or is to lead when
  ``trick`` is empty).
* ``trick``: the cards already played to the trick in progress, in order.
* ``side``: bitmask of the seats the maximising player controls (bit ``1 <<
  seat``); the other seats minimise.
* ``count``: bitmask of the seats whose tricks are counted (default:
  ``side``). Different from ``side`` in the duck analysis, where a defender
  plays with the declarer but their tricks still count for the defenders.
* ``spades_broken``: a spade was played to a trick before the one in progress.
* ``breaking``: the spade-breaking rule is on.
* ``nil_seat``: if given (a seat in ``side``), the maximiser must also keep
  that seat from winning any trick; the result is the most tricks it can take
  while doing so, or ``-1`` if the nil cannot be kept.

The result counts the tricks from the trick in progress (included) to the end
of the hand.

``card_values(...same arguments...) -> dict[card, int]``: the value of each
legal card of the player to move (the result of ``max_tricks`` after playing
it, trick in progress included).

``optimal_line(...) -> list[int]``: the cards of one optimal play-out, from
the current position to the end (the lowest-index best card at each step).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Tuple

from .cards import count as popcount
from .cards import iter_cards
from .rules import breaks_spades, legal_cards, trick_winner

NIL_LOST = -1
_NEG = -1000


class PositionError(ValueError):
    """A position the solvers cannot search (wrong hand sizes, bad seats)."""


def check_position(hands: Sequence[int], leader: int, side: int, trick: Sequence[int],
                   nil_seat: Optional[int]) -> None:
    if len(hands) != 4:
        raise PositionError("a position needs exactly four hands")
    if not 0 <= leader <= 3:
        raise PositionError(f"leader must be a seat 0..3, not {leader!r}")
    if not 0 <= side <= 15:
        raise PositionError(f"side must be a seat mask 0..15, not {side!r}")
    if len(trick) > 3:
        raise PositionError("a trick in progress holds at most three cards")
    seen = 0
    for h in hands:
        if h < 0 or h >> 52 or seen & h:
            raise PositionError("hands must be disjoint sets of the 52 cards")
        seen |= h
    for c in trick:
        if not 0 <= c < 52 or seen >> c & 1:
            raise PositionError("trick cards must be cards not held by any hand")
        seen |= 1 << c
    # hand sizes: seats that have played to the trick hold one card fewer
    sizes = [popcount(hands[(leader + i) % 4]) + (1 if i < len(trick) else 0) for i in range(4)]
    if len(set(sizes)) != 1:
        raise PositionError(f"hand sizes do not fit the trick in progress: {sizes}")
    if nil_seat is not None and not (side >> nil_seat & 1):
        raise PositionError("nil_seat must be one of the maximising side's seats")


def _solve(hands: Tuple[int, int, int, int], leader: int, trick: Tuple[int, ...],
           broken: bool, breaking: bool, side: int, count: int, nil_seat: int,
           memo: Dict) -> int:
    key = (hands, leader, trick, broken)
    v = memo.get(key)
    if v is not None:
        return v
    seat = (leader + len(trick)) % 4
    hand = hands[seat]
    if hand == 0 and not trick:
        return 0
    maximise = bool(side >> seat & 1)
    best = None
    for card in iter_cards(legal_cards(hand, trick, broken, breaking)):
        v = _after(hands, seat, card, leader, trick, broken, breaking, side, count, nil_seat, memo)
        if best is None or (v > best if maximise else v < best):
            best = v
    memo[key] = best
    return best


def _after(hands, seat, card, leader, trick, broken, breaking, side, count, nil_seat, memo) -> int:
    new_hands = list(hands)
    new_hands[seat] &= ~(1 << card)
    new_hands = tuple(new_hands)
    new_trick = trick + (card,)
    if len(new_trick) < 4:
        return _solve(new_hands, leader, new_trick, broken, breaking, side, count, nil_seat, memo)
    winner = (leader + trick_winner(new_trick)) % 4
    if winner == nil_seat:
        return _NEG
    rest = _solve(new_hands, winner, (), broken or breaks_spades(new_trick), breaking,
                  side, count, nil_seat, memo)
    return rest + (1 if count >> winner & 1 else 0)


def _normalise(hands, leader, side, trick, count, nil_seat):
    hands = tuple(int(h) for h in hands)
    trick = tuple(int(c) for c in trick)
    check_position(hands, leader, side, trick, nil_seat)
    return hands, trick, (side if count is None else count), (-1 if nil_seat is None else nil_seat)


def max_tricks(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
               spades_broken: bool = False, breaking: bool = True,
               count: Optional[int] = None, nil_seat: Optional[int] = None) -> int:
    hands, trick, count, nil = _normalise(hands, leader, side, trick, count, nil_seat)
    v = _solve(hands, leader, trick, spades_broken, breaking, side, count, nil, {})
    return v if v >= 0 else NIL_LOST


def card_values(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                spades_broken: bool = False, breaking: bool = True,
                count: Optional[int] = None, nil_seat: Optional[int] = None) -> Dict[int, int]:
    hands, trick, count, nil = _normalise(hands, leader, side, trick, count, nil_seat)
    seat = (leader + len(trick)) % 4
    memo: Dict = {}
    out = {}
    for card in iter_cards(legal_cards(hands[seat], trick, spades_broken, breaking)):
        v = _after(hands, seat, card, leader, trick, spades_broken, breaking, side, count, nil, memo)
        out[card] = v if v >= 0 else NIL_LOST
    return out


def optimal_line(hands: Sequence[int], leader: int, side: int, trick: Sequence[int] = (),
                 spades_broken: bool = False, breaking: bool = True,
                 count: Optional[int] = None, nil_seat: Optional[int] = None) -> List[int]:
    hands, trick, count, nil = _normalise(hands, leader, side, trick, count, nil_seat)
    memo: Dict = {}
    hands = list(hands)
    line: List[int] = []
    broken = spades_broken
    while any(hands) or trick:
        if len(trick) == 4:
            winner = (leader + trick_winner(trick)) % 4
            broken = broken or breaks_spades(trick)
            leader, trick = winner, ()
            if not any(hands):
                break
            continue
        seat = (leader + len(trick)) % 4
        maximise = bool(side >> seat & 1)
        best_card, best = None, None
        for card in iter_cards(legal_cards(hands[seat], trick, broken, breaking)):
            v = _after(tuple(hands), seat, card, leader, trick, broken, breaking, side, count, nil, memo)
            if best is None or (v > best if maximise else v < best):
                best_card, best = card, v
        line.append(best_card)
        hands[seat] &= ~(1 << best_card)
        trick = trick + (best_card,)
    return line
