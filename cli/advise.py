"""``dummy-spades advise FILE``: the card to play from what the player who
chooses it can see.

Thin: options -> solver.advise (the player's view, the layouts, the solves,
the figures) -> a Rich table on stdout (or ``--json``), a progress bar on
stderr when it is a terminal. docs/ADVISE.md has the method and the JSON
fields.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Dict, List, Optional

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver import advise as sd
from dummy_spades.solver.advise import Advice, CardFigures, Lookahead, Question
from dummy_spades.solver.cards import SUIT_LETTERS, SUIT_SYMBOLS, SUITS
from dummy_spades.solver.limits import LAYOUT_TT_MB
from dummy_spades.solver.seating import DECLARER_SIDE, DUMMY_SEAT
from dummy_spades.solver.simulation import (DEFAULT_EXACT_LIMIT, DEFAULT_SAMPLES, DEFAULT_SEED,
                                            EXACT_LIMIT_MAX, Settings)

from .common import (console, emit_json, handle_errors, live_view, load_for_analysis, only_with,
                     progress_bar, usage_error)
from .options import (CLUSTER_TIMEOUT, Cluster, ClusterTimeout, DealFile, Jobs, NoSpadeBreaking,
                      Samples, Sampling, Seed, exact_limit_option, goal_option, html_option,
                      json_option, lookahead_option, player_option, precision_option,
                      sampling_option, time_limit_option, tt_mb_option, where)
from .page import html_target, write_report
from .render import (card_names, cards_json, cards_text, chance_text, display_order, estimate_json,
                     holding_lines, points_text)

HELP = (
    "Advise on the next card to play, single dummy: from what the player who chooses it can "
    "see (their own hand, the dummy - before the opening lead only the cards they saw -, the "
    "auction, every card played and the voids it showed). The unseen cards are dealt to the "
    "hidden hands in every consistent way, weighted by the bids as `bid` weights them; "
    "each layout is solved double dummy for every legal card, and the figures are averaged: "
    "over every layout when there are at most --exact-limit of them (exact), else over "
    "--samples seeded draws. Per card: the side's expected tricks, the chance of each goal "
    "(contract, bids, nils), every player's expected score, the paired difference to the "
    "best card (± one standard error) and, beside it, the card's double-dummy value on the "
    "real layout (hindsight, never part of the advice).\n\n"
    "With --lookahead M (the declarer's side to choose): also each card's chance of the "
    "goal (--goal N tricks, default the declarer's bid) when the side does not learn the "
    "layout during its next M moves (αμ search), and the card that is best by it.\n\n"
    f"{sd.HONESTY} Method and JSON fields: docs/ADVISE.md."
)

STOPPED = {"time": "time limit reached", "precision": "precision reached",
           "draws": "draw cap reached", "samples": "all samples asked for solved",
           "layouts": "every layout solved"}


# ----------------------------------------------------------------- formats
def group_text(cards: CardFigures) -> Text:
    return cards_text(display_order(cards.cards))


def voids_of(q: Question) -> Dict[str, List[int]]:
    """The suits each hidden hand is known to hold none of (from the play)."""
    out: Dict[str, List[int]] = {}
    for name, row, size in zip(q.space.names, q.space.counts, q.space.sizes):
        suits = [s for s in SUITS if row[s] == 0 and size]
        if suits:
            out[name] = suits
    return out


def dummy_known(q: Question) -> int:
    """The dummy cards the player knows to be in it now."""
    if q.visible[DUMMY_SEAT] is not None:
        return int(q.visible[DUMMY_SEAT] or 0)
    names = q.space.names
    return q.space.fixed[names.index(q.names[DUMMY_SEAT])] if q.names[DUMMY_SEAT] in names else 0


# ------------------------------------------------------------------ JSON
def card_json(a: Advice, c: CardFigures) -> Dict[str, object]:
    q = a.question
    return {
        "cards": card_names(display_order(c.cards)),
        "tricks": estimate_json(c.tricks),
        "makes": {g.key: estimate_json(m) for g, m in zip(q.goals, c.makes)},
        "scores": {p: estimate_json(s) for p, s in zip(a.players, c.scores)},
        "score": estimate_json(c.score),
        "diff_to_best": estimate_json(c.diff),
        "tricks_diff_to_best": estimate_json(c.tricks_diff),
        "double_dummy": c.double_dummy,
        "recommended": c is a.recommended,
        "within_two_se": c is not a.hindsight_pick and c in a.close,
        **({} if a.lookahead is None else {
            "fusion_free": estimate_json(a.lookahead.fusion_free_of(c.cards)),
            "hindsight": estimate_json(a.lookahead.hindsight_of(c.cards))}),
    }


def honesty(a: Advice) -> str:
    """The honesty statement, with the lookahead's assumptions when it ran."""
    return sd.HONESTY if a.lookahead is None else f"{sd.HONESTY} {sd.LOOKAHEAD_HONESTY}"


