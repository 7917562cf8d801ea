"""The recorder's shared reading of entries (seat prefixes, chance typed over the table's
template, players' names) and the pickers built from the offers, which the Record page
uses: every action of a game as the table saw it that the offers cover can be picked back,
field by field, for every ruleset."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.record import event_to_dict
from engine.redact import redact_game
from engine.registry import get_ruleset, known_slugs
from engine.rules import WarrenError
from engine.simulate import simulate_one
from logstore.recording.choices import (
    action_choices,
    build_action,
    picked_fields,
    seats_of,
    template_fields,
    template_values,
    typed_value,
)
from logstore.recording.entries import fill_template, player_names, read_entry, seat_of
from logstore.recording.session import Refusal, TableSession, table_header
from logstore.store import Store

PLAYERS = {"bunnies": 2, "trust-no-bunny": 6}


def _bare(event: Any) -> dict[str, Any]:
    record = event_to_dict(event)
    record.pop("seq")
    record.pop("hash", None)
    return record


def _as_picked(choice: Any, record: dict[str, Any]) -> dict[str, Any]:
    """What a scorekeeper picks to enter ``record``: typed fields as typed text."""
    picked = {}
    for spec in choice.fields:
        value = record.get(spec.name)
        picked[spec.name] = (json.dumps(value) if not isinstance(value, str) else value) \
            if spec.kind == "typed" and value is not None else value
    return picked


@pytest.mark.parametrize("slug", known_slugs())
def test_every_offered_action_of_a_table_game_can_be_picked_back(tmp_path: Path, slug: str) -> None:
    ruleset = get_ruleset(slug)
    game = simulate_one(ruleset, 9, 0, players=PLAYERS.get(slug, ruleset.min_players))
    if ruleset.capabilities.redacts:
        header, events = redact_game(ruleset, game.header, game.events)
    else:  # a table that saw every card (Quest records name them all)
        header, events = msgspec.structs.replace(game.header, source="recorded"), game.events
    header = msgspec.structs.replace(header, game_id="picked", hash=None)
    store = Store(tmp_path / "w.db")
    store.create_game(header)
    session = TableSession(store, "picked")
    picked_back = 0
    for event in events:
        if session.chance_template() is None:
            record = _bare(event)
            choices = action_choices(session.ruleset, session.offers())
            # whoever acted was offered something, or the table recorded chance it may (a timer)
            assert event.actor in seats_of(choices) or (event.actor is None and session.pending.optional)
            mine = [c for c in choices if c.seat == event.actor and c.tag == record["type"]]
            if any(_bare(o.event) == record for c in mine for o in c.offers):
                built = build_action(session, mine[0], _as_picked(mine[0], record))
                # the same action: a list of cards may come back in the offer's order
                assert {k: sorted(v) if isinstance(v, list) else v for k, v in _bare(built).items()} == \
                    {k: sorted(v) if isinstance(v, list) else v for k, v in record.items()}
                picked_back += 1
        assert not isinstance(session.enter(event), Refusal)
    assert picked_back > 20


@pytest.fixture()
def bunnies(tmp_path: Path) -> TableSession:
    store = Store(tmp_path / "w.db")
    return TableSession.start(store, table_header("bunnies", ["Ann", "Bo"], {"first_seat": 0}, game_id="g"))


def test_cards_picked_are_the_offer_that_has_them_and_other_sets_are_judged(bunnies: TableSession) -> None:
    bunnies.enter(read_entry(bunnies, ""))  # the deal, unseen
    bunnies.enter("draw")
    (lay,) = [c for c in action_choices(bunnies.ruleset, bunnies.offers()) if c.tag == "lay"]
    (cards,) = lay.fields
    assert cards.kind == "several" and "9C" in cards.values and len(cards.values) == 52
    offered = build_action(bunnies, lay, {"cards": ["9D", "9C"]})
    assert any(o.event is offered for o in lay.offers) and offered.cards == ["9C", "9D"]  # type: ignore[attr-defined]
    mixed = build_action(bunnies, lay, {"cards": ["9C", "TD"]})  # not an offer: the rules judge it
    assert not any(o.event is mixed for o in lay.offers)
    verdict = bunnies.judge(mixed)
    assert isinstance(verdict, Refusal) and verdict.rule.startswith("BUN-")
    with pytest.raises(WarrenError, match="nothing picked yet: cards"):
        picked_fields(lay, {"cards": []})


def test_a_field_the_offers_leave_out_is_typed(bunnies: TableSession) -> None:
    bunnies.enter(read_entry(bunnies, ""))
    (draw,) = action_choices(bunnies.ruleset, bunnies.offers())
    assert [(f.name, f.kind, f.required) for f in draw.fields] == [("card", "typed", False)]
    assert build_action(bunnies, draw, {"card": ""}).card is None  # type: ignore[attr-defined]
    assert build_action(bunnies, draw, {"card": "10C"}).card == "TC"  # type: ignore[attr-defined]
    assert typed_value('{"unblocked": 1}') == {"unblocked": 1} and typed_value("1.0") == "1.0"
    with pytest.raises(WarrenError, match="not valid JSON"):
        typed_value("{unblocked")


def test_the_first_mayor_is_picked_from_the_seats(tmp_path: Path) -> None:
    store = Store(tmp_path / "w.db")
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    session = TableSession.start(store, table_header("trust-no-bunny", names, game_id="t"))
    template = session.chance_template()
    assert template is not None and not template.complete
    (mayor,) = template_fields(session.ruleset, template, len(names))
    assert (mayor.name, mayor.kind, mayor.values) == ("first_mayor", "one", (0, 1, 2, 3, 4))
    with pytest.raises(WarrenError, match="give the first mayor"):
        template_values([mayor], {})
    with pytest.raises(WarrenError, match="the table saw part of this roles: give first_mayor"):
        read_entry(session, "")
    event = fill_template(session, template.event, template_values([mayor], {"first_mayor": 3}))
    assert not isinstance(session.enter(event), Refusal) and session.state.mayor == 3  # type: ignore[attr-defined]
    session.enter(read_entry(session, ""))  # the offers, unseen
    choices = action_choices(session.ruleset, session.offers())
    assert seats_of(choices) == [0, 1, 2, 3, 4]
    assert all(c.tag == "choose_item" and c.fields[0].fixed for c in choices)


def test_seat_prefixes_and_names() -> None:
    names = ["Ann", "Bo"]
    assert seat_of(names, "1: lay 9C") == ("lay 9C", 1)
    assert seat_of(names, "bo: pickup") == ("pickup", 1)
    assert seat_of(names, "act stage={\"a\": 1}") == ("act stage={\"a\": 1}", None)
    assert seat_of(names, "Cy: ready") == ("Cy: ready", None)  # nobody of that name: read as typed
    assert player_names(" Ann , Bo,, ") == ["Ann", "Bo"]
    with pytest.raises(WarrenError, match="two players are called 'ann'"):
        player_names(["Ann", "ann"])
    with pytest.raises(WarrenError, match="name the players"):
        player_names(["", " "])


def test_a_session_reopened_where_a_device_left_it_cannot_fork_the_game(bunnies: TableSession) -> None:
    from logstore.store import StaleSeq

    bunnies.enter(read_entry(bunnies, ""))
    left_at = bunnies.seq
    TableSession(bunnies.store, "g").enter("draw")  # another device
    again = TableSession(bunnies.store, "g", at_seq=left_at)
    assert again.state.phase == "draw"  # the position that device showed
    with pytest.raises(StaleSeq):
        again.enter("draw")
    assert bunnies.store.game("g").n_events == 2
    with pytest.raises(WarrenError, match="no position 9"):
        TableSession(bunnies.store, "g", at_seq=9)
