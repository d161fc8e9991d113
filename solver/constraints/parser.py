"""The parser of the ``--where`` language: :func:`parse_condition`, a
recursive descent over one expression (user text is never evaluated as
Python) that checks types, names and numbers no hand can reach, and says
where each problem is (:class:`~.errors.WhereError`)."""
from __future__ import annotations

import difflib
import re
from dataclasses import replace
from typing import Callable, FrozenSet, List, Optional, Tuple

from ..cards import CardError, parse_card, parse_suit
from ..cards import count as popcount
from ..limits import WHERE_MAX_CHARS, WHERE_MAX_DEPTH
from ..scoring import TRICKS_PER_HAND
from .errors import WhereError
from .hands import MAX_LENGTH, SHAPES, Shape, ShapePattern, Table
from .tokens import (FUNCTION_FORMS, FUNCTIONS, KEYWORDS, QUOTES, SHAPE_FORMS, SHAPE_TOKEN,
                     SUIT_FORMS, SUIT_FUNCTIONS, TOKEN, Token)
from .tree import (COMPARE, Arithmetic, Boolean, CardCount, Comparison, Condition, Hcp, Holds,
                   Length, Logic, Negative, Node, Not, Number, QuickTricks, ShapeIs)


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

    def _scan(self) -> Token:
        while True:
            if self.pos >= len(self.text):
                return Token("end", "", self.pos, self.pos)
            m = TOKEN.match(self.text, self.pos)
            if m is None:
                raise self.fail(f"unexpected character {self.text[self.pos]!r}", self.pos,
                                "a condition such as spades(Carol) >= 5 (docs/DEAL.md)")
            self.pos = m.end()
            kind = m.lastgroup or ""
            if kind != "space":
                return Token(kind, m.group(), m.start(), m.end())

    def advance(self) -> Token:
        token = self.token
        self.token = self._scan()
        return token

    def word(self) -> str:
        """The current token as an operator or keyword (``and``, ``<=``...)."""
        t = self.token
        if t.kind == "op":
            return KEYWORDS.get(t.text, "==" if t.text == "=" else t.text)
        if t.kind == "name" and t.text.lower() in ("and", "or", "not"):
            return t.text.lower()
        return ""

    def describe(self, t: Token) -> str:
        return "the end" if t.kind == "end" else repr(t.text)

    def expect(self, text: str, what: str) -> Token:
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
        if self.word() not in COMPARE:
            return first
        terms = [self.number(first)]
        ops: List[Tuple[str, int]] = []
        while self.word() in COMPARE:
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
                            f"a number or {FUNCTION_FORMS}")
        finally:
            self.depth -= 1

    # ------------------------------------------------------------ functions
    def call(self) -> Node:
        name_token = self.token
        name = name_token.text.lower()
        if name not in FUNCTIONS:
            if self.table.index(name_token.text) is not None:
                raise self.fail(f"{name_token.text!r} is a hand, not a number or a condition",
                                name_token.start, FUNCTION_FORMS)
            close = difflib.get_close_matches(name, list(FUNCTIONS), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise self.fail(f"unknown function {name_token.text!r}{hint}", name_token.start,
                            FUNCTION_FORMS)
        # the arguments are read from the text itself: names, suits, cards, shapes
        at = self._skip_space(name_token.end)
        if at >= len(self.text) or self.text[at] != "(":
            raise self.fail(f"{name_token.text} without '('", at,
                            f"{name_token.text}(P), P a hand: {self.table.choices()}")
        hand, at = self._hand(at + 1, name_token.text)
        kind, optional = FUNCTIONS[name]
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
                            {"suit": SUIT_FORMS, "cards": "cards such as SA SK",
                             "shapes": SHAPE_FORMS}[kind])
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
        if at < len(self.text) and self.text[at] in QUOTES:
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

    def _rest(self, at: int, name_token: Token) -> Tuple[Tuple[str, int], int]:
        close = self.text.find(")", at)
        if close < 0:
            raise self.fail(f"{name_token.text}( is not closed", name_token.start,
                            "')' after the arguments")
        at = self._skip_space(at)
        return (self.text[at:close], at), close + 1

    def _function(self, name: str, start: int, end: int, hand: int,
                  argument: Optional[Tuple[str, int]]) -> Node:
        if name in SUIT_FUNCTIONS:
            return Length(start, end, hand, SUIT_FUNCTIONS[name])
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
            raise self.fail(f"unknown suit {word!r}", at, SUIT_FORMS) from None

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
            m = SHAPE_TOKEN.match(text, pos)
            if m is None or m.lastgroup == "space":
                raise self.fail(f"unexpected {text[pos:].split()[0]!r} in the shapes", at + pos,
                                SHAPE_FORMS)
            kind = m.lastgroup
            if kind == "op":
                if sign is not None or pending_any:
                    raise self.fail(f"{m.group()!r} where a shape belongs", at + pos, SHAPE_FORMS)
                sign = m.group()
            elif kind == "any":
                if sign is None or pending_any:
                    raise self.fail("'any' where + or - belongs", at + pos, SHAPE_FORMS)
                pending_any, any_at = True, pos
            else:
                if sign is None:
                    raise self.fail(f"{m.group()!r} where + or - belongs", at + pos, SHAPE_FORMS)
                pattern = self._pattern(m.group(), kind == "dashed", pending_any, at + pos)
                matching = {s for s in SHAPES if pattern.matches(s)}
                chosen = chosen | matching if sign == "+" else chosen - matching
                sign, pending_any = None, False
                terms += 1
            pos = m.end()
        if pending_any:
            raise self.fail("'any' without a shape", at + any_at, SHAPE_FORMS)
        if sign is not None:
            raise self.fail("no shape" if not terms else f"{sign!r} without a shape",
                            at + pos, SHAPE_FORMS)
        if not chosen:
            raise self.fail("the shapes leave no shape a hand can have", at, SHAPE_FORMS)
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



__all__ = ["parse_condition"]
