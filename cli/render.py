"""Rendering helpers shared by the commands: cards with suit symbols (hearts
and diamonds in red) for Rich, table columns, the one way to show each kind
of figure of a sampled analysis (a ± for points or tricks,
:func:`points_text`; a chance, :func:`chance_text`; an estimate in JSON,
:func:`estimate_json`), and the JSON forms of the model's small values
(cards are ``"SA"``, ``"HT"``: suit letter then rank) and of a whole deal
(``show --json``, which the HTML pages carry too)."""
from __future__ import annotations

import math
from typing import Collection, Dict, Iterable, List, Optional, Sequence, Tuple

from rich.console import JustifyMethod
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.cards import (DIAMONDS, HEARTS, SUIT_SYMBOLS, SUITS, format_card, format_holding,
                          iter_cards, suit_of)
from dummy_spades.solver.auction import (MIRROR, STANDARD, SUICIDE, Auction, Bid, legal_bids,
                                         spade_count)
from dummy_spades.solver.board import Board, Trick
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.scoring import DUMMY, NilBet, PlayerScore, Standing
from dummy_spades.solver.seating import bidding_order, controller, left_of
from dummy_spades.solver.simulation import Estimate

from .common import signed

RED_SUITS = (HEARTS, DIAMONDS)


def suit_style(suit: int) -> str:
    return "red" if suit in RED_SUITS else ""


#: Table columns: (heading, justification).
Columns = Sequence[Tuple[str, JustifyMethod]]


def add_columns(table: Table, columns: Columns, no_wrap: bool = False,
                wrapping: Collection[str] = ()) -> Table:
    """Add the columns to ``table``; ``no_wrap`` applies to every column but
    those named in ``wrapping``. Returns the table."""
    for heading, justify in columns:
        table.add_column(heading, justify=justify, no_wrap=no_wrap and heading not in wrapping)
    return table


def nils_text(score: PlayerScore, tricks: bool = False) -> Text:
    """A player's nil bets, one a line: the hand (``own hand``), the points
    (green kept, red lost) and, with ``tricks``, the tricks the hand took."""
    out = Text()
    for i, n in enumerate(score.nils):
        if i:
            out.append("\n")
        out.append(f"{'own hand' if n.hand == score.player else n.hand} ")
        out.append(signed(n.points), style="green" if n.success else "red")
        if tricks:
            out.append(f" ({n.tricks} trick{'' if n.tricks == 1 else 's'})", style="dim")
    return out


def plural(n: int, word: str) -> str:
    """``1 trick``, ``3 tricks``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


# ------------------------------------------------------------------ figures
def points_text(e: Estimate, digits: int = 2, sign: bool = False, gap: str = " ") -> str:
    """A mean of points or tricks with one standard error: ``5.58 ±0.29``
    (no ± when exact or from one sample; ``—`` for no value)."""
    if math.isnan(e.value):
        return "—"
    value = f"{e.value:+.{digits}f}" if sign else f"{e.value:.{digits}f}"
    return value if math.isnan(e.se) or e.exact else f"{value}{gap}±{e.se:.{digits}f}"


def chance_text(e: Estimate, n: bool = False) -> str:
    """A chance: ``87% ±2.4`` (one standard error in percentage points;
    none when exact); at or near 0% or 100% the 95% interval instead,
    ``100% (≥ 72%, 95%)``, ``3% (1-9%, 95%)`` (:meth:`Estimate.interval`);
    ``—`` for no value. ``n``: with the samples it rests on (``n=200``)."""
    count = f"n={e.n}" if n else ""
    if math.isnan(e.value):
        return "—" + (f" ({count})" if n else "")
    value = f"{100 * e.value:.0f}%"
    interval = e.interval()
    if interval is not None:
        return f"{value} ({interval_text(*interval)}, 95%" + (f"; {count})" if n else ")")
    se = "" if math.isnan(e.se) or e.exact else f" ±{100 * e.se:.1f}"
    return value + se + (f" ({count})" if n else "")


def interval_text(low: float, high: float) -> str:
    """A chance's 95% interval as its bounds: ``≥ 72%`` when it reaches
    100%, ``≤ 9%`` when it reaches 0%, else ``1-9%``."""
    return (f"≥ {100 * low:.0f}%" if high >= 0.9995 else
            f"≤ {100 * high:.0f}%" if low <= 0.0005 else
            f"{100 * low:.0f}-{100 * high:.0f}%")


def estimate_json(e: Estimate, digits: int = 4) -> Dict[str, object]:
    """An estimate in JSON: ``value``, ``se``, ``n`` (``null`` for no
    value), ``n_eff`` with weighted samples, and for a chance at or near 0
    or 1 its 95% Wilson ``interval`` ``[low, high]``."""
    def r(x: float) -> Optional[float]:
        return None if math.isnan(x) else round(x, digits)
    out: Dict[str, object] = {"value": r(e.value), "se": r(e.se), "n": e.n}
    if e.n_eff is not None:
        out["n_eff"] = round(e.n_eff, 1)
    interval = e.interval()
    if interval is not None:
        out["interval"] = [round(interval[0], digits), round(interval[1], digits)]
    return out


def card_text(card: int) -> Text:
    """``♠A`` as Rich text, red for hearts and diamonds."""
    return Text(format_card(card, symbols=True), style=suit_style(suit_of(card)))


def rank_text(card: int) -> str:
    """The rank of a card as held in a hand: ``A``, ``T``, ``2``."""
    return format_card(card)[1:]


def display_order(cards: Iterable[int]) -> List[int]:
    """Spades first, each suit high to low (as players hold them)."""
    return sorted(cards, key=lambda c: (suit_of(c), -c))


def cards_text(cards: Iterable[int], sep: str = " ") -> Text:
    """Cards as Rich text in the given order; ``—`` for none."""
    cards = list(cards)
    return Text(sep).join(card_text(c) for c in cards) if cards else Text("—", style="dim")


def holding_lines(hand: int) -> List[Text]:
    """One line per suit, spades first: ``♠ KJ74``; a void is ``♠ —``."""
    lines = []
    for suit in SUITS:
        ranks = format_holding(hand, suit) or "—"
        line = Text.assemble((SUIT_SYMBOLS[suit], suit_style(suit)), " ", ranks)
        line.justify = "left"
        lines.append(line)
    return lines


def card_names(cards: Iterable[int]) -> List[str]:
    """``["SA", "HT"]`` in the given order."""
    return [format_card(c) for c in cards]


def cards_json(mask: int) -> List[str]:
    """The cards of a mask as ``["SA", "SK", ...]``, spades first, high to low."""
    return card_names(display_order(iter_cards(mask)))


def breaking_text(deal: Deal) -> str:
    """``spade breaking on`` / ``off``: the deal's rule."""
    return f"spade breaking {'on' if deal.rules.breaking else 'off'}"


