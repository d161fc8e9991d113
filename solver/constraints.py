"""The constraint language of ``dummy-spades deal --where`` (docs/DEAL.md
"Constraints").

A constraint is a condition on the four hands of a deal written the way a
player would say it: ``spades(Carol) >= 5 and 12 <= hcp(Carol) <= 14``,
``shape(dummy, any 4333 + any 4432)``, ``has(leader, SA) or qt(leader) >= 2``.
It is read by a small recursive-descent parser of its own (user text is
never evaluated as Python), which checks types (numbers against conditions),
names (players, suits, cards, functions) and numbers no hand can reach, and
reports each problem with its 1-based position in the text
(:class:`WhereError`).

A parsed :class:`Condition` can

* be evaluated in Python on a deal (:meth:`Condition.holds`): the
  definition, obviously right and slow;
* be compiled with others into one :class:`Program` for the compiled dealer
  (:func:`compile_program`), which runs it on millions of candidate deals a
  second. The tests check that the two agree.

Hands are indexed as in a deal file: the three players in their order, then
the dummy (``HANDS = 4``).
"""
from __future__ import annotations

import difflib
import itertools
import re
from array import array
from dataclasses import dataclass, field, replace
from typing import Callable, ClassVar, Dict, FrozenSet, List, Optional, Sequence, Tuple

from .cards import SUIT_MASK, SUIT_NAMES, CardError, parse_card, parse_suit
from .cards import count as popcount
from .errors import DealError
from .limits import WHERE_MAX_CHARS, WHERE_MAX_DEPTH
from .scoring import DUMMY, TRICKS_PER_HAND
from .seating import check_table, first_bidder

Hands = Sequence[int]
Shape = Tuple[int, int, int, int]

#: The largest values a hand can reach (docs/DEAL.md "Impossible numbers").
MAX_LENGTH = TRICKS_PER_HAND          # cards of one suit in one hand
MAX_HCP = 37                          # AKQ of every suit and one jack: 13 cards
MAX_SUIT_HCP = 10                     # AKQJ
DECK_HCP = 40                         # every high card: the most any hands hold together
MAX_QT = 8.0                          # AK of every suit
MAX_SUIT_QT = 2.0

#: Role words that name a hand by its place at the table.
ROLE_WORDS = ("leader", "dealer")

_QUOTES = "'\""


# ------------------------------------------------------------------- errors
class WhereError(DealError):
    """An expression that cannot be used: ``problem`` at ``position``
    (1-based) of ``text``, given to ``option``; ``str()`` is one line."""

    def __init__(self, problem: str, *, text: str, position: int, option: str = "--where",
                 expected: Optional[str] = None) -> None:
        self.text = text
        self.position = position
        self.option = option
        super().__init__(problem, field=f"{option} {_shown(text)}, position {position}",
                         expected=expected)


def _shown(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit - 3] + "...")


# ------------------------------------------------------------------- the table
@dataclass(frozen=True)
class Table:
    """The names a constraint may give a hand: the three players (clockwise),
    ``dummy``, and the role words ``leader`` (the first bidder, left of the
    dealer: the opening leader) and ``dealer``. A player's own name wins
    over a role word."""

    players: Tuple[str, str, str]
    dealer: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", check_table(self.players, self.dealer))

    @property
    def names(self) -> Tuple[str, str, str, str]:
        """The hands in deal-file order: the players, then the dummy."""
        return self.players + (DUMMY,)

    def index(self, word: str) -> Optional[int]:
        if word in self.players:
            return self.players.index(word)
        key = word.lower()
        if key == DUMMY:
            return 3
        if key == "leader":
            return self.players.index(first_bidder(self.players, self.dealer))
        if key == "dealer":
            return self.players.index(self.dealer)
        return None

    def choices(self) -> str:
        return f"one of {', '.join(self.names)} (or {' or '.join(ROLE_WORDS)})"


# ------------------------------------------------------------------- shapes
def _all_shapes() -> List[Shape]:
    return [(s, h, d, TRICKS_PER_HAND - s - h - d)
            for s in range(14) for h in range(14 - s) for d in range(14 - s - h)]


SHAPES = _all_shapes()   # the 560 shapes of a 13-card hand, spades first