def search_json(a: Advice) -> Dict[str, object]:
    """How the figures were searched: the double-dummy average of each
    layout, or with it αμ (docs/ADVISE.md "Without hindsight: αμ")."""
    la = a.lookahead
    if la is None:
        return {"method": "pimc"}
    pick, hindsight = a.recommended, a.hindsight_pick
    return {
        "method": "alphamu", "lookahead": la.lookahead, "goal": la.goal,
        "completed": la.completed, "covering": la.covering, "exact": la.exact,
        "stopped_by": la.stopped_by, "nodes": la.nodes, "leaves": la.leaves,
        "engine_nodes": la.engine_nodes,
        "hindsight_pick": card_names(display_order(hindsight.cards)),
        "gain": round(la.fusion_free_of(pick.cards).value
                      - la.fusion_free_of(hindsight.cards).value, 6),
    }


def sampling_json(a: Advice) -> Dict[str, object]:
    s = a.sampling
    out: Dict[str, object] = {
        "method": s.method, "conditioned": s.conditioned, "drawn": s.drawn,
        "effective_samples": round(a.effective_samples, 1),
        "unconditioned_bids": [{"player": b.player, "call": b.call()} for b in s.ignored],
        "model_evaluations": s.evaluations, "model_seconds": round(s.seconds, 3),
    }
    if a.method == sd.SAMPLED and s.threshold is not None:
        out["threshold"] = s.threshold
        out["acceptance_rate"] = round(a.samples / s.drawn, 4) if s.drawn else None
        out["max_draws"] = s.max_draws
    if s.note:
        out["note"] = s.note
    return out


def advice_json(a: Advice, file: str) -> Dict[str, object]:
    q = a.question
    trick_seats = [(q.leader + i) % 4 for i in range(len(q.trick))]
    return {
        "file": file,
        "player": q.player,
        "to_move": q.names[q.seat],
        "play_order": list(q.names),
        "declarer": q.names[0],
        "spade_breaking": q.knowledge.breaking,
        "position": {
            "trick": q.tricks_played + 1,
            "tricks_played": q.tricks_played,
            "leader": q.names[q.leader],
            "on_table": [{"hand": q.names[s], "card": c}
                         for s, c in zip(trick_seats, card_names(q.trick))],
            "spades_broken": q.knowledge.spades_broken,
            "opening_lead": q.opening_lead,
        },
        "known": {
            "hand": cards_json(int(q.visible[q.names.index(q.player)] or 0)),
            "dummy": cards_json(dummy_known(q)),
            "dummy_complete": q.visible[DUMMY_SEAT] is not None,
            "hidden": [{"hand": n, "cards": size + bin(f).count("1")}
                       for n, size, f in zip(q.space.names, q.space.sizes, q.space.fixed)],
            "voids": {n: [SUIT_LETTERS[s] for s in suits] for n, suits in voids_of(q).items()},
        },
        "method": a.method,
        "layouts": a.layouts,
        "consistent_layouts": a.consistent,
        "samples": a.samples,
        "samples_requested": a.requested,
        "stopped_early": a.stopped_early,
        "stopped_by": a.stopped_by,
        "effective_samples": round(a.effective_samples, 1),
        "seed": a.seed,
        "queries": a.queries,
        "nodes": a.nodes,
        "sampling": sampling_json(a),
        "precision": None if a.target is None else {"target": a.target,
                                                    "largest_se": round(a.precision(), 3)},
        "goals": [{"key": g.key, "kind": g.kind, "player": g.player, "bid": g.bid,
                   **({"hand": g.hand} if g.kind == "nil" else {})} for g in q.goals],
        "players": list(a.players),
        "cards": [card_json(a, c) for c in a.cards],
        "recommended": card_names(display_order(a.recommended.cards)),
        "close": [card_names(display_order(c.cards)) for c in a.close],
        "search": search_json(a),
        "honesty": honesty(a),
    }