def player_json(s: PlayerScore) -> Dict[str, object]:
    """A player's hand score as ``solve``, ``review`` and the explorer give it."""
    return {"player": s.player, "role": s.role, "bid": s.bid, "side_tricks": s.side_tricks,
            "made": s.made, "contract_points": s.contract_points, "bags": s.bags,
            "nil_points": s.nil_points, "points": s.points}


def standing_json(standing: Standing) -> Dict[str, int]:
    return {"points": standing.points, "bags": standing.bags}


def nil_json(bet: NilBet, counts: Optional[bool] = None) -> Dict[str, object]:
    out: Dict[str, object] = {"bidder": bet.bidder, "hand": bet.hand}
    if counts is not None:
        out["counts"] = counts
    return out


def allowed_text(bids: Iterable[Bid]) -> str:
    """Legal bids as text: ``0 nil self, 4-13 nil dummy`` (runs of numbers
    with the same nils joined)."""
    runs: List[Tuple[int, int, str]] = []
    for bid in bids:
        rest = bid.call().partition(" ")[2]
        if runs and runs[-1][2] == rest and runs[-1][1] == bid.tricks - 1:
            runs[-1] = (runs[-1][0], bid.tricks, rest)
        else:
            runs.append((bid.tricks, bid.tricks, rest))
    return ", ".join((f"{a}" if a == b else f"{a}-{b}") + (f" {rest}" if rest else "")
                     for a, b, rest in runs)


def bidding_note(deal: Deal) -> Optional[str]:
    """What the deal's bidding variant means for this deal (docs/RULES.md
    "Mirror Spades (dummy version)", "Suicide Spades (dummy version)");
    ``None`` under the standard rules."""
    bidding = deal.variant.bidding
    if bidding == STANDARD:
        return None
    auction = deal.auction or Auction(deal.players, deal.dealer)
    if bidding == MIRROR:
        counts = ", ".join(f"{p} {spade_count(deal.hands[p])}" for p in auction.bidding_order)
        dummy = spade_count(deal.hands[DUMMY])
        text = (f"Mirror: each bid is the bidder's spade count ({counts}); nobody bids the "
                f"dummy's {dummy} spade{'' if dummy == 1 else 's'}, which play for the "
                "declarer's side.")
    else:
        assert bidding == SUICIDE
        text = ("Suicide: exactly one player bids nil (0 nil self); the others bid 4 or more "
                "with nil on the dummy.")
        nil = next((b.player for b in auction.bids if b.nils == (b.player,)), None)
        if auction.declarer is not None:
            text += (f" {nil}'s nil is the defenders' nil; {auction.declarer}'s nil on the "
                     "dummy is the declarer side's.")
        elif nil is not None:
            text += f" {nil} has bid nil."
    nxt = auction.next_bidder
    if nxt is not None:
        allowed = legal_bids(bidding, auction, spade_count(deal.hands[nxt])) or ()
        text += f" {nxt} may bid: {allowed_text(allowed)}."
    return text