@dataclass(frozen=True)
class ShapePattern:
    """One pattern: four lengths spades first, ``None`` for any (``x``);
    ``any`` for every order of the suits."""

    lengths: Tuple[Optional[int], ...]
    any_order: bool

    def matches(self, shape: Shape) -> bool:
        orders = set(itertools.permutations(self.lengths)) if self.any_order else {self.lengths}
        return any(all(want is None or want == got for want, got in zip(order, shape))
                   for order in orders)


# ------------------------------------------------------------------- the tree
@dataclass(frozen=True)
class Node:
    """A parsed expression: its source span ``[start, end)`` (0-based)."""

    start: int
    end: int

    @property
    def is_number(self) -> bool:
        return True

    @property
    def low(self) -> float:
        return 0.0

    @property
    def high(self) -> float:
        return 0.0

    @property
    def hcp_only(self) -> bool:
        """A sum of high-card points (the deck holds 40 in all)."""
        return False

    def value(self, hands: Hands) -> float:
        raise NotImplementedError

    def emit(self, out: "_Emitter") -> None:
        raise NotImplementedError


@dataclass(frozen=True)
class Number(Node):
    number: float = 0.0

    @property
    def low(self) -> float:
        return self.number

    @property
    def high(self) -> float:
        return self.number

    def value(self, hands: Hands) -> float:
        return self.number

    def emit(self, out: "_Emitter") -> None:
        out.op("const", out.const(self.number))


@dataclass(frozen=True)
class Length(Node):
    hand: int = 0
    suit: int = 0

    @property
    def high(self) -> float:
        return MAX_LENGTH

    def value(self, hands: Hands) -> float:
        return popcount(hands[self.hand] & SUIT_MASK[self.suit])

    def emit(self, out: "_Emitter") -> None:
        out.op("length", self.hand, self.suit)


_POINTS = {14: 4, 13: 3, 12: 2, 11: 1}


def _ranks(hand: int, suit: int) -> List[int]:
    bits = hand >> (13 * suit) & 0x1FFF
    return [r + 2 for r in range(13) if bits >> r & 1]


def _suits(suit: Optional[int]) -> Sequence[int]:
    return range(4) if suit is None else (suit,)


@dataclass(frozen=True)
class SuitSum(Node):
    """A count of a hand's suits, summed over one suit (``suit``) or all four."""

    hand: int = 0
    suit: Optional[int] = None
    #: the opcodes for the whole hand and for one suit, and their ranges' tops
    OPS: ClassVar[Tuple[str, str]] = ("", "")
    HIGH: ClassVar[Tuple[float, float]] = (0.0, 0.0)

    @property
    def high(self) -> float:
        return self.HIGH[0] if self.suit is None else self.HIGH[1]

    def of_suit(self, ranks: Sequence[int]) -> float:
        raise NotImplementedError

    def value(self, hands: Hands) -> float:
        return sum(self.of_suit(_ranks(hands[self.hand], s)) for s in _suits(self.suit))

    def emit(self, out: "_Emitter") -> None:
        if self.suit is None:
            out.op(self.OPS[0], self.hand)
        else:
            out.op(self.OPS[1], self.hand, self.suit)


@dataclass(frozen=True)
class Hcp(SuitSum):
    """High-card points: ace 4, king 3, queen 2, jack 1."""

    OPS = ("hcp", "hcp_suit")
    HIGH = (MAX_HCP, MAX_SUIT_HCP)

    @property
    def hcp_only(self) -> bool:
        return True

    def of_suit(self, ranks: Sequence[int]) -> float:
        return sum(_POINTS.get(r, 0) for r in ranks)


def suit_quick_tricks(ranks: Sequence[int]) -> float:
    """Quick tricks of one suit's ranks: AK 2, AQ 1.5, A 1, KQ 1, K with
    another card 0.5, else 0 (docs/DEAL.md "Quick tricks")."""
    held = set(ranks)
    if 14 in held:
        return 2.0 if 13 in held else 1.5 if 12 in held else 1.0
    if 13 in held:
        return 1.0 if 12 in held else 0.5 if len(held) >= 2 else 0.0
    return 0.0


