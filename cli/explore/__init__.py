"""``dummy-spades explore FILE``: the interactive double-dummy explorer.

The modules:

* :mod:`.command`: the command (options, loading the deal, the Textual check);
* :mod:`.app`: :class:`~.app.ExplorerApp`, the screen over a library
  :class:`~dummy_spades.solver.exploration.Exploration`: the keys of
  docs/EXPLORE.md and the engine's work off the screen's thread;
* :mod:`.panels`: what each part of the screen shows (the hands, the trick,
  the card values, the hand scores), as Rich renderables;
* :mod:`.dialogs`: the save and yes/no dialogs.

Only :mod:`.command` may be imported without Textual (the optional
``explore`` extra); it imports the app when the command runs.
"""
from __future__ import annotations

from .command import register

__all__ = ["register"]
