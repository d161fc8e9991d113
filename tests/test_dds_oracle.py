"""DDS cross-check: with the spade-breaking rule off, Dummy
Hand Spades play is bridge play with spades trump, so every answer of our
engine must equal DDS's (through endplay).

* full random deals (seeded; ``DUMMY_SPADES_DDS_DEALS``, default 20), all
  four leaders, side NS and EW, against DDS's table (``calc_all_tables``, its spades column);
* per-card values at the opening lead and inside a trick against
  ``solve_board`` (all-cards mode);
* partial deals (fewer cards per hand) and tricks in progress against
  ``solve_board``.

Seats: engine 0..3 = N E S W = endplay ``Player.north .. Player.west``; suits
S H D C = ``Denom.spades .. Denom.clubs``. ``solve_board`` scores are the
tricks of the side on move from the trick in progress (included) to the end.

Without the compiled engine only the tiny positions run (on the reference
twin); CI builds the engine and runs everything.
"""
from __future__ import annotations

import os
import random
from typing import Dict, List, Sequence, Tuple

import pytest
from model_helpers import dealt

endplay_types = pytest.importorskip("endplay.types")
endplay_dds = pytest.importorskip("endplay.dds")

from dummy_spades.solver.cards import format_hand  # noqa: E402
from dummy_spades.solver.rules import legal_cards  # noqa: E402

from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.position import Position  # noqa: E402

try:
    ENGINE = make_solver()
    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - before the extension is built
    ENGINE = make_solver(backend="reference")
    HAVE_ENGINE = False

needs_engine = pytest.mark.skipif(not HAVE_ENGINE, reason="compiled engine (solver.engine) not built")

Deal, Denom, Player, Card = endplay_types.Deal, endplay_types.Denom, endplay_types.Player, endplay_types.Card
solve_board, calc_all_tables = endplay_dds.solve_board, endplay_dds.calc_all_tables
#: The strains DDS leaves out of its tables here (only spades trump is compared).
NOT_SPADES = [d for d in Denom if d != Denom.spades]

NS, EW = 0b0101, 0b1010
SEED = 20240603
# random full deals checked against DDS's table (x 4 leaders); raise it for a
# longer run, e.g. DUMMY_SPADES_DDS_DEALS=200 python -m pytest tests/test_dds_oracle.py
FULL_DEALS = int(os.environ.get("DUMMY_SPADES_DDS_DEALS", "20"))


def side_of(seat: int) -> int:
    return NS if seat % 2 == 0 else EW


def random_hands(rng: random.Random, cards: int = 13) -> Tuple[int, int, int, int]:
    """A deal of the project's dealer, its seed drawn from ``rng`` (model_helpers.dealt)."""
    return dealt(rng, cards)


def dds_deal(hands: Sequence[int], leader: int, trick: Sequence[int] = ()) -> "Deal":
    """An endplay Deal of ``hands`` (cards of ``trick`` still held by their
    players) with spades trump, ``leader`` on lead, then ``trick`` played."""
    held = list(hands)
    for i, card in enumerate(trick):
        held[(leader + i) % 4] |= 1 << card
    deal = Deal("N:" + " ".join(format_hand(h) for h in held))
    deal.trump = Denom.spades
    deal.first = Player(leader)
    for card in trick:
        deal.play(to_endplay(card))
    return deal


def to_endplay(card: int) -> "Card":
    from dummy_spades.solver.cards import format_card

    return Card(format_card(card))


def from_endplay(card: "Card") -> int:
    return int(card.suit) * 13 + (card.rank.value.bit_length() - 1) - 2


def dds_card_values(deal: "Deal") -> Dict[int, int]:
    """solve_board all-cards mode: {card: tricks of the side on move}."""
    return {from_endplay(c): score for c, score in solve_board(deal)}


def dds_max(deal: "Deal") -> int:
    """The most tricks the side on move can take (the best card's score)."""
    return max(score for _, score in solve_board(deal))


def ns_tricks_from_table(hands: Sequence[int]) -> List[int]:
    """NS tricks for leaders N E S W from DDS's table (spades column).

    DDS's table gives the declarer's side tricks, declarer = the seat to the
    right of the opening leader. Only the spades column is computed."""
    tables = calc_all_tables([dds_deal(hands, 0)], exclude=NOT_SPADES)
    table = tables[0].to_list()[int(Denom.spades)]
    out = []
    for leader in range(4):
        declarer = (leader + 3) % 4
        t = table[declarer]
        out.append(t if declarer % 2 == 0 else 13 - t)
    return out


def play_random_trick_start(rng: random.Random, hands, leader: int, n: int):
    """Play ``n`` (1-3) random legal cards to a new trick: (hands, trick)."""
    hands = list(hands)
    trick: List[int] = []
    for i in range(n):
        seat = (leader + i) % 4
        legal = legal_cards(hands[seat], trick, spades_broken=True, breaking=False)
        cards = [c for c in range(52) if legal >> c & 1]
        card = rng.choice(cards)
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return tuple(hands), tuple(trick)


# ------------------------------------------------------------------ full deals


@needs_engine
def test_full_deals_all_leaders_match_dd_table():
    rng = random.Random(SEED)
    for _ in range(FULL_DEALS):
        hands = random_hands(rng)
        want = ns_tricks_from_table(hands)
        got = [ENGINE.max_tricks(Position(hands, leader, breaking=False), NS) for leader in range(4)]
        assert got == want, "N:" + " ".join(format_hand(h) for h in hands)


