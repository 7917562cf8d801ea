"""A game's card interpreter is complete once its ruleset loads: no module imported later adds
a check, an apply, an outcome, the options or the fields of a primitive. The tables are filled
by decorators as each game's modules are imported; a module the ruleset did not import would
leave cards half played, so a fresh interpreter loads the three rulesets alone, notes their
tables, then imports every module of the engine and compares."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = r"""
import importlib, json, pkgutil
from engine.registry import get_ruleset
games = [("killer-bunnies-quest", "engine.killer_bunnies_quest.cards", "QUEST"),
         ("kinderbunnies", "engine.kinderbunnies.cards", "KINDER"),
         ("killer-bunnies-odyssey", "engine.killer_bunnies_odyssey.cards", "ODYSSEY")]
TABLES = ("checks", "applies", "outcomes", "choices", "fields", "refined", "vetting")
found = {}
for slug, module, name in games:
    get_ruleset(slug)
    interp = getattr(importlib.import_module(module), name)
    found[slug] = (interp, {t: sorted(k.__name__ for k in getattr(interp, t)) for t in TABLES})
import engine
for m in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(m.name)
print(json.dumps({slug: {t: sorted(set(k.__name__ for k in getattr(interp, t)) - set(before[t]))
                         for t in TABLES} | {"sizes": {t: len(before[t]) for t in TABLES}}
                  for slug, (interp, before) in found.items()}))
"""


def _probe() -> dict[str, dict[str, object]]:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, object]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_game_s_card_tables_are_complete_once_its_ruleset_loads() -> None:
    for slug, tables in _probe().items():
        added = {t: v for t, v in tables.items() if t != "sizes" and v}
        assert not added, f"{slug}: importing more of the engine added {added}"
        sizes = tables["sizes"]
        assert isinstance(sizes, dict) and sizes["checks"] and sizes["applies"], slug  # not empty
