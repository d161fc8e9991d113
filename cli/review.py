"""``dummy-spades review FILE``: every card of a played hand judged double dummy.

For each card of the file's ``played`` list (the whole hand or part of it):
the declarer side's double-dummy total before and after it, whether it lost
tricks for the side that played it, and the best cards at that point. Then
the tricks each player gave away, the scores from the opening lead, at each
mistake and at the end, and cut-throat notes. ``--json``: the fields of
docs/REVIEW.md.
"""
from __future__ import annotations

from typing import Annotated, Dict, List, Optional

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.review import CardJudgement, CutThroatNote, HandReview, Scores, review
from dummy_spades.solver.scoring import DUMMY
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE

from .common import console, emit_json, handle_errors, load_for_analysis, signed
from .options import DealFile, NoSpadeBreaking, json_option
from .render import add_columns, card_names, card_text, cards_text, display_order
from .solve import TtMb, breaking_text, player_json


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


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


def review_json(r: HandReview, file: str) -> Dict[str, object]:
    """The documented JSON of ``review --json`` (docs/REVIEW.md)."""
    deal, seating = r.deal, r.seating
    final = r.final.points
    return {
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
        "cards": [_card_json(c) for c in r.cards],
        "mistakes": [{"number": m.card.number, "trick": m.card.trick, "hand": m.card.hand,
                      "player": m.card.player, "card": format_card(m.card.card),
                      "lost": m.card.lost, "at": _scores_json(m.at),
                      "after": _scores_json(m.after),
                      "final_change": {p: final[p] - pts for p, pts in m.at.points.items()},
                      "note": _note_json(m.note)} for m in r.mistakes],
    }


# ------------------------------------------------------------------ Rich
def _who(c: CardJudgement) -> str:
    return f"dummy ({c.player})" if c.hand == DUMMY else c.hand


def _verdict(c: CardJudgement) -> Text:
    if c.lost:
        return Text(f"-{_plural(c.lost, 'trick')}", style="bold red")
    if c.choices == 1:
        return Text("forced", style="dim")
    return Text("best", style="green")


def _best_text(c: CardJudgement) -> Text:
    if c.choices == 1:
        return Text("")
    return Text(" | ", style="dim").join(cards_text(display_order(g)) for g in c.best)


def render_cards(r: HandReview) -> Table:
    t = Table(title="Every card: the declarer side's double-dummy tricks before and after it",
              title_justify="left", show_edge=False, pad_edge=False)
    add_columns(t, (("trick", "right"), ("hand", "left"), ("card", "left"),
                    ("decl.", "right"), ("", "left"), ("best cards (equivalent cards together)",
                                                       "left")))
    for c in r.cards:
        tricks = (f"{c.declarer_before}" if c.declarer_after == c.declarer_before
                  else f"{c.declarer_before}→{c.declarer_after}")
        t.add_row(str(c.trick) if c.number % 4 == 1 or c.number == 1 else "", _who(c),
                  card_text(c.card), Text(tricks, style="bold red" if c.lost else ""),
                  _verdict(c), _best_text(c),
                  end_section=c.number % 4 == 0 and c.number < len(r.cards))
    return t


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
    text.append(f" (trick {card.trick}) gave away {_plural(card.lost, 'trick')}, yet as {what} "
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


def render_review(r: HandReview) -> Group:
    deal, seating = r.deal, r.seating
    auction = deal.auction
    assert auction is not None
    parts: List[RenderableType] = []
    if deal.title:
        parts.append(Text(deal.title, style="bold underline"))
    bid = auction.tricks_bid[seating.declarer]
    played = ("the whole hand" if r.finished
              else f"{_plural(len(r.cards), 'card')} of 52")
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
    parts += [Text(), render_cards(r), Text(), render_given_away(r), Text(), render_scores(r)]
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
    file: DealFile,
    no_spade_breaking: NoSpadeBreaking = False,
    json_out: Annotated[bool, json_option("docs/REVIEW.md")] = False,
    tt_mb: TtMb = None,
) -> None:
    """Every card played judged double dummy: tricks lost, best cards, scores, cut-throat notes."""
    deal: Deal = load_for_analysis(file, no_spade_breaking)
    solver = make_solver(tt_mb)
    result = review(deal, solver)
    if json_out:
        emit_json(review_json(result, str(file)))
    else:
        console.print(render_review(result))


def register(app: typer.Typer) -> None:
    app.command("review")(review_command)
