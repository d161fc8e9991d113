"""``dummy-spades review FILE``: every card of a played hand judged double dummy.

For each card of the file's ``played`` list (the whole hand or part of it):
the declarer side's double-dummy total before and after it, whether it lost
tricks for the side that played it, and the best cards at that point. Then
the tricks each player gave away, the scores from the opening lead, at each
mistake and at the end, and cut-throat notes. ``--json``: the fields of
docs/REVIEW.md.
"""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Dict, List, Optional

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver import advise as sd
from dummy_spades.solver import limits
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.review import CardJudgement, CutThroatNote, HandReview, Scores, review
from dummy_spades.solver.review import single_dummy as sdr
from dummy_spades.solver.scoring import DUMMY
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE
from dummy_spades.solver.simulation import DEFAULT_EXACT_LIMIT, DEFAULT_SEED, Settings

from .common import (console, emit_json, handle_errors, load_for_analysis, only_with,
                     progress_counter, signed)
from .options import (CLUSTER_TIMEOUT, Cluster, ClusterTimeout, DealFile, Jobs, NoSpadeBreaking,
                      Sampling, Seed, exact_limit_option, html_option, json_option,
                      samples_option, sampling_option, time_limit_option, tt_mb_option, where)
from .page import html_target, write_report
from .render import (add_columns, breaking_text, card_names, card_text, cards_text, display_order,
                     estimate_json, player_json, plural, points_text)


def _groups_json(card: CardJudgement) -> List[List[str]]:
    return [card_names(display_order(g)) for g in card.best]


def _card_json(c: CardJudgement) -> Dict[str, object]:
    return {"number": c.number, "trick": c.trick, "hand": c.hand, "player": c.player,
            "side": c.side_name, "card": format_card(c.card),
            "declarer_before": c.declarer_before, "declarer_after": c.declarer_after,
            "side_before": c.side_before, "side_after": c.side_after, "lost": c.lost,
            "best": c.is_best, "best_cards": _groups_json(c), "choices": c.choices}


def _scores_json(s: Scores) -> Dict[str, object]:
    basis = s.contract.scoring_basis if s.contract is not None else "tricks"
    return {"kind": s.kind, "declarer_tricks": s.declarer_tricks,
            "defender_tricks": 13 - s.declarer_tricks, "scoring_basis": basis,
            "players": [dict(player_json(p), value=s.values[p.player]) for p in s.result.scores]}


def _note_json(n: Optional[CutThroatNote]) -> Optional[Dict[str, object]]:
    if n is None:
        return None
    return {"player": n.player, "kind": n.kind, "own_change": n.own_change,
            "margin_change": n.margin_change, "margins_change": dict(n.margins_change),
            "sets": list(n.sets), "nils_broken": list(n.nils_broken),
            "bag_penalties": list(n.bag_penalties)}


def _single_dummy_card_json(j: Optional[sdr.SingleDummyJudgement]) -> Optional[Dict[str, object]]:
    if j is None:
        return None
    a = j.advice
    return {"verdict": j.verdict, "settled": j.settled,
            "tricks_loss": estimate_json(j.tricks_loss),
            "score_loss": estimate_json(j.score_loss),
            "best": card_names(display_order(j.best.cards)),
            "single_dummy_best": j.single_dummy_best,
            "without_hindsight": None if a.lookahead is None else {
                "lookahead": a.lookahead.completed, "goal": a.lookahead.goal,
                "played": estimate_json(a.lookahead.fusion_free_of(j.played.cards)),
                "best": estimate_json(a.lookahead.fusion_free_of(j.best.cards))},
            "played": {"tricks": estimate_json(j.played.tricks),
                       "score": estimate_json(j.played.score)},
            "method": a.method, "samples": a.samples, "stopped_by": a.stopped_by,
            "layouts": a.layouts, "consistent_layouts": a.consistent,
            "effective_samples": round(a.effective_samples, 1), "nodes": a.nodes}


