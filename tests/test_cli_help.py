"""Every command's ``-h``: each help text declared (the app's, a command's,
an option's or argument's) is shown whole. Help texts are plain text: a
``[cluster]`` in one is printed as written, never taken as Rich markup."""
from __future__ import annotations

import re
from typing import Any, Iterator, List, Tuple

import pytest
import typer
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import limits

ROOT_COMMAND = typer.main.get_command(app)
#: wide enough that no help text wraps: the rendered text is compared whole
WIDE = {"COLUMNS": "4000", "TERMINAL_WIDTH": "4000"}


def commands(command: Any = ROOT_COMMAND,
             path: Tuple[str, ...] = ()) -> Iterator[Tuple[Tuple[str, ...], Any]]:
    """Every command of the app with the words that reach it, the app first
    (a group's subcommands, however deep)."""
    yield path, command
    if hasattr(command, "list_commands"):
        ctx = typer.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            yield from commands(sub, path + (name,))


def declared(command: Any) -> List[str]:
    """The help texts ``command`` declares: its own, and each parameter's."""
    texts = [command.help or ""]
    texts += [getattr(p, "help", None) or "" for p in command.get_params(typer.Context(command))]
    return [t for t in texts if t]


def flat(text: str) -> str:
    """``text`` with the help boxes' borders gone and white space collapsed."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def rendered(path: Tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "-h"], env=WIDE)
    assert result.exit_code == 0, result.output
    return flat(result.output)


COMMANDS = list(commands())


def test_every_command_is_walked():
    names = {path[0] for path, _ in COMMANDS if path}
    assert {"batch", "bid", "advise", "review", "explore", "deal"} <= names
    assert len(COMMANDS) == len(names) + 1


@pytest.mark.parametrize("path,command", COMMANDS, ids=[" ".join(p) or "app" for p, _ in COMMANDS])
def test_every_help_text_is_shown_whole(path, command):
    shown = rendered(path)
    missing = [text for text in declared(command)
               if flat(text) not in shown]
    assert missing == []


def test_square_brackets_in_help_are_kept():
    """The one help text with brackets today, and the check would see a loss."""
    shown = rendered(("batch",))
    assert "pip install 'dummy-spades[cluster]'" in shown
    assert "pip install 'dummy-spades'" not in shown


def test_review_tt_mb_names_both_tables_and_their_defaults():
    """``review --tt-mb`` sizes the double-dummy solver's table and, with
    --single-dummy, each worker's: its help gives both defaults."""
    shown = rendered(("review",))
    assert f"default {limits.DEFAULT_TT_MB:g}; with --single-dummy also each worker's" in shown
    assert f"for the layouts, default {limits.LAYOUT_TT_MB:g}" in shown
