"""``dummy-spades show FILE``: the deal laid out like a card table.

The declarer sits at the bottom, the dummy opposite (top), the left defender
(next clockwise after the declarer) on the left and the right defender on the
right; before the auction is complete the dealer sits at the bottom and the
dummy lies face down at the top. Below the table: the auction with its nil
designations, the tricks played, whose turn it is, running scores and the
auction variant. ``--json`` prints the documented fields (README "JSON output").
"""
from __future__ import annotations

from typing import Annotated, Dict, List, Optional

import typer
from rich.align import Align
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import iter_cards
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.scoring import DUMMY
from dummy_spades.solver.seating import DUMMY_SEAT, bidding_order, controller

from .common import console, emit_json, handle_errors
from .options import DealFile, json_option
from .render import (POSITIONS, bidding_note, card_text, cards_text, display_order, holding_lines,
                     show_json, table_layout)

# ------------------------------------------------------------------ Rich
def _hand_panel(deal: Deal, name: str, hand: int, board: Optional[Board]) -> Panel:
    tags: List[str] = []
    if deal.declarer is not None:
        tags.append(deal.seating().role(name))
        if name == DUMMY:
            tags[-1] = f"dummy, played by {deal.declarer}"
    elif name == DUMMY:
        tags.append("face down until after the opening lead")
    if name == deal.dealer:
        tags.append("dealer")
    title = Text(name, style="bold")
    if board is not None and board.to_move is not None and board.names[board.to_move] == name:
        title.append(" ◀ to play", style="bold green")
    body: List[Text] = [Text(", ".join(tags), style="dim", justify="left")] if tags else []
    body += holding_lines(hand)
    if board is not None and board.tricks:
        body.append(Text(f"tricks: {board.tricks_won[board.names.index(name)]}", style="cyan",
                         justify="left"))
    return Panel(Group(*body), title=title, expand=False, padding=(0, 1))


def _centre(deal: Deal, layout: Dict[str, str], board: Optional[Board]) -> RenderableType:
    """The trick in progress, each card on the side of the hand that played it."""
    if board is None:
        nxt = deal.auction.next_bidder if deal.auction else bidding_order(deal.players, deal.dealer)[0]
        return Text(f"auction: {nxt} to bid", style="dim")
    if board.is_over:
        return Text("all 13 tricks played", style="dim")
    played = {board.names[seat]: card for seat, card in zip(board.current_trick.seats, board.trick)}
    cell = {pos: card_text(played[name]) if name in played else Text("")
            for pos, name in layout.items()}
    grid = Table.grid(padding=(0, 1))
    for _ in range(3):
        grid.add_column(justify="center", min_width=3)
    label = f"trick {len(board.tricks) + 1}" if played else f"{board.names[board.leader]} to lead"
    grid.add_row("", cell["top"], "")
    grid.add_row(cell["left"], Text(label, style="dim"), cell["right"])
    grid.add_row("", cell["bottom"], "")
    return Align.center(grid)


def _table(deal: Deal, board: Optional[Board]) -> Table:
    layout = table_layout(deal)
    held = dict(zip(board.names, board.hands)) if board else dict(deal.hands)
    panel = {pos: _hand_panel(deal, name, held[name], board) for pos, name in layout.items()}
    grid = Table.grid(padding=(0, 2))
    for _ in range(3):
        grid.add_column(justify="center", vertical="middle")
    grid.add_row("", panel["top"], "")
    grid.add_row(panel["left"], _centre(deal, layout, board), panel["right"])
    grid.add_row("", panel["bottom"], "")
    return grid


def _auction_table(deal: Deal) -> Optional[Table]:
    auction = deal.auction
    if auction is None:
        return None
    counted = auction.applicable_nils() if auction.is_complete else None
    t = Table(title=f"Auction (dealer {deal.dealer})", title_justify="left", show_edge=False)
    t.add_column("bidder")
    t.add_column("bid", justify="right")
    t.add_column("nil on")
    t.add_column("")
    for bid in auction.bids:
        nils = Text()
        for i, hand in enumerate(bid.nils):
            if i:
                nils.append(", ")
            label = "own hand" if hand == bid.player else hand
            if counted is None:
                nils.append(label)
            else:
                ok = any(n.bidder == bid.player and n.hand == hand for n in counted)
                nils.append(label, style="" if ok else "dim strike")
                nils.append(" (counts)" if ok else " (ignored)", style="green" if ok else "dim")
        t.add_row(bid.player, str(bid.tricks), nils,
                  Text("declarer", style="bold") if bid.player == auction.declarer else "")
    if auction.next_bidder:
        t.add_row(auction.next_bidder, "?", "", Text("to bid", style="bold green"))
    return t


