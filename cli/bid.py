"""``dummy-spades bid FILE``: how many tricks a hand is worth, whether nil is
safe and which bid pays best, by double-dummy simulation.

Thin: options -> solver.bid (knowledge, sampling, solving, statistics) ->
the report of :mod:`dummy_spades.cli.bid_report` on stdout (Rich tables, or
``--json``), a progress bar on stderr when it is a terminal. docs/BID.md
describes the method and the JSON fields.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Callable, List, Optional

import typer

from dummy_spades.solver import bid as sim
from dummy_spades.solver.bid import HONESTY, Knowledge
from dummy_spades.solver.limits import LAYOUT_TT_MB
from dummy_spades.solver.scoring import TRICKS_PER_HAND
from dummy_spades.solver.simulation import DEFAULT_SAMPLES, DEFAULT_SEED, Settings

from .bid_report import analysis_json, check_json, render_analysis, render_checks, report
from .common import emit_json, fail, handle_errors, live_view, load_for_analysis, progress_bar
from .options import (CLUSTER_TIMEOUT, Cluster, ClusterTimeout, DealFile, Jobs, NoSpadeBreaking,
                      Samples, Sampling, Seed, html_option, json_option, player_option,
                      precision_option, sampling_option, time_limit_option, tt_mb_option, where)
from .page import html_target, write_report

HELP = (
    "Judge bids by double-dummy simulation: deal the cards the player has not seen at "
    "random (--samples times, consistent with their hand, the bids made before their turn "
    "and the dummy cards they saw under the variant), solve each layout for every role "
    "they can still end up in (declarer with the dummy, defender beside each other player; "
    "the bids made may rule some out) and report the trick "
    "distribution, the chance each bid makes, nil safety, the expected hand score of each "
    "bid and the best bid.\n\n"
    f"{HONESTY} Every probability is shown with its standard error (±) and the sample "
    "count (n; with conditioned sampling also the effective sample size n_eff).\n\n"
    "Conditioned sampling (the default) weights the earlier bidders' hands by a bidding model's "
    "chance of the bids they made, and the later bidders bid by the same model from their own "
    "view; --sampling uniform deals the unseen cards uniformly and models each later bidder as "
    "bidding their side's double-dummy tricks. The per-role columns need no model of the later "
    "bids. Method and JSON fields: docs/BID.md."
)


# --------------------------------------------------------------- command
@handle_errors
def bid(
    file: DealFile,
    player: Annotated[Optional[str], player_option(
        "Whose bid to analyse (default: the next bidder). If the file's auction holds "
        "their bid, it is judged knowing only the bids made before it.")] = None,
    bid_tricks: Annotated[Optional[int], typer.Option(
        "--bid", "-b", metavar="N", min=0, max=TRICKS_PER_HAND, show_default=False,
        help="Judge this bid (0-13): its chance, expected score and distance from the best "
             "alternative.")] = None,
    nil: Annotated[Optional[List[str]], typer.Option(
        "--nil", metavar="HAND", show_default=False,
        help="With --bid: a hand declared nil: self, dummy or a player's name (repeatable, "
             "or comma-separated).")] = None,
    all_players: Annotated[bool, typer.Option(
        "--all", help="Check every player's bid in bidding order beside the deal's "
                                  "actual double-dummy result.")] = False,
    samples: Samples = DEFAULT_SAMPLES,
    seed: Seed = DEFAULT_SEED,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_timeout: ClusterTimeout = CLUSTER_TIMEOUT,
    no_spade_breaking: NoSpadeBreaking = False,
    time_limit: Annotated[Optional[float], time_limit_option(
        "Stop after about this many seconds with the samples solved by then, at least "
        "one (--samples is then a maximum; with --all the time is shared by the players). "
        "The numbers are those of the first n samples of the seed; n is shown.")] = None,
    json_out: Annotated[bool, json_option("docs/BID.md")] = False,
    html: Annotated[Optional[Path], html_option("docs/BID.md \"The page\"")] = None,
    tt_mb: Annotated[Optional[float], tt_mb_option(LAYOUT_TT_MB, " per worker")] = None,
    precision: Annotated[Optional[float], precision_option(
        "percentage points for chances, points for the score difference",
        "Keep sampling until every chance shown has a standard error of at most X "
        "percentage points and the expected-score difference of the two best bids one of "
        "at most X points (checked at 20, 30, 40, 50, 60, 72, ... samples), capped by "
        "--samples and --time-limit; the tables update live meanwhile (not with --json).")]
    = None,
    sampling: Annotated[Sampling, sampling_option(
        "conditioned: weight the earlier bidders' hands by the bidding model's chance of "
        "their bids, later bidders bid by the model; uniform: the unseen cards dealt "
        "uniformly, later bidders bid their double-dummy tricks.")] = Sampling.conditioned,
    no_control_variates: Annotated[bool, typer.Option(
        "--no-control-variates",
        help="Plain means: no control variates (by default the chances and mean tricks are "
             "corrected by a cheap trick predictor over draws predicted but not solved, which "
             "reaches a standard error with fewer samples).")] = False,
) -> None:
    if nil and bid_tricks is None:
        fail("--nil needs --bid N (the bid whose nil designations they are)")
    if all_players and (player is not None or bid_tricks is not None):
        fail("--all judges every player's own bid; it cannot be combined with --player or --bid")
    runs_on = where(jobs, cluster, cluster_timeout)
    html_target(html, file)
    deal = load_for_analysis(file, no_spade_breaking)
    tt_mb = LAYOUT_TT_MB if tt_mb is None else tt_mb
    settings = Settings(samples, seed, sampling.value, precision=precision, time_limit=time_limit)
    if all_players:
        bidders = len(deal.auction.bids) if deal.auction else 0
        total = samples * min(3, bidders + 1)
        with runs_on.start() as runner, progress_bar(total, "simulating") as advance:
            checks = sim.check_all(deal, settings, advance, tt_mb, executor=runner,
                                   controls=not no_control_variates)
        payload = check_json(checks)
        show: Callable[[], None] = lambda: render_checks(checks)    # noqa: E731
    else:
        knowledge = Knowledge.from_deal(deal, player)
        candidate = None
        if bid_tricks is not None:
            candidate = sim.parse_candidate(knowledge, bid_tricks, nil or [])
        else:
            candidate = sim.file_bid(deal, knowledge.player)
        live = precision is not None and not json_out
        with runs_on.start() as runner, live_view(live, report) as update, \
                progress_bar(samples, "simulating", enabled=update is None) as advance:
            analysis = sim.analyse(knowledge, settings, candidate, advance, tt_mb, update,
                                   executor=runner, controls=not no_control_variates)
        payload = analysis_json(analysis)
        show = lambda: render_analysis(analysis)    # noqa: E731
    write_report(html, "bid", payload, deal)
    if json_out:
        emit_json(payload)
    else:
        show()


def register(app: typer.Typer) -> None:
    app.command("bid", help=HELP)(bid)
