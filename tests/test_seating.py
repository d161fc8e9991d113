"""docs/RULES.md "Table and deal" and "Seating for the play": three real players
and the dummy, the dealer passing clockwise, the play seating, the opening
leader and the declarer playing the dummy's cards."""
import pytest

from model_helpers import PLAYERS, WORKED_HANDS, worked_deal
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.seating import (DECLARER_SIDE, DEFENDER_SIDE, Seating, bidding_order, check_table,
                            controller, next_dealer, play_seating, side_of)


class TestTable:
    """Three real players plus the dummy; 13 cards each from one 52-card deck."""

    def test_three_real_players(self):
        assert check_table(PLAYERS, "Alice") == PLAYERS
        for bad in (("Alice", "Bob"), ("Alice", "Bob", "Carol", "Dan"), ("Alice", "Bob", "Alice"),
                    ("Alice", "Bob", "dummy"), ("Alice", "Bob", "")):
            with pytest.raises(DealError):
                check_table(bad, "Alice")

    def test_dealer_is_a_real_player(self):
        with pytest.raises(DealError) as e:
            check_table(PLAYERS, "dummy")
        assert e.value.field == "dealer"

    def test_four_hands_of_thirteen(self):
        d = worked_deal()
        assert list(d.hands) == ["Alice", "Bob", "Carol", "dummy"]
        assert all(bin(m).count("1") == 13 for m in d.hands.values())
        assert sum(d.hands.values()) == (1 << 52) - 1

    def test_deal_passes_clockwise_skipping_the_dummy(self):
        assert [next_dealer(PLAYERS, d) for d in PLAYERS] == ["Bob", "Carol", "Alice"]

    def test_the_dummy_never_bids(self):
        for dealer in PLAYERS:
            assert "dummy" not in bidding_order(PLAYERS, dealer)


class TestSeating:
    """Play order: declarer, next real player clockwise, dummy, remaining real player."""

    @pytest.mark.parametrize("declarer, seats", [
        ("Alice", ("Alice", "Bob", "dummy", "Carol")),
        ("Bob", ("Bob", "Carol", "dummy", "Alice")),
        ("Carol", ("Carol", "Alice", "dummy", "Bob")),
    ])
    def test_play_seating(self, declarer, seats):
        assert play_seating(PLAYERS, declarer) == seats

    @pytest.mark.parametrize("dealer, declarer", [(d, x) for d in PLAYERS for x in PLAYERS])
    def test_first_bidder_leads_whatever_their_role(self, dealer, declarer):
        s = Seating.for_deal(PLAYERS, dealer, declarer)
        assert s.opening_leader == bidding_order(PLAYERS, dealer)[0]
        assert s.names[2] == "dummy"
        assert s.declarer == declarer

    def test_declarer_plays_the_dummy(self):
        assert [controller(s) for s in range(4)] == [0, 1, 0, 3]
        assert DECLARER_SIDE == 0b0101 and DEFENDER_SIDE == 0b1010



    def test_sides(self):
        assert [side_of(s) for s in range(4)] == [DECLARER_SIDE, DEFENDER_SIDE, DECLARER_SIDE, DEFENDER_SIDE]
        s = Seating.for_deal(PLAYERS, "Carol", "Bob")
        assert s.defenders == ("Carol", "Alice")
        assert [s.role(n) for n in s.names] == ["declarer", "left defender", "dummy", "right defender"]
        assert s.side("dummy") == DECLARER_SIDE and s.side("Alice") == DEFENDER_SIDE
        with pytest.raises(DealError):
            s.seat_of("Zed")

    def test_unknown_declarer(self):
        with pytest.raises(DealError):
            play_seating(PLAYERS, "dummy")
        with pytest.raises(DealError):
            Deal(PLAYERS, "Carol", WORKED_HANDS).seating()  # no auction, no declarer
