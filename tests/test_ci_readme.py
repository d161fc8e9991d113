"""The README's promises: it opens with the two set-up commands, .ci/run runs
exactly the second one, then the long checks it leaves out and the type checker (and
fails when any fails), the documented examples work."""
import re
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.dealfile import loads_deal

import conftest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
FORMAT = (ROOT / "docs" / "FORMAT.md").read_text(encoding="utf-8")


def blocks(text, lang):
    return re.findall(rf"```{lang}\n(.*?)```", text, re.S)


def setup_commands():
    sh = blocks(README, "sh")
    return [sh[0].strip(), sh[1].strip()]


def test_readme_opens_with_two_setup_commands():
    first_block = README.index("```")
    assert README.index("```sh") == first_block
    main_cmd, test_cmd = setup_commands()
    assert "\n" not in main_cmd and "\n" not in test_cmd
    assert "pip install ." in main_cmd and "dummy-spades" in main_cmd
    assert "pip install -e '.[test]'" in test_cmd and "pytest" in test_cmd


def test_first_command_shows_a_bundled_deal():
    main_cmd, _ = setup_commands()
    last = shlex.split(main_cmd.split("&&")[-1])
    assert last[0].endswith("dummy-spades")
    assert (ROOT / last[-1]).is_file()
    result = CliRunner().invoke(app, last[1:-1] + [str(ROOT / last[-1])])
    assert result.exit_code == 0, result.stderr


def test_ci_runs_exactly_the_test_command_then_the_slow_checks_and_the_type_checker():
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [ln.strip() for ln in script.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    assert "set -euo pipefail" in lines  # a failing step fails the job
    assert lines[-3:] == [setup_commands()[1], ".venv/bin/python -m pytest -m slow",
                          ".venv/bin/python -m mypy"]
    assert (ROOT / ".ci" / "run").stat().st_mode & 0o111  # executable


def test_the_work_units_name_test_files(pytestconfig):
    """The README's test command runs on the workers by conftest's units of
    work (--dist loadscope): the modules it puts together share a unit, the
    others keep pytest-xdist's (a module, a class), and every module it names exists."""
    assert "--dist loadscope" in " ".join(pytestconfig.getini("addopts"))
    cls = conftest.scheduling_class()
    scheduling = cls.__new__(cls)  # the units depend on the node ids alone
    shared = {scheduling._split_scope(f"{module}::test_a[x]") for module in conftest.UNIT_OF_MODULE}
    assert shared == {conftest.BUNDLED_DEAL_UNIT}
    assert scheduling._split_scope("tests/test_cards.py::TestCard::test_a") == "tests/test_cards.py::TestCard"
    assert scheduling._split_scope("tests/test_duck.py::test_a[x]") == "tests/test_duck.py"
    assert all((ROOT / module).is_file() for module in conftest.UNIT_OF_MODULE)
    for unit in conftest.LONG_UNITS:
        assert unit == conftest.BUNDLED_DEAL_UNIT or (ROOT / unit).is_file(), unit


def test_ci_requires_the_compiled_engine():
    """CI fails when the engine is not built instead of skipping its tests."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {conftest.REQUIRE_ENGINE}=1" in [ln.strip() for ln in script.splitlines()]


def test_ci_installs_and_requires_the_browser():
    """CI installs Chromium and its driver and fails the browser tests
    instead of skipping them when no browser can be driven."""
    import test_html_browser
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [ln.strip() for ln in script.splitlines()]
    assert f"export {test_html_browser.REQUIRE_BROWSER}=1" in lines
    install = [ln for ln in lines if "apt-get install" in ln]
    assert install and {"chromium", "chromium-driver"} <= set(install[0].split())
    assert lines.index(install[0]) < lines.index(setup_commands()[1])


def test_a_required_engine_that_cannot_be_imported_stops_the_run(monkeypatch):
    monkeypatch.setitem(sys.modules, conftest.ENGINE_MODULE, None)  # its import fails
    monkeypatch.delenv(conftest.REQUIRE_ENGINE, raising=False)
    conftest.check_engine_built()  # not required: the engine tests skip themselves
    monkeypatch.setenv(conftest.REQUIRE_ENGINE, "1")
    with pytest.raises(pytest.UsageError, match="cannot be imported"):
        conftest.check_engine_built()


@pytest.mark.parametrize("doc, text", [("README.md", README), ("docs/FORMAT.md", FORMAT)])
def test_yaml_examples_load(doc, text):
    examples = blocks(text, "yaml")
    assert examples
    for example in examples:
        assert loads_deal(example, doc).declarer is not None


def usage_examples():
    """The command lines of the README's "Use" section, without the placeholder
    PBN one; a pipeline (``a | b``) is one example, its commands in order."""
    use = README.split("## Use", 1)[1]
    out = []
    for line in blocks(use, "sh")[0].splitlines():
        words = shlex.split(line, comments=True)
        if ">" in words:
            words = words[:words.index(">")]
        if words and "N:..." not in words:
            pipeline, command = [], []
            for word in words + ["|"]:
                if word == "|":
                    pipeline.append(command)
                    command = []
                else:
                    command.append(word)
            out.append(pipeline)
    return out


PIPELINES = usage_examples()
USAGE = [command for pipeline in PIPELINES for command in pipeline]

# Cheaper settings for the slow examples: the test checks that each documented
# command line runs, not the numbers of a long simulation.
CHEAPER = {"--samples": "6", "--time-limit": "0", "--count": "12"}
# The same where a command's default is the long run.
CHEAPER_DEFAULTS = {"bid": ("--samples", "6"), "duck": ("--time-limit", "0"),
                    "review": ("--samples", "6")}


def test_the_usage_section_shows_every_command():
    assert len(USAGE) >= 10
    assert all(args[0] == "dummy-spades" for args in USAGE)
    commands = {args[1] for args in USAGE}
    assert {"show", "score", "solve", "analyse", "batch", "duck", "bid", "convert"} <= commands


@pytest.mark.parametrize("pipeline", PIPELINES, ids=[" ".join(p[0][1:3]) for p in PIPELINES])
def test_usage_example_runs(pipeline, tmp_path):
    given = None   # a pipeline's command reads the one before it
    for args in pipeline:
        args = [str(ROOT / a) if a.startswith(("hands/", "benches/")) else a for a in args[1:]]
        pages = [tmp_path / args[i + 1] for i, a in enumerate(args[:-1]) if a == "--html"]
        args = [str(tmp_path / a) if i and args[i - 1] == "--html" else a
                for i, a in enumerate(args)]
        for i, a in enumerate(args[:-1]):
            if a in CHEAPER:
                args[i + 1] = CHEAPER[a]
        option = CHEAPER_DEFAULTS.get(args[0])
        if args[0] == "review" and "--single-dummy" not in args:
            option = None                 # the double-dummy review has no samples
        if option and option[0] not in args:
            args += option
        result = CliRunner().invoke(app, args, input=given)
        assert result.exit_code == 0, (args, result.stderr)
        assert all(p.read_text(encoding="utf-8").startswith("<!DOCTYPE html>") for p in pages)
        given = result.stdout
