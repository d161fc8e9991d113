"""docs/ARCHITECTURE.md: its test map names every test file, and every file it
names exists."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
MAPPED = set(re.findall(r"^\| `(tests/test_\w+\.py)` \|", ARCHITECTURE, re.M))


def test_the_test_map_names_every_test_file():
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_*.py")}
    assert files - MAPPED == set(), "test files missing from docs/ARCHITECTURE.md 'Tests'"


def test_every_file_the_architecture_names_exists():
    named = set(re.findall(r"`((?:solver|cli|tests|docs|benches|tools)/[\w./]+)`", ARCHITECTURE))
    assert named
    missing = {n for n in named if not (ROOT / n.rstrip("/")).exists()}
    assert missing == set()
