"""docs/RULES.md "Auction variants": No Peeky, Three Peeky, Four Peeky, Flip N -
names, how many dummy cards each player sees, private looks vs face-up cards;
"Mirror Spades (dummy version)", "Suicide Spades (dummy version)" and
"Combining variants": the legal bids, the checked auction, the scores and
which variants go together."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from model_helpers import PLAYERS, WORKED_HANDS, worked_deal
from test_bid import FakeSolver
from dummy_spades.cli.app import app
from dummy_spades.solver import bid as sim
from dummy_spades.solver.auction import (MIRROR, STANDARD, SUICIDE, Auction, Bid, check_bid,
                                         legal_bids, spade_count)
from dummy_spades.solver.cards import FULL_DECK, count, parse_hand
from dummy_spades.solver.deal import VARIANT_CARDS, Deal, Variant, parse_variant, parse_variant_name
from dummy_spades.solver.errors import AuctionError, DealError
from dummy_spades.solver.scoring import NilBet

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


# ------------------------------------------------------------ bidding variants
MIRROR_HANDS = {"Alice": "-.Q9632.J742.T532", "Bob": "AK72.AK4.AK.9864",
                "Carol": "QJT98.J85.Q96.AK", "dummy": "6543.T7.T853.QJ7"}  # spades 0, 4, 5; dummy 4


def mirror_deal(*calls, hands=MIRROR_HANDS, dealer="Carol"):
    auction = Auction.from_calls(PLAYERS, dealer, calls) if calls else None
    return Deal(PLAYERS, dealer, hands, auction=auction, variant=Variant("mirror"))


def suicide_deal(*calls, dealer="Carol", variant="suicide"):
    auction = Auction.from_calls(PLAYERS, dealer, calls) if calls else None
    return Deal(PLAYERS, dealer, WORKED_HANDS, auction=auction, variant=Variant(variant))


def partial(*calls, dealer="Carol"):
    return Auction.from_calls(PLAYERS, dealer, calls)


def calls(bids):
    return [b.call() for b in bids]


class TestMirror:
    """docs/RULES.md "Mirror Spades (dummy version)"."""

    def test_each_bid_is_the_spade_count(self):
        for spades in range(14):
            (bid,) = legal_bids(MIRROR, partial("0 nil self"), spades)
            assert bid.player == "Bob" and bid.tricks == spades

    def test_no_spades_bids_nil_on_own_hand(self):
        assert legal_bids(MIRROR, partial(), 0) == (Bid("Alice", 0, ("Alice",)),)
        assert legal_bids(MIRROR, partial(), 3) == (Bid("Alice", 3),)

    def test_the_forced_auction_is_accepted(self):
        d = mirror_deal("0 nil self", "4", "5")
        assert d.declarer == "Carol" and d.variant.bidding == MIRROR

    @pytest.mark.parametrize("call, field, words", [
        ("5", "auction[1].bid", "Bob bids 5 holding 4 spades"),
        ("3", "auction[1].bid", "expected 4"),
        ("4 nil dummy", "auction[1].nil", "only a player without spades declares nil"),
        ("4 nil self", "auction[1].nil", "only a player without spades declares nil"),
        ("4 nil Alice", "auction[1].nil", "Bob holds 4 spades and bids 4 nil Alice"),
    ])
    def test_any_other_bid_is_refused(self, call, field, words):
        with pytest.raises(AuctionError) as e:
            mirror_deal("0 nil self", call, "5")
        assert e.value.field == field and words in str(e.value)

    @pytest.mark.parametrize("call, field", [("0", "auction[0].nil"), ("1", "auction[0].bid"),
                                             ("0 nil self dummy", "auction[0].nil")])
    def test_without_spades_only_nil(self, call, field):
        with pytest.raises(AuctionError) as e:
            mirror_deal(call)
        assert e.value.field == field and "0 nil self" in e.value.expected
        assert "holding no spades" in str(e.value) or "holds no spades" in str(e.value)

    def test_declaring_rule_unchanged_most_spades_ties_to_earliest(self):
        hands = {"Alice": "AKQJ.AKQJ.AKQJ.A", "Bob": "T987.T987.T98.KQ", "Carol": "654.654.765.JT98",
                 "dummy": "32.32.432.765432"}  # spades 4, 4, 3
        d = mirror_deal("4", "4", "3", hands=hands)
        assert d.declarer == "Alice"

    def test_dummy_spades_count_for_the_declarers_side(self):
        """Carol bids her own 5 spades; the side's tricks (dummy's included) are
        measured against them: overtricks are her bags."""
        d = mirror_deal("0 nil self", "4", "5")
        r = d.score(10, {"Alice": 0})
        carol = r.score_of("Carol")
        assert (carol.bid, carol.side_tricks, carol.points, carol.bags) == (5, 10, 55, 5)
        assert r.score_of("Alice").nils[0].success and r.score_of("Bob").made is False

    def test_partial_auction_is_checked_too(self):
        with pytest.raises(AuctionError) as e:
            mirror_deal("2")
        assert e.value.field == "auction[0].bid"


class TestSuicide:
    """docs/RULES.md "Suicide Spades (dummy version)"."""

    NIL = "0 nil self"
    HIGH = [f"{t} nil dummy" for t in range(4, 14)]

    def test_first_bidder_nil_or_at_least_four_with_the_dummy_nil(self):
        assert calls(legal_bids(SUICIDE, partial(), 5)) == [self.NIL] + self.HIGH

    def test_after_a_nil_only_four_or_more(self):
        assert calls(legal_bids(SUICIDE, partial("0 nil self"), 5)) == self.HIGH
        assert calls(legal_bids(SUICIDE, partial("0 nil self", "5 nil dummy"), 5)) == self.HIGH

    def test_dealer_must_bid_nil_if_nobody_has(self):
        assert calls(legal_bids(SUICIDE, partial("5 nil dummy", "4 nil dummy"), 5)) == [self.NIL]
        assert calls(legal_bids(SUICIDE, partial("5 nil dummy"), 5)) == [self.NIL] + self.HIGH

    def test_spades_do_not_matter(self):
        assert legal_bids(SUICIDE, partial(), 0) == legal_bids(SUICIDE, partial(), 13)

    def test_every_legal_auction_has_one_nil_on_each_side(self):
        """Enumerate every auction the rule allows: the declarer bid 4+ and
        their dummy nil counts; exactly one defender bid nil (and counts)."""
        seen = 0
        stack = [partial()]
        while stack:
            a = stack.pop()
            if a.is_complete:
                seen += 1
                decl = a.bid_of(a.declarer)
                assert decl.tricks >= 4
                counted = a.applicable_nils()
                assert NilBet(a.declarer, "dummy") in counted
                nil_defenders = [p for p in a.defenders if a.bid_of(p).nils == (p,)]
                assert len(nil_defenders) == 1
                assert NilBet(nil_defenders[0], nil_defenders[0]) in counted and len(counted) == 2
                continue
            stack += [a.with_bid(b) for b in legal_bids(SUICIDE, a, 5)]
        assert seen == 10 * 10 * 3  # nil first, second or last; two bids of 4-13

    @pytest.mark.parametrize("auction, field, words", [
        (("3",), "auction[0].bid", "a player bids nil or at least 4"),
        (("0",), "auction[0].nil", "expected 0 nil self"),
        (("0 nil self dummy",), "auction[0].nil", "expected 0 nil self"),
        (("2 nil self",), "auction[0].bid", "expected 0 nil self"),
        (("5",), "auction[0].nil", "expected 5 nil dummy"),
        (("5 nil dummy Bob",), "auction[0].nil", "names the dummy nil and no other hand"),
        (("0 nil self", "0 nil self"), "auction[1].bid", "Bob bids nil after Alice has"),
        (("5 nil dummy", "6 nil dummy", "7 nil dummy"), "auction[2].bid", "nobody has bid nil"),
    ])
    def test_an_illegal_bid_is_refused(self, auction, field, words):
        with pytest.raises(AuctionError) as e:
            suicide_deal(*auction)
        assert e.value.field == field and words in str(e.value)

    def test_nil_bidder_scores_contract_zero_with_bags(self):
        d = suicide_deal("5 nil dummy", "0 nil self", "6 nil dummy")
        assert d.declarer == "Carol"
        r = d.score(9, {"Bob": 0, "dummy": 0})
        bob, carol, alice = r.score_of("Bob"), r.score_of("Carol"), r.score_of("Alice")
        assert (bob.points, bob.bags, bob.nil_points) == (104, 4, 100)
        assert (carol.points, carol.nil_points) == (163, 100)
        assert (alice.points, alice.nils) == (-50, ())
        assert [(n.bidder, n.hand) for n in r.ignored_nils] == [("Alice", "dummy")]


class TestCombining:
    """docs/RULES.md "Combining variants": one dummy variant, at most one
    bidding variant; mirror only with no-peeky."""

    @pytest.mark.parametrize("name", list(VARIANT_CARDS))
    @pytest.mark.parametrize("bidding", [STANDARD, MIRROR, SUICIDE])
    def test_table(self, name, bidding):
        allowed = bidding != MIRROR or name == "no-peeky"
        if allowed:
            v = Variant(name, bidding=bidding)
            assert (v.name, v.bidding) == (name, bidding)
            assert Variant(v.label) == v
        else:
            with pytest.raises(DealError) as e:
                Variant(name, bidding=bidding)
            assert e.value.field == "variant"
            assert "mirror alone" in e.value.expected and "suicide" in e.value.expected

    @pytest.mark.parametrize("text, name, bidding", [
        ("mirror", "no-peeky", MIRROR), ("Mirror Spades", "no-peeky", MIRROR),
        ("suicide", "no-peeky", SUICIDE), ("Suicide + 3 peeky", "three-peeky", SUICIDE),
        ("flip-2 + suicide", "flip-2", SUICIDE), ("suicide, four peeky", "four-peeky", SUICIDE),
        ("suicide with flip two", "flip-2", SUICIDE), ("three-peeky", "three-peeky", STANDARD),
    ])
    def test_names(self, text, name, bidding):
        assert parse_variant(text) == (name, bidding)

    @pytest.mark.parametrize("text, words", [
        ("mirror suicide", "names mirror and suicide"),
        ("mirror + flip-1", "mirror cannot be combined with flip-1"),
        ("suicide + flip-2 + three-peeky", "combines flip-2 and three-peeky"),
        ("suicide + flip-9", "unknown variant"),
    ])
    def test_refused(self, text, words):
        with pytest.raises(DealError) as e:
            Variant(text)
        assert words in str(e.value) and "suicide + flip-2" in e.value.expected

    def test_suicide_with_flipped_cards(self):
        v = Variant("suicide + flip-1", {"Alice": cards("Q..."), "Bob": cards("..T.")})
        d = suicide_deal("5 nil dummy", "0 nil self", "6 nil dummy", variant=v.label)
        assert d.declarer == "Carol" and v.face_up == cards("Q..T.") and v.label == "suicide + flip-1"

    def test_labels(self):
        assert Variant().label == "no-peeky" and Variant("mirror").label == "mirror"
        assert Variant("flip-3", bidding=SUICIDE).label == "suicide + flip-3"

    def test_standard_rules_allow_any_bid(self):
        assert legal_bids(STANDARD, partial(), 4) is None
        check_bid(STANDARD, partial(), Bid("Alice", 2, ("Bob", "dummy")), 4)


# ------------------------------------------------------------------ the bid analyser
class TestBidUnderMirror:
    """The bid analyser under mirror: one candidate (the forced bid); the
    earlier bids are spade counts the layouts keep; each layout is solved for
    the one declarer its counts make."""

    def knowledge(self, player, calls=("0 nil self", "4", "5")):
        d = mirror_deal(*calls)
        return sim.Knowledge.from_deal(d, player)

    def test_the_forced_bid_is_the_only_candidate(self):
        k = self.knowledge("Bob")
        assert k.bidding == MIRROR and k.variant == "mirror"
        assert sim.default_candidates(k) == [sim.Candidate(4)]
        assert sim.plan_for(k) == sim.Plan()          # no nil is named: no nil question
        k0 = self.knowledge("Alice")
        assert sim.default_candidates(k0) == [sim.Candidate(0, ("Alice",))]
        assert {h for _, h in sim.plan_for(k0).nils} == {"Alice"}

    @pytest.mark.parametrize("player, declarers", [
        ("Alice", ("Alice", "Bob", "Carol")),   # 0 spades: declares only if nobody holds one
        ("Bob", ("Bob", "Carol")),              # Carol may hold more than Bob's 4
        ("Carol", ("Carol",)),                  # the dealer's 5 beats the bids made
    ])
    def test_roles_follow_the_spade_counts(self, player, declarers):
        assert self.knowledge(player).declarers == declarers

    def test_layouts_keep_the_earlier_spade_counts(self):
        k = self.knowledge("Carol")
        assert k.spades_known == {"Alice": 0, "Bob": 4}
        unseen = [c for c in range(13) if not k.hand >> c & 1]
        hits = {c: 0 for c in unseen}
        n = 600
        for i in range(n):
            layout = sim.sample_layout(k, 5, i)
            assert sum(layout.values()) == FULL_DECK and all(count(h) == 13 for h in layout.values())
            assert layout["Carol"] == k.hand
            assert spade_count(layout["Alice"]) == 0 and spade_count(layout["Bob"]) == 4
            for c in unseen:
                hits[c] += layout["Bob"] >> c & 1
        # each of the 8 unseen spades lands in Bob's 4 with chance 1/2
        assert all(abs(h / n - 0.5) < 0.1 for h in hits.values()), hits

    def test_impossible_earlier_counts_are_refused(self):
        with pytest.raises(sim.KnowledgeError) as e:
            sim.Knowledge("Carol", PLAYERS, "Carol", parse_hand(MIRROR_HANDS["Carol"]),
                          bids=(Bid("Alice", 6), Bid("Bob", 4)), bidding=MIRROR)
        assert e.value.field == "bids" and "spade counts that fit" in e.value.expected

    def test_only_the_layouts_declarer_is_solved(self):
        k = self.knowledge("Bob")
        solver = FakeSolver()
        for i in range(20):
            layout = sim.sample_layout(k, 1, i)
            r = sim.solve_layout(solver, k, layout, sim.plan_for(k), i)
            carol = spade_count(layout["Carol"])
            want = "Carol" if carol > 4 else "Bob"
            assert [p for p, t in zip(PLAYERS, r.declarer_tricks) if t is not None] == [want]
            assert sim.declarer_for(k, 4, r) == want

    def test_figures_by_role_are_over_that_roles_samples(self):
        k = self.knowledge("Bob")
        plan = sim.plan_for(k)
        solver = FakeSolver()
        results = [sim.solve_layout(solver, k, sim.sample_layout(k, 2, i), plan, i) for i in range(40)]
        a = sim.summarise(k, plan, results, 2, sim.Candidate(4))
        c = a.recommended
        assert c.call == "4" and a.judged.rank == 1 and a.judged.best_alternative is c
        n = {d: e.n for d, e in c.make_by_role}
        assert sum(n.values()) == 40
        assert {d: round(e.value * 40) for d, e in c.declarer_share} == n
        assert {r.declarer: sum(r.histogram) for r in a.roles} == {d: m for d, m in n.items() if m}

    @pytest.mark.parametrize("tricks, nils, words", [
        (5, (), "Bob bids 5 holding 4 spades"),
        (4, ("dummy",), "only a player without spades declares nil"),
    ])
    def test_another_bid_cannot_be_judged(self, tricks, nils, words):
        with pytest.raises(sim.BidError) as e:
            sim.parse_candidate(self.knowledge("Bob"), tricks, nils)
        assert e.value.field == "bid" and words in str(e.value)


class TestBidUnderSuicide:
    """The bid analyser under suicide: the candidates are the legal bids; a
    later bidder makes the legal bid nearest their double-dummy tricks."""

    def knowledge(self, player, *calls):
        return sim.Knowledge.from_deal(suicide_deal(*calls) if calls else suicide_deal(), player)

    def test_candidates_are_the_legal_bids(self):
        k = self.knowledge("Alice")
        assert [c.call("Alice") for c in sim.default_candidates(k)] == ["0 nil self"] + TestSuicide.HIGH
        k = self.knowledge("Carol", "5 nil dummy", "6 nil dummy")
        assert sim.default_candidates(k) == [sim.Candidate(0, ("Carol",))]
        assert "Carol" not in k.declarers          # the dealer's forced nil never declares
        k = self.knowledge("Carol", "5 nil dummy", "0 nil self")
        assert "Bob" not in k.declarers and len(sim.default_candidates(k)) == 10

    def test_plan_asks_only_the_nils_the_bids_name(self):
        k = self.knowledge("Alice")
        plan = sim.plan_for(k)
        assert set(plan.nils) == {("Bob", "Alice"), ("Carol", "Alice"), ("Alice", "Alice"),
                                  ("Alice", "dummy")}

    @pytest.mark.parametrize("before, tricks, want", [
        ((), 1, "0 nil self"), ((), 2, "0 nil self"), ((), 3, "4 nil dummy"), ((), 9, "9 nil dummy"),
        (("0 nil self",), 0, "4 nil dummy"),
        (("5 nil dummy", "4 nil dummy"), 11, "0 nil self"),   # the dealer must bid nil
        ((), None, "0 nil self"),
    ])
    def test_modelled_later_bid(self, before, tricks, want):
        a = partial(*before)
        assert sim.modelled_bid(SUICIDE, a, 3, tricks).call() == want

    def test_declarer_in_a_layout(self):
        k = self.knowledge("Alice")
        r = sim.SampleResult(0, (8, 2, 9))     # Bob would take 2 (nil), Carol 9
        assert sim.declarer_for(k, 7, r) == "Carol"
        assert sim.declarer_for(k, 10, r) == "Alice"
        r = sim.SampleResult(0, (8, 7, 9))     # Bob bids 7: Carol is forced to nil
        assert sim.declarer_for(k, 6, r) == "Bob"
        assert sim.declarer_for(k, 0, r) == "Carol"   # Alice nil: Bob 7, Carol 9

    @pytest.mark.parametrize("calls, tricks, nils, words", [
        ((), 3, (), "a player bids nil or at least 4"),
        ((), 5, (), "expected 5 nil dummy"),
        (("0 nil self",), 0, ("self",), "Bob bids nil after Alice has"),
    ])
    def test_an_illegal_bid_cannot_be_judged(self, calls, tricks, nils, words):
        k = sim.Knowledge.from_deal(suicide_deal(*calls)) if calls else self.knowledge("Alice")
        with pytest.raises(sim.BidError) as e:
            sim.parse_candidate(k, tricks, nils)
        assert e.value.field == "bid" and words in str(e.value)

    def test_earlier_illegal_bids_are_refused(self):
        with pytest.raises(sim.KnowledgeError) as e:
            sim.Knowledge("Bob", PLAYERS, "Carol", parse_hand(WORKED_HANDS["Bob"]),
                          bids=(Bid("Alice", 3),), bidding=SUICIDE)
        assert e.value.field == "bids[0]"

    def test_analysis_with_a_fake_solver(self):
        k = self.knowledge("Alice")
        plan = sim.plan_for(k)
        solver = FakeSolver()
        results = [sim.solve_layout(solver, k, sim.sample_layout(k, 3, i), plan, i) for i in range(12)]
        a = sim.summarise(k, plan, results, 3)
        assert {c.call for c in a.candidates} == {"0 nil self"} | set(TestSuicide.HIGH)
        assert [c.call for c in a.bids] == ["0 nil self"] + TestSuicide.HIGH
        nil = next(c for c in a.candidates if c.call == "0 nil self")
        assert nil.declare.value == 0 and nil.nils[0].counts.value == 1


class TestBidCommandUnderVariants:
    """``dummy-spades bid`` on the bundled mirror and suicide deals."""

    HANDS = Path(__file__).resolve().parent.parent / "hands"

    def run(self, *args):
        return CliRunner().invoke(app, ["bid", *[str(a) for a in args]])

    def test_mirror_reports_the_forced_bid_by_role(self):
        r = self.run(self.HANDS / "mirror.yaml", "--player", "Carol", "-n", 3, "-j", 1, "--json")
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        assert data["bidding"] == MIRROR and data["variant"] == "mirror"
        assert "spade count" in data["later_bid_model"]
        assert [c["call"] for c in data["candidates"]] == ["5"] == [data["recommended"]["call"]]
        best = data["recommended"]
        assert best["declare"]["value"] == 1 and best["declare_by_declarer"]["Carol"]["value"] == 1
        assert best["make_by_declarer"]["Carol"]["n"] == 3
        assert data["judged"]["rank"] == 1
        text = self.run(self.HANDS / "mirror.yaml", "--player", "Carol", "-n", 2, "-j", 1).stdout
        assert "Your bid is forced: 5 (your spade count)" in text and "you declare" in text

    def test_suicide_candidates_are_legal_bids(self):
        r = self.run(self.HANDS / "suicide.yaml", "--player", "Carol", "-n", 2, "-j", 1, "--json")
        assert r.exit_code == 0, r.output
        data = json.loads(r.stdout)
        assert data["bidding"] == SUICIDE
        assert sorted(c["bid"] for c in data["candidates"]) == list(range(4, 14))
        assert all(c["nil"] == ["dummy"] for c in data["candidates"])
        assert data["judged"]["bid"]["call"] == "6 nil dummy"

    @pytest.mark.parametrize("deal, args, words", [
        ("mirror", ("--player", "Carol", "--bid", 4), "Carol bids 4 holding 5 spades; expected 5"),
        ("suicide", ("--player", "Bob", "--bid", 3), "Bob bids 3; expected 0 nil self"),
        ("suicide", ("--player", "Carol", "--bid", 0, "--nil", "self"), "Carol bids nil after Bob"),
    ])
    def test_an_illegal_bid_is_one_clear_error(self, deal, args, words):
        r = self.run(self.HANDS / f"{deal}.yaml", *args, "-n", 2, "-j", 1)
        assert r.exit_code == 1
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "bid:" in lines[0] and words in lines[0], r.stderr
        assert lines[0].startswith(f"error: {self.HANDS / deal}.yaml: bid: "), r.stderr
        assert "Traceback" not in r.output


class TestShowAndScoreUnderVariants:
    """``show`` and ``score`` say what the bidding variant means for the deal."""

    def test_show_names_the_next_bidders_legal_bids(self, tmp_path):
        text = (TestBidCommandUnderVariants.HANDS / "suicide.yaml").read_text()
        text = text.replace("{player: Bob, bid: 0, nil: [self]}", "{player: Bob, bid: 7, nil: [dummy]}")
        path = tmp_path / "open.yaml"
        path.write_text(text.split("  - {player: Carol")[0])
        r = CliRunner().invoke(app, ["show", str(path)])
        assert r.exit_code == 0, r.output
        assert "Variant: suicide" in r.stdout and "Carol may bid: 0 nil self." in r.stdout
        path.write_text(text.split("  - {player: Bob")[0])
        assert "Bob may bid: 0 nil self, 4-13 nil dummy." in CliRunner().invoke(app, ["show", str(path)]).stdout

    def test_show_json_and_score_name_the_variant(self):
        mirror = TestBidCommandUnderVariants.HANDS / "mirror.yaml"
        data = json.loads(CliRunner().invoke(app, ["show", str(mirror), "--json"]).stdout)
        assert (data["variant"]["bidding"], data["variant"]["label"]) == (MIRROR, "mirror")
        r = CliRunner().invoke(app, ["score", str(mirror), "--declarer-tricks", "7",
                                     "--nil-tricks", "Alice=0"])
        assert r.exit_code == 0, r.output
        assert "each bid is the bidder's spade count (Alice 0, Bob 4, Carol 5)" in " ".join(r.stdout.split())
        r = CliRunner().invoke(app, ["score", str(mirror), "--declarer-tricks", "7",
                                     "--nil-tricks", "Alice=0", "--json"])
        assert json.loads(r.stdout)["variant"] == "mirror"
