"""cli.common: the progress bar shared by the long-running commands (batch, bid)."""
import io

from rich.console import Console

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