# ------------------------------------------------------------------ the deal as JSON
POSITIONS = ("bottom", "left", "top", "right")  # clockwise from the bottom


def table_layout(deal: Deal) -> Dict[str, str]:
    """position -> hand name: the declarer's seats clockwise from the bottom,
    or before the auction is over the dealer at the bottom and the dummy on top."""
    if deal.declarer is not None:
        names = deal.seating().names
    else:
        names = (deal.dealer, left_of(deal.players, deal.dealer, 1), DUMMY,
                 left_of(deal.players, deal.dealer, 2))
    return dict(zip(POSITIONS, names))


# ------------------------------------------------------------------ JSON
def _trick_json(trick: Trick, number: int, names: Tuple[str, ...]) -> Dict[str, object]:
    out: Dict[str, object] = {
        "number": number,
        "leader": names[trick.leader],
        "cards": [{"hand": names[seat], "card": c} for seat, c in
                  zip(trick.seats, card_names(trick.cards))],
    }
    out["winner"] = names[trick.winner] if trick.is_complete else None
    return out


def _play_json(board: Board) -> Dict[str, object]:
    names = board.names
    to_move = board.to_move
    return {
        "tricks": [_trick_json(t, i + 1, names) for i, t in enumerate(board.tricks)],
        "current_trick": _trick_json(board.current_trick, len(board.tricks) + 1, names)
        if board.trick else None,
        "tricks_won": dict(zip(names, board.tricks_won)),
        "declarer_tricks": board.declarer_tricks,
        "defender_tricks": board.defender_tricks,
        "spades_broken": board.spades_broken,
        "complete": board.is_over,
        "to_move": None if to_move is None else names[to_move],
        "played_by": None if to_move is None else names[controller(to_move)],
        "legal": card_names(display_order(board.legal_moves())),
    }


def show_json(deal: Deal) -> Dict[str, object]:
    """The documented JSON of ``show --json``."""
    board = deal.board() if deal.declarer is not None else None
    remaining = dict(zip(board.names, board.hands)) if board else dict(deal.hands)
    auction = deal.auction
    out: Dict[str, object] = {
        "title": deal.title or None,
        "notes": deal.notes or None,
        "players": list(deal.players),
        "dealer": deal.dealer,
        "bidding_order": list(bidding_order(deal.players, deal.dealer)),
        "hands": {n: cards_json(m) for n, m in deal.hands.items()},
        "remaining": {n: cards_json(remaining[n]) for n in deal.hands},
        "pbn": deal.to_pbn() if deal.declarer is not None else None,
        "auction": None,
        "seating": None,
        "play": None,
        "rules": {
            "spade_breaking": deal.rules.breaking,
            "bag_threshold": deal.rules.scoring.bag_threshold,
            "bag_penalty": deal.rules.scoring.bag_penalty,
            "nil_value": deal.rules.scoring.nil_value,
            "target": deal.rules.scoring.target,
        },
        "variant": {
            "name": deal.variant.name,
            "bidding": deal.variant.bidding,
            "label": deal.variant.label,
            "cards_each": deal.variant.cards_each,
            "seen": {p: cards_json(m) for p, m in deal.variant.seen.items()},
            "face_up": cards_json(deal.variant.face_up),
        },
        "scores": {p: standing_json(s) for p, s in deal.scores.items()} if deal.scores else None,
    }
    if auction is not None:
        counted = auction.applicable_nils() if auction.is_complete else []
        out["auction"] = {
            "bids": [{"player": b.player, "bid": b.tricks, "nil": list(b.nils)} for b in auction.bids],
            "complete": auction.is_complete,
            "next_bidder": auction.next_bidder,
            "declarer": auction.declarer,
            "defenders": list(auction.defenders),
            "nils": [nil_json(n, n in counted) for n in
                     (counted + auction.ignored_nils() if auction.is_complete else [])],
        }
    if board is not None:
        seating = deal.seating()
        out["seating"] = {
            "declarer": seating.declarer,
            "left_defender": seating.defenders[0],
            "dummy": DUMMY,
            "right_defender": seating.defenders[1],
            "play_order": list(seating.names),
            "opening_leader": seating.opening_leader,
        }
        out["play"] = _play_json(board)
    return out
