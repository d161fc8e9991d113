"""docs/ARCHITECTURE.md holds: its test map names every test file and every
file it names exists; every module of solver/ and cli/ is on a floor and
imports only from its own floor and the floors below; the analyses and the
commands reach a solver only through the contract; a command imports no
other command's module; no command-line option is declared twice; no
module is longer than MAX_MODULE_LINES; the import graph has no circle;
``--no-spade-breaking`` becomes rules in one place."""
import ast
import functools
import re
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
MAPPED = set(re.findall(r"^\| `(tests/test_\w+\.py)` \|", ARCHITECTURE, re.M))
SOURCES = sorted([*ROOT.glob("solver/**/*.py"), *ROOT.glob("solver/*.pyx"), *ROOT.glob("cli/**/*.py")])


def test_the_test_map_names_every_test_file():
    files = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_*.py")}
    assert files - MAPPED == set(), "test files missing from docs/ARCHITECTURE.md 'Tests'"


def test_every_file_the_architecture_names_exists():
    named = set(re.findall(r"`((?:solver|cli|tests|docs|benches|tools)/[\w./]+)`", ARCHITECTURE))
    assert named
    missing = {n for n in named if not (ROOT / n.rstrip("/")).exists()}
    assert missing == set()


# ------------------------------------------------------------------ the floors
def floors() -> List[Tuple[str, List[str]]]:
    """The floors table of docs/ARCHITECTURE.md, top floor first: (name, paths)."""
    section = ARCHITECTURE.split("## The floors", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| ([\w ]+) \| (.+?) \| .+ \|$", section, re.M)
    return [(name, re.findall(r"`((?:solver|cli)/[\w./]*)`", paths))
            for name, paths in rows if name not in ("floor", "---")]


FLOORS = floors()


def floor_of(path: str) -> Optional[int]:
    """The floor of a source file (index in FLOORS, 0 the top), or None."""
    found = [i for i, (_, paths) in enumerate(FLOORS) for p in paths
             if path == p or (p.endswith("/") and path.startswith(p))]
    return found[0] if found else None


def module_file(module: str) -> Optional[str]:
    """``dummy_spades.solver.x`` -> ``solver/x.py`` (a package's ``__init__.py``,
    a compiled module's ``.pyx``), or None for a name that is not a module."""
    base = ROOT.joinpath(*module.split(".")[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyx")):
        if candidate.exists():
            return candidate.relative_to(ROOT).as_posix()
    return None


@functools.lru_cache(maxsize=None)
def bound_names(rel: str) -> Set[str]:
    """The names a package's ``__init__.py`` imports from its modules or
    defines (none for a plain module; a module it imports whole is not one)."""
    if not rel.endswith("__init__.py"):
        return set()
    tree = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
    names = {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
             and n.module for a in n.names}     # ``from . import x`` binds a module
    return names | {n.name for n in tree.body
                    if isinstance(n, (ast.FunctionDef, ast.ClassDef))}


def imports(path: Path) -> Tuple[Optional[str], ...]:
    """The files of the package that ``path`` imports, lazily or not."""
    return _imports(path)


@functools.lru_cache(maxsize=None)
def _imports(path: Path) -> Tuple[Optional[str], ...]:
    return tuple(_walk_imports(path))


def _walk_imports(path: Path) -> Iterator[Optional[str]]:
    package = ["dummy_spades", *path.relative_to(ROOT).parent.parts]
    if path.suffix == ".pyx":
        return
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                module = ".".join(package[:len(package) - node.level + 1]
                                  + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("dummy_spades"):
                for alias in node.names:   # a name imported may be a module itself
                    source = module_file(module)
                    if source is not None and alias.name in bound_names(source):
                        yield source       # a name the package binds (it may shadow a module)
                    else:
                        yield module_file(f"{module}.{alias.name}") or source
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dummy_spades"):
                    yield module_file(alias.name)


def test_the_floors_table_is_read():
    names = [name for name, _ in FLOORS]
    assert names[0] == "commands" and "model" in names and all(paths for _, paths in FLOORS)


def test_every_module_is_on_one_floor():
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        assert floor_of(rel) is not None, f"{rel} is on no floor of docs/ARCHITECTURE.md"


def test_each_module_imports_only_its_floor_and_those_below():
    wrong = []
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        for target in imports(path):
            assert target is not None, f"{rel}: an import names no module"
            if floor_of(target) < floor_of(rel):
                wrong.append(f"{rel} ({FLOORS[floor_of(rel)][0]}) imports {target} "
                             f"({FLOORS[floor_of(target)][0]})")
    assert wrong == []


def test_the_floors_check_sees_a_wrong_import():
    """The check is not vacuous: the engines import the contract (below), and
    the backend the engines (below); the reverse would be caught."""
    engine = floor_of("solver/engine.py")
    assert "solver/contract.py" in set(imports(ROOT / "solver" / "engine.py"))
    assert floor_of("solver/contract.py") > engine > floor_of("solver/backend.py")


def test_analyses_and_commands_reach_a_solver_only_through_the_contract():
    """They take a contract.Solver and make one with backend.make_solver;
    no module above the backend imports an engine."""
    engines = {"solver/engine.py", "solver/reference.py", "solver/_engine.pyx"}
    above = [p for p in SOURCES if floor_of(p.relative_to(ROOT).as_posix()) < floor_of("solver/backend.py")]
    assert above and all(floor_of(e) is not None for e in engines)
    wrong = [f"{p.relative_to(ROOT).as_posix()} imports {t}" for p in above for t in imports(p)
             if t in engines]
    assert wrong == []


def analysis_package(rel: str) -> Optional[str]:
    """``solver/advise/summary.py`` -> ``solver/advise/`` for a module of an
    analysis package (a folder on the analyses floor), else None."""
    analyses = dict(FLOORS)["analyses"]
    return next((p for p in analyses if p.endswith("/") and rel.startswith(p)), None)


def test_an_analysis_reaches_another_analysis_package_only_through_its_init():
    analyses = floor_of("solver/advise/__init__.py")
    assert analyses is not None and analysis_package("solver/advise/simulate.py") == "solver/advise/"
    wrong = []
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        if floor_of(rel) != analyses:
            continue
        for target in imports(path):
            package = analysis_package(target)
            if package is not None and package != analysis_package(rel) \
                    and target != package + "__init__.py":
                wrong.append(f"{rel} imports {target}")
    assert wrong == []


def test_the_sampling_settings_are_checked_in_one_place():
    """Samples, seed, sampling method, exact limit, precision, time limit and
    node budget are the fields of simulation.Settings, checked there and
    nowhere else."""
    from dummy_spades.solver.simulation import Settings
    assert list(Settings.__dataclass_fields__) == [
        "samples", "seed", "sampling", "exact_limit", "precision", "time_limit", "node_budget"]
    checks = re.compile(r"^def check_(samples|seed|method|sampling|exact_limit|precision|"
                        r"time_limit|node_budget)\b", re.M)
    where = [p.relative_to(ROOT).as_posix() for p in SOURCES
             if checks.search(p.read_text(encoding="utf-8"))]
    assert where == ["solver/simulation/settings.py"]


# ------------------------------------------------------------------ the commands
SHARED = {"cli/__init__.py", "cli/common.py", "cli/options.py", "cli/render.py", "cli/page.py"}
WIRING = {"cli/app.py", "cli/_commands.py", "cli/__main__.py"}


def command_of(rel: str) -> str:
    """``cli/bid_report.py`` -> ``bid``; ``cli/explore/app.py`` -> ``explore``."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 else parts[1][:-3].removesuffix("_report")


def test_a_command_imports_no_other_commands_module():
    wrong = []
    for path in ROOT.glob("cli/**/*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in SHARED | WIRING:
            continue
        for target in imports(path):
            if target.startswith("cli/") and target not in SHARED and \
                    command_of(target) != command_of(rel):
                wrong.append(f"{rel} imports {target}")
    assert wrong == []


def declared_options(path: Path) -> Set[str]:
    """The option names (``--json``) of every ``typer.Option(...)`` in ``path``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "Option":
            names |= {a.value for a in node.args
                      if isinstance(a, ast.Constant) and str(a.value).startswith("--")}
    return names


def test_no_option_is_declared_twice():
    where: Dict[str, List[str]] = {}
    for path in ROOT.glob("cli/**/*.py"):
        for name in declared_options(path):
            where.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    assert "--json" in where and "--declarer" in where
    assert {name: files for name, files in where.items() if len(files) > 1} == {}


# ------------------------------------------------------------------ sizes
#: the longest a module of solver/ or cli/ may be, in lines (docs/ARCHITECTURE.md "Conventions")
MAX_MODULE_LINES = 500


def test_no_module_is_longer_than_the_limit():
    lines = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for p in SOURCES}
    assert lines and max(lines.values()) > MAX_MODULE_LINES // 2
    over = {rel: n for rel, n in lines.items() if n > MAX_MODULE_LINES}
    assert over == {}, "split these at their own seams (docs/ARCHITECTURE.md \"Size\")"


# ------------------------------------------------------------------ cycles
def import_cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Every circle of ``graph`` (file -> the files it imports): its strongly
    connected parts of two files or more, or a file that imports itself;
    each sorted, the list sorted (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    cycles: List[List[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(cycles)


def test_the_import_graph_has_no_circle():
    """No module of solver/ or cli/ imports, lazily or not (type-checking
    imports included), a module that imports it back, however far round."""
    graph = {p.relative_to(ROOT).as_posix(): {t for t in imports(p) if t is not None}
             for p in SOURCES}
    assert sum(len(targets) for targets in graph.values()) > len(graph)
    assert import_cycles(graph) == []


def test_the_circle_check_sees_a_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c"], ["e"]]
    assert import_cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


# ------------------------------------------------------------------ the spade-breaking option
def test_the_spade_breaking_option_becomes_rules_in_one_place():
    """Every command hands ``--no-spade-breaking`` to ``command_rules`` (or to
    ``load_for_analysis``, which asks it); only ``command_rules`` reads it."""
    handed = []
    for path in ROOT.glob("cli/**/*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            called = getattr(call.func, "id", getattr(call.func, "attr", ""))
            for arg in call.args:
                if isinstance(arg, ast.Name) and arg.id == "no_spade_breaking":
                    handed.append(called)
        readers = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                   and any(isinstance(n, (ast.IfExp, ast.If, ast.UnaryOp, ast.BoolOp))
                           and "no_spade_breaking" in ast.unparse(n) for n in ast.walk(f))}
        assert readers <= {"command_rules"}, f"{path}: {readers}"
    assert "command_rules" in handed and "load_for_analysis" in handed
    assert set(handed) == {"command_rules", "load_for_analysis"}
