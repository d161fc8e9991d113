"""Random deals to order: the one generator of the project (docs/DEAL.md).

:func:`deal_hands` deals ``count`` deals of a seed that satisfy every
:class:`~solver.constraints.Condition`: candidate deals come from one
reproducible random stream (the seed's), each is dealt uniformly (a
Fisher-Yates shuffle) and kept when it passes the conditions, so the deals
kept are uniform among the deals that satisfy them (rejection sampling).
It stops after ``max_tries`` candidates and says how many passed
(:class:`Dealt`: the acceptance rate and its standard error).

The work is done by the compiled dealer (``solver/_dealer.pyx``: the stream,
the shuffle and the compiled conditions); :class:`ReferenceStream` is its
plain-Python twin, the definition of the stream, which the tests hold the
compiled one to.

Hands come in deal-file order: the three players in their order, then the
dummy. :func:`seat_order` puts them in the PBN seats of ``batch`` (N
declarer, E left defender, S dummy, W right defender).
"""
from __future__ import annotations

import math
import random
from array import array
from dataclasses import dataclass
from typing import Dict, List, Optional, Protocol, Sequence, Tuple

from .auction import MIRROR, Auction, legal_bids, spade_count
from .cards import cards_mask, iter_cards
from .constraints import Condition, Program, compile_program
from .deal import Deal
from .errors import DealError
from .frozen_map import FrozenMap
from .scoring import DUMMY
from .seating import bidding_order, play_seating
from .variant import Variant

Hands = Tuple[int, int, int, int]

#: Candidates dealt before giving up, by default: about two seconds of dealing
#: on one core with a few conditions (docs/BENCHMARKS.md "Dealing").
DEFAULT_MAX_TRIES = 10_000_000
#: Cards in each hand of a full deal.
FULL = 13

NOT_BUILT = ("the compiled dealer dummy_spades.solver._dealer is not built: run "
             "`pip install -e .` (or `python setup.py build_ext --inplace`) in the "
             "dummy-spades checkout")


class DealerNotBuiltError(ImportError):
    """The compiled extension ``dummy_spades.solver._dealer`` is missing."""

    def __init__(self) -> None:
        super().__init__(NOT_BUILT)


class DealingError(DealError):
    """A dealing request that cannot be met (too few deals pass the conditions)."""


class _Stream(Protocol):
    """The compiled stream (``_dealer.Stream``)."""

    def next_u64(self) -> int: ...
    def below(self, n: int) -> int: ...
    def deal(self, count: int, cards: int, code: "array[int]", consts: "array[float]",
             masks: "array[int]", shapes: bytes, max_tries: int) -> Tuple["array[int]", int]: ...


def _compiled() -> object:
    try:
        from . import _dealer  # type: ignore[attr-defined]  # compiled: no stub
    except ImportError as exc:  # pragma: no cover - depends on the build
        raise DealerNotBuiltError() from exc
    return _dealer


def compiled_stream(seed: int) -> _Stream:
    """The compiled stream of ``seed`` (0 to 2**64 - 1)."""
    stream: _Stream = getattr(_compiled(), "Stream")(seed)
    return stream


def compile_conditions(conditions: Sequence[Condition]) -> Program:
    """The conditions as one program for the compiled dealer."""
    core = _compiled()
    return compile_program(conditions, getattr(core, "OPS"), getattr(core, "SHAPE_TABLE"),
                           getattr(core, "STACK_MAX"))


@dataclass(frozen=True)
class Dealt:
    """The deals kept (``hands``, in deal-file order) and the candidates dealt."""

    hands: Tuple[Hands, ...]
    tries: int
    wanted: int

    @property
    def complete(self) -> bool:
        return len(self.hands) == self.wanted

    @property
    def rate(self) -> float:
        """The share of candidates that passed."""
        return len(self.hands) / self.tries if self.tries else 0.0

    @property
    def rate_se(self) -> float:
        """The standard error of :attr:`rate` (binomial)."""
        p = self.rate
        return math.sqrt(p * (1 - p) / self.tries) if self.tries else 0.0

    @property
    def rate_bound(self) -> float:
        """An upper bound on the rate at 95% confidence when none passed
        (the rule of three: 3 / candidates)."""
        return 3.0 / self.tries if self.tries else 1.0