# ------------------------------------------------------------------ Rich
def header(a: Advice) -> Group:
    q = a.question
    lines: List[Text] = []
    who = Text.assemble(("Single-dummy advice for ", "bold"), (q.player, "bold cyan"))
    role = "declarer" if q.player == q.names[0] else "defender"
    if q.seat == DUMMY_SEAT:
        who.append(f" ({role}, choosing the dummy's card)")
    else:
        who.append(f" ({role})")
    number_ = q.tricks_played + 1
    if q.trick:
        seats = [(q.leader + i) % 4 for i in range(len(q.trick))]
        who.append(f"; trick {number_}, on the table: ")
        who.append_text(Text("  ").join(Text.assemble(cards_text([c]), f" {q.names[s]}")
                                        for s, c in zip(seats, q.trick)))
    else:
        who.append(f"; trick {number_}, {q.names[q.leader]} to lead"
                   + (" (the opening lead)" if q.opening_lead else ""))
    lines.append(who)
    hand = Text(f"{q.player}'s hand: ")
    hand.append(Text("  ").join(holding_lines(int(q.visible[q.names.index(q.player)] or 0))))
    lines.append(hand)
    dummy = Text("Dummy: " if q.visible[DUMMY_SEAT] is not None else "Dummy cards seen: ")
    dummy.append(Text("  ").join(holding_lines(dummy_known(q))) if dummy_known(q)
                 else Text("none", style="dim"))
    lines.append(dummy)
    voids = voids_of(q)
    if voids:
        lines.append(Text("Voids shown: " + ", ".join(
            f"{n} {''.join(SUIT_SYMBOLS[s] for s in suits)}" for n, suits in voids.items())))
    if a.method == sd.EXACT:
        how = f"Exact: every one of the {a.consistent:,} consistent layouts"
    else:
        how = (f"Sampled: {a.samples} of {a.consistent:,} consistent layouts (seed {a.seed}"
               + (f"; {STOPPED[a.stopped_by]}, {a.requested} asked for" if a.stopped_early
                  else "") + ")")
    s = a.sampling
    if s.conditioned:
        how += f", weighted by the bids (n_eff {a.effective_samples:.1f})"
    else:
        how += ", all equally likely"
    lines.append(Text(how, style="dim"))
    if s.note:
        lines.append(Text(s.note, style="yellow"))
    for b in s.ignored:
        lines.append(Text(f"{b.player}'s {b.call()}: the bidding model gives it no chance on "
                          "any layout, so it does not weight them", style="yellow"))
    if a.target is not None:
        largest = a.precision()
        ok = "reached" if largest <= a.target else f"not reached ({STOPPED[a.stopped_by]})"
        lines.append(Text(f"Precision: every paired difference's ± at most {a.target:g} points "
                          f"wanted; largest {largest:.2f}, {ok}", style="dim"))
    return Group(*lines)


def cards_table(a: Advice) -> Table:
    """Per card: the side's tricks, the chooser's score, its paired
    difference to the best card and the double-dummy value (hindsight)."""
    t = Table(show_edge=False, pad_edge=False)
    for heading in ("cards", "tricks", "score", "vs best", "DD"):
        t.add_column(heading, justify="left" if heading == "cards" else "right", no_wrap=True)
    for c in a.cards:
        best = c is a.hindsight_pick
        style = "bold green" if best else ("green" if c in a.close else "")
        t.add_row(group_text(c), points_text(c.tricks), points_text(c.score, 1, sign=True),
                  "best" if best else points_text(c.diff, 1, sign=True),
                  "—" if c.double_dummy is None else str(c.double_dummy), style=style)
    return t


