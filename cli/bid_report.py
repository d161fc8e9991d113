"""What ``dummy-spades bid`` prints: the documented JSON fields (docs/BID.md)
and the Rich report (the tables, the verdict, the check of every player's
bid), printed once or updated live while sampling to a precision."""
from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver import bid as sim
from dummy_spades.solver.bid import (HONESTY, MODEL_HONESTY, BidAnalysis, CandidateStats,
                                     Knowledge, PlayerCheck, RoleStats)
from dummy_spades.solver.cards import iter_cards
from dummy_spades.solver.simulation import Estimate

from .common import console, signed
from .render import (cards_json, cards_text, chance_text, display_order, estimate_json,
                     holding_lines, points_text, standing_json)

STOPPED = {"time": "time limit reached", "precision": "precision reached",
           "draws": "draw cap reached", "samples": "all samples asked for solved"}

BAR_WIDTH = 12
BLOCKS = " ▏▎▍▌▋▊▉█"


# ----------------------------------------------------------------- formats
def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``fraction`` (0..1) of ``width`` cells, in eighths."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return ("█" * full + (BLOCKS[part] if part else "")).ljust(width)


def hand_name(k: Knowledge, hand: str) -> str:
    return "own hand" if hand == k.player else hand


def role_label(r: RoleStats) -> str:
    return "you declare" if r.role == "declarer" else f"{r.declarer} declares"


# ------------------------------------------------------------------ JSON
def later_bid_model(a: BidAnalysis) -> str:
    return sim.MODEL_LATER_BIDS if a.weighted else sim.LATER_BID_MODEL[a.knowledge.bidding]


def honesty(a: BidAnalysis) -> str:
    return f"{HONESTY} {MODEL_HONESTY}" if a.weighted else HONESTY


def sampling_json(a: BidAnalysis) -> Dict[str, object]:
    s = a.sampling
    if s is None:
        return {}
    out: Dict[str, object] = {
        "method": s.method, "drawn": s.drawn, "accepted": s.accepted,
        "effective_samples": round(s.effective_samples, 1), "stopped_by": s.stopped_by,
    }
    if s.note:
        out["note"] = s.note
    out["control_draws"] = s.control_draws
    if a.target is not None:
        out["precision"] = {"target": a.target, "largest_se": round(a.precision(), 3)}
    if s.modelled:
        out.update({
            "acceptance_rate": round(s.accepted / s.drawn, 4) if s.drawn else None,
            "model_evaluations": s.evaluations,
            "model_seconds": round(s.seconds, 3),
            "threshold": s.threshold,
            "max_draws": s.max_draws,
            "unconditioned_bids": [{"player": b.player, "call": b.call()} for b in s.ignored],
            "hand_worth": [{"player": p, "sampled": round(w, 3), "uniform": round(u, 3)}
                           for p, w, u in s.worth],
        })
    return out


def histogram_json(a: BidAnalysis, r: RoleStats) -> List[object]:
    return [round(h, 3) for h in r.histogram] if a.weighted else list(r.histogram)


def candidate_json(k: Knowledge, c: CandidateStats) -> Dict[str, object]:
    return {
        "bid": c.candidate.tricks,
        "nil": ["self" if h == k.player else h for h in c.candidate.nils],
        "call": c.call,
        "expected_score": estimate_json(c.score),
        "expected_points": estimate_json(c.points),
        "expected_bags": estimate_json(c.bags),
        "make": estimate_json(c.make),
        "declare": estimate_json(c.declare),
        "nil_results": [{"hand": "self" if n.hand == k.player else n.hand,
                         "counts": estimate_json(n.counts), "kept": estimate_json(n.kept)}
                        for n in c.nils],
        "expected_score_by_declarer": {d: estimate_json(e) for d, e in c.by_role},
        "make_by_declarer": {d: estimate_json(e) for d, e in c.make_by_role},
        "declare_by_declarer": {d: estimate_json(e) for d, e in c.declarer_share},
    }


