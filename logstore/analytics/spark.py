"""warren on Spark: the projections and the checks of many games, folded by warren's own code
inside Spark's workers, with the same results as one machine.

Nothing of the rules is written again for Spark. A worker imports warren (the same version,
with the same rulesets and plugins: docs/analytics.md, "Scale-out") and runs the functions
below over Arrow batches (``mapInArrow``):

- :func:`export_projections` (``warren export-parquet --spark MASTER OUT``) reads games from
  record files (one or many records per file, on any path Spark reads) or from the store,
  folds each game with the local build's own code (``project_games``, the reader's walk),
  and writes the tables the local export writes, laid out the same way:
  ``OUT/<table>/ruleset=<slug>/*.parquet``.
- :func:`check_records` (``warren check --spark MASTER PATHS...``) judges every record file
  with the local check's own code (``check_bytes``) and gives the verdicts back in the order
  the local command gives them.

Each game is folded once. The workers shelve each folded chunk as an LZ4 Arrow file in a
folder beside OUT (:class:`Shelf`), the driver gathers only each chunk's size and schema,
and a second job writes each table and ruleset's Parquet files from the shelf
(:func:`write_part`); nothing of the corpus is held by the driver or cached by Spark.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import shutil
import stat
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from engine.rules import WarrenError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from logstore.analytics.winmodel import WinModel

GAME_COLUMNS = pa.schema([
    ("ruleset", pa.string()), ("game_id", pa.string()), ("data", pa.binary()),
    ("lines", pa.int64()), ("types", pa.string()), ("actors", pa.string()),
    ("chain", pa.string()), ("imported_at", pa.string()), ("parent_game", pa.string()),
    ("parent_seq", pa.int64()), ("path", pa.string()), ("rank", pa.int64()),
    ("position", pa.int64()), ("problem", pa.string()),
])
"""One game as the fold reads it: its stored lines joined (header first), each line's type
and actor, and the facts the ``games`` table gives; or, with ``problem``, a record that could
not be read (``path`` and ``position`` say which). ``rank`` is the file's place in the order
``warren import`` reads the files in, ``position`` the record's place in its file."""

PIECE_COLUMNS = pa.schema([
    ("tbl", pa.string()), ("ruleset", pa.string()), ("schema_id", pa.string()),
    ("schema", pa.binary()), ("ipc", pa.binary()), ("file", pa.string()), ("bytes", pa.int64()),
    ("rows", pa.int64()),
    ("games", pa.int64()), ("events", pa.int64()), ("problem", pa.string()),
])
"""What the fold of one chunk gives: per table, its rows' schema and size, and the rows
themselves as Arrow IPC bytes (``ipc``), or shelved in a file (:func:`shelving_fold`); a row
with ``tbl`` empty counts the chunk's games and events, or says what went wrong."""

FILE_BYTES = 64 << 20
"""About this many bytes of folded rows (Arrow IPC, LZ4) per Parquet file written."""

CHUNK_GAMES = 500
"""Games folded at once (as the local build's chunk): Arrow batches of this many games."""


class SparkError(WarrenError):
    """Spark cannot be started or used as asked."""


# -- the session ------------------------------------------------------------------------------
def session(master: str, app: str = "warren") -> SparkSession:
    """A Spark session at ``master`` (``local[2]``, ``spark://host:7077``, ``yarn``...).

    In local mode the workers are this Python (the same warren); on a cluster they are the
    workers' own Python, where warren must be installed at the same version."""
    try:
        from pyspark.sql import SparkSession
    except ImportError as exc:
        raise SparkError("--spark needs pyspark: pip install 'warren[spark]' (and Java 17)") from exc
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise SparkError("--spark needs Java 17 (for example: apt-get install openjdk-17-jre-headless)")
    local = master.startswith("local")
    if local:
        # The workers must be this interpreter, which has warren and its rulesets.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = (
        SparkSession.builder.master(master).appName(app)
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(CHUNK_GAMES))
        .config("spark.sql.parquet.compression.codec", "zstd")
        # A record file is small: Spark's default reckons 4 MB for opening each file, which
        # cuts a folder of records into hundreds of tiny tasks.
        .config("spark.sql.files.openCostInBytes", str(64 << 10))
    )
    if local:
        builder = (builder.config("spark.ui.enabled", "false")
                   .config("spark.driver.host", "127.0.0.1")
                   .config("spark.driver.bindAddress", "127.0.0.1")
                   .config("spark.sql.shuffle.partitions", "8"))
    # Spark's own chatter (its log at start-up) is kept to errors; pyspark warns about the
    # pandas it finds on every Arrow call, and warren hands it Arrow only.
    log4j = Path(__file__).with_name("spark-log4j2.properties")
    builder = builder.config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={log4j.as_uri()}")
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pyspark\.")
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # the JVM's own failure: its message is the useful part
        raise SparkError(f"Spark did not start at {master!r}: {str(exc).splitlines()[0]}") from None
    spark.sparkContext.setLogLevel("ERROR")
    return spark


