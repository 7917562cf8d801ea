"""Warren judges and plays exactly as recorded in tests/sameness.json (bench/sameness.py):
every fixture's check verdict, key by key, simulation byte for byte at fixed seeds, the
effects and states of every simulated event, every perspective's view after it (the JSON of
``--json``) and every sentence a person reads of it. A change of behaviour that is meant rewrites
the file (``python -m bench.sameness write tests/sameness.json``) and says why."""

import json
from pathlib import Path

from bench.sameness import differences, digest

HERE = Path(__file__).parent


def test_warren_judges_and_plays_as_recorded() -> None:
    recorded = json.loads((HERE / "sameness.json").read_text(encoding="utf-8"))
    assert differences(recorded, digest()) == []


def test_a_changed_verdict_is_named_by_its_key() -> None:
    old = {"check": {"f.jsonl": {"ok": True, "events": 3}}, "simulate": {"a/2": "x"}, "fold": {}}
    new = {"check": {"f.jsonl": {"ok": False, "events": 3}}, "simulate": {"a/2": "y", "b/2": "z"},
           "fold": {}}
    assert differences(old, new) == ["check f.jsonl: differs in ok", "simulate a/2: differs",
                                     "simulate b/2: new"]
