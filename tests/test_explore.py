"""``dummy-spades explore``: Textual pilots (App.run_test) pressing keys and
clicking cards, the state behind the screen, and a snapshot of the screen.

The snapshot is docs/explore.svg, the screenshot in docs/EXPLORE.md. Textual's
SVG depends on its version, so the comparison runs only with the version
recorded in tests/golden/explore/textual-version.txt; refresh both with
``UPDATE_GOLDEN=1 python -m pytest tests/test_explore.py``.
"""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

textual = pytest.importorskip("textual")

from dummy_spades.cli.app import app as cli_app  # noqa: E402
from dummy_spades.cli.explore import app as explorer  # noqa: E402
from dummy_spades.cli.explore.app import ExplorerApp  # noqa: E402
from dummy_spades.solver import analysis  # noqa: E402
from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.cards import parse_card  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.exploration import Exploration  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
SNAPSHOT = ROOT / "docs" / "explore.svg"
VERSION_FILE = Path(__file__).resolve().parent / "golden" / "explore" / "textual-version.txt"
SIZE = (130, 40)
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))


def plain(app: ExplorerApp, name: str) -> str:
    """The text a part of the screen shows now."""
    console = Console(width=200, color_system=None)
    with console.capture() as out:
        console.print(app.drawn[name])
    return out.get()


def explorer_app(stem: str = "mid-play", **kwargs) -> ExplorerApp:
    path = HANDS / f"{stem}.yaml"
    return ExplorerApp(Exploration(load_deal(path), **kwargs), path)


async def settle(app: ExplorerApp, pilot) -> None:
    """Wait until every engine worker is done and its results are on the screen."""
    for _ in range(50):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in app.workers) and not app.x.pending():
            return
    raise AssertionError("the engine workers did not settle")


def run_pilot(app: ExplorerApp, script) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await script(pilot)
    asyncio.run(main())


# ------------------------------------------------------------ pilots
def test_opens_at_the_played_point_with_every_legal_card_valued():
    app = explorer_app()
    deal = load_deal(HANDS / "mid-play.yaml")

    async def script(pilot):
        assert app.x.moves == deal.played
        values = app.x.card_values()
        state = deal.board()
        want = analysis.card_analysis(state, make_solver())
        assert values.values == want.values and values.best_value == want.best_value
        text = plain(app, "values")
        assert "dummy (played by Carol) to play" in text
        scores = app.x.scores()
        assert not scores.actual
        assert scores.declarer_tricks == analysis.contract_result(
            deal.board(), make_solver()).declarer_tricks

    run_pilot(app, script)


def test_play_with_keys_then_undo_and_redo():
    app = explorer_app()
    start = load_deal(HANDS / "mid-play.yaml").played

    async def script(pilot):
        legal = app.legal_cards()
        await pilot.press("right", "enter")
        await settle(app, pilot)
        assert app.x.moves == start + (legal[1],)
        assert "played" in app.message
        await pilot.press("u")
        await settle(app, pilot)
        assert app.x.moves == start and app.x.redo == [legal[1]]
        await pilot.press("r")
        await settle(app, pilot)
        assert app.x.moves == start + (legal[1],) and not app.x.redo
        await pilot.press("U")                      # the trick in progress back
        await settle(app, pilot)
        assert app.x.moves == start[:24]
        await pilot.press("R")                      # and forward to the trick's end
        await settle(app, pilot)
        assert app.x.moves == start + (legal[1],)
        await pilot.press("s")                      # back to the opening lead
        await settle(app, pilot)
        assert app.x.moves == () and len(app.x.redo) == 26
        await pilot.press("R")
        await settle(app, pilot)
        assert app.x.moves == start[:4]

    run_pilot(app, script)


def test_click_plays_a_card():
    app = explorer_app()

    async def script(pilot):
        before = len(app.x.moves)
        # the dummy (top) is to play ♣8 ♣7 ♣5: find ♣8 on the screen and click it
        target = f"app.play({parse_card('C8')})"
        region = app.query_one("#top").region
        spot = next((x, y) for y in range(region.y, region.bottom)
                    for x in range(region.x, region.right)
                    if app.screen.get_style_at(x, y).meta.get("@click") == target)
        await pilot.click(offset=spot)
        await settle(app, pilot)
        assert len(app.x.moves) == before + 1 and app.x.moves[-1] == parse_card("C8")

    run_pilot(app, script)


def test_best_card_and_autoplay_follow_an_optimal_line():
    app = explorer_app()
    deal = load_deal(HANDS / "mid-play.yaml")

    async def script(pilot):
        value = app.x.card_values()
        await pilot.press("b")
        await settle(app, pilot)
        assert app.x.moves[-1] in value.best_cards
        await pilot.press("a")
        await settle(app, pilot)
        state = app.x.board
        assert state.is_over
        assert state.declarer_tricks == value.best_value  # the dummy's side: declarer
        scores = app.x.scores()
        assert scores.actual and scores.declarer_tricks == state.declarer_tricks
        assert "optimal line" in app.message
        await pilot.press("enter")                 # nothing left to play
        assert "hand is over" in app.message
        assert len(state.moves) == 52 and deal.played == state.moves[:25]

    run_pilot(app, script)


