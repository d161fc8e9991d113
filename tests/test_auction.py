"""docs/RULES.md "Auction (one round)" and "Nil designations": one test class per rule."""
import pytest

from dummy_spades.solver.auction import Auction, Bid, nil_counts
from dummy_spades.solver.errors import AuctionError, DealError
from dummy_spades.solver.scoring import NilBet

PLAYERS = ("Alice", "Bob", "Carol")


def auction(*calls, dealer="Carol"):
    return Auction.from_calls(PLAYERS, dealer, calls)


class TestBiddingOrder:
    """The first real player to the dealer's left bids first; the dealer bids last."""

    @pytest.mark.parametrize("dealer, order", [
        ("Carol", ("Alice", "Bob", "Carol")),
        ("Alice", ("Bob", "Carol", "Alice")),
        ("Bob", ("Carol", "Alice", "Bob")),
    ])
    def test_order(self, dealer, order):
        a = Auction(PLAYERS, dealer)
        assert a.bidding_order == order
        assert a.first_bidder == order[0]
        assert a.next_bidder == order[0]

    def test_out_of_turn_bid_is_rejected(self):
        with pytest.raises(AuctionError) as e:
            Auction(PLAYERS, "Carol", (Bid("Bob", 4),))
        assert e.value.field == "auction[0].player"
        assert "Alice" in e.value.expected

    def test_dummy_never_bids(self):
        with pytest.raises(AuctionError):
            Auction(PLAYERS, "Carol", (Bid("dummy", 4),))

    def test_one_round_only(self):
        a = auction("1", "2", "3")
        with pytest.raises(AuctionError):
            a.with_bid(Bid("Alice", 4))

    def test_partial_auction(self):
        a = auction("5")
        assert not a.is_complete
        assert a.next_bidder == "Bob"
        assert a.declarer is None
        assert a.defenders == ()
        with pytest.raises(AuctionError):
            a.applicable_nils()
        a = a.with_bid(Bid("Bob", 6)).with_bid(Bid("Carol", 7))
        assert a.is_complete and a.next_bidder is None and a.declarer == "Carol"


class TestBidRange:
    """A bid is 0-13 tricks for the bidder's side."""

    @pytest.mark.parametrize("tricks", [0, 6, 13])
    def test_allowed(self, tricks):
        assert Bid("Alice", tricks).tricks == tricks

    @pytest.mark.parametrize("tricks", [-1, 14, 2.5, True, "5"])
    def test_rejected(self, tricks):
        with pytest.raises(AuctionError) as e:
            Bid("Alice", tricks)
        assert e.value.field == "bid"
        assert "0 to 13" in e.value.expected


class TestDeclarer:
    """The highest bid makes its bidder declarer; a tie goes to the earliest bidder."""

    def test_highest_bid(self):
        a = auction("5", "6", "7")
        assert a.declarer == "Carol"
        assert a.defenders == ("Alice", "Bob")

    def test_tie_goes_to_earliest_bidder(self):
        assert auction("6", "6", "5").declarer == "Alice"
        assert auction("4", "6", "6").declarer == "Bob"
        assert auction("3", "3", "3").declarer == "Alice"
        assert auction("6", "6", "6", dealer="Alice").declarer == "Bob"

    def test_auction_winner_of_the_bids_so_far(self):
        from dummy_spades.solver.auction import auction_winner

        assert auction_winner([]) is None
        assert auction_winner([("Alice", 0)]) == "Alice"
        assert auction_winner([("Alice", 5), ("Bob", 6)]) == "Bob"
        assert auction_winner([("Alice", 6), ("Bob", 6)]) == "Alice"
        assert auction_winner([("Alice", 4), ("Bob", 7), ("Carol", 7)]) == "Bob"

    def test_defenders_clockwise_from_declarer(self):
        assert auction("7", "5", "6").defenders == ("Bob", "Carol")
        assert auction("5", "7", "6").defenders == ("Carol", "Alice")


class TestNilDesignations:
    """Nil on own hand always counts; on the dummy only for the declarer;
    on another real player's hand only if both end up defenders."""

    def test_own_hand_always_counts(self):
        for declarer in PLAYERS:
            assert nil_counts("Alice", "Alice", declarer)

    def test_dummy_counts_only_for_declarer(self):
        assert nil_counts("Alice", "dummy", "Alice")
        assert not nil_counts("Alice", "dummy", "Bob")

    def test_other_player_counts_only_if_both_defend(self):
        assert nil_counts("Alice", "Bob", "Carol")
        assert not nil_counts("Alice", "Bob", "Alice")
        assert not nil_counts("Alice", "Bob", "Bob")

    def test_applicable_nils_of_an_auction(self):
        a = auction("6 nil dummy", "3 nil Alice", "4 nil Bob")
        assert a.declarer == "Alice"
        assert a.applicable_nils() == [NilBet("Alice", "dummy"), NilBet("Carol", "Bob")]
        assert a.ignored_nils() == [NilBet("Bob", "Alice")]

    def test_up_to_three_hands(self):
        a = auction("7 nil dummy Bob Carol", "2", "3")
        assert a.bids[0].nils == ("dummy", "Bob", "Carol")
        assert a.applicable_nils() == [NilBet("Alice", "dummy")]

    def test_two_defenders_bet_on_the_same_hand(self):
        a = auction("2 nil self", "3 nil Alice", "7")
        assert a.applicable_nils() == [NilBet("Alice", "Alice"), NilBet("Bob", "Alice")]

    def test_what_if_declarer(self):
        a = auction("6 nil dummy", "3 nil Alice", "4 nil Bob")
        assert a.applicable_nils("Carol") == [NilBet("Bob", "Alice")]
        assert a.applicable_nils("Bob") == []

    def test_nil_on_unknown_hand(self):
        with pytest.raises(AuctionError) as e:
            auction("5 nil Zed", "3", "4")
        assert e.value.field == "auction[0].nil"

    def test_nil_named_twice(self):
        with pytest.raises(AuctionError):
            Bid("Alice", 3, ("dummy", "dummy"))

    @pytest.mark.parametrize("alias", ["self", "own", "SELF"])
    def test_self_alias(self, alias):
        assert Bid("Alice", 0, (alias,)).nils == ("Alice",)


class TestBidText:
    @pytest.mark.parametrize("text", ["7", "5 nil Bob", "0 nil self dummy"])
    def test_round_trip(self, text):
        assert Bid.parse("Alice", text).call() == text

    @pytest.mark.parametrize("text", ["", "nil", "x5", "5 dummy"])
    def test_unreadable(self, text):
        with pytest.raises(AuctionError):
            Bid.parse("Alice", text)

    def test_repr_is_eval_able(self):
        a = auction("6 nil dummy", "3", "4")
        assert eval(repr(a)) == a

    def test_errors_are_value_errors(self):
        assert issubclass(AuctionError, DealError) and issubclass(AuctionError, ValueError)