def single_dummy_json(s: sdr.SingleDummyReview) -> Dict[str, object]:
    c = s.settings
    return {"samples": c.samples, "first_samples": s.first, "node_budget": c.node_budget,
            "nodes": s.nodes, "rounds": s.rounds, "time_limit": c.time_limit,
            "timed_out": s.timed_out, "min_loss": sdr.MIN_LOSS, "seed": c.seed,
            "sampling": c.sampling, "exact_limit": c.exact_limit,
            "cards_judged": len(s.judgements), "unsettled": s.unsettled,
            "unjudged": list(s.unjudged),
            "players": [{"player": p.player, "cards": p.cards,
                         "tricks_loss": estimate_json(p.tricks_loss),
                         "score_loss": estimate_json(p.score_loss),
                         **{v: p.count(v) for v in sdr.VERDICTS}} for p in s.players],
            "honesty": sd.HONESTY}


def review_json(r: HandReview, file: str,
                single: Optional[sdr.SingleDummyReview] = None) -> Dict[str, object]:
    """The documented JSON of ``review --json`` (docs/REVIEW.md); with
    ``single`` (``--single-dummy``) each card's ``single_dummy`` and the
    top-level ``single_dummy``."""
    deal, seating = r.deal, r.seating
    final = r.final.points
    cards = [_card_json(c) for c in r.cards]
    if single is not None:
        for c, card in zip(r.cards, cards):
            card["single_dummy"] = _single_dummy_card_json(single.judgement_of(c.number))
    out: Dict[str, object] = {
        "file": file,
        "title": deal.title or None,
        "spade_breaking": deal.rules.breaking,
        "declarer": seating.declarer,
        "left_defender": seating.defenders[0],
        "right_defender": seating.defenders[1],
        "play_order": list(seating.names),
        "cards_played": len(r.cards),
        "finished": r.finished,
        "opening": _scores_json(r.opening),
        "final": _scores_json(r.final),
        "given_away": r.given_away,
        "side_given_away": {"declarer": r.side_lost(DECLARER_SIDE),
                            "defenders": r.side_lost(DEFENDER_SIDE)},
        "cards": cards,
        "mistakes": [{"number": m.card.number, "trick": m.card.trick, "hand": m.card.hand,
                      "player": m.card.player, "card": format_card(m.card.card),
                      "lost": m.card.lost, "at": _scores_json(m.at),
                      "after": _scores_json(m.after),
                      "final_change": {p: final[p] - pts for p, pts in m.at.points.items()},
                      "note": _note_json(m.note)} for m in r.mistakes],
    }
    if single is not None:
        out["single_dummy"] = single_dummy_json(single)
    return out


# ------------------------------------------------------------------ Rich
def _who(c: CardJudgement) -> str:
    return f"dummy ({c.player})" if c.hand == DUMMY else c.hand


def _verdict(c: CardJudgement) -> Text:
    if c.lost:
        return Text(f"-{plural(c.lost, 'trick')}", style="bold red")
    if c.choices == 1:
        return Text("forced", style="dim")
    return Text("best", style="green")


def _best_text(c: CardJudgement) -> Text:
    if c.choices == 1:
        return Text("")
    return Text(" | ", style="dim").join(cards_text(display_order(g)) for g in c.best)


VERDICT_STYLES = {sdr.UNLUCKY: "yellow", sdr.LUCKY: "cyan", sdr.MISTAKE: "bold red",
                  sdr.FINE: "green"}


def _single_cell(j: Optional[sdr.SingleDummyJudgement], unjudged: bool = False) -> Text:
    """``unlucky? 2.9±3.0 ♦K n=400``: the verdict (``?``: two standard
    errors could still move it), the points lost to the single-dummy best
    card and that card, and the layouts it rests on (``exact``: all)."""
    if j is None:
        return Text("not reached (time limit)", style="dim") if unjudged else Text("")
    text = Text(j.verdict + ("" if j.settled else "?"), style=VERDICT_STYLES[j.verdict])
    loss = j.chance_loss
    if loss is not None:
        if loss > 0:
            text.append(f" -{100 * loss:.0f}% ", style="dim")
            text.append_text(cards_text(display_order(j.best.cards)))
        text.append(" without hindsight", style="dim")
    elif j.played is not j.best:
        text.append(f" {points_text(j.score_loss, 1, gap='')} ", style="dim")
        text.append_text(cards_text(display_order(j.best.cards)))
    a = j.advice
    text.append(" exact" if a.method == sd.EXACT else f" n={a.samples}", style="dim")
    return text


