"""A folder of records of every kind the readers tell apart, for the tests that compare
one process with helper processes: canonical and not, sealed, unsealed, format 1, broken,
cut, with a key given twice, not JSON at all, and a second copy of a game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.bunnies import RULESET as BUNNIES
from engine.record import event_to_dict, header_to_dict, seal, unsealed
from engine.simulate import simulate_one


def _game(seed: int, i: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game = simulate_one(BUNNIES, seed, i)
    return header_to_dict(game.header), [event_to_dict(e) for e in game.events]


def records(seed: int = 9) -> dict[str, bytes]:
    """File name -> bytes; each a different game but the last two, which reuse the first's id."""
    out: dict[str, bytes] = {}
    header, events = _game(seed, 0)
    out["a-canonical.jsonl"] = b"".join(seal(header, events))
    header, events = _game(seed, 1)
    # The same chain, not canonical (spaces after the separators): read line by line.
    spaced = [json.dumps(json.loads(line)).encode() + b"\n" for line in seal(header, events)]
    out["b-spaced.jsonl"] = b"".join(spaced)
    header, events = _game(seed, 2)
    out["c-unsealed.jsonl"] = b"".join(unsealed(header, events))
    header, events = _game(seed, 3)
    out["d-format-1.jsonl"] = b"".join(seal({**header, "warren": 1}, events))
    header, events = _game(seed, 4)
    lines = seal(header, events)
    lines[5] = lines[5].replace(b'"seq":', b'"seq":5,"seq":', 1)  # a key given twice
    out["e-key-twice.jsonl"] = b"".join(lines)
    header, events = _game(seed, 5)
    lines = seal(header, events)
    edited = json.loads(lines[4])
    edited["actor"] = 1 - edited["actor"] if edited["actor"] in (0, 1) else 0
    lines[4] = json.dumps(edited, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    out["f-broken-chain.jsonl"] = b"".join(lines)
    header, events = _game(seed, 6)
    out["g-cut.jsonl"] = b"".join(seal(header, events)[:-1])  # its closing seal line lost
    out["h-not-json.jsonl"] = b"{not json\n"
    header, events = _game(seed, 7)
    out["i-crlf.jsonl"] = b"".join(line.replace(b"\n", b"\r\n") for line in seal(header, events))
    out["j-copy-of-a.jsonl"] = out["a-canonical.jsonl"]
    header, events = _game(seed, 0)
    out["k-another-game-under-a-s-id.jsonl"] = b"".join(seal(header, events[:-5]))
    return out


def write(folder: Path, copies: int = 1) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for k in range(copies):
        for name, data in records().items():
            path = folder / (name if copies == 1 else f"{k:02d}-{name}")
            path.write_bytes(data)
            paths.append(path)
    return sorted(paths)
