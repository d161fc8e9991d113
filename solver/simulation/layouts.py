"""The layouts of the unseen cards (docs/ADVISE.md "Layouts").

A :class:`LayoutSpace` is every way to deal the cards a player has not seen
(``pool``) to the hands hidden from them, consistently with what they know:
each hidden hand receives a given number of the unseen cards (``sizes``),
keeps the cards already known to be in it (``fixed``: the dummy cards seen
before the opening lead), and may hold a known number of a suit among the
cards it receives (``counts``: 0 for a void the play has shown; under
mirror, the spades its bid shows). With no hidden hand (the player has
seen every card left) the one layout is the empty one.

Counting, drawing and listing go suit by suit. A *split* of a suit says how
many of its unseen cards each hidden hand receives; the layouts with a given
sequence of splits number the product over the suits of the multinomial
coefficients (the ways to deal each suit's cards in those numbers), so

* :meth:`LayoutSpace.count` sums those products by dynamic programming over
  the suits (the state: the cards each hand still receives);
* :meth:`LayoutSpace.sample` draws the splits one suit after the other, each
  with the chance of its number of layouts (exact integers), then shuffles
  each suit's cards and deals them in those numbers: every consistent layout
  is exactly equally likely, whatever the voids;
* :meth:`LayoutSpace.layouts` lists every consistent layout once, in a fixed
  order.

A layout is a tuple of card masks, one per hidden hand in ``names`` order,
each the whole hand as it is now (its fixed cards included).
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..cards import SUIT_MASK, SUITS, format_card, iter_cards
from ..cards import count as popcount
from ..errors import DealError

#: A layout: the cards of each hidden hand, in :attr:`LayoutSpace.names` order.
Layout = Tuple[int, ...]
#: How many unseen cards of one suit each hidden hand receives.
Split = Tuple[int, ...]


class LayoutError(DealError):
    """A layout space that cannot hold the real deal (sizes that do not add
    up, a known card in two hands...): a bug in what built it, or bad input."""


@dataclass(frozen=True)
class LayoutSpace:
    """Every consistent way to deal ``pool`` to the hidden hands ``names``.

    ``sizes[i]``: the unseen cards hand ``i`` receives (they add up to the
    pool). ``fixed[i]``: cards known to be in hand ``i`` already (not in the
    pool; default none). ``counts[i][suit]``: how many unseen cards of
    ``suit`` hand ``i`` receives when that is known (``0``: a void), else
    ``None`` (default: nothing known).
    """

    names: Tuple[str, ...]
    pool: int
    sizes: Tuple[int, ...]
    fixed: Tuple[int, ...] = ()
    counts: Tuple[Tuple[Optional[int], ...], ...] = ()
    _suits: Tuple[Tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _memo: Dict[Tuple[int, Tuple[int, ...]], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.names)
        object.__setattr__(self, "names", tuple(self.names))
        object.__setattr__(self, "sizes", tuple(int(s) for s in self.sizes))
        object.__setattr__(self, "fixed", tuple(self.fixed) or (0,) * n)
        object.__setattr__(self, "counts", tuple(tuple(c) for c in self.counts)
                           or ((None,) * len(SUITS),) * n)
        if (not n and self.pool) or len(self.sizes) != n or len(self.fixed) != n \
                or len(self.counts) != n:
            raise LayoutError(f"{n} hidden hands with {len(self.sizes)} sizes, "
                              f"{len(self.fixed)} fixed hands, {len(self.counts)} suit counts",
                              expected="one size, fixed hand and suit-count row per hidden hand")
        if min(self.sizes, default=0) < 0 or sum(self.sizes) != popcount(self.pool):
            raise LayoutError(f"hands receiving {list(self.sizes)} cards of a pool of "
                              f"{popcount(self.pool)}", expected="sizes adding up to the pool")
        seen = self.pool
        for name, cards in zip(self.names, self.fixed):
            if seen & cards:
                raise LayoutError(f"{_text(seen & cards)} both known in {name} and elsewhere",
                                  expected="each card in one place")
            seen |= cards
        for row in self.counts:
            if len(row) != len(SUITS) or any(c is not None and c < 0 for c in row):
                raise LayoutError(f"suit counts {row}", expected="four counts, None or 0 or more")
        object.__setattr__(self, "_suits", tuple(tuple(iter_cards(self.pool & SUIT_MASK[s]))
                                                 for s in SUITS))
        object.__setattr__(self, "_memo", {})

    # ------------------------------------------------------------ splits
    def splits(self, suit: int, need: Sequence[int]) -> List[Split]:
        """The splits of ``suit`` that fit: each hand takes at most what it
        still ``need``-s, exactly its known count where one is known, and the
        suit's unseen cards are all dealt."""
        total = len(self._suits[suit])
        out: List[Split] = []
        hands = len(self.names)
        if not hands:                   # nothing hidden: the one empty split
            return [()]

        def fill(i: int, left: int, prefix: Tuple[int, ...]) -> None:
            if i == hands - 1:
                known = self.counts[i][suit]
                if left <= need[i] and (known is None or known == left):
                    out.append(prefix + (left,))
                return
            known = self.counts[i][suit]
            choices = range(min(left, need[i]) + 1) if known is None else \
                ((known,) if known <= min(left, need[i]) else ())
            for k in choices:
                fill(i + 1, left - k, prefix + (k,))

        fill(0, total, ())
        return out

    def _ways_of_split(self, suit: int, split: Split) -> int:
        """The ways to deal the suit's unseen cards in the numbers ``split``."""
        ways, left = 1, len(self._suits[suit])
        for k in split:
            ways *= math.comb(left, k)
            left -= k
        return ways

    def _ways(self, suit: int, need: Tuple[int, ...]) -> int:
        """Layouts of the suits from ``suit`` on when the hands still receive ``need``."""
        if suit == len(SUITS):
            return 1 if not any(need) else 0
        known = self._memo.get((suit, need))
        if known is not None:
            return known
        total = 0
        for split in self.splits(suit, need):
            rest = tuple(n - k for n, k in zip(need, split))
            total += self._ways_of_split(suit, split) * self._ways(suit + 1, rest)
        self._memo[(suit, need)] = total
        return total

    # ------------------------------------------------------------ questions
    def count(self) -> int:
        """The number of consistent layouts."""
        return self._ways(0, self.sizes)

    def split_counts(self) -> Dict[Tuple[Split, ...], int]:
        """The number of layouts of every sequence of splits (one split per
        suit) that has any: they add up to :meth:`count`."""
        out: Dict[Tuple[Split, ...], int] = {}
        for path, ways in self._paths(0, self.sizes):
            out[path] = ways
        return out

    def _paths(self, suit: int, need: Tuple[int, ...]) -> Iterator[Tuple[Tuple[Split, ...], int]]:
        if suit == len(SUITS):
            if not any(need):
                yield (), 1
            return
        for split in self.splits(suit, need):
            rest = tuple(n - k for n, k in zip(need, split))
            if not self._ways(suit + 1, rest):
                continue
            here = self._ways_of_split(suit, split)
            for path, ways in self._paths(suit + 1, rest):
                yield (split,) + path, here * ways

    def sample(self, rng: random.Random) -> Layout:
        """One consistent layout, every one exactly equally likely."""
        need = self.sizes
        hands = list(self.fixed)
        for suit in SUITS:
            r = rng.randrange(self._ways(suit, need))
            for split in self.splits(suit, need):
                rest = tuple(n - k for n, k in zip(need, split))
                weight = self._ways_of_split(suit, split) * self._ways(suit + 1, rest)
                if r < weight:
                    break
                r -= weight
            cards = list(self._suits[suit])
            rng.shuffle(cards)
            start = 0
            for i, k in enumerate(split):
                for c in cards[start:start + k]:
                    hands[i] |= 1 << c
                start += k
            need = rest
        return tuple(hands)

    def layouts(self) -> Iterator[Layout]:
        """Every consistent layout once, in a fixed order."""
        for path, _ in self._paths(0, self.sizes):
            per_suit = [list(self._deals(suit, split)) for suit, split in enumerate(path)]
            for parts in itertools.product(*per_suit):
                yield tuple(f | a | b | c | d for f, a, b, c, d in zip(self.fixed, *parts))

    def _deals(self, suit: int, split: Split) -> Iterator[Tuple[int, ...]]:
        """Every way to deal the suit's unseen cards in the numbers ``split``."""
        def deal(cards: Tuple[int, ...], ks: Split) -> Iterator[Tuple[int, ...]]:
            if not ks:                  # no hidden hand (and so no unseen card)
                yield ()
                return
            if len(ks) == 1:
                yield (sum(1 << c for c in cards),)
                return
            for chosen in itertools.combinations(cards, ks[0]):
                mask = sum(1 << c for c in chosen)
                rest = tuple(c for c in cards if not mask >> c & 1)
                for tail in deal(rest, ks[1:]):
                    yield (mask,) + tail
        return deal(self._suits[suit], split)

    def contains(self, layout: Layout) -> bool:
        """Is ``layout`` one of the consistent layouts?"""
        if len(layout) != len(self.names):
            return False
        dealt = 0
        for i, hand in enumerate(layout):
            fixed = self.fixed[i]
            new = hand & ~fixed
            if hand & fixed != fixed or new & ~self.pool or dealt & new \
                    or popcount(new) != self.sizes[i]:
                return False
            for suit in SUITS:
                known = self.counts[i][suit]
                if known is not None and popcount(new & SUIT_MASK[suit]) != known:
                    return False
            dealt |= new
        return dealt == self.pool


def _text(mask: int) -> str:
    return " ".join(format_card(c) for c in iter_cards(mask))


__all__ = ["Layout", "LayoutError", "LayoutSpace", "Split"]
