"""What each part of the explorer's screen shows, as Rich renderables: a
hand (its legal cards coloured by their values), the trick in the middle of
the table, the card values below it (double dummy, or single dummy from a
player's view) and the hand scores beside it (in practice, the bids and the
tricks so far until the hand is over). Nothing here moves the play or asks
the engine; :mod:`.app` puts these on the screen."""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.advise import EXACT, Advice, CardFigures, within
from dummy_spades.solver.analysis import CardAnalysis
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import SUIT_SYMBOLS, SUITS, iter_cards, suit_of
from dummy_spades.solver.exploration import Exploration, Refinement
from dummy_spades.solver.scoring import TRICKS_PER_HAND
from dummy_spades.solver.seating import DECLARER_SEAT, DECLARER_SIDE, DUMMY_SEAT, side_of

from ..render import add_columns, card_text, display_order, points_text, rank_text, suit_style

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


#: the colour of a legal card (its value against the best card's)
CardStyle = Callable[[int], Style]


def figures_style(advice: Optional[Advice]) -> CardStyle:
    """A legal card's colour by its single-dummy figures: green the
    recommended card and those within two standard errors of it, yellow
    less than a trick worse on average, red more; dim while pending."""
    by_card: Dict[int, CardFigures] = {}
    if advice is not None:
        by_card = {c: f for f in advice.cards for c in f.cards}

    def style(card: int) -> Style:
        f = by_card.get(card)
        if f is None:
            return Style(dim=True)
        if f is advice.cards[0] or within(f):  # type: ignore[union-attr]
            return Style(color="green", bold=True)
        return Style(color="yellow" if f.tricks_diff.value > -1 else "red")
    return style


def hand_panel(board: Board, seat: int, shown: int, unseen: int, legal: Sequence[int],
               selected: Optional[int], style: CardStyle) -> RenderableType:
    """The hand of ``seat``: the cards ``shown`` by suit (``legal`` ones
    underlined, clickable and coloured by ``style``; ``selected`` reversed)
    and how many more it holds ``unseen``; the tricks it has won."""
    names = board.names
    to_move = board.to_move == seat
    title = Text(names[seat], style="bold")
    role = ("declarer" if seat == DECLARER_SEAT else
            f"{names[DECLARER_SEAT]} plays it" if seat == DUMMY_SEAT else "defender")
    title.append(f" ({role})", style="dim")
    if to_move:
        title.append(" ◀ to play", style="bold green")
    lines: List[Text] = []
    if shown == 0 and unseen:
        lines.append(Text(f"{unseen} cards hidden", style="dim"))
    else:
        for suit in SUITS:
            line = Text.assemble((SUIT_SYMBOLS[suit], suit_style(suit)), " ")
            cards = [c for c in display_order(iter_cards(shown)) if suit_of(c) == suit]
            if not cards:              # a void, or (with cards unseen) none seen
                line.append("·" if unseen else "—", style="dim")
            for c in cards:
                rank = rank_text(c)
                if c in legal:
                    look = style(c) + Style(meta={"@click": f"app.play({c})"}, underline=True)
                    if c == selected:
                        look += Style(reverse=True)
                    line.append(rank, style=look)
                else:
                    line.append(rank, style="dim" if to_move else "")
                line.append(" ")
            lines.append(line)
        if unseen:
            lines.append(Text(f"and {unseen} cards unseen", style="dim"))
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


def sampled_text(advice: Advice) -> str:
    """How many layouts the figures cover: ``all 924 layouts (exact)``,
    ``120 of 924 layouts``, ``63 of 1,000 samples (n_eff 40)``."""
    if advice.method == EXACT:
        return f"all {advice.consistent:,} layouts (exact)"
    if advice.requested == advice.consistent:       # exact mode, under way
        return f"{advice.samples:,} of {advice.consistent:,} layouts"
    text = f"{advice.samples:,} of {advice.requested:,} samples"
    if advice.sampling.conditioned:
        text += f" (n_eff {advice.effective_samples:.0f})"
    return text