def deal_hands(count: int, seed: int, conditions: Sequence[Condition] = (), cards: int = FULL,
               max_tries: int = DEFAULT_MAX_TRIES) -> Dealt:
    """The first ``count`` deals of the seed's stream that satisfy every
    condition, dealing at most ``max_tries`` candidates (fewer deals when
    the cap is reached: :attr:`Dealt.complete`). ``cards`` < 13 deals that
    many cards to each hand (an ending; no conditions)."""
    if not 1 <= cards <= FULL:
        raise DealingError(f"{cards} cards a hand", expected="1 to 13")
    if conditions and cards != FULL:
        raise DealingError(f"conditions on deals of {cards} cards a hand",
                           expected="conditions on full deals (13 cards a hand) only")
    program = compile_conditions(conditions)
    flat, tries = compiled_stream(seed).deal(count, cards, program.code, program.consts,
                                             program.masks, program.shapes, max_tries)
    hands = tuple((flat[i], flat[i + 1], flat[i + 2], flat[i + 3]) for i in range(0, len(flat), 4))
    return Dealt(hands, tries, count)


def random_hands(count: int, seed: int, cards: int = FULL) -> List[Hands]:
    """``count`` random deals of the seed (no conditions), deal-file order."""
    return list(deal_hands(count, seed, (), cards, max_tries=count).hands)


# ------------------------------------------------------------------ seats
def default_declarer(players: Sequence[str], dealer: str) -> str:
    """The declarer a deal set is seated for when none is named: the second
    bidder (the dealer's right-hand player), so that the opening leader
    (the first bidder) is the right defender, W, where ``batch`` leads by
    default."""
    return bidding_order(players, dealer)[1]


def seat_order(players: Sequence[str], declarer: str) -> Tuple[int, int, int, int]:
    """The deal-file indexes of the hands at PBN seats N E S W for
    ``declarer``: ``hands[i]`` for ``i`` in it gives the seats' hands."""
    names = list(players) + [DUMMY]
    return tuple(names.index(n) for n in play_seating(players, declarer))  # type: ignore[return-value]


def seated(hands: Hands, order: Sequence[int]) -> Hands:
    return hands[order[0]], hands[order[1]], hands[order[2]], hands[order[3]]


#: The players and dealer the benches and tests deal for; their seats for
#: ``batch``: N Bob (declarer), E Carol, S dummy, W Alice (the opening leader).
PLAYERS = ("Alice", "Bob", "Carol")
DEALER = "Carol"


def random_seat_deals(count: int, seed: int, cards: int = FULL) -> List[Hands]:
    """``count`` random deals of the seed by PBN seat (N E S W), as
    ``dummy-spades deal --count COUNT --seed SEED [--cards CARDS] --to pbn``
    writes them: the deals of the benches."""
    order = seat_order(PLAYERS, default_declarer(PLAYERS, DEALER))
    return [seated(h, order) for h in random_hands(count, seed, cards)]


# ------------------------------------------------------------------ the twin
_MASK64 = (1 << 64) - 1


