"""``dummy-spades solve`` and ``dummy-spades analyse`` through typer's CliRunner,
over every bundled deal in hands/.

Golden files: ``tests/golden/solve/<deal>.json`` is ``solve --json`` on the
file as it is and ``<deal>.no-breaking.json`` with ``--no-spade-breaking``
(``"file"`` left out). Refresh after a deliberate change with
``UPDATE_GOLDEN=1 python -m pytest tests/test_cli_solve_analyse.py``. Their
numbers are not trusted because they were once produced: every run checks
them independently -

* spade-breaking rule off (and positions where spades are already broken,
  where the rule no longer matters): against DDS through endplay;
* rule on, few cards left: against the reference twin;
* rule on, full deals: the two sides' searches must agree (a fresh solver),
  and along an optimal line of play the position where spades get broken is
  checked against DDS (and the last tricks against the reference twin).
"""
from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import List, Optional, Sequence, Set, Tuple

import pytest
from typer.testing import CliRunner

from dummy_spades.cli import analyse as cli_analyse
from dummy_spades.cli import solve as cli_solve
from dummy_spades.cli.app import app
from dummy_spades.solver import analysis
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import format_card, format_hand, parse_card
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE, first_bidder, side_of

from model_helpers import with_breaking
from solver_checks import REF, independent_solver, session_solver

ROOT = Path(__file__).resolve().parent.parent
HANDS = sorted((ROOT / "hands").glob("*.yaml"))
GOLDEN = Path(__file__).resolve().parent / "golden" / "solve"
FINISHED = {"bag-penalty"}  # all 13 tricks played: solve compares, analyse refuses
SOLVABLE = [p for p in HANDS if p.stem not in FINISHED]
UPDATE = bool(os.environ.get("UPDATE_GOLDEN"))

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def run_answered(*args: str):
    """``run``, with solve and analyse asking the session's solver: the
    commands on the bundled deals ask the same questions in several tests
    (and test_analysis.py), searched once; their checks here are about what
    the commands make of the answers, which the goldens' checks confirm."""
    with pytest.MonkeyPatch.context() as patch:
        for command in (cli_solve, cli_analyse):
            patch.setattr(command, "make_solver", lambda tt_mb=None: session_solver())
        return run(*args)


def hand_path(stem: str) -> Path:
    return ROOT / "hands" / f"{stem}.yaml"


def declarer_option(path: Path) -> List[str]:
    """``--declarer`` for files without a complete auction (the first player)."""
    deal = load_deal(path)
    return [] if deal.declarer is not None else ["--declarer", deal.players[0]]


