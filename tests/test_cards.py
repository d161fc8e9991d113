"""solver/cards.py: card ints, suits, ranks, hands as masks; parse/format pairs."""
import pytest

from dummy_spades.solver.cards import (FULL_DECK, SPADES, CardError, card_index, cards_mask, count,
                          format_card, format_hand, format_holding, iter_cards, parse_card,
                          parse_hand, parse_rank, parse_suit, parse_suit_holding, rank_of,
                          suit_ranks, suit_of)
from dummy_spades.solver.errors import DealError


class TestEncoding:
    def test_card_ints(self):
        assert card_index(SPADES, 2) == 0 and card_index(3, 14) == 51
        for c in range(52):
            assert card_index(suit_of(c), rank_of(c)) == c

    def test_masks(self):
        assert cards_mask(range(52)) == FULL_DECK
        assert list(iter_cards(cards_mask([5, 1, 40]))) == [1, 5, 40]
        assert count(FULL_DECK) == 52


class TestParsing:
    @pytest.mark.parametrize("text", ["SA", "sa", "AS", "♠A", "A♠", "♤a"])
    def test_ace_of_spades(self, text):
        assert parse_card(text) == card_index(SPADES, 14)

    @pytest.mark.parametrize("text", ["H10", "h10", "10h", "HT", "th", "♥10", "10♥", "♡T"])
    def test_ten_of_hearts(self, text):
        assert parse_card(text) == card_index(1, 10)

    @pytest.mark.parametrize("text", ["", "S", "S1", "X5", "SAA", "11H", "♠"])
    def test_unknown_cards(self, text):
        with pytest.raises(CardError) as e:
            parse_card(text)
        assert e.value.expected

    @pytest.mark.parametrize("text, suit", [("S", 0), ("h", 1), ("♦", 2), ("clubs", 3), ("Spade", 0)])
    def test_suits(self, text, suit):
        assert parse_suit(text) == suit

    def test_ranks(self):
        assert parse_rank("10") == parse_rank("t") == 10
        with pytest.raises(CardError):
            parse_rank("1")

    def test_holdings(self):
        assert parse_suit_holding("A K 10 7 3", 0) == parse_suit_holding("akt73", 0)
        assert parse_suit_holding("-", 2) == parse_suit_holding("", 2) == 0
        with pytest.raises(CardError):
            parse_suit_holding("AA", 0)
        with pytest.raises(CardError):
            parse_suit_holding("AX", 0)

    def test_hands_pbn(self):
        h = parse_hand("AKT73.QJ2.984.A5")
        assert count(h) == 13 and format_hand(h) == "AKT73.QJ2.984.A5"
        assert suit_ranks(h, 0) == [14, 13, 10, 7, 3]
        assert format_holding(h, 0) == "AKT73" and format_holding(h, 2) == "984"
        assert format_hand(parse_hand("AKQ..JT9.")) == "AKQ..JT9."
        with pytest.raises(CardError):
            parse_hand("AKQ.JT9")

    def test_card_errors_are_deal_errors(self):
        assert issubclass(CardError, DealError) and issubclass(CardError, ValueError)


class TestFormatting:
    def test_round_trip(self):
        for c in range(52):
            assert parse_card(format_card(c)) == c
            assert parse_card(format_card(c, symbols=True)) == c
        assert format_card(card_index(1, 10)) == "HT" and format_card(51, symbols=True) == "♣A"
