"""The play rules of docs/RULES.md ("Play"), on plain ints and bitmasks.

This module is the one obvious place for: following suit, spade breaking
(with the only-spades exception, also on the opening lead, and the switch to
turn it off) and who wins a trick. The board, the reference solver and
the tests all call these; the Cython engine mirrors them (and is checked
against them by the differential tests).

Seats are ints 0..3 in clockwise play order; a trick is the list of cards
played to it so far, in order, starting with the leader's card.

:class:`Rules` holds a deal's rule settings (the spade-breaking switch and
the scoring rules): the one way the rules reach the library, on the deal
(:class:`~solver.deal.Deal`) or its board (:class:`~solver.board.Board`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import SPADES, SUIT_MASK, rank_of, suit_of
from .scoring import DEFAULT_RULES, ScoringRules


@dataclass(frozen=True)
class Rules:
    """The rule settings of a deal: the spade-breaking switch and the scoring rules."""

    breaking: bool = True
    scoring: ScoringRules = DEFAULT_RULES


DEFAULT_DEAL_RULES = Rules()


def spade_lead_allowed(hand: int, spades_broken: bool, breaking: bool = True) -> bool:
    """May the leader holding ``hand`` lead a spade?

    Spade breaking: a spade may not be led until a spade has been played to an
    earlier trick, unless the leader holds nothing but spades. With
    ``breaking=False`` spades may be led at any time.
    """
    if not breaking or spades_broken:
        return True
    return hand & ~SUIT_MASK[SPADES] == 0


def legal_cards(hand: int, trick: Sequence[int], spades_broken: bool, breaking: bool = True) -> int:
    """Mask of the cards of ``hand`` that may be played to ``trick``."""
    if not trick:
        if spade_lead_allowed(hand, spades_broken, breaking):
            return hand
        return hand & ~SUIT_MASK[SPADES]
    follow = hand & SUIT_MASK[suit_of(trick[0])]
    return follow if follow else hand


def trick_winner(trick: Sequence[int]) -> int:
    """Index (0 = leader) of the card that wins a complete or partial trick.

    The highest spade wins; with no spade, the highest card of the suit led.
    """
    best = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[best]):
            best = i
    return best


def beats(card: int, best: int) -> bool:
    """Does ``card`` beat the card ``best`` currently winning the trick?"""
    cs, bs = suit_of(card), suit_of(best)
    if cs == bs:
        return rank_of(card) > rank_of(best)
    return cs == SPADES


def breaks_spades(trick: Sequence[int]) -> bool:
    """Does playing this trick break spades (any spade in it)?"""
    return any(suit_of(c) == SPADES for c in trick)
