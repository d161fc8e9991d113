"""Golden tests over every deal in hands/: hand-checked facts per file, and a
snapshot of ``show --json`` in tests/golden/<name>.json (refresh after a
deliberate change with ``UPDATE_GOLDEN=1 python -m pytest tests/test_hands_golden.py``)."""
import json
import os
from pathlib import Path

import pytest

from dummy_spades.cli.show import show_json
from dummy_spades.solver.cards import format_hand, parse_hand
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.scoring import NilBet, Standing
from dummy_spades.solver.seating import DECLARER_SIDE

from solver_checks import REF

ROOT = Path(__file__).resolve().parent.parent
HANDS = sorted((ROOT / "hands").glob("*.yaml"))
GOLDEN = Path(__file__).resolve().parent / "golden"


def names(path):
    return path.stem


def scores(result):
    return [(s.player, s.points, s.bags) for s in result.scores]


def check_worked_example(d):
    assert d.declarer == "Carol" and d.auction.defenders == ("Alice", "Bob")
    assert scores(d.score(8)) == [("Alice", 50, 0), ("Bob", -60, 0), ("Carol", 71, 1)]
    assert scores(d.score(6)) == [("Alice", 52, 2), ("Bob", 61, 1), ("Carol", -70, 0)]


def check_nil_bets(d):
    assert d.declarer == "Alice"
    assert d.auction.applicable_nils() == [NilBet("Alice", "dummy"), NilBet("Carol", "Bob")]
    assert d.auction.ignored_nils() == [NilBet("Bob", "Alice")]


def check_spade_breaking(d):
    s = d.board()
    assert s.names[s.to_move] == "dummy" and not s.spades_broken
    assert s.legal_moves() == [parse_hand(".2..").bit_length() - 1]  # only the heart two
    pos = s.position
    assert REF.max_tricks(pos, DECLARER_SIDE) == 2
    assert REF.max_tricks(pos._replace(breaking=False), DECLARER_SIDE) == 3


def check_mid_play(d):
    s = d.board()
    assert (s.names[s.to_move], s.names[s.chooser]) == ("dummy", "Carol")
    assert dict(zip(s.names, s.tricks_won)) == {"Carol": 3, "Alice": 3, "dummy": 0, "Bob": 0}
    assert s.spades_broken and len(s.trick) == 1


def check_auction_tie(d):
    assert [b.tricks for b in d.auction.bids] == [2, 6, 6]
    assert d.declarer == "Fay" and d.auction.defenders == ("Dana", "Eli")


def check_freak_distribution(d):
    assert d.declarer is None and d.auction.next_bidder == "Carol"
    assert d.hands["Bob"] == parse_hand("KQJ9876.AJ8543..")


def check_three_peeky(d):
    v = d.variant
    assert v.name == "three-peeky" and v.face_up == 0
    assert v.seen_by("Alice") & v.seen_by("Bob") == parse_hand("K...")
    assert d.declarer == "Bob"


def check_flip_2(d):
    v = d.variant
    assert bin(v.face_up).count("1") == 6 and v.known_to("Alice") == v.face_up
    assert d.declarer == "Bob" and d.auction.applicable_nils() == [NilBet("Carol", "Alice")]


def check_bag_penalty(d):
    r = d.score()
    assert (r.declarer_tricks, r.defender_tricks) == (9, 4)
    assert [e.after for e in r.ledger] == [Standing(402, 1), Standing(402, 0), Standing(506, 4)]
    assert [e.bag_penalties for e in r.ledger] == [1, 1, 0]
    assert r.winner == "Carol"


def check_no_spade_breaking(d):
    assert not d.rules.breaking and d.rules.scoring.target == 300
    s = d.board()
    assert s.names[s.to_move] == "dummy" and s.chooser == 0  # the dummy won and leads
    assert d.opening_board().legal_moves()[0] < 13  # a spade may be led at trick 1


def check_nil_candidate(d):
    from dummy_spades.solver.bid import Knowledge
    from dummy_spades.solver.simulation.model import certain_trick

    k = Knowledge.from_deal(d)
    assert k.player == "Bob" and [b.tricks for b in k.bids] == [6]
    assert k.declarers == ("Alice", "Bob", "Carol")
    assert not certain_trick(k.hand)
    assert max(c % 13 for c in range(52) if k.hand >> c & 1) == 9  # the jack is Bob's top card


