"""``dummy-spades analyse FILE``: every legal card at the current position.

At the file's current position (after its played cards): the player to move
(the declarer chooses the dummy's cards), every legal card with its
double-dummy value - the tricks of the mover's side, tricks already won
included - with equivalent cards grouped and the best cards marked, then an
optimal line of play to the end of the hand, trick by trick. ``--declarer``
chooses the declarer when the file has no complete auction, or overrides the
auction's declarer for a what-if (before any card is played; the header
says so). ``--json``: the stable fields of docs/SOLVE.md.
"""
from __future__ import annotations

from typing import Annotated, Dict, List

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver import analysis
from dummy_spades.solver.analysis import CardAnalysis, Line
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.board import Board
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.scoring import DUMMY
from dummy_spades.solver.seating import DECLARER_SIDE

from .common import console, declarer_checked, emit_json, handle_errors, load_for_analysis
from .options import DealFile, Declarer, NoSpadeBreaking, TtMb, json_option
from .render import breaking_text, card_names, card_text, cards_text, display_order


def _side_label(side: int) -> str:
    return "declarer side" if side == DECLARER_SIDE else "defenders"


# ------------------------------------------------------------------ JSON
def analyse_json(deal: Deal, file: str, board: Board, cards: CardAnalysis,
                 line: Line) -> Dict[str, object]:
    """The documented JSON of ``analyse --json`` (docs/SOLVE.md)."""
    names = board.names
    trick = board.current_trick
    return {
        "file": file,
        "title": deal.title or None,
        "spade_breaking": deal.rules.breaking,
        "declarer": names[0],
        "auction_declarer": deal.declarer,
        "what_if": deal.declarer not in (None, names[0]),
        "play_order": list(names),
        "position": {
            "tricks_played": len(board.tricks),
            "trick": len(board.tricks) + 1,
            "leader": names[board.leader],
            "on_table": [{"hand": names[s], "card": c}
                         for s, c in zip(trick.seats, card_names(trick.cards))],
            "spades_broken": board.spades_broken,
            "won": {"declarer": board.declarer_tricks, "defenders": board.defender_tricks},
        },
        "to_move": cards.to_move,
        "played_by": cards.played_by,
        "side": cards.side_name,
        "side_hands": list(analysis.side_members(names, cards.side)),
        "side_won": cards.won,
        "value": cards.best_value,
        "best_cards": card_names(display_order(cards.best_cards)),
        "groups": [{"cards": card_names(display_order(g.cards)), "value": g.value, "best": g.best}
                   for g in cards.groups],
        "cards": {format_card(c): cards.values[c] for c in display_order(cards.values)},
        "line": {
            "cards": card_names(line.cards),
            "tricks": [{"number": t.number, "leader": t.leader,
                        "cards": [{"hand": hand, "card": format_card(card), "on_table": i < t.on_table}
                                  for i, (hand, card) in enumerate(t.cards)],
                        "winner": t.winner, "declarer_tricks": t.declarer_tricks,
                        "defender_tricks": t.defender_tricks} for t in line.tricks],
            "declarer_tricks": line.declarer_tricks,
            "defender_tricks": line.defender_tricks,
        },
    }


# ------------------------------------------------------------------ Rich
def _position_text(deal: Deal, board: Board, cards: CardAnalysis) -> Text:
    names = board.names
    text = Text()
    if deal.declarer not in (None, names[0]):
        text.append(f"What-if: {names[0]} declares in place of {deal.declarer} "
                    f"(the auction's declarer).\n", style="bold yellow")
    text.append(f"{names[0]} declares", style="bold")
    text.append(f" (the dummy sits opposite); {breaking_text(deal)}")
    if deal.rules.breaking:
        text.append(f"; spades {'broken' if board.spades_broken else 'not broken'}")
    text.append(".\n")
    number = len(board.tricks) + 1
    if board.trick:
        text.append(f"Trick {number}: {names[board.leader]} led; on the table: ")
        text.append_text(Text("  ").join(Text.assemble(card_text(c), f" {names[s]}")
                                         for s, c in zip(board.current_trick.seats, board.trick)))
        text.append(".\n")
    else:
        text.append(f"Trick {number}: {names[board.leader]} to lead.\n")
    if board.tricks:
        text.append(f"Won so far: declarer side {board.declarer_tricks}, "
                    f"defenders {board.defender_tricks}.\n")
    who = Text(cards.to_move, style="bold green")
    text.append("To play: ")
    text.append_text(who)
    if cards.to_move == DUMMY:
        text.append(f" — {cards.played_by} (the declarer) chooses the dummy's card")
    text.append(".")
    return text


def _group_text(cards: List[int]) -> Text:
    return cards_text(display_order(cards))


def render_cards(board: Board, cards: CardAnalysis) -> Group:
    side = _side_label(cards.side)
    members = " + ".join(analysis.side_members(board.names, cards.side))
    title = Text(f"Legal cards: total tricks of the {side} ({members}) after each", style="italic")
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("cards")
    t.add_column("tricks", justify="right")
    t.add_column("")
    for g in cards.groups:
        mark = Text("★ best", style="bold green") if g.best else Text(
            f"-{cards.best_value - g.value}", style="red")
        t.add_row(_group_text(list(g.cards)), Text(str(g.value), style="bold" if g.best else ""),
                  mark)
    return Group(title, t)


def render_line(board: Board, line: Line) -> Group:
    names = board.names
    title = Text("An optimal line (leads underlined, cards already played dimmed)", style="italic")
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("#", justify="right")
    for name in names:
        t.add_column(name, justify="center")
    t.add_column("winner")
    t.add_column("decl.", justify="right")
    t.add_column("def.", justify="right")
    for trick in line.tricks:
        cells = {}
        for i, (hand, card) in enumerate(trick.cards):
            cell = card_text(card)
            if i == 0:
                cell.stylize("underline")
            if i < trick.on_table:
                cell.stylize("dim")
            cells[hand] = cell
        t.add_row(str(trick.number), *(cells[n] for n in names), trick.winner,
                  str(trick.declarer_tricks), str(trick.defender_tricks))
    return Group(title, t)


def render_analysis(deal: Deal, board: Board, cards: CardAnalysis, line: Line) -> Group:
    parts: List[RenderableType] = []
    if deal.title:
        parts.append(Text(deal.title, style="bold underline"))
    parts += [_position_text(deal, board, cards), Text(), render_cards(board, cards), Text(),
              render_line(board, line),
              Text(f"Final: declarer side {line.declarer_tricks}, defenders {line.defender_tricks}.",
                   style="bold")]
    return Group(*parts)


@handle_errors
def analyse(
    file: DealFile,
    declarer: Declarer = None,
    no_spade_breaking: NoSpadeBreaking = False,
    json_out: Annotated[bool, json_option("docs/SOLVE.md")] = False,
    tt_mb: TtMb = None,
) -> None:
    """Value of every legal card at the current position, and an optimal line of play."""
    deal = load_for_analysis(file, no_spade_breaking)
    with declarer_checked(deal, declarer):
        solver = make_solver(tt_mb)
        board = analysis.analysis_board(deal, declarer)
        cards = analysis.card_analysis(board, solver)
        line = analysis.optimal_line(board, solver)
    if json_out:
        emit_json(analyse_json(deal, str(file), board, cards, line))
    else:
        console.print(render_analysis(deal, board, cards, line))


def register(app: typer.Typer) -> None:
    app.command("analyse")(analyse)