@functools.lru_cache(maxsize=None)
def solve_json(stem: str, no_breaking: bool) -> dict:
    args = ["solve", hand_path(stem), "--json"] + (["--no-spade-breaking"] if no_breaking else [])
    result = run_answered(*args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@functools.lru_cache(maxsize=None)
def analyse_json(stem: str, no_breaking: bool) -> dict:
    path = hand_path(stem)
    args = ["analyse", path, "--json", *declarer_option(path)]
    result = run_answered(*(args + (["--no-spade-breaking"] if no_breaking else [])))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def golden_cases() -> List[Tuple[str, bool]]:
    """(deal, --no-spade-breaking) pairs with a golden file."""
    out = []
    for path in HANDS:
        out.append((path.stem, False))
        if load_deal(path).rules.breaking:
            out.append((path.stem, True))
    return out


#: Deals whose golden checks take long with the rule on (a second engine
#: solves the full deal for each declarer, then an optimal line): marked slow,
#: run by ``pytest -m slow`` (CI runs them). Their goldens are still compared
#: with the commands' output in every run.
LONG_INDEPENDENT_CHECKS = {"auction-tie"}


def case_params(cases: Sequence[Tuple[str, bool]], long: Set[str] = set()) -> List[object]:
    """(deal, --no-spade-breaking) cases as test parameters; ``long``: deals
    whose rule-on case is marked slow."""
    return [pytest.param(stem, off, id=f"{stem}{'-off' if off else ''}",
                         marks=[pytest.mark.slow] if stem in long and not off else [])
            for stem, off in cases]


GOLDEN_CASES = golden_cases()
GOLDEN_PARAMS = case_params(GOLDEN_CASES)
INDEPENDENT_PARAMS = case_params(GOLDEN_CASES, LONG_INDEPENDENT_CHECKS)
ANALYSE_PARAMS = case_params([(s, off) for s, off in GOLDEN_CASES if s not in FINISHED])


def golden_path(stem: str, no_breaking: bool) -> Path:
    return GOLDEN / f"{stem}{'.no-breaking' if no_breaking else ''}.json"


def golden(stem: str, no_breaking: bool) -> dict:
    return json.loads(golden_path(stem, no_breaking).read_text(encoding="utf-8"))


# ------------------------------------------------------------------ DDS helpers
def dds_side_tricks(hands: Sequence[int], leader: int, trick: Sequence[int], side: int) -> int:
    """DDS (endplay): the most tricks ``side`` takes from the trick in progress
    on, bridge play with spades trump (= the rule off, or spades broken)."""
    types = pytest.importorskip("endplay.types")
    dds = pytest.importorskip("endplay.dds")
    held = list(hands)
    for i, card in enumerate(trick):
        held[(leader + i) % 4] |= 1 << card
    deal = types.Deal("N:" + " ".join(format_hand(h) for h in held))
    deal.trump = types.Denom.spades
    deal.first = types.Player(leader)
    for card in trick:
        deal.play(types.Card(format_card(card)))
    best = max(score for _, score in dds.solve_board(deal))
    left = bin(hands[(leader + len(trick)) % 4]).count("1")
    mover = (leader + len(trick)) % 4
    return best if side_of(mover) == side else left - best


def won_by(state: Board, side: int) -> int:
    return sum(w for s, w in enumerate(state.tricks_won) if side >> s & 1)


def independent_side_tricks(state: Board, side: int) -> Optional[int]:
    """The side's total by DDS or the reference twin when either applies, else None."""
    pos = state.position
    if not state.breaking or state.spades_broken:
        return won_by(state, side) + dds_side_tricks(pos.hands, pos.leader, pos.trick, side)
    if max(bin(h).count("1") for h in pos.hands) <= 5:
        return won_by(state, side) + REF.max_tricks(state.position, side)
    return None


# ------------------------------------------------------------------ golden files
@pytest.mark.parametrize("stem, no_breaking", GOLDEN_PARAMS)
def test_solve_json_matches_golden(stem, no_breaking):
    got = dict(solve_json(stem, no_breaking))
    assert got.pop("file") == str(hand_path(stem))
    path = golden_path(stem, no_breaking)
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1"
    assert got == golden(stem, no_breaking)


@pytest.mark.parametrize("stem, no_breaking", INDEPENDENT_PARAMS)
def test_golden_contract_is_independently_right(stem, no_breaking):
    g = golden(stem, no_breaking)
    deal = with_breaking(load_deal(hand_path(stem)), False if no_breaking else None)
    assert g["spade_breaking"] == deal.rules.breaking
    if deal.declarer is None:
        assert g["contract"] is None and g["opening"] is None and g["actual"] is None
        return
    state = deal.board()
    checks = [("contract", state)] if not state.is_over else []
    if deal.played:
        checks.append(("opening", deal.opening_board()))
    else:
        assert g["opening"] is None
    for key, at in checks:
        want = independent_side_tricks(at, DECLARER_SIDE)
        if want is None:  # a full deal with the rule on: the other side's search, another solver
            want = 13 - won_by(at, DEFENDER_SIDE) - independent_solver().max_tricks(
                at.position, DEFENDER_SIDE)
        assert g[key]["declarer_tricks"] == want, key
        assert g[key]["defender_tricks"] == 13 - want, key
    if state.is_over:
        assert g["contract"] is None
        actual = deal.score()
        assert g["actual"]["declarer_tricks"] == actual.declarer_tricks == state.declarer_tricks
        assert [p["points"] for p in g["actual"]["players"]] == [s.points for s in actual.scores]
    else:
        assert g["actual"] is None


def line_check(state: Board, side: int, value: int) -> int:
    """Replay an optimal line (engine, rule as in ``state``) and check its
    tail independently: at the first trick boundary with spades broken by
    DDS, at the last four tricks by the reference twin. Returns checks made."""
    line = session_solver().optimal_line(state.position, side)
    replay = state.copy()
    checks = 0
    dds_done = False
    for card in line:
        if not replay.trick:
            left = bin(replay.hands[replay.leader]).count("1")
            if not dds_done and (replay.spades_broken or not replay.breaking):
                got = independent_side_tricks(replay, side)
                assert got == value, f"DDS after {len(replay.tricks)} tricks"
                dds_done, checks = True, checks + 1
            if left == 4:
                assert won_by(replay, side) + REF.max_tricks(replay.position, side) == value, \
                    "reference, last 4 tricks"
                checks += 1
        replay.push(card)  # legal under the deal's rule
    assert replay.is_over and won_by(replay, side) == value
    return checks


@pytest.mark.parametrize("stem, no_breaking", INDEPENDENT_PARAMS)
def test_golden_table_is_independently_right(stem, no_breaking):
    g = golden(stem, no_breaking)
    deal = with_breaking(load_deal(hand_path(stem)), False if no_breaking else None)
    assert [r["declarer"] for r in g["table"]] == list(deal.players)
    for row in g["table"]:
        state = deal.opening_board(row["declarer"])
        seating = deal.seating(row["declarer"])
        assert row["opening_leader"] == first_bidder(deal.players, deal.dealer) == state.names[state.leader]
        assert (row["left_defender"], row["right_defender"]) == seating.defenders
        assert row["declarer_tricks"] + row["defender_tricks"] == 13
        if not deal.rules.breaking:
            pos = state.position
            assert row["declarer_tricks"] == dds_side_tricks(pos.hands, pos.leader, (), DECLARER_SIDE)
            continue
        # rule on, full deal: the defenders' own search (another solver) gives the same split,
        # and an optimal line checks out against DDS once spades are broken
        assert row["defender_tricks"] == independent_solver().max_tricks(state.position,
                                                                         DEFENDER_SIDE)
        assert line_check(state, DECLARER_SIDE, row["declarer_tricks"]) >= 1


def test_goldens_cover_every_solvable_deal():
    names = {p.name for p in GOLDEN.glob("*.json")}
    for stem, no_breaking in GOLDEN_CASES:
        assert golden_path(stem, no_breaking).name in names
    assert len(names) == len(GOLDEN_CASES)


def test_rule_on_and_off_differ_only_where_the_rule_can_bite():
    """spade-breaking.yaml: the dummy leads from Q754 of spades and a heart.
    Rule on: 2 of the last 5 (the heart must be led); off: 3."""
    on, off = golden("spade-breaking", False), golden("spade-breaking", True)
    won = on["contract"]["won"]["declarer"]
    assert on["contract"]["declarer_tricks"] == won + 2
    assert off["contract"]["declarer_tricks"] == won + 3
    # the rule is off in this file: nothing to switch
    assert golden("no-spade-breaking", False)["spade_breaking"] is False


# ------------------------------------------------------------------ solve JSON
SOLVE_KEYS = {"file", "title", "spade_breaking", "players", "dealer", "opening_leader", "declarer",
              "contract", "opening", "actual", "table"}
CONTRACT_KEYS = {"declarer", "left_defender", "right_defender", "play_order", "position", "won",
                 "declarer_tricks", "defender_tricks", "scoring", "players", "nils", "ignored_nils"}
POSITION_KEYS = {"tricks_played", "cards_played", "to_move", "played_by", "spades_broken"}
PLAYER_KEYS = {"player", "role", "bid", "side_tricks", "made", "contract_points", "bags",
               "nil_points", "points"}
NIL_KEYS = {"bidder", "hand", "side", "kept", "side_tricks", "lost_already", "points"}
ROW_KEYS = {"declarer", "left_defender", "right_defender", "opening_leader", "declarer_tricks",
            "defender_tricks"}


@pytest.mark.parametrize("stem, no_breaking", GOLDEN_PARAMS)
def test_solve_json_schema_and_consistency(stem, no_breaking):
    out = solve_json(stem, no_breaking)
    deal = load_deal(hand_path(stem))
    assert set(out) == SOLVE_KEYS
    assert out["players"] == list(deal.players) and out["dealer"] == deal.dealer
    assert out["opening_leader"] == first_bidder(deal.players, deal.dealer)
    assert out["declarer"] == deal.declarer
    assert len(out["table"]) == 3
    for row in out["table"]:
        assert set(row) == ROW_KEYS
        assert row["declarer_tricks"] + row["defender_tricks"] == 13
    c = out["contract"]
    if deal.declarer is None:
        assert c is None
        return
    if out["actual"] is not None:
        assert c is None and set(out["actual"]) == {"declarer_tricks", "defender_tricks", "players"}
        c = out["opening"]
    if out["opening"] is not None:
        assert set(out["opening"]) == CONTRACT_KEYS
        assert out["opening"]["position"]["cards_played"] == 0
    assert set(c) == CONTRACT_KEYS and set(c["position"]) == POSITION_KEYS
    assert c["declarer_tricks"] + c["defender_tricks"] == 13
    assert c["won"]["declarer"] <= c["declarer_tricks"] and c["won"]["defenders"] <= c["defender_tricks"]
    assert c["position"]["cards_played"] == (0 if out["actual"] else len(deal.played))
    bids = deal.auction.tricks_bid
    low, high = c["scoring"]["declarer_tricks"]
    kept = {n["side"] for n in c["nils"] if n["kept"]}
    basis = {frozenset(): "tricks", frozenset({"declarer"}): "declarer-nil",
             frozenset({"defenders"}): "defender-nil",
             frozenset({"declarer", "defenders"}): "both-nils"}[frozenset(kept)]
    assert c["scoring"]["basis"] == basis
    if basis == "tricks":
        assert low == high == c["declarer_tricks"]
    assert (c["scoring"]["players_high"] is None) == (low == high)
    for p in c["players"]:
        assert set(p) == PLAYER_KEYS
        tricks = low if p["player"] == deal.declarer else 13 - low
        assert p["role"] == ("declarer" if p["player"] == deal.declarer else "defender")
        assert p["bid"] == bids[p["player"]] and p["side_tricks"] == tricks
        assert p["made"] == (tricks >= p["bid"])
        assert p["points"] == p["contract_points"] + p["nil_points"]
    applicable = [(b.bidder, b.hand) for b in deal.auction.applicable_nils()]
    assert [(n["bidder"], n["hand"]) for n in c["nils"]] == applicable
    for n in c["nils"]:
        assert set(n) == NIL_KEYS
        assert n["points"] == (100 if n["kept"] else -100)
        assert (n["side_tricks"] >= 0) == n["kept"]
        side_total = c["declarer_tricks"] if n["side"] == "declarer" else c["defender_tricks"]
        assert n["side_tricks"] <= side_total  # keeping a nil never gains tricks
    nil_points = {p["player"]: p["nil_points"] for p in c["players"]}
    for player in deal.players:
        assert nil_points[player] == sum(n["points"] for n in c["nils"] if n["bidder"] == player)
    ignored = [(b.bidder, b.hand) for b in deal.auction.ignored_nils()]
    assert [(n["bidder"], n["hand"]) for n in c["ignored_nils"]] == ignored


def test_kept_nils_are_kept_on_a_line_of_play():
    """nil-bets.yaml: both nils that count can be kept; replaying the engine's
    nil-keeping line, the nil hand wins nothing and its side takes the
    promised tricks."""
    out = solve_json("nil-bets", False)
    deal = load_deal(hand_path("nil-bets"))
    state = deal.board()
    seating = deal.seating()
    assert [n["kept"] for n in out["contract"]["nils"]] == [True, True]
    for n in out["contract"]["nils"]:
        seat = seating.seat_of(n["hand"])
        side = side_of(seat)
        line = make_solver(16).optimal_line(state.position, side, nil_seat=seat)
        replay = state.copy()
        for card in line:
            replay.push(card)
        assert replay.tricks_won[seat] == 0
        assert won_by(replay, side) == n["side_tricks"]


# ------------------------------------------------------------------ analyse JSON
ANALYSE_KEYS = {"file", "title", "spade_breaking", "declarer", "auction_declarer", "what_if",
                "play_order", "position", "to_move",
                "played_by", "side", "side_hands", "side_won", "value", "best_cards", "groups",
                "cards", "line"}
A_POSITION_KEYS = {"tricks_played", "trick", "leader", "on_table", "spades_broken", "won"}
LINE_KEYS = {"cards", "tricks", "declarer_tricks", "defender_tricks"}
TRICK_KEYS = {"number", "leader", "cards", "winner", "declarer_tricks", "defender_tricks"}

@pytest.mark.parametrize("stem, no_breaking", ANALYSE_PARAMS)
def test_analyse_json_is_consistent(stem, no_breaking):
    out = analyse_json(stem, no_breaking)
    path = hand_path(stem)
    deal = with_breaking(load_deal(path), False if no_breaking else None)
    declarer = deal.declarer or deal.players[0]
    state = deal.board(declarer)
    assert set(out) == ANALYSE_KEYS and set(out["position"]) == A_POSITION_KEYS
    assert out["declarer"] == declarer and out["play_order"] == list(state.names)
    assert out["auction_declarer"] == deal.declarer and out["what_if"] is False
    assert out["spade_breaking"] == deal.rules.breaking
    seat = state.to_move
    side = side_of(seat)
    assert out["to_move"] == state.names[seat]
    assert out["played_by"] == state.names[0 if seat == 2 else seat]  # the declarer plays the dummy
    assert out["side"] == ("declarer" if side == DECLARER_SIDE else "defenders")
    assert out["side_won"] == won_by(state, side)
    assert [c["card"] for c in out["position"]["on_table"]] == [format_card(c) for c in state.trick]
    # every legal card once, grouped; values from the groups; best marked
    legal = sorted(state.legal_moves())
    grouped = sorted(parse_card(c) for g in out["groups"] for c in g["cards"])
    assert grouped == legal
    assert sorted(parse_card(c) for c in out["cards"]) == legal
    for g in out["groups"]:
        assert all(out["cards"][c] == g["value"] for c in g["cards"])
        assert g["best"] == (g["value"] == out["value"])
    assert out["value"] == max(out["cards"].values())
    assert sorted(out["best_cards"]) == sorted(c for c, v in out["cards"].items() if v == out["value"])
    # the best card's value is the solve value at this position
    if deal.declarer is not None:
        contract = solve_json(stem, no_breaking)["contract"]
        key = "declarer_tricks" if side == DECLARER_SIDE else "defender_tricks"
        assert out["value"] == contract[key]
    # the optimal line replays legally, starts with a best card and reaches the value
    line = out["line"]
    assert set(line) == LINE_KEYS
    cards = [parse_card(c) for c in line["cards"]]
    assert line["cards"][0] in out["best_cards"]
    replay = state.copy()
    tricks = []
    for card in cards:
        done = replay.push(card)
        if done is not None:
            tricks.append((replay.names[done.winner], replay.declarer_tricks, replay.defender_tricks))
    assert replay.is_over
    final = replay.declarer_tricks if side == DECLARER_SIDE else replay.defender_tricks
    assert final == out["value"]
    assert (line["declarer_tricks"], line["defender_tricks"]) == (replay.declarer_tricks,
                                                                  replay.defender_tricks)
    assert [(t["winner"], t["declarer_tricks"], t["defender_tricks"]) for t in line["tricks"]] == tricks
    assert [t["number"] for t in line["tricks"]] == list(range(len(state.tricks) + 1, 14))
    for i, t in enumerate(line["tricks"]):
        assert set(t) == TRICK_KEYS and len(t["cards"]) == 4
        on_table = [c["on_table"] for c in t["cards"]]
        assert on_table == [i == 0 and k < len(state.trick) for k in range(4)]
        order = [c["hand"] for c in t["cards"]]
        start = state.names.index(t["leader"])
        assert order == [state.names[(start + k) % 4] for k in range(4)]


def test_analyse_values_independently_where_possible():
    """mid-play (spades broken): every card against DDS; spade-breaking (5
    cards, rule on): against the reference twin."""
    out = analyse_json("mid-play", False)
    deal = load_deal(hand_path("mid-play"))
    state = deal.board()
    for card, value in out["cards"].items():
        after = state.copy()
        after.push(parse_card(card))
        assert independent_side_tricks(after, DECLARER_SIDE) == value, card
    out = analyse_json("spade-breaking", False)
    state = load_deal(hand_path("spade-breaking")).board()
    want = REF.card_values(state.position, DECLARER_SIDE)
    assert out["cards"] == {"H2": want[parse_card("H2")] + state.declarer_tricks}
    off = analyse_json("spade-breaking", True)
    assert off["value"] == out["value"] + 1  # leading spades is allowed and worth a trick
    assert set(off["cards"]) == {"SQ", "S7", "S5", "S4", "H2"}


def test_analyse_declarer_option_for_a_partial_auction():
    path = hand_path("freak-distribution")
    for name in ("Alice", "Bob", "Carol"):
        result = run("analyse", path, "--json", "--declarer", name)
        assert result.exit_code == 0, result.output
        out = json.loads(result.stdout)
        assert out["declarer"] == name and out["play_order"][0] == name
        assert out["to_move"] == "Alice"  # the first bidder leads whoever declares
    # the value matches that declarer's row of the DD table
    table = {r["declarer"]: r for r in solve_json("freak-distribution", False)["table"]}
    bob = json.loads(run("analyse", path, "--json", "--declarer", "Bob").stdout)
    assert bob["side"] == "defenders" and bob["value"] == table["Bob"]["defender_tricks"]


def test_analyse_what_if_declarer_overrides_the_auction():
    """worked-example: Carol declares by the auction; --declarer Bob is a
    what-if from the opening lead, said in the header and the JSON, and
    matches Bob's row of the DD table."""
    path = hand_path("worked-example")
    result = run("analyse", path, "--json", "--declarer", "Bob")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["declarer"] == "Bob" and out["auction_declarer"] == "Carol" and out["what_if"]
    assert out["play_order"][0] == "Bob" and out["to_move"] == "Alice"
    table = {r["declarer"]: r for r in solve_json("worked-example", False)["table"]}
    side = "declarer_tricks" if out["side"] == "declarer" else "defender_tricks"
    assert out["value"] == table["Bob"][side]
    text = " ".join(run("analyse", path, "--declarer", "Bob").stdout.split())
    assert "What-if: Bob declares in place of Carol (the auction's declarer)" in text
    same = json.loads(run("analyse", path, "--json", "--declarer", "Carol").stdout)
    assert same["what_if"] is False and same["declarer"] == "Carol"


def test_solve_on_a_finished_hand_compares_with_double_dummy():
    out = solve_json("bag-penalty", False)
    assert out["contract"] is None
    assert out["opening"]["position"]["cards_played"] == 0
    assert out["actual"]["declarer_tricks"] == 9
    text = " ".join(run("solve", hand_path("bag-penalty")).stdout.split())
    assert "From the opening lead: Bob leads." in text
    assert f"declarer side {out['opening']['declarer_tricks']}" in text
    assert "What happened: all 13 tricks played; declarer side 9, defenders 4" in text


def test_solve_on_a_partly_played_hand_shows_both():
    out = solve_json("mid-play", False)
    assert out["opening"]["position"]["cards_played"] == 0
    assert out["contract"]["position"]["cards_played"] == 25 and out["actual"] is None
    assert out["opening"]["declarer_tricks"] == next(
        r["declarer_tricks"] for r in out["table"] if r["declarer"] == "Carol")
    text = " ".join(run("solve", hand_path("mid-play")).stdout.split())
    assert "From the opening lead: Alice leads." in text and "What happened so far" in text
    unplayed = solve_json("worked-example", False)
    assert unplayed["opening"] is None and unplayed["actual"] is None


# ------------------------------------------------------------------ Rich output
@pytest.mark.parametrize("path", SOLVABLE, ids=[p.stem for p in SOLVABLE])
def test_solve_screen(path):
    result = run_answered("solve", path)
    assert result.exit_code == 0, result.output
    text = result.stdout
    deal = load_deal(path)
    assert "DD table" in text
    for player in deal.players:
        assert player in text
    if deal.declarer is not None:
        assert f"{deal.declarer} declares" in text and "Double dummy:" in text
    else:
        assert "the DD table only" in text


@pytest.mark.parametrize("path", SOLVABLE, ids=[p.stem for p in SOLVABLE])
def test_analyse_screen(path):
    result = run_answered("analyse", path, *declarer_option(path))
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "To play:" in text and "best" in text and "An optimal line" in text and "Final:" in text


def test_analyse_screen_says_the_declarer_plays_the_dummy():
    result = run("analyse", hand_path("mid-play"))
    assert "dummy — Carol (the declarer) chooses the dummy's card" in result.stdout


def test_solve_screen_shows_nils():
    text = " ".join(run("solve", hand_path("nil-bets")).stdout.split())
    assert "Nil: Alice on dummy — kept" in text and "Nil: Carol on Bob — kept" in text
    assert "Bob's nil on Alice does not count" in text


def test_commands_are_registered():
    result = run("--help")
    assert "solve" in result.stdout and "analyse" in result.stdout
    for command, options in (("solve", ("--no-spade-breaking", "--json", "--tt-mb")),
                             ("analyse", ("--declarer", "--no-spade-breaking", "--json"))):
        help_text = run(command, "--help").stdout
        for option in options:
            assert option in help_text


def test_tt_mb_option_is_used():
    small = run("solve", hand_path("worked-example"), "--json", "--tt-mb", "4")
    assert small.exit_code == 0, small.output
    out = json.loads(small.stdout)
    out.pop("file")
    assert out == golden("worked-example", False)


# ------------------------------------------------------------------ bad input
def one_error(result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert lines and lines[0].startswith("error:")
    return " ".join(result.stderr.split())


def test_analysing_a_finished_hand_is_an_error():
    text = one_error(run("analyse", hand_path("bag-penalty")))
    assert "bag-penalty.yaml" in text and "the hand is over" in text


def test_analyse_without_declarer_is_an_error():
    text = one_error(run("analyse", hand_path("freak-distribution")))
    assert "no declarer" in text and "--declarer" in text


@pytest.mark.parametrize("stem, args, message", [
    ("worked-example", ["--declarer", "Zed"], "--declarer: unknown player 'Zed'"),
    ("mid-play", ["--declarer", "Bob"],
     "the played cards were played with Carol declaring, so they cannot be replayed with Bob"),
])
def test_bad_declarer_is_an_error(stem, args, message):
    text = one_error(run("analyse", hand_path(stem), *args))
    assert message in text


@pytest.mark.parametrize("command", ["solve", "analyse"])
def test_file_errors(command, tmp_path):
    text = one_error(run(command, tmp_path / "nope.yaml"))
    assert "nope.yaml" in text and "cannot read the file" in text
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [A, B, C]\ndealer: A\nhands:\n  A: AKQ\n", encoding="utf-8")
    text = one_error(run(command, bad))
    assert "bad.yaml" in text


@pytest.mark.parametrize("command", ["solve", "analyse"])
@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan", "1e13"])
def test_bad_tt_mb_is_a_usage_error(command, value):
    result = run(command, hand_path("worked-example"), "--tt-mb", value)
    assert result.exit_code == 2 and "--tt-mb" in result.stderr
    assert "Traceback" not in result.output


# ------------------------------------------------------------------ docs
def test_json_fields_are_documented():
    doc = (ROOT / "docs" / "SOLVE.md").read_text(encoding="utf-8")
    keys = (SOLVE_KEYS | CONTRACT_KEYS | POSITION_KEYS | PLAYER_KEYS | NIL_KEYS | ROW_KEYS
            | ANALYSE_KEYS | A_POSITION_KEYS | LINE_KEYS | TRICK_KEYS | {"on_table", "hand", "card",
                                                                       "best", "value"})
    missing = sorted(k for k in keys if f"`{k}`" not in doc)
    assert not missing, missing