def test_save_writes_a_new_deal_file_and_asks_before_overwriting(tmp_path):
    app = explorer_app()
    target = tmp_path / "saved.yaml"

    async def script(pilot):
        await pilot.press("b")
        await settle(app, pilot)
        await pilot.press("w")
        await pilot.pause()
        field = app.screen.query_one("#path")
        field.value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert target.exists() and "saved" in app.message
        saved = load_deal(target)
        assert saved.played == app.x.moves and saved.hands == app.x.deal.hands
        assert saved.auction == app.x.deal.auction
        # again: the file exists, so it asks; "n" keeps the file
        target.write_text("kept\n", encoding="utf-8")
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one("#path").value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert target.read_text(encoding="utf-8") == "kept\n" and "not saved" in app.message
        await pilot.press("w")
        await pilot.pause()
        app.screen.query_one("#path").value = str(target)
        await pilot.press("enter", "y")
        await pilot.pause()
        assert load_deal(target).played == app.x.moves

    run_pilot(app, script)


def test_default_save_name_is_new(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = explorer_app()
    (tmp_path / "mid-play-explored.yaml").write_text("x", encoding="utf-8")
    assert Path(app._default_path()).name == "mid-play-explored-2.yaml"


def test_unknown_and_useless_keys_only_say_so():
    app = explorer_app("worked-example")

    async def script(pilot):
        await pilot.press("x")
        assert "no such key" in app.message and app.x.moves == ()
        await pilot.press("u")
        assert app.message == "nothing to undo"
        await pilot.press("r")
        assert app.message == "nothing to redo"
        await pilot.press("s")
        assert "already at the opening lead" in app.message

    run_pilot(app, script)


def test_spade_rule_toggle_and_hidden_hands():
    app = explorer_app("worked-example")

    async def script(pilot):
        on = app.x.card_values()
        await pilot.press("t")
        await settle(app, pilot)
        assert app.x.breaking is False and "spade breaking off" in app.message
        off = app.x.card_values()
        assert set(off.values) >= set(on.values)       # spade leads allowed now
        await pilot.press("t")
        await settle(app, pilot)
        assert app.x.breaking is True
        await pilot.press("h")                          # the defenders' hands hidden
        await settle(app, pilot)
        assert "defenders hidden" in app.message
        left = plain(app, "left")
        assert "cards hidden" in left and "tricks: 0" in left
        # Alice (a defender, hidden) is on lead: Enter does not play her card ...
        await pilot.press("enter")
        assert app.x.moves == () and "hidden" in app.message
        # ... b plays the double-dummy card for her
        await pilot.press("b")
        await settle(app, pilot)
        assert len(app.x.moves) == 1

    run_pilot(app, script)


# ------------------------------------------------------------ snapshot
def test_screen_snapshot():
    app = explorer_app()
    shot = {}

    async def script(pilot):
        shot["svg"] = app.export_screenshot()

    run_pilot(app, script)
    if UPDATE:
        SNAPSHOT.write_text(shot["svg"], encoding="utf-8")
        VERSION_FILE.parent.mkdir(parents=True, exist_ok=True)
        VERSION_FILE.write_text(textual.__version__ + "\n", encoding="utf-8")
    recorded = VERSION_FILE.read_text(encoding="utf-8").strip()
    if recorded != textual.__version__:
        pytest.skip(f"snapshot made with Textual {recorded}, not {textual.__version__}")
    assert shot["svg"] == SNAPSHOT.read_text(encoding="utf-8")


# ------------------------------------------------------------ the command
runner = CliRunner()


def test_without_textual_one_line_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "dummy_spades.cli.explore.app", None)
    result = runner.invoke(cli_app, ["explore", str(HANDS / "mid-play.yaml")])
    assert result.exit_code == 1
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "pip install 'dummy-spades[explore]'" in lines[0]


def test_command_errors_are_one_line():
    for args, message in (([str(HANDS / "freak-distribution.yaml")], "--declarer NAME"),
                          ([str(HANDS / "nope.yaml")], "nope.yaml"),
                          ([str(HANDS / "mid-play.yaml"), "--declarer", "Zed"], "Zed")):
        result = runner.invoke(cli_app, ["explore", *args])
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output and message in result.stderr


def test_command_runs_the_app(monkeypatch):
    seen = {}
    monkeypatch.setattr(explorer.ExplorerApp, "run", lambda self: seen.setdefault("app", self))
    result = runner.invoke(cli_app, ["explore", str(HANDS / "mid-play.yaml"),
                                     "--no-spade-breaking"])
    assert result.exit_code == 0, result.output
    assert seen["app"].x.breaking is False and len(seen["app"].x.moves) == 25