def single_dummy_text(board: Board, forced: Optional[Sequence[int]],
                      refinement: Optional[Refinement], dd: Optional[CardAnalysis],
                      frame: int) -> Text:
    """The line below the table in a player's view: who is to play, and
    each group of equivalent legal cards, best first, with the chooser's
    side's expected tricks ± SE from what the chooser sees (green: the
    recommended card and those within two SE of it), the double-dummy value
    beside it in brackets when ``dd`` is given (hindsight), and how many
    layouts the figures cover (a spinner while they are refined); with no
    choice to make (``forced``: every legal card worth the same), says so."""
    if board.is_over:
        return Text("The hand is over: u undoes a card, s goes back to the start.", style="bold")
    text = to_play_text(board)
    if forced is not None:
        text.append("No choice to make: ")
        text.append_text(Text(" ").join(card_text(c) for c in display_order(forced)))
        text.append(" (every legal card is worth the same).")
        return text
    advice = None if refinement is None else refinement.advice
    if refinement is None or advice is None:
        text.append(f"{SPINNER[frame]} single dummy: drawing layouts…", style="yellow")
        return text
    who = refinement.player
    text.append(f"Single dummy from {who}'s view: {who}'s side's expected tricks ± SE, "
                "best first by expected score")
    if dd is not None:
        text.append(" [double dummy: hindsight]", style="dim")
    text.append(f"; {sampled_text(advice)}")
    if not refinement.done:
        text.append(f" {SPINNER[frame]}", style="yellow")
    text.append(":\n")
    style = figures_style(advice)
    for i, f in enumerate(advice.cards):
        if i:
            text.append("   ")
        text.append_text(Text(" ").join(card_text(c) for c in display_order(f.cards)))
        text.append(": ")
        text.append(points_text(f.tricks), style=style(f.cards[0]))
        if dd is not None:
            text.append(f" [{dd.values[f.cards[0]]}]", style="dim")
    return text


def practice_text(board: Board, x: Exploration, refinement: Optional[Refinement],
                  hints: bool, frame: int) -> Text:
    """The line below the table in practice: the user's turn (with the
    single-dummy figures when ``hints``), or the computer choosing."""
    if board.is_over:
        return Text("The hand is over (the score is beside the table): u takes back your last "
                    "card, s plays the hand again, p leaves practice.", style="bold")
    if x.computer_to_play:
        text = to_play_text(board)
        advice = None if refinement is None else refinement.advice
        done = "" if advice is None else f": {sampled_text(advice)}"
        text.append(f"{SPINNER[frame]} {x.chooser} is choosing{done}", style="yellow")
        return text

    if hints:
        return single_dummy_text(board, x.forced(), refinement, None, frame)
    text = to_play_text(board)
    text.append("Your card (v shows the single-dummy figures from your view).", style="dim")
    return text


def bids_panel(x: Exploration) -> RenderableType:
    """The side panel in practice before the end of the hand: each real
    player's bid and their side's tricks so far."""
    board = x.board
    auction = x.deal.auction
    assert auction is not None
    t = Table(show_edge=False, pad_edge=False, box=None)
    add_columns(t, (("player", "left"), ("bid", "right"), ("side's tricks", "right")))
    for bid in auction.bids:
        seat = board.names.index(bid.player)
        t.add_row(bid.player + (" (you)" if bid.player == x.practice else ""), bid.call(),
                  str(board.side_won(side_of(seat))))
    limit = x.single.practice_seconds
    note = Text(f"You play {x.practice}"
                + (" and the dummy" if x.practice == x.declarer else "")
                + f"; the computer the others, by single dummy ({x.single.practice_samples} "
                  "samples a card" + (f", {limit:g} s at most" if limit else "") + ").",
                style="dim")
    return Panel(Group(note, t), title="Practice")


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


__all__ = ["POSITIONS", "SPINNER", "CardStyle", "bids_panel", "card_style", "declarer_value",
           "figures_style", "hand_panel", "practice_text", "sampled_text", "scores_panel",
           "single_dummy_text", "to_play_text", "trick_centre", "values_text"]
