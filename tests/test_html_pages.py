"""The ``--html`` pages without a browser: what a page holds (the report's
JSON as the command prints it, the 52 cards, a step per card, the final
score line), its policy (no request, only its own script), escaping of
hostile names, the path refused before the analysis runs, and the page
written whole or not at all. tests/test_html_browser.py opens the pages in
Chromium."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pytest
from typer.testing import CliRunner

from dummy_spades.cli import page as page_module
from dummy_spades.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"

HOSTILE = "<script>alert(1)</script>"
HOSTILE_DEAL = """\
title: "</script><script>alert(2)</script> & co"
players: ["<script>alert(1)</script>", "Bob & 'Co'", "\\"Carol\\""]
dealer: "\\"Carol\\""
hands:
  "<script>alert(1)</script>": A.AQT94.82.KT932
  "Bob & 'Co'": T986.K52.Q764.J4
  "\\"Carol\\"": KJ74.J8.AKJ5.AQ6
  dummy: Q532.763.T93.875
auction:
  - {player: "<script>alert(1)</script>", bid: 5}
  - {player: "Bob & 'Co'", bid: 6, nil: ["<script>alert(1)</script>"]}
  - {player: "\\"Carol\\"", bid: 7}
played:
  - HA H3 H2 H8
  - HQ H6 H5 HJ
"""


class Page(HTMLParser):
    """The elements of a page that the tests look at."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: List[Tuple[str, Dict[str, Optional[str]]]] = []
        self.scripts: List[Tuple[Dict[str, Optional[str]], str]] = []
        self.ids: Dict[str, str] = {}
        self._script: Optional[Dict[str, Optional[str]]] = None
        self._text: List[str] = []
        self._open_id: List[Optional[str]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "script":
            self._script, self._text = a, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._text)))
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._text.append(data)

    def with_class(self, name: str) -> List[Dict[str, Optional[str]]]:
        return [a for _, a in self.tags if name in (a.get("class") or "").split()]


