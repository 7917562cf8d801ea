"""Every module, class or function a docstring names by its dotted path (``engine.replay``,
``logstore.store.branches``, ``engine.wording.seats_named``) is there: docstrings drifted
when modules moved (``core``, ``logstore.branches``)."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOTTED = re.compile(r"\b((?:engine|logstore|dashboard)(?:\.[A-Za-z_]\w*)+)")


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef))]
    return [doc for n in nodes if (doc := ast.get_docstring(n))]


def found(ref: str) -> bool:
    """Does ``ref`` name a module, or an attribute of one (a class, a function, a constant)?
    The dashboard's pages run when imported: a reference to one is checked as a file."""
    parts = ref.split(".")
    for k in range(len(parts), 0, -1):
        name = ".".join(parts[:k])
        if name.startswith("dashboard.screens"):
            return (ROOT / (name.replace(".", "/") + ".py")).is_file() and k == len(parts)
        try:
            obj: object = importlib.import_module(name)
        except ImportError:
            continue
        for attr in parts[k:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_dotted_path_a_docstring_names_is_there() -> None:
    missing = sorted({(str(p.relative_to(ROOT)), ref)
                      for top in ("engine", "logstore", "dashboard")
                      for p in (ROOT / top).rglob("*.py")
                      for doc in _docstrings(p)
                      for ref in DOTTED.findall(doc) if not found(ref)})
    assert not missing, missing


FILES = re.compile(r"\b((?:engine|logstore|dashboard|bench|tests|fixtures)/[\w./-]+"
                   r"\.(?:py|toml|md|json|sql))\b")


def test_every_dotted_path_and_file_the_docs_name_is_there() -> None:
    texts = {page.name: page.read_text(encoding="utf-8")
             for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]}
    missing = sorted({(name, ref) for name, text in texts.items() for ref in DOTTED.findall(text)
                      if not found(ref)})
    missing += sorted({(name, path) for name, text in texts.items() for path in FILES.findall(text)
                       if not (ROOT / path).exists()})
    assert not missing, missing


def test_a_path_that_is_not_there_is_told() -> None:
    assert found("engine.wording.seats_named") and found("logstore.store.branches")
    assert not found("logstore.branches") and not found("engine.killer_bunnies_quest.core")
