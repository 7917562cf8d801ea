"""Canned statistics: documented SQL files run over the projections.

``logstore/analytics/stats_sql/*.sql`` hold the reports that apply to every ruleset
(grouped by ``ruleset`` inside); ``logstore/analytics/stats_sql/<slug>/*.sql`` hold one
ruleset's own. Adding a ruleset's statistics is adding files: nothing here names a ruleset.
A game from another distribution ships its reports the same way, as the ``*.sql`` files of a
package it declares in the entry-point group ``warren.stats`` (name = the ruleset's slug,
value = the package), e.g. ``carrot-nim = "warren_example.stats"``.

Each file opens with a comment block: its first line is the title, the lines after it say
what the report shows and how to read it; a ``-- chart: bar x=COL y=COL color=COL`` line
tells the dashboard how to draw it. The SQL is written in DuckDB's dialect and kept
to what Spark SQL also has once sqlglot has translated it (:func:`spark_sql`): the one
dialect step, used by the Spark test and documented in docs/analytics.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from types import ModuleType

import duckdb
import pyarrow as pa

from engine.registry import STATS, PluginError, load_plugin, plugins
from engine.rules import WarrenError
from logstore.analytics.duck import arrow

STATS_DIR = Path(__file__).resolve().parent / "stats_sql"
"""The SQL files, found beside this module (installed with it as package data), never
relative to the working directory."""


class UnknownStat(WarrenError):
    """A stat name no SQL file answers to."""


@dataclass(frozen=True, slots=True)
class Stat:
    name: str
    """The file name without ``.sql``; ``<slug>/<name>`` for a ruleset's own."""
    ruleset: str | None
    """The ruleset it is about, or None when it covers every ruleset."""
    title: str
    description: str
    sql: str
    path: Path


def _parse(path: Path, ruleset: str | None) -> Stat:
    text = path.read_text(encoding="utf-8")
    comments: list[str] = []
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        comments.append(line[2:].strip())
    if not comments or not comments[0]:
        raise ValueError(f"{path}: a stat file opens with a '-- title' comment line")
    description = "\n".join(comments[1:]).strip()
    name = path.stem if ruleset is None else f"{ruleset}/{path.stem}"
    return Stat(name, ruleset, comments[0], description, text, path)


LEADING = ("win_rate_by_seat", "first_seat_by_skill", "player_count", "game_length",
           "game_length_histogram", "card_impact")
"""The questions players ask first, in order: who wins, does the first seat win more (and is
it the seat or the player), how long games last, which cards matter."""


SECTIONS = ("questions", "own", "more")
"""Where a report belongs on a page of reports: the questions players ask first
(:data:`LEADING`), then a game's own reports, then the rest (how often rules fire, games
recorded at the table)."""


def section_of(stat: Stat) -> str:
    """The section of :data:`SECTIONS` a stat belongs to."""
    if stat.ruleset is None and stat.name in LEADING:
        return "questions"
    return "own" if stat.ruleset is not None else "more"


@cache
def _own() -> tuple[tuple[Stat, ...], dict[str, tuple[Stat, ...]]]:
    """warren's own reports: the general ones, and each ruleset's (read once)."""
    general = tuple(_parse(p, None) for p in sorted(STATS_DIR.glob("*.sql")))
    by_ruleset = {folder.name: tuple(_parse(p, folder.name) for p in sorted(folder.glob("*.sql")))
                  for folder in sorted(p for p in STATS_DIR.iterdir() if p.is_dir())}
    return general, by_ruleset


@cache
def _plugin_stats(slug: str, package: ModuleType) -> tuple[Stat, ...]:
    """A plugin's reports: the ``*.sql`` files of the package it declares (read once per
    loaded package: a reinstalled plugin is a new module object)."""
    folder = Path(str(files(package)))
    return tuple(_parse(p, slug) for p in sorted(folder.glob("*.sql")))


def plugin_stats() -> dict[str, tuple[Stat, ...]]:
    """Each ``warren.stats`` plugin's reports by ruleset slug. A plugin that does not load,
    or is not a package of SQL files, is left out and said by
    :func:`engine.registry.problems`, like any broken plugin."""
    found: dict[str, tuple[Stat, ...]] = {}
    for slug in sorted(plugins(STATS)):
        try:
            package = load_plugin(STATS, slug)
        except PluginError:
            continue
        if not isinstance(package, ModuleType) or not hasattr(package, "__path__"):
            continue  # an entry point that names an object, not a package of SQL files
        found[slug] = _plugin_stats(slug, package)
    return found


def all_stats() -> tuple[Stat, ...]:
    """Every canned stat, led by the questions players ask (:data:`LEADING`), then each
    ruleset's own (by ruleset, then name; warren's and the plugins' alike), then the other
    general ones (how often rules fire, games recorded at the table)."""
    general_stats, own = _own()
    general = {s.name: s for s in general_stats}
    found = [general.pop(name) for name in LEADING if name in general]
    by_ruleset = {**plugin_stats(), **own}  # warren's own win a slug (as in engine.registry)
    for slug in sorted(by_ruleset):
        found.extend(by_ruleset[slug])
    found.extend(general.values())
    return tuple(found)


def stats_for(rulesets: list[str], only: tuple[str, ...] = ()) -> list[Stat]:
    """The stats that apply to a store holding these rulesets (or the ones named)."""
    chosen = [s for s in all_stats() if s.ruleset is None or s.ruleset in rulesets]
    if only:
        by_name = {s.name: s for s in all_stats()}
        by_stem = {s.path.stem: s for s in all_stats()}
        picked = []
        for name in only:
            stat = by_name.get(name) or by_stem.get(name)
            if stat is None:
                known = ", ".join(s.name for s in all_stats())
                raise UnknownStat(f"no stat {name!r} (known: {known})")
            picked.append(stat)
        chosen = picked
    return chosen


@dataclass(frozen=True, slots=True)
class StatResult:
    stat: Stat
    table: pa.Table
    seconds: float


def run_stat(con: duckdb.DuckDBPyConnection, stat: Stat) -> StatResult:
    """Run one stat on a connection with warren's tables (see logstore.analytics.views.connect)."""
    start = time.perf_counter()
    try:
        table = arrow(con, stat.sql)
    except duckdb.Error as exc:
        raise WarrenError(f"stat {stat.name} ({stat.path.name}) failed: {exc}") from None
    return StatResult(stat, table, time.perf_counter() - start)


def spark_sql(sql: str) -> str:
    """The same query in Spark SQL: the one documented dialect step (sqlglot)."""
    try:
        import sqlglot
    except ImportError as exc:  # pragma: no cover - installed with the test and spark extras
        raise WarrenError("translating a stat for Spark needs sqlglot: pip install sqlglot") from exc
    return sqlglot.transpile(sql, read="duckdb", write="spark", pretty=True)[0]
