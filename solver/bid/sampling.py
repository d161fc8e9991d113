"""Layouts of the unseen cards consistent with a player's knowledge."""
from __future__ import annotations

import random
from typing import Dict

from ..cards import SPADES, SUIT_MASK, iter_cards
from ..cards import count as popcount
from ..scoring import DUMMY, TRICKS_PER_HAND
from .knowledge import Knowledge


def sample_rng(seed: int, index: int) -> random.Random:
    """The generator of sample ``index``: a function of (seed, index) only."""
    return random.Random(f"dummy-spades bid {int(seed)} {int(index)}")


def sample_layout(knowledge: Knowledge, seed: int, index: int) -> Dict[str, int]:
    """One layout consistent with ``knowledge``: hand name -> card mask.

    The unseen cards are shuffled and dealt to fill the dummy (its known
    cards stay in it) and the two other hands to 13 cards each: every
    consistent layout is equally likely."""
    k = knowledge
    if k.spades_known:
        return _sample_with_spade_counts(k, seed, index)
    cards = list(iter_cards(k.unknown))
    sample_rng(seed, index).shuffle(cards)
    need = TRICKS_PER_HAND - popcount(k.dummy_seen)
    left, right = k.others
    dummy = k.dummy_seen
    for c in cards[:need]:
        dummy |= 1 << c
    lh = rh = 0
    for c in cards[need:need + 13]:
        lh |= 1 << c
    for c in cards[need + 13:]:
        rh |= 1 << c
    return {k.player: k.hand, left: lh, DUMMY: dummy, right: rh}


def _sample_with_spade_counts(knowledge: Knowledge, seed: int, index: int) -> Dict[str, int]:
    """:func:`sample_layout` when some hands' spade counts are known (mirror
    bids): each such hand takes its count of the unseen spades and the rest
    of its cards from the unseen other cards, at random; the remaining cards
    fill the other hands as usual. Every consistent layout is equally likely."""
    k = knowledge
    rng = sample_rng(seed, index)
    spades = [c for c in iter_cards(k.unknown & SUIT_MASK[SPADES])]
    others = [c for c in iter_cards(k.unknown & ~SUIT_MASK[SPADES])]
    rng.shuffle(spades)
    rng.shuffle(others)
    layout = {k.player: k.hand, DUMMY: k.dummy_seen}
    for name, count in k.spades_known.items():
        hand = 0
        for c in spades[:count] + others[:TRICKS_PER_HAND - count]:
            hand |= 1 << c
        layout[name] = hand
        spades, others = spades[count:], others[TRICKS_PER_HAND - count:]
    rest = spades + others
    rng.shuffle(rest)
    for name in (DUMMY,) + k.others:
        if name in k.spades_known:
            continue
        need = TRICKS_PER_HAND - popcount(layout.get(name, 0))
        hand = layout.get(name, 0)
        for c in rest[:need]:
            hand |= 1 << c
        layout[name] = hand
        rest = rest[need:]
    left, right = k.others
    return {k.player: layout[k.player], left: layout[left], DUMMY: layout[DUMMY], right: layout[right]}