def render_cards(r: HandReview, single: Optional[sdr.SingleDummyReview] = None) -> Table:
    t = Table(title="Every card: the declarer side's double-dummy tricks before and after it"
                    + ("; single dummy: the verdict (? when two standard errors could still "
                       "change it), the chooser's expected points lost to the single-dummy best "
                       "card (± one standard error), that card, and the layouts solved (n, or "
                       "exact: every one)" if single else ""),
              title_justify="left", show_edge=False, pad_edge=False)
    add_columns(t, (("trick", "right"), ("hand", "left"), ("card", "left"),
                    ("decl.", "right"), ("", "left"), ("best cards (equivalent cards together)",
                                                       "left"))
                + ((("single dummy", "left"),) if single else ()))
    for c in r.cards:
        tricks = (f"{c.declarer_before}" if c.declarer_after == c.declarer_before
                  else f"{c.declarer_before}→{c.declarer_after}")
        extra = (_single_cell(single.judgement_of(c.number), c.number in single.unjudged),) \
            if single else ()
        t.add_row(str(c.trick) if c.number % 4 == 1 or c.number == 1 else "", _who(c),
                  card_text(c.card), Text(tricks, style="bold red" if c.lost else ""),
                  _verdict(c), _best_text(c), *extra,
                  end_section=c.number % 4 == 0 and c.number < len(r.cards))
    return t


def render_single_dummy(s: sdr.SingleDummyReview) -> Group:
    """The per-player summary of the single-dummy judgements."""
    c = s.settings
    limit = "" if c.time_limit is None else f", time limit {c.time_limit:g} s"
    budget = "" if c.node_budget is None else f", within {c.node_budget:,} search nodes"
    t = Table(title=f"Single dummy, each player's cards that had a choice judged from what they "
                    f"could see (each card {s.first} samples, doubled while its verdict is "
                    f"unsettled, at most {c.samples}{budget}"
                    f"{limit}; exact when at most {c.exact_limit:,} layouts; {c.sampling} "
                    f"sampling, seed {c.seed}): expected tricks and points lost to the "
                    "single-dummy best cards (± one standard error)",
              title_justify="left", show_edge=False, pad_edge=False)
    add_columns(t, (("player", "left"), ("cards", "right"), ("tricks lost", "right"),
                    ("points lost", "right"), ("mistake", "right"), ("unlucky", "right"),
                    ("lucky", "right"), ("fine", "right")))
    for p in s.players:
        t.add_row(Text(p.player, style="bold"), str(p.cards), points_text(p.tricks_loss, 2),
                  points_text(p.score_loss, 1), *(str(p.count(v)) for v in
                                         (sdr.MISTAKE, sdr.UNLUCKY, sdr.LUCKY, sdr.FINE)))
    spent = Text(f"Search nodes spent: {s.nodes:,} in {plural(s.rounds, 'round')}; "
                 f"{plural(s.unsettled, 'verdict')} unsettled (?)", style="dim")
    if s.timed_out:
        spent.append(f"; the time limit stopped the review ({plural(len(s.unjudged), 'card')} "
                     "not reached)", style="yellow")
    legend = Text(
        f"Clearly worse single dummy: the chooser's expected points lost to the single-dummy "
        f"best card are more than two standard errors and at least {sdr.MIN_LOSS:g} (a bag); "
        f"in an ending of the declarer's side (at most {sd.AUTO_LOOKAHEAD_TRICKS} tricks left, "
        "every layout), its chance of the contract without hindsight (αμ, to the end of the "
        "hand) is below the best card's (-N% and that card, 'without hindsight'). "
        "mistake: clearly worse and it lost double dummy; unlucky: not clearly worse but it "
        "lost double dummy; lucky: clearly worse, no double-dummy loss; fine: neither. "
        + sd.HONESTY, style="dim italic")
    return Group(t, spent, legend)


