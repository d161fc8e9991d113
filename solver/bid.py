"""Bid soundness by double-dummy simulation (``dummy-spades bid``).

One real player, at their turn in the auction, knows their own hand, the bids
already made (with their nil designations), the seats and the dealer, the
dummy cards they saw under the auction variant (three/four-peeky: their own
peeks; flip-N: every card turned face up) and, if given, the running scores.
This module deals the unseen cards at random many times, consistently with
that knowledge, solves every layout double-dummy for every role the player
can end up in, and turns the counts into probabilities and expected hand
scores for each candidate bid. It prints nothing (``cli/bid.py`` does).

Method (docs/BID.md has the full statement):

* **Knowledge** (:class:`Knowledge`): own hand fixed; the dummy cards the
  player knows fixed in the dummy; the other cards dealt uniformly at random
  to fill the dummy and the two other hands to 13 cards. The bids made are
  *not* used to shape the other hands (no inference from bids).
* **Seeded**: sample ``i`` draws from its own generator seeded from
  ``(seed, i)``, so the samples, and every number derived from them, are the
  same whatever the number of worker processes.
* **Roles** (:func:`solve_layout`): for each real player who can still end
  up declaring (:attr:`Knowledge.declarers`: the player themself with the
  dummy, or another player, the player then defending beside the third),
  one full double-dummy solve of the
  declarer side's tricks, seats as :func:`solver.seating.play_seating`, the
  first bidder on lead. Nil safety uses the engine's nil-aware query
  (``nil_seat``): the nil hand's side plays to keep it trickless, the other
  side to break it; ``-1`` means it cannot be kept. A query is skipped when
  its answer is implied: a hand whose spades cannot all be covered by higher
  spades (the ace, or K-Q, ...) surely wins a trick (:func:`certain_trick`).
* **Who declares** (:func:`declarer_for`): the earlier bids are known; each
  later bidder is modelled as bidding the tricks their own side would take as
  declarer in the sampled layout (double-dummy). The highest bid declares;
  ties go to the earlier bidder. Every figure is also given per role ("if X
  declares"), which needs no model of the later bids.
* **Bidding variants** (docs/RULES.md "Mirror Spades (dummy version)",
  "Suicide Spades (dummy version)"): the candidates are the legal bids
  (:func:`solver.auction.legal_bids`). Under mirror a bid is the bidder's
  spade count, so the earlier bidders' counts shape the layouts and the later
  bids are their counts in the layout (no model needed); under suicide a
  later bidder makes the legal bid nearest their double-dummy tricks
  (:func:`modelled_bid`).
* **Scores** (:func:`sample_outcome`): through :func:`solver.scoring.score_hand`
  (contract, overtricks, bags, nil bets) and, when the running bags are known,
  :func:`solver.scoring.apply_bags` (bag penalty). With nils that count, the
  player's side chooses, per layout, the better of: keeping one nil hand
  trickless (the nil query's trick count), keeping all of them (only asked for
  explicitly judged multi-nil bids) or ignoring them (full trick count, nils
  counted as lost). This is a lower bound on what that side can secure.

Double-dummy simulation assumes perfect information (every player sees every
card), which favours the declarer's side: the declarer never misguesses.
Chances when declaring are optimistic, chances when defending pessimistic.
"""
from __future__ import annotations

import functools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from . import parallel
from .auction import (MIRROR, STANDARD, SUICIDE, Auction, Bid, auction_winner, check_bid,
                      legal_bids, nil_counts, own_nil_name, spade_count)
from .backend import Solver, make_solver
from .cards import FULL_DECK, SPADES, SUIT_MASK, card_index, format_card, iter_cards
from .cards import count as popcount
from .deal import Deal
from .errors import DealError
from .position import ALL_SEATS, Position
from .scoring import (DEFAULT_RULES, DUMMY, TRICKS_PER_HAND, NilBet, ScoringRules, Standing,
                      apply_bags, score_hand)
from .seating import (DECLARER_SIDE, bidding_order, first_bidder, left_of, play_seating,
                      side_of)

NIL_BROKEN = -1
NOT_ASKED = -2   # a nil question of a role the layout rules out (mirror): not searched
DEFAULT_SAMPLES = 200
DEFAULT_SEED = 1
#: transposition table per worker: the full solves need little, but proving
#: a nil kept and counting the tricks beside it fills 16 MB (a nil hand's
#: samples took 8% more time and 25% more nodes with 16 MB than with 64).
DEFAULT_TT_MB = 64.0
BIDS = tuple(range(TRICKS_PER_HAND + 1))

HONESTY = ("Double-dummy simulation assumes perfect information (every player sees all "
           "four hands), which favours the declarer's side: the declarer never misguesses. "
           "Treat chances when declaring as optimistic and chances when defending as "
           "pessimistic.")


#: How the later bidders' bids are modelled, by bidding rules (:func:`declarer_for`).
LATER_BID_MODEL = {
    STANDARD: "each later bidder bids their own side's double-dummy tricks as declarer in the "
              "layout; ties go to the earlier bidder",
    MIRROR: "each later bidder bids their spade count in the layout (the mirror rule: no model "
            "needed); ties go to the earlier bidder",
    SUICIDE: "each later bidder makes the legal suicide bid nearest their own side's "
             "double-dummy tricks as declarer in the layout (nil counts as 0; the lower bid on a "
             "tie); ties go to the earlier bidder",
}


class BidError(DealError):
    """A bid-analysis request that cannot be answered (unknown player, bad
    sample count, a nil on an unknown hand, ...)."""