@dataclass(frozen=True)
class QuickTricks(SuitSum):
    OPS = ("qt", "qt_suit")
    HIGH = (MAX_QT, MAX_SUIT_QT)

    def of_suit(self, ranks: Sequence[int]) -> float:
        return suit_quick_tricks(ranks)


@dataclass(frozen=True)
class CardCount(Node):
    """How many of the listed cards the hand holds."""

    hand: int = 0
    mask: int = 0

    @property
    def high(self) -> float:
        return min(popcount(self.mask), TRICKS_PER_HAND)

    def value(self, hands: Hands) -> float:
        return popcount(hands[self.hand] & self.mask)

    def emit(self, out: "_Emitter") -> None:
        out.op("cards", self.hand, out.mask(self.mask))


@dataclass(frozen=True)
class Negative(Node):
    operand: Node = field(default_factory=lambda: Number(0, 0))

    @property
    def low(self) -> float:
        return -self.operand.high

    @property
    def high(self) -> float:
        return -self.operand.low

    def value(self, hands: Hands) -> float:
        return -self.operand.value(hands)

    def emit(self, out: "_Emitter") -> None:
        self.operand.emit(out)
        out.op("neg")


@dataclass(frozen=True)
class Arithmetic(Node):
    op: str = "+"
    left: Node = field(default_factory=lambda: Number(0, 0))
    right: Node = field(default_factory=lambda: Number(0, 0))

    @property
    def hcp_only(self) -> bool:
        return self.op == "+" and self.left.hcp_only and self.right.hcp_only

    @property
    def low(self) -> float:
        if self.op == "+":
            return self.left.low + self.right.low
        return self.left.low - self.right.high

    @property
    def high(self) -> float:
        if self.op == "+":
            top = self.left.high + self.right.high
            return min(top, DECK_HCP) if self.hcp_only else top
        return self.left.high - self.right.low

    def value(self, hands: Hands) -> float:
        a, b = self.left.value(hands), self.right.value(hands)
        return a + b if self.op == "+" else a - b

    def emit(self, out: "_Emitter") -> None:
        self.left.emit(out)
        self.right.emit(out)
        out.op(self.op)


class Boolean(Node):
    """A node whose value is true or false."""

    @property
    def is_number(self) -> bool:
        return False

    def holds(self, hands: Hands) -> bool:
        raise NotImplementedError

    def value(self, hands: Hands) -> float:
        return 1.0 if self.holds(hands) else 0.0


@dataclass(frozen=True)
class Holds(Boolean):
    """Whether the hand holds every listed card."""

    hand: int = 0
    mask: int = 0

    def holds(self, hands: Hands) -> bool:
        return hands[self.hand] & self.mask == self.mask

    def emit(self, out: "_Emitter") -> None:
        out.op("has", self.hand, out.mask(self.mask))


@dataclass(frozen=True)
class ShapeIs(Boolean):
    """Whether the hand's shape is one of ``shapes``."""

    hand: int = 0
    shapes: FrozenSet[Shape] = frozenset()

    def holds(self, hands: Hands) -> bool:
        shape = tuple(popcount(hands[self.hand] & SUIT_MASK[s]) for s in range(4))
        return shape in self.shapes

    def emit(self, out: "_Emitter") -> None:
        out.op("shape", self.hand, out.shape_table(self.shapes))


