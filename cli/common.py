"""Helpers shared by every command module: errors, JSON output, consoles.

Domain errors (any ``ValueError`` subclass raised by solver/) are caught at the
command boundary by :func:`handle_errors` and turned into one message on
stderr and exit code 1. ``--json`` output goes through :func:`emit_json`:
plain ``json.dumps`` to stdout, never through Rich.
"""
from __future__ import annotations

import contextlib
import functools
import json
import sys
from typing import Any, Callable, Iterator, TypeVar

import typer
from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])

console = Console()
err_console = Console(stderr=True)


def fail(message: str) -> "typer.Exit":
    """Print one error message on stderr and exit with code 1."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, markup=True, soft_wrap=True)
    raise typer.Exit(1)


def handle_errors(func: F) -> F:
    """Decorator for command functions: domain errors -> message + exit 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except (ValueError, OSError) as exc:  # domain errors subclass ValueError
            fail(escape_markup(str(exc)))
        except KeyboardInterrupt:
            fail("interrupted")

    return wrapper  # type: ignore[return-value]


def escape_markup(text: str) -> str:
    """``text`` with Rich markup characters escaped (for messages with [brackets])."""
    from rich.markup import escape

    return escape(text)


@contextlib.contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[], None]]:
    """A Rich progress bar on stderr when it is a terminal; yields ``advance()``
    (a no-op when stderr is not a terminal)."""
    if not err_console.is_terminal:
        yield lambda: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TimeRemainingColumn(), console=err_console, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


def emit_json(obj: Any) -> None:
    """Write ``obj`` as JSON on stdout (plain json.dumps, no Rich wrapping)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()
