"""Small helpers shared by the model tests (cards from text, boards, deals)."""
import random
from typing import List, Tuple

from dummy_spades.solver.auction import Auction
from dummy_spades.solver.cards import parse_card, parse_hand
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.board import Board
from dummy_spades.solver.position import Position
from dummy_spades.solver.rules import Rules

PLAYERS = ("Alice", "Bob", "Carol")
WORKED_HANDS = {"Alice": "A.AQT94.82.KT932", "Bob": "T986.K52.Q764.J4",
                "Carol": "KJ74.J8.AKJ5.AQ6", "dummy": "Q532.763.T93.875"}


def C(text):
    """A card int from text: C("SA")."""
    return parse_card(text)


def cards(text):
    """Card ints from space-separated text."""
    return [parse_card(t) for t in text.split()]


def state(*hands, leader=0, breaking=True, broken=False):
    """A board from four PBN hands by seat (no deal)."""
    return Board.at(Position(tuple(parse_hand(h) for h in hands), leader, (), broken, breaking))


def worked_deal(*calls, dealer="Carol", **fields):
    """The worked-example hands with an optional auction (calls in bidding order)."""
    if calls:
        fields["auction"] = Auction.from_calls(PLAYERS, dealer, calls)
    return Deal(PLAYERS, dealer, WORKED_HANDS, **fields)


def with_breaking(deal, breaking):
    """``deal`` with the spade-breaking rule set to ``breaking`` (``None``: as it is)."""
    return deal if breaking is None else deal.with_rules(Rules(breaking, deal.rules.scoring))


def dealt_by_name(seed: int, cards: int = 13) -> Tuple[int, int, int, int]:
    """Deal 1 of ``seed`` from the project's dealer (solver.dealer), hands in
    deal-file order (Alice, Bob, Carol, dummy): ``dummy-spades deal --seed
    SEED --to yaml`` writes it. The plain-Python twin deals the same deal
    when the compiled dealer is not built."""
    from dummy_spades.solver import dealer

    try:
        found: List[Tuple[int, int, int, int]] = dealer.random_hands(1, seed, cards)
    except ImportError:
        found = list(dealer.reference_deal_hands(1, seed, cards=cards).hands)
    return found[0]


def dealt(rng: random.Random, cards: int = 13) -> Tuple[int, int, int, int]:
    """A random deal by PBN seat (N E S W) from the project's dealer, its seed
    drawn from ``rng``: ``dummy-spades deal --seed SEED [--cards K] --to pbn``
    prints it (N Bob, E Carol, S dummy, W Alice)."""
    from dummy_spades.solver.dealer import PLAYERS, DEALER, default_declarer, seat_order, seated

    order = seat_order(PLAYERS, default_declarer(PLAYERS, DEALER))
    return seated(dealt_by_name(rng.getrandbits(64), cards), order)
