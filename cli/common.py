"""Helpers shared by every command module: errors, JSON output, consoles.

Domain errors (any ``ValueError`` subclass raised by solver/) are caught at the
command boundary by :func:`handle_errors` and turned into one message on
stderr and exit code 1; errors about the deal are located in the command's
file. ``--json`` output goes through :func:`emit_json`: plain ``json.dumps``
to stdout, never through Rich.

Names are data, never markup: both consoles have Rich markup and emoji codes
switched off, so a player called ``[/]`` or ``:smile:`` prints as written, and
every message passes through :func:`shown`, which makes control characters
visible instead of sending them to the terminal.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence, TypeVar, cast

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from dummy_spades.solver.deal import Deal
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.rules import Rules
from dummy_spades.solver.run import ParallelError


F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")

console = Console(markup=False, emoji=False)
err_console = Console(stderr=True, markup=False, emoji=False)

#: Exit codes: 0 success, 1 bad input, 2 usage error (Typer), and the shell's
#: 128 + signal number when stopped by a signal: 130 Ctrl-C (SIGINT), 143
#: SIGTERM, 141 a closed output pipe (SIGPIPE), each without a traceback.
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """``text`` safe for a terminal: control characters (escape, bell, DEL,
    C1 codes...) written as ``\\x1b`` instead of sent; newlines and tabs kept."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def signed(n: int) -> str:
    """``+5``, ``-10``, ``+0``: a score change with its sign."""
    return f"{n:+d}"


def error_line(message: str) -> Text:
    """``error: message`` as shown on stderr."""
    return Text.assemble(("error:", "bold red"), " ", shown(message))


def fail(message: str) -> "typer.Exit":
    """Print one error message on stderr and exit with code 1."""
    err_console.print(error_line(message), highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def usage_error(message: str) -> "typer.Exit":
    """Print one usage-error message on stderr and exit with code 2 (for
    option values a command checks itself, such as an expression)."""
    err_console.print(error_line(message), highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def only_with(ctx: typer.Context, flag: str, on: bool, names: Sequence[str]) -> None:
    """A usage error when an option that means something only beside
    ``flag`` is given on the command line without it (``names``: the
    parameters' names); a default, or a value from the environment, is fine."""
    if on:
        return
    for name in names:
        source = ctx.get_parameter_source(name)     # click's ParameterSource (typer may vendor click)
        if source is not None and source.name == "COMMANDLINE":
            option = "--" + name.replace("_", "-")
            usage_error(f"{option} applies with {flag} only; expected {flag}, or no {option}")


def located(err: DealError, file: Optional["os.PathLike[str] | str"]) -> DealError:
    """A library error about the deal, located in ``file`` (if it is not yet)."""
    if file is None or err.file is not None:
        return err
    return err.relocated(file=str(file))


def command_rules(rules: Rules, no_spade_breaking: bool) -> Rules:
    """``rules`` (a deal file's, or ``batch``'s defaults) under the command
    line's ``--no-spade-breaking``: the one place the option becomes rules."""
    return Rules(False, rules.scoring) if no_spade_breaking else rules


def load_for_analysis(file: Path, no_spade_breaking: bool) -> Deal:
    """The deal of ``file`` with the rules the command line sets."""
    deal = load_deal(file)
    return deal.with_rules(command_rules(deal.rules, no_spade_breaking))


def known_player(name: str, players: Sequence[str], option: str) -> str:
    """``name`` if it is one of ``players``; else a DealError about ``option``."""
    if name not in players:
        raise DealError(f"unknown player {name!r}", field=option,
                        expected=f"one of {', '.join(players)}")
    return name


@contextlib.contextmanager
def declarer_checked(deal: Deal, declarer: Optional[str]) -> Iterator[None]:
    """``--declarer`` around the making of an analysis's board: a name that
    is not a player's is refused first, and an error that the file names no
    declarer asks for ``--declarer``."""
    if declarer is not None:
        known_player(declarer, deal.players, "--declarer")
    try:
        yield
    except DealError as err:
        if err.field == "auction" and deal.declarer is None:
            err = err.relocated(expected=f"--declarer NAME (one of {', '.join(deal.players)})")
        raise err from None


class Terminated(KeyboardInterrupt):
    """SIGTERM, turned into an exception so that cleanup runs as on Ctrl-C."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def _quiet_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so that the interpreter's
    final flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # pragma: no cover - stdout is not a file
        pass


def handle_errors(func: F) -> F:
    """Decorator for command functions.

    * domain errors (``ValueError``, ``OSError``) -> one message, exit 1; a
      :class:`DealError` without a file is located in the command's ``file``
      argument, so every message names the file it is about;
    * Ctrl-C -> ``interrupted``, exit 130; SIGTERM -> ``terminated``, exit 143;
    * a closed stdout (``... | head``) -> exit 141 without a message, as
      Unix tools stopped by SIGPIPE do.
    """
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind_partial(*args, **kwargs)
        file = bound.arguments.get("file")
        previous = signal.getsignal(signal.SIGTERM)
        try:
            signal.signal(signal.SIGTERM, _on_sigterm)
        except ValueError:  # pragma: no cover - not the main thread
            previous = None
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except BrokenPipeError:
            _quiet_stdout()
            raise typer.Exit(EXIT_CLOSED_PIPE)
        except ParallelError as exc:  # a worker that died twice, a cluster gone
            fail(str(exc))
        except DealError as err:
            fail(str(located(err, file if isinstance(file, (str, Path)) else None)))
        except (ValueError, OSError) as exc:  # domain errors subclass ValueError
            fail(str(exc))
        except ImportError as exc:  # the compiled engine (or an optional extra) is missing
            fail(str(exc))
        except Terminated:
            err_console.print(error_line("terminated"), highlight=False)
            raise typer.Exit(EXIT_TERMINATED)
        except KeyboardInterrupt:
            err_console.print(error_line("interrupted"), highlight=False)
            raise typer.Exit(EXIT_INTERRUPTED)
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

    return cast(F, wrapper)  # the same signature: functools.wraps copies it


@contextlib.contextmanager
def progress_bar(total: int, label: str, enabled: bool = True) -> Iterator[Callable[[], None]]:
    """A Rich progress bar on stderr when it is a terminal; yields ``advance()``
    (a no-op when stderr is not a terminal or not ``enabled``)."""
    if not enabled or not err_console.is_terminal:
        yield lambda: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


@contextlib.contextmanager
def progress_counter(label: str, enabled: bool = True) -> Iterator[Callable[[int, int], None]]:
    """:func:`progress_bar` for work whose total grows as it goes: yields
    ``update(done, total)``."""
    if not enabled or not err_console.is_terminal:
        yield lambda done, total: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


@contextlib.contextmanager
def live_view(enabled: bool, render: Callable[[R], "RenderableType"]
              ) -> Iterator[Optional[Callable[[R], None]]]:
    """With ``enabled`` and stdout a terminal, a Rich Live view on stdout,
    yielding ``update(result)``, which shows ``render(result)`` in place of
    the previous one (a report refined while sampling); else yields None."""
    if not enabled or not console.is_terminal:
        yield None
        return
    from rich.live import Live

    with Live(Text("sampling..."), console=console, transient=True,
              vertical_overflow="visible") as live:
        yield lambda result: live.update(render(result))


def emit_json(obj: Any) -> None:
    """Write ``obj`` as JSON on stdout (plain json.dumps, no Rich wrapping)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()