def goals_table(a: Advice) -> Table:
    """Per card: each goal's chance and the other players' expected scores."""
    q = a.question
    others = [p for p in a.players if p != q.player]
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("cards", no_wrap=True)
    for g in q.goals:
        t.add_column(f"nil {g.hand}" if g.kind == "nil" else f"{g.player} {g.bid}",
                     justify="right", no_wrap=True)
    for p in others:
        t.add_column(p, justify="right", no_wrap=True)
    for c in a.cards:
        scores = dict(zip(a.players, c.scores))
        t.add_row(group_text(c), *[chance_text(m) for m in c.makes],
                  *[points_text(scores[p], 0, sign=True, gap="") for p in others],
                  style="bold green" if c is a.recommended else "")
    return t


def lookahead_table(a: Advice, la: Lookahead) -> Table:
    """Per card: the chance of the goal with and without hindsight."""
    t = Table(show_edge=False, pad_edge=False)
    t.add_column("cards", no_wrap=True)
    t.add_column(f"{la.goal}+ tricks, hindsight", justify="right", no_wrap=True)
    t.add_column(f"without hindsight (M={la.completed})", justify="right", no_wrap=True)
    for c in sorted(a.cards, key=lambda c: -la.fusion_free_of(c.cards).value):
        t.add_row(group_text(c), chance_text(la.hindsight_of(c.cards)), chance_text(la.fusion_free_of(c.cards)),
                  style="bold green" if c is a.recommended else "")
    return t


def lookahead_lines(a: Advice, la: Lookahead) -> List[RenderableType]:
    """The αμ figures, the card they pick and what it gains on the hindsight pick."""
    covered = ("the rest of the hand (exact)" if la.exact else
               "the rest of the hand" if la.completed >= la.covering else
               f"its next {la.completed} moves")
    head = (f"Without hindsight (αμ): the chance that the declarer's side takes {la.goal} or "
            f"more tricks when it does not learn the layout during {covered}")
    lines: List[RenderableType] = [Text(head, style="italic"), lookahead_table(a, la)]
    if la.stopped_by is not None:
        lines.append(Text(f"The search stopped ({STOPPED[la.stopped_by]}) with M = "
                          f"{la.completed} completed of the {la.lookahead} asked for",
                          style="yellow"))
    pick, hindsight = a.recommended, a.hindsight_pick
    if pick is not hindsight:
        gain = la.fusion_free_of(pick.cards).value - la.fusion_free_of(hindsight.cards).value
        lines.append(Text.assemble(
            "The hindsight pick ", group_text(hindsight), " makes ",
            chance_text(la.fusion_free_of(hindsight.cards)), " without hindsight; ", group_text(pick),
            f" makes {100 * gain:.0f} percentage points more", style="yellow"))
    return lines


def verdict(a: Advice) -> Group:
    r = a.recommended
    lines = [Text.assemble(("Recommended: ", "bold"), group_text(r),
                           f"  (expected score {points_text(r.score, 1, sign=True)}, "
                           f"{points_text(r.tricks)} tricks for the side)")]
    if a.lookahead is not None:
        lines[0].append(f"; best without hindsight: "
                        f"{chance_text(a.lookahead.fusion_free_of(r.cards))} to take "
                        f"{a.lookahead.goal}+ tricks")
    if a.close and a.lookahead is None:
        names = Text(", ").join(group_text(c) for c in a.close)
        if a.method == sd.EXACT:
            lines.append(Text.assemble("Exactly as good: ", names, style="yellow"))
        else:
            lines.append(Text.assemble(
                "Within two standard errors of it, so these samples cannot tell them apart: ",
                names, " (more --samples, or --precision, would)", style="yellow"))
    return Group(*lines)


def report(a: Advice) -> Group:
    est = "" if a.method == sd.EXACT else "; ± one standard error"
    parts: List[RenderableType] = [
        header(a), Text(""),
        Text(f"Each card, best first: your side's expected tricks (whole hand), your expected "
             f"score and its paired difference to the best card{est}; DD: the card's "
             "double-dummy tricks on the real layout (hindsight, not advice)", style="italic"),
        cards_table(a), Text(""),
        Text("Each card: the chance of each goal (the declarer's contract, the defenders' own "
             "bids, the nils that count), then the other players' expected scores",
             style="italic"),
        goals_table(a), Text("")]
    if a.lookahead is not None:
        parts += [*lookahead_lines(a, a.lookahead), Text("")]
    parts += [verdict(a), Text(honesty(a), style="dim italic")]
    return Group(*parts)