# ---------------------------------------------------------------- knowledge
@dataclass(frozen=True)
class Knowledge:
    """What ``player`` knows at their turn in the auction.

    ``bids``: the bids made before the player's turn, in bidding order.
    ``dummy_seen``: the dummy cards the player knows (peeked or face up).
    ``standing``: the player's running score and bags, if known.
    """

    player: str
    players: Tuple[str, str, str]
    dealer: str
    hand: int
    dummy_seen: int = 0
    bids: Tuple[Bid, ...] = ()
    variant: str = "no-peeky"
    standing: Optional[Standing] = None
    rules: ScoringRules = DEFAULT_RULES
    breaking: bool = True
    bidding: str = STANDARD

    def __post_init__(self) -> None:
        auction = Auction(tuple(self.players), self.dealer, tuple(self.bids))  # validates
        object.__setattr__(self, "players", auction.players)
        object.__setattr__(self, "bids", auction.bids)
        if self.player not in self.players:
            raise BidError(f"unknown player {self.player!r}", field="player",
                           expected=f"one of {', '.join(self.players)}")
        if auction.next_bidder != self.player:
            raise BidError(f"{len(self.bids)} bids before {self.player}'s turn", field="bids",
                           expected=f"the bids of the players before {self.player} "
                                    f"(bidding order: {', '.join(auction.bidding_order)})")
        if popcount(self.hand) != TRICKS_PER_HAND:
            raise BidError(f"{popcount(self.hand)} cards", field=f"hands.{self.player}",
                           expected="13 cards")
        if self.dummy_seen & self.hand:
            raise BidError(f"{_cards(self.dummy_seen & self.hand)} both in the player's hand "
                           "and seen in the dummy", field="variant.seen",
                           expected="dummy cards that are not in the player's hand")
        if popcount(self.dummy_seen) > TRICKS_PER_HAND:
            raise BidError(f"{popcount(self.dummy_seen)} dummy cards seen", field="variant.seen",
                           expected="at most 13")
        self._check_variant_bids(auction)

    def _check_variant_bids(self, auction: Auction) -> None:
        """The earlier bids under the bidding variant; under mirror, their
        spade counts must fit the spades the player has not seen."""
        if self.bidding == STANDARD:
            return
        for i, bid in enumerate(self.bids):
            spades = bid.tricks if self.bidding == MIRROR else 0
            try:
                check_bid(self.bidding, Auction(auction.players, auction.dealer, self.bids[:i]),
                          bid, spades)
            except DealError as err:
                raise BidError(err.problem, field=f"bids[{i}]", expected=err.expected) from None
        unseen = popcount(self.unknown & SUIT_MASK[SPADES])
        known = self.spades_known
        if sum(known.values()) > unseen or \
                sum(TRICKS_PER_HAND - s for s in known.values()) > popcount(self.unknown) - unseen:
            raise BidError(f"the mirror bids before {self.player} need {sum(known.values())} "
                           "spades", field="bids",
                           expected=f"spade counts that fit the cards {self.player} has not seen "
                                    f"({unseen} spades, {popcount(self.unknown) - unseen} others)")

    @classmethod
    def from_deal(cls, deal: Deal, player: Optional[str] = None,
                  breaking: Optional[bool] = None) -> "Knowledge":
        """The knowledge of ``player`` (default: the next bidder) at their turn.

        When the deal's auction already holds the player's bid, only the bids
        made before it are known."""
        auction = deal.auction or Auction(deal.players, deal.dealer)
        if player is None:
            player = auction.next_bidder
            if player is None:
                raise BidError("the auction is complete, so there is no next bidder",
                               field="player",
                               expected=f"a player to analyse (one of {', '.join(deal.players)})")
        if player not in deal.players:
            raise BidError(f"unknown player {player!r}", field="player",
                           expected=f"one of {', '.join(deal.players)}")
        order = auction.bidding_order
        position = order.index(player)
        if position > len(auction.bids):
            raise BidError(f"{player} bids after {order[len(auction.bids)]}, who has not bid yet",
                           field="player",
                           expected=f"a player who has bid, or the next bidder "
                                    f"{order[len(auction.bids)]}")
        standing = deal.scores[player] if deal.scores is not None else None
        return cls(player, deal.players, deal.dealer, deal.hands[player],
                   deal.variant.known_to(player), auction.bids[:position], deal.variant.label,
                   standing, deal.rules.scoring,
                   deal.rules.breaking if breaking is None else breaking, deal.variant.bidding)

    # ---------------------------------------------------------- derived
    @property
    def order(self) -> Tuple[str, str, str]:
        return bidding_order(self.players, self.dealer)

    @property
    def position(self) -> int:
        """0 = first to bid ... 2 = the dealer, last to bid."""
        return self.order.index(self.player)

    @property
    def first_bidder(self) -> str:
        """Also the opening leader."""
        return first_bidder(self.players, self.dealer)

    @property
    def later_bidders(self) -> Tuple[str, ...]:
        return self.order[self.position + 1:]

    @property
    def others(self) -> Tuple[str, str]:
        """The other two real players, clockwise from the player."""
        return left_of(self.players, self.player, 1), left_of(self.players, self.player, 2)

    @property
    def declarers(self) -> Tuple[str, ...]:
        """The real players who can still end up declaring (in seat order):
        of the earlier bidders only the one holding the highest bid (the
        earliest on a tie); the player and the later bidders unless that bid
        is 13, which nobody can outbid. The roles of :func:`solve_layout`."""
        if self.bidding != STANDARD:
            return self._variant_declarers()
        holder = auction_winner((b.player, b.tricks) for b in self.bids)
        if holder is None:
            return self.players
        can = {holder}
        if max(b.tricks for b in self.bids) < TRICKS_PER_HAND:
            can |= {self.player, *self.later_bidders}
        return tuple(p for p in self.players if p in can)

    def _variant_declarers(self) -> Tuple[str, ...]:
        """Under mirror: the holder of the highest of the earlier bids and the
        player's own count, and each later bidder who may hold more spades.
        Under suicide: whoever may still bid the highest 4 or more."""
        own = spade_count(self.hand)
        if self.bidding == MIRROR:
            holder = auction_winner([(b.player, b.tricks) for b in self.bids] + [(self.player, own)])
            best = max([b.tricks for b in self.bids] + [own])
            spare = popcount(self.unknown & SUIT_MASK[SPADES]) - sum(self.spades_known.values())
            can = {holder} | ({*self.later_bidders} if spare > best else set())
            return tuple(p for p in self.players if p in can)
        high = [b for b in self.bids if b.tricks >= 4]
        holder = auction_winner((b.player, b.tricks) for b in high)
        can = {holder} if holder is not None else set()
        if not high or max(b.tricks for b in high) < TRICKS_PER_HAND:
            mine = legal_bids(self.bidding, Auction(self.players, self.dealer, self.bids), own)
            if any(b.tricks for b in mine or ()):
                can.add(self.player)
            can |= {*self.later_bidders}
        return tuple(p for p in self.players if p in can)

    @property
    def spades_known(self) -> Dict[str, int]:
        """The spade counts of other hands the player knows from the bids
        (under mirror each earlier bid is the bidder's count)."""
        if self.bidding != MIRROR:
            return {}
        return {b.player: b.tricks for b in self.bids}

    @property
    def unknown(self) -> int:
        """The cards the player has not seen."""
        return FULL_DECK & ~self.hand & ~self.dummy_seen

    def third(self, other: str) -> str:
        """The real player who is neither the player nor ``other``."""
        return next(p for p in self.players if p not in (self.player, other))

    def nil_hand(self, name: str) -> str:
        """Canonical hand name of a nil designation (``self`` -> the player)."""
        hand = own_nil_name(self.player, str(name).strip())
        if hand.lower() == DUMMY:
            return DUMMY
        if hand not in self.players:
            raise BidError(f"nil on unknown hand {name!r}", field="nil",
                           expected=f"self, dummy or one of {', '.join(self.others)}")
        return hand