@contextlib.contextmanager
def spark_errors(master: str) -> Iterator[None]:
    """Spark's own failures (a worker that died, a node lost, a Java exception) as one line
    naming the master, not a Java stack: warren's errors pass through as they are."""
    try:
        yield
    except WarrenError:
        raise
    except Exception as exc:
        if type(exc).__module__.split(".")[0] not in ("py4j", "pyspark"):
            raise
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        why = next((line for line in lines if "Error" in line or "Exception" in line),
                   lines[0] if lines else "")
        raise SparkError(f"the job on Spark at {master} failed: {why[:400]}") from None


def _shown(path: str) -> str:
    """A path as a person gave it: a local file without Spark's ``file:`` scheme."""
    if path.startswith("file:"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(path).path)
    return path


def _is_remote(path: str) -> bool:
    """A path Spark reads through a file system of its own (``hdfs://``, ``s3a://``...)."""
    scheme, sep, _ = path.partition("://")
    return bool(sep) and scheme != "file"


# -- records read by the workers --------------------------------------------------------------
def _header_starts(data: bytes) -> list[int]:
    """Where each record of a file starts: at every header line (a file may hold many).
    Only the lines holding the word ``"header"`` are looked at (in a one-record file, the
    first line alone)."""
    starts = [0]
    at = data.find(b'"header"', data.find(b"\n") + 1 or len(data))
    while at != -1:
        begin = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        if _is_header(data[begin:None if end == -1 else end]):
            starts.append(begin)
        at = -1 if end == -1 else data.find(b'"header"', end)
    return starts


_untyped = msgspec.json.Decoder()


def _is_header(line: bytes) -> bool:
    try:
        obj = _untyped.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return False
    return isinstance(obj, dict) and obj.get("kind") == "header"


def records_of_file(path: str, data: bytes) -> Iterator[dict[str, Any]]:
    """Every record of one file as a game row of :data:`GAME_COLUMNS` (or a problem row).

    A record is read as ``warren import`` reads it (its chain verified, its lines kept as
    they will be stored); a record that does not read, or whose chain is broken, is a
    problem: the local build would never have it in its store."""
    from engine.record import RecordError
    from engine.registry import get_ruleset
    from logstore.store.importing import line_columns, refuse_broken_chain
    from logstore.store.reading import read_for_store

    starts = _header_starts(data)
    for k, lo in enumerate(starts):
        hi = starts[k + 1] if k + 1 < len(starts) else len(data)
        name = path if len(starts) == 1 else f"{path} (record {k + 1})"
        row: dict[str, Any] = {"path": path, "position": k}
        try:
            record, texts = read_for_store(data[lo:hi], name)
            refuse_broken_chain(record)
            header = record.header
            types, actors = line_columns(get_ruleset(header.ruleset), record.events)
            branch = header.branch
            row.update({
                "ruleset": header.ruleset, "game_id": header.game_id,
                "data": "".join(texts).encode(), "lines": len(texts),
                "types": ",".join(types), "actors": ",".join("" if a is None else str(a) for a in actors),
                "chain": record.chain, "imported_at": None,
                "parent_game": None if branch is None else branch.game_id,
                "parent_seq": None if branch is None else branch.seq,
            })
        except (RecordError, WarrenError) as exc:
            row["problem"] = str(exc)
        except Exception as exc:  # never lose a record to a crash: say which and why
            row["problem"] = f"{name}: warren failed on this record ({type(exc).__name__}: {exc})"
        yield row


