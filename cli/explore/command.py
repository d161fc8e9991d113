"""``dummy-spades explore FILE``: an interactive double-dummy explorer.

The table as ``show`` lays it out, the double-dummy value of every legal
card of the player to move, play / undo / redo / best card / autoplay, the
hand scores under double-dummy continuation, the spade-breaking switch,
hidden hands, a player's view with single-dummy figures, practice against
the computer, save to a new deal file. Keys: docs/EXPLORE.md. Needs the
optional Textual extra (``pip install 'dummy-spades[explore]'``); the screen
itself is :mod:`dummy_spades.cli.explore.app`.
"""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from dummy_spades.solver import limits
from dummy_spades.solver.simulation import DEFAULT_EXACT_LIMIT, DEFAULT_SEED, Settings
from dummy_spades.solver.exploration import (PRACTICE_SAMPLES, PRACTICE_SECONDS, VIEW_SAMPLES,
                                             Exploration, SingleDummy)

from ..common import declarer_checked, fail, handle_errors, known_player, load_for_analysis
from ..options import (DealFile, Declarer, NoSpadeBreaking, Sampling, Seed, TtMb,
                       sampling_option, seconds_option)

INSTALL_HINT = ("explore needs Textual, an optional extra: "
                "pip install 'dummy-spades[explore]'")


@handle_errors
def explore(
    file: DealFile,
    declarer: Declarer = None,
    no_spade_breaking: NoSpadeBreaking = False,
    tt_mb: TtMb = None,
    player_view: Annotated[bool, typer.Option(
        "--player-view", help="Open in the player's view (the key v): the hands the player to "
        "choose cannot see hidden, every legal card's single-dummy figures.")] = False,
    practice: Annotated[Optional[str], typer.Option(
        "--practice", metavar="NAME", show_default=False,
        help="Open in practice (the key p): you play NAME's cards (and the dummy's when NAME "
             "declares), the computer the others.")] = None,
    practice_samples: Annotated[int, typer.Option(
        "--practice-samples", metavar="N", min=1, max=limits.SAMPLES_MAX,
        help="Layouts a computer player samples for each card in practice (it solves them "
             "all when there are at most N).")] = PRACTICE_SAMPLES,
    practice_time_limit: Annotated[float, seconds_option(
        "--practice-time-limit", "At most this many seconds of solving for a computer "
        "player's card: it plays by the layouts solved by then (then its card depends on the "
        "machine's speed; it binds in hands with a nil that counts).", show_default=True)
    ] = PRACTICE_SECONDS,
    view_samples: Annotated[int, typer.Option(
        "--view-samples", metavar="N", min=1, max=limits.SAMPLES_MAX,
        help="The most layouts the player's view samples at one position (every one, "
             "exactly, when there are at most 5,000).")] = VIEW_SAMPLES,
    seed: Seed = DEFAULT_SEED,
    sampling: Annotated[Sampling, sampling_option(
        "How the single-dummy layouts are drawn: weighted by the bids (conditioned) or "
        "not (uniform), as for advise (docs/ADVISE.md).")] = Sampling.conditioned,
) -> None:
    """Explore a deal interactively: every legal card's double-dummy value, play and take back;
    a player's view with single-dummy figures, and practice against the computer."""
    try:
        from .app import ExplorerApp
    except ImportError:
        fail(INSTALL_HINT)
    deal = load_for_analysis(file, no_spade_breaking)
    single = SingleDummy(Settings(view_samples, seed, sampling.value), practice_samples,
                         practice_time_limit)
    with declarer_checked(deal, declarer):
        exploration = Exploration(deal, declarer, tt_mb, single=single)
    if practice is not None:
        known_player(practice, deal.players, "--practice")
        exploration.start_practice(practice)
    if player_view:
        exploration.check_view()
    ExplorerApp(exploration, file, player_view=player_view).run()


def register(app: typer.Typer) -> None:
    app.command("explore")(explore)