@needs_engine
def test_full_deals_side_ew_matches_dd_table():
    rng = random.Random(SEED + 1)
    for _ in range(max(1, FULL_DEALS // 4)):
        hands = random_hands(rng)
        want = [13 - t for t in ns_tricks_from_table(hands)]
        got = [ENGINE.max_tricks(Position(hands, leader, breaking=False), EW) for leader in range(4)]
        assert got == want, "N:" + " ".join(format_hand(h) for h in hands)


@needs_engine
def test_full_deal_card_values_at_opening_lead():
    rng = random.Random(SEED + 2)
    for k in range(max(1, FULL_DEALS // 6)):
        hands = random_hands(rng)
        leader = k % 4
        want = dds_card_values(dds_deal(hands, leader))
        got = ENGINE.card_values(Position(hands, leader, breaking=False), side_of(leader))
        assert got == want, "N:" + " ".join(format_hand(h) for h in hands)


@needs_engine
def test_full_deal_card_values_inside_first_trick():
    rng = random.Random(SEED + 3)
    for k in range(3):
        leader = rng.randrange(4)
        hands, trick = play_random_trick_start(rng, random_hands(rng), leader, k + 1)
        to_move = (leader + len(trick)) % 4
        want = dds_card_values(dds_deal(hands, leader, trick))
        got = ENGINE.card_values(Position(hands, leader, trick, breaking=False), side_of(to_move))
        assert got == want, ("N:" + " ".join(format_hand(h) for h in hands), trick)


# --------------------------------------------------------------- partial deals


def _partial_sizes():
    # the reference twin only manages tiny positions
    return [5, 6, 7, 8, 9, 10] if HAVE_ENGINE else [1, 2, 3]


@pytest.mark.parametrize("cards", _partial_sizes())
def test_partial_deals_match_solve_board(cards):
    rng = random.Random(SEED * 100 + cards)
    for _ in range(6 if HAVE_ENGINE else 4):
        hands = random_hands(rng, cards)
        leader = rng.randrange(4)
        side = side_of(leader)
        want = dds_max(dds_deal(hands, leader))
        assert ENGINE.max_tricks(Position(hands, leader, breaking=False), side) == want
        # the other side's view of the same position
        other = 0b1111 ^ side
        assert ENGINE.max_tricks(Position(hands, leader, breaking=False), other) == cards - want


@pytest.mark.parametrize("cards", [2, 3] + ([6, 9] if HAVE_ENGINE else []))
def test_partial_deals_card_values(cards):
    rng = random.Random(SEED * 200 + cards)
    for _ in range(4):
        hands = random_hands(rng, cards)
        leader = rng.randrange(4)
        want = dds_card_values(dds_deal(hands, leader))
        got = ENGINE.card_values(Position(hands, leader, breaking=False), side_of(leader))
        assert got == want
        if HAVE_ENGINE:  # equivalent-card groups: every legal card once, with DDS's value
            groups = ENGINE.card_groups(Position(hands, leader, breaking=False), side_of(leader))
            grouped = [c for group, _ in groups for c in group]
            assert sorted(grouped) == sorted(want)
            for group, value in groups:
                assert all(want[c] == value for c in group)


@pytest.mark.parametrize("played", [1, 2, 3])
def test_trick_in_progress_matches_solve_board(played):
    rng = random.Random(SEED * 300 + played)
    sizes = [3, 7, 10] if HAVE_ENGINE else [2, 3]
    for cards in sizes:
        for _ in range(3):
            leader = rng.randrange(4)
            hands, trick = play_random_trick_start(rng, random_hands(rng, cards), leader, played)
            to_move = (leader + played) % 4
            deal = dds_deal(hands, leader, trick)
            assert int(deal.curplayer) == to_move
            want = dds_card_values(deal)
            side = side_of(to_move)
            got = ENGINE.card_values(Position(hands, leader, trick, breaking=False), side)
            assert got == want
            assert ENGINE.max_tricks(Position(hands, leader, trick, breaking=False), side) == max(want.values())
            # spades already broken or not makes no difference with the rule off
            assert ENGINE.max_tricks(Position(hands, leader, trick, True, False), side) == max(want.values())


# ------------------------------------------------------------- the harness


def test_card_conversion_round_trip():
    for card in range(52):
        assert from_endplay(to_endplay(card)) == card


def test_dds_deal_matches_seats_and_trick():
    hands = random_hands(random.Random(1), 3)
    hands, trick = play_random_trick_start(random.Random(2), hands, 3, 2)
    deal = dds_deal(hands, 3, trick)
    assert int(deal.first) == 3 and int(deal.curplayer) == 1
    assert [from_endplay(c) for c in deal.curtrick] == list(trick)
    for seat, player in enumerate((Player.north, Player.east, Player.south, Player.west)):
        assert sum(1 << from_endplay(c) for c in deal[player]) == hands[seat]


def test_dd_table_orientation_agrees_with_solve_board():
    hands = random_hands(random.Random(SEED + 9))
    table = ns_tricks_from_table(hands)
    for leader in range(4):
        leader_side_tricks = dds_max(dds_deal(hands, leader))
        assert table[leader] == (leader_side_tricks if leader % 2 == 0 else 13 - leader_side_tricks)
