"""The ``dummy-spades`` Typer application. Each command group lives in its own
module and registers itself here with ``register(app)``.

A flag takes no value, so help shows no type beside it: the app's group and
every command it registers hide the type of every flag (``-h`` included),
and an option needs nothing of its own for that.
"""
from __future__ import annotations

from typing import Annotated, Any, Callable, List, Optional, Type

import typer
from typer.core import TyperCommand, TyperGroup

from dummy_spades.solver import __version__


def _no_flag_types(params: List[Any]) -> List[Any]:
    """``params`` with every flag's type hidden in help (an empty metavar)."""
    for param in params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    return params


class Command(TyperCommand):
    """A command whose help shows no type beside a flag."""

    def get_params(self, ctx: Any) -> Any:
        return _no_flag_types(super().get_params(ctx))


class Group(TyperGroup):
    """The app's group, whose help shows no type beside a flag."""

    def get_params(self, ctx: Any) -> Any:
        return _no_flag_types(super().get_params(ctx))


class App(typer.Typer):
    """The application: its commands are :class:`Command` unless one says otherwise."""

    def command(self, name: Optional[str] = None, *, cls: Optional[Type[TyperCommand]] = None,
                **settings: Any) -> Callable[[Any], Any]:
        return super().command(name, cls=cls or Command, **settings)


app = App(
    cls=Group,
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
        typer.Option("--version", callback=_version, is_eager=True,
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
