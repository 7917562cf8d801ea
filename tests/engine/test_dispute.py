"""engine.dispute: reading actions, verdicts, legal actions, explanations, re-runs, branches,
claims. Generic tests run over every registered ruleset; the planted cases use Bunnies."""

from __future__ import annotations

import random
from functools import cache

import msgspec
import pytest

from bench.dispute import bench_verdict
from engine.bunnies.events import Draw, Flip, Lay, Pickup, Steal
from engine.dispute import (
    ActionError,
    Dispute,
    IdenticalBranch,
    IllegalAlternative,
    action_usage,
    check_claims,
    diff_views,
    explain_step,
    format_action,
    judge,
    legal_at,
    make_event,
    plan_branch,
    propose,
    read_action,
    record_claims,
    render_verdict,
    rerun,
)
from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict
from engine.registry import get_ruleset, known_slugs
from engine.replay import PositionError, Replay
from engine.rules import Effect
from engine.simulate import simulate_one
from tests.engine.test_dispute_tables import _setup

BUNNIES = get_ruleset("bunnies")


@cache
def _games(slug: str, n: int = 4) -> list[tuple[Header, list[Event]]]:
    rs = get_ruleset(slug)
    out = []
    for i in range(n):
        players = rs.min_players + i % (min(rs.max_players, 8) - rs.min_players + 1)
        game = simulate_one(rs, 5, i, players=players)
        out.append((game.header, game.events))
    return out


def _kings() -> Dispute:
    header, events = _setup("bunnies", "kings")
    return Dispute.of_record(BUNNIES, header, events)


# -- reading actions -------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "expected"), [
    ("lay QH QS", Lay(seq=3, actor=1, cards=["QH", "QS"])),
    ("lay cards=QH,QS", Lay(seq=3, actor=1, cards=["QH", "QS"])),
    ("LAY qh", Lay(seq=3, actor=1, cards=["QH"])),  # cards are read in either case
    ("lay 10C TC", Lay(seq=3, actor=1, cards=["TC", "TC"])),  # the ten as printed, or as recorded
    ("flip 0.3", Flip(seq=3, actor=1, slot="0.3")),
    ("steal 7H", Steal(seq=3, actor=1, card="7H")),
    ("pickup", Pickup(seq=3, actor=1)),
    ('{"type": "lay", "cards": ["QH"], "seq": 99, "hash": "x"}', Lay(seq=3, actor=1, cards=["QH"])),
    ('{"type": "draw", "actor": 0}', Draw(seq=3, actor=0)),
    ("draw actor=0", Draw(seq=3, actor=0)),
])
def test_actions_read_from_notation_and_json(text: str, expected: Event) -> None:
    proposed = read_action(BUNNIES, text)
    actor = proposed.actor if proposed.names_actor else 1
    assert make_event(BUNNIES, proposed, seq=3, actor=actor) == expected


def test_end_turn_is_read_with_a_hyphen_too() -> None:
    assert read_action(BUNNIES, "end-turn").tag == "end_turn"


@pytest.mark.parametrize(("text", "says"), [
    ("dance", "not an action of bunnies"),
    ("", "empty action"),
    ("lay", "cards"),
    ("flip 0.3 9C 0.2", "too many values"),
    ("lay QH colour=red", "has no field 'colour'"),
    ('{"type": "lay", "cards": [1]}', "takes a word"),
    ('{"type": "lay", ', "not valid JSON"),
    ("[1, 2]", "not an action"),
    ("lay 'QH", "No closing quotation"),
    ("draw actor=x", "seat number"),
])
def test_malformed_actions_are_refused_with_the_reason(text: str, says: str) -> None:
    with pytest.raises(ActionError) as err:
        proposed = read_action(BUNNIES, text)
        make_event(BUNNIES, proposed, seq=1, actor=0)
    assert says in str(err.value)
    assert repr(text.strip()) in str(err.value) or not text


@pytest.mark.parametrize("slug", known_slugs())
def test_notation_round_trips_every_recorded_event(slug: str) -> None:
    ruleset = get_ruleset(slug)
    for _, events in _games(slug):
        for event in events:
            text = format_action(ruleset, event, with_actor=True)
            proposed = read_action(ruleset, text)
            assert make_event(ruleset, proposed, seq=event.seq, actor=proposed.actor) == event, text


@pytest.mark.parametrize("slug", known_slugs())
def test_every_event_type_has_a_usage_line(slug: str) -> None:
    ruleset = get_ruleset(slug)
    assert [u.split()[0] for u in action_usage(ruleset)] == list(ruleset.events_by_type)


