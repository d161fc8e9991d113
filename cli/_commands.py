"""The list of command modules. Each module defines ``register(app)``."""
from __future__ import annotations

import importlib

MODULES = [
    "show", "score",               # issue 2 (foundation)
    "convert",                     # issue 2: PBN import/export
    "batch",                       # issue 3 (engine): batch deals
    "solve",                       # issue 3 (engine): DD result and DD table
    "analyse",                     # issue 3 (engine): card values and an optimal line
    "duck",                        # issue 4: duck analysis
    "bid",                         # issue 5
]


def register_all(app) -> None:
    for name in MODULES:
        importlib.import_module(f"dummy_spades.cli.{name}").register(app)