def analysis_json(a: BidAnalysis) -> Dict[str, object]:
    k = a.knowledge
    judged = None
    if a.judged is not None:
        j = a.judged
        judged = {"bid": candidate_json(k, j.stats),
                  "best_alternative": candidate_json(k, j.best_alternative),
                  "difference": estimate_json(j.difference), "rank": j.rank,
                  "of": len(a.candidates) + (0 if j.stats in a.candidates else 1)}
    return {
        "player": k.player,
        "players": list(k.players),
        "dealer": k.dealer,
        "bidding_order": list(k.order),
        "position": k.position + 1,
        "variant": k.variant,
        "bidding": k.bidding,
        "hand": cards_json(k.hand),
        "dummy_known": cards_json(k.dummy_seen),
        "bids_before": [{"player": b.player, "bid": b.tricks, "nil": list(b.nils),
                         "call": b.call()} for b in k.bids],
        "later_bidders": list(k.later_bidders),
        "standing": standing_json(k.standing) if k.standing is not None else None,
        "spade_breaking": k.breaking,
        "samples": a.samples,
        "samples_requested": a.requested,
        "stopped_early": a.stopped_early,
        "seed": a.seed,
        "solves": a.queries,
        "honesty": honesty(a),
        "later_bid_model": later_bid_model(a),
        "roles": [{
            "declarer": r.declarer,
            "role": r.role,
            "partner": r.partner,
            "histogram": histogram_json(a, r),
            "tricks": estimate_json(r.tricks),
            "make": [estimate_json(e) for e in r.make],
            "nils": [{"hand": "self" if n.hand == k.player else n.hand,
                      "kept": estimate_json(n.kept),
                      "implied": n.implied} for n in r.nils],
        } for r in a.roles],
        "bids": [candidate_json(k, c) for c in a.bids],
        "candidates": [candidate_json(k, c) for c in a.candidates],
        "recommended": candidate_json(k, a.recommended),
        "judged": judged,
        "sampling": sampling_json(a),
    }


def outcome_json(o: Optional[sim.BidOutcome], k: Knowledge) -> Optional[Dict[str, object]]:
    if o is None:
        return None
    return {"declarer": o.declarer, "role": "declarer" if o.declarer == k.player else "defender",
            "side_tricks": o.side_tricks, "made": o.made,
            "nils": [{"hand": "self" if h == k.player else h, "kept": kept} for h, kept in o.nils],
            "points": o.points, "bags": o.bags, "bag_penalty": o.penalty, "score": o.score}


def check_json(checks: Sequence[PlayerCheck]) -> Dict[str, object]:
    players = []
    for c in checks:
        k = c.analysis.knowledge
        players.append({
            "player": c.player,
            "bid": None if c.bid is None else c.bid.call(c.player),
            "analysis": analysis_json(c.analysis),
            "actual": {"declarer": c.actual.declarer,
                       "side_tricks_by_declarer": c.actual.side_tricks,
                       "outcome": outcome_json(c.actual.outcome, k)},
        })
    return {"players": players}


# ------------------------------------------------------------------ Rich
def n_text(a: BidAnalysis) -> str:
    """``n=200``, and ``n_eff`` beside it when the samples are weighted."""
    if a.weighted:
        return f"n={a.samples}, n_eff={a.effective_samples:.1f}"
    return f"n={a.samples}"


def samples_note(a: BidAnalysis) -> str:
    n = f"{a.samples} sample{'' if a.samples == 1 else 's'}"
    if a.weighted:
        n += f", n_eff {a.effective_samples:.1f}"
    why = "time limit reached"
    if a.sampling is not None:
        why = STOPPED.get(a.sampling.stopped_by, why)
    return f"{n} ({why}; {a.requested} asked for)" if a.stopped_early else n


def precision_line(a: BidAnalysis) -> List[Text]:
    """With --precision: the target, the largest standard error now, and
    whether the target was reached (else which limit stopped the run)."""
    if a.target is None:
        return []
    largest = a.precision()
    stopped = a.sampling.stopped_by if a.sampling is not None else "samples"
    how = "reached" if largest <= a.target else f"not reached ({STOPPED[stopped]})"
    return [Text(f"Precision: every ± at most {a.target:g} wanted (percentage points for chances, "
                 f"points for the top two bids' difference); largest {largest:.2f}, {how}",
                 style="dim")]


