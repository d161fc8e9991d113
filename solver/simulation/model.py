"""A bidding model for a real player: what they bid from what they know.

A player at their turn knows their own hand, the dummy cards they saw under
the variant and the bids made before them (:class:`View`). The model turns
that into a probability for every call the simulation needs:

* **the number** (:func:`bid_chances`): the model's estimate of the tricks
  the player's side would take as declarer (:func:`estimate`, a linear
  function of hand features fitted to the engine's double-dummy answers on
  random deals), made into a distribution by the fit's residual spread: the
  bid is the estimate plus a normal error (:func:`spread`: its variance
  fitted per position, smaller the more dummy cards were seen), rounded to
  a whole number of tricks and clipped to 0-13;
* **nil on the own hand** (:func:`nil_chance`): the fitted chance that the
  hand can be kept trickless when defending (a logistic function of the
  hand's spades, high cards and low cards; zero for a hand with a sure
  spade trick, see :func:`certain_trick`). The model bids nil with
  that chance, and otherwise a number.

So the chance of a call (:func:`call_chance`) is the nil chance for a bid
with nil on the own hand (its number is not modelled), and ``(1 - nil
chance) x`` the chance of its number otherwise. Nils on other hands are side
bets the model does not predict: they change nothing here.

The coefficients are in :mod:`.coefficients`, written by
``tools/fit_bid_model.py`` (docs/BID.md: method, fit quality). The model
knows nothing of running scores, bag counts or table habits; those are the
stated assumptions of the conditioned sampling.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import List, Sequence, Tuple

from ..auction import Bid
from ..cards import SPADES, card_index
from ..scoring import TRICKS_PER_HAND
from . import coefficients as fitted

#: hand features of the trick estimate, in the order of ``fitted.TRICKS``
#: (a bidder in position 1 or 2 also has one feature per earlier bid:
#: ``EARLIER_BIDS``)
FEATURES = (
    "const", "spades", "long_spades", "spade_ace", "spade_king", "spade_queen", "spade_jack",
    "side_aces", "side_kings", "side_queens", "voids", "singletons", "doubletons", "long_side",
    "dummy_known", "dummy_spades", "dummy_aces", "dummy_kings",
)
EARLIER_BIDS = ("first_bid", "second_bid")
#: features of the nil chance, in the order of ``fitted.NIL``
NIL_FEATURES = (
    "const", "spades", "spade_high", "side_aces", "side_kings", "side_queens", "side_jacks",
    "side_tens", "suits_without_low", "voids",
)

ACE, KING, QUEEN, JACK, TEN = 12, 11, 10, 9, 8       # bit of a rank within a suit's 13 bits
SUIT = (1 << 13) - 1
LOW = (1 << 6) - 1                                    # 2 to 7
_SQRT2 = math.sqrt(2.0)



def certain_trick(hand: int) -> bool:
    """Does ``hand`` win a trick however the play goes?

    A spade wins its trick unless a higher spade from another hand falls on
    it, and each card falls once: when, for some ``i``, fewer than ``i``
    spades above the hand's ``i``-th highest spade are elsewhere (the ace;
    K-Q; Q-J-T with the ace and king out...), a spade of the hand must win.
    Such a hand cannot be nil."""
    held = others_above = 0
    for rank in range(14, 1, -1):
        if hand >> card_index(SPADES, rank) & 1:
            held += 1
            if others_above < held:
                return True
        else:
            others_above += 1
    return False


@dataclass(frozen=True)
class View:
    """What one bidder knew at their turn: ``hand``; ``dummy`` the dummy
    cards they saw; ``position`` 0-2 in the bidding order; ``earlier`` the
    numbers bid before them, in bidding order (a nil bid counts its number)."""

    hand: int
    dummy: int = 0
    position: int = 0
    earlier: Tuple[int, ...] = ()


def hand_features(hand: int, dummy: int = 0) -> List[float]:
    """The values of :data:`FEATURES` for a hand and the dummy cards seen."""
    spades = hand & SUIT
    s = spades.bit_count()
    aces = kings = queens = voids = singletons = doubletons = long_side = 0
    for suit in (1, 2, 3):
        cards = hand >> (13 * suit) & SUIT
        n = cards.bit_count()
        aces += cards >> ACE & 1
        kings += cards >> KING & 1
        queens += cards >> QUEEN & 1
        voids += n == 0
        singletons += n == 1
        doubletons += n == 2
        long_side += max(0, n - 4)
    d_aces = d_kings = 0
    for suit in range(4):
        cards = dummy >> (13 * suit) & SUIT
        d_aces += cards >> ACE & 1
        d_kings += cards >> KING & 1
    return [1.0, s, max(0, s - 4), spades >> ACE & 1, spades >> KING & 1, spades >> QUEEN & 1,
            spades >> JACK & 1, aces, kings, queens, voids, singletons, doubletons, long_side,
            dummy.bit_count(), (dummy & SUIT).bit_count(), d_aces, d_kings]


def nil_features(hand: int) -> List[float]:
    """The values of :data:`NIL_FEATURES` for a hand."""
    spades = hand & SUIT
    counts = [0, 0, 0, 0, 0]                          # side aces, kings, queens, jacks, tens
    without_low = voids = 0
    for suit in (1, 2, 3):
        cards = hand >> (13 * suit) & SUIT
        if not cards:
            voids += 1
            continue
        for j, rank in enumerate((ACE, KING, QUEEN, JACK, TEN)):
            counts[j] += cards >> rank & 1
        without_low += not cards & LOW
    return [1.0, spades.bit_count(), (spades >> TEN).bit_count(), *counts, without_low, voids]


def _dot(coefficients: Sequence[float], values: Sequence[float]) -> float:
    return sum(c * v for c, v in zip(coefficients, values))


def base_estimate(view: View) -> float:
    """The trick estimate without the earlier bids' terms (see :func:`estimate`)."""
    return _dot(fitted.TRICKS[view.position], hand_features(view.hand, view.dummy))


