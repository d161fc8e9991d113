"""``dummy-spades duck FILE``: what ducking does to every player's score.

At the deal file's current position (after its played cards), for the
auction's declarer: what each real player can bring about (the cooperative
defence, each defender's duck with the declarer, the declarer's settle
total), a table over every reachable defender-trick total with the three
players' scores, bags, nil results, running totals and margins, the effect of
each player's duck, who can break a defender's nil and what it does, and the
card-level view for the player to move. ``--equilibrium`` adds the outcome
when each player plays for their own score (endings only). The meaning of
every number: docs/DUCK.md. ``--json``: the documented fields.
"""
from __future__ import annotations

from typing import Annotated, Dict, List

import typer
from rich import box
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.duck import (DEFAULT_TIME_LIMIT, MAX_TRICKS, CardBreak, CardOption,
                                     DuckAnalysis, DuckEffect, Equilibrium, NilBreak, Oracle,
                                     OutcomeRow, PlayerLine, PlayerOptions, analyse)
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.scoring import DUMMY
from dummy_spades.solver.seating import side_name

from .common import console, emit_json, handle_errors, load_for_analysis, signed
from .options import DealFile, NoSpadeBreaking, json_option, time_limit_option
from .render import add_columns, breaking_text, card_names, card_text, nil_json, plural

TIME_HELP = ("Seconds for the searches beyond the core numbers (reachable totals, the declarer's "
             "settle total, the totals of the nil-breaking games, the lowest and highest totals); "
             "0 skips them.")
EQUILIBRIUM_HELP = ("Add the outcome when each player plays for their own score (max-n search; "
                    f"endings of at most {MAX_TRICKS} tricks).")


# ------------------------------------------------------------------ JSON
def _line_json(p: PlayerLine) -> Dict[str, object]:
    return {
        "player": p.player, "role": p.role, "bid": p.bid, "side_tricks": p.side_tricks,
        "made": p.made, "contract_points": p.contract_points, "bags": p.bags,
        "nil_points": p.nil_points, "points": p.points,
        "running": None if p.before is None or p.after is None else {
            "before": {"points": p.before[0], "bags": p.before[1]},
            "after": {"points": p.after[0], "bags": p.after[1]},
            "bag_penalties": p.bag_penalties},
        "value": p.value, "margin": p.margin, "margins": dict(p.margins),
    }


def outcome_json(o: OutcomeRow) -> Dict[str, object]:
    return {
        "defender_tricks": o.defender_tricks,
        "declarer_tricks": o.declarer_tricks,
        "marks": list(o.marks),
        "reachable": o.reachable,
        "reachable_by": list(o.reachable_by),
        "players": [_line_json(p) for p in o.players],
        "nils": [{"bidder": n.bidder, "hand": n.hand, "kept": n.kept, "points": n.points,
                  "reason": n.reason, "decides": n.decides} for n in o.nils],
        "nil_decides": o.nil_decides,
        "leaders": list(o.leaders),
        "winner": o.winner,
    }


def _options_json(o: PlayerOptions) -> Dict[str, object]:
    return {"player": o.player, "role": o.role, "low": o.low, "high": o.high, "duck": o.duck,
            "alone": o.alone, "best": o.best,
            "reachable": {str(t): r for t, r in o.reachable.items()}}


def _effect_json(e: DuckEffect) -> Dict[str, object]:
    return {"player": e.player, "kind": e.kind, "defender_tricks": e.total,
            "own_change": e.own_change, "margin_change": e.margin_change,
            "raises_own": e.raises_own, "raises_margin": e.raises_margin}


def _card_json(c: CardOption) -> Dict[str, object]:
    return {"cards": card_names(c.cards), "defender_tricks": c.defender_tricks,
            "declarer_tricks": c.outcome.declarer_tricks, "tricks_given_up": c.tricks_given_up,
            "duck": c.duck, "gains": list(c.gains), "loses": list(c.loses),
            "outcome": outcome_json(c.outcome),
            "nil_breaks": [_card_break_json(b) for b in c.nil_breaks]}


def _card_break_json(b: CardBreak) -> Dict[str, object]:
    return {"breaker": b.breaker, "hand": b.hand, "can_force": b.can_force}


