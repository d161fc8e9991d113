"""Scoring of docs/RULES.md ("Scoring each hand"): hand scores, nil bets, bags and
the multi-hand game ledger. The one place for every scoring rule.

* Declarer is scored on declarer-side tricks (declarer + dummy) against the
  declarer's bid; each defender on the defenders' *combined* tricks against
  their *own* bid.
* Made (tricks >= bid): +10 x bid, +1 per overtrick, each overtrick one bag.
  Set: -10 x bid.
* Each applicable nil bet: +100 / -100 to the bidder who made it only.
* Bags accumulate per player; every ``bag_threshold`` bags cost
  ``bag_penalty`` points and the count drops by the threshold.
* Game: the first real player to reach the target wins; if several reach it
  on the same hand, the highest score wins (an exact tie for the highest
  score leaves the game undecided: the tied players play on).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

DUMMY = "dummy"
TRICKS_PER_HAND = 13


from .errors import DealError


class ScoringError(DealError):
    """Inconsistent input to the scorer (unknown player, impossible tricks); a ValueError."""


@dataclass(frozen=True)
class ScoringRules:
    bag_threshold: int = 10
    bag_penalty: int = 100
    nil_value: int = 100
    target: int = 500

    def __post_init__(self) -> None:
        if self.bag_threshold < 1:
            raise ScoringError(f"bag threshold {self.bag_threshold}", field="bag_threshold",
                               expected="a number of bags of 1 or more")
        if self.bag_penalty < 0:
            raise ScoringError(f"bag penalty {self.bag_penalty}", field="bag_penalty",
                               expected="a number of points of 0 or more")
        if self.target < 1:
            raise ScoringError(f"target {self.target}", field="target",
                               expected="a number of points of 1 or more")


DEFAULT_RULES = ScoringRules()


@dataclass(frozen=True)
class NilBet:
    """A nil designation that applies: ``bidder`` bets that ``hand`` (a real
    player's name or ``"dummy"``) takes no trick."""

    bidder: str
    hand: str


@dataclass(frozen=True)
class NilResult:
    bidder: str
    hand: str
    tricks: int
    success: bool
    points: int


@dataclass(frozen=True)
class PlayerScore:
    """One real player's score for one hand."""

    player: str
    role: str  # "declarer" or "defender"
    bid: int
    side_tricks: int
    made: bool
    contract_points: int
    bags: int
    nils: Tuple[NilResult, ...] = ()

    @property
    def nil_points(self) -> int:
        return sum(n.points for n in self.nils)

    @property
    def points(self) -> int:
        return self.contract_points + self.nil_points


def contract_score(bid: int, tricks: int) -> Tuple[int, int]:
    """(points, bags) for a side taking ``tricks`` against ``bid``."""
    if not 0 <= bid <= TRICKS_PER_HAND:
        raise ScoringError(f"bid must be 0..13, not {bid}")
    if not 0 <= tricks <= TRICKS_PER_HAND:
        raise ScoringError(f"tricks must be 0..13, not {tricks}")
    if tricks >= bid:
        over = tricks - bid
        return 10 * bid + over, over
    return -10 * bid, 0


def nil_points(success: bool, rules: ScoringRules = DEFAULT_RULES) -> int:
    return rules.nil_value if success else -rules.nil_value


def score_hand(bids: Mapping[str, int], declarer: str, declarer_side_tricks: int,
               nil_bets: Sequence[NilBet] = (),
               hand_tricks: Optional[Mapping[str, int]] = None,
               rules: ScoringRules = DEFAULT_RULES) -> Dict[str, PlayerScore]:
    """Score one hand for every real player (in the order of ``bids``).

    ``hand_tricks`` gives the tricks won by each hand named in a nil bet.
    """
    if declarer not in bids:
        raise ScoringError(f"declarer {declarer!r} is not one of the players {list(bids)}")
    if not 0 <= declarer_side_tricks <= TRICKS_PER_HAND:
        raise ScoringError(f"declarer-side tricks must be 0..13, not {declarer_side_tricks}")
    defender_tricks = TRICKS_PER_HAND - declarer_side_tricks
    hand_tricks = dict(hand_tricks or {})
    nils: Dict[str, List[NilResult]] = {p: [] for p in bids}
    for bet in nil_bets:
        if bet.bidder not in bids:
            raise ScoringError(f"nil bet by unknown player {bet.bidder!r}")
        if bet.hand not in hand_tricks:
            raise ScoringError(f"tricks of nil hand {bet.hand!r} are not known")
        t = hand_tricks[bet.hand]
        ok = t == 0
        nils[bet.bidder].append(NilResult(bet.bidder, bet.hand, t, ok, nil_points(ok, rules)))
    out: Dict[str, PlayerScore] = {}
    for player, bid in bids.items():
        role = "declarer" if player == declarer else "defender"
        tricks = declarer_side_tricks if role == "declarer" else defender_tricks
        pts, bags = contract_score(bid, tricks)
        out[player] = PlayerScore(player, role, bid, tricks, tricks >= bid, pts, bags,
                                  tuple(nils[player]))
    return out


@dataclass(frozen=True)
class Standing:
    """A player's running total: points and accumulated bags."""

    points: int = 0
    bags: int = 0


def apply_bags(standing: Standing, hand_points: int, hand_bags: int,
               rules: ScoringRules = DEFAULT_RULES) -> Tuple[Standing, int]:
    """Add a hand to a standing; returns (new standing, bag penalties paid)."""
    points = standing.points + hand_points
    bags = standing.bags + hand_bags
    penalties = 0
    while bags >= rules.bag_threshold:
        bags -= rules.bag_threshold
        points -= rules.bag_penalty
        penalties += 1
    return Standing(points, bags), penalties


@dataclass(frozen=True)
class LedgerEntry:
    player: str
    before: Standing
    hand_points: int
    hand_bags: int
    bag_penalties: int
    after: Standing


def winner(standings: Mapping[str, Standing], rules: ScoringRules = DEFAULT_RULES) -> Optional[str]:
    """The winner after a hand: highest score among those at or over the
    target; ``None`` if nobody reached it or the highest is tied."""
    reached = [(s.points, p) for p, s in standings.items() if s.points >= rules.target]
    if not reached:
        return None
    reached.sort(reverse=True)
    if len(reached) > 1 and reached[0][0] == reached[1][0]:
        return None
    return reached[0][1]


@dataclass
class Ledger:
    """A multi-hand game: running points and bags per player."""

    players: Tuple[str, ...]
    rules: ScoringRules = DEFAULT_RULES
    standings: Dict[str, Standing] = field(default_factory=dict)
    history: List[Tuple[LedgerEntry, ...]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for p in self.players:
            self.standings.setdefault(p, Standing())
        unknown = set(self.standings) - set(self.players)
        if unknown:
            raise ScoringError(f"standings for unknown players {sorted(unknown)}")

    def record(self, scores: Mapping[str, PlayerScore]) -> Tuple[LedgerEntry, ...]:
        entries = []
        for p in self.players:
            if p not in scores:
                raise ScoringError(f"no hand score for player {p!r}")
            before = self.standings[p]
            after, pen = apply_bags(before, scores[p].points, scores[p].bags, self.rules)
            entries.append(LedgerEntry(p, before, scores[p].points, scores[p].bags, pen, after))
            self.standings[p] = after
        self.history.append(tuple(entries))
        return tuple(entries)

    def winner(self) -> Optional[str]:
        return winner(self.standings, self.rules)

    def copy(self) -> "Ledger":
        return replace(self, standings=dict(self.standings), history=list(self.history))
