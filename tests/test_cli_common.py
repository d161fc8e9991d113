"""cli.common: the progress bar shared by the long-running commands (batch, bid, advise, review) and the live view of a report refined while sampling (bid, advise)."""
import io

from rich.console import Console
from rich.text import Text

from dummy_spades.cli import common


def test_progress_bar_is_silent_off_a_terminal(monkeypatch):
    monkeypatch.setattr(common, "err_console", Console(file=io.StringIO(), force_terminal=False))
    with common.progress_bar(3, "solving") as advance:
        for _ in range(3):
            advance()
    assert common.err_console.file.getvalue() == ""


def test_progress_bar_counts_on_a_terminal(monkeypatch):
    monkeypatch.setattr(common, "err_console", Console(file=io.StringIO(), force_terminal=True, width=80))
    with common.progress_bar(3, "simulating") as advance:
        for _ in range(3):
            advance()
    shown = common.err_console.file.getvalue()
    assert "simulating" in shown and "3/3" in shown


def test_live_view_is_off_off_a_terminal_or_when_not_asked(monkeypatch):
    monkeypatch.setattr(common, "console", Console(file=io.StringIO(), force_terminal=False))
    with common.live_view(True, str) as update:
        assert update is None
    monkeypatch.setattr(common, "console", Console(file=io.StringIO(), force_terminal=True))
    with common.live_view(False, str) as update:
        assert update is None
    assert common.console.file.getvalue() == ""


def test_live_view_shows_each_result_rendered(monkeypatch):
    monkeypatch.setattr(common, "console", Console(file=io.StringIO(), force_terminal=True, width=80))
    with common.live_view(True, lambda n: Text(f"{n} samples solved")) as update:
        update(20)
        update(30)
    shown = common.console.file.getvalue()
    assert "30 samples solved" in shown
