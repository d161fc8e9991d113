"""``dummy-spades explore``: Textual pilots (App.run_test) pressing keys and
clicking cards, the state behind the screen, and a snapshot of the screen.

The snapshots are docs/explore.svg and docs/explore-view.svg (the player's
view), the screenshots in docs/EXPLORE.md. Textual's SVG depends on its
version, so the comparison runs only with the version recorded in
tests/golden/explore/textual-version.txt; refresh them with
``UPDATE_GOLDEN=1 python -m pytest tests/test_explore.py``.
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

textual = pytest.importorskip("textual")
from textual.worker import WorkerCancelled  # noqa: E402

from dummy_spades.cli.app import app as cli_app  # noqa: E402
from dummy_spades.cli.explore import app as explorer  # noqa: E402
from dummy_spades.cli.explore.app import ExplorerApp  # noqa: E402
from dummy_spades.cli.explore.dialogs import default_save_path  # noqa: E402
from dummy_spades.solver import analysis  # noqa: E402
from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.cards import parse_card  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.exploration import Exploration, SingleDummy  # noqa: E402
from dummy_spades.cli.render import points_text  # noqa: E402
from dummy_spades.solver.advise import advise  # noqa: E402
from dummy_spades.solver.simulation import Settings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
SNAPSHOT = ROOT / "docs" / "explore.svg"
VIEW_SNAPSHOT = ROOT / "docs" / "explore-view.svg"
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
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:     # single-dummy figures of a position left
            pass
        await pilot.pause()
        if not any(w.is_running for w in app.workers) and \
                not (app.sight.double_dummy and app.x.pending()):
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
    assert Path(default_save_path(app.source)).name == "mid-play-explored-2.yaml"


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


# ------------------------------------------------------------ snapshots
def check_snapshot(svg: str, snapshot: Path) -> None:
    if UPDATE:
        snapshot.write_text(svg, encoding="utf-8")
        VERSION_FILE.parent.mkdir(parents=True, exist_ok=True)
        VERSION_FILE.write_text(textual.__version__ + "\n", encoding="utf-8")
    recorded = VERSION_FILE.read_text(encoding="utf-8").strip()
    if recorded != textual.__version__:
        pytest.skip(f"snapshot made with Textual {recorded}, not {textual.__version__}")
    assert svg == snapshot.read_text(encoding="utf-8")


def test_screen_snapshot():
    app = explorer_app()
    shot = {}

    async def script(pilot):
        shot["svg"] = app.export_screenshot()

    run_pilot(app, script)
    check_snapshot(shot["svg"], SNAPSHOT)


def test_player_view_snapshot():
    """mid-play in Carol's view: every one of the 924 layouts solved (exact),
    the double-dummy values beside the figures."""
    path = HANDS / "mid-play.yaml"
    app = ExplorerApp(Exploration(load_deal(path)), path, player_view=True)
    shot = {}

    async def script(pilot):
        await refined(app, pilot)
        await settle(app, pilot)
        assert app.refining.done and "all 924 layouts (exact)" in plain(app, "values")
        shot["svg"] = app.export_screenshot()

    run_pilot(app, script)
    check_snapshot(shot["svg"], VIEW_SNAPSHOT)


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


def test_command_opens_practice_and_the_player_view(monkeypatch):
    seen = {}
    monkeypatch.setattr(explorer.ExplorerApp, "run", lambda self: seen.setdefault("app", self))
    result = runner.invoke(cli_app, ["explore", str(HANDS / "worked-example.yaml"), "--practice",
                                     "Bob", "--practice-samples", "7", "--view-samples", "30",
                                     "--practice-time-limit", "2.5",
                                     "--seed", "4", "--sampling", "uniform", "--player-view"])
    assert result.exit_code == 0, result.output
    app = seen["app"]
    assert app.x.practice == "Bob" and app.sight.player_view and app.x.single.practice_seconds == 2.5
    assert (app.x.single.practice_samples, app.x.single.view.samples, app.x.single.view.seed,
            app.x.single.view.sampling) == (7, 30, 4, "uniform")


def test_command_refuses_a_practice_or_view_it_cannot_give():
    for args, code, message in (
            (["--practice", "Zed"], 1, "Zed"),
            (["--practice", "Bob", "--declarer", "Bob"], 1, "what-if"),
            (["--player-view", "--declarer", "Alice"], 1, "what-if"),
            (["--practice-samples", "0"], 2, "practice-samples"),
            (["--view-samples", "-3"], 2, "view-samples"),
            (["--practice-time-limit", "0"], 2, "practice-time-limit")):
        result = runner.invoke(cli_app, ["explore", str(HANDS / "worked-example.yaml"), *args])
        assert result.exit_code == code, (args, result.output)
        assert "Traceback" not in result.output and message in result.stderr, args


def test_command_runs_the_app(monkeypatch):
    seen = {}
    monkeypatch.setattr(explorer.ExplorerApp, "run", lambda self: seen.setdefault("app", self))
    result = runner.invoke(cli_app, ["explore", str(HANDS / "mid-play.yaml"),
                                     "--no-spade-breaking"])
    assert result.exit_code == 0, result.output
    assert seen["app"].x.breaking is False and len(seen["app"].x.moves) == 25


# ------------------------------------------------------------ the player's view
def view_app(stem: str = "worked-example", **settings) -> ExplorerApp:
    path = HANDS / f"{stem}.yaml"
    single = SingleDummy(Settings(settings.pop("view_samples", 8)),
                         **{"practice_samples": 4, "practice_seconds": None, **settings})
    return ExplorerApp(Exploration(load_deal(path), single=single), path)


async def until(pilot, condition, tries: int = 500) -> None:
    """Let the app run until ``condition()`` holds."""
    for _ in range(tries):
        await pilot.pause(0.02)
        if condition():
            return
    raise AssertionError("the app never got there")


async def refined(app: ExplorerApp, pilot) -> None:
    """Wait until the figures the screen needs are all solved and shown."""
    for _ in range(300):
        await pilot.pause(0.02)
        ref = app.refining
        if (ref is None or ref.done) and not app.x.computer_to_play and \
                not any(w.is_running for w in app.workers):
            await pilot.pause()
            return
    raise AssertionError(f"the single-dummy figures did not settle: {app.refining} "
                         f"{app.refining and app.refining.done} {app.x.computer_to_play} "
                         f"{[w for w in app.workers if w.is_running]} {len(app.x.moves)} "
                         f"{app.message}")


def test_player_view_hides_what_the_chooser_cannot_see_and_refines_single_dummy():
    """worked-example: Alice leads. v hides the dummy (not faced yet), Bob's
    and Carol's hands; her cards get their single-dummy figures, first from
    one layout, then from all 8, equal to the library's (and to advise's)."""
    counts = []

    class Spied(ExplorerApp):
        def on_refined(self, message):      # besides ExplorerApp's (Textual calls both)
            counts.append(message.solved)

    path = HANDS / "worked-example.yaml"
    app = Spied(Exploration(load_deal(path), single=SingleDummy(Settings(8))), path)

    async def script(pilot):
        await pilot.press("v")
        await refined(app, pilot)
        assert app.sight.player_view and "player's view" in plain(app, "title")
        for pos in ("top", "right", "bottom"):      # dummy, Bob, Carol
            assert "13 cards hidden" in plain(app, pos)
        assert "cards hidden" not in plain(app, "left")
        assert counts[0] == 1 and counts[-1] == 8 and counts == sorted(counts)
        text = plain(app, "values")
        assert "Single dummy from Alice's view" in text and "8 of 8 samples" in text
        ref = app.refining
        want = advise(app.x.deal_now(), hindsight=False, settings=Settings(samples=8))
        assert [c.cards for c in ref.advice.cards] == [c.cards for c in want.cards]
        best = ref.advice.cards[0]
        assert f"{points_text(best.tricks)} [" in text   # the double-dummy value beside it
        # Alice leads: Carol chooses the dummy's card from her view
        await pilot.press("enter")
        await refined(app, pilot)
        assert app.refining is not ref and app.refining.player == "Carol"
        assert "Single dummy from Carol's view" in plain(app, "values")
        for pos in ("left", "right"):
            assert "cards hidden" in plain(app, pos)
        for pos in ("top", "bottom"):
            assert "cards hidden" not in plain(app, pos)
        await pilot.press("v")
        await settle(app, pilot)
        assert not app.sight.player_view and "Declarer side's tricks" in plain(app, "values")

    run_pilot(app, script)


def test_moving_on_cancels_the_refinement_and_quitting_leaves_no_thread():
    """With many samples asked for, playing a card stops the figures of the
    position left (between two layouts) and starts the next; quitting in
    the middle of a refinement stops it and leaves no thread behind."""
    before = threading.active_count()
    app = view_app(view_samples=100_000)
    state = {}

    async def script(pilot):
        await pilot.press("v")
        await until(pilot, lambda: app.refining is not None and app.refining.solved >= 2)
        first = app.refining
        assert not first.done
        await pilot.press("enter")
        await until(pilot, lambda: app.refining is not first and app.refining.solved >= 1)
        stopped = first.solved
        await pilot.pause(0.3)
        assert first.solved == stopped and not first.done      # no longer refined
        assert app.refining.player == "Carol" and not app.refining.done
        state["last"] = app.refining
        state["t"] = time.monotonic()
        await pilot.press("q")

    run_pilot(app, script)
    assert time.monotonic() - state["t"] < 10
    assert threading.active_count() == before
    left = state["last"].solved
    time.sleep(0.2)
    assert state["last"].solved == left


def test_no_player_view_or_practice_for_a_what_if_declarer():
    path = HANDS / "worked-example.yaml"
    app = ExplorerApp(Exploration(load_deal(path), "Bob"), path)

    async def script(pilot):
        for key in ("v", "p"):
            await pilot.press(key)
            assert "what-if" in app.message
            assert not app.sight.player_view and app.x.practice is None

    run_pilot(app, script)


# ------------------------------------------------------------ practice
def test_practice_the_computer_plays_advises_card_and_the_user_sees_their_view():
    """Bob practises on worked-example: the computer plays Alice's lead and
    Carol's dummy card, each advise's recommended card with 4 samples; Bob
    sees his hand and the dummy only; his cards are his to play, the others'
    not; b, a and h are refused."""
    app = view_app()
    app.x.start_practice("Bob")
    deal = load_deal(HANDS / "worked-example.yaml")

    async def script(pilot):
        await refined(app, pilot)
        x = app.x
        assert x.chooser == "Bob" and len(x.moves) == 2
        for i, card in enumerate(x.moves):
            want = advise(deal.with_played(list(x.moves[:i])), hindsight=False,
                          settings=Settings(samples=4, exact_limit=4))
            assert card == min(want.recommended.cards)
        assert "cards hidden" in plain(app, "left") and "cards hidden" in plain(app, "bottom")
        assert "cards hidden" not in plain(app, "top")          # the dummy, faced
        assert "Your card" in plain(app, "values") and "Practice" in plain(app, "side")
        assert "[" not in plain(app, "values")               # no double-dummy value shown
        for key in ("b", "a", "h"):
            await pilot.press(key)
            assert "not in practice" in app.message and len(x.moves) == 2
        await pilot.press("v")                              # the figures of Bob's view
        await refined(app, pilot)
        assert "Single dummy from Bob's view" in plain(app, "values")
        await pilot.press("right", "enter")                 # Bob plays; Carol answers
        await refined(app, pilot)
        assert len(x.moves) >= 4 and "played" in app.message

    run_pilot(app, script)


def test_practice_undo_and_restart():
    """Carol (declarer, with the dummy) practises: u takes her last choice
    back (the computer's cards after it too), s starts again and the computer
    replays the same lead (the redo list kept); p moves on to the next seat."""
    app = view_app()
    app.x.start_practice("Carol")

    async def script(pilot):
        x = app.x
        await refined(app, pilot)
        assert x.chooser == "Carol" and len(x.moves) == 1     # Alice's lead
        lead = x.moves
        await pilot.press("enter")                          # the dummy's card; Bob answers
        await refined(app, pilot)
        dummy, bob = x.moves[1:]
        assert x.chooser == "Carol"
        await pilot.press("u")
        await refined(app, pilot)
        assert x.moves == lead and "took back" in app.message and x.redo == [bob, dummy]
        await pilot.press("u")
        assert "nothing to undo" in app.message and x.moves == lead
        await pilot.press("s")
        await refined(app, pilot)
        assert x.moves == lead and x.redo == [bob, dummy]
        await pilot.press("p")                              # the last seat: practice over
        assert x.practice is None and "practice over" in app.message
        await pilot.press("p")                              # the first seat again
        assert x.practice == "Alice" and "you play Alice" in plain(app, "title")

    run_pilot(app, script)


def test_practice_to_the_end_of_the_hand_shows_the_score():
    """From mid-play's position Carol practises to the end: the side panel
    shows the bids and tricks while the hand lasts, the actual score after."""
    app = view_app("mid-play")
    app.x.start_practice("Carol")

    async def script(pilot):
        x = app.x
        assert "Practice" in plain(app, "side") and "side's tricks" in plain(app, "side")
        while not x.board.is_over:
            await refined(app, pilot)
            if not x.board.is_over:
                await pilot.press("enter")
        await settle(app, pilot)
        side = plain(app, "side")
        assert "Hand scores" in side and "(actual)" in side
        assert "hand is over" in plain(app, "values")
        assert x.scores().actual and x.scores().declarer_tricks == x.board.declarer_tricks

    run_pilot(app, script)
