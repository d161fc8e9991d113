"""``dummy-spades review``: every card of a played hand judged double dummy.

The central check: review's judgement of each card (the totals before and
after it, the best cards) agrees with ``dummy-spades analyse`` run on a deal
file cut at that card, for the bundled finished hand and a partly played
bundled deal.
"""
from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import analysis, engine
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.cards import format_card, parse_card
from dummy_spades.solver.dealfile import dump_deal, load_deal
from dummy_spades.solver.position import equivalent_groups
from dummy_spades.solver.review import review
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


@functools.lru_cache(maxsize=None)
def review_json(stem: str, *options: str) -> dict:
    result = run("review", HANDS / f"{stem}.yaml", "--json", *options)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def one_error(result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) >= 1 and lines[0].startswith("error:")
    return " ".join(result.stderr.split())


# ------------------------------------------------------------ against analyse
@pytest.mark.parametrize("stem", ["bag-penalty", "mid-play"])
def test_judgements_agree_with_analyse_at_every_position(stem, tmp_path):
    deal = load_deal(HANDS / f"{stem}.yaml")
    out = review_json(stem)
    assert out["cards_played"] == len(deal.played) == len(out["cards"])
    for i, card in enumerate(out["cards"]):
        cut = tmp_path / f"{stem}-{i}.yaml"
        cut.write_text(dump_deal(deal.with_played(deal.played[:i])), encoding="utf-8")
        result = run("analyse", cut, "--json")
        assert result.exit_code == 0, result.output
        a = json.loads(result.stdout)
        where = f"card {i + 1} ({card['card']})"
        assert a["to_move"] == card["hand"] and a["played_by"] == card["player"], where
        assert a["side"] == card["side"], where
        assert a["value"] == card["side_before"], where
        assert a["cards"][card["card"]] == card["side_after"], where
        assert card["lost"] == a["value"] - a["cards"][card["card"]], where
        assert card["best"] == (card["lost"] == 0), where
        best_groups = sorted(g["cards"] for g in a["groups"] if g["best"])
        assert sorted(card["best_cards"]) == best_groups, where
        assert card["choices"] == len(a["groups"]), where
        decl = card["side_before"] if card["side"] == "declarer" else 13 - card["side_before"]
        assert card["declarer_before"] == decl, where


def test_totals_add_up_and_chain():
    for stem in ("bag-penalty", "mid-play"):
        out = review_json(stem)
        cards = out["cards"]
        for prev, nxt in zip(cards, cards[1:]):
            assert prev["declarer_after"] == nxt["declarer_before"]
        assert cards[0]["declarer_before"] == out["opening"]["declarer_tricks"]
        assert cards[-1]["declarer_after"] == out["final"]["declarer_tricks"]
        side = out["side_given_away"]
        assert (out["opening"]["declarer_tricks"] - side["declarer"] + side["defenders"]
                == out["final"]["declarer_tricks"])
        assert sum(out["given_away"].values()) == side["declarer"] + side["defenders"]
        assert [m["number"] for m in out["mistakes"]] == [c["number"] for c in cards if c["lost"]]


def test_finished_hand():
    out = review_json("bag-penalty")
    assert out["finished"] and out["final"]["kind"] == "actual"
    deal = load_deal(HANDS / "bag-penalty.yaml")
    actual = deal.score()
    assert out["final"]["declarer_tricks"] == actual.declarer_tricks == 9
    assert [p["points"] for p in out["final"]["players"]] == [s.points for s in actual.scores]
    # the opening lead is the double-dummy result of solve on the unplayed hand
    solver = make_solver()
    opening = analysis.contract_result(deal.opening_board(), solver)
    assert out["opening"]["declarer_tricks"] == opening.declarer_tricks
    assert [p["points"] for p in out["opening"]["players"]] == [s.points for s in opening.scores]
    assert out["given_away"] == {"Alice": 0, "Bob": 3, "Carol": 0}
    for m in out["mistakes"]:
        assert set(m["final_change"]) == set(deal.players)
        for p in m["at"]["players"]:
            final = next(q for q in out["final"]["players"] if q["player"] == p["player"])
            assert m["final_change"][p["player"]] == final["points"] - p["points"]


def test_partly_played_hand_ends_with_the_double_dummy_result():
    out = review_json("mid-play")
    assert not out["finished"] and out["final"]["kind"] == "double-dummy"
    deal = load_deal(HANDS / "mid-play.yaml")
    r = analysis.contract_result(deal.board(), make_solver())
    assert out["final"]["declarer_tricks"] == r.declarer_tricks


def test_cut_throat_duck_that_sets_the_other_defender():
    """mid-play: Alice's spade ace at trick 6 gives the declarer a trick, but
    the defenders then end below Bob's bid: a duck that sets Bob."""
    out = review_json("mid-play")
    notes = [m for m in out["mistakes"] if m["note"]]
    duck = next(m for m in notes if m["player"] == "Alice" and m["card"] == "SA")
    note = duck["note"]
    assert note["kind"] == "duck" and note["sets"] == ["Bob"]
    assert note["margins_change"]["Bob"] > 0
    at = {p["player"]: p for p in duck["at"]["players"]}
    after = {p["player"]: p for p in duck["after"]["players"]}
    assert at["Bob"]["made"] and not after["Bob"]["made"]
    assert note["own_change"] == after["Alice"]["value"] - at["Alice"]["value"]
    # a mistake that helps nobody carries no note
    assert any(m["note"] is None for m in out["mistakes"])


def test_cut_throat_note_on_the_screen():
    text = " ".join(run("review", HANDS / "mid-play.yaml").stdout.split())
    assert "Cut-throat: Alice's ♠A (trick 6) gave away 1 trick" in text
    assert "sets Bob" in text and "docs/DUCK.md" in text


