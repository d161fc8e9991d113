"""``dummy-spades duck`` through Typer's CliRunner: the documented JSON fields
(docs/DUCK.md), agreement with the library on the reference twin, the Rich
tables, the options, and bad input (one line on stderr, exit 1, no traceback)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.dealfile import dump_deal
from dummy_spades.solver.duck import Oracle, analyse

from test_duck import HAVE_ENGINE, NIL_CALLS, late_deal

pytestmark = pytest.mark.skipif(not HAVE_ENGINE, reason="the duck command needs the compiled engine")

HANDS = Path(__file__).resolve().parent.parent / "hands"

TOP_FIELDS = {"file", "title", "spade_breaking", "declarer", "left_defender", "right_defender",
              "bids", "position", "cooperative", "duck", "alone", "contract_total",
              "declarer_can_make", "settle", "lowest", "highest", "options", "nils",
              "ignored_nils", "outcomes", "effects", "nil_breaks", "cards", "equilibrium",
              "complete", "undetermined"}
POSITION_FIELDS = {"tricks_played", "cards_played", "tricks_left", "to_move", "played_by", "won"}
OUTCOME_FIELDS = {"defender_tricks", "declarer_tricks", "marks", "reachable", "reachable_by",
                  "players", "nils", "nil_decides", "leaders", "winner"}
PLAYER_FIELDS = {"player", "role", "bid", "side_tricks", "made", "contract_points", "bags",
                 "nil_points", "points", "running", "value", "margin", "margins"}
OPTION_FIELDS = {"player", "role", "low", "high", "duck", "alone", "best", "reachable"}
EFFECT_FIELDS = {"player", "kind", "defender_tricks", "own_change", "margin_change",
                 "raises_own", "raises_margin"}
CARD_FIELDS = {"cards", "defender_tricks", "declarer_tricks", "tricks_given_up", "duck", "gains",
               "loses", "outcome", "nil_breaks"}
BREAK_FIELDS = {"breaker", "hand", "bidders", "can_force", "with_declarer", "defender_tricks",
                "outcome", "own_change", "margin_change", "pays"}
CARD_BREAK_FIELDS = {"breaker", "hand", "can_force"}
EQUILIBRIUM_FIELDS = {"outcome", "cooperative", "differs", "changes", "line", "first_deviation",
                      "cards", "nodes", "engine_leaves"}
STEP_FIELDS = {"hand", "player", "card", "cooperative"}
EQ_CARD_FIELDS = {"cards", "chosen", "outcome"}
NIL_ROW_FIELDS = {"bidder", "hand", "kept", "points", "reason", "decides"}


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def write(tmp_path, deal, name="deal.yaml"):
    path = tmp_path / name
    path.write_text(dump_deal(deal), encoding="utf-8")
    return path


def as_json(r):
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return json.loads(r.stdout)


def test_registered():
    r = run("--help")
    assert r.exit_code == 0 and "duck" in r.stdout
    r = run("duck", "--help")
    assert r.exit_code == 0
    for flag in ("--json", "--no-spade-breaking", "--time-limit", "--equilibrium"):
        assert flag in r.stdout


def test_json_fields_and_agreement_with_the_library(tmp_path):
    deal = late_deal(2, calls=NIL_CALLS, tricks=9, extra=1)
    data = as_json(run("duck", write(tmp_path, deal), "--json"))
    assert set(data) == TOP_FIELDS
    assert set(data["position"]) == POSITION_FIELDS
    assert data["position"]["cards_played"] == 37 and data["position"]["tricks_played"] == 9
    for o in data["outcomes"]:
        assert set(o) == OUTCOME_FIELDS
        for p in o["players"]:
            assert set(p) == PLAYER_FIELDS and p["running"] is None
        for n in o["nils"]:
            assert set(n) == NIL_ROW_FIELDS
    for o in data["options"]:
        assert set(o) == OPTION_FIELDS
    for e in data["effects"]:
        assert set(e) == EFFECT_FIELDS
    assert set(data["cards"]) == {"to_move", "played_by", "best_defender_tricks", "groups"}
    for g in data["cards"]["groups"]:
        assert set(g) == CARD_FIELDS
    assert data["equilibrium"] is None
    assert [n["hand"] for n in data["nils"]] == ["Alice", "Alice", "dummy"]
    # the same numbers as the library on the reference twin
    a = analyse(deal, oracle=Oracle("reference"), time_limit=None)
    assert data["cooperative"] == a.cooperative and data["duck"] == a.duck
    assert (data["lowest"], data["highest"], data["settle"]) == (a.lowest, a.highest, a.settle)
    assert data["complete"] and not data["undetermined"]
    assert [o["defender_tricks"] for o in data["outcomes"]] == [o.defender_tricks for o in a.outcomes]
    for got, want in zip(data["outcomes"], a.outcomes):
        assert got["marks"] == list(want.marks)
        assert [p["points"] for p in got["players"]] == [p.points for p in want.players]
        assert [n["kept"] for n in got["nils"]] == [n.kept for n in want.nils]
    by_card = {c: (g["defender_tricks"], g["duck"]) for g in data["cards"]["groups"]
               for c in g["cards"]}
    assert by_card == {format_card(c): (o.defender_tricks, o.duck) for o in a.cards for c in o.cards}


def test_rich_output(tmp_path):
    deal = late_deal(4, tricks=10)
    r = run("duck", write(tmp_path, deal))
    assert r.exit_code == 0, r.stderr
    for text in ("What each player can bring about", "Outcomes", "Duck effects", "Card level",
                 "Alice", "Bob", "Carol", "coop", "docs/DUCK.md"):
        assert text in r.stdout


def test_running_scores_in_json(tmp_path):
    from dummy_spades.solver.scoring import Standing
    scores = {"Alice": Standing(400, 9), "Bob": Standing(380, 1), "Carol": Standing(395, 5)}
    data = as_json(run("duck", write(tmp_path, late_deal(6, scores=scores)), "--json"))
    for o in data["outcomes"]:
        for p in o["players"]:
            assert p["running"]["before"] == {"points": scores[p["player"]].points,
                                              "bags": scores[p["player"]].bags}
            assert p["value"] == p["running"]["after"]["points"]


def test_no_spade_breaking_and_time_limit(tmp_path):
    path = write(tmp_path, late_deal(7, tricks=9))
    data = as_json(run("duck", path, "--json", "--no-spade-breaking", "--time-limit", "0"))
    assert data["spade_breaking"] is False
    assert not data["complete"] and "lowest total" in data["undetermined"]
    assert data["lowest"] is None and data["cooperative"] is not None
    assert as_json(run("duck", path, "--json"))["spade_breaking"] is True


def test_worked_example():
    data = as_json(run("duck", HANDS / "duck-worked-example.yaml", "--json", "--time-limit", "0"))
    assert (data["declarer"], data["left_defender"], data["right_defender"]) == ("Carol", "Alice", "Bob")
    assert data["bids"] == {"Carol": 7, "Alice": 5, "Bob": 6}
    assert data["cooperative"] == 7 and data["duck"]["Alice"] == 5
    rows = {o["defender_tricks"]: o for o in data["outcomes"]}
    points = {d: {p["player"]: p["points"] for p in rows[d]["players"]} for d in (5, 7)}
    assert points[7] == {"Carol": -70, "Alice": 52, "Bob": 61}
    assert points[5] == {"Carol": 71, "Alice": 50, "Bob": -60}
    assert "coop" in rows[7]["marks"] and "duck Alice" in rows[5]["marks"]
    assert data["declarer_can_make"] is False and data["settle"] is None
    ducks = [g for g in data["cards"]["groups"] if g["duck"]]
    assert ducks and all("Carol" in g["gains"] for g in ducks)


# ------------------------------------------------------------------ bad input
NO_AUCTION = """\
players: [Alice, Bob, Carol]
dealer: Carol
hands:
  Alice: A.AQT94.82.KT932
  Bob: T986.K52.Q764.J4
  Carol: KJ74.J8.AKJ5.AQ6
  dummy: Q532.763.T93.875
