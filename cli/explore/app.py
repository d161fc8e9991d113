"""The explorer's screen (Textual): :class:`ExplorerApp`.

The screen over a library :class:`~dummy_spades.solver.exploration.Exploration`
(the board explored, its history and the engine's answers): the table as
``show`` lays it out (:mod:`.panels`), the double-dummy value of every legal
card of the player to move (computed in a worker thread on a copy of the
board, a spinner while pending), the hand scores under double-dummy
continuation, and the keys of docs/EXPLORE.md.

This module imports Textual; :mod:`.command` checks that it is installed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Dict, Hashable, List, Optional, Sequence, Tuple

from rich.console import RenderableType
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.events import Key
from textual.widgets import Footer, Static

from dummy_spades.solver.analysis import CardAnalysis
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.dealfile import dump_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.exploration import Exploration
from dummy_spades.solver.seating import DECLARER_SEAT, LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT

from ..render import display_order
from .dialogs import ConfirmScreen, SaveScreen
from .panels import POSITIONS, SPINNER, hand_panel, scores_panel, trick_centre, values_text

#: Which hands are hidden, cycled by the ``h`` key: (label, hidden seats).
VIEWS: Tuple[Tuple[str, Tuple[int, ...]], ...] = (
    ("all hands shown", ()),
    ("defenders hidden (declarer practice)", (LEFT_DEFENDER_SEAT, RIGHT_DEFENDER_SEAT)),
    ("left defender's view", (DECLARER_SEAT, RIGHT_DEFENDER_SEAT)),
    ("right defender's view", (DECLARER_SEAT, LEFT_DEFENDER_SEAT)),
)


class ExplorerApp(App[None]):
    """Explore a deal double dummy: see docs/EXPLORE.md for the keys."""

    TITLE = "dummy-spades explore"
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    #table { width: 1fr; }
    #grid { grid-size: 3 3; grid-columns: 1fr 1fr 1fr; grid-rows: auto auto auto;
            height: auto; }
    #grid > Static { content-align: center middle; height: auto; }
    #side { width: 46; padding: 0 1; }
    #values { height: auto; padding: 0 1; }
    #status { height: 1; padding: 0 1; color: $warning; }
    #dialog { width: 70; height: auto; padding: 1 2; border: thick $accent;
              background: $surface; }
    SaveScreen, ConfirmScreen { align: center middle; }
    """
    BINDINGS = [
        Binding("left", "cursor(-1)", "card ←", show=False),
        Binding("right", "cursor(1)", "card →", show=False),
        Binding("enter", "play_selected", "play"),
        Binding("u", "undo_card", "undo"),
        Binding("U", "undo_trick", "undo trick", show=False),
        Binding("r", "redo_card", "redo"),
        Binding("R", "redo_trick", "redo trick", show=False),
        Binding("s,home", "to_start", "start"),
        Binding("b", "play_best", "best card"),
        Binding("a", "autoplay", "autoplay"),
        Binding("t", "toggle_breaking", "spade rule"),
        Binding("h", "cycle_view", "hands"),
        Binding("w", "save", "save"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, exploration: Exploration, source: Optional[Path] = None) -> None:
        super().__init__()
        self.x = exploration
        self.source = source
        self.view = 0
        self.cursor = 0
        self.frame = 0
        self.message = ""
        #: what each part of the screen shows now (by widget id), for tests and reading
        self.drawn: Dict[str, RenderableType] = {}

    # ------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="table"):
                yield Static(id="title")
                with Grid(id="grid"):
                    for name in ("nw", "top", "ne", "left", "centre", "right", "sw",
                                 "bottom", "se"):
                        yield Static(id=name)
                yield Static(id="values")
            yield Static(id="side")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(0.1, self._tick)
        self.refresh_view()

    # ------------------------------------------------------------ engine work
    def _tick(self) -> None:
        if self.x.pending():
            self.frame = (self.frame + 1) % len(SPINNER)
            self._update_values()
            self._update_side()

    @work(thread=True, group="engine")
    def compute(self, board: Board) -> None:
        """Values and scores at ``board`` (a copy of the explored one), off the screen's thread."""
        key = board.transposition_key()
        try:
            for ask in (self.x.card_values, self.x.scores):
                if key != self.x.key:
                    return        # the screen has moved on: that position is not needed now
                ask(board)
                self.call_from_thread(self._computed, key)
        except (ValueError, RuntimeError) as err:  # engine or deal problem: say it
            self.call_from_thread(self.status, f"engine: {err}")

    def _computed(self, key: Hashable) -> None:
        if key == self.x.key:
            self.refresh_view()

    # ------------------------------------------------------------ drawing
    def _put(self, name: str, renderable: RenderableType) -> None:
        self.drawn[name] = renderable
        self.query_one(f"#{name}", Static).update(renderable)

    def status(self, message: str) -> None:
        self.message = message
        self._put("status", Text(message))

    def legal_cards(self) -> List[int]:
        return display_order(self.x.board.legal_moves())

    def refresh_view(self) -> None:
        board = self.x.board
        legal = self.legal_cards()
        self.cursor = min(self.cursor, max(len(legal) - 1, 0))
        deal = self.x.deal
        title = Text(deal.title or "", style="bold")
        if title:
            title.append("  ")
        title.append(f"{self.x.declarer} declares; spade breaking "
                     f"{'on' if self.x.breaking else 'off'}; {VIEWS[self.view][0]}", style="dim")
        if not self.x.scored:
            title.append(f" — what-if: the auction's declarer is {deal.declarer}", style="yellow")
        self._put("title", title)
        for pos, seat in zip(POSITIONS, range(4)):
            self._put(pos, self._hand(seat))
        self._put("centre", trick_centre(board))
        self._update_values()
        self._update_side()
        if self.x.pending():
            self.compute(board.copy())

    def _values_now(self) -> Optional[CardAnalysis]:
        return self.x.known_values()

    def _hidden(self, seat: int) -> bool:
        return seat in VIEWS[self.view][1]

    def _hand(self, seat: int) -> RenderableType:
        board = self.x.board
        if board.to_move != seat:
            return hand_panel(board, seat, self._hidden(seat), (), None, None)
        legal = self.legal_cards()
        selected = legal[self.cursor] if legal else None
        return hand_panel(board, seat, self._hidden(seat), legal, selected, self._values_now())

    def _update_values(self) -> None:
        board = self.x.board
        hidden = board.to_move is not None and self._hidden(board.to_move)
        self._put("values", values_text(board, self._values_now(), hidden, self.frame))

    def _update_side(self) -> None:
        self._put("side", scores_panel(self.x, self.frame))

    # ------------------------------------------------------------ actions
    def _moved(self, message: str = "") -> None:
        self.cursor = 0
        self.status(message)
        self.refresh_view()

    def action_cursor(self, step: int) -> None:
        legal = self.legal_cards()
        if not legal:
            self.status("no card to choose: the hand is over")
            return
        self.cursor = (self.cursor + step) % len(legal)
        self.refresh_view()

    def action_play(self, card: int) -> None:
        board = self.x.board
        if board.to_move is not None and self._hidden(board.to_move):
            self.status("that hand is hidden: b plays the double-dummy card")
            return
        try:
            self.x.play(card)
        except DealError as err:
            self.status(str(err))
            return
        self._moved(f"played {format_card(card, symbols=True)}")

    def action_play_selected(self) -> None:
        legal = self.legal_cards()
        if not legal:
            self.status("the hand is over: nothing to play")
            return
        self.action_play(legal[self.cursor])

    def action_undo_card(self) -> None:
        self._moved("took back a card") if self.x.undo_card() else self.status("nothing to undo")

    def action_undo_trick(self) -> None:
        self._moved("took back a trick") if self.x.undo_trick() else self.status("nothing to undo")

    def action_redo_card(self) -> None:
        self._moved("replayed a card") if self.x.redo_card() else self.status("nothing to redo")

    def action_redo_trick(self) -> None:
        self._moved("replayed a trick") if self.x.redo_trick() else self.status("nothing to redo")

    def action_to_start(self) -> None:
        self._moved("back at the opening lead") if self.x.to_start() else \
            self.status("already at the opening lead")

    def action_toggle_breaking(self) -> None:
        try:
            self.x.toggle_breaking()
        except DealError as err:
            self.status(f"the spade-breaking rule stays off: {err.problem}")
            return
        self._moved(f"spade breaking {'on' if self.x.breaking else 'off'}")

    def action_cycle_view(self) -> None:
        self.view = (self.view + 1) % len(VIEWS)
        self.status(VIEWS[self.view][0])
        self.refresh_view()

    def action_play_best(self) -> None:
        if self.x.board.is_over:
            self.status("the hand is over: nothing to play")
            return
        self.status("finding the double-dummy card…")
        self._best(self.x.board.copy(), autoplay=False)

    def action_autoplay(self) -> None:
        if self.x.board.is_over:
            self.status("the hand is over: nothing to play")
            return
        self.status("playing on along an optimal line…")
        self._best(self.x.board.copy(), autoplay=True)

    @work(thread=True, group="engine")
    def _best(self, board: Board, autoplay: bool) -> None:
        try:
            line = self.x.optimal_line(board)
        except (ValueError, RuntimeError) as err:
            self.call_from_thread(self.status, f"engine: {err}")
            return
        self.call_from_thread(self._play_line, board.transposition_key(),
                              line if autoplay else line[:1])

    def _play_line(self, key: Hashable, cards: Sequence[int]) -> None:
        if key != self.x.key:
            return            # the position changed meanwhile
        for card in cards:
            self.x.play(card)
        what = (f"played {format_card(cards[0], symbols=True)} (double dummy)" if len(cards) == 1
                else f"played {len(cards)} cards along an optimal line")
        self._moved(what)

    def action_save(self) -> None:
        self.push_screen(SaveScreen(self._default_path()), self._save_to)

    def _default_path(self) -> str:
        stem = self.source.stem if self.source is not None else "deal"
        folder = Path.cwd()
        n = 1
        while True:
            path = folder / f"{stem}-explored{'' if n == 1 else f'-{n}'}.yaml"
            if not path.exists():
                return str(path)
            n += 1

    def _save_to(self, path: Optional[str]) -> None:
        if not path:
            self.status("not saved")
            return
        target = Path(path).expanduser()
        if target.exists():
            self.push_screen(ConfirmScreen(f"{target} exists. Overwrite it?"),
                             lambda yes: self._write(target) if yes else self.status("not saved"))
            return
        self._write(target)

    def _write(self, target: Path) -> None:
        try:
            text = dump_deal(self.x.deal_now())
            target.write_text(text, encoding="utf-8")
        except (DealError, OSError) as err:
            self.status(f"not saved: {err}")
            return
        self.status(f"saved {target}")

    def on_key(self, event: Key) -> None:
        """A key with no binding: a short message, nothing else."""
        if self.screen is not self.screen_stack[0]:
            return
        bound = {k for b in self.BINDINGS for k in getattr(b, "key", "").split(",")}
        if event.key not in bound and event.key not in ("tab", "shift+tab"):
            self.status(f"{event.key}: no such key (the keys are listed at the bottom)")


__all__ = ["ExplorerApp", "VIEWS"]
