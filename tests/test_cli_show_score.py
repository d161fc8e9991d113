"""The CLI shell, ``show`` and ``score`` through Typer's CliRunner: output,
documented JSON fields, exit codes (0 ok, 1 bad input, 2 usage) and every
bad-input case of bad_deals.py (one line on stderr, no traceback, nothing written)."""
import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from bad_deals import CASES, GOOD
from dummy_spades.cli._commands import MODULES
from dummy_spades.cli.app import app
from dummy_spades.solver import __version__

HANDS = Path(__file__).resolve().parent.parent / "hands"
ALL_HANDS = sorted(HANDS.glob("*.yaml"))

SHOW_FIELDS = {"title", "notes", "players", "dealer", "bidding_order", "hands", "remaining", "pbn",
               "auction", "seating", "play", "rules", "variant", "scores"}
AUCTION_FIELDS = {"bids", "complete", "next_bidder", "declarer", "defenders", "nils"}
SEATING_FIELDS = {"declarer", "left_defender", "dummy", "right_defender", "play_order", "opening_leader"}
PLAY_FIELDS = {"tricks", "current_trick", "tricks_won", "declarer_tricks", "defender_tricks",
               "spades_broken", "complete", "to_move", "played_by", "legal"}
SCORE_FIELDS = {"declarer", "declarer_tricks", "defender_tricks", "tricks_from", "hand_tricks",
                "players", "ignored_nils", "ledger", "winner", "target", "variant"}
PLAYER_FIELDS = {"player", "role", "bid", "side_tricks", "made", "contract_points", "bags", "nils",
                 "nil_points", "points"}


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def hand(name):
    return HANDS / f"{name}.yaml"


class TestShell:
    def test_version(self):
        r = run("--version")
        assert r.exit_code == 0 and r.stdout.strip() == f"dummy-spades {__version__}"

    @pytest.mark.parametrize("args", [["-h"], ["--help"], ["show", "-h"], ["score", "--help"]])
    def test_help(self, args):
        r = run(*args)
        assert r.exit_code == 0 and "Usage" in r.stdout

    @pytest.mark.parametrize("command", [None, *MODULES])
    def test_flags_show_no_type(self, command):
        """Every flag's row in every help (``-h`` included) names the flag and
        its help, no type: a flag takes no value."""
        group = typer.main.get_command(app)
        cmd = group if command is None else group.commands[command]
        flags = [p for p in cmd.get_params(cmd.make_context("dummy-spades", [], resilient_parsing=True))
                 if getattr(p, "is_flag", False)]
        out = run(*([] if command is None else [command]), "-h").stdout
        assert "--help" in {o for p in flags for o in p.opts} and "<bool>" not in out
        lines = out.splitlines()
        for flag in flags:
            name = max(flag.opts, key=len)
            row = next(ln for ln in lines if re.search(rf"{name}\b(?!-)", ln))
            after = row.split(name, 1)[1].replace("│", " ").split()
            assert not any(w.startswith("<") or w in ("BOOLEAN", "bool") for w in after[:2]), row

    def test_commands_registered(self):
        out = run("-h").stdout
        assert "show" in out and "score" in out

    @pytest.mark.parametrize("args", [["show"], ["nosuchcommand"], ["show", hand("worked-example"), "--nope"],
                                      ["score", hand("worked-example"), "--declarer-tricks", "14"],
                                      ["score", hand("worked-example"), "--declarer-tricks", "x"]])
    def test_usage_errors_exit_2(self, args):
        assert run(*args).exit_code == 2


class TestShow:
    @pytest.mark.parametrize("path", ALL_HANDS, ids=lambda p: p.name)
    def test_every_bundled_deal(self, path):
        r = run("show", path)
        assert r.exit_code == 0, r.stderr
        assert "♠" in r.stdout and "dummy" in r.stdout

    def test_table_layout(self):
        out = run("show", hand("worked-example")).stdout
        lines = out.splitlines()
        row = {name: next(i for i, ln in enumerate(lines) if f" {name} " in ln and "─" in ln)
               for name in ("dummy", "Alice", "Bob", "Carol")}
        assert row["dummy"] < row["Alice"] == row["Bob"] < row["Carol"]  # dummy opposite declarer
        assert "declarer" in out and "dealer" in out and "Opening lead: Alice" in out

    def test_mid_play(self):
        out = run("show", hand("mid-play")).stdout
        assert "Turn: dummy (played by Carol) to play" in out
        assert "Tricks played" in out and "Spades broken" in out

    def test_partial_auction(self):
        out = run("show", hand("freak-distribution")).stdout
        assert "Carol to bid" in out and "face down" in out

    def test_nils_marked(self):
        out = run("show", hand("nil-bets")).stdout
        assert "dummy (counts)" in out and "Alice (ignored)" in out

    @pytest.mark.parametrize("path", ALL_HANDS, ids=lambda p: p.name)
    def test_json_fields(self, path):
        r = run("show", path, "--json")
        assert r.exit_code == 0
        data = json.loads(r.stdout)
        assert set(data) == SHOW_FIELDS
        if data["auction"] is not None:
            assert set(data["auction"]) == AUCTION_FIELDS
        if data["seating"] is not None:
            assert set(data["seating"]) == SEATING_FIELDS and set(data["play"]) == PLAY_FIELDS
        assert all(len(cards) == 13 for cards in data["hands"].values())

    def test_json_values(self):
        data = json.loads(run("show", hand("mid-play"), "--json").stdout)
        assert data["seating"]["play_order"] == ["Carol", "Alice", "dummy", "Bob"]
        play = data["play"]
        assert (play["to_move"], play["played_by"]) == ("dummy", "Carol")
        assert play["current_trick"]["cards"] == [{"hand": "Alice", "card": "C3"}]
        assert play["tricks"][2]["winner"] == "Carol" and play["spades_broken"]
        assert play["legal"] == ["C8", "C7", "C5"]
        assert data["pbn"].startswith("N:KJ74.J8.AKJ5.AQ6 ")


