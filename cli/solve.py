"""``dummy-spades solve FILE``: the double-dummy result of a deal.

With a complete auction: for the auction's declarer, at the file's current
position (after its played cards; tricks already won included), the declarer
side's and the defenders' tricks, which bids make or fail, the hand's scores
and the outcome of every nil bet that counts. When cards have been played:
the same from the opening lead next to what happened (the actual result of
a finished hand). Always: a DD table with each real player as the potential
declarer, from the opening lead (the first bidder leads). ``--json``: the
stable fields of docs/SOLVE.md.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Dict, List, Optional, Sequence

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver import analysis
from dummy_spades.solver.analysis import ContractResult, TableRow
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.deal import Deal, HandResult
from dummy_spades.solver.scoring import DUMMY, PlayerScore
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE, first_bidder, side_name

from .common import console, emit_json, handle_errors, load_for_analysis, signed
from .options import DealFile, NoSpadeBreaking, TtMb, html_option, json_option
from .page import html_target, write_report
from .render import add_columns, breaking_text, nil_json, nils_text, player_json


# ------------------------------------------------------------------ JSON
def contract_json(r: ContractResult) -> Dict[str, object]:
    seating = r.seating
    return {
        "declarer": r.declarer,
        "left_defender": seating.defenders[0],
        "right_defender": seating.defenders[1],
        "play_order": list(seating.names),
        "position": {"tricks_played": r.tricks_played, "cards_played": r.cards_played,
                     "to_move": r.to_move, "played_by": r.played_by,
                     "spades_broken": r.spades_broken},
        "won": {"declarer": r.won_declarer, "defenders": r.won_defenders},
        "declarer_tricks": r.declarer_tricks,
        "defender_tricks": r.defender_tricks,
        "scoring": {"basis": r.scoring_basis,
                    "declarer_tricks": [r.scoring_low, r.scoring_high],
                    "players_high": None if r.result_high is None
                    else [player_json(s) for s in r.result_high.scores]},
        "players": [player_json(s) for s in r.scores],
        "nils": [{"bidder": n.bidder, "hand": n.hand, "side": side_name(n.side), "kept": n.kept,
                  "side_tricks": n.side_tricks, "lost_already": n.lost_already,
                  "points": n.points} for n in r.nils],
        "ignored_nils": [nil_json(n) for n in r.ignored_nils],
    }


def table_json(rows: List[TableRow]) -> List[Dict[str, object]]:
    return [{"declarer": row.declarer, "left_defender": row.seating.defenders[0],
             "right_defender": row.seating.defenders[1], "opening_leader": row.opening_leader,
             "declarer_tricks": row.declarer_tricks, "defender_tricks": row.defender_tricks}
            for row in rows]


def actual_json(result: HandResult) -> Dict[str, object]:
    return {"declarer_tricks": result.declarer_tricks, "defender_tricks": result.defender_tricks,
            "players": [player_json(s) for s in result.scores]}


def solve_json(deal: Deal, file: str, contract: Optional[ContractResult],
               rows: List[TableRow], opening: Optional[ContractResult] = None,
               actual: Optional[HandResult] = None) -> Dict[str, object]:
    """The documented JSON of ``solve --json`` (docs/SOLVE.md)."""
    return {
        "file": file,
        "title": deal.title or None,
        "spade_breaking": deal.rules.breaking,
        "players": list(deal.players),
        "dealer": deal.dealer,
        "opening_leader": first_bidder(deal.players, deal.dealer),
        "declarer": deal.declarer,
        "contract": None if contract is None else contract_json(contract),
        "opening": None if opening is None else contract_json(opening),
        "actual": None if actual is None else actual_json(actual),
        "table": table_json(rows),
    }


# ------------------------------------------------------------------ Rich
def _position_text(r: ContractResult) -> Text:
    text = Text()
    if r.cards_played == 0:
        text.append(f"From the opening lead: {r.to_move} leads.", style="dim")
        return text
    done = f"{r.tricks_played} trick{'' if r.tricks_played == 1 else 's'}"
    extra = r.cards_played - 4 * r.tricks_played
    if extra:
        done += f" and {extra} card{'' if extra == 1 else 's'}"
    who = f"dummy (played by {r.played_by})" if r.to_move == DUMMY else r.to_move
    text.append(f"After {done}: {who} to play; won so far: declarer side {r.won_declarer}, "
                f"defenders {r.won_defenders}", style="dim")
    if r.breaking:
        text.append(f"; spades {'broken' if r.spades_broken else 'not broken'}", style="dim")
    text.append(".", style="dim")
    return text


def _contract_cell(s: PlayerScore) -> Text:
    if not s.made:
        return Text(f"set {signed(s.contract_points)}", style="red")
    bags = f" ({s.bags} bag{'' if s.bags == 1 else 's'})" if s.bags else ""
    return Text(f"made {signed(s.contract_points)}{bags}", style="green")


def scores_table(scores: Sequence[PlayerScore]) -> Table:
    """Each real player's hand score: role, bid, side tricks, contract, nil bets, total."""
    t = Table(show_edge=False, pad_edge=False)
    add_columns(t, (("player", "left"), ("role", "left"), ("bid", "right"),
                    ("side tricks", "right"), ("contract", "left"), ("nil bets", "left"),
                    ("hand", "right")))
    for s in scores:
        t.add_row(Text(s.player, style="bold" if s.role == "declarer" else ""), s.role,
                  str(s.bid), str(s.side_tricks), _contract_cell(s), nils_text(s),
                  Text(signed(s.points), style="bold"))
    return t


