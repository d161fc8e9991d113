"""Helpers shared by every command module: errors, JSON output, consoles.

Domain errors (any ``ValueError`` subclass raised by solver/) are caught at the
command boundary by :func:`handle_errors` and turned into one message on
stderr and exit code 1. ``--json`` output goes through :func:`emit_json`:
plain ``json.dumps`` to stdout, never through Rich.
"""
from __future__ import annotations

import functools
import json
import sys
from typing import Any, Callable, TypeVar

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
            fail(_escape(str(exc)))
        except KeyboardInterrupt:
            fail("interrupted")

    return wrapper  # type: ignore[return-value]


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def emit_json(obj: Any) -> None:
    """Write ``obj`` as JSON on stdout (plain json.dumps, no Rich wrapping)."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")
    sys.stdout.flush()
