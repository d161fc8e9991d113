"""``--html PATH``: a report as one self-contained HTML page.

The page is built from the very dict the command prints with ``--json``
(the report) and the deal's own JSON (``show --json``: the hands, the
auction, the variant, the running scores), so it cannot say anything the
JSON does not: both are embedded in the page as they are, and drawn for
people by the Jinja2 templates in ``cli/templates/`` (package data). CSS,
script and charts (SVG) are inline; the page's Content-Security-Policy
allows no request at all and runs only its own script (by its hash).

The path is checked before the analysis runs (:func:`html_target`) and the
page is written whole or not at all (:func:`write_page`: a temporary file
beside it, then a rename). docs/REVIEW.md, ADVISE.md, BID.md and SOLVE.md
describe each page.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

import jinja2
from markupsafe import Markup, escape

from dummy_spades.solver.cards import SUIT_LETTERS, SUIT_SYMBOLS
from dummy_spades.solver.deal import Deal

from .common import fail
from .render import bidding_note, interval_text, show_json, table_layout

TEMPLATES = Path(__file__).parent / "templates"

#: The kinds of page: the command whose report it draws.
KINDS = ("review", "advise", "bid", "solve")

_SUIT_OF_LETTER = {letter: i for i, letter in enumerate(SUIT_LETTERS)}
_SUIT_CLASSES = ("spades", "hearts", "diamonds", "clubs")


# ------------------------------------------------------------------ the path
def html_target(path: Optional[Path], source: Optional[Path] = None) -> Optional[Path]:
    """``--html PATH`` checked before any work: refused (exit 1, one message
    naming the option) when it is a directory or something else than a
    regular file, the command's input file ``source``, or its directory does
    not exist or cannot be written."""
    if path is None:
        return None
    expected = "expected a file path in a writable directory (--html)"
    if path.is_dir():
        raise fail(f"{path}: is a directory; {expected}")
    if path.exists() and not path.is_file():
        raise fail(f"{path}: is not a regular file; {expected}")
    if source is not None and path.exists() and source.exists() and path.samefile(source):
        raise fail(f"{path}: is the deal file itself; expected another path for the page "
                   "(--html)")
    home = path.parent
    if not home.is_dir():
        raise fail(f"{path}: cannot write there ({home} is not a directory); {expected}")
    if not os.access(home, os.W_OK | os.X_OK):
        raise fail(f"{path}: cannot write there ({home} is not writable); {expected}")
    return path


def write_page(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a new temporary
    file beside it, then renamed over it. On a failure (a full disk, a
    directory that vanished) the temporary file is removed and the command
    fails naming ``--html``; an older file at ``path`` is left as it was."""
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.partial")
    try:
        with open(temporary, "x", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(temporary, path)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise fail(f"{path}: cannot write the page ({err.strerror or err}); expected a "
                   "writable file path with room for it (--html)")


def write_report(path: Optional[Path], kind: str, report: Mapping[str, Any], deal: Deal) -> None:
    """The page of ``report`` (the command's ``--json`` dict) at ``path``, if given."""
    if path is not None:
        write_page(path, render_page(kind, report, deal))


# ------------------------------------------------------------------ helpers for the templates
def card_html(card: str) -> Markup:
    """``"HA"`` as ``<span class="c hearts">♥A</span>``: the symbol in its colour."""
    suit = _SUIT_OF_LETTER[card[0]]
    rank = "10" if card[1:] == "T" else card[1:]
    return Markup('<span class="c {}"><span class="sym" aria-hidden="true">{}</span>'
                  '<span class="vh">{} </span>{}</span>').format(
        _SUIT_CLASSES[suit], SUIT_SYMBOLS[suit], _SUIT_CLASSES[suit][:-1], rank)


def cards_svg(cards: Sequence[str]) -> Markup:
    """Cards as SVG text: ``<tspan class="red">♥</tspan>A``, separated by spaces."""
    out = []
    for card in cards:
        suit = _SUIT_OF_LETTER[card[0]]
        rank = "10" if card[1:] == "T" else card[1:]
        red = ' class="red"' if _SUIT_CLASSES[suit] in ("hearts", "diamonds") else ""
        out.append(Markup("<tspan{}>{}</tspan>{}").format(Markup(red), SUIT_SYMBOLS[suit], rank))
    return Markup(" ").join(out)


def cards_html(cards: Sequence[str], sep: str = " ") -> Markup:
    """Cards in the given order; ``—`` for none."""
    if not cards:
        return Markup('<span class="dim">—</span>')
    return Markup(sep).join(card_html(c) for c in cards)


def suit_rows(cards: Sequence[str]) -> List[Dict[str, Any]]:
    """A hand as four rows, spades first: ``{suit, symbol, name, cards}``."""
    rows = []
    for suit, letter in enumerate(SUIT_LETTERS):
        rows.append({"suit": _SUIT_CLASSES[suit], "symbol": SUIT_SYMBOLS[suit], "letter": letter,
                     "cards": [{"card": c, "rank": "10" if c[1:] == "T" else c[1:]}
                               for c in cards if c[0] == letter]})
    return rows


def signed(value: Optional[float], digits: int = 0) -> str:
    """``+5``, ``-10``, ``+0.4``; ``—`` for no value."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:+.{digits}f}"


def estimate(e: Optional[Mapping[str, Any]], digits: int = 2, sign: bool = False,
             percent: bool = False) -> str:
    """An estimate ``{value, se, n}`` as ``5.58 ±0.29`` (no ± when exact or
    from one layout); ``percent``: ``62 ±8%``, and a chance at or near 0% or
    100% with its 95% ``interval`` instead, ``100% (≥ 72%, 95%)``, as the
    terminal shows it."""
    if e is None or e.get("value") is None:
        return "—"
    scale = 100.0 if percent else 1.0
    value = float(e["value"]) * scale
    if round(value, digits) == 0:
        value = 0.0                      # no "-0.0"
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    interval = e.get("interval")
    if percent and interval:
        return f"{text}% ({interval_text(*interval)}, 95%)"
    se = e.get("se")
    if se:
        text += f" ±{float(se) * scale:.{digits}f}"
    return text + ("%" if percent else "")


@dataclass(frozen=True)
class Bar:
    """One bar of a chart, in the chart's units: its value and its error bar
    (± one standard error), and its label (HTML for the table, SVG text for
    the chart)."""

    label: Markup
    svg_label: Markup
    value: float
    se: float
    text: str
    highlight: bool = False


@dataclass(frozen=True)
class BarChart:
    """Horizontal bars on one scale from ``low`` to ``high`` (zero inside)."""

    bars: List[Bar]
    low: float
    high: float

    WIDTH = 520
    LABEL = 110
    ROW = 26

    @property
    def height(self) -> int:
        return self.ROW * len(self.bars) + 24

    def x(self, value: float) -> float:
        span = (self.high - self.low) or 1.0
        return round(self.LABEL + (value - self.low) / span * (self.WIDTH - self.LABEL - 100), 1)

    @property
    def ticks(self) -> List[float]:
        return nice_ticks(self.low, self.high)


def nice_ticks(low: float, high: float, count: int = 5) -> List[float]:
    """Round values from ``low`` to ``high`` for an axis."""
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    out = []
    v = first
    while v <= high + 1e-9:
        out.append(round(v, 10))
        v += step
    return out


def bar_chart(bars: Sequence[Bar], low: Optional[float] = None,
              high: Optional[float] = None) -> BarChart:
    """A chart of ``bars`` whose scale holds every bar and error bar, and zero."""
    ends = [b.value - b.se for b in bars] + [b.value + b.se for b in bars] + [0.0]
    lo = min(ends) if low is None else low
    hi = max(ends) if high is None else high
    if hi - lo < 1e-9:
        hi = lo + 1
    return BarChart(list(bars), lo, hi)


def value_of(e: Optional[Mapping[str, Any]]) -> float:
    return 0.0 if e is None or e.get("value") is None else float(e["value"])


def se_of(e: Optional[Mapping[str, Any]]) -> float:
    return 0.0 if e is None or not e.get("se") else float(e["se"])


def estimate_bars(rows: Sequence[Sequence[Any]], digits: int = 2, sign: bool = False,
                  percent: bool = False) -> List[Bar]:
    """Bars of estimates, one per ``(cards or text, estimate, highlight)``."""
    scale = 100.0 if percent else 1.0
    out = []
    for label, e, highlight in rows:
        html, svg = ((cards_html(label), cards_svg(label)) if isinstance(label, list)
                     else (escape(label), escape(label)))
        out.append(Bar(html, svg, value_of(e) * scale, se_of(e) * scale,
                       estimate(e, digits, sign, percent), highlight))
    return out


def script_json(data: Any) -> Markup:
    """``data`` as JSON safe inside a ``<script type="application/json">``."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    for raw, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return Markup(text)


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


# ------------------------------------------------------------------ the page
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(card=card_html, cards=cards_html, signed=signed, est=estimate)
    env.globals.update(suit_rows=suit_rows, estimate_bars=estimate_bars, bar_chart=bar_chart,
                       Bar=Bar, escape=escape, nice_ticks=nice_ticks)
    return env


def render_page(kind: str, report: Mapping[str, Any], deal: Deal) -> str:
    """The page of a ``review``, ``advise``, ``bid`` or ``solve`` report:
    ``report`` is the command's ``--json`` dict, ``deal`` the deal it is about."""
    if kind not in KINDS:
        raise ValueError(f"no page for {kind!r}")
    env = _environment()
    style = (TEMPLATES / "page.css").read_text(encoding="utf-8")
    script = (TEMPLATES / "page.js").read_text(encoding="utf-8")
    table = show_json(deal)
    data = {"command": kind, "report": report, "deal": table}
    csp = ("default-src 'none'; base-uri 'none'; form-action 'none'; "
           f"style-src {_hash(style)}; script-src {_hash(script)}")
    return env.get_template(f"{kind}.html.j2").render(
        kind=kind, report=report, deal=table, layout=table_layout(deal),
        bidding_note=bidding_note(deal), style=Markup(style), script=Markup(script),
        csp=csp, data=script_json(data), data_text=json.dumps(data, ensure_ascii=False, indent=1))