def render_given_away(r: HandReview) -> Table:
    seating = r.seating
    t = Table(title="Tricks given away (the declarer answers for the dummy's cards)",
              title_justify="left", show_edge=False, pad_edge=False)
    add_columns(t, (("player", "left"), ("role", "left"), ("given away", "right"),
                    ("cards", "left")))
    given = r.given_away
    for player in (seating.declarer, *seating.defenders):
        cards = Text(", ").join(
            Text.assemble(card_text(m.card.card),
                          f"{' (dummy)' if m.card.hand == DUMMY else ''} trick {m.card.trick}"
                          f" -{m.card.lost}")
            for m in r.mistakes if m.card.player == player)
        t.add_row(Text(player, style="bold"), "declarer" if player == seating.declarer
                  else "defender", Text(str(given[player]), style="red" if given[player] else ""),
                  cards)
    return t


def _score_cell(s: Scores, player: str, final: Optional[int]) -> Text:
    line = s.result.score_of(player)
    text = Text(signed(line.points), style="" if line.made else "red")
    if not line.made:
        text.append(" set", style="red")
    elif line.bags:
        text.append(f" {line.bags}b", style="dim")
    if final is not None and final != line.points:
        text.append(f" ({signed(final - line.points)})", style="bold")
    return text


def render_scores(r: HandReview) -> Table:
    end = "actual" if r.finished else "DD from the current position"
    t = Table(title=f"Hand scores: double dummy at each point against the {end} result "
                    f"(in brackets: {end} minus that)",
              title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("position")
    t.add_column("decl.", justify="right")
    for p in r.players:
        t.add_column(p, justify="right")
    final = r.final.points
    rows = [("from the opening lead", r.opening)]
    rows += [(f"before {_who(m.card)}'s {format_card(m.card.card, symbols=True)} "
              f"(trick {m.card.trick})", m.at) for m in r.mistakes]
    for label, s in rows:
        t.add_row(label, str(s.declarer_tricks), *(_score_cell(s, p, final[p]) for p in r.players))
    t.add_row(Text(end, style="bold"), Text(str(r.final.declarer_tricks), style="bold"),
              *(_score_cell(r.final, p, None) for p in r.players), style="bold")
    return t


def note_text(r: HandReview, note: CutThroatNote, card: CardJudgement) -> Text:
    what = "a duck" if note.kind == "duck" else "a concession (the declarer's settle)"
    text = Text("Cut-throat: ", style="bold yellow")
    text.append(f"{_who(card)}'s ")
    text.append_text(card_text(card.card))
    text.append(f" (trick {card.trick}) gave away {plural(card.lost, 'trick')}, yet as {what} "
                f"it helped {note.player}")
    effects = []
    if note.sets:
        effects.append("sets " + " and ".join(note.sets))
    if note.nils_broken:
        effects.append("breaks the nil on " + " and ".join(note.nils_broken))
    if note.bag_penalties:
        effects.append("costs " + " and ".join(note.bag_penalties) + " a bag penalty")
    if effects:
        text.append(": it " + "; ".join(effects))
    margins = ", ".join(f"over {o} {signed(v)}" for o, v in note.margins_change.items())
    text.append(f". {note.player}'s value {signed(note.own_change)}, margin "
                f"{signed(note.margin_change)}; margin {margins} (docs/DUCK.md).")
    return text


def render_review(r: HandReview, single: Optional[sdr.SingleDummyReview] = None) -> Group:
    deal, seating = r.deal, r.seating
    auction = deal.auction
    assert auction is not None
    parts: List[RenderableType] = []
    if deal.title:
        parts.append(Text(deal.title, style="bold underline"))
    bid = auction.tricks_bid[seating.declarer]
    played = ("the whole hand" if r.finished
              else f"{plural(len(r.cards), 'card')} of 52")
    parts.append(Text.assemble(
        (f"{seating.declarer} declares {bid}", "bold"),
        f" (the dummy sits opposite); defenders {seating.defenders[0]} and "
        f"{seating.defenders[1]}; {breaking_text(deal)}. Reviewed: {played}."))
    decl_lost, def_lost = r.side_lost(DECLARER_SIDE), r.side_lost(DEFENDER_SIDE)
    end = "actual result" if r.finished else "double dummy from the current position"
    parts.append(Text.assemble(
        "Declarer side: ", (f"{r.opening.declarer_tricks}", "bold"),
        " double dummy from the opening lead, ",
        (f"-{decl_lost}", "red" if decl_lost else ""), " given away by the declarer side, ",
        (f"+{def_lost}", "red" if def_lost else ""), " given away by the defenders: ",
        (f"{r.final.declarer_tricks}", "bold"), f" ({end})."))
    parts += [Text(), render_cards(r, single), Text(), render_given_away(r), Text(),
              render_scores(r)]
    if single is not None:
        parts += [Text(), render_single_dummy(single)]
    notes = [note_text(r, m.note, m.card) for m in r.mistakes if m.note is not None]
    if notes:
        parts.append(Text())
        parts += notes
    if not r.mistakes:
        parts += [Text(), Text("No card lost a trick: every card kept its side's "
                               "double-dummy total.", style="green")]
    return Group(*parts)


@handle_errors
def review_command(
    ctx: typer.Context,
    file: DealFile,
    no_spade_breaking: NoSpadeBreaking = False,
    json_out: Annotated[bool, json_option("docs/REVIEW.md")] = False,
    html: Annotated[Optional[Path], html_option("docs/REVIEW.md \"The page\"")] = None,
    tt_mb: Annotated[Optional[float], tt_mb_option(
        limits.DEFAULT_TT_MB,
        defaults=f"the double-dummy review's, default {limits.DEFAULT_TT_MB:g}; with "
                 f"--single-dummy also each worker's for the layouts, default "
                 f"{limits.LAYOUT_TT_MB:g}")] = None,
    single_dummy: Annotated[bool, typer.Option(
        "--single-dummy",
        help="Also judge every card that had a choice single dummy, from what its chooser "
             "could see then (as `advise`): the expected tricks and points lost to the "
             "single-dummy best card, and a verdict (mistake, unlucky, lucky, fine).")] = False,
    samples: Annotated[int, samples_option(
        f"With --single-dummy: layouts sampled per card at most (default "
        f"{sdr.DEFAULT_SAMPLES}); each card starts with {sdr.FIRST_SAMPLES} and doubles them "
        "while its verdict is unsettled.")] = sdr.DEFAULT_SAMPLES,
    node_budget: Annotated[int, typer.Option(
        "--node-budget", metavar="NODES", min=0,
        help=f"With --single-dummy: search nodes to spend in all (default "
             f"{sdr.DEFAULT_NODE_BUDGET:,}: a whole hand in about a minute on two cores); the "
             "first samples of every card are solved whatever they cost. The answers depend "
             "on it, not on the machine.")] = sdr.DEFAULT_NODE_BUDGET,
    time_limit: Annotated[Optional[float], time_limit_option(
        "With --single-dummy: stop after about this many seconds with the layouts solved by "
        "then (each card keeps its first ones; the answers then depend on the machine).")]
    = None,
    seed: Seed = DEFAULT_SEED,
    sampling: Annotated[Sampling, sampling_option(
        "With --single-dummy: conditioned (the bids weight the layouts, as `advise`) or "
        "uniform.")] = Sampling.conditioned,
    exact_limit: Annotated[int, exact_limit_option(
        "With --single-dummy: solve every consistent layout at a card when there are at "
        "most N.")] = DEFAULT_EXACT_LIMIT,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_timeout: ClusterTimeout = CLUSTER_TIMEOUT,
) -> None:
    """Every card played judged double dummy: tricks lost, best cards, scores, cut-throat notes;
    with --single-dummy also from what its chooser could see."""
    only_with(ctx, "--single-dummy", single_dummy,
              ("samples", "node_budget", "time_limit", "seed", "sampling", "exact_limit", "jobs",
               "cluster", "cluster_timeout"))
    runs_on = where(jobs, cluster, cluster_timeout)
    html_target(html, file)
    deal: Deal = load_for_analysis(file, no_spade_breaking)
    solver = make_solver(tt_mb)
    result = review(deal, solver)
    single = None
    if single_dummy:
        settings = Settings(samples, seed, sampling.value, exact_limit, time_limit=time_limit,
                            node_budget=node_budget)
        allotment = sdr.allot(deal, result.cards, settings)
        with runs_on.start() as runner, progress_counter("single dummy") as update:
            single = sdr.single_dummy_review(allotment, executor=runner, progress=update,
                                             tt_mb=limits.LAYOUT_TT_MB if tt_mb is None else tt_mb)
    payload = review_json(result, str(file), single)
    write_report(html, "review", payload, deal)
    if json_out:
        emit_json(payload)
    else:
        console.print(render_review(result, single))


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)