"""


def check_bad(r, *words):
    assert r.exit_code == 1, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("error:") and "Traceback" not in r.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_no_auction(tmp_path):
    path = tmp_path / "open.yaml"
    path.write_text(NO_AUCTION, encoding="utf-8")
    check_bad(run("duck", path), "open.yaml", "no auction")


def test_incomplete_auction():
    check_bad(run("duck", HANDS / "freak-distribution.yaml"), "freak-distribution.yaml",
              "not complete")


def test_hand_already_over():
    check_bad(run("duck", HANDS / "bag-penalty.yaml", "--json"), "bag-penalty.yaml", "13 tricks")


def test_missing_and_malformed_files(tmp_path):
    check_bad(run("duck", tmp_path / "nope.yaml"), "nope.yaml", "cannot read")
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Alice, Bob\n", encoding="utf-8")
    check_bad(run("duck", bad), "bad.yaml")


def test_negative_time_limit_is_a_usage_error(tmp_path):
    r = run("duck", write(tmp_path, late_deal(1)), "--time-limit", "-1")
    assert r.exit_code == 2


def test_docs_name_every_json_field():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "DUCK.md").read_text(encoding="utf-8")
    for field in (TOP_FIELDS | POSITION_FIELDS | OUTCOME_FIELDS | PLAYER_FIELDS | OPTION_FIELDS
                  | EFFECT_FIELDS | CARD_FIELDS | NIL_ROW_FIELDS | BREAK_FIELDS | CARD_BREAK_FIELDS
                  | EQUILIBRIUM_FIELDS | STEP_FIELDS | EQ_CARD_FIELDS):
        assert f"`{field}`" in doc, field
    for reason in ("already-lost", "kept", "side-takes-more", "cannot-be-kept", "broken",
                   "wins-a-trick"):
        assert f"`{reason}`" in doc, reason


# ------------------------------------------------------------------ nil breaking, equilibrium
@pytest.fixture(scope="module")
def nil_break_json():
    return as_json(run("duck", HANDS / "nil-break.yaml", "--json", "--equilibrium"))


def test_nil_break_json(nil_break_json):
    data = nil_break_json
    assert [(b["breaker"], b["hand"]) for b in data["nil_breaks"]] == [("Bob", "Alice"),
                                                                        ("Carol", "Alice")]
    for b in data["nil_breaks"]:
        assert set(b) == BREAK_FIELDS
    bob, carol = data["nil_breaks"]
    assert bob["can_force"] and bob["with_declarer"] and bob["pays"] is True
    assert (bob["defender_tricks"], bob["own_change"], bob["margin_change"]) == (7, 0, 200)
    assert bob["outcome"]["leaders"] == ["Bob"]
    assert [n["reason"] for n in bob["outcome"]["nils"]] == ["broken"]
    assert not carol["can_force"] and carol["outcome"] is None and carol["pays"] is None
    for g in data["cards"]["groups"]:
        for x in g["nil_breaks"]:
            assert set(x) == CARD_BREAK_FIELDS
    forced = {c: g["nil_breaks"][0]["can_force"] for g in data["cards"]["groups"] for c in g["cards"]}
    assert forced == {"SA": True, "S6": False, "S3": False, "D7": True}


def test_equilibrium_json(nil_break_json):
    e = nil_break_json["equilibrium"]
    assert set(e) == EQUILIBRIUM_FIELDS
    assert e["differs"] and e["changes"] == {"Carol": 0, "Alice": -200, "Bob": 0}
    assert e["outcome"]["defender_tricks"] == 7 and e["outcome"]["winner"] is None
    assert e["cooperative"]["winner"] == "Alice" and "coop" in e["cooperative"]["marks"]
    assert len(e["line"]) == 16 and all(set(s) == STEP_FIELDS for s in e["line"])
    assert e["line"][0]["player"] == "Bob" and e["first_deviation"] is None
    assert sum(c["chosen"] for c in e["cards"]) == 1
    assert all(set(c) == EQ_CARD_FIELDS for c in e["cards"])
    assert e["nodes"] >= e["engine_leaves"] > 0


def test_nil_break_tables():
    r = run("duck", HANDS / "nil-break.yaml", "--equilibrium")
    assert r.exit_code == 0, r.stderr
    for text in ("Nil breaking", "alone", "breaks", "Bob>Al", "Equilibrium", "Line: Bob",
                 "differs from cooperative play: Alice -200"):
        assert text in r.stdout, text


def test_equilibrium_above_the_card_limit():
    check_bad(run("duck", HANDS / "duck-worked-example.yaml", "--equilibrium"),
              "duck-worked-example.yaml", "played", "not available with 13 tricks left",
              "at most 5 tricks")
    check_bad(run("duck", HANDS / "duck-worked-example.yaml", "--equilibrium", "--json"),
              "not available")
