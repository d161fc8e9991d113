"""Duck analysis: what each player can bring about in cut-throat play, and
what it does to every score (docs/RULES.md "Cut-throat play and ducking").

The defenders share their tricks but are scored one by one, so a defender may
*duck* (lose a trick on purpose) to set the other defender; the declarer may
concede tricks to shed overtricks (bags). Everything here is double dummy and
is about one number, the **defender total** ``D``: the tricks the two
defenders take in the whole hand (tricks already won included). The exact
meaning of every number is in docs/DUCK.md.

* :mod:`.questions`: the position-level questions, engine queries through an
  :class:`Oracle` (the compiled engine by default, the reference twin for
  tests); :mod:`.reachable`: which totals a player can bring about.
* :mod:`.outcomes`: outcome rows, scores, nils settled, duck effects.
* :mod:`.hand`: the deal's board at its position and the core numbers;
  :mod:`.searches`: the optional searches under a time limit.
* :mod:`.nilbreak`: breaking a defender's nil (the other defender, the
  declarer); :mod:`.equilibrium`: the max-n equilibrium of small endings.
* :mod:`.analysis`: :func:`analyse` -> :class:`DuckAnalysis`.

Seats: 0 declarer, 1 left defender, 2 dummy, 3 right defender; the declarer
plays the dummy. Nothing here prints.
"""
from .analysis import (DEFAULT_TIME_LIMIT, CardLevel, CardOption, DuckAnalysis, PlayerOptions,
                       analyse)
from .equilibrium import (MAX_TRICKS, Equilibrium, EquilibriumCard, EquilibriumStep,
                          find_equilibrium)
from .hand import DuckError, HandLevel, check_deal, duck_board
from .nilbreak import (BREAK_BUDGET, NOT_FORCED, BreakGame, BreakQuestion, CardBreak, NilBreak,
                       break_value, can_force, card_can_force)
from .outcomes import DuckEffect, NilSettlement, NilStatus, OutcomeRow, OutcomeRows, PlayerLine
from .questions import (DEFENDER_SEATS, Oracle, TeamSplits, after_card, card_nil_keep_max,
                        card_totals, default_oracle, highest_total, lowest_total, nil_keep_max,
                        team_splits)
from .reachable import (CHOOSE, DECLARER_ROLES, EVERYONE_ROLES, MAX, MIN, REACH_BUDGET,
                        child_lows, defender_roles, reach, reachable_totals)

__all__ = [
    "DEFAULT_TIME_LIMIT", "CardLevel", "CardOption", "DuckAnalysis", "PlayerOptions", "analyse",
    "MAX_TRICKS", "Equilibrium", "EquilibriumCard", "EquilibriumStep", "find_equilibrium",
    "BREAK_BUDGET", "NOT_FORCED", "BreakGame", "BreakQuestion", "CardBreak", "NilBreak",
    "break_value", "can_force", "card_can_force",
    "DuckError", "HandLevel", "check_deal", "duck_board",
    "DuckEffect", "NilSettlement", "NilStatus", "OutcomeRow", "PlayerLine", "OutcomeRows",
    "DEFENDER_SEATS", "Oracle", "TeamSplits", "after_card", "card_nil_keep_max",
    "card_totals", "default_oracle", "highest_total", "lowest_total", "nil_keep_max", "team_splits",
    "CHOOSE", "DECLARER_ROLES", "EVERYONE_ROLES", "MAX", "MIN", "REACH_BUDGET", "child_lows",
    "defender_roles", "reach", "reachable_totals",
]
