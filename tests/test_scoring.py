"""docs/RULES.md "Scoring each hand" - one class per rule: sides, contract points,
bags, nil bets, the bag penalty, the game target and winner; and the worked
example exactly."""
import pytest

from model_helpers import worked_deal
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.scoring import (Ledger, NilBet, ScoringError, ScoringRules, Standing, apply_bags,
                            contract_score, score_hand, winner)

BIDS = {"Alice": 5, "Bob": 6, "Carol": 7}  # Carol declares 7; the defenders bid 5 and 6


def points(scores):
    return {p: (s.points, s.bags) for p, s in scores.items()}


class TestWorkedExample:
    """The rules' own worked example, exactly."""

    def test_defenders_take_five(self):
        assert points(score_hand(BIDS, "Carol", 8)) == {"Alice": (50, 0), "Bob": (-60, 0), "Carol": (71, 1)}

    def test_defenders_take_seven(self):
        assert points(score_hand(BIDS, "Carol", 6)) == {"Alice": (52, 2), "Bob": (61, 1), "Carol": (-70, 0)}

    def test_through_the_deal(self):
        d = worked_deal("5", "6", "7")
        r = d.score(8)
        assert [(s.player, s.points, s.bags) for s in r.scores] == [
            ("Alice", 50, 0), ("Bob", -60, 0), ("Carol", 71, 1)]
        assert [(s.player, s.points, s.bags) for s in d.score(6).scores] == [
            ("Alice", 52, 2), ("Bob", 61, 1), ("Carol", -70, 0)]


class TestSides:
    """Declarer on declarer + dummy tricks; each defender on the defenders' combined tricks."""

    def test_side_tricks(self):
        s = score_hand(BIDS, "Carol", 9)
        assert s["Carol"].side_tricks == 9 and s["Carol"].role == "declarer"
        assert s["Alice"].side_tricks == s["Bob"].side_tricks == 4
        assert s["Alice"].role == s["Bob"].role == "defender"


class TestContract:
    """Made: +10 x bid + 1 per overtrick; set: -10 x bid."""

    @pytest.mark.parametrize("bid, tricks, expected", [
        (7, 7, (70, 0)), (7, 9, (72, 2)), (7, 6, (-70, 0)), (0, 0, (0, 0)), (0, 3, (3, 3)),
        (13, 13, (130, 0)), (13, 12, (-130, 0)),
    ])
    def test_contract_score(self, bid, tricks, expected):
        assert contract_score(bid, tricks) == expected

    @pytest.mark.parametrize("bid, tricks", [(-1, 5), (14, 5), (5, 14), (5, -1)])
    def test_out_of_range(self, bid, tricks):
        with pytest.raises(ScoringError):
            contract_score(bid, tricks)


class TestNilBets:
    """Each applicable nil: +100 to its bidder if the hand takes no trick, else -100;
    nobody else is affected; the nil hand's tricks still count for its side."""

    def test_success_and_failure(self):
        bets = [NilBet("Carol", "dummy"), NilBet("Alice", "Bob"), NilBet("Bob", "Bob")]
        s = score_hand(BIDS, "Carol", 7, bets, {"dummy": 0, "Bob": 2})
        assert (s["Carol"].contract_points, s["Carol"].nil_points, s["Carol"].points) == (70, 100, 170)
        assert (s["Alice"].contract_points, s["Alice"].nil_points, s["Alice"].points) == (51, -100, -49)
        assert (s["Bob"].contract_points, s["Bob"].nil_points, s["Bob"].points) == (60, -100, -40)

    def test_nil_hand_tricks_count_for_its_side(self):
        s = score_hand(BIDS, "Carol", 7, [NilBet("Carol", "dummy")], {"dummy": 3})
        assert s["Carol"].made and s["Carol"].contract_points == 70
        assert s["Carol"].nil_points == -100

    def test_unknown_nil_tricks(self):
        with pytest.raises(ScoringError):
            score_hand(BIDS, "Carol", 7, [NilBet("Carol", "dummy")], {})

    def test_deal_applies_only_counting_nils(self):
        d = worked_deal("5 nil Bob", "6 nil Alice dummy", "7 nil dummy")
        r = d.score(8, {"Bob": 0, "Alice": 5, "dummy": 0})
        got = {s.player: [(n.hand, n.points) for n in s.nils] for s in r.scores}
        assert got == {"Alice": [("Bob", 100)], "Bob": [("Alice", -100)], "Carol": [("dummy", 100)]}
        assert [(n.bidder, n.hand) for n in r.ignored_nils] == [("Bob", "dummy")]


