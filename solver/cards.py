"""Cards, suits, ranks and hands as bitmasks.

Encoding used everywhere on hot paths (the engine, the reference twin, the
board):

* suits are ints ``SPADES=0, HEARTS=1, DIAMONDS=2, CLUBS=3`` (PBN order,
  spades first; spades are always trump);
* ranks are ints 2..14 (``14`` = ace);
* a card is the int ``suit * 13 + (rank - 2)`` in ``range(52)``;
* a hand (any set of cards) is a 52-bit int mask with bit ``card`` set.

Text is met only at the edges, by parse/format pairs (:func:`parse_card` /
:func:`format_card`, :func:`parse_hand` / :func:`format_hand`...).
"""
from __future__ import annotations

from typing import Iterable, Iterator, Optional, Sequence, Tuple

from .errors import DealError

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
TRUMP = SPADES
SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = tuple(range(2, 15))
RANK_CHARS = "23456789TJQKA"

SUIT_MASK = [((1 << 13) - 1) << (13 * s) for s in SUITS]
FULL_DECK = (1 << 52) - 1

_SUIT_ALIASES = {
    "S": SPADES, "H": HEARTS, "D": DIAMONDS, "C": CLUBS,
    "♠": SPADES, "♥": HEARTS, "♦": DIAMONDS, "♣": CLUBS,
    "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS,
}
_RANK_ALIASES = {c: i + 2 for i, c in enumerate(RANK_CHARS)}
_RANK_ALIASES["10"] = 10
CARD_FORMS = "a card such as SA, H10, ♦Q, 10♥ or dt"


class CardError(DealError):
    """A card, suit, rank or hand text that cannot be parsed (a ValueError)."""


def card_index(suit: int, rank: int) -> int:
    return suit * 13 + (rank - 2)


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13 + 2


def bit(card: int) -> int:
    return 1 << card


def parse_suit(text: str) -> int:
    """Parse a suit letter or symbol (``S``, ``s``, ``♠``...)."""
    key = text.strip().upper()
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    for i, name in enumerate(SUIT_NAMES):
        if key.lower() in (name, name[:-1]):
            return i
    raise CardError(f"unknown suit {text!r}", expected="one of S H D C or ♠ ♥ ♦ ♣")


def parse_rank(text: str) -> int:
    key = text.strip().upper()
    if key in _RANK_ALIASES:
        return _RANK_ALIASES[key]
    raise CardError(f"unknown rank {text!r}", expected="one of 2-9, T or 10, J, Q, K, A")


def parse_card(text: str) -> int:
    """Parse one card: suit then rank or rank then suit.

    Accepts ``SA``, ``AS``, ``♠A``, ``A♠``, ``h10``, ``10h``, ``dt``.
    """
    s = str(text).strip()
    if len(s) < 2:
        raise CardError(f"unknown card {text!r}", expected=CARD_FORMS)
    # suit first
    head, tail = s[0], s[1:]
    if head.upper() in _SUIT_ALIASES and tail.upper() in _RANK_ALIASES:
        return card_index(_SUIT_ALIASES[head.upper()], _RANK_ALIASES[tail.upper()])
    # suit last
    head, tail = s[:-1], s[-1]
    if tail.upper() in _SUIT_ALIASES and head.upper() in _RANK_ALIASES:
        return card_index(_SUIT_ALIASES[tail.upper()], _RANK_ALIASES[head.upper()])
    raise CardError(f"unknown card {text!r}", expected=CARD_FORMS)


def format_card(card: int, symbols: bool = False) -> str:
    suit = (SUIT_SYMBOLS if symbols else SUIT_LETTERS)[suit_of(card)]
    return suit + RANK_CHARS[rank_of(card) - 2]


def parse_suit_holding(text: str, suit: int) -> int:
    """Parse the ranks of one suit (``AKT73``, ``A K 10 7 3``, ``-`` for void)."""
    s = str(text).strip().upper().replace(",", " ")
    if s in ("", "-", "—", "VOID"):
        return 0
    mask = 0
    tokens: list[str] = []
    for chunk in s.split():
        i = 0
        while i < len(chunk):
            if chunk.startswith("10", i):
                tokens.append("10")
                i += 2
            else:
                tokens.append(chunk[i])
                i += 1
    for tok in tokens:
        if tok not in _RANK_ALIASES:
            raise CardError(f"unknown rank {tok!r} in {SUIT_NAMES[suit]} holding {text!r}",
                            expected="ranks 2-9, T or 10, J, Q, K, A")
        b = bit(card_index(suit, _RANK_ALIASES[tok]))
        if mask & b:
            raise CardError(f"rank {tok} appears twice in {SUIT_NAMES[suit]} holding {text!r}",
                            expected="each rank once")
        mask |= b
    return mask