def test_the_actor_defaults_to_the_seat_to_act_and_conflicts_are_refused() -> None:
    d = _kings()
    state = d.state_at(1)
    assert propose(BUNNIES, state, "draw", n_seats=2).actor == 1
    assert propose(BUNNIES, state, "draw", n_seats=2, seat=0).actor == 0
    assert propose(BUNNIES, d.state_at(0), d.events()[0], n_seats=2).actor is None
    with pytest.raises(ActionError, match="names actor 0, but the seat given is 1"):
        propose(BUNNIES, state, "draw actor=0", n_seats=2, seat=1)
    with pytest.raises(ActionError, match="seat 2 is not in this game"):
        propose(BUNNIES, state, "draw", n_seats=2, seat=2)
    with pytest.raises(ActionError, match="actor 7 is not in this game"):
        propose(BUNNIES, state, '{"type": "draw", "actor": 7}', n_seats=2)


def test_several_seats_to_act_need_the_seat_named() -> None:
    ruleset = get_ruleset("trust-no-bunny")
    header, events = _games("trust-no-bunny")[0]
    replay = Replay(ruleset, header, events)
    at = next(s for s in range(replay.last_seq + 1) if len(ruleset.to_act(replay.state_at(s))) > 1)
    with pytest.raises(ActionError, match="may act now"):
        propose(ruleset, replay.state_at(at), "ready", n_seats=len(header.players))


def test_a_table_event_is_proposed_by_the_table() -> None:
    ruleset = get_ruleset("trust-no-bunny")
    header, events = _setup("trust-no-bunny", "vote")
    state = Replay(ruleset, header, events).final
    assert len(ruleset.to_act(state)) == 1
    assert propose(ruleset, state, "timeout", n_seats=5).actor is None
    assert propose(ruleset, state, "vote yes", n_seats=5).actor == ruleset.to_act(state)[0]


