"""Deal files: load, validate and write the YAML deal format (README.md
"Deal files"), and import/export PBN deal strings (see :mod:`solver.deal`).

Loading composes the YAML node tree (so every field's line is known), reads
it into a :class:`~solver.deal.Deal` and turns any problem into one
:class:`~solver.errors.DealFileError` naming the file, the field path (such
as ``hands.Alice`` or ``auction[2].nil``), the line and what was expected.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypeVar, Union

import yaml

from .auction import Auction, Bid
from .cards import (CardError, cards_mask, format_card, format_hand, iter_cards, parse_card,
                    parse_hand, parse_suit, parse_suit_holding)
from .deal import Deal
from .errors import DealError, DealFileError
from .files import InputFileError, line_of, read_capped
from .frozen_map import FrozenMap
from .limits import DEAL_FILE_MAX_BYTES, YAML_MAX_DEPTH, YAML_MAX_NODES
from .rules import DEFAULT_DEAL_RULES, Rules
from .scoring import DEFAULT_RULES, ScoringError, ScoringRules, Standing
from .seating import check_table, has_control_characters
from .variant import VARIANT_FORMS, Variant

T = TypeVar("T")

TOP_KEYS = ("title", "notes", "players", "dealer", "hands", "auction", "played", "rules",
            "scores", "variant")
REQUIRED_KEYS = ("players", "dealer", "hands")
RULE_KEYS = {"spade_breaking": "breaking", "bag_threshold": "bag_threshold",
             "bag_penalty": "bag_penalty", "target": "target", "nil_value": "nil_value"}
HAND_FORMS = ("PBN dot notation spades first (AKT73.QJ2.984.A52), a list of cards, "
              "or per-suit fields spades/hearts/diamonds/clubs")
_INT = re.compile(r"[+-]?\d+")
_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")


class _Context:
    """The file being read and the line of every field path met so far."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.lines: Dict[str, int] = {}

    def line_of(self, path: Optional[str]) -> Optional[int]:
        """The line of ``path`` or of its nearest enclosing field."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path) if re.search(r"[.\[]", path) else ""
        return self.lines.get("")

    def error(self, err: DealError) -> DealFileError:
        return DealFileError.from_error(err, self.file, self.line_of(err.field))


class _Field:
    """A YAML node at a field path; its readers raise located errors."""

    def __init__(self, node: yaml.Node, path: str, ctx: _Context) -> None:
        self.node, self.path, self.ctx = node, path, ctx
        ctx.lines.setdefault(path, node.start_mark.line + 1)

    @property
    def line(self) -> int:
        return self.node.start_mark.line + 1

    def fail(self, problem: str, expected: Optional[str] = None) -> DealFileError:
        return DealFileError(problem, field=self.path or None, expected=expected,
                             file=self.ctx.file, line=self.line)

    def child(self, node: yaml.Node, key: Union[str, int]) -> "_Field":
        if isinstance(key, int):
            return _Field(node, f"{self.path}[{key}]", self.ctx)
        return _Field(node, f"{self.path}.{key}" if self.path else key, self.ctx)

    def _shown(self) -> str:
        if isinstance(self.node, yaml.ScalarNode):
            return repr(self.node.value)
        return "a list" if isinstance(self.node, yaml.SequenceNode) else "a mapping"

    def mapping(self, expected: str) -> Dict[str, "_Field"]:
        if not isinstance(self.node, yaml.MappingNode):
            raise self.fail(f"{self._shown()} is not a mapping", expected)
        out: Dict[str, _Field] = {}
        for key_node, value_node in self.node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Field(key_node, self.path, self.ctx).fail("a key is not plain text", expected)
            key = key_node.value
            if key in out:
                raise self.child(key_node, key).fail(f"{key!r} is given twice", "each key once")
            out[key] = self.child(value_node, key)
            if key_node.start_mark.line != value_node.start_mark.line:
                self.ctx.lines[out[key].path] = key_node.start_mark.line + 1
        return out

    def sequence(self, expected: str) -> List["_Field"]:
        if not isinstance(self.node, yaml.SequenceNode):
            raise self.fail(f"{self._shown()} is not a list", expected)
        return [self.child(n, i) for i, n in enumerate(self.node.value)]

    def text(self, expected: str) -> str:
        if isinstance(self.node, yaml.ScalarNode) and not _is_null_node(self.node):
            value: str = self.node.value
            return value
        raise self.fail(f"{'nothing' if _is_null_node(self.node) else self._shown()} given", expected)

    def words(self, expected: str) -> List[str]:
        """A scalar split on spaces and commas, or a list of scalars."""
        if isinstance(self.node, yaml.SequenceNode):
            return [w for item in self.sequence(expected) for w in item.words(expected)]
        return [w for w in re.split(r"[\s,]+", self.text(expected)) if w]

    def integer(self, expected: str) -> int:
        value = self.text(expected)
        if not _INT.fullmatch(value.strip()):
            raise self.fail(f"{value!r} is not a whole number", expected)
        return int(value)

    def boolean(self, expected: str) -> bool:
        value = self.text(expected).strip().lower()
        if value in _TRUE or value in _FALSE:
            return value in _TRUE
        raise self.fail(f"{value!r} is not true or false", expected)

    def parsed(self, parse: Callable[[str], T], expected: str) -> T:
        """``parse(text)`` with its errors located here."""
        text = self.text(expected)
        return self.attempt(lambda: parse(text))

    def attempt(self, func: Callable[[], T]) -> T:
        """``func()`` with its CardError / DealError located at this field."""
        try:
            return func()
        except DealError as err:  # CardError included
            raise DealFileError.from_error(err.relocated(field=self.path), self.ctx.file, self.line) from None


def _unknown_key(f: _Field, key: str, allowed: Sequence[str]) -> DealFileError:
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f.fail(f"unknown key {key!r}{hint}", f"one of {', '.join(allowed)}")


def _known_keys(f: _Field, fields: Dict[str, _Field], allowed: Sequence[str]) -> None:
    for key, sub in fields.items():
        if key not in allowed:
            raise _unknown_key(sub, key, allowed)


# ------------------------------------------------------------------ reading
def _read_hand(f: _Field) -> int:
    if isinstance(f.node, yaml.MappingNode):
        mask = 0
        seen: Dict[int, str] = {}
        for key, sub in f.mapping(HAND_FORMS).items():
            try:
                suit = parse_suit(key)
            except CardError:
                raise _unknown_key(sub, key, ("spades", "hearts", "diamonds", "clubs",
                                              "S", "H", "D", "C", "♠", "♥", "♦", "♣")) from None
            if suit in seen:
                raise sub.fail(f"{key!r} repeats the suit of {seen[suit]!r}", "each suit once")
            seen[suit] = key
            holding = "" if _is_null_node(sub.node) else " ".join(sub.words("the ranks held in the suit, e.g. AKT73, or - for a void"))
            mask |= sub.attempt(lambda: parse_suit_holding(holding, suit))
        return mask
    if isinstance(f.node, yaml.SequenceNode):
        return _cards(f, f.words(HAND_FORMS))
    text = f.text(HAND_FORMS)
    if "." in text:
        return f.parsed(parse_hand, HAND_FORMS)
    return _cards(f, f.words(HAND_FORMS))


def _cards(f: _Field, words: Sequence[str]) -> int:
    cards = [f.attempt(lambda: parse_card(w)) for w in words]
    for i, card in enumerate(cards):
        if card in cards[:i]:
            raise f.fail(f"{format_card(card)} is listed twice", "each card once")
    return cards_mask(cards)


def _read_bid(f: _Field) -> Bid:
    expected = "a bid such as {player: Alice, bid: 5, nil: [dummy]} or {Alice: 5}"
    fields = f.mapping(expected)
    if "player" in fields or "bid" in fields:
        _known_keys(f, fields, ("player", "bid", "nil", "nils"))
        for key in ("player", "bid"):
            if key not in fields:
                raise f.fail(f"no {key!r}", expected)
        player = fields["player"].text("the bidder's name")
        tricks_field = fields["bid"]
        nil_field = fields.get("nil") or fields.get("nils")
    elif len(fields) == 1:
        (player, tricks_field), = fields.items()
        nil_field = None
    else:
        raise f.fail("a bid needs 'player' and 'bid'", expected)
    nils: List[str] = []
    if nil_field is not None:
        nils = nil_field.words("the hands declared nil: player names, dummy or self")
    if isinstance(tricks_field.node, yaml.ScalarNode) and not _INT.fullmatch(tricks_field.node.value.strip()):
        bid = tricks_field.parsed(lambda t: Bid.parse(player, t), "a number of tricks 0-13")
        return Bid(player, bid.tricks, bid.nils + tuple(nils))
    try:
        return Bid(player, tricks_field.integer("a number of tricks 0-13"), tuple(nils))
    except DealError as err:
        raise f.ctx.error(err.within(f.path)) from None


def _read_played(f: _Field) -> Tuple[List[int], List[str]]:
    """The played cards and, for each, the path of the list item it came from."""
    expected = "cards in the order played, e.g. one trick per item: - C2 CA C5 CK"
    items = f.sequence(expected) if isinstance(f.node, yaml.SequenceNode) else [f]
    cards: List[int] = []
    paths: List[str] = []
    for item in items:
        for word in item.words(expected):
            cards.append(item.attempt(lambda: parse_card(word)))
            paths.append(item.path)
    return cards, paths


def _read_rules(f: _Field) -> Rules:
    fields = f.mapping("rule settings: " + ", ".join(RULE_KEYS))
    _known_keys(f, fields, tuple(RULE_KEYS))
    breaking = DEFAULT_DEAL_RULES.breaking
    scoring = {}
    for key, sub in fields.items():
        if key == "spade_breaking":
            breaking = sub.boolean("true or false")
        else:
            scoring[RULE_KEYS[key]] = sub.integer("a whole number")
    try:
        return Rules(breaking, ScoringRules(**{**DEFAULT_RULES.__dict__, **scoring}))
    except ScoringError as err:
        raise f.ctx.error(err.within("rules")) from None


def _read_scores(f: _Field) -> Dict[str, Standing]:
    out = {}
    expected = "points, or {points: N, bags: N}"
    for name, sub in f.mapping("each player's running score: {points: N, bags: N}").items():
        if isinstance(sub.node, yaml.MappingNode):
            fields = sub.mapping(expected)
            _known_keys(sub, fields, ("points", "bags"))
            points = fields["points"].integer("a whole number of points") if "points" in fields else 0
            bags = fields["bags"].integer("a number of bags") if "bags" in fields else 0
            out[name] = Standing(points, bags)
        else:
            out[name] = Standing(sub.integer(expected), 0)
    return out


def _variant_text(f: _Field) -> str:
    """A variant name, or a list of names to combine (``[suicide, flip-2]``)."""
    if isinstance(f.node, yaml.SequenceNode):
        return " + ".join(item.text(VARIANT_FORMS) for item in f.sequence(VARIANT_FORMS))
    return f.text(VARIANT_FORMS)


def _read_variant(f: _Field) -> Variant:
    expected = VARIANT_FORMS
    if isinstance(f.node, (yaml.ScalarNode, yaml.SequenceNode)):
        text = _variant_text(f)
        return f.attempt(lambda: Variant(text))
    fields = f.mapping("a variant name, or {name: suicide + flip-2, seen: {Alice: [HK, C2]}}")
    _known_keys(f, fields, ("name", "seen"))
    if "name" not in fields:
        raise f.fail("no 'name'", expected)
    name = _variant_text(fields["name"])
    variant = fields["name"].attempt(lambda: Variant(name))
    seen = {}
    if "seen" in fields:
        for player, sub in fields["seen"].mapping("the dummy cards each player saw: {Alice: [HK, C2]}").items():
            seen[player] = _cards(sub, sub.words("dummy cards such as HK C2"))
    return Variant(variant.name, FrozenMap(seen), variant.bidding)


def _shown_text(f: _Field, expected: str, allowed: str = "") -> str:
    """A text shown on terminals: no control characters but ``allowed``."""
    text = f.text(expected)
    if has_control_characters("".join(c for c in text if c not in allowed)):
        raise f.fail("the text holds control characters", expected)
    return text


def _build(top: _Field) -> Deal:
    ctx = top.ctx
    fields = top.mapping("a deal: a mapping with keys " + ", ".join(TOP_KEYS))
    _known_keys(top, fields, TOP_KEYS)
    for key in REQUIRED_KEYS:
        if key not in fields:
            raise DealFileError(f"no {key!r}", field=key, file=ctx.file, line=top.line,
                                expected={"players": "the three real players, clockwise",
                                          "dealer": "the dealer's name",
                                          "hands": "the four hands (each player and dummy)"}[key])
    players = tuple(p.text("a player's name") for p in
                    fields["players"].sequence("a list of the three real players, clockwise"))
    dealer = fields["dealer"].text("the dealer's name")
    hands = {name: _read_hand(sub) for name, sub in
             fields["hands"].mapping("one hand per player name plus dummy").items()}
    kwargs: Dict[str, Any] = {}
    played_paths: List[str] = []
    if "title" in fields:
        kwargs["title"] = _shown_text(fields["title"], "a one-line title of printable characters")
    if "notes" in fields:
        kwargs["notes"] = _shown_text(fields["notes"], "free text (printable characters, "
                                                       "newlines and tabs)", "\n\t")
    try:
        if "rules" in fields:
            kwargs["rules"] = _read_rules(fields["rules"])
        if "scores" in fields:
            kwargs["scores"] = _read_scores(fields["scores"])
        if "variant" in fields:
            kwargs["variant"] = _read_variant(fields["variant"])
        if "auction" in fields and not _is_null_node(fields["auction"].node):
            items = fields["auction"].sequence("a list of bids in bidding order")
            bids = tuple(_read_bid(b) for b in items)
            kwargs["auction"] = Auction(check_table(players, dealer), dealer, bids)
        if "played" in fields and not _is_null_node(fields["played"].node):
            kwargs["played"], played_paths = _read_played(fields["played"])
        return Deal(check_table(players, dealer), dealer, FrozenMap(hands), **kwargs)
    except DealFileError:
        raise
    except DealError as err:
        m = re.fullmatch(r"played\[(\d+)\]", err.field or "")
        if m and played_paths:
            err = err.relocated(field=played_paths[int(m.group(1))])
        raise ctx.error(err) from None


def _is_null_node(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")


class _DealLoader(yaml.SafeLoader):
    """PyYAML's safe loader within the deal-file limits: no aliases (deal
    files have no use for them, and they let a small file expand without
    bound), at most ``YAML_MAX_DEPTH`` levels of nesting and at most
    ``YAML_MAX_NODES`` values. Each limit is checked as the node tree is
    built, so a refusal costs no more than the limit."""

    def __init__(self, text: str, filename: str) -> None:
        super().__init__(text)
        self.filename = filename
        self.depth = 0
        self.nodes = 0

    def _refuse(self, problem: str, mark: Any, expected: str) -> DealFileError:
        return DealFileError(problem, file=self.filename,
                             line=mark.line + 1 if mark is not None else None, expected=expected)

    def compose_node(self, parent: Optional[yaml.Node], index: int) -> Optional[yaml.Node]:
        event = self.peek_event()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it untyped
        if isinstance(event, yaml.AliasEvent):
            raise self._refuse(f"a YAML alias (*{event.anchor})", event.start_mark,
                               "each value written out: deal files take no anchors or aliases")
        self.nodes += 1
        if self.nodes > YAML_MAX_NODES:
            raise self._refuse(f"more than {YAML_MAX_NODES:,} YAML values (the limit)",
                               event.start_mark, "a deal as described in docs/FORMAT.md")
        self.depth += 1
        try:
            if self.depth > YAML_MAX_DEPTH:
                raise self._refuse(f"lists and mappings nested more than {YAML_MAX_DEPTH} "
                                   "deep (the limit)", event.start_mark,
                                   "a deal as described in docs/FORMAT.md")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_MALFORMED = "a YAML mapping (see the deal-file format in docs/FORMAT.md)"


def _compose(text: str, filename: str) -> Optional[yaml.Node]:
    loader = None
    try:
        loader = _DealLoader(text, filename)  # checks every character first
        return loader.get_single_node()
    except yaml.reader.ReaderError as err:  # a character YAML does not allow (NUL...)
        char = f"U+{err.character:04X}" if isinstance(err.character, int) else repr(err.character)
        raise DealFileError(f"the character {char} is not allowed in YAML", file=filename,
                            line=line_of(text, err.position), expected="text") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        raise DealFileError(f"malformed YAML: {err.problem or err.context}", file=filename,
                            line=mark.line + 1 if mark else None, expected=_MALFORMED) from None
    except yaml.YAMLError as err:
        raise DealFileError(f"malformed YAML: {err}", file=filename, expected=_MALFORMED) from None
    finally:
        if loader is not None:
            loader.dispose()


def loads_deal(text: str, filename: str = "<deal>") -> Deal:
    """Read a deal from YAML text; errors name ``filename``."""
    node = _compose(text, filename)
    if node is None:
        raise DealFileError("the file is empty", file=filename, line=1,
                            expected="a deal with keys players, dealer and hands")
    return _build(_Field(node, "", _Context(filename)))


def load_deal(path: Union[str, Path]) -> Deal:
    """Read and validate a deal file (a regular file of at most
    ``DEAL_FILE_MAX_BYTES``, UTF-8 YAML)."""
    name = str(path)
    expected = "a YAML deal file"
    try:
        data = read_capped(path, DEAL_FILE_MAX_BYTES, expected)
    except InputFileError as err:
        raise DealFileError(err.problem, file=name, expected=err.expected) from None
    except OSError as err:
        raise DealFileError(f"cannot read the file ({err.strerror or err})", file=name,
                            expected="a readable YAML deal file") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DealFileError("the file is not UTF-8 text", file=name,
                            line=line_of(data, err.start), expected=expected) from None
    return loads_deal(text, name)


# ------------------------------------------------------------------ writing
def _scalar(value: object) -> str:
    """``value`` as a one-line YAML scalar, quoted only when needed."""
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10_000)
    return text.strip().removesuffix("...").strip()


def dump_deal(deal: Deal) -> str:
    """The deal as YAML in the documented format (``loads_deal`` reads it back equal)."""
    out: List[str] = []
    if deal.title:
        out.append(f"title: {_scalar(deal.title)}")
    if deal.notes:
        if "\n" in deal.notes.strip():
            out.append("notes: |")
            out.extend(f"  {line}".rstrip() for line in deal.notes.rstrip("\n").split("\n"))
        else:
            out.append(f"notes: {_scalar(deal.notes)}")
    out.append(f"players: [{', '.join(_scalar(p) for p in deal.players)}]   # clockwise")
    out.append(f"dealer: {_scalar(deal.dealer)}")
    out.append("hands:                # PBN dot notation, spades.hearts.diamonds.clubs")
    out.extend(f"  {_scalar(name)}: {_scalar(format_hand(mask))}" for name, mask in deal.hands.items())
    if deal.auction is not None:
        out.append("auction:              # in bidding order")
        for bid in deal.auction.bids:
            nil = f", nil: [{', '.join(_scalar(h) for h in bid.nils)}]" if bid.nils else ""
            out.append(f"  - {{player: {_scalar(bid.player)}, bid: {bid.tricks}{nil}}}")
    if deal.played:
        out.append("played:               # one trick per line, in the order played")
        for i in range(0, len(deal.played), 4):
            out.append("  - " + " ".join(format_card(c) for c in deal.played[i:i + 4]))
    if deal.rules != DEFAULT_DEAL_RULES:
        r = deal.rules
        out.append("rules:")
        out.append(f"  spade_breaking: {'true' if r.breaking else 'false'}")
        out.extend(f"  {key}: {getattr(r.scoring, attr)}" for key, attr in RULE_KEYS.items()
                   if attr != "breaking")
    if deal.scores is not None:
        out.append("scores:")
        out.extend(f"  {_scalar(p)}: {{points: {s.points}, bags: {s.bags}}}" for p, s in deal.scores.items())
    if deal.variant != Variant():
        v = deal.variant
        if v.seen:
            out.append("variant:")
            out.append(f"  name: {v.label}")
            out.append("  seen:")
            out.extend(f"    {_scalar(p)}: [{', '.join(format_card(c) for c in iter_cards(m))}]"
                       for p, m in v.seen.items())
        else:
            out.append(f"variant: {v.label}")
    return "\n".join(out) + "\n"


__all__ = ["load_deal", "loads_deal", "dump_deal", "DealFileError"]