def render_contract(deal: Deal, r: ContractResult, head_line: bool = True) -> Group:
    seating = r.seating
    decl = " + ".join(analysis.side_members(seating.names, DECLARER_SIDE))
    defs = " + ".join(analysis.side_members(seating.names, DEFENDER_SIDE))
    head = Text.assemble(
        (f"{r.declarer} declares", "bold"),
        f" (the dummy sits opposite); {breaking_text(deal)}.")
    totals = Text.assemble(
        "Double dummy: ", (f"declarer side {r.declarer_tricks}", "bold"), f" ({decl}), ",
        (f"defenders {r.defender_tricks}", "bold"), f" ({defs}).")
    t = scores_table(r.scores)
    parts: List[RenderableType] = [head] if head_line else []
    parts += [_position_text(r), totals]
    if r.scoring_basis != "tricks":
        span = (str(r.scoring_low) if r.scoring_high == r.scoring_low
                else f"{r.scoring_low}-{r.scoring_high}")
        who = {"declarer-nil": "the declarer side plays to keep its nil",
               "defender-nil": "the defenders play to keep their nil",
               "both-nils": "both sides play to keep their nils"}[r.scoring_basis]
        note = Text(f"Scores: {who} before taking tricks, so the declarer side "
                    f"ends with {span} tricks.", style="yellow")
        if r.result_high is not None:
            note.append(f" Shown at {r.scoring_low}; at {r.scoring_high}: " + ", ".join(
                f"{s.player} {signed(s.points)}" for s in r.result_high.scores) + ".")
        parts.append(note)
    parts.append(t)
    for n in r.nils:
        owner = "own hand" if n.hand == n.bidder else n.hand
        line = Text(f"Nil: {n.bidder} on {owner} — ")
        if n.lost_already:
            line.append("lost already (it has won a trick)", style="red")
        elif n.kept:
            line.append("kept", style="green")
            side = "declarer side" if n.side == DECLARER_SIDE else "defenders"
            line.append(f" (the {side} can still take {n.side_tricks} "
                        f"trick{'' if n.side_tricks == 1 else 's'})")
        else:
            line.append("cannot be kept against best defence", style="red")
        parts.append(line)
    for bet in r.ignored_nils:
        parts.append(Text(f"{bet.bidder}'s nil on {bet.hand} does not count (not on the same side).",
                          style="dim"))
    return Group(*parts)