def _split_files(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """mapInArrow: Spark's binary files (``path``, ``content``, ``rank``) into game rows."""
    for batch in batches:
        paths = [_shown(p) for p in batch.column("path").to_pylist()]
        contents = batch.column("content").to_pylist()
        ranks = batch.column("rank").to_pylist()
        rows = [{**row, "rank": rank} for path, data, rank in zip(paths, contents, ranks, strict=True)
                for row in (records_of_file(path, data) if data is not None else
                            [{"path": path, "position": 0, "problem": f"{path}: cannot read it"}])]
        yield pa.RecordBatch.from_pylist(rows, schema=GAME_COLUMNS)


# -- the fold ---------------------------------------------------------------------------------
def fold_games(batches: Iterable[pa.RecordBatch], shelf: Shelf | None = None) -> Iterator[pa.RecordBatch]:
    """mapInArrow: game rows into folded pieces (:data:`PIECE_COLUMNS`), chunk by chunk and
    ruleset by ruleset, with the local build's own code (projection_rows.project_games).
    With a ``shelf``, each piece's rows are written there and only their size comes back."""
    chunk = 0
    seen: set[tuple[str, str, str]] = set()
    for batch in batches:
        by_ruleset: dict[str, list[int]] = {}
        problems = batch.column("problem").to_pylist()
        for i, slug in enumerate(batch.column("ruleset").to_pylist()):
            if problems[i] is None:
                by_ruleset.setdefault(slug, []).append(i)
        left_out = [{"tbl": "", "ruleset": "", "games": 0, "events": 0, "problem": p}
                    for p in problems if p is not None]
        if left_out:
            yield pa.RecordBatch.from_pylist(left_out, schema=PIECE_COLUMNS)
        for slug, rows in sorted(by_ruleset.items()):
            taken = batch.take(pa.array(rows, pa.int64()))
            for lo in range(0, taken.num_rows, CHUNK_GAMES):
                pieces = _fold_chunk(slug, taken.slice(lo, CHUNK_GAMES))
                if shelf is not None:
                    chunk += 1
                    pieces = [_once(shelf.put(piece, chunk), seen) for piece in pieces]
                yield from pieces


def _once(pieces: pa.RecordBatch, seen: set[tuple[str, str, str]]) -> pa.RecordBatch:
    """The pieces with each schema given once per task (the driver gathers them all)."""
    keep = []
    for tbl, slug, schema_id in zip(*(pieces.column(c).to_pylist() for c in ("tbl", "ruleset", "schema_id")),
                                    strict=True):
        key = (tbl, slug, schema_id or "")
        keep.append(key not in seen)
        seen.add(key)
    if all(keep):
        return pieces
    given = pieces.column("schema").to_pylist()
    schemas = pa.array([s if k else None for s, k in zip(given, keep, strict=True)], pa.binary())
    return pieces.set_column(pieces.schema.get_field_index("schema"), "schema", schemas)


class Shelf:
    """Where the workers leave folded rows until each table is written: Arrow IPC files under
    ``root/<table>/<ruleset>/`` on any file system Arrow writes (a local or mounted folder,
    S3, HDFS), named by the Spark partition and chunk, so a task tried again writes the same
    files again."""

    def __init__(self, root: str) -> None:
        self.root = root.rstrip("/")

    def put(self, pieces: pa.RecordBatch, chunk: int) -> pa.RecordBatch:
        from pyarrow import fs
        from pyspark import TaskContext

        context = TaskContext.get()
        part = 0 if context is None else context.partitionId()
        files, where = fs.FileSystem.from_uri(self.root)
        ipcs = pieces.column("ipc").to_pylist()
        names: list[str | None] = []
        for tbl, slug, ipc in zip(pieces.column("tbl").to_pylist(), pieces.column("ruleset").to_pylist(),
                                  ipcs, strict=True):
            if ipc is None:
                names.append(None)
                continue
            name = f"{tbl}/{slug}/part-{part:05d}-{chunk:05d}.arrow"
            files.create_dir(f"{where}/{tbl}/{slug}", recursive=True)
            with files.open_output_stream(f"{where}/{name}") as out:
                out.write(ipc)
            names.append(name)
        pieces = pieces.set_column(pieces.schema.get_field_index("file"), "file",
                                   pa.array(names, pa.string()))
        return pieces.set_column(pieces.schema.get_field_index("ipc"), "ipc",
                                 pa.nulls(pieces.num_rows, pa.binary()))


def shelving_fold(root: str) -> Callable[[Iterable[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    shelf = Shelf(root)

    def fold(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        return fold_games(batches, shelf)
    return fold


_IPC = pa.ipc.IpcWriteOptions(compression="lz4")
"""Folded rows travel compressed (LZ4: cheap to write and to read again)."""


def _fold_chunk(slug: str, games: pa.RecordBatch) -> list[pa.RecordBatch]:
    from engine.registry import get_ruleset
    from logstore.analytics.projection_rows import project_games
    from logstore.store.feed import GameFacts, StoredGame

    cols = {name: games.column(name).to_pylist() for name in games.schema.names}
    stored = [StoredGame(g, d, t, a, n) for g, d, t, a, n in zip(
        cols["game_id"], cols["data"], cols["types"], cols["actors"], cols["lines"], strict=True)]
    facts = {g: GameFacts(c, i, pg, ps) for g, c, i, pg, ps in zip(
        cols["game_id"], cols["chain"], cols["imported_at"], cols["parent_game"], cols["parent_seq"],
        strict=True)}
    pieces: list[dict[str, Any]] = []
    try:
        tables, events = project_games(get_ruleset(slug), stored, facts)
    except Exception as exc:
        if len(stored) > 1:  # find the game at fault: the others are folded one by one
            return [b for i in range(games.num_rows) for b in _fold_chunk(slug, games.slice(i, 1))]
        pieces.append({"tbl": "", "ruleset": slug, "games": 0, "events": 0,
                       "problem": f"game {stored[0].game_id!r}: {type(exc).__name__}: {exc}"})
        return [pa.RecordBatch.from_pylist(pieces, schema=PIECE_COLUMNS)]
    pieces.append({"tbl": "", "ruleset": slug, "games": len(stored), "events": events})
    for name, table in tables.items():  # an empty table too: its folder is written, as locally
        schema = table.schema.serialize().to_pybytes()
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, table.schema, options=_IPC) as writer:
            writer.write_table(table)
        ipc = sink.getvalue().to_pybytes()
        pieces.append({"tbl": name, "ruleset": slug, "schema_id": hashlib.sha1(schema).hexdigest(),
                       "schema": schema, "ipc": ipc, "bytes": len(ipc),
                       "rows": table.num_rows, "games": len(stored), "events": 0})
    return [pa.RecordBatch.from_pylist(pieces, schema=PIECE_COLUMNS)]


def write_part(job: tuple[str, list[str], bytes, str]) -> int:
    """Spark task: shelved pieces (``root`` + names) of one table and ruleset into one
    Parquet file at ``target``, cast to the table's one schema (the union of its pieces'
    columns); written under a temporary name and moved into place, so a task tried again
    leaves one whole file. Its row count."""
    from pyarrow import fs

    root, names, schema_bytes, target = job
    schema = pa.ipc.read_schema(pa.py_buffer(schema_bytes))
    files, where = fs.FileSystem.from_uri(root)
    out_files, out_path = fs.FileSystem.from_uri(target)
    rows = 0
    tmp = out_path + ".tmp"
    with out_files.open_output_stream(tmp) as sink, \
            pq.ParquetWriter(sink, schema, compression="zstd", compression_level=1) as writer:
        for name in names:
            with files.open_input_stream(f"{where}/{name}") as source:
                table = pa.ipc.open_stream(source).read_all()
            writer.write_table(_fit(table, schema), row_group_size=1 << 20)
            rows += table.num_rows
    out_files.move(tmp, out_path)
    return rows


def _fit(table: pa.Table, schema: pa.Schema) -> pa.Table:
    """``table`` with every column of ``schema`` (null where it has none), in its order."""
    columns = [table.column(f.name).cast(f.type) if f.name in table.schema.names
               else pa.nulls(table.num_rows, f.type) for f in schema]
    return pa.Table.from_arrays(columns, schema=schema)


def _table_schema(schemas: Sequence[bytes]) -> pa.Schema:
    """One schema for a table: its pieces' columns, of every ruleset, unified by name (as the
    local export's ``union_by_name``), each type widened to hold them all; a column that is
    never anything but null is written as text, which every reader takes."""
    read = [pa.ipc.read_schema(pa.py_buffer(s)) for s in schemas]
    unified = pa.unify_schemas(read, promote_options="permissive")
    fields = []
    for f in unified:
        kind = f.type
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        if pa.types.is_null(kind):
            kind = pa.string()
        if pa.types.is_large_string(kind):
            kind = pa.string()
        fields.append(pa.field(f.name, kind, nullable=True))
    return pa.schema(fields)


# -- export -----------------------------------------------------------------------------------
@dataclass
class SparkExport:
    """What an export on Spark did."""

    games: int = 0
    events: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    """Records that were not read, and games the fold could not take (each in words)."""
    problem_count: int = 0


PROBLEMS_SHOWN = 50


def export_projections(spark: SparkSession, out: str, *, records: Sequence[str] = (),
                       store: Path | None = None, tables: Sequence[str] | None = None,
                       say: Callable[[str], None] | None = None) -> SparkExport:
    """Fold every game of ``records`` (files or folders of ``*.jsonl``) or of the store at
    ``store`` on Spark and write the projection tables under ``out``. The players' tables
    are the store's own (its book of players): they are written from a store only."""
    from pyspark.sql.pandas.types import from_arrow_schema

    from logstore.analytics.projections import GAME_TABLES, TABLES

    chosen = tuple(tables) if tables else TABLES
    unknown = [t for t in chosen if t not in TABLES]
    if unknown:
        raise SparkError(f"no table {unknown[0]!r}; the tables are: {', '.join(TABLES)}")
    note = say or (lambda _text: None)
    report = SparkExport()
    # The workers leave the folded rows beside OUT (never in Spark's memory, never on the
    # driver); a name Spark's listing reads (no leading '.' or '_'), removed at the end.
    shelf = _join(_absolute(out), f"warren-folding-{secrets.token_hex(4)}")
    try:
        if store is not None:
            # A store's games are unique, staged in chunks that Spark reads in parallel.
            note("reading the store's games")
            games = spark.read.parquet(stage_store(store, _join(shelf, "games")))
        else:
            # One pass over the records: a record that does not read goes through the fold
            # as a problem piece, so the files are read once. The first of a game id met
            # twice is found by a shuffle on the game id, which also spreads the games.
            games = _first_of_each_game(_records_frame(spark, records))
        note("folding the games with warren's rules on Spark")
        pieces = (games.sortWithinPartitions("ruleset", "game_id")
                  .mapInArrow(shelving_fold(_join(shelf, "pieces")), from_arrow_schema(PIECE_COLUMNS))
                  .drop("ipc").collect())
        counted = [p for p in pieces if p["tbl"] == ""]
        report.games = sum(p["games"] for p in counted)
        report.events = sum(p["events"] for p in counted)
        said = sorted(p["problem"] for p in counted if p["problem"] is not None)
        report.problem_count, report.problems = len(said), said[:PROBLEMS_SHOWN]
        # Per table and ruleset: the schemas of its pieces, and where they are shelved.
        shapes: dict[tuple[str, str], dict[str, bytes]] = {}
        shelved: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for p in pieces:
            if p["tbl"] in chosen:
                key = (p["tbl"], p["ruleset"])
                if p["schema"] is not None:
                    shapes.setdefault(key, {})[p["schema_id"]] = bytes(p["schema"])
                shelved.setdefault(key, []).append((p["file"], int(p["bytes"])))
                report.rows[p["tbl"]] = report.rows.get(p["tbl"], 0) + int(p["rows"])
        report.rows = {n: report.rows.get(n, 0) for n in chosen if n in GAME_TABLES}

        jobs: list[tuple[str, list[str], bytes, str]] = []
        # One schema per table, across its rulesets (every ruleset's figure columns, nulls
        # where it has none), as the local export writes it: each reader takes a folder's
        # first part's schema for the table's.
        whole: dict[str, pa.Schema] = {}
        for table_name in {name for name, _ in shelved}:
            whole[table_name] = _table_schema([shape for (name, _), found in sorted(shapes.items())
                                               if name == table_name for _, shape in sorted(found.items())])
        for key, parts in sorted(shelved.items()):
            name, slug = key
            schema = whole[name]
            folder = _join(_absolute(out), name, f"ruleset={slug}")
            _remove(folder)  # the folder is written anew, as the local export writes it
            _make_dir(folder)
            for k, group in enumerate(_groups(parts)):
                jobs.append((_join(shelf, "pieces"), group, schema.serialize().to_pybytes(),
                             _join(folder, f"part-{k:05d}.parquet")))
        note(f"writing {len(jobs)} Parquet file(s): {', '.join(n for n in chosen if n in GAME_TABLES)}")
        if jobs:
            spark.sparkContext.parallelize(jobs, len(jobs)).map(write_part).collect()
        if store is not None:
            for name in chosen:
                if name not in GAME_TABLES:
                    report.rows[name] = _write_players(store, out, name)
    finally:
        _remove(shelf)
    return report


def _absolute(path: str) -> str:
    """A path as Arrow's and Spark's file systems both take it: a URL, or an absolute local path."""
    return path if _is_remote(path) else Path(path.removeprefix("file://")).absolute().as_uri()


def _groups(parts: list[tuple[str, int]]) -> Iterator[list[str]]:
    """Shelved pieces in groups of about FILE_BYTES, in order: one Parquet file each."""
    group: list[str] = []
    held = 0
    for file, size in sorted(parts):
        group.append(file)
        held += size
        if held >= FILE_BYTES:
            yield group
            group, held = [], 0
    if group:
        yield group


def _make_dir(root: str) -> None:
    from pyarrow import fs

    files, where = fs.FileSystem.from_uri(root)
    files.create_dir(where, recursive=True)


def _remove(root: str) -> None:
    from pyarrow import fs

    files, where = fs.FileSystem.from_uri(root)
    with contextlib.suppress(FileNotFoundError, OSError):
        files.delete_dir(where)


def _join(root: str, *parts: str) -> str:
    return "/".join([root.rstrip("/"), *parts])


def _records_frame(spark: SparkSession, records: Sequence[str]) -> DataFrame:
    """Every record file of ``records`` as Spark's binary files, split into game rows: the
    files ``warren import`` would read (regular files only: a FIFO is never waited on)."""
    from pyspark.sql.pandas.types import from_arrow_schema

    if not records:
        raise SparkError("name the records to read (--records PATH), or read the store")
    missing = [r for r in records if not _is_remote(r) and not Path(r.removeprefix("file://")).exists()]
    if missing:
        raise SparkError(f"{missing[0]}: no such file or folder")
    found = binary_files(spark, [r if _is_remote(r) else Path(r.removeprefix("file://")) for r in records])
    frames = [f.select("path", "content") for f in found.frames]
    if not frames:
        raise SparkError(f"no *.jsonl records in {', '.join(records)}")
    files = frames[0]
    for more in frames[1:]:
        files = files.unionByName(more)
    # Each local file's place in the order an import reads them (a game id met twice keeps
    # its first); only the files the local listing has, as an import reads them.
    from pyspark.sql import functions as F

    place = {name: k for k, name in enumerate(found.order)}
    listing = spark.createDataFrame([(p, place[n]) for p, n in found.names.items()], "path string, rank long")
    how = "left" if found.remote else "inner"
    files = files.join(F.broadcast(listing), "path", how)
    return files.select("path", "content", "rank").mapInArrow(_split_files, from_arrow_schema(GAME_COLUMNS))


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _first_of_each_game(games: DataFrame) -> DataFrame:
    """One row per game id: the first in the order an import reads the files (then by its
    place in its file), as an import keeps the first and skips the others as already stored."""
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    first = Window.partitionBy("game_id").orderBy(F.col("rank").asc_nulls_last(), "path", "position")
    return (games.withColumn("_n", F.row_number().over(first))
            .filter((F.col("_n") == 1) | F.col("game_id").isNull()).drop("_n"))


def stage_store(store: Path, folder: str) -> str:
    """The store's games as game rows, written chunk by chunk to Parquet in ``folder`` (any
    path Arrow writes), so the driver never holds more than a chunk and the workers read
    them as files; the file's URL."""
    from pyarrow import fs

    from logstore.store.feed import StoreReader

    files, where = fs.FileSystem.from_uri(folder)
    files.create_dir(where, recursive=True)
    reader = StoreReader.open(store)
    try:
        versions = reader.versions()
        with files.open_output_stream(f"{where}/games.parquet") as sink, \
                pq.ParquetWriter(sink, GAME_COLUMNS, compression="zstd", compression_level=1) as writer:
            for lo in range(0, len(versions), CHUNK_GAMES):
                part = versions[lo:lo + CHUNK_GAMES]
                ids = [v.game_id for v in part]
                slugs = {v.game_id: v.ruleset for v in part}
                facts = reader.facts(ids)
                rows = []
                for g in reader.games(ids):
                    f = facts[g.game_id]
                    rows.append({"ruleset": slugs[g.game_id], "game_id": g.game_id, "data": g.data,
                                 "lines": g.lines, "types": g.types, "actors": g.actors,
                                 "chain": f.chain, "imported_at": f.imported_at,
                                 "parent_game": f.parent_game, "parent_seq": f.parent_seq,
                                 "path": str(store), "position": lo})
                writer.write_batch(pa.RecordBatch.from_pylist(rows, schema=GAME_COLUMNS))
    finally:
        reader.close()
    return _join(folder, "games.parquet")


def _write_players(store: Path, out: str, name: str) -> int:
    """One of the players' tables, from the store's book, as the local export lays it out."""
    from pyarrow import fs

    from logstore.players.tables import player_tables
    from logstore.store.event_store import Store

    files, where = fs.FileSystem.from_uri(_absolute(out))
    written = 0
    with Store(store) as opened:
        for (tbl, slug), table in sorted(player_tables(opened).items()):
            if tbl != name:
                continue
            folder = f"{where}/{name}/ruleset={slug}"
            with contextlib.suppress(FileNotFoundError):
                files.delete_dir(folder)
            files.create_dir(folder, recursive=True)
            with files.open_output_stream(f"{folder}/data.parquet") as sink:
                pq.write_table(table, sink, compression="zstd")
            written += table.num_rows
    return written


# -- check ------------------------------------------------------------------------------------
VERDICT_COLUMNS = pa.schema([("path", pa.string()), ("name", pa.string()), ("line", pa.binary()),
                             ("exit", pa.int64()), ("end", pa.string())])


def _judge_files(names: dict[str, str]) -> Callable[[Iterable[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """mapInArrow: Spark's binary files into verdicts, each named as the local check names
    its file (``names``: Spark's path -> the name given)."""
    def judge(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        from logstore.store.checking import CheckResult, check_file, check_record_source, result_to_json

        for batch in batches:
            rows = []
            for path, data in zip(batch.column("path").to_pylist(), batch.column("content").to_pylist(),
                                  strict=True):
                name = names.get(path, path)
                try:
                    if data is None:  # could not be read on the worker: the local check says why
                        result, end = check_file(Path(name))
                    else:
                        result, end = check_record_source(data, name)
                except Exception as exc:  # a record that crashes warren is reported, not lost
                    result = CheckResult(name, False, None, None, 0, None, None, None,
                                         f"{name}: warren failed on this record "
                                         f"({type(exc).__name__}: {exc})")
                    end = None
                rows.append({"path": path, "name": name, "line": result_to_json(result),
                             "exit": result.exit_code, "end": end})
            yield pa.RecordBatch.from_pylist(rows, schema=VERDICT_COLUMNS)
    return judge


@dataclass(frozen=True)
class SparkVerdict:
    """One record's verdict from Spark: its ``warren check --json`` line and exit code."""

    name: str
    line: bytes
    exit_code: int
    end: str | None


def check_records(spark: SparkSession, paths: Sequence[Path | str]) -> list[SparkVerdict]:
    """The verdict on every record file of ``paths`` (a folder: every ``*.jsonl`` below it),
    judged on Spark's workers, in the order ``warren check`` gives them. A local file the
    check refuses before reading it (not a regular file) is judged here, as locally."""
    from pyspark.sql.pandas.types import from_arrow_schema

    from logstore.store.checking import check_file, result_to_json

    found = binary_files(spark, paths)
    verdicts: dict[str, SparkVerdict] = {}
    # Refused before any byte is read (not a regular file): judged here, in the same words.
    for f in found.refused:
        result, end = check_file(f)
        verdicts[str(f)] = SparkVerdict(str(f), result_to_json(result), result.exit_code, end)
    for frame in found.frames:
        judged = frame.select("path", "content").mapInArrow(_judge_files(found.names),
                                                            from_arrow_schema(VERDICT_COLUMNS))
        for r in judged.collect():
            if r["path"] in found.names or found.remote:
                verdicts[r["name"]] = SparkVerdict(r["name"], bytes(r["line"]), int(r["exit"]), r["end"])
    order = list(found.order)
    given = set(order)
    order += sorted(n for n in verdicts if n not in given)
    return [verdicts[n] if n in verdicts else _not_read(n) for n in order]


@dataclass
class Found:
    """The record files of some paths, as Spark will read them."""

    frames: list[DataFrame]
    """Spark's binary files (``path``, ``content``), a frame per way of reading them."""
    names: dict[str, str]
    """Spark's path of each local file -> its name as ``warren check`` lists it."""
    order: list[str]
    """The local files' names in the order ``warren check`` gives them."""
    refused: list[Path]
    """Local names that are not regular files (never handed to Spark)."""
    remote: bool
    """Some paths are URLs, listed by Spark alone."""


def binary_files(spark: SparkSession, paths: Sequence[Path | str]) -> Found:
    """The files (``path``, ``content``) of every ``*.jsonl`` of ``paths``. Local files are
    listed here, as ``warren check`` lists them, and read by name on the workers: no name
    passes through Hadoop's paths, which take a name with ``:``, ``{}``, ``[]``, ``%`` or a
    space for a pattern or a URL, and one starting with ``.`` or ``_`` for a hidden file,
    and which leave empty files out. A URL's folder is Spark's alone."""
    from logstore.store.reading import record_paths

    local = [Path(p) for p in paths if not _is_remote(str(p))]
    remote = [str(p) for p in paths if _is_remote(str(p))]
    files = list(record_paths(local))
    names: dict[str, str] = {}
    seen: set[str] = set()
    refused: list[Path] = []
    for f in files:
        key = os.path.abspath(f)
        if _regular(f) and key not in seen:
            seen.add(key)
            names[str(f)] = str(f)
        else:  # not a regular file, or a second name of one: the local check alone reads it
            refused.append(f)
    frames: list[DataFrame] = []
    if names:
        listing = spark.createDataFrame([(n,) for n in names], "path string")
        slices = max(1, min(len(names), spark.sparkContext.defaultParallelism * 4))
        frames.append(listing.repartition(slices).mapInArrow(_read_files, "path string, content binary"))
    if remote:
        frames.append(_folder_files(spark, remote))
    return Found(frames, names, [str(f) for f in files], refused, bool(remote))


def _read_files(batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """mapInArrow: local record files read by name on a worker (``content`` null for one
    that cannot be read there: the local check then says why, in its own words)."""
    from logstore.store.reading import open_record

    for batch in batches:
        names = batch.column("path").to_pylist()
        contents: list[bytes | None] = []
        for name in names:
            try:
                with open_record(name) as stream:
                    contents.append(stream.read())
            except (OSError, WarrenError):
                contents.append(None)
        yield pa.RecordBatch.from_arrays([pa.array(names, pa.string()), pa.array(contents, pa.binary())],
                                         names=["path", "content"])


def _folder_files(spark: SparkSession, roots: list[str]) -> DataFrame:
    return (spark.read.format("binaryFile").option("pathGlobFilter", "*.jsonl")
            .option("recursiveFileLookup", "true").load(roots))


def _not_read(name: str) -> SparkVerdict:
    from logstore.store.checking import CheckResult, result_to_json

    result = CheckResult(name, False, None, None, 0, None, None, None,
                         f"{name}: cannot read: Spark found no such file (was it removed?)")
    return SparkVerdict(name, result_to_json(result), result.exit_code, None)


# -- win chance added -------------------------------------------------------------------
WPA_SOURCES = ("games", "turns", "turn_seats", "seat_results", "events", "player_seats")
"""The projection tables the WPA tables are worked out from (logstore.analytics.wpa)."""


def wpa_from_export(spark: SparkSession, export: str, out: str,
                    models: Sequence[WinModel]) -> dict[str, pa.Table]:
    """``turn_chances``, ``event_wpa`` and ``player_wpa`` worked out by Spark SQL over an
    export of the projections (``warren export-parquet``, here or by
    :func:`export_projections`), the same SQL text as DuckDB's (logstore.analytics.wpa), so
    the same rows; written as Parquet under ``out/<table>`` and read back."""
    sources = {name: [_join(_absolute(export), name)] for name in WPA_SOURCES}
    written = _wpa_on_spark(spark, sources, None, out, models)
    return {name: pq.read_table(path) for name, path in written.items()}


def _wpa_on_spark(spark: SparkSession, sources: dict[str, list[str]], base: dict[str, str] | None, out: str,
                  models: Sequence[WinModel], tables: Sequence[str] | None = None) -> dict[str, str]:
    """The WPA tables ``tables`` (every one by default; with those they are read from)
    written by Spark under ``out/<table>``: their folders."""
    from logstore.analytics.wpa import WPA_TABLES, views_sql

    # A filtered table (the turns of one ruleset) looks small to the planner and is not:
    # broadcasting it ran the driver out of memory at 100,000 games. Only what the SQL's
    # hints name (a row a game, the seats) is sent to every task.
    spark.conf.set("spark.sql.autoBroadcastJoinThreshold", "-1")
    for name, paths in sources.items():
        reader = spark.read.option("mergeSchema", "true")
        if base is not None:
            reader = reader.option("basePath", base[name])  # the ruleset=<slug> folders: a column
        reader.parquet(*paths).createOrReplaceTempView(name)
    # each table is read from the one before it: turn_chances, event_wpa, player_wpa
    wanted = WPA_TABLES[:1 + max(WPA_TABLES.index(name) for name in tables or WPA_TABLES)]
    sql = views_sql(list(models), chances="_turn_chances", events="_event_wpa")
    written = {}
    for name in wanted:
        written[name] = _join(_absolute(out), name)
        spark.sql(sql[name]).write.mode("overwrite").parquet(written[name])
        spark.read.parquet(written[name]).createOrReplaceTempView(f"_{name}")
    return written


def wpa_tables(db: Path, master: str, models: Sequence[WinModel], con: Any, scratch: str,
               tables: Sequence[str] | None = None) -> None:
    """``warren model wpa --spark MASTER``: the WPA tables ``tables`` (and those they are read
    from) worked out on Spark from the store's projection parts as they lie (Parquet
    already: nothing is exported first), written under ``scratch`` and given to ``con``
    (DuckDB) as views of the same names over those files, for the figures (``scratch`` must
    outlive ``con``'s queries)."""
    from logstore.analytics.views import list_parts

    catalog = list_parts(db)
    sources = {name: [str(f) for f in catalog.parts.get(name, [])] for name in WPA_SOURCES}
    missing = [name for name, files in sources.items() if not files]
    if missing:
        raise SparkError(f"the store has no {missing[0]} rows yet: nothing to work out on Spark")
    base = {name: str(Path(files[0]).parent.parent) for name, files in sources.items()}
    with spark_errors(master):
        spark = session(master, "warren wpa")
        try:
            written = _wpa_on_spark(spark, sources, base, str(Path(scratch) / "spark"), models, tables)
        finally:
            spark.stop()
    for name, folder in written.items():
        # the scratch folder is local: its URL's path, unquoted
        local = Path(unquote(urlparse(folder).path)) if folder.startswith("file:") else Path(folder)
        files = sorted(str(f) for f in local.glob("*.parquet"))
        if not files:
            raise SparkError(f"Spark wrote no {name} files under {folder}")
        listing = "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in files) + "]"
        con.execute(f"DROP VIEW IF EXISTS {name}")
        con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet({listing})")
