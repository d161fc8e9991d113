"""What each part of the explorer's screen shows, as Rich renderables: a
hand (its legal cards coloured by their values), the trick in the middle of
the table, the card values below it and the hand scores beside it. Nothing
here moves the play or asks the engine; :mod:`.app` puts these on the
screen."""
from __future__ import annotations

from typing import List, Optional, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.analysis import CardAnalysis
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import SUIT_SYMBOLS, SUITS, count, iter_cards, suit_of
from dummy_spades.solver.exploration import Exploration
from dummy_spades.solver.scoring import TRICKS_PER_HAND
from dummy_spades.solver.seating import DECLARER_SEAT, DECLARER_SIDE, DUMMY_SEAT

from ..render import add_columns, card_text, display_order, rank_text, suit_style

#: the screen places of the play seats: the declarer at the bottom, clockwise
POSITIONS = ("bottom", "left", "top", "right")
SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def declarer_value(values: CardAnalysis, card: int) -> int:
    """A card's value as the declarer side's total (the analysis gives the mover's side's)."""
    v = values.values[card]
    return v if values.side == DECLARER_SIDE else TRICKS_PER_HAND - v


def card_style(card: int, values: Optional[CardAnalysis]) -> Style:
    """A legal card's colour against the best card: green best, yellow one
    trick worse, red two or more; dim while the values are pending."""
    if values is None:
        return Style(dim=True)
    gap = values.best_value - values.values[card]
    colour = "green" if gap == 0 else "yellow" if gap == 1 else "red"
    return Style(color=colour, bold=gap == 0)


def hand_panel(board: Board, seat: int, hidden: bool, legal: Sequence[int],
               selected: Optional[int], values: Optional[CardAnalysis]) -> RenderableType:
    """The hand of ``seat``: its cards by suit (``legal`` ones underlined,
    clickable and coloured by ``values``; ``selected`` reversed), or only
    their number when ``hidden``; the tricks it has won."""
    names = board.names
    to_move = board.to_move == seat
    title = Text(names[seat], style="bold")
    role = ("declarer" if seat == DECLARER_SEAT else
            f"{names[DECLARER_SEAT]} plays it" if seat == DUMMY_SEAT else "defender")
    title.append(f" ({role})", style="dim")
    if to_move:
        title.append(" ◀ to play", style="bold green")
    hand = board.hands[seat]
    lines: List[Text] = []
    if hidden:
        lines.append(Text(f"{count(hand)} cards hidden", style="dim"))
    else:
        for suit in SUITS:
            line = Text.assemble((SUIT_SYMBOLS[suit], suit_style(suit)), " ")
            cards = [c for c in display_order(iter_cards(hand)) if suit_of(c) == suit]
            if not cards:
                line.append("—", style="dim")
            for c in cards:
                rank = rank_text(c)
                if c in legal:
                    style = card_style(c, values) + Style(
                        meta={"@click": f"app.play({c})"}, underline=True)
                    if c == selected:
                        style += Style(reverse=True)
                    line.append(rank, style=style)
                else:
                    line.append(rank, style="dim" if to_move else "")
                line.append(" ")
            lines.append(line)
    lines.append(Text(f"tricks: {board.tricks_won[seat]}", style="cyan"))
    return Panel(Group(*lines), title=title, expand=False, padding=(0, 1),
                 border_style="green" if to_move else "")


def trick_centre(board: Board) -> RenderableType:
    """The middle of the table: the trick in progress where each hand sits,
    the trick's number, the side totals and the last complete trick."""
    grid = Table.grid(padding=(0, 1))
    for _ in range(3):
        grid.add_column(justify="center", min_width=3)
    played = dict(zip(board.current_trick.seats, board.trick))
    cell = {pos: card_text(played[seat]) if seat in played else Text("")
            for pos, seat in zip(POSITIONS, range(4))}
    if board.is_over:
        label = Text("hand over", style="bold")
    else:
        label = Text(f"trick {len(board.tricks) + 1}", style="dim")
    grid.add_row("", cell["top"], "")
    grid.add_row(cell["left"], label, cell["right"])
    grid.add_row("", cell["bottom"], "")
    totals = Text(f"declarer side {board.declarer_tricks} · defenders "
                  f"{board.defender_tricks}", style="cyan")
    last = board.tricks[-1] if board.tricks and not board.trick else None
    parts: List[RenderableType] = [grid, totals]
    if last is not None:
        parts.append(Text.assemble("last trick: ", *[x for c in last.cards
                                                      for x in (card_text(c), " ")],
                                   f"won by {board.names[last.winner]}", style="dim"))
    return Group(*parts)