def render_table(deal: Deal, rows: List[TableRow]) -> Group:
    leader = first_bidder(deal.players, deal.dealer)
    title = Text(f"DD table: each player as declarer, {leader} leading ({breaking_text(deal)})",
                 style="italic")
    t = Table(show_edge=False, pad_edge=False)
    add_columns(t, (("declarer", "left"), ("against", "left"),
                    ("declarer side", "right"), ("defenders", "right"), ("", "left")))
    for row in rows:
        mark = Text("auction's declarer", style="dim") if row.declarer == deal.declarer else Text("")
        t.add_row(Text(row.declarer, style="bold"), ", ".join(row.seating.defenders),
                  str(row.declarer_tricks), str(row.defender_tricks), mark)
    return Group(title, t)


def render_actual(deal: Deal, opening: ContractResult, actual: HandResult) -> Group:
    """What happened in a finished hand, against the double-dummy result from the opening lead."""
    diff = actual.declarer_tricks - opening.declarer_tricks
    head = Text.assemble(
        ("What happened: ", "bold"), "all 13 tricks played; ",
        (f"declarer side {actual.declarer_tricks}", "bold"), ", ",
        (f"defenders {actual.defender_tricks}", "bold"),
        f" ({signed(diff)} for the declarer side against double dummy" if diff else
        " (the double-dummy result", "; `dummy-spades review` shows card by card where)."
        if diff else ").")
    return Group(head, scores_table(actual.scores))


def render_solve(deal: Deal, contract: Optional[ContractResult], rows: List[TableRow],
                 opening: Optional[ContractResult] = None,
                 actual: Optional[HandResult] = None) -> Group:
    parts: List[RenderableType] = []
    if deal.title:
        parts.append(Text(deal.title, style="bold underline"))
    if opening is not None:
        parts += [render_contract(deal, opening), Text()]
    if actual is not None and opening is not None:
        parts += [render_actual(deal, opening, actual), Text()]
    if contract is not None:
        if opening is not None:
            diff = contract.declarer_tricks - opening.declarer_tricks
            parts.append(Text.assemble(
                ("What happened so far, then double dummy: ", "bold"),
                f"{signed(diff)} for the declarer side against the opening lead"
                + ("; `dummy-spades review` shows card by card where." if diff else ".")))
        parts += [render_contract(deal, contract, head_line=opening is None), Text()]
    if deal.auction is None:
        parts.append(Text("No auction in the file: the DD table only.", style="dim"))
    elif deal.declarer is None:
        parts.append(Text(f"The auction is not complete ({deal.auction.next_bidder} to bid): "
                          "the DD table only.", style="dim"))
    parts.append(render_table(deal, rows))
    return Group(*parts)


@handle_errors
def solve(
    file: DealFile,
    no_spade_breaking: NoSpadeBreaking = False,
    json_out: Annotated[bool, json_option("docs/SOLVE.md")] = False,
    html: Annotated[Optional[Path], html_option("docs/SOLVE.md \"The page\"")] = None,
    tt_mb: TtMb = None,
) -> None:
    """Double-dummy result: tricks, bids made or set, scores and nil outcomes for the declarer
    (from the opening lead next to what happened, when cards were played); a DD table."""
    html_target(html, file)
    deal = load_for_analysis(file, no_spade_breaking)
    solver = make_solver(tt_mb)
    contract = opening = actual = None
    if deal.declarer is not None:
        board = deal.board()
        if deal.played:
            opening = analysis.contract_result(deal.opening_board(), solver)
        if board.is_over:
            actual = board.score()
        else:
            contract = analysis.contract_result(board, solver)
    rows = list(analysis.dd_table(deal, solver))
    payload = solve_json(deal, str(file), contract, rows, opening, actual)
    write_report(html, "solve", payload, deal)
    if json_out:
        emit_json(payload)
    else:
        console.print(render_solve(deal, contract, rows, opening, actual))


def register(app: typer.Typer) -> None:
    app.command("solve")(solve)
