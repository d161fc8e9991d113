"""The explorer's dialogs: the file to save to (and the name it proposes),
and a yes/no question."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Static


def default_save_path(source: Optional[Path]) -> str:
    """The file the save dialog proposes: ``STEM-explored.yaml`` in the
    current folder (``STEM`` the deal file's, else ``deal``), numbered
    ``-2``, ``-3``, ... past the files that exist."""
    stem = source.stem if source is not None else "deal"
    folder = Path.cwd()
    n = 1
    while True:
        path = folder / f"{stem}-explored{'' if n == 1 else f'-{n}'}.yaml"
        if not path.exists():
            return str(path)
        n += 1


class SaveScreen(ModalScreen[Optional[str]]):
    """Ask for the file to save to; dismissed with the path or ``None``."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Save the current position to a new deal file (Enter saves, Esc cancels):")
            yield Input(value=self.default, id="path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: ``y`` confirms, anything else declines."""

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.question + "  [y/n]")

    def on_key(self, event: Key) -> None:
        event.stop()
        self.dismiss(event.key == "y")


__all__ = ["ConfirmScreen", "SaveScreen", "default_save_path"]