def _break_json(b: NilBreak) -> Dict[str, object]:
    q = b.question
    return {"breaker": q.breaker, "hand": q.hand, "bidders": list(q.bidders),
            "can_force": q.can_force, "with_declarer": q.with_declarer,
            "defender_tricks": b.defender_tricks,
            "outcome": None if b.outcome is None else outcome_json(b.outcome),
            "own_change": b.own_change, "margin_change": b.margin_change, "pays": b.pays}


def equilibrium_json(e: Equilibrium) -> Dict[str, object]:
    return {
        "outcome": outcome_json(e.outcome),
        "cooperative": outcome_json(e.cooperative),
        "differs": e.differs,
        "changes": dict(e.changes),
        "line": [{"hand": s.hand, "player": s.player, "card": format_card(s.card),
                  "cooperative": s.cooperative} for s in e.line],
        "first_deviation": e.first_deviation,
        "cards": [{"cards": card_names(c.cards), "chosen": c.chosen,
                   "outcome": outcome_json(c.outcome)} for c in e.cards],
        "nodes": e.nodes,
        "engine_leaves": e.engine_leaves,
    }


def duck_json(a: DuckAnalysis, file: str) -> Dict[str, object]:
    """The documented JSON of ``duck --json`` (docs/DUCK.md)."""
    deal = a.deal
    assert deal.auction is not None
    bids = deal.auction.tricks_bid
    return {
        "file": file,
        "title": deal.title or None,
        "spade_breaking": deal.rules.breaking,
        "declarer": a.declarer,
        "left_defender": a.left_defender,
        "right_defender": a.right_defender,
        "bids": {p: bids[p] for p in a.players},
        "position": {"tricks_played": len(deal.played) // 4,
                     "cards_played": len(deal.played), "tricks_left": a.tricks_left,
                     "to_move": a.to_move, "played_by": a.played_by,
                     "won": {"declarer": a.won[0], "defenders": a.won[1]}},
        "cooperative": a.cooperative,
        "duck": dict(a.duck),
        "alone": {o.player: o.alone for o in a.options if o.role == "defender"},
        "contract_total": a.contract_total,
        "declarer_can_make": a.cooperative <= a.contract_total,
        "settle": a.settle,
        "lowest": a.lowest,
        "highest": a.highest,
        "options": [_options_json(o) for o in a.options],
        "nils": [{"bidder": n.bidder, "hand": n.hand, "side": side_name(n.side), "won": n.won,
                  "keep_max": n.keep_max} for n in a.nils],
        "ignored_nils": [nil_json(n) for n in a.ignored_nils],
        "outcomes": [outcome_json(o) for o in a.outcomes],
        "effects": [_effect_json(e) for e in a.effects],
        "nil_breaks": [_break_json(b) for b in a.nil_breaks],
        "cards": {"to_move": a.to_move, "played_by": a.played_by,
                  "best_defender_tricks": a.best_card_total,
                  "groups": [_card_json(c) for c in a.cards]},
        "equilibrium": None if a.equilibrium is None else equilibrium_json(a.equilibrium),
        "complete": a.complete,
        "undetermined": list(a.undetermined),
    }


# ------------------------------------------------------------------ Rich
def _header(a: DuckAnalysis) -> Group:
    deal = a.deal
    assert deal.auction is not None
    bids = deal.auction.tricks_bid
    parts: List[RenderableType] = []
    if deal.title:
        parts.append(Text(deal.title, style="bold underline"))
    parts.append(Text.assemble(
        (f"{a.declarer} declares {bids[a.declarer]}", "bold"), " (with the dummy); defenders ",
        (f"{a.left_defender} {bids[a.left_defender]}", "bold"), " (left) and ",
        (f"{a.right_defender} {bids[a.right_defender]}", "bold"),
        f" (right); {breaking_text(deal)}."))
    who = f"dummy (played by {a.played_by})" if a.to_move == DUMMY else a.to_move
    played = len(deal.played)
    where = "the opening lead" if not played else f"{plural(played, 'card')} played"
    parts.append(Text(f"Position: {where}; {who} to play; won so far: declarer side {a.won[0]}, "
                      f"defenders {a.won[1]}; {plural(a.tricks_left, 'trick')} to go. "
                      "Totals below are defender tricks for the whole hand (D).", style="dim"))
    return Group(*parts)