def _cards(mask: int) -> str:
    return " ".join(format_card(c) for c in iter_cards(mask))


# ----------------------------------------------------------------- sampling
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


# ------------------------------------------------------------------ solving
@dataclass(frozen=True)
class Plan:
    """The nil questions asked of each layout besides the three full solves.

    ``nils``: (declarer, nil hand) pairs: can the hand's side keep it
    trickless when that player declares? ``zeros``: declarers for which we
    ask whether the player's side can take no trick at all (multi-nil bids).
    """

    nils: Tuple[Tuple[str, str], ...] = ()
    zeros: Tuple[str, ...] = ()


class SampleResult(NamedTuple):
    """The double-dummy answers for one layout.

    ``declarer_tricks[i]``: declarer-side tricks when ``players[i]`` declares
    (``None`` when the auction already rules that out: not solved).
    ``nils[j]``: for ``plan.nils[j]``, the most tricks the nil hand's side
    takes while keeping it trickless, or ``-1`` when it cannot be kept.
    ``zeros[j]``: for ``plan.zeros[j]``, whether the player's side can take
    no trick at all. ``spades``: under a bidding variant, each player's spade
    count in the layout. ``queries``: the double-dummy questions searched (full
    solves, nil and zero questions not implied; each may take several
    null-window tests, not counted, so that the count does not depend on
    the search order).
    """

    index: int
    declarer_tricks: Tuple[Optional[int], Optional[int], Optional[int]]
    nils: Tuple[int, ...] = ()
    zeros: Tuple[bool, ...] = ()
    queries: int = 0
    spades: Tuple[int, ...] = ()     # each player's spade count in the layout (mirror's bids)


def _position(knowledge: Knowledge, layout: Mapping[str, int],
              declarer: str) -> Tuple[Tuple[str, str, str, str], Position]:
    """The hand names by play seat and the opening position with ``declarer``."""
    names = play_seating(knowledge.players, declarer)
    return names, Position(tuple(layout[n] for n in names), names.index(knowledge.first_bidder),
                           breaking=knowledge.breaking)


class NilOrder:
    """Which way to search each planned nil question, learnt from the
    answers so far (in one process). It changes only the cost, never an
    answer: see :func:`nil_tricks`."""

    def __init__(self) -> None:
        self.kept: Dict[int, int] = {}
        self.broken: Dict[int, int] = {}

    def top_first(self, j: int) -> bool:
        return self.kept.get(j, 0) > self.broken.get(j, 0)

    def record(self, j: int, tricks: int) -> None:
        book = self.kept if tricks >= 0 else self.broken
        book[j] = book.get(j, 0) + 1


def nil_tricks(solver: Solver, pos: Position, side: int, seat: int, high: int,
               top_first: bool) -> int:
    """The most tricks ``side`` takes while keeping ``seat`` trickless
    (``NIL_BROKEN`` if it cannot), by fail-soft null-window tests
    (``solver.bound``), knowing it is at most ``high`` (the side's full
    double-dummy tricks).

    ``top_first``: test at the upper bound, then at each fail-soft bound
    below it (MTD from the top): a success there gives the value and proves
    the nil kept in one test, the common case for a hand that nils safely.
    Otherwise first test whether it can be kept at all (target 0: one test
    for the common broken nil), then narrow down from ``high``. Both give
    the exact value."""
    if top_first:
        t = high
        while True:
            v = solver.bound(pos, side, t, nil_seat=seat)
            if v >= t:
                return t
            if v < 0:
                return NIL_BROKEN
            t = v
    low = solver.bound(pos, side, 0, nil_seat=seat)
    if low < 0:
        return NIL_BROKEN
    while low < high:
        v = solver.bound(pos, side, high, nil_seat=seat)
        if v >= high:
            low = v
        else:
            high = v
    return low