def earlier_terms(position: int, earlier: Sequence[int]) -> float:
    """The earlier bids' part of the trick estimate of a bidder in ``position``."""
    return _dot(fitted.TRICKS[position][len(FEATURES):], earlier)


def estimate(view: View) -> float:
    """The model's estimate of the double-dummy tricks the bidder's side
    would take as declarer (the first bidder on lead)."""
    return base_estimate(view) + earlier_terms(view.position, view.earlier)


def worth(hand: int, dummy: int = 0) -> float:
    """What a hand is worth as declarer by the model, whoever holds it: the
    first bidder's trick estimate (the same scale for every player)."""
    return estimate(View(hand, dummy))


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / _SQRT2))


def chance_at_most(number: int, mean: float, sigma: float) -> float:
    """The chance of a number of at most ``number``: ``mean`` plus a normal
    error of standard deviation ``sigma``, rounded and clipped to 0-13."""
    if number >= TRICKS_PER_HAND:
        return 1.0
    if number < 0:
        return 0.0
    return normal_cdf((number + 0.5 - mean) / sigma)


def number_chances(mean: float, sigma: float) -> List[float]:
    """The chance of each number 0-13 (see :func:`chance_at_most`)."""
    cdf = [chance_at_most(b, mean, sigma) for b in range(TRICKS_PER_HAND)]
    out = [cdf[0]]
    out.extend(cdf[b] - cdf[b - 1] for b in range(1, TRICKS_PER_HAND))
    out.append(1.0 - cdf[-1])
    return out


def number_chance(number: int, mean: float, sigma: float) -> float:
    """One entry of :func:`number_chances` (cheaper)."""
    return chance_at_most(number, mean, sigma) - chance_at_most(number - 1, mean, sigma)


def chance_above(number: int, mean: float, sigma: float) -> float:
    """The chance of a number above ``number``: the sum of
    :func:`number_chances` past it, from one distribution value."""
    return 1.0 - chance_at_most(number, mean, sigma)


def nil_chance(hand: int) -> float:
    """The model's chance that the hand bids nil on itself: its fitted
    chance of being kept trickless when defending; 0 with a sure spade trick."""
    if certain_trick(hand):
        return 0.0
    z = _dot(fitted.NIL, nil_features(hand))
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


MIN_SPREAD = 0.5


def spread_of(variance: Sequence[float], seen: int) -> float:
    """The error's standard deviation for fitted ``(v0, v1)`` and ``seen`` dummy cards."""
    return math.sqrt(max(variance[0] + variance[1] * seen, MIN_SPREAD ** 2))


def spread(view: View) -> float:
    """The standard deviation of the bid around :func:`estimate`."""
    return spread_of(fitted.VARIANCE[view.position], view.dummy.bit_count())


def bid_chances(view: View) -> List[float]:
    """The chance of each number 0-13 the bidder calls, a nil (bid 0) included."""
    q = nil_chance(view.hand)
    out = [(1.0 - q) * p for p in number_chances(estimate(view), spread(view))]
    out[0] += q
    return out


def call_chance(bid: Bid, view: View) -> float:
    """The model's chance of the call ``bid`` (see the module docstring)."""
    q = nil_chance(view.hand)
    if bid.player in bid.nils:
        return q
    return (1.0 - q) * number_chance(bid.tricks, estimate(view), spread(view))
