"""The ``dummy-spades`` Typer application. Each command group lives in its own
module and registers itself here with ``register(app)``.

A flag takes no value, so help shows no type beside it: the app's group and
every command it registers hide the type of every flag (``-h`` included),
and an option needs nothing of its own for that.

Help texts are plain text, never Rich markup: while ``-h`` is rendered, the
app's group and every command escape theirs (their own, their parameters',
their subcommands'), so ``'dummy-spades[cluster]'`` prints as written.
"""
from __future__ import annotations

import contextlib
from typing import Annotated, Any, Callable, Iterator, List, Optional, Type

import typer
from rich.markup import escape
from typer.core import TyperCommand, TyperGroup

from dummy_spades.solver import __version__


def _no_flag_types(params: List[Any]) -> List[Any]:
    """``params`` with every flag's type hidden in help (an empty metavar)."""
    for param in params:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    return params


@contextlib.contextmanager
def _plain_help(holders: List[Any]) -> Iterator[None]:
    """The ``help`` and ``short_help`` of ``holders`` (commands, parameters)
    escaped for Rich while the block runs, then as they were."""
    saved = [(h, name, getattr(h, name, None)) for h in holders for name in ("help", "short_help")]
    for holder, name, text in saved:
        if text:
            setattr(holder, name, escape(text))
    try:
        yield
    finally:
        for holder, name, text in saved:
            if text:
                setattr(holder, name, text)


class Command(TyperCommand):
    """A command whose help shows no type beside a flag, and its help texts as written."""

    def get_params(self, ctx: Any) -> Any:
        return _no_flag_types(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        with _plain_help([self, *self.get_params(ctx)]):
            super().format_help(ctx, formatter)


class Group(TyperGroup):
    """The app's group, whose help shows no type beside a flag, and the help
    texts (its own, its options', its commands') as written."""

    def get_params(self, ctx: Any) -> Any:
        return _no_flag_types(super().get_params(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        commands = [self.get_command(ctx, name) for name in self.list_commands(ctx)]
        with _plain_help([self, *self.get_params(ctx), *commands]):
            super().format_help(ctx, formatter)


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
