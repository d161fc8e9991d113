"""PBN deal strings (solver.pbn): the one reader and writer, used by deal
files (Deal.from_pbn / to_pbn, convert) and by batch deal lines."""
from __future__ import annotations

import pytest

from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.pbn import format_pbn_deal, parse_pbn_deal

HANDS = (parse_hand("AKQ.J.T.9"), parse_hand("J.AKQ.9.T"), parse_hand("T.9.AKQ.J"), parse_hand("9.T.J.AKQ"))
PBN = "N:AKQ.J.T.9 J.AKQ.9.T T.9.AKQ.J 9.T.J.AKQ"


def test_round_trip_and_any_first_direction():
    assert format_pbn_deal(HANDS) == PBN
    assert parse_pbn_deal(PBN) == HANDS
    assert parse_pbn_deal("W:9.T.J.AKQ AKQ.J.T.9 J.AKQ.9.T T.9.AKQ.J") == HANDS
    assert parse_pbn_deal(' "e : J.AKQ.9.T T.9.AKQ.J 9.T.J.AKQ AKQ.J.T.9" ') == HANDS


@pytest.mark.parametrize("text, message", [
    ("AKQ.J.T.9 J.AKQ.9.T T.9.AKQ.J 9.T.J.AKQ", "is not a deal; expected 'N:<declarer>"),
    ("X:AKQ.J.T.9", "first seat letter N, E, S or W"),
    ("N:AKQ.J.T.9 J.AKQ.9.T", "found 2 hands; expected four hands separated by spaces"),
    ("N:AKQ.J.T.9 J.AKQ.9.T T.9.AKQ.J 9.T.J.AKX", r"hand 4 \(W, right defender\): .*unknown rank 'X'"),
])
def test_errors_say_what_was_expected(text, message):
    with pytest.raises(DealError, match=message) as info:
        parse_pbn_deal(text)
    assert info.value.field is None  # the caller places it (batch line, convert --pbn)
