"""Dispute scenarios, one data file per ruleset: a position, a proposed action, the verdict.

Each ``tests/engine/dispute_tables/<slug>.json`` holds:

- ``players``: names, one per seat (a setup may give its own);
- ``setups``: named games, either ``{"options": {...}, "events": [...]}`` (each event a JSON
  event or notation, its actor the seat to act unless it names one) or ``{"simulate":
  {"seed": S, "index": I}}`` (a whole simulated game);
- ``scenarios``: ``{"setup", "at"}`` (the position: after seq ``at``; negative counts from
  the end, -1 being the last position), optional ``then`` (events played first), the
  proposed ``action`` (or ``"recorded": true`` for the event the record has next; ``claims``
  laid on it, if given), the
  ``seat`` asking, the expected ``verdict`` (legal, illegal or disputed) and ``rule`` (the
  rule that forbids it, the rule of the disputed claim, or the rule a legal scenario
  shows allowing), optionally ``effects`` (rule ids among the effects), ``after``
  (position fields once played), ``view_after`` (entries of the referee's view once
  played) and ``facts`` (facts the violation must name). A legal action may carry
  ``claims``: they are then assertions the engine must bear out.

Every rule id of a ruleset's rulebook must appear in its table; a table marked
``"both_ways": true`` must show each rule both allowing (a legal scenario) and forbidding
(an illegal or disputed one). Adding a ruleset's table is adding one file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.dispute import Dispute, Verdict, propose
from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict
from engine.registry import get_ruleset, known_slugs
from engine.replay import position_of
from engine.simulate import simulate_one
from tests.engine.test_messages_in_words import assert_in_words

TABLES = Path(__file__).resolve().parent / "dispute_tables"
CREATED = "2026-01-01T00:00:00Z"


def _tables() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(TABLES.glob("*.json"))}


TABLE_DATA = _tables()
SCENARIOS = [
    pytest.param(slug, i, id=f"{slug}-{i}-{s['rule']}-{s['verdict']}")
    for slug, table in TABLE_DATA.items()
    for i, s in enumerate(table["scenarios"])
]


@cache
def _setup(slug: str, name: str) -> tuple[Header, tuple[Event, ...]]:
    table = TABLE_DATA[slug]
    ruleset = get_ruleset(table["ruleset"])
    setup = table["setups"][name]
    if "simulate" in setup:
        sim = setup["simulate"]
        game = simulate_one(ruleset, sim["seed"], sim["index"], players=sim.get("players"),
                            options=setup.get("options"))
        return game.header, tuple(game.events)
    header = Header(
        warren=FORMAT_VERSION, kind="header", game_id=f"dispute-{slug}-{name}", ruleset=ruleset.slug,
        options=setup.get("options", {}),
        players=[Player(seat=i, name=n) for i, n in enumerate(setup.get("players", table["players"]))],
        source="recorded", created=CREATED,
    )
    ruleset.check_header(header)
    return header, tuple(_play(ruleset, header, setup["events"], f"setup {name!r}"))


def _play(
    ruleset: Any, header: Header, items: list[Any], where: str, events: tuple[Event, ...] = ()
) -> list[Event]:
    state = ruleset.setup(header)
    ruleset.fold(state, events)
    out = list(events)
    for i, item in enumerate(items, start=1):
        event = propose(ruleset, state, item, n_seats=len(header.players))
        try:
            ruleset.apply(state, event)
        except Exception as exc:
            raise AssertionError(f"{where}: event {i} ({item!r}) is refused: {exc}") from exc
        out.append(event)
    return out


def _judge(slug: str, index: int) -> tuple[Verdict, Dispute, dict[str, Any]]:
    table = TABLE_DATA[slug]
    scenario = table["scenarios"][index]
    ruleset = get_ruleset(table["ruleset"])
    header, events = _setup(slug, scenario["setup"])
    at = scenario["at"]
    if at < 0:
        at = len(events) + 1 + at
    if scenario.get("then"):
        events = tuple(_play(ruleset, header, scenario["then"], "then", events[:at]))
        at = len(events)
    dispute = Dispute.of_record(ruleset, header, events)
    action: Any = events[at] if scenario.get("recorded") else scenario["action"]
    if "claims" in scenario:  # claims laid on the action: what the engine must bear out
        body = event_to_dict(action) if isinstance(action, Event) else dict(action)
        action = {**body, "claims": scenario["claims"]}
    return dispute.verdict(action, at=at, seat=scenario.get("seat")), dispute, scenario


@pytest.mark.parametrize(("slug", "index"), SCENARIOS)
def test_dispute_scenario(slug: str, index: int) -> None:
    verdict, dispute, scenario = _judge(slug, index)
    note = scenario.get("note", "")
    assert verdict.status == scenario["verdict"], f"{note}: {verdict.message or verdict.disputed_claims}"
    if verdict.status == "illegal":
        assert verdict.rule is not None and verdict.rule.id == scenario["rule"], f"{note}: {verdict.message}"
        assert verdict.rule.text and verdict.rule.source, "a verdict cites the rule's paraphrase and source"
        # every refusal in the table reads in the table's words
        names = [p.name for p in dispute.header.players]
        actor = verdict.action.get("actor")
        assert_in_words(TABLE_DATA[slug]["ruleset"], dispute.ruleset.say(verdict.message or "", names),
                        len(names), names[actor] if isinstance(actor, int) and actor < len(names) else None)
        for key, value in scenario.get("facts", {}).items():
            assert verdict.facts.get(key) == value, f"{note}: fact {key} is {verdict.facts.get(key)!r}"
    elif verdict.status == "disputed":
        assert [d.rule for d in verdict.disputed_claims] == [scenario["rule"]], note
    else:
        derived = [e.rule for e in verdict.effects]
        for rule in scenario.get("effects", []):
            assert rule in derived, f"{note}: no effect by {rule} among {derived}"
    if scenario.get("after") or scenario.get("view_after"):
        state = dispute.state_at(verdict.at)
        ruleset = dispute.ruleset
        event = msgspec.convert(verdict.action, ruleset.events_by_type[verdict.action["type"]])
        ruleset.apply(state, event)
        position = msgspec.to_builtins(position_of(state))
        for key, value in scenario.get("after", {}).items():
            assert position[key] == value, f"{note}: after it, {key} is {position[key]!r}"
        view = msgspec.to_builtins(ruleset.view(state, "referee"))
        for key, value in scenario.get("view_after", {}).items():
            assert view[key] == value, f"{note}: after it, the view's {key} is {view[key]!r}"


@pytest.mark.parametrize("slug", sorted(TABLE_DATA))
def test_table_covers_every_rule(slug: str) -> None:
    table = TABLE_DATA[slug]
    # The rules every record shares (corrections, unknowns: REC-*) are shown both ways in
    # tests/engine/test_corrections.py; a game's table covers the game's own rules.
    rulebook = [r for r in get_ruleset(table["ruleset"]).rulebook if not r.startswith("REC-")]
    named = {s["rule"] for s in table["scenarios"]}
    assert not named - set(rulebook), f"rule ids not in the rulebook: {sorted(named - set(rulebook))}"
    assert not set(rulebook) - named, f"rules with no scenario: {sorted(set(rulebook) - named)}"
    if not table.get("both_ways"):
        return
    allowing = {s["rule"] for s in table["scenarios"] if s["verdict"] == "legal"}
    forbidding = {s["rule"] for s in table["scenarios"] if s["verdict"] in ("illegal", "disputed")}
    assert not set(rulebook) - allowing, f"no legal scenario for {sorted(set(rulebook) - allowing)}"
    assert not set(rulebook) - forbidding, f"no illegal scenario for {sorted(set(rulebook) - forbidding)}"


@pytest.mark.parametrize("slug", known_slugs())
def test_every_ruleset_has_a_dispute_table(slug: str) -> None:
    tables = {t["ruleset"] for t in TABLE_DATA.values()}
    assert slug in tables, f"no dispute table for ruleset {slug!r}: add {TABLES.name}/{slug}.json"
