"""The ``dummy-spades`` Typer application. Each command group lives in its own
module and registers itself here with ``register(app)``."""
from __future__ import annotations

from typing import Annotated

import typer

from dummy_spades.solver import __version__

app = typer.Typer(
    name="dummy-spades",
    help="Double-dummy solver and hand analyser for three-player Dummy Hand Spades.",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"dummy-spades {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", metavar="", callback=_version, is_eager=True,
                     help="Show the version and exit."),
    ] = False,
) -> None:
    """Double-dummy solver and hand analyser for three-player Dummy Hand Spades."""


# Command modules: each defines register(app). Add one line per module.
from . import _commands  # noqa: E402

_commands.register_all(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