def solve_layout(solver: Solver, knowledge: Knowledge, layout: Mapping[str, int], plan: Plan,
                 index: int = 0, order: Optional[NilOrder] = None) -> SampleResult:
    """Solve one layout: the full solves of the roles the auction leaves open
    (:func:`mirror_declarers`) and their planned nil questions.

    A nil question is answered by :func:`nil_tricks`, searching the way
    ``order`` (if given) has found cheaper so far."""
    k = knowledge
    queries = 0
    active = mirror_declarers(k, layout)
    declarer_tricks: List[Optional[int]] = []
    for declarer in k.players:
        if declarer not in active:
            declarer_tricks.append(None)
            continue
        _, pos = _position(k, layout, declarer)
        declarer_tricks.append(solver.max_tricks(pos, DECLARER_SIDE))
        queries += 1
    nils = []
    for j, (declarer, hand) in enumerate(plan.nils):
        if declarer not in active:
            nils.append(NOT_ASKED)
            continue
        if certain_trick(layout[hand]):
            nils.append(NIL_BROKEN)
            continue
        names, pos = _position(k, layout, declarer)
        seat = names.index(hand)
        side = side_of(seat)
        full = declarer_tricks[k.players.index(declarer)]
        assert full is not None
        high = full if side == DECLARER_SIDE else TRICKS_PER_HAND - full
        tricks = nil_tricks(solver, pos, side, seat, high,
                            order is not None and order.top_first(j))
        queries += 1
        if order is not None:
            order.record(j, tricks)
        nils.append(tricks)
    zeros = []
    for declarer in plan.zeros:
        if declarer not in active:
            zeros.append(False)
            continue
        names, pos = _position(k, layout, declarer)
        own = side_of(names.index(k.player))
        if any(certain_trick(pos.hands[s]) for s in range(4) if own >> s & 1):
            zeros.append(False)
            continue
        # the opponents play to hand the player's side a trick; can it avoid every trick?
        queries += 1
        zeros.append(not solver.at_least(pos, own ^ ALL_SEATS, 1, count=own))
    spades = () if k.bidding == STANDARD else tuple(spade_count(layout[p]) for p in k.players)
    return SampleResult(index, tuple(declarer_tricks), tuple(nils), tuple(zeros), queries, spades)


def mirror_declarers(knowledge: Knowledge, layout: Mapping[str, int]) -> Tuple[str, ...]:
    """The roles :func:`solve_layout` solves: :attr:`Knowledge.declarers`;
    under mirror only the one the layout's spade counts make declarer (the
    bids are the counts, so no other role can happen in it)."""
    k = knowledge
    if k.bidding != MIRROR:
        return k.declarers
    return (auction_winner((p, spade_count(layout[p])) for p in k.order),)


def _solve_sample(solver: Solver, context: Tuple[Knowledge, Plan, int, "NilOrder"],
                  index: int) -> SampleResult:
    """Sample ``index``'s layout, solved (the work of one worker, :mod:`solver.parallel`)."""
    k, plan, seed, order = context
    return solve_layout(solver, k, sample_layout(k, seed, index), plan, index, order)


def check_samples(samples: int) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise BidError(f"{samples!r} samples", field="samples",
                       expected="a whole number of samples, at least 1")
    return samples


def check_time_limit(seconds: Optional[float]) -> Optional[float]:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0 \
            or math.isinf(seconds):
        raise BidError(f"{seconds!r} seconds", field="time_limit",
                       expected="a number of seconds, 0 or more (0: one sample)")
    return float(seconds)


def run_samples(knowledge: Knowledge, plan: Plan, samples: int, seed: int = DEFAULT_SEED,
                jobs: Optional[int] = None, progress: Optional[Callable[[], None]] = None,
                tt_mb: float = DEFAULT_TT_MB, solver=None,
                time_limit: Optional[float] = None,
                executor: Optional[parallel.Executor] = None) -> List[SampleResult]:
    """Sample and solve ``samples`` layouts; results in sample order.

    ``jobs``: worker processes (default: all cores), each with one engine
    solver reused for all its samples; ``1`` solves in this process (with
    ``solver`` if given); ``executor`` (:mod:`solver.parallel`) instead of
    ``jobs``, e.g. a cluster. ``progress()`` is called after every sample.
    ``time_limit`` (seconds): stop once it has passed, with the samples
    ``0..n-1`` solved by then (at least one; ``0``: just the first), as
    ``duck``'s time limit: the same seed gives the same numbers for the
    same ``n``, but ``n`` depends on the machine."""
    check_samples(samples)
    time_limit = check_time_limit(time_limit)
    try:
        jobs = parallel.check_jobs(jobs)
    except parallel.JobsError:
        raise BidError(f"{jobs!r} jobs", field="jobs",
                       expected=f"a number of processes, at least 1 and at most "
                                f"{parallel.limits.max_jobs()}") from None
    deadline = None if time_limit is None else time.monotonic() + time_limit
    work = parallel.Work(_solve_sample, (knowledge, plan, seed, NilOrder()), make_solver, (tt_mb,))
    runner = (parallel.Inline(solver) if jobs == 1 else parallel.ProcessPool(min(jobs, samples))) \
        if executor is None else executor
    out: List[SampleResult] = []
    for _, result in runner.map(work, range(samples), deadline=deadline, total=samples):
        out.append(result)
        if progress is not None:
            progress()
    return out


# ---------------------------------------------------------------- candidates
@dataclass(frozen=True)
class Candidate:
    """A bid the player could make: ``tricks`` and the hands declared nil
    (canonical names: the player's own name, ``dummy`` or another player)."""

    tricks: int
    nils: Tuple[str, ...] = ()

    def bid(self, player: str) -> Bid:
        return Bid(player, self.tricks, self.nils)

    def call(self, player: str) -> str:
        return self.bid(player).call()