# -- verdicts ---------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", known_slugs())
def test_every_recorded_event_is_legal_at_the_position_before_it(slug: str) -> None:
    ruleset = get_ruleset(slug)
    for header, events in _games(slug):
        d = Dispute.of_record(ruleset, header, events)
        replay = Replay(ruleset, header, events)
        for seq in range(1, len(events) + 1, max(1, len(events) // 25)):
            verdict = d.verdict(events[seq - 1], at=seq - 1)
            assert verdict.legal and verdict.rule is None, (seq, verdict.message)
            derived = [(e.rule, e.kind) for e in replay.step(seq).effects]
            assert [(e.rule, e.kind) for e in verdict.effects] == derived


def test_an_illegal_verdict_names_rule_paraphrase_source_and_facts() -> None:
    verdict = _kings().verdict("lay 3D", at=4, seat=0)
    assert verdict.status == "illegal" and not verdict.legal
    assert verdict.rule is not None and verdict.rule.id == "BUN-LAY-2"
    assert verdict.rule.text == BUNNIES.rulebook["BUN-LAY-2"].text
    assert verdict.rule.source == BUNNIES.rulebook["BUN-LAY-2"].source
    assert verdict.facts["top"] == "9C" and verdict.facts["laid"] == ["3D"]
    assert verdict.position["seq"] == 4 and verdict.position["active"] == 0
    assert verdict.position_facts["pile"] == ["9C"]
    assert "ILLEGAL by BUN-LAY-2" in render_verdict(verdict, ["Ada", "Bo"])
    as_dict = verdict.to_dict()
    assert as_dict["seq"] == 5 and as_dict["rule"]["id"] == "BUN-LAY-2" and as_dict["status"] == "illegal"


def test_a_legal_verdict_lists_the_effects_that_would_follow() -> None:
    verdict = _kings().verdict("lay AC AD AH AS", at=6)
    assert verdict.status == "legal" and verdict.rule is None
    assert [(e.rule, e.kind) for e in verdict.effects] == [("BUN-BUNNY-1", "bunny_scored")]
    assert "LEGAL" in render_verdict(verdict)


def test_a_verdict_leaves_the_position_as_it_was() -> None:
    d = _kings()
    state = d.state_at(7)
    before = BUNNIES.view(state, "referee")
    judge(BUNNIES, state, "steal 3D", n_seats=2)
    judge(BUNNIES, state, "steal KC", n_seats=2)
    assert BUNNIES.view(state, "referee") == before


def test_a_verdict_can_be_asked_at_a_turn() -> None:
    d = _kings()
    seq = d.seq_of(turn=2)
    assert d.state_at(seq).turn == 2
    assert d.verdict("draw", turn=2).legal


def test_positions_out_of_range_are_refused() -> None:
    d = _kings()
    with pytest.raises(PositionError, match=r"positions 0\.\.9"):
        d.verdict("draw", at=10)
    with pytest.raises(PositionError):
        d.verdict("draw", at=-1)
    with pytest.raises(PositionError, match="not both"):
        d.seq_of(at=1, turn=1)


def test_positions_after_an_illegal_event_do_not_exist() -> None:
    header, events = _setup("bunnies", "kings")
    broken = [*events[:3], Lay(seq=4, actor=1, cards=["AC"]), *events[4:]]
    d = Dispute.of_record(BUNNIES, header, broken)
    assert d.last_seq == 3
    with pytest.raises(PositionError, match="stops being legal at seq 4"):
        d.verdict("draw", at=5)
    assert d.verdict(broken[3], at=3).rule.id == d.violation.rule  # type: ignore[union-attr]


def test_a_value_that_is_no_card_is_named_as_such() -> None:
    with pytest.raises(ActionError, match=r"'9X' is not a card.*10C, TC or 10♣"):
        _kings().verdict("lay 9X", at=2)
    with pytest.raises(ActionError, match="'ZZ' is not a card"):
        _kings().verdict({"type": "lay", "cards": ["ZZ"]}, at=2)


def test_the_ten_is_read_as_printed_or_as_recorded() -> None:
    # Ada holds no ten at seq 4, so both spellings reach the same rule about the same card.
    for typed in ("lay 10C", "lay TC", "lay tc"):
        verdict = _kings().verdict(typed, at=4, seat=0)
        assert verdict.rule is not None and verdict.rule.id == "BUN-BLIND-3", typed
        assert verdict.action["cards"] == ["TC"]


# -- legal actions ---------------------------------------------------------------------------------
@pytest.mark.parametrize("slug", known_slugs())
def test_every_listed_legal_action_is_judged_legal(slug: str) -> None:
    ruleset = get_ruleset(slug)
    header, events = _games(slug)[1]
    d = Dispute.of_record(ruleset, header, events)
    rng = random.Random(3)
    for at in sorted(rng.sample(range(d.last_seq + 1), min(12, d.last_seq + 1))):
        for seat in range(d.n_seats):
            found = d.legal(seat, at=at)
            assert found.notations == [format_action(ruleset, e) for e in found.actions]
            for event in found.actions[:8]:
                assert d.verdict(event, at=at).legal, (at, seat, ruleset.describe(event))
            if not found.actions:
                assert found.note


def test_a_seat_off_its_turn_has_no_legal_action_and_is_told_why() -> None:
    found = _kings().legal(0, at=1)
    assert found.actions == [] and "to act: Bo" in (found.note or "")
    assert legal_at(BUNNIES, _kings().state_at(1), 1, n_seats=2).notations == ["draw"]
    assert found.to_dict()["seq"] == 2


# -- explaining events -------------------------------------------------------------------------------
def test_explain_shows_rules_effects_and_the_change_of_state() -> None:
    d = _kings()
    draw = d.explain(2)
    assert draw.legal and [r.id for r, role in draw.rules if role == "governs"] == ["BUN-DRAW-1"]
    changes = {c.path: c for c in draw.changes}
    assert changes["hands[1]"].added == ["9C"] and changes["stock"].removed == ["9C"]
    assert changes["phase"].before == "draw" and changes["phase"].after == "lay"
    bunny = d.explain(7)
    assert ("BUN-BUNNY-1", "effect") in [(r.id, role) for r, role in bunny.rules]
    assert [e.kind for e in bunny.effects] == ["bunny_scored"]
    changed = {c.path: c for c in bunny.changes}
    assert changed["bunnies[1]"].added == ["A"] and "pile" not in changed  # the aces left play
    assert sorted(changed["hands[1]"].removed or []) == ["AC", "AD", "AH", "AS"]
    text = bunny.render()
    assert "bunny scored [BUN-BUNNY-1]" in text and "what changed (as the referee saw it)" in text
    assert "Bo's bunnies: +aces (0 → 1)" in text and "hands[" not in text  # in words, by name


def test_explain_the_first_illegal_event() -> None:
    header, events = _setup("bunnies", "kings")
    broken = [*events[:3], Lay(seq=4, actor=1, cards=["AC"])]
    explained = Dispute.of_record(BUNNIES, header, broken).explain(4)
    assert not explained.legal and explained.after is None
    assert explained.rules[-1][1] == "forbids" and explained.rules[-1][0].id == "BUN-LAY-3"
    with pytest.raises(PositionError):
        Dispute.of_record(BUNNIES, header, broken).explain(5)


def test_explain_step_leaves_the_state_unchanged() -> None:
    d = _kings()
    state = d.state_at(6)
    before = BUNNIES.view(state, "referee")
    explain_step(BUNNIES, state, d.events()[6], n_seats=2)
    assert BUNNIES.view(state, "referee") == before


def test_diff_views_reads_like_a_change_list() -> None:
    before = {"seq": 1, "phase": "draw", "hands": [["2C"], ["3D", "4D"]], "blinds": {"0.1": {"card": "KH"}}}
    after = {"seq": 2, "phase": "lay", "hands": [["2C", "9H"], ["3D", "4D"]], "blinds": {}}
    lines = [c.line() for c in diff_views(before, after)]
    assert lines == ["phase: draw -> lay", "hands[0]: +9H (1 -> 2)", 'blinds[0.1]: gone (was {"card":"KH"})']


# -- re-runs ------------------------------------------------------------------------------------------
def test_rerun_under_another_first_seat_finds_the_planted_difference() -> None:
    header, events = _setup("bunnies", "kings")
    result = rerun(BUNNIES, header, list(events), {"first_seat": 0})
    assert result.changed == {"first_seat": {"original": 1, "variant": 0}}
    first = result.first_difference
    assert first is not None and first.seq == 1 and first.what == "effects"
    assert result.variant.status == "stopped" and result.variant.violation["seq"] == 2  # type: ignore[index]
    assert result.outcome_differs


def test_rerun_under_another_hand_size_differs_at_the_deal() -> None:
    header, events = _setup("bunnies", "kings")
    result = rerun(BUNNIES, header, list(events), {"hand_size": 7})
    first = result.first_difference
    assert first is not None and first.seq == 1 and first.what == "verdict"
    assert first.variant["rule"]["id"] == "BUN-DEAL-1"  # type: ignore[index]


def test_rerun_under_another_steal_reading_differs_at_the_steal() -> None:
    header, events = _setup("bunnies", "two-bunnies-blind-steal")
    game = [*events, Steal(seq=len(events) + 1, actor=0, card="9D")]
    assert Replay(BUNNIES, header, game).violation is None
    result = rerun(BUNNIES, header, game, {"steal_from": "hand"})
    first = result.first_difference
    assert first is not None and first.seq == len(game) and first.what == "verdict"
    assert first.original["status"] == "legal"  # type: ignore[index]
    assert first.variant["rule"]["id"] == "BUN-BUNNY-3"  # type: ignore[index]
    assert result.differing == 1 and "first difference at event" in result.render()


def test_rerun_with_the_same_options_finds_nothing() -> None:
    header, events = _games("bunnies")[0]
    result = rerun(BUNNIES, header, events, {"first_seat": 1})
    assert result.changed == {} and result.first_difference is None and not result.outcome_differs


def test_rerun_refuses_an_option_the_ruleset_does_not_have() -> None:
    header, events = _games("bunnies")[0]
    with pytest.raises(Exception, match="bad option"):
        rerun(BUNNIES, header, events, {"colour": "red"})


# -- branches (the pure part) ---------------------------------------------------------------------------
def test_a_branch_keeps_the_prefix_and_reports_where_the_continuation_diverges() -> None:
    header, events = _setup("bunnies", "kings")
    plan = plan_branch(BUNNIES, header, list(events), 2, ["lay AC"], game_id="k~1",
                       created="2026-02-01T00:00:00Z")
    assert plan.header.branch is not None and plan.header.branch.game_id == header.game_id
    assert plan.header.branch.seq == 2 and plan.header.game_id == "k~1"
    assert plan.events[:2] == list(events[:2]) and plan.events[2] == Lay(seq=3, actor=1, cards=["AC"])
    # Bo laid an ace instead of the nine: Ada's recorded draw still fits, her king does not.
    assert plan.divergence is not None and plan.continued == 1
    assert (plan.divergence.parent_seq, plan.divergence.branch_seq) == (5, 5)
    assert plan.divergence.rule == "BUN-LAY-2"


def test_a_branch_identical_to_its_parent_is_refused() -> None:
    header, events = _setup("bunnies", "kings")
    with pytest.raises(IdenticalBranch, match="what the game recorded after seq 1"):
        plan_branch(BUNNIES, header, list(events), 1, [events[1]], game_id="k~2",
                    created="2026-02-01T00:00:00Z")
    with pytest.raises(IdenticalBranch):
        plan_branch(BUNNIES, header, list(events), 2, ["lay 9C"], game_id="k~2",
                    created="2026-02-01T00:00:00Z", seat=1)
    # Inserted before the recorded event, the same action makes another game.
    plan = plan_branch(BUNNIES, header, list(events), 1, [events[1]], game_id="k~2",
                       created="2026-02-01T00:00:00Z", replaces=0)
    assert plan.divergence is not None


def test_a_branch_whose_continuation_stays_legal_has_no_divergence() -> None:
    header, events = _setup("bunnies", "kings")
    plan = plan_branch(BUNNIES, header, list(events), len(events), ["pickup"], game_id="k~2",
                       created="2026-02-01T00:00:00Z", seat=0)
    assert plan.divergence is None and plan.continued == plan.continuation == 0


def test_an_illegal_alternative_is_refused_with_its_verdict() -> None:
    header, events = _setup("bunnies", "kings")
    with pytest.raises(IllegalAlternative, match="BUN-LAY-2") as err:
        plan_branch(BUNNIES, header, list(events), 4, ["lay 3D"], game_id="k~3",
                    created="2026-02-01T00:00:00Z", seat=0)
    assert err.value.verdict.rule is not None


def test_alternatives_may_stand_in_for_fewer_parent_events() -> None:
    header, events = _setup("bunnies", "kings")
    plan = plan_branch(BUNNIES, header, list(events), 7, ["peek top"], game_id="k~4",
                       created="2026-02-01T00:00:00Z", replaces=0)
    assert plan.replaced == 0 and plan.divergence is None  # the recorded end_turn still follows
    assert plan.continued == len(events) - 7


# -- claims ------------------------------------------------------------------------------------------------
def test_claims_the_engine_derives_are_not_disputed() -> None:
    effects = (Effect("BUN-BUNNY-1", "bunny_scored", {"seat": 1, "rank": "A", "cards": ["AC", "AD"]}),)
    assert check_claims(BUNNIES, 5, [{"effect": "bunny_scored", "rank": "A"}], effects) == []
    assert check_claims(BUNNIES, 5, [{"rule": "BUN-BUNNY-1", "cards": ["AD", "AC"]}], effects) == []
    claims = [{"effect": "bunny_scored", "rank": "K"}, {"effect": "went_out"}, {"rule": "BUN-NOPE-1"},
              {"seat": 1}]
    disputed = check_claims(BUNNIES, 5, claims, effects)
    assert [d.rule for d in disputed] == ["BUN-BUNNY-1", None, "BUN-NOPE-1", None]
    assert "not in the rulebook" in disputed[2].message
    assert "names an 'effect' or a 'rule'" in disputed[3].message


def test_a_record_with_claims_reports_the_disputed_ones_apart_from_violations() -> None:
    header, events = _setup("bunnies", "kings")
    claimed = [event_to_dict(e) for e in events]
    claimed[6]["claims"] = [{"effect": "bunny_scored", "rule": "BUN-BUNNY-1", "rank": "A"}]
    claimed[2]["claims"] = [{"effect": "bunny_scored", "rule": "BUN-BUNNY-1"}]
    typed = [msgspec.convert(c, BUNNIES.events_by_type[c["type"]]) for c in claimed]
    report = record_claims(BUNNIES, header, typed)
    assert report.claims == 2 and report.violation is None
    assert [(d.seq, d.rule) for d in report.disputed] == [(3, "BUN-BUNNY-1")]


# -- the benchmark function -------------------------------------------------------------------------------
def test_bench_verdict_reports_its_figures() -> None:
    figures = bench_verdict(events=300, verdicts=20)
    assert set(figures) == {"events", "open_ms", "mean_ms", "median_ms", "p99_ms", "max_ms"}
    assert figures["events"] > 0


def test_a_game_without_events_has_one_position() -> None:
    header = Header(warren=FORMAT_VERSION, kind="header", game_id="g", ruleset="bunnies", options={},
                    players=[Player(seat=0, name="A"), Player(seat=1, name="B")], source="recorded",
                    created="2026-01-01T00:00:00Z")
    d = Dispute.of_record(BUNNIES, header, [])
    assert d.last_seq == 0 and d.verdict("draw", at=0).rule.id == "BUN-DEAL-1"  # type: ignore[union-attr]
