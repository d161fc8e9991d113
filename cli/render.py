"""Rendering helpers shared by the show and score commands: cards with suit
symbols (hearts and diamonds in red) for Rich, and the JSON forms of the
model's small values (cards are ``"SA"``, ``"HT"``: suit letter then rank)."""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional

from rich.text import Text

from dummy_spades.solver.cards import (DIAMONDS, HEARTS, SUIT_SYMBOLS, SUITS, format_card, format_holding,
                          iter_cards, suit_of)
from dummy_spades.solver.scoring import NilBet, Standing

RED_SUITS = (HEARTS, DIAMONDS)


def suit_style(suit: int) -> str:
    return "red" if suit in RED_SUITS else ""


def card_text(card: int) -> Text:
    """``♠A`` as Rich text, red for hearts and diamonds."""
    return Text(format_card(card, symbols=True), style=suit_style(suit_of(card)))


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


def standing_json(standing: Standing) -> Dict[str, int]:
    return {"points": standing.points, "bags": standing.bags}


def nil_json(bet: NilBet, counts: Optional[bool] = None) -> Dict[str, object]:
    out: Dict[str, object] = {"bidder": bet.bidder, "hand": bet.hand}
    if counts is not None:
        out["counts"] = counts
    return out