def plan_for(knowledge: Knowledge, extra: Sequence[Candidate] = ()) -> Plan:
    """The nil questions needed for the default candidates and ``extra``.

    For each role the player can end up in (:attr:`Knowledge.declarers`):
    the player's own hand as declarer and as defender beside each other
    player, and the dummy when the player declares. A nil on another player
    ``R`` (counts when the third player declares) is asked for when ``R``
    already declared nil on their own hand (they play to keep it), or when
    a candidate in ``extra`` names it. ``zeros`` for the roles in which an
    ``extra`` candidate has two nils that count together."""
    k = knowledge
    p = k.player
    nils: List[Tuple[str, str]] = [(p, p)] + [(o, p) for o in k.others] + [(p, DUMMY)]
    for other in _piggyback(k):
        nils.append((k.third(other), other))
    if k.bidding != STANDARD:   # only the nils the legal bids name, where they count
        extra = list(default_candidates(k)) + list(extra)
        nils = [(d, h) for c in extra for h in c.nils for d in k.declarers if nil_counts(p, h, d)]
    zeros: List[str] = []
    for cand in extra:
        for hand in cand.nils:
            if hand not in (p, DUMMY):
                nils.append((k.third(hand), hand))
        for declarer in k.players:
            if len([h for h in cand.nils if nil_counts(p, h, declarer)]) > 1:
                zeros.append(declarer)
    return Plan(tuple(dict.fromkeys(q for q in nils if q[0] in k.declarers)),
                tuple(dict.fromkeys(d for d in zeros if d in k.declarers)))


def _piggyback(knowledge: Knowledge) -> List[str]:
    """Earlier bidders who declared nil on their own hand."""
    return [b.player for b in knowledge.bids if b.player in b.nils]


def default_candidates(knowledge: Knowledge) -> List[Candidate]:
    """Every bid 0-13 plain, with nil on the own hand, with nil on the dummy,
    and with nil on an earlier bidder who declared nil on their own hand;
    under a bidding variant, the legal bids."""
    k = knowledge
    allowed = legal_bids(k.bidding, Auction(k.players, k.dealer, k.bids), spade_count(k.hand))
    if allowed is not None:
        return [Candidate(b.tricks, b.nils) for b in allowed]
    nil_sets = [(), (k.player,), (DUMMY,)] + [(o,) for o in _piggyback(k)]
    return [Candidate(t, n) for t in BIDS for n in nil_sets]


# ------------------------------------------------------------------ scoring
def declarer_for(knowledge: Knowledge, tricks: int, sample: SampleResult) -> str:
    """Who declares if the player bids ``tricks`` in this layout: the earlier
    bids as made, each later bidder bidding their own side's double-dummy
    tricks as declarer; highest bid wins, ties to the earlier bidder."""
    k = knowledge
    if k.bidding != STANDARD:
        return _variant_declarer(k, tricks, sample)

    def calls():
        for i, name in enumerate(k.order):
            if i < k.position:
                yield name, k.bids[i].tricks
            elif i == k.position:
                yield name, tricks
            else:
                t = sample.declarer_tricks[k.players.index(name)]
                if t is not None:   # None: cannot outbid the bids made (a 13), not solved
                    yield name, t

    return auction_winner(calls())


def modelled_bid(bidding: str, auction: Auction, spades: int, tricks: Optional[int]) -> Bid:
    """A later bidder's bid in the bid analyser's model: the legal bid whose
    number is nearest ``tricks`` (their side's double-dummy tricks as
    declarer; ``None``: not solved, the auction already rules them out, so
    their lowest legal bid); ties go to the lower bid. Under mirror this is
    the one legal bid, under the standard rules ``tricks`` itself."""
    player = auction.next_bidder
    assert player is not None
    allowed = legal_bids(bidding, auction, spades)
    if allowed is None:
        return Bid(player, tricks or 0)
    if tricks is None:
        return allowed[0]
    return min(allowed, key=lambda b: (abs(b.tricks - tricks), b.tricks))


def _variant_declarer(knowledge: Knowledge, tricks: int, sample: SampleResult) -> str:
    """:func:`declarer_for` under a bidding variant: the player's legal bid
    of ``tricks`` (the candidate), the later bids by :func:`modelled_bid`."""
    k = knowledge
    auction = Auction(k.players, k.dealer, k.bids)
    own = spade_count(k.hand)
    mine = [b for b in legal_bids(k.bidding, auction, own) or () if b.tricks == tricks]
    auction = auction.with_bid(mine[0] if mine else Bid(k.player, tricks))
    for name in k.later_bidders:
        i = k.players.index(name)
        spades = sample.spades[i] if sample.spades else 0
        auction = auction.with_bid(modelled_bid(k.bidding, auction, spades,
                                                sample.declarer_tricks[i]))
    declarer = auction.declarer
    assert declarer is not None
    return declarer


def side_tricks(knowledge: Knowledge, sample: SampleResult, declarer: str) -> int:
    """The player's side's tricks in the layout when ``declarer`` declares."""
    t = sample.declarer_tricks[knowledge.players.index(declarer)]
    return t if declarer == knowledge.player else TRICKS_PER_HAND - t


@dataclass(frozen=True)
class Outcome:
    """The player's result in one layout for one candidate bid."""

    bid: int
    declarer: str
    side_tricks: int
    nils: Tuple[Tuple[str, bool], ...]  # (hand, kept) for each nil that counts
    points: int                         # hand points: contract + nil bets
    bags: int
    penalty: int                        # bag-penalty points this hand triggers (0 if unknown)

    @property
    def score(self) -> int:
        return self.points - self.penalty

    @property
    def made(self) -> bool:
        return self.side_tricks >= self.bid


