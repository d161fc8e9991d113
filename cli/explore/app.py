"""The explorer's screen (Textual): :class:`ExplorerApp`.

The screen over a library :class:`~dummy_spades.solver.exploration.Exploration`
(the board explored, its history and the engine's answers): the table as
``show`` lays it out (:mod:`.panels`), the double-dummy value of every legal
card of the player to move (computed in a worker thread on a copy of the
board, a spinner while pending), the hand scores under double-dummy
continuation, and the keys of docs/EXPLORE.md.

The player's view (``v``) and practice (``p``) show what one player sees
(:mod:`.sight` says what is shown), and the single-dummy figures of the card to choose from that view; a
second worker thread refines them layout by layout
(:meth:`Exploration.refine <dummy_spades.solver.exploration.Exploration.refine>`),
posting each new set of figures to the screen, and is cancelled (between
two layouts) when the position changes or the app quits. In practice the
same thread finds the computer players' cards.

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
from textual.message import Message
from textual.widgets import Footer, Static
from textual.worker import get_current_worker

from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.dealfile import dump_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.exploration import Exploration, Refinement

from ..render import display_order
from .dialogs import ConfirmScreen, SaveScreen, default_save_path
from .panels import (POSITIONS, SPINNER, bids_panel, hand_panel, practice_text, scores_panel,
                     single_dummy_text, trick_centre, values_text)
from .sight import VIEWS, Sight

class Refined(Message):
    """New single-dummy figures, the end of a refinement, or (``error``) why
    it failed: posted from the worker thread, which never waits for the screen.
    ``solved``: the layouts solved when it was posted (the refinement may
    have gone on by the time the screen reads it)."""

    def __init__(self, refinement: Refinement, error: str = "") -> None:
        super().__init__()
        self.refinement = refinement
        self.solved = refinement.solved
        self.error = error


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
        Binding("v", "player_view", "view"),
        Binding("p", "cycle_practice", "practice"),
        Binding("w", "save", "save"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, exploration: Exploration, source: Optional[Path] = None,
                 player_view: bool = False) -> None:
        super().__init__()
        self.x = exploration
        self.source = source
        #: what the screen shows: the hands, the figures
        self.sight = Sight(exploration, player_view=player_view)
        self.cursor = 0
        self.frame = 0
        self.message = ""
        #: the single-dummy figures the worker thread refines now
        self.refining: Optional[Refinement] = None
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
    def _busy(self) -> bool:
        return (self.sight.double_dummy and self.x.pending()) or \
            (self.refining is not None and not self.refining.done)

    def _tick(self) -> None:
        if self._busy():
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

    def _single_dummy(self) -> None:
        """Start, keep or stop the worker of the single-dummy figures the screen
        needs now; in practice, play the computer's card once it is chosen."""
        try:
            wanted = self.sight.wanted()
        except ValueError as err:          # no view of this deal: say it, show no figures
            self.status(str(err))
            wanted = None
        if wanted is not self.refining:
            self.workers.cancel_group(self, "single-dummy")
            self.refining = None
        if wanted is None:
            forced = self.x.forced()
            if forced is not None and self.x.computer_to_play:
                self.call_later(self._computer_plays_forced, self.x.moves, min(forced))
            return
        if wanted.done:
            self.refining = wanted
            if self.x.computer_to_play:
                self.call_later(self._computer_plays, wanted)
            return
        if self.refining is None:
            self.refining = wanted
            self.refine(wanted)

    @work(thread=True, group="single-dummy", exclusive=True)
    def refine(self, refinement: Refinement) -> None:
        """Refine ``refinement`` until it is done or this worker is cancelled,
        posting each new set of figures (never waiting for the screen)."""
        worker = get_current_worker()
        try:
            def posted(_advice: object) -> None:
                self.post_message(Refined(refinement))

            self.x.refine(refinement, lambda: worker.is_cancelled, posted)
        except (ValueError, RuntimeError) as err:  # engine or deal problem: say it
            self.post_message(Refined(refinement, f"single dummy: {err}"))
            return
        if not worker.is_cancelled:
            self.post_message(Refined(refinement))

    def on_refined(self, message: Refined) -> None:
        if message.error:
            self.status(message.error)
        if message.refinement is not self.refining:
            return           # figures of a position the screen has left
        if message.refinement.done and self.x.computer_to_play:
            self._computer_plays(message.refinement)
            return
        self._update_hands()
        self._update_values()

    def _computer_plays(self, refinement: Refinement) -> None:
        """Practice: the computer plays its card, if the position is still the one it chose for."""
        if refinement is not self.refining or not self.x.computer_to_play:
            return
        who = self.x.chooser
        try:
            card = refinement.card()
        except ValueError as err:          # no layout solved: nothing to choose by
            self.status(f"single dummy: {err}")
            return
        self.x.play(card)
        self._moved(f"{who} played {format_card(card, symbols=True)}")

    def _computer_plays_forced(self, moves: Tuple[int, ...], card: int) -> None:
        """Practice: the computer plays ``card``, its only choice after ``moves``."""
        if self.x.moves != moves or not self.x.computer_to_play:
            return
        who = self.x.chooser
        self.x.play(card)
        self._moved(f"{who} played {format_card(card, symbols=True)}")

    # ------------------------------------------------------------ drawing
    def _put(self, name: str, renderable: RenderableType) -> None:
        if not self.is_running:
            return      # the app is closing: its screen is taken down (a tick or message late)
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
        self._single_dummy()
        self._put("title", self.sight.title())
        self._update_hands()
        self._put("centre", trick_centre(board))
        self._update_values()
        self._update_side()
        if self.sight.double_dummy and self.x.pending():
            self.compute(board.copy())

    def _update_hands(self) -> None:
        board = self.x.board
        style = self.sight.card_style(self.refining)
        for pos, (seat, (shown, unseen)) in zip(POSITIONS, enumerate(self.sight.hands())):
            choosing = board.to_move == seat and not unseen and not self.x.computer_to_play
            legal = self.legal_cards() if choosing else []
            selected = legal[self.cursor] if legal else None
            self._put(pos, hand_panel(board, seat, shown, unseen, legal, selected, style))

    def _update_values(self) -> None:
        board, x = self.x.board, self.x
        if x.practice is not None:
            text = practice_text(board, x, self.refining, self.sight.player_view, self.frame)
        elif self.sight.player_view:
            text = single_dummy_text(board, x.forced(), self.refining, x.known_values(),
                                     self.frame)
        else:
            text = values_text(board, x.known_values(), self.sight.mover_hidden(), self.frame)
        self._put("values", text)

    def _update_side(self) -> None:
        if self.sight.double_dummy:
            self._put("side", scores_panel(self.x, self.frame))
        else:
            self._put("side", bids_panel(self.x))

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

    def _practising(self, what: str) -> bool:
        """In practice, refuse ``what`` with a message; True when refused."""
        if self.x.practice is None:
            return False
        self.status(f"{what}: not in practice (p leaves it)")
        return True

    def action_play(self, card: int) -> None:
        if self.x.computer_to_play:
            self.status(f"the computer chooses {self.x.chooser}'s card")
            return
        if self.sight.mover_hidden():
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
        if self.x.practice is not None:
            self._moved("took back your last card") if self.x.take_back() else \
                self.status("nothing to undo: you have not played yet")
            return
        self._moved("took back a card") if self.x.undo_card() else self.status("nothing to undo")

    def action_undo_trick(self) -> None:
        if self.x.practice is not None:
            self._moved("took back your cards of the trick") if self.x.take_back(trick=True) \
                else self.status("nothing to undo: you have not played yet")
            return
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
        if self._practising("h"):
            return
        sight = self.sight
        if sight.player_view:
            self.status("h: the player's view shows what the player to choose sees (v leaves it)")
            return
        sight.view = (sight.view + 1) % len(VIEWS)
        self.status(VIEWS[sight.view][0])
        self.refresh_view()

    def action_player_view(self) -> None:
        error = self.x.view_error()
        if error is not None:
            self.status(error)
            return
        sight = self.sight
        sight.player_view = not sight.player_view
        if self.x.practice is not None:
            self.status("single-dummy figures for your cards " +
                        ("shown" if sight.player_view else "hidden"))
        else:
            self.status("the player's view: what the player to choose sees, single dummy"
                        if sight.player_view else VIEWS[sight.view][0])
        self.refresh_view()

    def action_cycle_practice(self) -> None:
        x = self.x
        error = x.view_error()
        if error is not None:
            self.status(error)
            return
        players = x.deal.players
        nxt = players[0] if x.practice is None else \
            None if x.practice == players[-1] else players[players.index(x.practice) + 1]
        self.sight.player_view = False
        if nxt is None:
            x.stop_practice()
            self.status("practice over: " + VIEWS[self.sight.view][0])
        else:
            x.start_practice(nxt)
            dummy = " and the dummy" if nxt == x.declarer else ""
            self.status(f"practice: you play {nxt}{dummy}, the computer the others "
                        f"(p: another seat)")
        self.cursor = 0
        self.refresh_view()

    def action_play_best(self) -> None:
        if self._practising("b"):
            return
        if self.x.board.is_over:
            self.status("the hand is over: nothing to play")
            return
        self.status("finding the double-dummy card…")
        self._best(self.x.board.copy(), autoplay=False)

    def action_autoplay(self) -> None:
        if self._practising("a"):
            return
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
        self.push_screen(SaveScreen(default_save_path(self.source)), self._save_to)

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


__all__ = ["ExplorerApp"]
