"""``dummy-spades convert``: deal files to and from PBN deal strings.

* ``convert FILE`` prints the deal as a PBN deal string
  ``N:<declarer> <left defender> <dummy> <right defender>`` — the line
  ``batch`` reads (``--declarer NAME`` when the file has no auction, or to
  seat another player as declarer).
* ``convert FILE --to yaml`` prints the deal file in normal form.
* ``convert --pbn "N:..." --players A,B,C --dealer A [--declarer B]`` prints a
  new YAML deal file for a PBN deal string (seats read as ``to_pbn`` writes
  them: N declarer, E left defender, S dummy, W right defender).

Output goes to stdout only; nothing is written.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from dummy_spades.solver.deal import Deal
from dummy_spades.solver.dealfile import dump_deal, load_deal

from .common import handle_errors, known_player
from .options import (Target, dealer_option, declarer_option, json_option, parse_players,
                      players_option, to_option)


@handle_errors
def convert(
    file: Annotated[Optional[Path], typer.Argument(
        metavar="[FILE]", help="A YAML deal file (omit with --pbn).", show_default=False)] = None,
    to: Annotated[Optional[Target], to_option(
        "Output format (default: pbn for a FILE, yaml for --pbn).")] = None,
    declarer: Annotated[Optional[str], declarer_option(
        "Seat this player as declarer (N) in the PBN string.")] = None,
    pbn: Annotated[Optional[str], typer.Option(
        "--pbn", metavar="DEAL", help='Read a PBN deal string instead of a file, e.g. "N:AKQ.. ...".')] = None,
    players: Annotated[Optional[str], players_option(
        "With --pbn: the three real players, clockwise, comma-separated.")] = None,
    dealer: Annotated[Optional[str], dealer_option("With --pbn: the dealer.")] = None,
    json_out: Annotated[bool, json_option(help='Print {"pbn": ..., "yaml": ...} as JSON.')] = False,
) -> None:
    """Convert between YAML deal files and PBN deal strings (stdout only)."""
    if (file is None) == (pbn is None):
        raise typer.BadParameter("give either a deal FILE or --pbn (not both)")
    if pbn is not None:
        if players is None or dealer is None:
            raise typer.BadParameter("--pbn needs --players A,B,C and --dealer NAME")
        names = parse_players(players)
        if declarer is not None:
            known_player(declarer, names, "--declarer")
        deal = Deal.from_pbn(pbn, names, dealer, declarer=declarer)
    else:
        assert file is not None  # exactly one of FILE and --pbn (checked above)
        deal = load_deal(file)
        if declarer is not None:
            known_player(declarer, deal.players, "--declarer")
    if to is None:
        to = Target.pbn if pbn is None else Target.yaml  # the other form of what came in
    pbn_text = deal.to_pbn(declarer)
    if json_out:
        sys.stdout.write(json.dumps({"pbn": pbn_text, "yaml": dump_deal(deal)}, ensure_ascii=False) + "\n")
    elif to is Target.pbn:
        sys.stdout.write(pbn_text + "\n")
    else:
        sys.stdout.write(dump_deal(deal))


def register(app: typer.Typer) -> None:
    app.command("convert")(convert)