def sampling_lines(a: BidAnalysis) -> List[Text]:
    """What the sampling did: the method, draws, acceptance, n_eff, the cost
    in model evaluations, and each other hand as the bids shape it."""
    s = a.sampling
    if s is None or not s.modelled:
        note = f"; {s.note}" if s is not None and s.note else ""
        return [Text("Sampling: uniform (the bids made do not shape the other hands)" + note,
                     style="dim")] + precision_line(a)
    if s.conditioned:
        how = (f"Sampling: conditioned on the earlier bids by the bidding model: {s.drawn} "
               f"layouts drawn, {s.accepted} solved ({100 * s.accepted / s.drawn:.1f}% "
               f"accepted), n_eff {s.effective_samples:.1f}; {s.evaluations} model evaluations "
               f"({s.seconds:.2f} s), no solve for a rejected layout")
    else:
        how = ("Sampling: uniform (no earlier bid to condition on); later bidders bid by the "
               f"bidding model ({s.evaluations} model evaluations, {s.seconds:.2f} s)")
    lines = [Text(how, style="dim")]
    if s.worth:
        parts = [f"{name} {w:.1f} (uniform {u:.1f})" for name, w, u in s.worth]
        lines.append(Text("Other hands' worth as declarer by the model, tricks, mean over the "
                          "solved layouts: " + ", ".join(parts), style="dim"))
    for b in s.ignored:
        lines.append(Text(f"{b.player}'s {b.call()}: the bidding model gives it no chance on any "
                          f"hand drawn, so {b.player}'s hand is sampled uniformly",
                          style="yellow"))
    if s.stopped_by == "draws":
        lines.append(Text(f"The earlier bids are unlikely under the bidding model: stopped after "
                          f"{s.drawn} draws (the cap) with {s.accepted} layouts accepted",
                          style="yellow"))
    return lines + precision_line(a)


def header(a: BidAnalysis) -> Group:
    k = a.knowledge
    ordinal = ("1st", "2nd", "3rd")[k.position]
    lines: List[Text] = [Text.assemble(
        ("Bid analysis for ", "bold"), (k.player, "bold cyan"),
        f" — {ordinal} to bid (dealer {k.dealer}), {k.variant}",
        ("" if k.breaking else ", no spade breaking"),
        f"; {samples_note(a)}, seed {a.seed}")]
    hand = Text("Hand: ")
    hand.append(Text("  ").join(holding_lines(k.hand)))
    lines.append(hand)
    dummy = Text("Dummy cards known: ")
    dummy.append(cards_text(display_order(iter_cards(k.dummy_seen))))
    lines.append(dummy)
    bids = ", ".join(f"{b.player} {b.call()}" for b in k.bids) or "none (you bid first)"
    lines.append(Text(f"Bids before you: {bids}"))
    if k.later_bidders:
        lines.append(Text(f"Bid after you: {', '.join(k.later_bidders)} (modelled: "
                          f"{later_bid_model(a)})", style="dim"))
    lines.extend(sampling_lines(a))
    if k.standing is not None:
        lines.append(Text(f"Running score: {k.standing.points} ({k.standing.bags} bags); bag "
                          f"penalty {k.rules.scoring.bag_penalty} every {k.rules.scoring.bag_threshold} bags "
                          "is included in the expected scores"))
    n = "n is the number of samples" + (", n_eff the effective number of the weighted samples"
                                        if a.weighted else "")
    lines.append(Text(f"{honesty(a)} ± is one standard error; {n}.", style="dim italic"))
    return Group(*lines)


