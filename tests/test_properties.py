"""Property tests (hypothesis): random deals, auctions and legal play-outs."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dummy_spades.solver.auction import Auction, Bid
from dummy_spades.solver.cards import SPADES, SUIT_MASK, rank_of, suit_of
from dummy_spades.solver.deal import Deal, Rules
from dummy_spades.solver.dealfile import dump_deal, loads_deal
from dummy_spades.solver.scoring import TRICKS_PER_HAND, Ledger, Standing
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE

from dummy_spades.solver.limits import SEED_MAX
from model_helpers import dealt_by_name
from solver_checks import REF

PLAYERS = ("Ann", "Ben", "Cy")
HAND_NAMES = PLAYERS + ("dummy",)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def deals(draw, played=True):
    """A random deal with a complete auction (random nils) and, optionally, a random
    legal prefix of the play. The hands are the project's dealer's deal of a
    drawn seed (``dummy-spades deal --seed SEED --players Ann,Ben,Cy --to
    yaml`` writes them)."""
    seed = draw(st.integers(0, SEED_MAX))
    hands = dict(zip(HAND_NAMES, dealt_by_name(seed)))
    dealer = draw(st.sampled_from(PLAYERS))
    auction = Auction(PLAYERS, dealer)
    for player in auction.bidding_order:
        nils = draw(st.lists(st.sampled_from(HAND_NAMES), max_size=3, unique=True))
        auction = auction.with_bid(Bid(player, draw(st.integers(0, 13)), tuple(nils)))
    breaking = draw(st.booleans())
    deal = Deal(PLAYERS, dealer, hands, auction, rules=Rules(breaking))
    if played:
        rnd = draw(st.randoms(use_true_random=False))
        state = deal.board()
        for _ in range(draw(st.integers(0, 52))):
            state.push(rnd.choice(state.legal_moves()))
        deal = deal.with_played(state.moves)
    return deal


def play_out(state, rnd):
    """Play random legal cards to the end, checking the play rules card by card."""
    while not state.is_over:
        seat = state.to_move
        hand = state.hands[seat]
        trick = state.trick
        card = rnd.choice(state.legal_moves())
        if trick:  # follow suit if possible
            led = suit_of(trick[0])
            assert suit_of(card) == led or not hand & SUIT_MASK[led]
        elif suit_of(card) == SPADES and state.breaking and not state.spades_broken:
            assert hand & ~SUIT_MASK[SPADES] == 0  # only spades left
        state.push(card)
    return state


@SETTINGS
@given(deals(played=False), st.randoms(use_true_random=False))
def test_random_play_out_gives_13_tricks(deal, rnd):
    state = play_out(deal.board(), rnd)
    assert len(state.tricks) == TRICKS_PER_HAND and all(t.is_complete for t in state.tricks)
    assert sorted(state.moves) == list(range(52))
    assert sum(state.tricks_won) == TRICKS_PER_HAND
    assert state.declarer_tricks + state.defender_tricks == TRICKS_PER_HAND
    for i, trick in enumerate(state.tricks):
        win = trick.cards[trick.seats.index(trick.winner)]
        spades = [c for c in trick.cards if suit_of(c) == SPADES]
        contenders = spades or [c for c in trick.cards if suit_of(c) == suit_of(trick.cards[0])]
        assert rank_of(win) == max(rank_of(c) for c in contenders) and win in contenders
        if i + 1 < len(state.tricks):
            assert state.tricks[i + 1].leader == trick.winner  # the winner leads next


@SETTINGS
@given(deals(played=False), st.randoms(use_true_random=False))
def test_unplay_restores_every_position(deal, rnd):
    state = deal.board()
    positions = [state.position]
    while not state.is_over:
        state.push(rnd.choice(state.legal_moves()))
        positions.append(state.position)
    while state.moves:
        positions.pop()
        state.pop()
        assert state.position == positions[-1]


@SETTINGS
@given(deals(played=False), st.randoms(use_true_random=False))
def test_scores_consistent_with_bids(deal, rnd):
    state = play_out(deal.board(), rnd)
    finished = deal.with_played(state.moves)
    result = finished.score()
    seating = finished.seating()
    won = dict(zip(seating.names, state.tricks_won))
    counted = deal.auction.applicable_nils()
    for s in result.scores:
        side = state.declarer_tricks if s.player == deal.declarer else state.defender_tricks
        assert s.bid == deal.auction.bid_of(s.player).tricks and s.side_tricks == side
        assert s.made == (side >= s.bid)
        assert s.contract_points == (10 * s.bid + side - s.bid if s.made else -10 * s.bid)
        assert s.bags == max(0, side - s.bid)
        mine = [n for n in counted if n.bidder == s.player]
        assert [(n.hand, n.tricks, n.success) for n in s.nils] == [
            (n.hand, won[n.hand], won[n.hand] == 0) for n in mine]
        assert s.points == s.contract_points + 100 * sum(1 if n.success else -1 for n in s.nils)
    # the same totals given by hand score the same
    given_totals = {n.hand: won[n.hand] for n in counted}
    assert deal.score(state.declarer_tricks, given_totals).scores == result.scores


@SETTINGS
@given(deals(played=False), st.randoms(use_true_random=False),
       st.lists(st.tuples(st.integers(-200, 600), st.integers(0, 30)), min_size=3, max_size=3))
def test_ledger_carries_bags(deal, rnd, standings):
    state = play_out(deal.board(), rnd)
    scores = dict(zip(PLAYERS, (Standing(p, b) for p, b in standings)))
    result = deal.with_played(state.moves).score()
    book = Ledger(PLAYERS, standings=dict(scores))
    for entry, s in zip(book.record({x.player: x for x in result.scores}), result.scores):
        total_bags = entry.before.bags + s.bags
        assert entry.bag_penalties == total_bags // 10 and entry.after.bags == total_bags % 10
        assert entry.after.points == entry.before.points + s.points - 100 * entry.bag_penalties


@SETTINGS
@given(deals())
def test_deal_file_round_trip(deal):
    assert loads_deal(dump_deal(deal), "x.yaml") == deal
    for declarer in PLAYERS:
        pbn = deal.to_pbn(declarer)
        assert Deal.from_pbn(pbn, PLAYERS, deal.dealer, declarer).hands == deal.hands


@settings(max_examples=25, deadline=None)
@given(deals(played=False), st.randoms(use_true_random=False))
def test_double_dummy_sides_share_the_tricks(deal, rnd):
    """In a zero-sum ending the two sides' optimal results add up to the tricks left."""
    state = deal.board()
    while len(state.moves) < 40 or state.trick:
        state.push(rnd.choice(state.legal_moves()))
    pos = state.position
    left = state.tricks_left
    assert REF.max_tricks(pos, DECLARER_SIDE) + REF.max_tricks(pos, DEFENDER_SIDE) == left
