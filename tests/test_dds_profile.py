"""benches/dds_profile.py: the work counts of our engine against DDS's
(docs/BENCHMARKS.md, "Where the instructions go, against DDS")."""
from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

try:
    import dummy_spades.solver.engine  # noqa: F401
    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - depends on the build
    HAVE_ENGINE = False

try:
    import endplay  # noqa: F401
    HAVE_DDS = True
except ImportError:  # pragma: no cover - an optional test dependency
    HAVE_DDS = False

pytestmark = pytest.mark.skipif(not HAVE_ENGINE, reason="compiled engine not built")


def load_script():
    if str(ROOT / "benches") not in sys.path:
        sys.path.append(str(ROOT / "benches"))       # the script imports benches/_util
    spec = importlib.util.spec_from_file_location("dds_profile", ROOT / "benches" / "dds_profile.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_solve_ours_counts_the_trick_starts_of_max_tricks(capsys):
    script = load_script()
    from _util import random_deals, side_of
    from dummy_spades.solver import _engine
    from dummy_spades.solver.position import Position

    assert script.main(["solve", "ours", "--deals", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    core = _engine.Core(16.0)
    tricks = starts = 0
    for hands in random_deals(3, 2):
        core.clear()
        tricks += core.max_tricks(Position(hands, 3, breaking=False), side_of(3), side_of(3), -1)
        starts += core.trick_nodes
    assert out.strip() == f"ours: 3 deals, tricks {tricks}, trick starts {starts}"


@pytest.mark.skipif(not HAVE_DDS, reason="endplay (DDS) not installed")
def test_solve_dds_gives_the_same_tricks(capsys):
    script = load_script()
    script.main(["solve", "ours", "--deals", "3"])
    script.main(["solve", "dds", "--deals", "3"])
    ours, dds = (re.search(r"tricks (\d+),", line).group(1) for line in capsys.readouterr().out.splitlines())
    assert ours == dds


@pytest.mark.skipif(not HAVE_DDS, reason="endplay (DDS) not installed")
def test_sizes_groups_the_deals_and_tests_around_the_value(capsys):
    assert load_script().main(["sizes", "--deals", "10", "--tests", "1"]) == 0
    out = capsys.readouterr().out
    fifths = re.findall(r"^  (\d): +(\d+) / +(\d+) ", out, re.M)
    assert [f[0] for f in fifths] == ["1", "2", "3", "4", "5"]
    means = [int(f[1]) for f in fifths]
    assert means == sorted(means)                     # easiest first, by DDS's count
    tests = re.findall(r"^  #(\d+) +value +(\d+) +>= +(\d+):", out, re.M)
    assert len(tests) == 2                            # the easiest fifth of 10 deals, every one
    assert all(v == t for _, v, t in tests)


def test_bad_counts_are_usage_errors():
    with pytest.raises(SystemExit) as exc:
        load_script().main(["sizes", "--tests", "0"])
    assert exc.value.code == 2