def histogram_table(a: BidAnalysis) -> Table:
    each = "" if all(abs(sum(r.histogram) - a.samples) < 1e-6 for r in a.roles) else \
        "; each role over the samples whose spade counts give it"
    t = Table(title=f"Your side's tricks by role (double-dummy, {n_text(a)}{each})",
              title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("tricks", justify="right")
    for r in a.roles:
        t.add_column(role_label(r), no_wrap=True)
    peak = max(max(r.histogram) / sum(r.histogram) for r in a.roles) or 1.0
    lo = min(min(i for i, c in enumerate(r.histogram) if c) for r in a.roles)
    hi = max(max(i for i, c in enumerate(r.histogram) if c) for r in a.roles)
    for tricks in range(lo, hi + 1):
        row = [str(tricks)]
        for r in a.roles:
            share = r.histogram[tricks] / sum(r.histogram)
            row.append(f"{bar(share / peak)} {100 * share:5.1f}%" if r.histogram[tricks] else "")
        t.add_row(*row)
    t.add_row("mean", *[points_text(r.tricks) for r in a.roles], style="bold")
    return t


def bids_table(a: BidAnalysis) -> Table:
    k = a.knowledge
    t = Table(title=f"Each bid: chance it makes if you declare / if another player declares, "
                    f"chance you declare, chance it makes, expected hand score "
                    f"({n_text(a)}, ± one standard error)",
              title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("bid", justify="right")
    for r in a.roles:
        t.add_column("you decl." if r.role == "declarer" else f"{r.declarer} decl.",
                     justify="right", no_wrap=True)
    t.add_column("declare", justify="right", no_wrap=True)
    t.add_column("makes", justify="right", no_wrap=True)
    t.add_column("score", justify="right", no_wrap=True)
    best = max(a.bids, key=lambda c: c.score.value)
    for c in a.bids:
        style = "bold green" if c is best else ""
        t.add_row(c.call if c.candidate.nils else str(c.tricks),
                  *[chance_text(r.make[c.tricks]) for r in a.roles], chance_text(c.declare),
                  chance_text(c.make), points_text(c.score, 1, sign=True), style=style)
    if k.standing is not None:
        t.caption = "expected scores include the bag penalty your running bags would trigger"
    return t


def nils_table(a: BidAnalysis) -> Table:
    k = a.knowledge
    t = Table(title=f"Nil safety ({n_text(a)}): the nil hand's side keeps it trickless "
                    "if it can, the other side tries to break it",
              title_justify="left", show_edge=False, pad_edge=False, min_width=60)
    for col in ("nil on", "if", "kept", "note"):
        t.add_column(col, justify="right" if col == "kept" else "left")
    for r in a.roles:
        for n in r.nils:
            note = "holds a sure trick in spades" if n.implied else ""
            t.add_row(hand_name(k, n.hand), role_label(r), chance_text(n.kept), note)
    return t


def candidates_table(a: BidAnalysis, top: int = 6) -> Table:
    k = a.knowledge
    t = Table(title=f"Best bids by expected hand score ({n_text(a)})", title_justify="left",
              show_edge=False, pad_edge=False)
    for col in ("", "bid", "expected score", "makes", "you declare", "nils kept (when they count)"):
        t.add_column(col, justify="left" if col in ("bid", "nils kept (when they count)") else "right")
    shown = [c for c in a.candidates if k.bidding != "standard"   # a variant's nils are part of the bid
             or all(n.counts.value > 0 for n in c.nils)][:top]
    for i, c in enumerate(shown, 1):
        t.add_row(str(i), c.call, points_text(c.score, 1, sign=True), chance_text(c.make),
                  chance_text(c.declare), _nil_cell(k, c),
                  style="bold green" if i == 1 else "")
    return t


def _nil_cell(k: Knowledge, c: CandidateStats) -> str:
    return "; ".join(f"{hand_name(k, n.hand)} {chance_text(n.kept, n=True)}" for n in c.nils)


def verdict(a: BidAnalysis) -> Group:
    k = a.knowledge
    r = a.recommended
    lines = [Text.assemble(("Recommended bid: ", "bold"), (r.call, "bold green"),
                           f"  (expected {points_text(r.score, 1, sign=True)} points; "
                           f"makes {chance_text(r.make)}; "
                           f"you declare {chance_text(r.declare)}; {n_text(a)})")]
    if a.judged is not None:
        j = a.judged
        c = j.stats
        of = len(a.candidates)
        lines.append(Text.assemble(
            ("Your bid ", "bold"), (c.call, "bold cyan"),
            f": makes {chance_text(c.make)}, you declare {chance_text(c.declare)}, "
            f"expected {points_text(c.score, 1, sign=True)} "
            f"points ({n_text(a)})"))
        for d, e in c.by_role:
            who = "you declare" if d == k.player else f"{d} declares"
            lines.append(Text(f"    if {who}: expected {points_text(e, 1, sign=True)}", style="dim"))
        for n in c.nils:
            lines.append(Text(f"    nil on {hand_name(k, n.hand)}: counts {chance_text(n.counts)}, "
                              f"kept {chance_text(n.kept, n=True)}", style="dim"))
        diff = j.difference
        style = "green" if j.rank == 1 else ("yellow" if diff.value > -10 else "red")
        lines.append(Text.assemble(
            f"Best alternative: {j.best_alternative.call} at "
            f"{points_text(j.best_alternative.score, 1, sign=True)}; "
            "your bid is ", (f"{points_text(diff, 1, sign=True)} points", style),
            f" from it (paired), rank {j.rank} of {of} candidates"))
    return Group(*lines)


def forced_table(a: BidAnalysis) -> Table:
    """Mirror: the one legal bid, per role (the roles the spade counts give)."""
    k = a.knowledge
    c = a.bids[0]
    why = "you hold no spades" if c.tricks == 0 else "your spade count"
    t = Table(title=f"Your bid is forced: {c.call} ({why}). By role, over the "
                    f"samples in which the spade counts give it (n={a.samples} in all)",
              title_justify="left", show_edge=False, pad_edge=False)
    for col in ("role", "chance", "makes", "expected score"):
        t.add_column(col, justify="left" if col == "role" else "right", no_wrap=True)
    make = dict(c.make_by_role)
    score = dict(c.by_role)
    for d, share in c.declarer_share:
        if make[d].n == 0:
            continue
        t.add_row("you declare" if d == k.player else f"{d} declares", chance_text(share),
                  chance_text(make[d], n=True), points_text(score[d], 1, sign=True))
    t.add_row("overall", "100%", chance_text(c.make), points_text(c.score, 1, sign=True),
              style="bold")
    for n in c.nils:
        t.caption = f"nil on {hand_name(k, n.hand)}: kept {chance_text(n.kept, n=True)}"
    return t


def report(a: BidAnalysis) -> Group:
    """The whole report as one renderable (printed once, or updated live)."""
    parts: List[RenderableType]
    if a.knowledge.bidding == "mirror":
        parts = [header(a), histogram_table(a), forced_table(a)]
    else:
        parts = [header(a), histogram_table(a), bids_table(a), nils_table(a),
                 candidates_table(a), verdict(a)]
    spaced: List[RenderableType] = []
    for p in parts:
        spaced.extend((p, Text("")))
    return Group(*spaced[:-1])


def render_analysis(a: BidAnalysis) -> None:
    console.print(report(a))


def render_checks(checks: Sequence[PlayerCheck]) -> None:
    first = checks[0].analysis
    counts = sorted({c.analysis.samples for c in checks})
    each = f"{counts[0]} samples each" if len(counts) == 1 else \
        f"{', '.join(str(c.analysis.samples) for c in checks)} samples"
    if any(c.analysis.stopped_early for c in checks):
        each += f" (time limit reached; {first.requested} asked for)"
    console.print(Text(f"Bid check for every player in bidding order ({each}, seed "
                       f"{first.seed}): each bid judged at its turn, beside the "
                       "deal's actual double-dummy result", style="bold"))
    console.print(Text(honesty(first) + " ± is one standard error.", style="dim italic"))
    t = Table(show_edge=False, pad_edge=False)
    for col in ("player", "knew", "bid", "makes", "expected", "best bid", "expected ",
                "gap", "DD: role", "side tricks", "score"):
        t.add_column(col, justify="right" if col not in ("player", "knew", "bid", "best bid",
                                                          "DD: role") else "left")
    for c in checks:
        a = c.analysis
        k = a.knowledge
        knew = ", ".join(f"{b.player} {b.call()}" for b in k.bids) or "—"
        if a.judged is not None:
            j = a.judged
            made = (chance_text(j.stats.make), points_text(j.stats.score, 1, sign=True))
            gap = f"{j.difference.value:+.1f}" if j.rank > 1 else "best"
        else:
            made, gap = ("—", "—"), "—"
        o = c.actual.outcome
        dd: Tuple[str, RenderableType, str]
        if o is not None:
            role = "declarer" if o.declarer == c.player else f"defender ({o.declarer} decl.)"
            dd = (role, Text(f"{o.side_tricks} ({'made' if o.made else 'set'})",
                             style="green" if o.made else "red"), signed(o.score))
        else:
            dd = ("auction incomplete", "—", "—")
        t.add_row(c.player, knew, "—" if c.bid is None else c.bid.call(c.player), *made,
                  a.recommended.call, points_text(a.recommended.score, 1, sign=True), gap, *dd)
    console.print(t)
    k = first.knowledge
    if len(checks) < len(k.players):
        console.print(Text("The auction is incomplete: the players after the next bidder cannot "
                           "be judged yet (their turn has not come).", style="dim"))