def _tricks_table(board: Board) -> Optional[Table]:
    if not board.tricks:
        return None
    names = board.names
    t = Table(title="Tricks played", title_justify="left", show_edge=False)
    t.add_column("#", justify="right")
    t.add_column("cards (leader first)")
    t.add_column("won by")
    for i, trick in enumerate(board.tricks, 1):
        cards = Text("  ").join(Text.assemble(card_text(c), f" {names[s]}")
                                for s, c in zip(trick.seats, trick.cards))
        t.add_row(str(i), cards, names[trick.winner])
    return t


def _status(deal: Deal, board: Board) -> Text:
    names = board.names
    text = Text()
    if board.moves:
        text.append("Tricks won: ")
        text.append(", ".join(f"{n} {w}" for n, w in zip(names, board.tricks_won)))
        text.append(f" — declarer side {board.declarer_tricks}, defenders {board.defender_tricks}\n")
    else:
        text.append(f"Opening lead: {names[board.leader]} (the first bidder)\n")
    if deal.rules.breaking:
        text.append(f"Spades {'broken' if board.spades_broken else 'not broken yet'}\n")
    if board.is_over:
        text.append("The hand is over.", style="bold")
        return text
    seat = board.to_move
    assert seat is not None
    who = names[seat]
    if seat == DUMMY_SEAT:
        who = f"dummy (played by {names[controller(seat)]})"
    verb = "lead" if not board.trick else "play"
    text.append(f"Turn: {who} to {verb}; legal: ", style="bold")
    text.append_text(cards_text(display_order(board.legal_moves())))
    return text


def _extras(deal: Deal) -> List[RenderableType]:
    out: List[RenderableType] = []
    r = deal.rules
    out.append(Text(f"Rules: spade breaking {'on' if r.breaking else 'off'}; "
                    f"{r.scoring.bag_threshold} bags cost {r.scoring.bag_penalty}; "
                    f"game to {r.scoring.target}", style="dim"))
    v = deal.variant
    if v.label != "no-peeky":
        line = Text(f"Variant: {v.label}")
        if v.is_flip and v.face_up:
            line.append(" — face up: ")
            line.append_text(cards_text(display_order(iter_cards(v.face_up))))
        for player, mask in v.seen.items():
            line.append(f"\n  {player} {'turned up' if v.is_flip else 'looked at'}: ")
            line.append_text(cards_text(display_order(iter_cards(mask))))
        note = bidding_note(deal)
        if note:
            line.append(f"\n{note}")
        out.append(line)
    if deal.scores:
        t = Table(title="Running scores before this hand", title_justify="left", show_edge=False,
                  min_width=34)
        t.add_column("player")
        t.add_column("points", justify="right")
        t.add_column("bags", justify="right")
        for p, s in deal.scores.items():
            t.add_row(p, str(s.points), str(s.bags))
        out.append(t)
    return out


def render_deal(deal: Deal) -> Group:
    board = deal.board() if deal.declarer is not None else None
    parts: List[RenderableType] = []
    if deal.title:
        parts.append(Text(deal.title, style="bold underline"))
    if deal.notes:
        parts.append(Text(deal.notes.strip(), style="italic"))
    parts.append(_table(deal, board))
    for table in (_auction_table(deal), None if board is None else _tricks_table(board)):
        if table:
            parts += [Text(), table]
    if board is not None:
        parts += [Text(), _status(deal, board)]
    for extra in _extras(deal):
        parts += [Text(), extra]
    return Group(*parts)


@handle_errors
def show(
    file: DealFile,
    json_out: Annotated[bool, json_option("docs/FORMAT.md")] = False,
) -> None:
    """Show a deal laid out like a card table: hands, auction, tricks so far, whose turn."""
    deal = load_deal(file)
    if json_out:
        emit_json(show_json(deal))
    else:
        console.print(render_deal(deal))


def register(app: typer.Typer) -> None:
    app.command("show")(show)
