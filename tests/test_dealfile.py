"""Deal files: the YAML format, its validation messages, PBN import/export."""
import textwrap
from pathlib import Path

import pytest

from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.deal import Deal, Variant
from dummy_spades.solver.dealfile import dump_deal, load_deal, loads_deal
from dummy_spades.solver.errors import DealFileError
from dummy_spades.solver.scoring import Standing

from bad_deals import CASES, GOOD

HANDS = Path(__file__).resolve().parent.parent / "hands"

BASE = GOOD.split("auction:")[0]  # the deal without its auction


def load(text):
    return loads_deal(textwrap.dedent(text), "deal.yaml")


def bad(text):
    with pytest.raises(DealFileError) as e:
        load(text)
    return e.value


class TestHandForms:
    def test_pbn(self):
        d = load(BASE)
        assert d.hands["Alice"] == parse_hand("A.AQT94.82.KT932")
        assert d.declarer is None

    @pytest.mark.parametrize("alice", [
        "{spades: A, hearts: AQT94, diamonds: '82', clubs: KT932}",
        "{S: A, H: A Q 10 9 4, D: 8 2, C: K 10 9 3 2}",
        "{♠: A, ♥: aqt94, ♦: '82', ♣: kt932}",
        "[SA, HA, HQ, H10, H9, H4, D8, D2, CK, CT, C9, C3, C2]",
        "♠A ♥A ♥Q ♥10 ♥9 ♥4 ♦8 ♦2 ♣K ♣10 ♣9 ♣3 ♣2",
        "a.aq1094.82.kt932",
    ])
    def test_other_forms(self, alice):
        d = load(BASE.replace("Alice: A.AQT94.82.KT932", f"Alice: {alice}"))
        assert d.hands["Alice"] == parse_hand("A.AQT94.82.KT932")


class TestRoundTrip:
    def test_dump_and_load(self):
        d = load(BASE + textwrap.dedent("""\
            auction:
              - {player: Alice, bid: 5, nil: [Bob, dummy]}
              - {Bob: "6 nil self"}
              - {player: Carol, bid: 7}
            played: [D2 D3 D4 D5, C6]
            rules: {spade_breaking: false, target: 300}
            scores: {Alice: {points: 120, bags: 8}, Bob: 90, Carol: {points: -40}}
            variant: {name: flip-2, seen: {Alice: [S2, S3], Carol: "D9 C5"}}
            title: a title
            notes: some notes
        """))
        assert d.played[:2] == (parse_hand("..2.").bit_length() - 1, parse_hand("..3.").bit_length() - 1)
        assert d.scores["Bob"] == Standing(90, 0)
        assert d.variant.face_up == parse_hand("32..9.5")
        assert d.rules.scoring.target == 300 and not d.rules.breaking
        text = dump_deal(d)
        assert loads_deal(text, "x.yaml") == d
        assert eval(repr(d), {"Deal": Deal, "Variant": Variant, **_model_names()}) == d

    @pytest.mark.parametrize("path", sorted(HANDS.glob("*.yaml")), ids=lambda p: p.name)
    def test_every_bundled_deal(self, path):
        d = load_deal(path)
        assert loads_deal(dump_deal(d), "x") == d


def _model_names():
    from dummy_spades.solver.auction import Auction, Bid
    from dummy_spades.solver.deal import FrozenMap, Rules
    from dummy_spades.solver.scoring import ScoringRules
    return dict(Auction=Auction, Bid=Bid, FrozenMap=FrozenMap, Rules=Rules,
                ScoringRules=ScoringRules, Standing=Standing)


class TestPbn:
    def test_export_seats_declarer_north(self):
        d = load(BASE + "auction: [{Alice: 5}, {Bob: 6}, {Carol: 7}]\n")
        assert d.to_pbn() == "N:KJ74.J8.AKJ5.AQ6 A.AQT94.82.KT932 Q532.763.T93.875 T986.K52.Q764.J4"

    def test_import_round_trip(self):
        d = load(BASE)
        for declarer in d.players:
            pbn = d.to_pbn(declarer)
            assert Deal.from_pbn(pbn, d.players, d.dealer, declarer) == d

    def test_import_any_first_direction(self):
        d = load(BASE)
        n, e, s, w = d.to_pbn("Bob")[2:].split()
        assert Deal.from_pbn(f"W:{w} {n} {e} {s}", d.players, d.dealer, "Bob") == d


class TestErrors:
    def test_message_names_file_field_line_expected(self):
        e = bad(BASE.replace("Bob: T986.K52.Q764.J4", "Bob: T986.K52.Q764.J"))
        assert (e.file, e.field, e.line) == ("deal.yaml", "hands.Bob", 5)
        assert str(e).startswith("deal.yaml:5: hands.Bob: 12 cards")
        assert "expected 13 cards" in str(e)


class TestEveryBadInput:
    """Each bad input: one DealFileError naming the file, field, line and what was expected."""

    @pytest.mark.parametrize("name", sorted(CASES))
    def test_bad(self, name):
        case = CASES[name]
        with pytest.raises(DealFileError) as e:
            loads_deal(case.text, "deal.yaml")
        err = e.value
        assert (err.file, err.field, err.line) == ("deal.yaml", case.field, case.line), str(err)
        assert case.words in str(err)
        assert err.expected, f"no 'expected' in: {err}"
        assert "\n" not in str(err)
        where = f"deal.yaml:{case.line}: " + (f"{case.field}: " if case.field else "")
        assert str(err).startswith(where)

    def test_good_base(self):
        assert loads_deal(GOOD, "deal.yaml").declarer == "Carol"

    def test_missing_file(self, tmp_path):
        with pytest.raises(DealFileError) as e:
            load_deal(tmp_path / "nope.yaml")
        assert "cannot read" in str(e.value) and e.value.file.endswith("nope.yaml")

    def test_not_utf8(self, tmp_path):
        p = tmp_path / "bin.yaml"
        p.write_bytes(b"\xff\xfe\x00")
        with pytest.raises(DealFileError) as e:
            load_deal(p)
        assert "UTF-8" in str(e.value)