class ReferenceStream:
    """The random stream in plain Python: the definition the compiled
    ``_dealer.Stream`` follows (docs/DEAL.md "Reproducibility").

    xoshiro256** (Blackman and Vigna) whose four words are the first four
    outputs of splitmix64 started at the seed; a number below ``n`` is the
    high word of ``r * n`` for the next output ``r``, drawn again while the
    low word is below ``2**64 mod n`` (Lemire): no bias."""

    def __init__(self, seed: int) -> None:
        self.s = []
        for _ in range(4):
            seed = (seed + 0x9E3779B97F4A7C15) & _MASK64
            z = seed
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def _rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (64 - k))) & _MASK64

    def next_u64(self) -> int:
        s = self.s
        result = (self._rotl((s[1] * 5) & _MASK64, 7) * 9) & _MASK64
        t = (s[1] << 17) & _MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        m = self.next_u64() * n
        if m & _MASK64 < n:
            floor = ((1 << 64) - n) % n
            while m & _MASK64 < floor:
                m = self.next_u64() * n
        return m >> 64

    def deal(self, cards: int = FULL) -> Hands:
        """One candidate deal: the deck 0..51 in order, a forward
        Fisher-Yates shuffle of its first ``4 * cards`` positions (39 for
        full deals), hand ``h`` the cards at positions ``cards * h`` on;
        the fourth hand of a full deal is what is left."""
        deck = list(range(52))
        draws = 39 if cards == FULL else 4 * cards
        for i in range(draws):
            j = i + self.below(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        hands = [0, 0, 0, 0]
        for i in range(draws):
            hands[i // cards] |= 1 << deck[i]
        if cards == FULL:
            hands[3] = ((1 << 52) - 1) ^ hands[0] ^ hands[1] ^ hands[2]
        return hands[0], hands[1], hands[2], hands[3]


def reference_deal_hands(count: int, seed: int, conditions: Sequence[Condition] = (),
                         cards: int = FULL, max_tries: int = DEFAULT_MAX_TRIES) -> Dealt:
    """:func:`deal_hands` by the twin: the stream and the conditions in Python."""
    stream = ReferenceStream(seed)
    kept: List[Hands] = []
    tries = 0
    while len(kept) < count and tries < max_tries:
        hands = stream.deal(cards)
        tries += 1
        if all(c.holds(hands) for c in conditions):
            kept.append(hands)
    return Dealt(tuple(kept), tries, count)


# ------------------------------------------------------------------ deal files
def hands_by_name(hands: Hands, players: Sequence[str]) -> Dict[str, int]:
    return dict(zip(list(players) + [DUMMY], hands))


def seen_cards(variant: Variant, players: Sequence[str], dealer: str, dummy: int,
               seed: int, index: int) -> Dict[str, int]:
    """The dummy cards each player picked under a peeky or flip variant,
    drawn at random in bidding order (``random.Random`` of the seed and the
    deal's number, apart from the deal stream): under peeky any
    ``cards_each`` of the dummy's cards, under flip-N any of those still
    face down. Empty under the other variants."""
    n = variant.cards_each
    if not n:
        return {}
    rng = random.Random(f"dummy-spades deal seen {int(seed)} {int(index)}")
    seen: Dict[str, int] = {}
    face_up = 0
    for player in bidding_order(players, dealer):
        pool = sorted(iter_cards(dummy & ~face_up if variant.is_flip else dummy))
        mask = cards_mask(rng.sample(pool, n))
        seen[player] = mask
        face_up |= mask
    return seen


def forced_auction(players: Sequence[str], dealer: str, hands: Hands) -> Auction:
    """The whole auction under mirror, where every bid is forced by the
    bidder's spades (docs/RULES.md "Mirror Spades (dummy version)")."""
    spades = {name: spade_count(hand) for name, hand in zip(players, hands)}
    auction = Auction(tuple(players), dealer)   # type: ignore[arg-type]
    while auction.next_bidder is not None:
        allowed = legal_bids(MIRROR, auction, spades[auction.next_bidder])
        assert allowed is not None and len(allowed) == 1
        auction = auction.with_bid(allowed[0])
    return auction


def deal_file(hands: Hands, players: Sequence[str], dealer: str, variant: Variant,
              auction: Optional[Auction], seed: int, index: int, title: str = "",
              notes: str = "") -> Deal:
    """The deal file of one dealt deal: the hands, the variant with the cards
    each player saw (:func:`seen_cards`), the ``auction`` given or, under
    mirror, the forced one."""
    if variant.bidding == MIRROR:
        auction = forced_auction(players, dealer, hands)
    seen = seen_cards(variant, players, dealer, hands[3], seed, index)
    return Deal(tuple(players), dealer, FrozenMap(hands_by_name(hands, players)),  # type: ignore[arg-type]
                auction=auction, variant=Variant(variant.name, FrozenMap(seen), variant.bidding),
                title=title, notes=notes)


__all__ = ["DEFAULT_MAX_TRIES", "Dealt", "DealerNotBuiltError", "DealingError", "ReferenceStream",
           "compile_conditions", "deal_file", "deal_hands", "default_declarer", "forced_auction",
           "hands_by_name", "random_hands", "seen_cards",
           "random_seat_deals", "reference_deal_hands", "seat_order", "seated"]