class TestScore:
    def test_worked_example(self):
        for flags, expected in ((["--declarer-tricks", "8"], [50, -60, 71]),
                                (["--defender-tricks", "5"], [50, -60, 71]),
                                (["--declarer-tricks", "6"], [52, 61, -70])):
            data = json.loads(run("score", hand("worked-example"), *flags, "--json").stdout)
            assert [p["points"] for p in data["players"]] == expected
            assert set(data) == SCORE_FIELDS and set(data["players"][0]) == PLAYER_FIELDS
            assert data["tricks_from"] == "command line" and data["ledger"] is None

    def test_text(self):
        r = run("score", hand("worked-example"), "--declarer-tricks", "8")
        assert r.exit_code == 0 and "+71" in r.stdout and "-60 set" in r.stdout

    def test_nil_tricks(self):
        r = run("score", hand("nil-bets"), "--declarer-tricks", "9", "--nil-tricks", "dummy=0",
                "--nil-tricks", "Bob=2", "--json")
        data = json.loads(r.stdout)
        alice, bob, carol = data["players"]
        assert alice["nils"] == [{"hand": "dummy", "tricks": 0, "success": True, "points": 100}]
        assert carol["nil_points"] == -100 and bob["nils"] == []
        assert data["ignored_nils"] == [{"bidder": "Bob", "hand": "Alice"}]

    def test_ledger_and_winner_from_the_play(self):
        data = json.loads(run("score", hand("bag-penalty"), "--json").stdout)
        assert data["tricks_from"] == "play" and data["winner"] == "Carol"
        after = {e["player"]: e["after"] for e in data["ledger"]}
        assert after == {"Alice": {"points": 402, "bags": 1}, "Bob": {"points": 402, "bags": 0},
                         "Carol": {"points": 506, "bags": 4}}
        assert run("score", hand("bag-penalty")).stdout.count("-100") == 2
        assert "Carol wins the game" in run("score", hand("bag-penalty")).stdout

    @pytest.mark.parametrize("args, words", [
        (["--declarer-tricks", "8", "--defender-tricks", "5"], "not both"),
        ([], "--declarer-tricks N"),
        (["--declarer-tricks", "8", "--nil-tricks", "dummy"], "HAND=N"),
        (["--declarer-tricks", "8", "--nil-tricks", "dummy=0", "--nil-tricks", "dummy=1"], "twice"),
        (["--declarer-tricks", "8", "--nil-tricks", "Zed=0"], "unknown hand 'Zed'"),
    ])
    def test_usage_errors(self, args, words):
        r = run("score", hand("worked-example"), *args)
        assert r.exit_code == 2 and words in r.stderr

    def test_totals_not_allowed_after_full_play(self):
        assert run("score", hand("bag-penalty"), "--declarer-tricks", "9").exit_code == 2

    def test_nil_tricks_needed(self):
        r = run("score", hand("nil-bets"), "--declarer-tricks", "9")
        assert r.exit_code == 2 and "dummy" in r.stderr

    def test_incomplete_auction_is_bad_input(self):
        r = run("score", hand("freak-distribution"), "--declarer-tricks", "9")
        assert r.exit_code == 1 and "freak-distribution.yaml" in r.stderr and "auction" in r.stderr


class TestBadInput:
    """Every bad input: exit 1, one line naming file, field, line and expected; nothing else."""

    @pytest.mark.parametrize("command", ["show", "score"])
    @pytest.mark.parametrize("name", sorted(CASES))
    def test_bad(self, tmp_path, command, name):
        case = CASES[name]
        path = tmp_path / "deal.yaml"
        path.write_text(case.text, encoding="utf-8")
        before = sorted(tmp_path.iterdir())
        r = run(command, path, "--declarer-tricks", "7") if command == "score" else run(command, path)
        assert r.exit_code == 1, (r.stdout, r.stderr)
        assert r.stdout == ""
        lines = r.stderr.splitlines()
        assert len(lines) == 1, r.stderr
        where = f"{path}:{case.line}: " + (f"{case.field}: " if case.field else "")
        assert lines[0].startswith(f"error: {where}")
        assert case.words in lines[0] and "expected" in lines[0]
        assert "Traceback" not in r.stderr
        assert sorted(tmp_path.iterdir()) == before

    def test_missing_file(self, tmp_path):
        r = run("show", tmp_path / "nope.yaml")
        assert r.exit_code == 1 and "cannot read" in r.stderr and "Traceback" not in r.stderr

    def test_good_base(self, tmp_path):
        path = tmp_path / "deal.yaml"
        path.write_text(GOOD, encoding="utf-8")
        assert run("show", path).exit_code == 0
