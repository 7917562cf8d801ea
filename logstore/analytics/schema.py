"""The analytics tables' columns, each with what it means: one Arrow schema per table.

The meaning of a column is its field's metadata (``doc``); what one row of a table is, and
the prose around its columns, are the schema's (``doc``, ``intro``, ``figures``, ``notes``).
docs/analytics.md's column tables are written from these schemas
(``python -m logstore.analytics.schema``; a test fails when the two disagree), and the SQL
page's schema browser reads them, so an installed warren explains its columns without its
repository. Columns that share a meaning are written on one row of the document.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyarrow as pa

from logstore.generated import rewrite, write_between

TABLE_ORDER = ("games", "player_seats", "players", "seat_results", "turns", "turn_seats", "effects",
               "seat_items", "events")
"""The tables in the order the document describes them."""


def col(name: str, kind: pa.DataType, doc: str) -> pa.Field:
    """A column and what it means (Markdown: `code` for names and values)."""
    return pa.field(name, kind, metadata={"doc": doc})


def cols(doc: str, *columns: tuple[str, pa.DataType]) -> list[pa.Field]:
    """Several columns that share one meaning (written on one row of the document)."""
    return [col(name, kind, doc) for name, kind in columns]


def table(doc: str, fields: list[pa.Field], *, intro: str = "", figures: str = "",
          notes: str = "") -> pa.Schema:
    """A table's schema: what one row is, its columns, the prose before its column table
    (``intro``), a row for the ruleset's own figure columns (``figures``) and the prose
    after it (``notes``)."""
    meta = {"doc": doc, "intro": intro, "figures": figures, "notes": notes}
    return pa.schema(fields, metadata={k: v for k, v in meta.items() if v})


STR, INT, BOOL, FLOAT = pa.string(), pa.int64(), pa.bool_(), pa.float64()

GAMES_SCHEMA = table("one row per stored game", [
    col("game_id", STR, "the game's id"),
    col("options", STR, "the header's options, JSON text (`{}` = all defaults)"),
    col("n_players", INT, "number of seats"),
    col("players", STR, "names in seat order, JSON array"),
    col("first_seat", INT, "the seat that acted first (play order 1)"),
    col("over", BOOL, "the game ended (legally)"),
    col("ok", BOOL, "every stored event is legal"),
    *cols("the first illegal event and the rule it breaks, else NULL",
          ("violation_seq", INT), ("violation_rule", STR)),
    col("winners", STR, "JSON array of winning seats once over, else NULL"),
    col("n_winners", INT, "how many seats won (several: a tie or a team)"),
    col("scores", STR, "JSON array of scores per seat, where the ruleset keeps score"),
    *cols("why the game ended and the rule that ended it (`Outcome`)",
          ("end_reason", STR), ("end_rule", STR)),
    col("n_events", INT, "events stored (header excluded)"),
    col("applied", INT, "events replayed cleanly (less than `n_events` after a violation)"),
    *cols("the position's turn and round at the end of the replay", ("turns", INT), ("rounds", INT)),
    col("source", STR, "`simulated`, `recorded` or `imported` (header)"),
    col("unknown_values", INT, "how many values the record leaves unknown (`\"?\"`: cards, roles, Items "
        "nobody saw); 0 unless recorded at the table"),
    col("created", STR, "the header's creation time, RFC 3339 text"),
    col("imported_at", STR,
        "when the store received it (null for a game read on Spark straight from its record)"),
    col("chain", STR, "`sealed` or `unsealed`"),
    *cols("for what-if branches: where they leave the parent game",
          ("parent_game", STR), ("parent_seq", INT)),
])

PLAYER_SEATS_SCHEMA = table("one row per seat and game, linked to its player", [
    *cols("the seat", ("game_id", STR), ("seat", INT)),
    col("name", STR, "the name the record gives the seat"),
    col("player", STR, "the player it is, after merges and renames (spacing and case aside, one name is "
        "one player)"),
    col("bot", BOOL, "the seat of a simulated game (a bot)"),
    col("played", STR, "when the game was played (the header's `created`)"),
    col("play_order", INT, "the game's place in the order played (`played`, then import order), from 1"),
], intro="Written whole at every refresh ([players](players.md): a merge or a rename changes the\n"
         "player of games projected long ago).")

PLAYERS_SCHEMA = table("one row per player and ruleset", [
    col("player", STR, "the player's name now"),
    col("aliases", STR, "JSON array of the other spellings the records give this player"),
    col("bot", BOOL, "a bot of simulated games"),
    *cols("finished, legal games of the ruleset, and those won (a shared win counts for each "
          "winner)", ("games", INT), ("wins", INT)),
    *cols("the openskill rating after every game so far, and its uncertainty "
          "([players](players.md#ratings)); NULL where no game could be rated",
          ("mu", FLOAT), ("sigma", FLOAT)),
    col("rating", FLOAT, "`mu - 3 sigma`"),
])

SEAT_RESULTS_SCHEMA = table("one row per seat and game", [
    *cols("the seat", ("game_id", STR), ("seat", INT)),
    col("player", STR, "the seat's name"),
    col("play_order", INT, "1 for the seat that acted first, 2 for the next seat to act for the first "
        "time..."),
    col("n_players", INT, "seats in the game"),
    col("won", BOOL, "the seat is among the winners; NULL while the game is not over or after a violation"),
    col("score", INT, "the seat's final score, where kept"),
])

TURNS_SCHEMA = table("one row per turn played", [
    *cols("the turn (0 = set-up)", ("game_id", STR), ("turn", INT)),
    col("round", INT, "the round the turn was played in"),
    col("active", INT, "the seat whose turn it was (NULL in set-up and simultaneous phases)"),
    *cols("the turn's first and last event; turns cover every applied event",
          ("first_seq", INT), ("last_seq", INT)),
    col("events", INT, "events in the turn"),
], figures="the ruleset's table-wide key figures **at the end of the turn**: every value of "
           "`key_figures(state)` that is not one value per seat (below, by ruleset). A figure named "
           "like a column above gets the prefix `figure_`.")

TURN_SEATS_SCHEMA = table("one row per turn and seat", [
    *cols("which turn and seat", ("game_id", STR), ("turn", INT), ("seat", INT)),
], figures="the per-seat key figures at the end of the turn: every value of `key_figures(state)` that "
           "is a list with one entry per seat (below, by ruleset)",
   notes="Figures that are not numbers, flags or words are stored as JSON text.")

EFFECTS_SCHEMA = table("one row per effect the engine derived", [
    *cols("the event that caused it", ("game_id", STR), ("seq", INT)),
    col("turn", INT, "the turn of that event"),
    col("type", STR, "that event's type (`lay`, `flip`...)"),
    col("actor", INT, "that event's actor (NULL for chance)"),
    col("rule", STR, "the rule id that caused it, e.g. `BUN-BUNNY-1`"),
    col("kind", STR, "what happened, e.g. `bunny_scored`, `pile_picked_up`, `wall_fell`"),
    col("seat", INT, "the effect's `seat` when it names one"),
    col("data", STR, "the effect's particulars, JSON text (`json_extract_string(data, '$.bonus')`)"),
])

SEAT_ITEMS_SCHEMA = table("what each seat's events named, per game", [
    *cols("the game and the seat whose events named it", ("game_id", STR), ("seat", INT)),
    col("type", STR, "the event type (`lay`, `steal`...)"),
    col("field", STR, "the field (`cards`, `slot`...)"),
    col("value", STR, "the string (`TH`, `0.1`...; a card number as text, `41`)"),
    col("uses", INT, "how many times the seat's events named it in the game"),
    *cols("the first event (and its turn) that named it", ("first_seq", INT), ("first_turn", INT)),
], intro="For every event with an actor, each field typed as a string or a list of strings in the\n"
         "ruleset's event types (Bunnies `lay.cards` (each card), `steal.card`, `flip.slot`,\n"
         "`peek.slot`; Trust No Bunny `choose_item.item`, `sabotage.quirk`), and each field of the\n"
         "cards a seat plays, by number or value (Quest's and KinderBunnies' `play.card`,\n"
         "`discard.card`, `save.card`...; Trust No Bunny's `guard.defend`, `guard.weaken`, `gnaw`).\n"
         "Chance events (the deal)\n"
         "name no seat's choices and are left out, and so are events after a violation. One row per\n"
         "game, seat and value (the events table keeps every single event).")

EVENTS_SCHEMA = table("the raw record lines", [
    *cols("the line (seq 0 is the header)", ("game_id", STR), ("seq", INT)),
    col("turn", INT, "the turn the event was played in (0 for the header; NULL from a violation on)"),
    col("type", STR, "event type (`header` for seq 0)"),
    col("actor", INT, "the acting seat, NULL for chance and the header"),
    col("line", STR, "the stored line exactly, terminator included (JSON: "
        "`json_extract_string(line, '$.cards')`)"),
])

BASE_SCHEMAS: dict[str, pa.Schema] = {
    "games": GAMES_SCHEMA,
    "players": PLAYERS_SCHEMA,
    "player_seats": PLAYER_SEATS_SCHEMA,
    "seat_results": SEAT_RESULTS_SCHEMA,
    "turns": TURNS_SCHEMA,
    "turn_seats": TURN_SEATS_SCHEMA,
    "effects": EFFECTS_SCHEMA,
    "seat_items": SEAT_ITEMS_SCHEMA,
    "events": EVENTS_SCHEMA,
}
"""The columns every ruleset's tables have (figure columns are added per ruleset)."""