# --------------------------------------------------------------- command
@handle_errors
def advise(
    ctx: typer.Context,
    file: DealFile,
    player: Annotated[Optional[str], player_option(
        "The player asking: the one who chooses the next card (the declarer for the "
        "dummy's). Default: that player.")] = None,
    samples: Samples = DEFAULT_SAMPLES,
    precision: Annotated[Optional[float], precision_option(
        "points",
        "Keep sampling until every card's paired difference to the best card has a standard "
        "error of at most X points (checked at 20, 30, 40, 50, 60, 72, ... samples), capped "
        "by --samples and --time-limit.")] = None,
    time_limit: Annotated[Optional[float], time_limit_option(
        "Stop after about this many seconds with the layouts solved by then, at least one "
        "(the numbers are those of the first n layouts of the seed; n is shown).")] = None,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_timeout: ClusterTimeout = CLUSTER_TIMEOUT,
    seed: Seed = DEFAULT_SEED,
    sampling: Annotated[Sampling, sampling_option(
        "conditioned: weight the layouts by the bidding model's chance of the bids the other "
        "players made (as `bid` does); uniform: every consistent layout alike.")]
    = Sampling.conditioned,
    exact_limit: Annotated[int, exact_limit_option(
        "Solve every consistent layout (exact figures) when there are at most N "
        f"(0 to {EXACT_LIMIT_MAX:,}; 0: always sample).")] = DEFAULT_EXACT_LIMIT,
    lookahead: Annotated[Optional[int], lookahead_option(
        "The declarer's side to choose: also search each card's chance of the goal when the "
        "side does not learn the layout during its next M moves (αμ; M = 1 is the "
        "double-dummy average), within --time-limit; the best card by it is recommended. "
        f"Default: to the end of the hand when the declarer chooses with at most "
        f"{sd.AUTO_LOOKAHEAD_TRICKS} tricks left and every layout is solved (exact), else none.")]
    = None,
    goal: Annotated[Optional[int], goal_option(
        "With --lookahead: the goal is that the declarer's side takes at least N tricks in "
        "the hand (0 to 13; default: the declarer's bid).")] = None,
    no_spade_breaking: NoSpadeBreaking = False,
    tt_mb: Annotated[Optional[float], tt_mb_option(LAYOUT_TT_MB, " per worker")] = None,
    json_out: Annotated[bool, json_option("docs/ADVISE.md")] = False,
    html: Annotated[Optional[Path], html_option("docs/ADVISE.md \"The page\"")] = None,
) -> None:
    only_with(ctx, "--lookahead", lookahead is not None, ("goal",))
    runs_on = where(jobs, cluster, cluster_timeout)
    html_target(html, file)
    deal = load_for_analysis(file, no_spade_breaking)
    q = sd.question_of(deal, player)             # bad input fails before any work starts
    if lookahead is not None and q.side != DECLARER_SIDE:
        usage_error(f"--lookahead {lookahead}: {q.player} is a defender, and the lookahead "
                    "searches the declarer's choices only; expected a position where the "
                    f"declarer ({q.names[0]}) chooses the card, or no --lookahead")
    settings = Settings(samples, seed, sampling.value, exact_limit, precision, time_limit)
    layouts = q.space.count()
    if lookahead is None:
        lookahead = sd.automatic_lookahead(q, settings.exact(layouts))
    live = precision is not None and not json_out
    with runs_on.start() as runner, live_view(live, report) as update, \
            progress_bar(settings.planned(layouts), "solving layouts",
                         enabled=update is None) as advance:
        advice = sd.advise(deal, player, settings, executor=runner,
                           tt_mb=LAYOUT_TT_MB if tt_mb is None else tt_mb,
                           progress=advance, update=update, lookahead=lookahead, goal=goal)
    payload = advice_json(advice, str(file))
    write_report(html, "advise", payload, deal)
    if json_out:
        emit_json(payload)
    else:
        console.print(report(advice))


def register(app: typer.Typer) -> None:
    app.command("advise", help=HELP)(advise)
