"""``dummy-spades score FILE``: each player's score for the hand.

The trick totals come from the played cards when the file holds all 13
tricks; otherwise give them on the command line (``--declarer-tricks`` or
``--defender-tricks``, plus ``--nil-tricks HAND=N`` for each hand under a nil
bet that counts). With running scores in the file, the updated ledger (bag
penalties included) and any winner follow. ``--json``: README "JSON output".
"""
from __future__ import annotations

import re
from typing import Annotated, Dict, List, Optional

import typer
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.deal import Deal, HandResult
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.scoring import TRICKS_PER_HAND, PlayerScore, Standing

from .common import console, emit_json, handle_errors, signed
from .options import DealFile, json_option
from .render import add_columns, bidding_note, nil_json, nils_text, standing_json

# click's UsageError (exit 2) as typer uses it: typer >= 0.29 vendors its own click.
UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")

# Deal.score() problems with the trick totals: the command line's, not the file's.
OPTION_HINTS = {"declarer_tricks": "--declarer-tricks", "hand_tricks": "--nil-tricks", "played": None}


def parse_nil_tricks(values: List[str]) -> Dict[str, int]:
    """``["dummy=0", "Bob=1"]`` -> ``{"dummy": 0, "Bob": 1}`` (usage error if malformed)."""
    out: Dict[str, int] = {}
    for value in values:
        m = re.fullmatch(r"\s*(.+?)\s*[=:]\s*(\d+)\s*", value)
        if not m:
            raise typer.BadParameter(f"{value!r} is not HAND=N (e.g. dummy=0)", param_hint="--nil-tricks")
        if m.group(1) in out:
            raise typer.BadParameter(f"{m.group(1)} is given twice", param_hint="--nil-tricks")
        out[m.group(1)] = int(m.group(2))
    return out


def score_deal(deal: Deal, file: str, declarer_tricks: Optional[int],
               hand_tricks: Dict[str, int]) -> HandResult:
    """``deal.score(...)``; a problem with the command-line totals is a usage
    error (exit 2), a problem with the file is located in the file (exit 1)."""
    try:
        return deal.score(declarer_tricks, hand_tricks)
    except DealError as err:
        root = (err.field or "").split(".")[0]
        if root not in OPTION_HINTS:
            raise err.relocated(file=file) from None
        text = err.problem + (f"; expected {err.expected}" if err.expected else "")
        param = OPTION_HINTS[root]
        if param is None:  # an unfinished hand: the totals are missing
            raise UsageError(f"{file}: {text} (give --declarer-tricks N or --defender-tricks N)") from None
        raise typer.BadParameter(text, param_hint=param) from None


# ------------------------------------------------------------------ JSON
def _player_json(s: PlayerScore) -> Dict[str, object]:
    return {
        "player": s.player,
        "role": s.role,
        "bid": s.bid,
        "side_tricks": s.side_tricks,
        "made": s.made,
        "contract_points": s.contract_points,
        "bags": s.bags,
        "nils": [{"hand": n.hand, "tricks": n.tricks, "success": n.success, "points": n.points}
                 for n in s.nils],
        "nil_points": s.nil_points,
        "points": s.points,
    }


def score_json(deal: Deal, result: HandResult, source: str) -> Dict[str, object]:
    """The documented JSON of ``score --json``."""
    rules = deal.rules.scoring
    return {
        "declarer": result.declarer,
        "declarer_tricks": result.declarer_tricks,
        "defender_tricks": result.defender_tricks,
        "tricks_from": source,
        "hand_tricks": dict(result.hand_tricks),
        "players": [_player_json(s) for s in result.scores],
        "ignored_nils": [nil_json(n) for n in result.ignored_nils],
        "ledger": None if result.ledger is None else [
            {"player": e.player, "before": standing_json(e.before), "hand_points": e.hand_points,
             "hand_bags": e.hand_bags, "bag_penalties": e.bag_penalties,
             "penalty_points": e.bag_penalties * rules.bag_penalty, "after": standing_json(e.after)}
            for e in result.ledger],
        "winner": result.winner,
        "target": rules.target,
        "variant": deal.variant.label,
    }