def _meta(schema: pa.Schema | pa.Field, key: str) -> str:
    found = (schema.metadata or {}).get(key.encode())
    return found.decode() if found else ""


def table_doc(name: str) -> str:
    """What one row of table ``name`` is."""
    return _meta(BASE_SCHEMAS[name], "doc")


def column_docs(name: str) -> dict[str, str]:
    """Column -> what it means, for table ``name`` (Markdown, as in the document)."""
    return {field.name: _meta(field, "doc") for field in BASE_SCHEMAS[name]}


OWN_RULESETS = ("bunnies", "trust-no-bunny", "killer-bunnies-quest", "kinderbunnies",
                "killer-bunnies-odyssey")
"""The rulesets warren ships (pyproject's entry points), whose figure columns are documented."""

FIGURE_TABLES = ("turns", "turn_seats")


def figure_columns(slug: str) -> dict[str, dict[str, str]]:
    """Table -> column -> meaning of one ruleset's figure columns, named as the projections
    name them (logstore.analytics.projection_rows: a figure named like a base column gets
    ``figure_``), from the ruleset's ``figure_docs``."""
    from engine.registry import get_ruleset

    rs = get_ruleset(slug)
    out: dict[str, dict[str, str]] = {name: {} for name in FIGURE_TABLES}
    for name in rs.figure_names:
        table = "turn_seats" if name in rs.seat_figures else "turns"
        taken = set(BASE_SCHEMAS[table].names) | set(out[table])
        out[table][name if name not in taken else f"figure_{name}"] = rs.figure_docs.get(name, "")
    return out


