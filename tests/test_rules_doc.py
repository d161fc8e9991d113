"""docs/RULES.md is the rules document the code cites: every section a
docstring, test or doc cites exists, the worked example's numbers are the
scorer's, and the README links nothing outside the repository."""
import re
from pathlib import Path

import pytest

from dummy_spades.solver.scoring import score_hand

ROOT = Path(__file__).resolve().parent.parent
RULES = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
HEADINGS = {m.group(1).strip() for m in re.finditer(r"^#+ (.+)$", RULES, re.M)}
SOURCES = sorted(p for folder in ("solver", "cli", "tests", "docs", "hands")
                 for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".pyx", ".md", ".yaml")
                 and p != Path(__file__).resolve())


def citations():
    """(file, section) for every ``RULES.md "Section"`` (and ``"A", "B"``) in the sources."""
    out = []
    for path in SOURCES + [ROOT / "README.md"]:
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8"))
        for m in re.finditer(r'RULES\.md(?:\]\([^)]*\))?\s*\(?((?:"[^"]+"(?:,| and| or)?\s*)+)', text):
            out += [(path.relative_to(ROOT).as_posix(), s) for s in re.findall(r'"([^"]+)"', m.group(1))]
    return out


CITED = citations()


def test_the_code_cites_the_rules():
    files = {f for f, _ in CITED}
    for module in ("solver/auction.py", "solver/scoring.py", "solver/rules.py", "solver/seating.py"):
        assert module in files


@pytest.mark.parametrize("where, section", CITED, ids=[f"{f}:{s}" for f, s in CITED])
def test_cited_section_exists(where, section):
    assert section in HEADINGS, f"{where} cites a section docs/RULES.md does not have"


def test_no_reference_to_a_rules_file_outside_the_repository():
    for path in SOURCES + [ROOT / "README.md"]:
        assert "../shared/" not in path.read_text(encoding="utf-8"), path


def test_readme_links_stay_in_the_repository():
    targets = re.findall(r"\]\(([^)\s]+)\)", README) + re.findall(r"`(\.\./[^`]*)`", README)
    assert targets
    for target in targets:
        assert not re.match(r"[a-z]+:", target), target          # no URL
        path = (ROOT / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), target


def test_worked_example_table_is_the_scorers():
    """Each row of the worked example: defenders' tricks, then the 5-bidder's,
    the 6-bidder's and the declarer's points."""
    section = RULES.split("### Worked example", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in section.splitlines() if re.match(r"\| \d+ \|", r)]
    assert len(rows) == 2
    bids = {"Alice": 5, "Bob": 6, "Carol": 7}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        defenders = int(cells[0])
        assert int(cells[1]) == 13 - defenders
        got = score_hand(bids, "Carol", 13 - defenders)
        for cell, player in zip(cells[2:], ("Alice", "Bob", "Carol")):
            points = int(re.search(r"[+-]\d+", cell).group(0))
            bags = re.search(r"(\d+) bags?", cell)
            assert points == got[player].points, (row, player)
            assert (int(bags.group(1)) if bags else 0) == got[player].bags, (row, player)
            assert ("made" in cell) == got[player].made


def test_the_test_map_names_real_sections():
    architecture = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    tests = architecture.split("## Tests", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r'"([^"]+)"', re.sub(r"\s+", " ", tests))
    assert len(named) >= 8
    assert set(named) <= HEADINGS, set(named) - HEADINGS