_COMPARE: Dict[str, Callable[[float, float], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
}


@dataclass(frozen=True)
class Comparison(Boolean):
    op: str = "=="
    left: Node = field(default_factory=lambda: Number(0, 0))
    right: Node = field(default_factory=lambda: Number(0, 0))

    def holds(self, hands: Hands) -> bool:
        return _COMPARE[self.op](self.left.value(hands), self.right.value(hands))

    def emit(self, out: "_Emitter") -> None:
        self.left.emit(out)
        self.right.emit(out)
        out.op(self.op)


@dataclass(frozen=True)
class Not(Boolean):
    operand: Node = field(default_factory=lambda: Number(0, 0))

    def holds(self, hands: Hands) -> bool:
        return not self.operand.value(hands)

    def emit(self, out: "_Emitter") -> None:
        self.operand.emit(out)
        out.op("not")


@dataclass(frozen=True)
class Logic(Boolean):
    """``and`` / ``or`` of two or more conditions, evaluated left to right
    until the answer is known."""

    op: str = "and"
    operands: Tuple[Node, ...] = ()

    def holds(self, hands: Hands) -> bool:
        if self.op == "and":
            return all(o.value(hands) for o in self.operands)
        return any(o.value(hands) for o in self.operands)

    def emit(self, out: "_Emitter") -> None:
        jumps = []
        for i, operand in enumerate(self.operands):
            operand.emit(out)
            if i < len(self.operands) - 1:
                jumps.append(out.jump(self.op))
        for at in jumps:
            out.code[at] = len(out.code)


# ------------------------------------------------------------------- the condition
@dataclass(frozen=True)
class Condition:
    """One parsed ``--where`` expression over the hands of :attr:`table`."""

    text: str
    table: Table
    tree: Boolean

    def holds(self, hands: Hands) -> bool:
        """Whether the deal ``hands`` (deal-file order) satisfies it."""
        return self.tree.holds(hands)

    def __str__(self) -> str:
        return " ".join(self.text.split())


# ------------------------------------------------------------------- the parser
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<name>[^\W\d]\w*)
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<op><=|>=|==|!=|&&|\|\||[<>=!+\-(),])
""", re.VERBOSE)

_KEYWORDS = {"and": "and", "or": "or", "not": "not", "&&": "and", "||": "or", "!": "not"}
_SUIT_FUNCTIONS = {name: i for i, name in enumerate(SUIT_NAMES)}
#: Every function: its argument after the hand (None, "suit", "cards",
#: "shapes"), whether that argument may be left out, and what it gives.
_FUNCTIONS: Dict[str, Tuple[Optional[str], bool]] = {
    **{name: (None, False) for name in SUIT_NAMES},
    "length": ("suit", False),
    "hcp": ("suit", True),
    "qt": ("suit", True),
    "quick_tricks": ("suit", True),
    "cards": ("cards", False),
    "has": ("cards", False),
    "shape": ("shapes", False),
}
_FUNCTION_FORMS = ("a function of a hand: spades(P), hearts(P), diamonds(P), clubs(P), "
                   "length(P, suit), hcp(P), hcp(P, suit), qt(P), qt(P, suit), "
                   "cards(P, SA SK), has(P, SA SK), shape(P, any 4333 + 5-4-3-1)")
_SUIT_FORMS = "a suit: spades, hearts, diamonds, clubs (or S H D C, ♠ ♥ ♦ ♣)"
_SHAPE_FORMS = ("shapes such as 5-4-3-1, 4333, 5xxx or any 4432, joined by + (add) "
                "and - (take away)")
_SHAPE_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<any>any\b)
  | (?P<dashed>[0-9xX]{1,2}(?:-[0-9xX]{1,2}){3})(?![\w-])
  | (?P<compact>[0-9xX]{4})(?!\w)
  | (?P<op>[+-])
""", re.VERBOSE | re.IGNORECASE)


@dataclass
class _Token:
    kind: str     # number, name, string, op, end
    text: str
    start: int
    end: int


