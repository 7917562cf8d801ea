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
