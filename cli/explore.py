"""``dummy-spades explore FILE``: an interactive double-dummy explorer.

The table as ``show`` lays it out, the double-dummy value of every legal
card of the player to move, play / undo / redo / best card / autoplay, the
hand scores under double-dummy continuation, the spade-breaking switch,
hidden hands, save to a new deal file. Keys: docs/EXPLORE.md. Needs the
optional Textual extra (``pip install 'dummy-spades[explore]'``); the screen
itself is :mod:`dummy_spades.cli.explorer`.
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from dummy_spades.solver.errors import DealError

from .common import fail, handle_errors, known_player, load_for_analysis
from .options import DealFile, NoSpadeBreaking
from .solve import TtMb

INSTALL_HINT = ("explore needs Textual, an optional extra: "
                "pip install 'dummy-spades[explore]'")


@handle_errors
def explore(
    file: DealFile,
    declarer: Annotated[Optional[str], typer.Option(
        "--declarer", metavar="NAME", show_default=False,
        help="The declarer, when the file has no complete auction; or a what-if declarer "
             "in place of the auction's (before any card is played).")] = None,
    no_spade_breaking: NoSpadeBreaking = False,
    tt_mb: TtMb = None,
) -> None:
    """Explore a deal interactively: every legal card's double-dummy value, play and take back."""
    try:
        from .explorer import Exploration, ExplorerApp
    except ImportError:
        fail(INSTALL_HINT)
    deal = load_for_analysis(file, no_spade_breaking)
    if declarer is not None:
        known_player(declarer, deal.players, "--declarer")
    try:
        exploration = Exploration(deal, declarer, tt_mb)
    except DealError as err:
        if err.field == "auction" and deal.declarer is None:
            err = err.relocated(expected=f"--declarer NAME (one of {', '.join(deal.players)})")
        raise err from None
    ExplorerApp(exploration, file).run()


def register(app: typer.Typer) -> None:
    app.command("explore")(explore)
