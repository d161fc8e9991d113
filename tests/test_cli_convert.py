"""`dummy-spades convert`: PBN import/export on the command line."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.dealfile import load_deal, loads_deal

HANDS = sorted(Path(__file__).resolve().parent.parent.joinpath("hands").glob("*.yaml"))
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.stem)
def test_pbn_round_trip(path: Path) -> None:
    deal = load_deal(path)
    out = run("convert", str(path))
    assert out.exit_code == 0, out.output
    pbn = out.stdout.strip()
    assert pbn == deal.to_pbn()
    back = run("convert", "--pbn", pbn, "--players", ",".join(deal.players), "--dealer", deal.dealer,
               *(["--declarer", deal.declarer] if deal.declarer else []))
    assert back.exit_code == 0, back.output
    again = loads_deal(back.stdout, "<stdout>")
    assert dict(again.hands) == dict(deal.hands)
    assert again.players == deal.players and again.dealer == deal.dealer


@pytest.mark.parametrize("path", HANDS, ids=lambda p: p.stem)
def test_yaml_normal_form_loads_to_the_same_deal(path: Path) -> None:
    out = run("convert", str(path), "--to", "yaml")
    assert out.exit_code == 0, out.output
    assert loads_deal(out.stdout, "<stdout>") == load_deal(path)


def test_declarer_seats_north_and_batch_reads_it(tmp_path: Path) -> None:
    path = HANDS[0]
    deal = load_deal(path)
    for player in deal.players:
        out = run("convert", str(path), "--declarer", player)
        assert out.exit_code == 0, out.output
        seats = out.stdout.strip()[2:].split()
        assert parse_hand(seats[0]) == deal.hands[player]
        assert parse_hand(seats[2]) == deal.hands["dummy"]


def test_json_has_both_forms() -> None:
    out = run("convert", str(HANDS[0]), "--json")
    data = json.loads(out.stdout)
    assert set(data) == {"pbn", "yaml"} and data["pbn"].startswith("N:")


@pytest.mark.parametrize("args, code, text", [
    ((), 2, "either a deal FILE or --pbn"),
    (("--pbn", "N:AK"), 2, "--players"),
    (("--pbn", "N:AK", "--players", "A,B,C", "--dealer", "A"), 1, "four hands"),
    (("--pbn", "N:...", "--players", "A,B", "--dealer", "A"), 1, "three players"),
    (("nope.yaml",), 1, "nope.yaml"),
])
def test_bad_input(args, code, text) -> None:
    out = run("convert", *args)
    assert out.exit_code == code
    assert text in out.output
    assert "Traceback" not in out.output


def test_unknown_declarer() -> None:
    out = run("convert", str(HANDS[0]), "--declarer", "Zed")
    assert out.exit_code == 1 and "Zed" in out.output


def test_pbn_in_pbn_out_when_asked() -> None:
    """--to pbn is honoured with --pbn (the default there is a YAML deal file)."""
    pbn = run("convert", str(HANDS[0])).stdout.strip()
    deal = load_deal(HANDS[0])
    args = ("--pbn", pbn, "--players", ",".join(deal.players), "--dealer", deal.dealer,
            "--declarer", deal.declarer or deal.players[0])
    assert run("convert", *args, "--to", "pbn").stdout.strip() == pbn
    assert run("convert", *args).stdout.startswith("players:")
