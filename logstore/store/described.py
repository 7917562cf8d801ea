"""What each table and view of a store holds, column by column, in words: written into
docs/analytics.md (``python -m logstore.store.described``) and given to Datasette as its
metadata (``warren metadata``), from this one table. A test holds every column of a fresh
store to a meaning here, and the document to what this module writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from logstore.generated import rewrite, write_between

Described = dict[str, tuple[str, dict[str, str]]]

READABLE: Described = {
    "results": ("one row per game, to read: players and winners by name", {
        "game_id": "the game", "ruleset": "its ruleset", "created": "when it was played (RFC 3339)",
        "source": "simulated (bots), recorded (at a table) or imported",
        "n_players": "seats in the game", "players": "the players' names in seat order",
        "events": "events recorded",
        "status": "in play, over, or illegal at event N (the rule it breaks)",
        "winners": "the winners' names, once the game is over",
        "scores": "each seat's score where kept (JSON)",
        "chain": "sealed (every line hashed in a chain) or unsealed",
        "branch_of": "for a what-if branch: the game it leaves",
    }),
    "game_events": ("one row per record line, to read: the game's ruleset and the acting player's "
                    "name", {
        "game_id": "the game", "ruleset": "its ruleset", "seq": "the event's number (0 = the header)",
        "type": "the event's type (deal, draw, lay, play, vote...)",
        "actor": "the seat that acted (NULL: the table, chance)", "player": "the acting player's name",
        "line": "the record line as JSON, without its line end",
    }),
}
"""The views made for people: fast for a filter on the ruleset, the game, the type or the
actor (logstore.store.lines.LINES_OF), names instead of seat numbers."""

STORE: Described = {
    "games": ("one row per game: its header's facts and the verdict of its last replay", {
        "game_id": "the game", "ruleset": "its ruleset", "source": "simulated, recorded or imported",
        "created": "when it was played (RFC 3339)", "players": "the players' names in seat order (JSON)",
        "options": "the header's options (JSON)", "chain": "sealed or unsealed",
        "parent_game": "for a what-if branch: the game it leaves",
        "parent_seq": "and the last event it keeps",
        "imported_at": "when it was stored", "n_events": "events stored", "ok": "1 when every event is legal",
        "violation_seq": "the first illegal event", "violation_rule": "the rule it breaks",
        "violation_message": "why, in words", "over": "1 once the game is over",
        "winners": "the winning seats (JSON)", "scores": "each seat's score where kept (JSON)",
    }),
    "events": ("one row per record line, byte for byte as it came (the header is seq 0)", {
        "game_id": "the game", "seq": "the line's number (0 = the header)", "type": "the event's type",
        "actor": "the seat that acted (NULL: the table, chance)",
        "line": "the line with its line end, exactly as in the record",
    }),
    "event_lines": ("where the lines are kept (the events view reads them): each split around its hash", {
        "id": "the game's number times 2^24 plus the seq", "type": "the event's type",
        "actor": "the seat that acted", "head": "the line before its hash",
        "hash": "the hash as 32 bytes (NULL: the line is kept whole in head)",
        "tail": "the line after its hash",
    }),
    "game_keys": ("each game's number in this store, in the order games came", {
        "key": "the number", "game_id": "the game",
    }),
    "seals": ("the seal lines of imported records, each after the event it follows", {
        "game_id": "the game", "seq": "the events before it", "line": "the seal line",
    }),
    "proofs": ("each game's signature under the warren key (warren verify checks it)", {
        "key": "the game's number", "signer": "which key signed (a fingerprint, not the key)",
        "digest": "HMAC-SHA256 over the game's lines and row",
    }),
    "store_proof": ("the store's signature over how many games it holds", {
        "id": "always 1", "games": "games stored", "signer": "which key signed", "digest": "the signature",
    }),
    "snapshots": ("engine states every 256 events, derived (a replay starts from the nearest)", {
        "game_id": "the game", "seq": "the event it follows", "layout": "the state's codec fingerprint",
        "state": "the state, MessagePack", "after": "sha256 of the line it follows",
        "digest": "HMAC-SHA256 under the warren key",
    }),
    "plays": ("results-only plays read from a play logger (warren plays import): no record behind them", {
        "play_id": "bgstats: and the logger's id of the play", "ruleset": "its ruleset",
        "played": "when (as the logger gave it)", "players": "the players' names in seat order (JSON)",
        "winners": "the winning seats (JSON)", "scores": "each seat's score, where kept (JSON)",
        "roles": "each seat's role, where kept (JSON)", "start_seat": "the seat that started",
        "minutes": "how long it took, where kept", "imported_at": "when it was read",
    }),
    "changes": ("how many changes the store has seen (derived data reads it)", {
        "id": "always 1", "count": "changes counted", "store": "this store's own random id",
    }),
}
"""warren's own tables, for who reads them as they are."""


def markdown() -> str:
    """The store's tables and views, as docs/analytics.md shows them."""
    out: list[str] = []
    for title, described in (("Views to read", READABLE), ("warren's own tables", STORE)):
        out += [f"#### {title}", ""]
        for name, (about, columns) in described.items():
            out += [f"`{name}`: {about}.", "", "| column | meaning |", "| --- | --- |"]
            out += [f"| `{c}` | {m} |" for c, m in columns.items()]
            out.append("")
    return "\n".join(out)


def datasette(database: str) -> dict[str, Any]:
    """Datasette's metadata for a store served under the name ``database`` (its file's stem):
    a description of every table and view, and of each column."""
    tables = {name: {"description": about, "columns": dict(columns)}
              for name, (about, columns) in {**READABLE, **STORE}.items()}
    return {"title": "warren", "description": "Games of the bunny card-game family, replayed and judged "
            "by warren: read results and game_events first.",
            "databases": {database: {"tables": tables}}}


DOC_MARKERS = ("<!-- store tables: python -m logstore.store.described -->\n", "<!-- end store tables -->")


def write_into(text: str) -> str:
    """``text`` (docs/analytics.md) with the part between the markers written anew."""
    return write_between(text, DOC_MARKERS, markdown())


if __name__ == "__main__":  # pragma: no cover - run from a checkout to rewrite the document
    doc = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"
    rewrite(doc, DOC_MARKERS, markdown())
    sys.stdout.write(f"wrote the store's tables into {doc}\n")
