"""``warren check``: read record files and judge each one (readable, chain, legality).

One process checks a whole archive: rulesets and decoders are built once and reused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from engine.reader import check_events, read_record
from engine.record import Chain, RecordError, decode_header, split_lines
from engine.rules import WarrenError

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

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return EXIT_UNREADABLE
        if not self.ok:
            return EXIT_ILLEGAL
        return EXIT_OK


def _header_facts(data: bytes, path: str) -> tuple[str | None, str | None]:
    try:
        header = decode_header(split_lines(data, path)[0], path)
    except WarrenError:
        return None, None
    return header.game_id, header.ruleset


def check_bytes(data: bytes, path: str) -> CheckResult:
    """Judge one record given as bytes."""
    try:
        record = read_record(data, path)
    except RecordError as exc:
        game_id, slug = _header_facts(data, path)
        return CheckResult(path, False, game_id, slug, 0, None, None, None, str(exc))
    from engine.registry import get_ruleset

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
    return CheckResult(
        path, ok, record.header.game_id, record.header.ruleset, len(record.events),
        record.chain, record.broken_at, violation, None, disputed, undetermined,
    )


def check_path(path: Path) -> CheckResult:
    try:
        data = path.read_bytes()
    except OSError as exc:
        return CheckResult(str(path), False, None, None, 0, None, None, None,
                           f"{path}: cannot read: {exc.strerror or exc}")
    return check_bytes(data, str(path))


def result_to_json(result: CheckResult) -> bytes:
    return msgspec.json.encode(result)


def result_to_dict(result: CheckResult) -> dict[str, Any]:
    as_dict: dict[str, Any] = msgspec.to_builtins(result)  # a Struct becomes a dict
    return as_dict