# ------------------------------------------------------------------ Rich
def _standing(s: Standing) -> str:
    return f"{s.points} ({s.bags} bag{'' if s.bags == 1 else 's'})"


def _contract_text(s: PlayerScore) -> Text:
    if not s.made:
        return Text(f"{signed(s.contract_points)} set", style="red")
    return Text(signed(s.contract_points), style="green")


def _scores_table(result: HandResult) -> Table:
    t = Table(title=f"Hand scores: {result.declarer} declarer, declarer side "
                    f"{result.declarer_tricks}, defenders {result.defender_tricks}",
              title_justify="left", show_edge=False)
    add_columns(t, (("player", "left"), ("bid", "right"), ("side tricks", "right"),
                    ("contract", "right"), ("bags", "right"), ("nil bets", "left"),
                    ("hand", "right")), no_wrap=True, wrapping=("nil bets",))
    for s in result.scores:
        name = Text(s.player, style="bold" if s.role == "declarer" else "")
        t.add_row(name, str(s.bid), str(s.side_tricks), _contract_text(s), str(s.bags),
                  nils_text(s, tricks=True), Text(signed(s.points), style="bold"))
    return t


def _ledger_table(deal: Deal, result: HandResult) -> Table:
    rules = deal.rules.scoring
    t = Table(title="Running scores", title_justify="left", show_edge=False)
    for col in ("player", "before", "hand", "bags", "bag penalty", "after"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for e in result.ledger or ():
        t.add_row(e.player, _standing(e.before), signed(e.hand_points),
                  f"+{e.hand_bags}",
                  Text(f"-{e.bag_penalties * rules.bag_penalty}", style="red") if e.bag_penalties else "",
                  Text(_standing(e.after), style="bold"))
    return t


def render_result(deal: Deal, result: HandResult) -> None:
    console.print(_scores_table(result))
    note = bidding_note(deal)
    if note:
        console.print(Text(note, style="dim"))
    for n in result.ignored_nils:
        console.print(Text(f"{n.bidder}'s nil on {n.hand} does not count "
                           "(not on the same side) and is ignored.", style="dim"))
    if result.ledger is not None:
        console.print()
        console.print(_ledger_table(deal, result))
        target = deal.rules.scoring.target
        if result.winner:
            console.print(Text(f"{result.winner} wins the game (target {target}).", style="bold green"))
        else:
            console.print(Text(f"No winner yet (target {target}).", style="dim"))


@handle_errors
def score(
    file: DealFile,
    declarer_tricks: Annotated[Optional[int], typer.Option(
        "--declarer-tricks", metavar="N", min=0, max=TRICKS_PER_HAND, show_default=False,
        help="Tricks of the declarer side (declarer + dummy), when the file has no complete play.")] = None,
    defender_tricks: Annotated[Optional[int], typer.Option(
        "--defender-tricks", metavar="N", min=0, max=TRICKS_PER_HAND, show_default=False,
        help="Tricks of the two defenders together (instead of --declarer-tricks).")] = None,
    nil_tricks: Annotated[Optional[List[str]], typer.Option(
        "--nil-tricks", metavar="HAND=N", show_default=False,
        help="Tricks of a hand under a nil bet that counts, e.g. dummy=0 (repeatable).")] = None,
    json_out: Annotated[bool, json_option("docs/FORMAT.md")] = False,
) -> None:
    """Score the hand: each player's points, bags and nil results; with running scores the new totals."""
    if declarer_tricks is not None and defender_tricks is not None:
        raise UsageError("give --declarer-tricks or --defender-tricks, not both")
    if defender_tricks is not None:
        declarer_tricks = TRICKS_PER_HAND - defender_tricks
    hands = parse_nil_tricks(nil_tricks or [])
    deal = load_deal(file)
    result = score_deal(deal, str(file), declarer_tricks, hands)
    source = "command line" if declarer_tricks is not None else "play"
    if json_out:
        emit_json(score_json(deal, result, source))
    else:
        render_result(deal, result)


def register(app: typer.Typer) -> None:
    app.command("score")(score)