def _table(title: str) -> Table:
    return Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                 show_edge=False, pad_edge=False, padding=(0, 1))


def _reach_text(o: PlayerOptions) -> Text:
    out = Text()
    for i, (t, r) in enumerate(sorted(o.reachable.items())):
        if i:
            out.append(" ")
        out.append(str(t) if r else (f"({t}?)" if r is None else f"~{t}~"),
                   style="" if r else "dim")
    return out


def _options_table(a: DuckAnalysis) -> Table:
    t = _table("What each player can bring about")
    add_columns(t, (("player", "left"), ("makes sure of", "left"), ("duck", "left"),
                    ("reachable", "left"), ("best", "right")))
    for o in a.options:
        if o.role == "declarer":
            sure = f"D ≤ {a.cooperative}"
            if a.settle is None:
                duck = Text("set at best: no settle", style="red")
            else:
                duck = Text(f"settle D = {a.settle} (concedes {a.settle - a.cooperative})")
        else:
            other = a.right_defender if o.player == a.left_defender else a.left_defender
            sure = f"D ≥ {o.alone}"
            duck = Text(f"D = {o.duck} with {a.declarer} v {other}")
        t.add_row(Text(o.player, style="bold"), sure, duck, _reach_text(o),
                  "?" if o.best is None else str(o.best))
    return t


def _player_cell(p: PlayerLine) -> Text:
    """``+71 1b (+21)``: hand points (nil bets included), bags or ``set``,
    ``→ total`` with running scores, and the margin."""
    out = Text()
    out.append(signed(p.points), style="green" if p.points >= 0 else "red")
    if not p.made:
        out.append(" set", style="red")
    elif p.bags:
        out.append(f" {p.bags}b", style="yellow")
    if p.after is not None:
        out.append(f" →{p.after[0]}")
        if p.bag_penalties:
            out.append("†" * p.bag_penalties, style="red")
    out.append(f" ({signed(p.margin)})", style="dim")
    return out


def _player_cells(a: DuckAnalysis, o: OutcomeRow) -> List[RenderableType]:
    """Every player's cell of a row, the leaders' in bold."""
    cells: List[RenderableType] = []
    for p in a.players:
        cell = _player_cell(o.line(p))
        if p in o.leaders:
            cell.stylize("bold")
        cells.append(cell)
    return cells


def _nils_text(o: OutcomeRow) -> Text:
    """``Alice>dummy kept*``: bidder > hand, the result, ``*`` where it decides the leader."""
    out = Text()
    for i, n in enumerate(o.nils):
        if i:
            out.append(", ")
        out.append(f"{n.bidder}>{n.hand} ")
        out.append("kept" if n.kept else "lost", style="green" if n.kept else "red")
        if n.decides:
            out.append("*", style="bold magenta")
    return out


def _outcomes_table(a: DuckAnalysis) -> Table:
    t = _table("Outcomes: hand score, bags" + (", running total" if a.deal.scores else "")
               + " (margin over the best other); leader in bold")
    t.add_column("D", justify="right")
    t.add_column("decl", justify="right")
    t.add_column("marks", min_width=10)
    for p in a.players:
        t.add_column(p, justify="left")
    if a.nils:
        t.add_column("nils")
    for o in a.outcomes:
        style = "bold" if "coop" in o.marks else ""
        marks = Text(", ".join(o.marks), style="cyan")
        if o.reachable is None:
            marks.append((" " if o.marks else "") + "reachable?", style="dim")
        row: List[RenderableType] = [Text(str(o.defender_tricks), style=style), str(o.declarer_tricks), marks]
        row += _player_cells(a, o)
        if a.nils:
            row.append(_nils_text(o))
        t.add_row(*row)
    return t


def _yes(flag: bool) -> Text:
    return Text("yes", style="green") if flag else Text("no", style="dim")


