"""What a player knows (solver/knowledge.py) in the play: built from a
board and a player, holding no hidden card, with the facts a layout
sampler needs. The auction side is tested with the bid analysis
(test_bid.py, test_variants.py)."""
from __future__ import annotations

import ast
import random
from dataclasses import replace
from pathlib import Path

import pytest

from dummy_spades.solver.auction import Auction
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import (CLUBS, DIAMONDS, FULL_DECK, HEARTS, SUIT_MASK, count,
                                       parse_card)
from dummy_spades.solver.deal import Deal, FrozenMap
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver import knowledge
from dummy_spades.solver.knowledge import Knowledge, KnowledgeError
from dummy_spades.solver.rules import Rules
from dummy_spades.solver.scoring import DUMMY

from model_helpers import PLAYERS

HANDS = Path(__file__).resolve().parent.parent / "hands"
NAMES = ("Alice", "Bob", "Carol", DUMMY)


def swapped(deal, a, b, card_a, card_b):
    """``deal`` with one card of hand ``a`` and one of hand ``b`` exchanged."""
    x, y = parse_card(card_a), parse_card(card_b)
    hands = dict(deal.hands)
    hands[a] = hands[a] & ~(1 << x) | (1 << y)
    hands[b] = hands[b] & ~(1 << y) | (1 << x)
    return replace(deal, hands=FrozenMap(hands))


def test_mid_play_facts():
    deal = load_deal(HANDS / "mid-play.yaml")
    board = deal.board()
    k = Knowledge.from_board(board, "Bob")
    assert k.in_play and k.declarer == "Carol" and k.names == board.names
    assert k.played == board.moves and k.hand == deal.hands["Bob"]
    assert k.dummy_seen == deal.dummy                       # faced after the opening lead
    assert k.to_move == DUMMY and k.chooser == "Carol" and k.leader == "Alice"
    assert k.trick == (parse_card("C3"),) and k.spades_broken
    assert k.won == board.won_by_name()
    assert [h for h, _ in k.plays] == [board.names[s] for t in board.tricks for s in t.seats] + \
        ["Alice"]
    assert k.voids("Carol") == (HEARTS,) and k.voids("Alice") == (DIAMONDS,)
    assert k.voids("Bob") == () and k.voids(DUMMY) == ()
    for name in NAMES:
        held = dict(zip(board.names, board.hands))[name]
        assert k.holds(name) == count(held)
        assert k.known(name) == (held if name in ("Bob", DUMMY) else 0)
        assert k.played_by(name) & held == 0
    assert sum(k.to_deal(n) for n in NAMES) == count(k.unknown)
    assert k.unknown == dict(zip(board.names, board.hands))["Alice"] | \
        dict(zip(board.names, board.hands))["Carol"]
    assert k.allowed("Carol") == k.unknown & ~SUIT_MASK[HEARTS]


def test_the_play_is_read_from_the_board_with_no_replay():
    """What the player knows of the play is what the board shows everyone
    (Board.open_play); knowledge.py plays no card and judges no trick."""
    board = load_deal(HANDS / "mid-play.yaml").board()
    k = Knowledge.from_board(board, "Bob")
    assert k.play == board.open_play() and k.play.won == board.tricks_won
    assert k.play.leader == board.leader and k.play.trick == board.trick
    tree = ast.parse(Path(knowledge.__file__).read_text(encoding="utf-8"))
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert {"trick_winner", "breaks_spades", "play_card", "push"} & used == set()
    assert {"open_play", "Board"} <= used


def test_no_hidden_card():
    """Deals that differ only in what the player cannot see give equal knowledge."""
    deal = load_deal(HANDS / "mid-play.yaml")
    other = swapped(deal, "Alice", "Carol", "CK", "CA")          # unplayed clubs both hold
    assert other.board().moves == deal.board().moves
    assert Knowledge.from_board(other.board(), "Bob") == Knowledge.from_board(deal.board(), "Bob")
    assert Knowledge.from_board(other.board(), "Alice") != \
        Knowledge.from_board(deal.board(), "Alice")
    # before the opening lead: the unseen part of the dummy is hidden too
    peeky = load_deal(HANDS / "three-peeky.yaml")
    seen = peeky.variant.known_to("Alice")
    hidden = next(c for c in ("C7", "C5", "D8", "D2") if not (peeky.variant.face_up |
                  peeky.variant.seen_by("Bob") | peeky.variant.seen_by("Carol") | seen)
                  >> parse_card(c) & 1)
    bob_card = "HK"
    other = swapped(peeky, "Bob", DUMMY, bob_card, hidden)
    at, again = Knowledge.from_board(peeky.board(), "Alice"), \
        Knowledge.from_board(other.board(), "Alice")
    assert at == again and at.dummy_seen == seen and not at.played
    assert Knowledge.from_board(peeky.board(), "Bob") != Knowledge.from_board(other.board(), "Bob")


def test_the_dummy_is_seen_after_the_opening_lead():
    deal = load_deal(HANDS / "flip-2.yaml")
    board = deal.board()
    before = Knowledge.from_board(board, "Carol")
    assert before.dummy_seen == deal.variant.known_to("Carol") == deal.variant.face_up
    assert before.to_move == "Bob" and before.known(DUMMY) == deal.variant.face_up
    assert before.holds(DUMMY) == 13 and before.to_deal(DUMMY) == 13 - count(deal.variant.face_up)
    board.push(board.legal_moves()[0])
    after = Knowledge.from_board(board, "Carol")
    assert after.dummy_seen == deal.dummy and after.known(DUMMY) == deal.dummy