def _figure_rows(table: str) -> list[str]:
    rows = ["| ruleset | column | meaning |", "| --- | --- | --- |"]
    for slug in OWN_RULESETS:
        for column, meaning in figure_columns(slug)[table].items():
            rows.append(f"| {slug} | `{column}` | {meaning} |")
    return rows


def markdown() -> str:
    """The column tables of docs/analytics.md, one section per table."""
    out: list[str] = []
    for name in TABLE_ORDER:
        schema = BASE_SCHEMAS[name]
        out += [f"### {name} — {_meta(schema, 'doc')}", ""]
        if _meta(schema, "intro"):
            out += [_meta(schema, "intro"), ""]
        out += ["| column | meaning |", "| --- | --- |"]
        rows: list[tuple[list[str], str]] = []
        for field in schema:
            meaning = _meta(field, "doc")
            if rows and rows[-1][1] == meaning:  # neighbours that share a meaning share a row
                rows[-1][0].append(field.name)
            else:
                rows.append(([field.name], meaning))
        out += [f"| {', '.join(f'`{c}`' for c in cols)} | {meaning} |" for cols, meaning in rows]
        if _meta(schema, "figures"):
            out.append(f"| *figures* | {_meta(schema, 'figures')} |")
        if name in FIGURE_TABLES:
            out += ["", "Each ruleset's figure columns (NULL in the other rulesets' rows):", "",
                    *_figure_rows(name)]
        if _meta(schema, "notes"):
            out += ["", _meta(schema, "notes")]
        out.append("")
    return "\n".join(out)


DOC_MARKERS = ("<!-- tables: python -m logstore.analytics.schema -->\n", "<!-- end tables -->")


def write_into(text: str) -> str:
    """``text`` (docs/analytics.md) with the part between the markers written anew."""
    return write_between(text, DOC_MARKERS, markdown())


if __name__ == "__main__":  # pragma: no cover - run from a checkout to rewrite the document
    doc = Path(__file__).resolve().parents[2] / "docs" / "analytics.md"
    rewrite(doc, DOC_MARKERS, markdown())
    sys.stdout.write(f"wrote the column tables of {doc}\n")
