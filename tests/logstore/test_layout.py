"""The package layout holds: dependencies point one way, the lazy store package stays
light, and warren runs as ``python -m logstore.cli`` from any working directory."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN = {
    # package: the packages it must never import. bench (benchmarks, floors) and tests
    # (scenario builders) stand above the product: nothing in it exists only for them.
    "engine": ("logstore", "dashboard", "bench", "tests"),
    "logstore.store": ("logstore.analytics", "logstore.cli", "dashboard", "bench", "tests"),
    "logstore.analytics": ("logstore.cli", "dashboard", "bench", "tests"),
    "logstore.cli": ("dashboard", "bench", "tests"),
    "logstore": ("dashboard", "bench", "tests"),
    "dashboard": ("logstore.cli", "bench", "tests"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_dependencies_point_one_way(package: str) -> None:
    folder = ROOT.joinpath(*package.split("."))
    wrong = []
    for path in sorted(folder.rglob("*.py")):
        for name in _imports(path):
            bad = next((b for b in FORBIDDEN[package] if _within(name, b)), None)
            if bad is not None:
                wrong.append(f"{_module_name(path)} imports {name}")
    assert not wrong, "; ".join(wrong)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """This interpreter on this checkout's packages, in another working directory."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, *args], cwd=cwd, env={**os.environ, "PYTHONPATH": path},
                          capture_output=True, text=True, check=False)


def _python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return _run(["-c", code], cwd)


def test_the_import_helper_does_not_load_the_store_module(tmp_path: Path) -> None:
    # The helper processes of a large import start for every import: they must not pay for
    # sqlite-utils (and the pandas it brings), which only the Store itself needs.
    done = _python("import sys, logstore.store.import_helper; "
                   "print(sorted(m for m in ('sqlite_utils', 'pandas', 'logstore.store.event_store') "
                   "if m in sys.modules))", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_store_package_names_the_store_lazily(tmp_path: Path) -> None:
    done = _python("import logstore.store as s; from logstore.store import Store, StaleSeq; "
                   "print(Store.__module__, StaleSeq.__module__, 'Store' in s.__all__)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["logstore.store.event_store", "logstore.store.errors", "True"]
    missing = _python("import logstore.store as s; s.Stor", tmp_path)
    assert "has no attribute 'Stor'" in missing.stderr


def test_python_m_logstore_cli_is_warren_from_any_folder(tmp_path: Path) -> None:
    done = _run(["-m", "logstore.cli", "stats", "--list"], tmp_path)
    assert done.returncode == 0, done.stderr
    # The canned stats are SQL files found beside their module, not in the working directory.
    assert "win_rate_by_seat" in done.stdout and "bunnies/going_out_bonus" in done.stdout
    usage = _run(["-m", "logstore.cli", "--help"], tmp_path)
    assert usage.stdout.startswith("Usage: warren ")


def test_warren_starts_without_the_analytics_libraries(tmp_path: Path) -> None:
    # `warren check` over a club's archive is one process, but a script calling warren per
    # file pays the start-up each time: the commands import DuckDB, pyarrow and sqlite-utils
    # only when they run.
    done = _python("import sys, logstore.cli; "
                   "print(sorted(m for m in ('duckdb', 'pyarrow', 'sqlite_utils') if m in sys.modules))",
                   tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# -- the engine's architecture: the contract, the games, the tools over them ---------------------
CONTRACT = ("engine.capabilities", "engine.codec", "engine.corrections", "engine.hidden", "engine.options",
            "engine.pending", "engine.record", "engine.registry", "engine.rules", "engine.ruleset",
            "engine.said", "engine.wording")
"""What a ruleset implements and builds on: the record format, rules and effects, the agenda,
options, the state codec, hidden cards, what a value holds (its type), words, the plugin
registry."""
KIT = "engine.killer"
"""The Killer Bunnies family kit: cards as data over one effect vocabulary."""
GAMES = ("engine.bunnies", "engine.trust_no_bunny", "engine.killer_bunnies_quest", "engine.kinderbunnies",
         "engine.killer_bunnies_odyssey")
TOOLS = ("engine.analysis", "engine.bots", "engine.dispute", "engine.intervals", "engine.reader",
         "engine.redact", "engine.replay", "engine.simulate", "engine.suspicion")
"""What works over any ruleset (replay, simulation, redaction, disputes, suspicion, reading
records, the analysis of a game and its intervals): above the games, never imported by them."""


def _engine_modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / "engine").rglob("*.py")):
        found[_module_name(path)] = path
    return found


def test_every_engine_module_is_contract_kit_game_or_tool() -> None:
    groups = (*CONTRACT, KIT, *GAMES, *TOOLS)
    stray = [m for m in _engine_modules() if m != "engine" and not any(_within(m, g) for g in groups)]
    assert not stray, f"modules outside the contract, the kit, the games and the tools: {stray}"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_builds_on_the_contract_and_the_kit_only(game: str) -> None:
    family = game in ("engine.killer_bunnies_quest", "engine.kinderbunnies", "engine.killer_bunnies_odyssey")
    allowed = (*CONTRACT, game, *((KIT,) if family else ()))
    wrong = []
    for name, path in _engine_modules().items():
        if not _within(name, game):
            continue
        for imported in _imports(path):
            if _within(imported, "engine") and imported != "engine" and \
                    not any(_within(imported, a) for a in allowed):
                wrong.append(f"{name} imports {imported}")
    assert not wrong, "; ".join(wrong)


def test_the_kit_and_the_contract_import_no_game_and_no_tool() -> None:
    wrong = []
    for name, path in _engine_modules().items():
        if not (_within(name, KIT) or any(_within(name, c) for c in CONTRACT)):
            continue
        for imported in _imports(path):
            if any(_within(imported, g) for g in (*GAMES, *TOOLS)):
                wrong.append(f"{name} imports {imported}")
    assert not wrong, "; ".join(wrong)


def _runtime_imports(path: Path) -> set[str]:
    """Every module ``path`` imports when it runs (inside functions too), leaving out what it
    imports only for type checking."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test) for b in node.body for n in ast.walk(b)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{a.name}" for a in node.names)
            found.add(node.module)
    return found


def test_no_import_circle_anywhere() -> None:
    """Modules of engine, logstore and dashboard, each an import of what it names: a submodule
    where ``from package import submodule``, else the package. No strongly connected group."""
    modules = {}
    for top in ("engine", "logstore", "dashboard"):
        for path in sorted((ROOT / top).rglob("*.py")):
            modules[_module_name(path)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for imported in _runtime_imports(path):
            if imported in modules:
                edges.add(imported)
        # ``from pkg import sub`` names pkg.sub; the package itself only when a name of it is used
        for imported in list(edges):
            if any(other != imported and other.startswith(imported + ".") for other in edges):
                edges.discard(imported)
        edges.discard(name)
        graph[name] = edges
    # Tarjan's strongly connected components, iteratively
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    circles = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    assert not circles, f"import circles: {circles}"