@functools.lru_cache(maxsize=65536)
def _score(player: str, bid: int, declarer: str, tricks: int,
           nils: Tuple[Tuple[str, bool], ...], rules: ScoringRules,
           standing: Optional[Standing]) -> Tuple[int, int, int]:
    """(hand points, bags, bag-penalty points) via scoring.score_hand."""
    bids = {player: bid}
    if declarer != player:
        bids[declarer] = 0
    declarer_tricks = tricks if declarer == player else TRICKS_PER_HAND - tricks
    hand_tricks = {h: (0 if kept else 1) for h, kept in nils}
    bets = [NilBet(player, h) for h, _ in nils]
    s = score_hand(bids, declarer, declarer_tricks, bets, hand_tricks, rules)[player]
    penalty = 0
    if standing is not None:
        after, _ = apply_bags(standing, s.points, s.bags, rules)
        penalty = standing.points + s.points - after.points
    return s.points, s.bags, penalty


def sample_outcome(knowledge: Knowledge, plan: Plan, candidate: Candidate,
                   sample: SampleResult, declarer: Optional[str] = None) -> Outcome:
    """The player's result in one layout for ``candidate``; ``declarer``
    defaults to :func:`declarer_for` (the later-bid model).

    With nils that count the side takes the best of: ignore them (full
    tricks, nils lost); keep one nil hand trickless (tricks from its nil
    query); keep them all (no trick at all, when asked via ``plan.zeros``)."""
    k = knowledge
    p = k.player
    declarer = declarer or declarer_for(k, candidate.tricks, sample)
    counting = tuple(h for h in candidate.nils if nil_counts(p, h, declarer))
    full = side_tricks(k, sample, declarer)
    options: List[Tuple[int, Tuple[Tuple[str, bool], ...]]] = [
        (full, tuple((h, False) for h in counting))]
    for hand in counting:
        try:
            t = sample.nils[plan.nils.index((declarer, hand))]
        except ValueError:
            raise BidError(f"no nil answer for {hand} when {declarer} declares",
                           expected="a plan that includes the candidate's nils "
                                    "(solver.bid.plan_for)") from None
        if t >= 0:
            options.append((t, tuple((h, h == hand) for h in counting)))
    if len(counting) > 1 and declarer in plan.zeros and sample.zeros[plan.zeros.index(declarer)]:
        options.append((0, tuple((h, True) for h in counting)))
    best: Optional[Outcome] = None
    for tricks, nils in options:
        points, bags, penalty = _score(p, candidate.tricks, declarer, tricks, nils,
                                       k.rules, k.standing)
        o = Outcome(candidate.tricks, declarer, tricks, nils, points, bags, penalty)
        if best is None or o.score > best.score:
            best = o
    assert best is not None
    return best


# -------------------------------------------------------------- statistics
@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and sample count (a probability
    when the samples are 0/1)."""

    value: float
    se: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> "Estimate":
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = sum(values) / n
        if n < 2:
            return cls(mean, math.nan, n)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        return cls(mean, math.sqrt(var / n), n)

    @classmethod
    def share(cls, hits: int, n: int) -> "Estimate":
        """A proportion ``hits / n`` with the binomial standard error."""
        if n == 0:
            return cls(math.nan, math.nan, 0)
        p = hits / n
        return cls(p, math.sqrt(p * (1 - p) / n), n)

    def as_json(self, digits: int = 4) -> Dict[str, object]:
        def r(x: float) -> Optional[float]:
            return None if math.isnan(x) else round(x, digits)
        return {"value": r(self.value), "se": r(self.se), "n": self.n}


@dataclass(frozen=True)
class NilChance:
    hand: str
    kept: Estimate       # over the samples in which the question was asked
    implied: bool        # answered without search in every sample (a certain trick)


@dataclass(frozen=True)
class RoleStats:
    """The player's side when ``declarer`` declares (over all samples)."""

    declarer: str
    role: str                        # "declarer" or "defender"
    partner: str                     # "dummy" or the other defender
    histogram: Tuple[int, ...]       # samples by the player's side's tricks, 0..13
    tricks: Estimate                 # mean side tricks
    make: Tuple[Estimate, ...]       # chance the side takes at least b tricks, b = 0..13
    nils: Tuple[NilChance, ...]      # own nil (and the dummy's when declaring)

    @property
    def label(self) -> str:
        if self.role == "declarer":
            return "declarer (with dummy)"
        return f"defender ({self.declarer} declares)"


@dataclass(frozen=True)
class NilResultStats:
    hand: str
    counts: Estimate     # chance the nil counts (the player on the hand's side)
    kept: Estimate       # chance it is kept, over the samples where it counts


@dataclass(frozen=True)
class CandidateStats:
    candidate: Candidate
    call: str
    score: Estimate                  # expected hand score (bag penalty included if known)
    points: Estimate                 # expected hand points before any bag penalty
    bags: Estimate                   # expected bags taken
    make: Estimate                   # chance the contract makes
    declare: Estimate                # chance the player ends up declarer
    nils: Tuple[NilResultStats, ...]
    by_role: Tuple[Tuple[str, Estimate], ...]  # declarer -> expected score if they declare
    scores: Tuple[int, ...] = field(default=(), repr=False, compare=False)
    make_by_role: Tuple[Tuple[str, Estimate], ...] = ()   # declarer -> chance it makes if they declare
    declarer_share: Tuple[Tuple[str, Estimate], ...] = ()  # declarer -> chance they declare
    # by_role and make_by_role are over the samples solved for that role: all of them, but
    # under mirror those in which that player declares (so the figures are "when X declares")

    @property
    def tricks(self) -> int:
        return self.candidate.tricks


