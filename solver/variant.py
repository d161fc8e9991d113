"""The auction variant of a deal (docs/RULES.md "Auction variants"):
:class:`Variant`, how much of the dummy each real player sees before the
auction and the bidding rules, with the parsing of its names
(:func:`parse_variant`: ``suicide + flip-2``, ``3 peeky``, ``Mirror
Spades``)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Tuple

from .auction import BIDDING_RULES, MIRROR, STANDARD
from .cards import format_card, iter_cards
from .cards import count as popcount
from .errors import DealError
from .frozen_map import FrozenMap

VARIANT_CARDS = {"no-peeky": 0, "three-peeky": 3, "four-peeky": 4,
                 "flip-1": 1, "flip-2": 2, "flip-3": 3, "flip-4": 4}
_NUMBER_WORDS = {"1": "one", "2": "two", "3": "three", "4": "four",
                 "one": "1", "two": "2", "three": "3", "four": "4"}
#: The variants a deal file may name, alone or combined as the rules allow.
VARIANT_FORMS = ("no-peeky, three-peeky, four-peeky, flip-1 .. flip-4; mirror (alone); "
                 "suicide alone or with one of the others, e.g. suicide + flip-2")
_BIDDING_WORD = re.compile(r"\b(mirror|suicide)(?:[\s_-]*spades)?\b")


def parse_variant_name(text: str) -> str:
    """Canonical variant name: ``No Peeky`` -> ``no-peeky``, ``3 peeky`` ->
    ``three-peeky``, ``flip2``/``Flip Two`` -> ``flip-2``."""
    key = re.sub(r"[\s_]+", "-", str(text).strip().lower())
    m = re.fullmatch(r"(no|\w+?)-?(peeky|peek)", key)
    if m:
        word = _NUMBER_WORDS.get(m.group(1), m.group(1)) if m.group(1).isdigit() else m.group(1)
        key = f"{word}-peeky"
    m = re.fullmatch(r"flip-?(\w+)", key)
    if m:
        n = m.group(1)
        key = f"flip-{n if n.isdigit() else _NUMBER_WORDS.get(n, n)}"
    if key not in VARIANT_CARDS:
        raise DealError(f"unknown variant {text!r}", field="variant", expected=VARIANT_FORMS)
    return key


def parse_variant(text: str) -> Tuple[str, str]:
    """``(name, bidding)`` of a variant text that may combine a bidding
    variant with a dummy-visibility one: ``suicide + flip-2`` -> ``("flip-2",
    "suicide")``, ``Mirror Spades`` -> ``("no-peeky", "mirror")``, ``3 peeky``
    -> ``("three-peeky", "standard")``. The combination is checked by
    :class:`Variant`."""
    key = str(text).strip().lower()
    biddings = [m.group(1) for m in _BIDDING_WORD.finditer(key)]
    rest = re.sub(r"^[\s+,&/]+|[\s+,&/]+$", "", _BIDDING_WORD.sub(" ", key))
    rest = re.sub(r"^(and|with)\s+|\s+(and|with)$", "", rest.strip())
    if len(biddings) > 1:
        raise DealError(f"variant {text!r} names {' and '.join(biddings)}", field="variant",
                        expected=f"at most one of mirror and suicide ({VARIANT_FORMS})")
    if biddings and not rest:
        return "no-peeky", biddings[0]
    parts = [s for s in re.split(r"\s*(?:[+,&/]|\band\b|\bwith\b)\s*", rest) if s]
    if len(parts) > 1:
        names = [parse_variant_name(s) for s in parts]
        raise DealError(f"variant {text!r} combines {' and '.join(names)}", field="variant",
                        expected=f"one dummy variant at most ({VARIANT_FORMS})")
    try:
        name = parse_variant_name(rest)
    except DealError:
        raise DealError(f"unknown variant {text!r}", field="variant", expected=VARIANT_FORMS) from None
    return name, biddings[0] if biddings else STANDARD


@dataclass(frozen=True)
class Variant:
    """The auction variant (docs/RULES.md "Auction variants"): how much of
    the dummy is seen before the auction (``name``) and the bidding rules
    (``bidding``: ``standard``, ``mirror`` or ``suicide``; docs/RULES.md
    "Combining variants" says which go together). ``seen``: for each real
    player who has picked, the mask of dummy cards they looked at (peeky
    variants, privately) or turned face up (flip-N, for all to see).

    ``name`` also takes a combined text: ``Variant("suicide + flip-2")``."""

    name: str = "no-peeky"
    seen: FrozenMap[str, int] = field(default_factory=FrozenMap)
    bidding: str = STANDARD

    def __post_init__(self) -> None:
        name, bidding = parse_variant(self.name)
        if self.bidding not in BIDDING_RULES:
            raise DealError(f"unknown bidding rules {self.bidding!r}", field="variant",
                            expected=f"one of {', '.join(BIDDING_RULES)}")
        if bidding != STANDARD and self.bidding not in (STANDARD, bidding):
            raise DealError(f"variant {self.name!r} with {self.bidding} bidding", field="variant",
                            expected=f"at most one of mirror and suicide ({VARIANT_FORMS})")
        bidding = bidding if bidding != STANDARD else self.bidding
        if bidding == MIRROR and name != "no-peeky":
            raise DealError(f"mirror cannot be combined with {name}", field="variant",
                            expected="mirror alone: its bids are forced by the bidders' own "
                                     "spades, so seeing the dummy would change none "
                                     f"(allowed: {VARIANT_FORMS})")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "bidding", bidding)
        object.__setattr__(self, "seen", FrozenMap(self.seen))
        n = self.cards_each
        flipped = 0
        for player, mask in self.seen.items():
            where = f"variant.seen.{player}"
            if n == 0:
                raise DealError("no dummy cards are seen in no-peeky", field=where,
                                expected="no seen cards (or a peeky / flip-N variant)")
            if popcount(mask) != n:
                raise DealError(f"{popcount(mask)} cards", field=where,
                                expected=f"exactly {n} dummy cards per player in {self.name}")
            if self.is_flip and mask & flipped:
                twice = " ".join(format_card(c) for c in iter_cards(mask & flipped))
                raise DealError(f"{twice} already turned face up by another player", field=where,
                                expected="cards still face down (flipped cards stay face up)")
            flipped |= mask

    @property
    def label(self) -> str:
        """The variant as a deal file writes it: ``suicide + flip-2``,
        ``mirror``, ``three-peeky``, ``no-peeky``."""
        if self.bidding == STANDARD:
            return self.name
        return self.bidding if self.name == "no-peeky" else f"{self.bidding} + {self.name}"

    @property
    def cards_each(self) -> int:
        """How many dummy cards each real player sees (0 for no-peeky)."""
        return VARIANT_CARDS[self.name]

    @property
    def is_flip(self) -> bool:
        return self.name.startswith("flip")

    def seen_by(self, player: str) -> int:
        """Mask of dummy cards ``player`` picked (looked at or flipped)."""
        return self.seen.get(player, 0)

    @property
    def face_up(self) -> int:
        """Dummy cards face up for everyone during the auction (flip-N only)."""
        if not self.is_flip:
            return 0
        mask = 0
        for m in self.seen.values():
            mask |= m
        return mask

    def known_to(self, player: str) -> int:
        """Dummy cards ``player`` knows during the auction."""
        return self.face_up | self.seen_by(player)

    def __repr__(self) -> str:
        return f"Variant({self.label!r}, {dict(self.seen)!r})"


__all__ = ["VARIANT_CARDS", "VARIANT_FORMS", "Variant", "parse_variant", "parse_variant_name"]
