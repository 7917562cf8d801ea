"""``warren check``: read record files and judge each one (readable, chain, legality).

One process checks a whole archive: rulesets and decoders are built once and reused.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from engine.reader import ByteStream, check_events, header_of, read_record
from engine.record import Chain, End, Record, RecordError
from engine.registry import get_ruleset
from logstore.store.cores import helper_count
from logstore.store.helpers import answer_all, in_order
from logstore.store.reading import Prepended, open_record

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2


class CheckViolation(msgspec.Struct, frozen=True):
    """``violation`` in a line of ``warren check --json``: the first illegal event (the
    contract's three keys; :class:`engine.replay.Violation` also carries the facts)."""

    seq: int
    rule: str
    message: str


class CheckDisputedClaim(msgspec.Struct, frozen=True):
    """One of ``disputed_claims`` in a line of ``warren check --json`` (the claim itself, in
    :class:`engine.dispute.DisputedClaim`, is left out of the line)."""

    seq: int
    rule: str | None
    message: str


class CheckUndetermined(msgspec.Struct, frozen=True):
    """One of ``undetermined`` in a line of ``warren check --json``: a check the rules could
    not decide from what a game recorded at the table knows (docs/record-format.md)."""

    seq: int
    rule: str
    needs: str
    """The unknown fact that would decide it, in words."""


class CheckResult(msgspec.Struct, frozen=True):
    """One line of ``warren check --json`` (docs/cli.md), plus ``disputed_claims``: claims a
    record makes about consequences that the engine does not derive (docs/disputes.md). A
    disputed claim is not an illegal action, but the record is not ok. A record with unknown
    cards may add ``undetermined``: checks that need a fact nobody saw; they leave the record
    ok (exit 0), since no rule is known to be broken (docs/record-format.md#unknowns)."""

    path: str
    ok: bool
    game_id: str | None
    ruleset: str | None
    events: int
    chain: Chain | None
    broken_at: int | None
    violation: CheckViolation | None
    error: str | None
    disputed_claims: list[CheckDisputedClaim] = []
    undetermined: list[CheckUndetermined] | msgspec.UnsetType = msgspec.UNSET
    """Present only for a record that has some (the line of any other record is unchanged)."""
    last_seal: int | msgspec.UnsetType | None = msgspec.UNSET
    """Present only for a record cut after its last seal (format 2 on, no closing seal line):
    how many events its last seal line vouches for, null if it has none left. Its chain is
    ``broken`` at the seq after its last event, which is where its end went missing."""

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return EXIT_UNREADABLE
        if not self.ok:
            return EXIT_ILLEGAL
        return EXIT_OK


def _header_facts(data: bytes, path: str) -> tuple[str | None, str | None]:
    header = header_of(data, path)
    return (None, None) if header is None else (header.game_id, header.ruleset)


def _unreadable(path: str, error: RecordError, data: bytes = b"") -> CheckResult:
    game_id, slug = _header_facts(data, path) if data else (None, None)
    return CheckResult(path, False, game_id, slug, 0, None, None, None, str(error))


def check_bytes(data: bytes, path: str) -> CheckResult:
    """Judge one record given as bytes."""
    return check_record_source(data, path)[0]


def check_record_source(
    source: bytes | ByteStream, path: str, head: bytes = b""
) -> tuple[CheckResult, End | None]:
    """Judge one record (its bytes, or a stream), and say how it ends (None if unreadable).
    ``head`` is the start of the file, for naming the game of a record that fails later."""
    try:
        record = read_record(source, path)
    except RecordError as exc:
        return _unreadable(path, exc, source if isinstance(source, bytes) else head), None
    return judge_record(record), record.end


def judge_record(record: Record) -> CheckResult:
    """The verdict on a decoded record: chain, seal lines, legality, claims."""
    ruleset = get_ruleset(record.header.ruleset)
    disputed: list[CheckDisputedClaim] = []
    undetermined: list[CheckUndetermined] | msgspec.UnsetType = msgspec.UNSET
    if record.header.source == "recorded" or any(event.claims for event in record.events):
        # Claims and games recorded at the table are rarer; only they pay for effects.
        from engine.dispute.claims import record_claims

        report = record_claims(ruleset, record.header, record.events)
        found = report.violation
        disputed = [CheckDisputedClaim(d.seq, d.rule, d.message) for d in report.disputed]
        if report.undetermined:
            undetermined = [CheckUndetermined(u.seq, u.rule, u.needs) for u in report.undetermined]
    else:
        found = check_events(ruleset, record.header, record.events)
    violation = None if found is None else CheckViolation(found.seq, found.rule, found.message)
    ok = violation is None and record.chain != "broken" and not disputed
    last_seal: int | msgspec.UnsetType | None = msgspec.UNSET
    if record.end == "cut":
        last_seal = record.last_seal
    return CheckResult(
        record.path, ok, record.header.game_id, record.header.ruleset, len(record.events),
        record.chain, record.broken_at, violation, None, disputed, undetermined, last_seal,
    )


def check_path(path: Path) -> CheckResult:
    return check_file(path)[0]


def check_file(path: Path | str) -> tuple[CheckResult, End | None]:
    """Judge one record file, read as a stream (only a regular file is read)."""
    name = str(path)
    try:
        stream = open_record(name)
    except RecordError as exc:
        return _unreadable(name, exc), None
    with stream:
        try:
            head = stream.read(HEAD_BYTES)
            return check_record_source(Prepended(head, stream), name, head)
        except OSError as exc:
            return _unreadable(name, RecordError(name, None, f"cannot read: {exc.strerror or exc}")), None
        except MemoryError:
            return _unreadable(name, RecordError(name, None, "too large to read into memory")), None


HEAD_BYTES = 1 << 16
"""The first bytes of a file are kept, to name the game of a record that fails later."""


def result_to_json(result: CheckResult) -> bytes:
    return msgspec.json.encode(result)


def result_to_dict(result: CheckResult) -> dict[str, Any]:
    as_dict: dict[str, Any] = msgspec.to_builtins(result)  # a Struct becomes a dict
    return as_dict


# -- both cores for a folder of many records -------------------------------------------------
PARALLEL_FROM = 64
"""From this many files on, ``check_files`` hands batches to a helper process when a core is
idle (logstore.store.helpers: forked on Linux, else a fresh Python, whose start-up of about
0.2 s of the other core is repaid after a few dozen records). ``WARREN_CHECK_JOBS=1`` keeps
everything in one process, ``WARREN_CHECK_JOBS=2`` starts the helper whatever the load."""
BATCH = 16
"""Files per batch: small enough that the two processes stay in step, large enough that
the pipe carries few messages."""

MODULE = "logstore.store.check_helper"


def check_files(paths: Sequence[Path]) -> Iterator[tuple[CheckResult, End | None]]:
    """Every file's verdict, in the order given. For many files, a helper process judges
    batches of them on the other core while this one judges the others, and the answers are
    merged back in order, so the output and the exit code are the same as with one process."""
    jobs = os.environ.get("WARREN_CHECK_JOBS", "")
    # WARREN_CHECK_JOBS=N asks for N processes in all (1: this one alone); otherwise one
    # helper fewer than the cores this process may use (logstore.store.cores), for many files.
    helpers = int(jobs) - 1 if jobs.isdigit() and int(jobs) >= 1 else helper_count()
    if helpers < 1 or len(paths) < PARALLEL_FROM:
        yield from map(check_file, paths)
        return
    batches = [[str(p) for p in paths[i:i + BATCH]] for i in range(0, len(paths), BATCH)]
    for answers in in_order(batches, helpers, MODULE, serve, None, check_batch, ahead=2):
        yield from answers


def check_batch(batch: list[str]) -> list[tuple[CheckResult, End | None]]:
    return [check_file(path) for path in batch]


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    """The helper's loop: a batch of paths in, their verdicts out (pickled, in order)."""
    pickle.load(requests)  # the greeting: nothing to set up
    answer_all(requests, answers, _check_request)


def _check_request(batch: object) -> list[tuple[CheckResult, End | None]]:
    if not isinstance(batch, list):
        raise TypeError("a check helper's request is a batch of paths")
    return check_batch([str(path) for path in batch])