@dataclass(frozen=True)
class Judgement:
    """One bid set beside the best alternative."""

    stats: CandidateStats
    best_alternative: CandidateStats
    difference: Estimate             # paired: this bid's score minus the alternative's
    rank: int                        # 1 = best among the candidates and this bid


@dataclass(frozen=True)
class BidAnalysis:
    knowledge: Knowledge
    samples: int
    seed: int
    plan: Plan
    results: Tuple[SampleResult, ...]
    roles: Tuple[RoleStats, ...]
    bids: Tuple[CandidateStats, ...]         # plain bids 0..13
    candidates: Tuple[CandidateStats, ...]   # every candidate, best first
    recommended: CandidateStats
    judged: Optional[Judgement] = None
    queries: int = 0
    requested: int = 0                       # samples asked for (more than ``samples``
                                             # when a time limit stopped the run)

    @property
    def stopped_early(self) -> bool:
        return self.samples < self.requested

    @property
    def solves(self) -> int:
        return self.queries


def roles(knowledge: Knowledge) -> Tuple[str, ...]:
    """The declarers of the player's possible roles: the player first, then
    the others clockwise."""
    k = knowledge
    return tuple(d for d in (k.player,) + k.others if d in k.declarers)


def solved_in(knowledge: Knowledge, results: Sequence[SampleResult],
              declarer: str) -> List[SampleResult]:
    """The samples in which the role of ``declarer`` was solved: all of them,
    but under mirror those whose spade counts make ``declarer`` declare."""
    i = knowledge.players.index(declarer)
    return [r for r in results if r.declarer_tricks[i] is not None]


def role_stats(knowledge: Knowledge, plan: Plan, results: Sequence[SampleResult]) -> List[RoleStats]:
    k = knowledge
    out = []
    for declarer in roles(k):
        results_in = solved_in(k, results, declarer)
        n = len(results_in)
        if n == 0:   # under mirror a role no sampled layout gives
            continue
        tricks = [side_tricks(k, r, declarer) for r in results_in]
        hist = [0] * (TRICKS_PER_HAND + 1)
        for t in tricks:
            hist[t] += 1
        make = []
        at_least = n
        for b in BIDS:
            make.append(Estimate.share(at_least, n))
            at_least -= hist[b]
        hands = [k.player] + ([DUMMY] if declarer == k.player else [])
        nils = []
        for hand in hands:
            if (declarer, hand) not in plan.nils:   # a bidding variant's bids never name it
                continue
            j = plan.nils.index((declarer, hand))
            kept = sum(1 for r in results_in if r.nils[j] >= 0)
            implied = hand == k.player and certain_trick(k.hand)
            nils.append(NilChance(hand, Estimate.share(kept, n), implied))
        partner = DUMMY if declarer == k.player else k.third(declarer)
        out.append(RoleStats(declarer, "declarer" if declarer == k.player else "defender",
                             partner, tuple(hist), Estimate.of(tricks), tuple(make), tuple(nils)))
    return out


def candidate_stats(knowledge: Knowledge, plan: Plan, candidate: Candidate,
                    results: Sequence[SampleResult]) -> CandidateStats:
    k = knowledge
    outcomes = [sample_outcome(k, plan, candidate, r) for r in results]
    n = len(outcomes)
    nil_stats = []
    for hand in candidate.nils:
        counted = [o for o in outcomes for h, _ in o.nils if h == hand]
        kept = sum(1 for o in outcomes for h, ok in o.nils if h == hand and ok)
        nil_stats.append(NilResultStats(hand, Estimate.share(len(counted), n),
                                        Estimate.share(kept, len(counted))))
    by_role, make_by_role, share = [], [], []
    for declarer in roles(k):
        forced = [sample_outcome(k, plan, candidate, r, declarer)
                  for r in solved_in(k, results, declarer)]
        by_role.append((declarer, Estimate.of([o.score for o in forced])))
        make_by_role.append((declarer, Estimate.share(sum(1 for o in forced if o.made), len(forced))))
        share.append((declarer, Estimate.share(sum(1 for o in outcomes if o.declarer == declarer), n)))
    scores = tuple(o.score for o in outcomes)
    return CandidateStats(
        candidate, candidate.call(k.player), Estimate.of(scores),
        Estimate.of([o.points for o in outcomes]), Estimate.of([o.bags for o in outcomes]),
        Estimate.share(sum(1 for o in outcomes if o.made), n),
        Estimate.share(sum(1 for o in outcomes if o.declarer == k.player), n),
        tuple(nil_stats), tuple(by_role), scores, tuple(make_by_role), tuple(share))


def judge(stats: CandidateStats, others: Sequence[CandidateStats]) -> Judgement:
    """``stats`` beside the best of ``others``, leaving out the candidate
    itself and those with the same score in every layout (the same bid with
    a nil that never counts)."""
    rest = [c for c in others if c.candidate != stats.candidate and c.scores != stats.scores]
    if not rest:
        rest = [c for c in others if c.candidate != stats.candidate]
    if not rest:   # the only legal bid (mirror): it is its own best alternative
        return Judgement(stats, stats, Estimate.of([0.0] * len(stats.scores)), 1)
    best = max(rest, key=lambda c: c.score.value)
    diff = Estimate.of([a - b for a, b in zip(stats.scores, best.scores)])
    rank = 1 + sum(1 for c in rest if c.score.value > stats.score.value)
    return Judgement(stats, best, diff, rank)


