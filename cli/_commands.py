"""The list of command modules. Each module defines ``register(app)``."""
from __future__ import annotations

import importlib

import typer

MODULES = [
    "show", "score",               # a deal file: the table, the auction, the scores
    "convert",                     # PBN deal strings in and out
    "deal",                        # random deals to order: PBN lines for batch, deal files
    "batch",                       # many PBN deals, double dummy
    "solve",                       # the double-dummy result and the DD table
    "analyse",                     # every legal card's value and an optimal line
    "duck",                        # what a duck does to every player's score
    "bid",                         # bid soundness by double-dummy simulation
    "review",                      # every card of a played hand judged
    "advise",                      # the card to play, single dummy
    "explore",                     # interactive explorer (Textual, optional extra)
]


def register_all(app: typer.Typer) -> None:
    for name in MODULES:
        importlib.import_module(f"dummy_spades.cli.{name}").register(app)