def _effects_table(a: DuckAnalysis) -> Table:
    t = _table(f"Duck effects: changes against the cooperative outcome (D = {a.cooperative})")
    add_columns(t, (("player", "left"), ("outcome", "left"), ("D", "right"), ("Δown", "right"),
                    ("up?", "left"), ("Δmargin", "right"), ("up?", "left"),
                    ("Δmargin v each other", "left")), no_wrap=True)
    coop = a.outcome(a.cooperative)
    for e in a.effects:
        if e.kind == "best" and any(x.player == e.player and x.kind != "best" and
                                    x.total == e.total for x in a.effects):
            continue
        if e.total is None or e.own_change is None:
            why = "cannot make the contract" if e.kind == "settle" else "not determined"
            t.add_row(e.player, e.kind, "—", "", "", "", "", Text(why, style="dim"))
            continue
        row = a.outcome(e.total)
        each = Text()
        for i, (other, m) in enumerate(row.line(e.player).margins.items()):
            if i:
                each.append(", ")
            change = m - coop.line(e.player).margins[other]
            each.append(f"{other} {signed(change)}", style="green" if change > 0 else
                        ("red" if change < 0 else ""))
        t.add_row(e.player, e.kind, str(e.total), signed(e.own_change), _yes(e.raises_own),
                  signed(e.margin_change or 0), _yes(e.raises_margin), each)
    return t


def _tricks_and_players_columns(t: Table, a: DuckAnalysis, players: JustifyMethod) -> None:
    """The columns of an outcome row: the defenders' (D) and the declarer's
    tricks, each player's cell (_player_cells), and the nils if any."""
    t.add_column("D", justify="right")
    t.add_column("decl", justify="right")
    for p in a.players:
        t.add_column(p, justify=players)
    if a.nils:
        t.add_column("nils")


def _cards_table(a: DuckAnalysis) -> Table:
    who = f"dummy (played by {a.played_by})" if a.to_move == DUMMY else a.to_move
    t = _table(f"Card level: {who} to play; D if play is cooperative afterwards")
    t.add_column("cards")
    _tricks_and_players_columns(t, a, "right")
    t.add_column("card")
    t.add_column("gains")
    t.add_column("loses")
    breaks = any(b.can_force for c in a.cards for b in c.nil_breaks)
    if breaks:
        t.add_column("breaks")
    for c in a.cards:
        cards = Text(" ").join(card_text(x) for x in sorted(c.cards, reverse=True))
        row: List[RenderableType] = [cards, str(c.defender_tricks), str(c.outcome.declarer_tricks)]
        for p in a.players:
            line = c.outcome.line(p)
            row.append(Text(signed(line.points), style="green" if line.made else "red"))
        if a.nils:
            row.append(_nils_text(c.outcome))
        row.append(Text(f"duck -{c.tricks_given_up}", style="yellow")
                   if c.duck else Text("best", style="dim"))
        row.append(Text(", ".join(c.gains), style="green"))
        row.append(Text(", ".join(c.loses), style="red"))
        if breaks:
            row.append(", ".join(f"{b.breaker}>{b.hand}" for b in c.nil_breaks if b.can_force))
        t.add_row(*row)
    return t


def _forces_text(b: NilBreak, declarer: str) -> Text:
    """``alone``, ``with <declarer>`` or ``no``: who the breaker needs."""
    q = b.question
    if q.can_force:
        return Text("alone", style="green")
    if q.with_declarer:
        return Text(f"with {declarer}", style="yellow")
    return Text("no", style="dim")


def _breaks_table(a: DuckAnalysis) -> Table:
    t = _table(f"Nil breaking: forcing a trick on a defender's nil hand, against the cooperative "
               f"outcome (D = {a.cooperative})")
    add_columns(t, (("breaker", "left"), ("nil", "left"), ("forces", "left"), ("D", "right")))
    for p in a.players:
        t.add_column(p, justify="left")
    for col in ("Δown", "Δmargin", "pays?"):
        t.add_column(col, justify="left" if col == "pays?" else "right")
    for b in a.nil_breaks:
        row: List[RenderableType] = [Text(b.breaker, style="bold"), b.hand, _forces_text(b, a.declarer)]
        if b.outcome is None:
            why = "not determined" if b.question.can_force else ""
            row += [Text("—", style="dim"), Text(why, style="dim")] + [""] * (len(a.players) + 2)
        else:
            row.append(str(b.defender_tricks))
            row += _player_cells(a, b.outcome)
            row += [signed(b.own_change or 0), signed(b.margin_change or 0), _yes(bool(b.pays))]
        t.add_row(*row)
    return t