def to_play_text(board: Board) -> Text:
    """``Carol to play. `` (``dummy (played by Carol) to play. ``)."""
    seat = board.to_move
    assert seat is not None
    who = board.names[seat]
    if seat == DUMMY_SEAT:
        who += f" (played by {board.names[DECLARER_SEAT]})"
    return Text(f"{who} to play. ", style="bold")


def values_text(board: Board, values: Optional[CardAnalysis], hidden: bool,
                frame: int) -> Text:
    """The line below the table: who is to play and each group of
    equivalent legal cards with its double-dummy value (the declarer side's
    total); a spinner while pending."""
    if board.is_over:
        return Text("The hand is over: u undoes a card, s goes back to the start.", style="bold")
    text = to_play_text(board)
    if hidden:
        text.append("This hand is hidden: b plays the double-dummy card.", style="dim")
        return text
    if values is None:
        text.append(f"{SPINNER[frame]} computing double-dummy values…", style="yellow")
        return text
    text.append("Declarer side's tricks after each card (green: best):\n")
    for i, g in enumerate(values.groups):
        if i:
            text.append("   ")
        text.append_text(Text(" ").join(card_text(c) for c in display_order(g.cards)))
        text.append(": ")
        text.append(str(declarer_value(values, g.cards[0])),
                    style=card_style(g.cards[0], values))
    return text


def scores_panel(x: Exploration, frame: int) -> RenderableType:
    """The side panel: every real player's bid, side tricks, made or set,
    bags, nils and points under double-dummy continuation (the actual
    result when the hand is over), the running totals and the deal's notes."""
    parts: List[RenderableType] = []
    deal = x.deal
    if not x.scored:
        parts.append(Text("No scores: the explored declarer is not the auction's.",
                          style="dim"))
        return Group(*parts)
    scores = x.known_scores()
    if scores is None:
        parts.append(Text(f"{SPINNER[frame]} scoring…", style="yellow"))
        return Panel(Group(*parts), title="Hand scores")
    basis = "actual" if scores.actual else "double dummy from here"
    parts.append(Text(f"Declarer side {scores.declarer_tricks}, defenders "
                      f"{TRICKS_PER_HAND - scores.declarer_tricks} ({basis})", style="bold"))
    t = Table(show_edge=False, pad_edge=False, box=None)
    add_columns(t, (("player", "left"), ("bid", "right"), ("tricks", "right"),
                    ("", "left"), ("pts", "right")))
    for s in scores.result.scores:
        result = Text("made", style="green") if s.made else Text("set", style="red")
        if s.made and s.bags:
            result.append(f", {s.bags} bag{'' if s.bags == 1 else 's'}", style="dim")
        for n in s.nils:
            who = "own" if n.hand == s.player else n.hand
            result.append(f"\nnil {who} {'kept' if n.success else 'lost'}",
                          style="green" if n.success else "red")
        t.add_row(s.player, str(s.bid), str(s.side_tricks), result, f"{s.points:+d}")
    parts.append(t)
    if scores.result.ledger is not None:
        ledger = Text("Running totals: ")
        ledger.append(", ".join(f"{e.player} {e.after.points} ({e.after.bags} bags)"
                                for e in scores.result.ledger))
        parts.append(ledger)
    if deal.notes:
        parts.append(Text(deal.notes.strip(), style="italic dim"))
    return Panel(Group(*parts), title="Hand scores")


__all__ = ["POSITIONS", "SPINNER", "card_style", "declarer_value", "hand_panel", "scores_panel",
           "to_play_text", "trick_centre", "values_text"]