def test_who_saw_which_dummy_cards_stays_known_in_the_play():
    """Under flip-N every bidder saw the cards turned face up, before the
    opening lead and after it; a peek is private (no card face up)."""
    deal = load_deal(HANDS / "flip-2.yaml")
    board = deal.board()
    assert Knowledge.from_board(board, "Carol").face_up == deal.variant.face_up != 0
    board.push(board.legal_moves()[0])
    for player in deal.players:
        assert Knowledge.from_board(board, player).face_up == deal.variant.face_up
    assert Knowledge.from_deal(deal, "Alice").face_up == deal.variant.face_up
    peeky = load_deal(HANDS / "three-peeky.yaml")
    assert Knowledge.from_board(peeky.board(), "Alice").face_up == 0
    k = Knowledge.from_board(deal.board(), "Carol")
    with pytest.raises(KnowledgeError, match="face up"):
        replace(k, face_up=k.face_up | (deal.dummy & ~k.dummy_seen))   # a card not seen
    with pytest.raises(KnowledgeError, match="face up"):
        replace(Knowledge.from_board(peeky.board(), "Alice"),
                face_up=peeky.variant.known_to("Alice"))               # a private peek


def test_a_spade_led_unbroken_shows_a_hand_of_spades():
    hands = {"Alice": "AKQJT98765432...", "Bob": ".AKQJT98765432..",
             "Carol": "..AKQJT98765432.", "dummy": "...AKQJT98765432"}
    deal = Deal(PLAYERS, "Carol", hands, auction=Auction.from_calls(PLAYERS, "Carol", ["5", "6", "7"]))
    board = deal.board()
    board.push(parse_card("SA"))
    k = Knowledge.from_board(board, "Carol")
    assert k.voids("Alice") == (HEARTS, DIAMONDS, CLUBS)
    off = Knowledge.from_board(board.with_rules(Rules(breaking=False)), "Carol")
    assert off.voids("Alice") == ()


def test_layouts_that_fit():
    rng = random.Random(7)
    deal = load_deal(HANDS / "mid-play.yaml")
    board = deal.board()
    k = Knowledge.from_board(board, "Bob")
    real = dict(zip(board.names, board.hands))
    assert k.fits(real)
    b = k.board(real)
    assert b.position == board.position and b.tricks_won == board.tricks_won
    assert b.names == board.names and b.rules == board.rules
    # a random deal of the pool to the hidden hands, respecting the voids
    dealt = 0
    for _ in range(20):
        pool = [c for c in range(52) if k.unknown >> c & 1]
        rng.shuffle(pool)
        layout = {n: k.known(n) for n in NAMES}
        for name in ("Alice", "Carol"):
            for c in [c for c in pool if k.allowed(name) >> c & 1][:k.to_deal(name)]:
                layout[name] |= 1 << c
                pool.remove(c)
        if not pool:
            assert k.fits(layout)
            dealt += 1
    assert dealt >= 5
    carol_heart = dict(real)
    heart = next(c for c in range(13, 26) if real["Alice"] >> c & 1)
    club = next(c for c in range(39, 52) if real["Carol"] >> c & 1)
    carol_heart["Alice"] = real["Alice"] & ~(1 << heart) | (1 << club)
    carol_heart["Carol"] = real["Carol"] & ~(1 << club) | (1 << heart)
    assert not k.fits(carol_heart)                     # Carol showed out of hearts
    assert not k.fits({**real, "Bob": real["Alice"], "Alice": real["Bob"]})


def test_scores_from_what_the_player_knows():
    deal = load_deal(HANDS / "bag-penalty.yaml")
    board = deal.board()
    k = Knowledge.from_board(board, deal.players[0])
    assert k.is_over and k.to_move is None and k.chooser is None and k.unknown == 0
    result = deal.score()
    assert k.score(result.declarer_tricks, result.hand_tricks) == result
    assert k.scores == deal.scores and k.standing == deal.scores[deal.players[0]]


def test_bad_requests():
    deal = load_deal(HANDS / "mid-play.yaml")
    with pytest.raises(KnowledgeError, match="unknown player"):
        Knowledge.from_board(deal.board(), "Zed")
    with pytest.raises(KnowledgeError, match="complete auction"):
        Knowledge.from_board(Board.at(deal.board().position), "Bob")
    with pytest.raises(KnowledgeError, match="unknown hand"):
        Knowledge.from_board(deal.board(), "Bob").holds("Zed")
    k = Knowledge.from_board(deal.board(), "Bob")
    with pytest.raises(KnowledgeError, match="cannot come from"):
        replace(k, hand=deal.hands["Alice"])
    assert FULL_DECK & ~k.unknown & ~k.hand & ~k.dummy_seen == \
        sum(1 << c for c in k.played) & ~k.hand & ~k.dummy_seen


def test_mirror_bids_give_the_spade_counts():
    deal = load_deal(HANDS / "mirror.yaml")
    board = deal.board()
    player = deal.players[0]
    k = Knowledge.from_board(board, player)
    real = dict(zip(board.names, board.hands))
    assert k.fits(real)
    assert k.spades_known == {b.player: b.tricks for b in deal.auction.bids if b.player != player}
    a, b = (p for p in deal.players if p != player)
    spade = next((c for c in range(13) if real[a] >> c & 1), None)
    other = next((c for c in range(13, 52) if real[b] >> c & 1), None)
    assert spade is not None and other is not None
    moved = dict(real)
    moved[a] = real[a] & ~(1 << spade) | (1 << other)
    moved[b] = real[b] & ~(1 << other) | (1 << spade)
    assert not k.played and not k.fits(moved)          # the counts no longer match the bids