def _equilibrium_parts(a: DuckAnalysis, e: Equilibrium) -> List[RenderableType]:
    t = _table("Equilibrium: each player plays for their own score (max-n), against cooperative "
               "double-dummy play")
    t.add_column("play")
    _tricks_and_players_columns(t, a, "left")
    for label, o in (("cooperative", e.cooperative), ("equilibrium", e.outcome)):
        row: List[RenderableType] = [label, str(o.defender_tricks), str(o.declarer_tricks)]
        row += _player_cells(a, o)
        if a.nils:
            row.append(_nils_text(o))
        t.add_row(*row)
    line = Text("Line: ")
    first = 4 - len(a.deal.played) % 4        # cards left in the trick in progress
    for i, step in enumerate(e.line):
        if i:
            line.append(" | " if (i - first) % 4 == 0 else ", ")
        line.append(f"{step.hand} ")
        line.append_text(card_text(step.card))
        if not step.cooperative:
            line.append("*", style="bold magenta")
    verdict = ("differs from cooperative play: " + ", ".join(
        f"{p} {signed(v)}" for p, v in e.changes.items() if v)
        if e.differs else "the same as cooperative play")
    cards = Text("Equilibrium card: ")
    for i, c in enumerate(e.cards):
        if i:
            cards.append("; ")
        cards.append_text(Text(" ").join(card_text(x) for x in sorted(c.cards, reverse=True)))
        cards.append(f" D = {c.outcome.defender_tricks}", style="bold" if c.chosen else "")
        if c.chosen:
            cards.append(" (chosen)", style="bold")
    notes = [Text(f"The equilibrium outcome {verdict}.")]
    if e.first_deviation is not None:
        notes.append(Text("*: not a best card of cooperative double-dummy play (the first is "
                          f"card {e.first_deviation + 1} of the line).", style="dim"))
    parts: List[RenderableType] = [t, line, cards]
    return parts + notes


def render_analysis(a: DuckAnalysis) -> Group:
    parts: List[RenderableType] = [_header(a), Text(), _options_table(a), Text(), _outcomes_table(a),
                           Text(), _effects_table(a)]
    if a.nil_breaks:
        parts += [Text(), _breaks_table(a)]
    parts += [Text(), _cards_table(a)]
    if a.equilibrium is not None:
        parts += [Text()] + _equilibrium_parts(a, a.equilibrium)
    for n in a.ignored_nils:
        parts.append(Text(f"{n.bidder}'s nil on {n.hand} does not count (not on the same side).",
                          style="dim"))
    if any(line.bag_penalties for o in a.outcomes for line in o.players):
        parts.append(Text(f"†: a bag penalty ({a.deal.rules.scoring.bag_penalty} points) paid "
                          "in the running total.", style="dim"))
    if any(o.nil_decides for o in a.outcomes) or any(c.outcome.nil_decides for c in a.cards):
        parts.append(Text("nils: * = this nil decides who leads (settled the other way, "
                          "another player would lead).", style="dim"))
    if a.undetermined:
        parts.append(Text("Not determined within --time-limit: " + "; ".join(a.undetermined) + ".",
                          style="dim"))
    parts.append(Text("Meaning of every number: docs/DUCK.md.", style="dim"))
    return Group(*parts)


@handle_errors
def duck(
    file: DealFile,
    json_out: Annotated[bool, json_option("docs/DUCK.md")] = False,
    no_spade_breaking: NoSpadeBreaking = False,
    time_limit: Annotated[float, time_limit_option(TIME_HELP)] = DEFAULT_TIME_LIMIT,
    with_equilibrium: Annotated[bool, typer.Option("--equilibrium", help=EQUILIBRIUM_HELP)] = False,
) -> None:
    """What ducking does to every player's score: team splits, outcomes, card by card."""
    deal = load_for_analysis(file, no_spade_breaking)
    oracle = Oracle()
    a = analyse(deal, oracle=oracle,
                time_limit=time_limit, with_equilibrium=with_equilibrium)
    if json_out:
        emit_json(duck_json(a, str(file)))
    else:
        console.print(render_analysis(a))


def register(app: typer.Typer) -> None:
    app.command("duck")(duck)