def analyse(knowledge: Knowledge, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
            jobs: Optional[int] = None, bid: Optional[Candidate] = None,
            progress: Optional[Callable[[], None]] = None, tt_mb: float = DEFAULT_TT_MB,
            solver=None, time_limit: Optional[float] = None,
            executor: Optional[parallel.Executor] = None) -> BidAnalysis:
    """Sample, solve and summarise. ``bid``: a candidate to judge;
    ``time_limit``, ``executor``: see :func:`run_samples` (``samples`` is
    then a maximum)."""
    k = knowledge
    if bid is not None:
        check_candidate(k, bid)
    plan = plan_for(k, [bid] if bid is not None else [])
    results = run_samples(k, plan, samples, seed, jobs, progress, tt_mb, solver, time_limit,
                          executor)
    return summarise(k, plan, results, seed, bid, samples)


def summarise(knowledge: Knowledge, plan: Plan, results: Sequence[SampleResult], seed: int,
              bid: Optional[Candidate] = None, requested: Optional[int] = None) -> BidAnalysis:
    k = knowledge
    cands = default_candidates(k)
    if bid is not None and bid not in cands:
        cands.append(bid)
    stats = {c: candidate_stats(k, plan, c, results) for c in cands}
    ranked = sorted(stats.values(), key=lambda s: -s.score.value)  # stable: ties keep order
    judged = judge(stats[bid], ranked) if bid is not None else None
    plain = [Candidate(t) for t in BIDS] if k.bidding == STANDARD else default_candidates(k)
    return BidAnalysis(k, len(results), seed, plan, tuple(results), tuple(role_stats(k, plan, results)),
                       tuple(stats[c] for c in plain), tuple(ranked), ranked[0], judged,
                       sum(r.queries for r in results),
                       len(results) if requested is None else requested)


def check_candidate(knowledge: Knowledge, candidate: Candidate) -> Candidate:
    try:
        candidate.bid(knowledge.player)
    except DealError as err:
        raise BidError(err.problem, field="bid", expected=err.expected) from None
    for hand in candidate.nils:
        knowledge.nil_hand(hand)
    k = knowledge
    if k.bidding != STANDARD:
        try:
            check_bid(k.bidding, Auction(k.players, k.dealer, k.bids), candidate.bid(k.player),
                      spade_count(k.hand))
        except DealError as err:
            raise BidError(err.problem, field="bid", expected=err.expected) from None
    return candidate


def parse_candidate(knowledge: Knowledge, tricks: int, nils: Sequence[str] = ()) -> Candidate:
    """A candidate from ``--bid N --nil self dummy Bob`` (names canonicalised)."""
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= TRICKS_PER_HAND:
        raise BidError(f"bid {tricks!r}", field="bid", expected="a number of tricks from 0 to 13")
    hands: List[str] = []
    for name in nils:
        for part in str(name).replace(",", " ").split():
            hand = knowledge.nil_hand(part)
            if hand in hands:
                raise BidError(f"nil on {part!r} is given twice", field="nil",
                               expected="each hand named at most once")
            hands.append(hand)
    return check_candidate(knowledge, Candidate(tricks, tuple(hands)))


def file_bid(deal: Deal, player: str) -> Optional[Candidate]:
    """The player's bid in the deal file's auction, if made."""
    bid = deal.auction.bid_of(player) if deal.auction else None
    return None if bid is None else Candidate(bid.tricks, bid.nils)


# ------------------------------------------------------------ whole deal
@dataclass(frozen=True)
class ActualResult:
    """The deal's own double-dummy result for one player (same play model as
    the simulation: each side takes its double-dummy tricks; a nil side may
    keep its nil instead)."""

    player: str
    declarer: Optional[str]
    outcome: Optional[Outcome]            # None until the auction is complete
    side_tricks: Dict[str, int]           # the player's side's tricks per possible declarer
                                          # (under mirror: the one the spade counts make)


@dataclass(frozen=True)
class PlayerCheck:
    player: str
    bid: Optional[Candidate]              # the bid in the file (None if not made yet)
    analysis: BidAnalysis
    actual: ActualResult


def actual_result(knowledge: Knowledge, deal: Deal, plan: Plan, candidate: Optional[Candidate],
                  solver) -> ActualResult:
    """Solve the deal's real layout from ``knowledge.player``'s seat."""
    result = solve_layout(solver, knowledge, dict(deal.hands), plan)
    k = knowledge
    declarer = deal.declarer
    outcome = None
    if declarer is not None and candidate is not None:
        outcome = sample_outcome(k, plan, candidate, result, declarer)
    solved = [d for d in k.declarers if result.declarer_tricks[k.players.index(d)] is not None]
    return ActualResult(k.player, declarer, outcome, {d: side_tricks(k, result, d) for d in solved})


def check_all(deal: Deal, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
              jobs: Optional[int] = None, breaking: Optional[bool] = None,
              progress: Optional[Callable[[], None]] = None,
              tt_mb: float = DEFAULT_TT_MB,
              time_limit: Optional[float] = None,
              executor: Optional[parallel.Executor] = None) -> List[PlayerCheck]:
    """Every player in bidding order: their bid (if made) judged at their
    turn, beside the deal's actual double-dummy result. ``time_limit`` is
    shared equally by the players' simulations."""
    check_samples(samples)
    time_limit = check_time_limit(time_limit)
    auction = deal.auction or Auction(deal.players, deal.dealer)
    out = []
    solver = make_solver(tt_mb)
    players = auction.bidding_order[:len(auction.bids) + (0 if auction.is_complete else 1)]
    share = None if time_limit is None else time_limit / len(players)
    for player in players:
        k = Knowledge.from_deal(deal, player, breaking)
        cand = file_bid(deal, player)
        analysis = analyse(k, samples, seed, jobs, cand, progress, tt_mb,
                           solver if (jobs or parallel.default_jobs()) == 1 else None, share,
                           executor)
        actual = actual_result(k, deal, analysis.plan, cand, solver)
        out.append(PlayerCheck(player, cand, analysis, actual))
    return out
