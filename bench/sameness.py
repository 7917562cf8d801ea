"""Sameness digest: what warren judges and plays, written down so a change can be proved
to change none of it.

``python -m bench.sameness write FILE`` writes, as JSON:

- ``check``: the ``warren check --json`` line of every shipped fixture, whole (every key);
- ``simulate``: for every ruleset and player count, the SHA-256 of the sealed lines of
  simulated games at fixed seeds (byte-identical simulation);
- ``fold``: for the same games, the SHA-256 of every event's effects and of the state after
  it, encoded with the ruleset's typed codec (the fold's effects and states);
- ``views``: for the same games, the SHA-256 of every perspective's view after every event,
  as ``--json`` writes it (keys in their order);
- ``words``: for the same games, the SHA-256 of what a person reads: every event as each
  perspective saw it, what changed in each perspective's view, every effect's facts, the
  position as ``warren replay`` draws it for each perspective, and the ending.

``python -m bench.sameness compare FILE`` rebuilds the digest with the code at hand and
names every key that differs; exit code 1 if any does. ``tests/test_sameness.py`` compares
against ``tests/sameness.json``, which is rewritten (and the reason given in the commit)
only when a change of behaviour is meant.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from engine.registry import get_ruleset
from engine.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
GAMES = 6
SEED = 20261202
TABLES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("bunnies", {}),
    ("trust-no-bunny", {}),
    ("killer-bunnies-quest", {}),
    ("kinderbunnies", {"level": "beginner"}),
    ("kinderbunnies", {"level": "advanced"}),
    ("kinderbunnies", {"level": "really-advanced"}),
    ("killer-bunnies-odyssey", {}),
)
"""warren's own games, and KinderBunnies at each of its levels."""


def check_lines(root: Path = ROOT) -> dict[str, Any]:
    from logstore.store.checking import check_files, result_to_json

    files = sorted((root / "fixtures").rglob("*.jsonl"))
    out: dict[str, Any] = {}
    for result, _end in check_files(files):
        verdict = json.loads(result_to_json(result))
        path = Path(verdict.pop("path"))
        out[path.relative_to(root).as_posix()] = verdict
    return out


def _plain(value: object) -> Any:
    return msgspec.to_builtins(value, str_keys=True, order="deterministic")


PARTS = ("check", "simulate", "fold", "views", "words")


def _digests(slug: str, players: int, options: dict[str, Any]) -> dict[str, str]:
    ruleset = get_ruleset(slug)
    sums = {part: hashlib.sha256() for part in PARTS[1:]}
    encoder = msgspec.json.Encoder(order="deterministic")

    def said(part: str, value: object) -> None:
        # Sets sorted, keys as text: the digest must not depend on the hash seed.
        sums[part].update(encoder.encode(_plain(value)))

    for game in simulate(ruleset, GAMES, SEED, players=players, options=options):
        for line in game.lines():
            sums["simulate"].update(line)
            sums["simulate"].update(b"\n")
        rules = ruleset.for_game(game.header)
        codec = rules.codec
        names = [f"P{seat}" for seat in range(players)]
        perspectives: list[Any] = ["referee", "spectator", *range(players)]
        state = rules.setup(game.header)
        seen = [rules.view(state, p) for p in perspectives]
        for event in game.events:
            said("words", [rules.describe(event, names, p, before=state) for p in perspectives])
            effects = rules.apply(state, event)
            said("fold", list(effects))
            said("fold", codec.record(state))
            now = [rules.view(state, p) for p in perspectives]
            # as --json writes them, keys in their order (a view holds no set)
            sums["views"].update(msgspec.json.encode(now))
            said("words", [rules.describe_changes(a, b, names) for a, b in zip(seen, now, strict=True)])
            said("words", [rules.describe_fact(k, v, names) for e in effects for k, v in e.data.items()])
            said("words", [rules.render(view, names) for view in now])
            seen = now
        outcome = rules.outcome(state)
        if outcome is not None:
            said("words", rules.describe_outcome(outcome, names))
    return {part: h.hexdigest() for part, h in sums.items()}


def digest(root: Path = ROOT) -> dict[str, Any]:
    out: dict[str, Any] = {"check": check_lines(root), **{part: {} for part in PARTS[1:]}}
    for slug, options in TABLES:
        ruleset = get_ruleset(slug)
        for players in sorted({ruleset.min_players, max(ruleset.min_players, min(ruleset.max_players, 4))}):
            level = "".join(f"/{v}" for v in options.values())
            key = f"{slug}{level}/{players}"
            for part, value in _digests(slug, players, options).items():
                out[part][key] = value
    return out


def differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for part in PARTS:
        a, b = old.get(part, {}), new.get(part, {})
        for key in sorted(set(a) | set(b)):
            if key not in b:
                out.append(f"{part} {key}: gone")
            elif key not in a:
                out.append(f"{part} {key}: new")
            elif a[key] != b[key]:
                if isinstance(a[key], dict):
                    keys = sorted(k for k in set(a[key]) | set(b[key]) if a[key].get(k) != b[key].get(k))
                    out.append(f"{part} {key}: differs in {', '.join(keys)}")
                else:
                    out.append(f"{part} {key}: differs")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sameness", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["write", "compare"])
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    new = digest()
    if args.mode == "write":
        args.file.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {args.file}: {len(new['check'])} fixtures, {len(new['simulate'])} tables simulated")
        return 0
    diffs = differences(json.loads(args.file.read_text(encoding="utf-8")), new)
    for line in diffs:
        print(line)
    print("same" if not diffs else f"{len(diffs)} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