def check_mirror(d):
    from dummy_spades.solver.auction import MIRROR, spade_count

    assert d.variant.bidding == MIRROR and d.variant.name == "no-peeky"
    assert [(b.player, b.tricks) for b in d.auction.bids] == [
        (p, spade_count(d.hands[p])) for p in ("Alice", "Bob", "Carol")] == [
        ("Alice", 0), ("Bob", 4), ("Carol", 5)]
    assert d.declarer == "Carol" and spade_count(d.dummy) == 4
    assert d.auction.applicable_nils() == [NilBet("Alice", "Alice")]


def check_suicide(d):
    from dummy_spades.solver.auction import SUICIDE

    assert d.variant.bidding == SUICIDE and d.declarer == "Carol"
    assert d.auction.defenders == ("Alice", "Bob")
    assert d.auction.applicable_nils() == [NilBet("Bob", "Bob"), NilBet("Carol", "dummy")]
    assert d.auction.ignored_nils() == [NilBet("Alice", "dummy")]


def check_nil_break(d):
    s = d.board()
    assert d.declarer == "Carol" and d.auction.applicable_nils() == [NilBet("Alice", "Alice")]
    assert dict(zip(s.names, s.tricks_won)) == {"Carol": 2, "Alice": 0, "dummy": 3, "Bob": 4}
    assert s.names[s.to_move] == "Bob" and s.tricks_left == 4 and s.spades_broken
    pos = s.position
    # Alice holds only the diamond ace and queen; nobody can trump a diamond
    assert format_hand(s.hands[1]) == ".Q.AQ.8"
    assert REF.max_tricks(pos, 0b1010) == 3              # defenders: 7 in all
    assert REF.max_tricks(pos, 0b1010, nil_seat=1) == 3  # keeping Alice's nil
    assert REF.max_tricks(pos, 0b0111, nil_seat=1) == -1  # Bob alone breaks it


def check_earlier_bid(d, opening):
    from dummy_spades.solver.bid import Knowledge

    assert [(b.player, b.tricks, b.nils) for b in d.auction.bids] == [
        ("Alice", opening, ()), ("Bob", 3, ())]
    k = Knowledge.from_deal(d)
    assert k.player == "Carol" and k.declarers == ("Alice", "Carol")  # Alice holds the auction


CHECKS = {
    "worked-example": check_worked_example,
    "duck-worked-example": check_worked_example,  # the same hands (its DD facts: tests/test_duck.py)
    "nil-bets": check_nil_bets,
    "spade-breaking": check_spade_breaking,
    "mid-play": check_mid_play,
    "auction-tie": check_auction_tie,
    "freak-distribution": check_freak_distribution,
    "three-peeky": check_three_peeky,
    "flip-2": check_flip_2,
    "bag-penalty": check_bag_penalty,
    "no-spade-breaking": check_no_spade_breaking,
    "nil-candidate": check_nil_candidate,
    "mirror": check_mirror,
    "suicide": check_suicide,
    "nil-break": check_nil_break,
    "earlier-bid-low": lambda d: check_earlier_bid(d, 4),
    "earlier-bid-high": lambda d: check_earlier_bid(d, 9),
}


def test_every_file_is_checked():
    assert sorted(p.stem for p in HANDS) == sorted(CHECKS)
    assert len(HANDS) >= 8


@pytest.mark.parametrize("path", HANDS, ids=names)
def test_facts(path):
    CHECKS[path.stem](load_deal(path))


@pytest.mark.parametrize("path", HANDS, ids=names)
def test_show_json_snapshot(path):
    data = show_json(load_deal(path))
    snap = GOLDEN / f"{path.stem}.json"
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        snap.write_text(text, encoding="utf-8")
    assert snap.exists(), f"no snapshot {snap.name}: run with UPDATE_GOLDEN=1 and review it"
    assert json.loads(snap.read_text(encoding="utf-8")) == data