def parse_hand(text: str) -> int:
    """Parse a hand in PBN dot notation, spades first: ``AKT73.QJ2.984.A52``.

    Void suits are empty (``AKQ..JT9.``) or ``-``.
    """
    s = str(text).strip()
    parts = s.split(".")
    if len(parts) != 4:
        raise CardError(f"hand {text!r} is not in PBN dot notation",
                        expected="four suits separated by dots, spades first, e.g. AKT73.QJ2.984.A52")
    mask = 0
    for suit, part in enumerate(parts):
        mask |= parse_suit_holding(part, suit)
    return mask


def suit_ranks(hand: int, suit: int) -> list[int]:
    """Ranks held in ``suit``, highest first."""
    bits = (hand >> (13 * suit)) & 0x1FFF
    return [r + 2 for r in range(12, -1, -1) if bits >> r & 1]


def format_holding(hand: int, suit: int) -> str:
    """The ranks ``hand`` holds in ``suit``, highest first: ``AKT73``."""
    return "".join(RANK_CHARS[r - 2] for r in suit_ranks(hand, suit))


def format_hand(hand: int) -> str:
    """PBN dot notation, spades first."""
    return ".".join(format_holding(hand, s) for s in SUITS)


def iter_cards(mask: int) -> Iterator[int]:
    """Cards of a mask in ascending index order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def count(mask: int) -> int:
    return bin(mask).count("1")


# ------------------------------------------------------------- a set of hands
class HandsError(DealError):
    """A set of hands that cannot be dealt together. ``hand``: the index of
    the hand at fault; ``cards``: the cards it shares with earlier hands
    (``owner``: the earlier hand holding the first of them), or 0 when its
    size is wrong (``sizes``: every hand's size)."""

    def __init__(self, problem: str, *, hand: int, cards: int = 0, owner: int = -1,
                 sizes: Tuple[int, ...] = (), field: Optional[str] = None,
                 expected: Optional[str] = None) -> None:
        self.hand, self.cards, self.owner, self.sizes = hand, cards, owner, sizes
        super().__init__(problem, field=field, expected=expected)


def check_hands(hands: Sequence[int], names: Sequence[str],
                cards_each: Optional[int] = None) -> Tuple[int, ...]:
    """The one check of a set of hands (a deal's, a position's, a layout's):
    each a set of the 52 cards, no card in two hands, and every hand of
    ``cards_each`` cards (``None``: all of one size). Returns the hands as a
    tuple of ints; raises :class:`HandsError` (field ``hands.<name>``, the
    first hand at fault in ``names`` order)."""
    out: list[int] = []
    seen = 0
    for i, h in enumerate(hands):
        if isinstance(h, bool) or not isinstance(h, int) or h < 0 or h >> 52:
            raise HandsError(f"{h!r} is not a hand", hand=i, field=f"hands.{names[i]}",
                             expected="a set of the 52 cards (a 52-bit mask)")
        twice = seen & h
        if twice:
            first = twice & -twice
            owner = next(j for j in range(i) if out[j] & first)
            raise HandsError(f"{format_card(first.bit_length() - 1)} is also in {names[owner]}'s hand",
                             hand=i, cards=twice, owner=owner, field=f"hands.{names[i]}",
                             expected="each of the 52 cards exactly once")
        seen |= h
        out.append(h)
    sizes = tuple(count(h) for h in out)
    want = sizes[0] if cards_each is None and sizes else cards_each
    for i, n in enumerate(sizes):
        if n != want:
            absent = FULL_DECK & ~seen
            extra = (f" (missing from the deal: {format_cards(absent)})"
                     if want == 13 and absent and n < 13 else "")
            expected = (f"{want} cards" if cards_each is not None
                        else f"hands of one size, not {list(sizes)}")
            raise HandsError(f"{n} cards{extra}", hand=i, sizes=sizes, field=f"hands.{names[i]}",
                             expected=expected)
    return tuple(out)


def format_cards(mask: int) -> str:
    """The cards of ``mask`` as card text, ascending: ``SA S2 HK`` order by card int."""
    return " ".join(format_card(c) for c in iter_cards(mask))
