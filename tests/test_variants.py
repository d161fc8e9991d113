"""docs/RULES.md "Auction variants": No Peeky, Three Peeky, Four Peeky, Flip N -
names, how many dummy cards each player sees, private looks vs face-up cards."""
import pytest

from model_helpers import WORKED_HANDS, worked_deal
from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.deal import Variant, parse_variant_name
from dummy_spades.solver.errors import DealError

DUMMY = parse_hand(WORKED_HANDS["dummy"])  # Q532.763.T93.875


def cards(text):
    return parse_hand(text)


class TestNames:
    @pytest.mark.parametrize("text, name", [
        ("no-peeky", "no-peeky"), ("No Peeky", "no-peeky"), ("nopeeky", "no-peeky"),
        ("three-peeky", "three-peeky"), ("3 peeky", "three-peeky"), ("Three_Peeky", "three-peeky"),
        ("four peeky", "four-peeky"), ("flip-2", "flip-2"), ("Flip 2", "flip-2"), ("flip2", "flip-2"),
        ("flip two", "flip-2"), ("FLIP-4", "flip-4"),
    ])
    def test_aliases(self, text, name):
        assert parse_variant_name(text) == name

    @pytest.mark.parametrize("text", ["flip-5", "flip-0", "two-peeky", "peek", ""])
    def test_unknown(self, text):
        with pytest.raises(DealError):
            parse_variant_name(text)

    @pytest.mark.parametrize("name, n", [("no-peeky", 0), ("three-peeky", 3), ("four-peeky", 4),
                                         ("flip-1", 1), ("flip-3", 3)])
    def test_cards_each(self, name, n):
        assert Variant(name).cards_each == n


class TestNoPeeky:
    """Nobody sees any dummy card before the auction (the default)."""

    def test_default(self):
        assert worked_deal().variant == Variant("no-peeky")

    def test_no_seen_cards(self):
        with pytest.raises(DealError):
            Variant("no-peeky", {"Alice": cards("Q...")})


class TestPeeky:
    """Each player looks privately at three (four) dummy cards; looks may overlap."""

    def test_private(self):
        v = Variant("three-peeky", {"Alice": cards("Q5.7.."), "Bob": cards("Q.76..")})
        assert v.face_up == 0
        assert v.known_to("Alice") == cards("Q5.7..") and v.known_to("Carol") == 0
        assert worked_deal(variant=v).variant is v

    def test_exact_count(self):
        with pytest.raises(DealError) as e:
            Variant("four-peeky", {"Alice": cards("Q5.7..")})
        assert e.value.field == "variant.seen.Alice"


class TestFlip:
    """Each player turns N dummy cards face up for all; they stay face up."""

    def test_public(self):
        v = Variant("flip-2", {"Alice": cards("Q5..."), "Bob": cards("..T.8")})
        assert v.face_up == cards("Q5..T.8")
        assert v.known_to("Carol") == v.face_up

    def test_a_card_flipped_twice(self):
        with pytest.raises(DealError):
            Variant("flip-1", {"Alice": cards("Q..."), "Bob": cards("Q...")})

    def test_seen_cards_must_be_the_dummys(self):
        with pytest.raises(DealError) as e:
            worked_deal(variant=Variant("flip-1", {"Alice": cards("A...")}))
        assert e.value.field == "variant.seen.Alice"

    def test_seen_by_a_real_player(self):
        with pytest.raises(DealError):
            worked_deal(variant=Variant("flip-1", {"Zed": cards("Q...")}))