def text_of(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (no nested element of the same tag)."""
    match = re.search(rf'<(\w+) id="{element_id}">(.*?)</\1>', html, re.S)
    assert match, element_id
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", match.group(2))).strip()


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def bag_penalty(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Dict[str, Any], str]:
    out = tmp_path_factory.mktemp("page") / "review.html"
    result = run("review", str(HANDS / "bag-penalty.yaml"), "--json", "--html", str(out))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out.read_text(encoding="utf-8")


def test_the_review_page_carries_the_json_of_the_same_run(bag_penalty):
    report, html = bag_penalty
    page = Page(html)
    data = [body for attrs, body in page.scripts if attrs.get("id") == "page-data"]
    assert len(data) == 1
    embedded = json.loads(data[0])
    assert embedded["command"] == "review" and embedded["report"] == report
    assert embedded["deal"]["hands"]["Bob"][:3] == ["SA", "SQ", "S6"]


def test_the_review_page_shows_every_card_and_a_step_for_each(bag_penalty):
    report, html = bag_penalty
    page = Page(html)
    cards = [a["data-card"] for a in page.with_class("card")]
    assert len(cards) == 52 and len(set(cards)) == 52
    steps = [int(a["data-step"] or -1) for a in page.with_class("step")]
    assert steps == list(range(53))
    assert len(page.with_class("slot")) == 4
    line = " · ".join(f"{p['player']} {p['points']:+d}" for p in report["final"]["players"])
    assert text_of(html, "final-score") == line
    rows = [a for t, a in page.tags if t == "tr" and (a.get("id") or "").startswith("card-")]
    assert len(rows) == 52


def test_the_page_asks_for_nothing_and_runs_only_its_own_script(bag_penalty):
    _, html = bag_penalty
    page = Page(html)
    policy = [a["content"] for t, a in page.tags
              if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert len(policy) == 1 and policy[0].startswith("default-src 'none';")
    code = [body for attrs, body in page.scripts if "type" not in attrs]
    assert len(code) == 1
    digest = base64.b64encode(hashlib.sha256(code[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy[0]
    assert not [a for _, a in page.tags if "src" in a]
    assert all((a.get("href") or "#").startswith("#") for _, a in page.tags)
    assert "http://" not in html and "https://" not in html


def test_hostile_names_are_escaped(tmp_path):
    deal = tmp_path / "hostile.yaml"
    deal.write_text(HOSTILE_DEAL, encoding="utf-8")
    out = tmp_path / "hostile.html"
    result = run("review", str(deal), "--json", "--html", str(out))
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert HOSTILE not in html and "</script><script>alert(2)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = Page(html)
    assert len(page.scripts) == 2
    data = json.loads(next(body for attrs, body in page.scripts if attrs.get("id") == "page-data"))
    assert data["report"] == json.loads(result.stdout)
    assert data["report"]["declarer"] == '"Carol"' and HOSTILE in data["deal"]["players"]


def test_a_path_that_cannot_be_written_is_refused_before_the_analysis(tmp_path, monkeypatch):
    def no_analysis(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the analysis ran")
    monkeypatch.setattr("dummy_spades.cli.review.review", no_analysis)
    deal = tmp_path / "deal.yaml"
    deal.write_bytes((HANDS / "bag-penalty.yaml").read_bytes())
    for target in (tmp_path / "missing" / "r.html", tmp_path, deal):
        result = run("review", str(deal), "--single-dummy", "--html", str(target))
        assert result.exit_code == 1, result.output
        message = result.stderr.strip()
        assert message.startswith(f"error: {target}") and message.endswith("(--html)")
        assert len(message.splitlines()) == 1 and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deal.yaml"]
    assert deal.read_bytes() == (HANDS / "bag-penalty.yaml").read_bytes()


def test_the_page_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    target = tmp_path / "r.html"
    target.write_text("the older page", encoding="utf-8")

    def full_disk(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(page_module.os, "replace", full_disk)
    result = run("review", str(HANDS / "mid-play.yaml"), "--html", str(target))
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr and "(--html)" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]
    assert target.read_text(encoding="utf-8") == "the older page"
    monkeypatch.undo()
    result = run("review", str(HANDS / "mid-play.yaml"), "--html", str(target))
    assert result.exit_code == 0
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_the_templates_are_package_data():
    """A non-editable install has the templates: pyproject ships cli/templates/*."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"dummy_spades.cli" = ["templates/*"]' in text
    names = {p.name for p in page_module.TEMPLATES.iterdir()}
    assert {"base.html.j2", "macros.html.j2", "review.html.j2", "page.css", "page.js"} <= names
    for name in names:
        assert "http://" not in (page_module.TEMPLATES / name).read_text(encoding="utf-8")


def page_data(html: str) -> Dict[str, Any]:
    return json.loads(next(body for attrs, body in Page(html).scripts
                           if attrs.get("id") == "page-data"))


def test_the_advise_page_draws_each_card_as_bars_and_in_a_table(tmp_path):
    out = tmp_path / "advise.html"
    result = run("advise", str(HANDS / "mid-play.yaml"), "--json", "--jobs", "1", "--html",
                 str(out))
    assert result.exit_code == 0, result.output
    report, html = json.loads(result.stdout), out.read_text(encoding="utf-8")
    assert page_data(html)["report"] == report
    page = Page(html)
    assert len([a for t, a in page.tags if t == "svg"]) == 2       # tricks, score
    assert len(page.with_class("bar")) == 2 * len(report["cards"])
    assert len(page.with_class("card")) == 52 - 4 * report["position"]["tricks_played"] \
        - len(report["position"]["on_table"])
    assert all(a.get("aria-describedby") == "cards-table" for t, a in page.tags if t == "svg")
    for card in report["cards"]:                          # the figures of the bars
        assert f"{card['tricks']['value']:.2f}" in html
        assert f"{card['score']['value']:+.1f}" in html
    assert report["honesty"] in html


def test_the_bid_page_draws_the_roles_and_the_best_bids(tmp_path):
    out = tmp_path / "bid.html"
    result = run("bid", str(HANDS / "three-peeky.yaml"), "--player", "Carol", "--samples", "12",
                 "--jobs", "1", "--json", "--html", str(out))
    assert result.exit_code == 0, result.output
    report, html = json.loads(result.stdout), out.read_text(encoding="utf-8")
    assert page_data(html)["report"] == report
    page = Page(html)
    histograms = len(report["roles"])
    best = min(8, len(report["candidates"]))
    assert len([a for t, a in page.tags if t == "svg"]) == histograms + 2
    assert len(page.with_class("bar")) == 14 * histograms + 2 * best
    assert len(page.with_class("err")) >= histograms     # the means; the error bars
    assert report["honesty"] in html and f"Recommended: {report['recommended']['call']}" in html


def test_the_bid_page_of_every_player(tmp_path):
    out = tmp_path / "all.html"
    result = run("bid", str(HANDS / "worked-example.yaml"), "--all", "--samples", "6",
                 "--jobs", "1", "--json", "--html", str(out))
    assert result.exit_code == 0, result.output
    report, html = json.loads(result.stdout), out.read_text(encoding="utf-8")
    assert page_data(html)["report"] == report
    for i, check in enumerate(report["players"], 1):
        assert f"<h2 id=\"h-p{i}\">{check['player']}'s bid" in html


def test_hostile_names_are_escaped_on_every_page(tmp_path):
    deal = tmp_path / "hostile.yaml"
    deal.write_text(HOSTILE_DEAL.split("played:")[0], encoding="utf-8")
    for args in (["bid", str(deal), "--player", HOSTILE, "--samples", "4", "--jobs", "1"],
                 ["advise", str(deal), "--samples", "4", "--jobs", "1"],
                 ["solve", str(deal)]):
        out = tmp_path / f"{args[0]}.html"
        result = run(*args, "--html", str(out))
        assert result.exit_code == 0, result.output
        html = out.read_text(encoding="utf-8")
        assert HOSTILE not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert len(Page(html).scripts) == 2


@pytest.mark.parametrize("command", ["advise", "bid", "solve"])
def test_advise_bid_and_solve_refuse_the_path_before_the_analysis(command, tmp_path):
    target = tmp_path / "missing" / "page.html"
    result = run(command, str(HANDS / "three-peeky.yaml" if command == "bid"
                              else HANDS / "mid-play.yaml"), "--html", str(target))
    assert result.exit_code == 1 and result.stderr.strip().endswith("(--html)")
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("deal", ["mid-play", "bag-penalty", "nil-bets"])
def test_the_solve_page_shows_the_result_and_the_table(deal, tmp_path):
    out = tmp_path / "solve.html"
    result = run("solve", str(HANDS / f"{deal}.yaml"), "--json", "--html", str(out))
    assert result.exit_code == 0, result.output
    report, html = json.loads(result.stdout), out.read_text(encoding="utf-8")
    assert page_data(html)["report"] == report
    page = Page(html)
    shown = page_data(html)["deal"]["remaining"]
    assert len(page.with_class("card")) == sum(len(cards) for cards in shown.values())
    assert len(page.with_class("bar")) == len(report["table"])
    for row in report["table"]:
        assert f'<th scope="row">{row["declarer"]}</th>' in html
    ends = [r for r in (report["contract"], report["opening"], report["actual"]) if r]
    for player in ends[0]["players"]:
        assert f"<strong>{player['points']:+d}</strong>" in html


def test_a_sampled_chance_at_100_percent_shows_its_interval_as_the_terminal_does():
    from dummy_spades.cli import page, render
    from dummy_spades.solver.simulation.estimates import Estimate

    e = Estimate.proportion([1.0] * 10)
    text = page.estimate(render.estimate_json(e), digits=0, percent=True)
    assert text == render.chance_text(e) == "100% (≥ 72%, 95%)"
    exact_like = {"value": 0.62, "se": 0.08, "n": 40}
    assert page.estimate(exact_like, digits=0, percent=True) == "62 ±8%"