class _Parser:
    """Recursive descent over one expression; positions are 0-based inside,
    1-based in messages."""

    def __init__(self, text: str, table: Table, option: str) -> None:
        self.text = text
        self.table = table
        self.option = option
        self.pos = 0
        self.depth = 0
        self.token = self._scan()

    # ------------------------------------------------------------ scanning
    def fail(self, problem: str, at: int, expected: Optional[str] = None) -> WhereError:
        return WhereError(problem, text=self.text, position=at + 1, option=self.option,
                          expected=expected)

    def _scan(self) -> _Token:
        while True:
            if self.pos >= len(self.text):
                return _Token("end", "", self.pos, self.pos)
            m = _TOKEN.match(self.text, self.pos)
            if m is None:
                raise self.fail(f"unexpected character {self.text[self.pos]!r}", self.pos,
                                "a condition such as spades(Carol) >= 5 (docs/DEAL.md)")
            self.pos = m.end()
            kind = m.lastgroup or ""
            if kind != "space":
                return _Token(kind, m.group(), m.start(), m.end())

    def advance(self) -> _Token:
        token = self.token
        self.token = self._scan()
        return token

    def word(self) -> str:
        """The current token as an operator or keyword (``and``, ``<=``...)."""
        t = self.token
        if t.kind == "op":
            return _KEYWORDS.get(t.text, "==" if t.text == "=" else t.text)
        if t.kind == "name" and t.text.lower() in ("and", "or", "not"):
            return t.text.lower()
        return ""

    def describe(self, t: _Token) -> str:
        return "the end" if t.kind == "end" else repr(t.text)

    def expect(self, text: str, what: str) -> _Token:
        if self.word() != text:
            raise self.fail(f"found {self.describe(self.token)}", self.token.start, what)
        return self.advance()

    def nested(self) -> None:
        self.depth += 1
        if self.depth > WHERE_MAX_DEPTH:
            raise self.fail(f"nested more than {WHERE_MAX_DEPTH} deep", self.token.start,
                            "a flatter expression")

    # ------------------------------------------------------------ grammar
    def parse(self) -> Boolean:
        if not self.text.strip():
            raise self.fail("the expression is empty", 0,
                            "a condition such as spades(Carol) >= 5 (docs/DEAL.md)")
        tree = self.condition()
        if self.token.kind != "end":
            raise self.fail(f"found {self.describe(self.token)} after a complete condition",
                            self.token.start, "and, or, or the end of the expression")
        return tree

    def condition(self) -> Boolean:
        node = self.logic("or")
        return self.boolean(node)

    def boolean(self, node: Node) -> Boolean:
        if isinstance(node, Boolean):
            return node
        raise self.fail(f"{self.source(node)!r} is a number, not a condition", node.start,
                        "a comparison such as spades(Carol) >= 5")

    def number(self, node: Node) -> Node:
        if node.is_number:
            return node
        raise self.fail(f"{self.source(node)!r} is a condition, not a number", node.start,
                        "a number, such as hcp(Carol) or spades(dummy) + 2")

    def source(self, node: Node) -> str:
        return " ".join(self.text[node.start:node.end].split())

    def logic(self, op: str) -> Node:
        self.nested()
        lower: Callable[[], Node] = self.negation if op == "and" else self._conjunction
        first = lower()
        operands = [first]
        while self.word() == op:
            self.advance()
            operands.append(lower())
        self.depth -= 1
        if len(operands) == 1:
            return first
        conditions = tuple(self.boolean(o) for o in operands)
        return Logic(first.start, operands[-1].end, op, conditions)

    def _conjunction(self) -> Node:
        return self.logic("and")

    def negation(self) -> Node:
        if self.word() == "not":
            start = self.advance().start
            self.nested()
            operand = self.boolean(self.negation())
            self.depth -= 1
            return Not(start, operand.end, operand)
        return self.comparison()

    def comparison(self) -> Node:
        first = self.sum()
        if self.word() not in _COMPARE:
            return first
        terms = [self.number(first)]
        ops: List[Tuple[str, int]] = []
        while self.word() in _COMPARE:
            ops.append((self.word(), self.advance().start))
            terms.append(self.number(self.sum()))
        pairs = []
        for (op, at), left, right in zip(ops, terms, terms[1:]):
            self.check_range(op, at, left, right)
            pairs.append(Comparison(left.start, right.end, op, left, right))
        if len(pairs) == 1:
            return pairs[0]
        return Logic(first.start, terms[-1].end, "and", tuple(pairs))

    def sum(self) -> Node:
        node = self.term()
        while self.word() in ("+", "-"):
            op = self.advance().text
            left = self.number(node)
            right = self.number(self.term())
            node = Arithmetic(left.start, right.end, op, left, right)
        return node

    def term(self) -> Node:
        self.nested()
        t = self.token
        try:
            if self.word() == "-":
                self.advance()
                operand = self.number(self.term())
                if isinstance(operand, Number):
                    return Number(t.start, operand.end, -operand.number)
                return Negative(t.start, operand.end, operand)
            if self.word() == "(":
                self.advance()
                inner = self.logic("or")
                close = self.expect(")", "')' to close the '(' at position "
                                         f"{t.start + 1}")
                return _spanned(inner, t.start, close.end)
            if t.kind == "number":
                self.advance()
                return Number(t.start, t.end, float(t.text))
            if t.kind == "name" and t.text.lower() not in ("and", "or", "not"):
                return self.call()
            raise self.fail(f"found {self.describe(t)}", t.start,
                            f"a number or {_FUNCTION_FORMS}")
        finally:
            self.depth -= 1

    # ------------------------------------------------------------ functions
    def call(self) -> Node:
        name_token = self.token
        name = name_token.text.lower()
        if name not in _FUNCTIONS:
            if self.table.index(name_token.text) is not None:
                raise self.fail(f"{name_token.text!r} is a hand, not a number or a condition",
                                name_token.start, _FUNCTION_FORMS)
            close = difflib.get_close_matches(name, list(_FUNCTIONS), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(f"unknown function {name_token.text!r}{hint}", name_token.start,
                            _FUNCTION_FORMS)
        # the arguments are read from the text itself: names, suits, cards, shapes
        at = self._skip_space(name_token.end)
        if at >= len(self.text) or self.text[at] != "(":
            raise self.fail(f"{name_token.text} without '('", at,
                            f"{name_token.text}(P), P a hand: {self.table.choices()}")
        hand, at = self._hand(at + 1, name_token.text)
        kind, optional = _FUNCTIONS[name]
        at = self._skip_space(at)
        argument: Optional[Tuple[str, int]] = None
        if at < len(self.text) and self.text[at] == ",":
            if kind is None:
                raise self.fail(f"{name_token.text}() takes one hand", at,
                                f"')': {name_token.text}(P)")
            argument, at = self._rest(at + 1, name_token)
        elif at >= len(self.text) or self.text[at] != ")":
            raise self.fail(f"found {self.text[at]!r}" if at < len(self.text) else "found the end",
                            at, f"',' or ')' after the hand in {name_token.text}(...)")
        else:
            at += 1
        if argument is None and kind is not None and not optional:
            raise self.fail(f"{name_token.text}() needs a second argument", at - 1,
                            {"suit": _SUIT_FORMS, "cards": "cards such as SA SK",
                             "shapes": _SHAPE_FORMS}[kind])
        self.pos = at
        self.token = self._scan()
        return self._function(name, name_token.start, at, hand, argument)

    def _skip_space(self, at: int) -> int:
        while at < len(self.text) and self.text[at].isspace():
            at += 1
        return at

    def _hand(self, at: int, function: str) -> Tuple[int, int]:
        at = self._skip_space(at)
        start = at
        if at < len(self.text) and self.text[at] in _QUOTES:
            close = self.text.find(self.text[at], at + 1)
            if close < 0:
                raise self.fail("the quoted name is not closed", at, "a closing quote")
            word, at = self.text[at + 1:close], close + 1
        else:
            while at < len(self.text) and not self.text[at].isspace() and self.text[at] not in ",)(":
                at += 1
            word = self.text[start:at]
        if not word:
            raise self.fail(f"{function}() names no hand", start, self.table.choices())
        index = self.table.index(word)
        if index is None:
            raise self.fail(f"unknown player {word!r}", start, self.table.choices())
        return index, at

    def _rest(self, at: int, name_token: _Token) -> Tuple[Tuple[str, int], int]:
        close = self.text.find(")", at)
        if close < 0:
            raise self.fail(f"{name_token.text}( is not closed", name_token.start,
                            "')' after the arguments")
        at = self._skip_space(at)
        return (self.text[at:close], at), close + 1

    def _function(self, name: str, start: int, end: int, hand: int,
                  argument: Optional[Tuple[str, int]]) -> Node:
        if name in _SUIT_FUNCTIONS:
            return Length(start, end, hand, _SUIT_FUNCTIONS[name])
        assert argument is not None or name in ("hcp", "qt", "quick_tricks")
        if name in ("length", "hcp", "qt", "quick_tricks"):
            suit = None if argument is None else self._suit(*argument)
            if name == "length":
                assert suit is not None
                return Length(start, end, hand, suit)
            if name == "hcp":
                return Hcp(start, end, hand, suit)
            return QuickTricks(start, end, hand, suit)
        assert argument is not None
        if name in ("cards", "has"):
            mask = self._cards(*argument)
            if name == "cards":
                return CardCount(start, end, hand, mask)
            if popcount(mask) > TRICKS_PER_HAND:
                raise self.fail(f"has() lists {popcount(mask)} cards: no hand holds them all",
                                argument[1], "at most 13 cards")
            return Holds(start, end, hand, mask)
        return ShapeIs(start, end, hand, self._shapes(*argument))

    def _suit(self, text: str, at: int) -> int:
        word = text.strip()
        at = self._skip_space(at)
        try:
            return parse_suit(word)
        except CardError:
            raise self.fail(f"unknown suit {word!r}", at, _SUIT_FORMS) from None

    def _cards(self, text: str, at: int) -> int:
        mask = 0
        for m in re.finditer(r"[^\s,]+", text):
            try:
                mask |= 1 << parse_card(m.group())
            except CardError:
                raise self.fail(f"unknown card {m.group()!r}", at + m.start(),
                                "cards such as SA, HT, ♦Q, 10♥") from None
        if not mask:
            raise self.fail("no cards listed", at, "cards such as SA SK")
        return mask

    def _shapes(self, text: str, at: int) -> FrozenSet[Shape]:
        chosen: set[Shape] = set()
        pos = 0
        sign: Optional[str] = "+"
        pending_any = False
        any_at = 0
        terms = 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                break
            m = _SHAPE_TOKEN.match(text, pos)
            if m is None or m.lastgroup == "space":
                raise self.fail(f"unexpected {text[pos:].split()[0]!r} in the shapes", at + pos,
                                _SHAPE_FORMS)
            kind = m.lastgroup
            if kind == "op":
                if sign is not None or pending_any:
                    raise self.fail(f"{m.group()!r} where a shape belongs", at + pos, _SHAPE_FORMS)
                sign = m.group()
            elif kind == "any":
                if sign is None or pending_any:
                    raise self.fail("'any' where + or - belongs", at + pos, _SHAPE_FORMS)
                pending_any, any_at = True, pos
            else:
                if sign is None:
                    raise self.fail(f"{m.group()!r} where + or - belongs", at + pos, _SHAPE_FORMS)
                pattern = self._pattern(m.group(), kind == "dashed", pending_any, at + pos)
                matching = {s for s in SHAPES if pattern.matches(s)}
                chosen = chosen | matching if sign == "+" else chosen - matching
                sign, pending_any = None, False
                terms += 1
            pos = m.end()
        if pending_any:
            raise self.fail("'any' without a shape", at + any_at, _SHAPE_FORMS)
        if sign is not None:
            raise self.fail("no shape" if not terms else f"{sign!r} without a shape",
                            at + pos, _SHAPE_FORMS)
        if not chosen:
            raise self.fail("the shapes leave no shape a hand can have", at, _SHAPE_FORMS)
        return frozenset(chosen)

    def _pattern(self, word: str, dashed: bool, any_order: bool, at: int) -> ShapePattern:
        items = word.split("-") if dashed else list(word)
        lengths: List[Optional[int]] = []
        offset = 0
        for item in items:
            if item.lower() == "x":
                lengths.append(None)
            else:
                n = int(item)
                if n > MAX_LENGTH:
                    raise self.fail(f"a suit of {n} cards in {word!r}", at + offset,
                                    "suit lengths from 0 to 13 (a hand holds 13 cards)")
                lengths.append(n)
            offset += len(item) + (1 if dashed else 0)
        fixed = sum(n for n in lengths if n is not None)
        if None not in lengths and fixed != TRICKS_PER_HAND:
            raise self.fail(f"{word!r} adds up to {fixed} cards", at,
                            "four lengths adding up to 13 (spades, hearts, diamonds, clubs), "
                            "or x for any length")
        if fixed > TRICKS_PER_HAND:
            raise self.fail(f"{word!r} needs more than 13 cards", at,
                            "lengths adding up to at most 13")
        return ShapePattern(tuple(lengths), any_order)

    # ------------------------------------------------------------ numbers
    def check_range(self, op: str, at: int, left: Node, right: Node) -> None:
        """A number no hand can reach, or a comparison that can never hold,
        is a mistake worth naming (docs/DEAL.md "Impossible numbers")."""
        for number, other in ((right, left), (left, right)):
            if isinstance(number, Number) and not isinstance(other, Number):
                if not other.low <= number.number <= other.high:
                    raise self.fail(
                        f"{number.number:g} is out of reach: {self.source(other)} is "
                        f"{other.low:g} to {other.high:g}", number.start,
                        f"a number from {other.low:g} to {other.high:g}")
        never = {"<": left.low >= right.high, "<=": left.low > right.high,
                 ">": left.high <= right.low, ">=": left.high < right.low,
                 "==": left.high < right.low or left.low > right.high,
                 "!=": left.low == left.high == right.low == right.high}[op]
        if never and not (isinstance(left, Number) and isinstance(right, Number)):
            raise self.fail(
                f"{self.source(left)} {op} {self.source(right)} can never hold: "
                f"{self.source(left)} is {left.low:g} to {left.high:g}"
                + ("" if isinstance(right, Number) else
                   f" and {self.source(right)} {right.low:g} to {right.high:g}"),
                at, "a comparison some deal can satisfy")


def _spanned(node: Node, start: int, end: int) -> Node:
    """``node`` with the span of its parentheses (for messages)."""
    return replace(node, start=start, end=end)


def parse_condition(text: str, table: Table, option: str = "--where") -> Condition:
    """Parse one expression; raises :class:`WhereError`."""
    if len(text) > WHERE_MAX_CHARS:
        raise WhereError(f"the expression is {len(text):,} characters long", text=text,
                         position=WHERE_MAX_CHARS + 1, option=option,
                         expected=f"at most {WHERE_MAX_CHARS:,} characters")
    return Condition(text, table, _Parser(text, table, option).parse())


# ------------------------------------------------------------------- compiling
@dataclass(frozen=True)
class Program:
    """Conditions compiled for the compiled dealer (solver/_dealer.pyx):
    the code, its constants, card masks and shape tables."""

    code: "array[int]"
    consts: "array[float]"
    masks: "array[int]"
    shapes: bytes
    depth: int


class _Emitter:
    def __init__(self, ops: Dict[str, int], shape_table: int) -> None:
        self.ops = ops
        self.shape_entries = shape_table
        self.code: List[int] = []
        self.consts: List[float] = []
        self.masks: List[int] = []
        self.tables: List[bytes] = []
        self.sp = 0
        self.depth = 0

    _EFFECT = {"const": 1, "length": 1, "hcp": 1, "hcp_suit": 1, "qt": 1, "qt_suit": 1,
               "cards": 1, "has": 1, "shape": 1, "neg": 0, "not": 0, "require": -1, "end": 0}

    def op(self, name: str, *args: int) -> None:
        self.code.append(self.ops[name])
        self.code.extend(args)
        self.sp += self._EFFECT.get(name, -1)   # binary operators take two, leave one
        self.depth = max(self.depth, self.sp)

    def jump(self, name: str) -> int:
        """An ``and`` / ``or`` jump whose target is set later; its argument's index."""
        self.code.extend((self.ops[name], -1))
        self.sp -= 1    # falls through having popped; the jump keeps the value
        return len(self.code) - 1

    def const(self, value: float) -> int:
        if value not in self.consts:
            self.consts.append(value)
        return self.consts.index(value)

    def mask(self, mask: int) -> int:
        if mask not in self.masks:
            self.masks.append(mask)
        return self.masks.index(mask)

    def shape_table(self, shapes: FrozenSet[Shape]) -> int:
        table = bytearray(self.shape_entries)
        for s, h, d, _ in shapes:
            table[s * 196 + h * 14 + d] = 1
        if bytes(table) not in self.tables:
            self.tables.append(bytes(table))
        return self.tables.index(bytes(table))


def compile_program(conditions: Sequence[Condition], ops: Dict[str, int],
                    shape_table: int, stack_max: int) -> Program:
    """One program accepting the deals that satisfy every condition, the
    cheapest test first in the order given (each one rejects at once)."""
    out = _Emitter(ops, shape_table)
    for condition in conditions:
        condition.tree.emit(out)
        out.op("require")
    out.op("end")
    if out.depth > stack_max:
        first = conditions[0]
        raise WhereError(f"the expressions need a stack of {out.depth} values", text=first.text,
                         position=1, expected=f"at most {stack_max}: simpler expressions")
    return Program(array("i", out.code), array("d", out.consts), array("Q", out.masks),
                   b"".join(out.tables), out.depth)


__all__ = ["Condition", "Program", "Table", "WhereError", "compile_program", "parse_condition",
           "suit_quick_tricks", "SHAPES"]