class TestBags:
    """Bags accumulate per player; every 10 cost 100 and drop by 10; configurable."""

    def test_penalty_and_carry_over(self):
        assert apply_bags(Standing(300, 8), 52, 2) == (Standing(252, 0), 1)
        assert apply_bags(Standing(300, 9), 53, 3) == (Standing(253, 2), 1)
        assert apply_bags(Standing(300, 9), 0, 11) == (Standing(100, 0), 2)

    def test_configurable(self):
        rules = ScoringRules(bag_threshold=5, bag_penalty=50)
        assert apply_bags(Standing(0, 4), 11, 1, rules) == (Standing(-39, 0), 1)
        with pytest.raises(ScoringError):
            ScoringRules(bag_threshold=0)


class TestGame:
    """First to the target wins (500 default, 300 allowed); several: highest score."""

    def test_target(self):
        assert winner({"A": Standing(499), "B": Standing(100)}) is None
        assert winner({"A": Standing(500), "B": Standing(100)}) == "A"
        assert winner({"A": Standing(320)}, ScoringRules(target=300)) == "A"

    def test_several_reach_it(self):
        assert winner({"A": Standing(510), "B": Standing(530), "C": Standing(0)}) == "B"

    def test_exact_tie_plays_on(self):
        assert winner({"A": Standing(510), "B": Standing(510)}) is None

    def test_ledger(self):
        book = Ledger(("Alice", "Bob", "Carol"), standings={"Alice": Standing(480, 9)})
        entries = book.record(score_hand(BIDS, "Carol", 6))
        assert entries[0].after == Standing(432, 1) and entries[0].bag_penalties == 1
        assert book.standings["Bob"] == Standing(61, 1)
        assert book.winner() is None and len(book.history) == 1

    def test_deal_with_running_scores(self):
        d = worked_deal("5", "6", "7", scores={"Alice": Standing(450, 0), "Bob": Standing(0),
                                                "Carol": Standing(480, 9)})
        r = d.score(8)
        assert [e.after for e in r.ledger] == [Standing(500, 0), Standing(-60, 0), Standing(451, 0)]
        assert r.winner == "Alice"

    def test_points_after_the_hand(self):
        """What players are ranked by: the running totals, else the hand's points."""
        assert worked_deal("5", "6", "7").score(8).points_after == {"Alice": 50, "Bob": -60, "Carol": 71}
        d = worked_deal("5", "6", "7", scores={"Alice": Standing(450, 0), "Bob": Standing(0),
                                                "Carol": Standing(480, 9)})
        assert d.score(8).points_after == {"Alice": 500, "Bob": -60, "Carol": 451}


class TestTrickTotals:
    """Trick totals given for an unplayed hand must be possible."""

    def test_needs_totals_without_play(self):
        with pytest.raises(DealError) as e:
            worked_deal("5", "6", "7").score()
        assert e.value.field == "played"

    def test_must_fit_the_play_so_far(self):
        d = worked_deal("5", "6", "7", played=("HA", "H3", "H2", "H8"))  # Alice wins trick 1
        with pytest.raises(DealError) as e:
            d.score(13)
        assert e.value.field == "declarer_tricks"
        assert d.score(12).declarer_tricks == 12

    def test_nil_hand_tricks_fit_their_side(self):
        d = worked_deal("5", "6", "7 nil dummy")
        with pytest.raises(DealError) as e:
            d.score(5, {"dummy": 6})
        assert e.value.field == "hand_tricks.dummy"
        with pytest.raises(DealError) as e:
            d.score(5)
        assert e.value.field == "hand_tricks"

    def test_needs_complete_auction(self):
        with pytest.raises(DealError) as e:
            worked_deal("5", "6").score(7)
        assert e.value.field == "auction"