def test_bag_penalty_note_with_running_scores():
    out = review_json("bag-penalty")
    noted = [m for m in out["mistakes"] if m["note"]]
    assert noted and all(m["note"]["kind"] == "settle" for m in noted)
    assert any("Alice" in m["note"]["bag_penalties"] for m in noted)


def test_screen():
    result = run("review", HANDS / "bag-penalty.yaml")
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    for phrase in ("Bob declares 7", "Reviewed: the whole hand", "-1 trick", "forced",
                   "Tricks given away", "Hand scores", "from the opening lead", "actual"):
        assert phrase in text, phrase
    assert "12 double dummy from the opening lead" in text


def test_no_spade_breaking_option():
    on = review_json("mid-play")
    off = review_json("mid-play", "--no-spade-breaking")
    assert on["spade_breaking"] and not off["spade_breaking"]
    assert len(off["cards"]) == len(on["cards"])


def test_nil_bets_are_scored_as_solve_scores_them(tmp_path):
    """A hand with nil bets that count: the positions' scores are solve's."""
    deal = load_deal(HANDS / "nil-bets.yaml")
    state = deal.board()
    rng = random.Random(5)
    for _ in range(9):
        state.push(rng.choice(state.legal_moves()))
    cut = tmp_path / "nils.yaml"
    cut.write_text(dump_deal(deal.with_played(state.moves)), encoding="utf-8")
    out = json.loads(run("review", cut, "--json").stdout)
    solved = json.loads(run("solve", cut, "--json").stdout)["contract"]
    assert out["final"]["scoring_basis"] == solved["scoring"]["basis"]
    assert [p["points"] for p in out["final"]["players"]] == [p["points"] for p in solved["players"]]


# ------------------------------------------------------------ the library
def test_equivalent_groups_match_the_engine():
    deal = load_deal(HANDS / "worked-example.yaml")
    solver = engine.CompiledSolver(16)
    rng = random.Random(1)
    checked = 0
    for _ in range(6):
        state = deal.board()
        while not state.is_over:
            raw = solver.card_groups(state.position, DECLARER_SIDE)
            assert sorted(g for g, _ in raw) == equivalent_groups(state.position)
            checked += 1
            state.push(rng.choice(state.legal_moves()))
    assert checked == 6 * 52


def test_one_solver_serves_the_review_and_answers_match_a_cold_one():
    deal = load_deal(HANDS / "bag-penalty.yaml")
    warm = make_solver()
    first = review(deal, warm)
    again = review(deal, warm)
    assert first.cards == again.cards
    cold = make_solver()
    for c in first.cards[::7]:
        state = deal.with_played(deal.played[:c.number - 1]).board()
        assert analysis.dd_side_tricks(state, DECLARER_SIDE, cold) == c.declarer_before


def test_side_totals():
    r = review(load_deal(HANDS / "mid-play.yaml"), make_solver())
    for c in r.cards:
        if c.side == DEFENDER_SIDE:
            assert c.side_before == 13 - c.declarer_before
            assert c.lost == c.declarer_after - c.declarer_before
        else:
            assert c.lost == c.declarer_before - c.declarer_after
        assert c.lost >= 0
        assert (c.card in c.best_cards) == (c.lost == 0)


# ------------------------------------------------------------ bad input
def test_nothing_played_is_an_error():
    text = one_error(run("review", HANDS / "worked-example.yaml"))
    assert "worked-example.yaml" in text and "nothing to review" in text
    text = one_error(run("review", HANDS / "freak-distribution.yaml"))
    assert "nothing to review" in text


def test_illegal_played_card_names_the_trick_and_card(tmp_path):
    deal = load_deal(HANDS / "mid-play.yaml")
    played = list(deal.played)
    played[5] = parse_card("H4")   # the dummy holds no ♥4: it is in Alice's hand
    text = (HANDS / "mid-play.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("♥Q ♥6 ♥5 ♥J", "♥Q ♥4 ♥5 ♥J"), encoding="utf-8")
    msg = one_error(run("review", bad))
    assert "bad.yaml" in msg and "played[1]" in msg and "trick 2" in msg and "H4" in msg
    revoke = tmp_path / "revoke.yaml"
    revoke.write_text(text.replace("♦J ♠A ♦10 ♦7", "♦J ♠A ♦10 ♠6"), encoding="utf-8")
    msg = one_error(run("review", revoke))
    assert "trick 6" in msg and "S6" in msg and "revoke" in msg
    assert format_card(played[5]) == "H4"


def test_bad_file_and_options(tmp_path):
    text = one_error(run("review", tmp_path / "nope.yaml"))
    assert "nope.yaml" in text
    result = run("review", HANDS / "mid-play.yaml", "--tt-mb", "0")
    assert result.exit_code == 2 and "--tt-mb" in result.stderr   # out of the option's range


# ------------------------------------------------------------ docs
def test_json_fields_are_documented():
    doc = (ROOT / "docs" / "REVIEW.md").read_text(encoding="utf-8")
    out = review_json("mid-play")
    keys = set(out) | set(out["cards"][0]) | set(out["opening"]) | set(out["mistakes"][0])
    keys |= set(out["opening"]["players"][0])
    keys |= set(next(m["note"] for m in out["mistakes"] if m["note"]))
    missing = sorted(k for k in keys if f"`{k}`" not in doc)
    assert not missing, missing


def test_command_is_registered():
    help_text = run("review", "--help").stdout
    for option in ("--no-spade-breaking", "--json", "--tt-mb"):
        assert option in help_text
    assert "review" in run("--help").stdout

