"""``dummy-spades explore FILE``: an interactive double-dummy explorer.

The table as ``show`` lays it out, the double-dummy value of every legal
card of the player to move, play / undo / redo / best card / autoplay, the
hand scores under double-dummy continuation, the spade-breaking switch,
hidden hands, save to a new deal file. Keys: docs/EXPLORE.md. Needs the
optional Textual extra (``pip install 'dummy-spades[explore]'``); the screen
itself is :mod:`dummy_spades.cli.explore.app`.
"""
from __future__ import annotations

import typer

from dummy_spades.solver.exploration import Exploration

from ..common import declarer_checked, fail, handle_errors, load_for_analysis
from ..options import DealFile, Declarer, NoSpadeBreaking, TtMb

INSTALL_HINT = ("explore needs Textual, an optional extra: "
                "pip install 'dummy-spades[explore]'")


@handle_errors
def explore(
    file: DealFile,
    declarer: Declarer = None,
    no_spade_breaking: NoSpadeBreaking = False,
    tt_mb: TtMb = None,
) -> None:
    """Explore a deal interactively: every legal card's double-dummy value, play and take back."""
    try:
        from .app import ExplorerApp
    except ImportError:
        fail(INSTALL_HINT)
    deal = load_for_analysis(file, no_spade_breaking)
    with declarer_checked(deal, declarer):
        exploration = Exploration(deal, declarer, tt_mb)
    ExplorerApp(exploration, file).run()


def register(app: typer.Typer) -> None:
    app.command("explore")(explore)
