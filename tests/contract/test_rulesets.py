"""The contract every registered ruleset keeps, run over each of them.

A ruleset found through the ``warren.rulesets`` entry points is tested here without
anybody writing a line for it (the eventsourcing / OpenSpiel habit: one suite, every
implementation). What is checked, on simulated games of several seeds and player counts:

* random playthroughs end in a legal outcome (or run out of the event budget legally);
* every action ``legal_actions`` offers is accepted by ``apply``, and actions it does not
  offer (legal at other positions, or offered to another seat) are refused: the two can
  never drift apart;
* a refused event leaves the state exactly as it was;
* ``copy_state`` shares nothing mutable with the original;
* every state round-trips through the typed codec;
* replay to N equals the fold of the first N events;
* simulation is byte-reproducible;
* the game as each seat (and the table) saw it, redacted to a record with unknowns, checks
  clean and shows that perspective the same view at every position;
* who may act, chance and legal actions all read from ``pending``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from engine.pending import Agenda
from engine.reader import check_events, read_record
from engine.record import Event, Header
from engine.redact import redact_game, redact_mapped
from engine.registry import get_ruleset, known_slugs
from engine.replay import Replay
from engine.rules import RuleViolation
from engine.ruleset import Ruleset
from engine.simulate import SimulatedGame, simulate_one

Corpus = tuple[Ruleset[Any, Any], list[SimulatedGame]]

SEEDS = (1, 2, 3)
MAX_EVENTS = 400
"""Enough to reach the middle and often the end of every game; positions are what matter."""


def _player_counts(rs: Ruleset[Any, Any]) -> list[int]:
    counts = {rs.min_players, rs.max_players, (rs.min_players + rs.max_players) // 2}
    return sorted(counts)


def _games(slug: str) -> Iterator[SimulatedGame]:
    rs = get_ruleset(slug)
    for seed in SEEDS:
        for n in _player_counts(rs):
            yield simulate_one(rs, seed, n, players=n, bots=("random",), max_events=MAX_EVENTS)


@pytest.fixture(scope="module", params=known_slugs())
def corpus(request: pytest.FixtureRequest) -> Corpus:
    slug: str = request.param
    return get_ruleset(slug), list(_games(slug))


def _positions(rs: Ruleset[Any, Any], game: SimulatedGame, step: int = 1) -> Iterator[tuple[int, Any]]:
    """(seq, live state) at every ``step``-th position of a game."""
    state = rs.setup(game.header)
    yield 0, state
    for event in game.events:
        rs.apply(state, event)
        if state.seq % step == 0:
            yield state.seq, state


@pytest.mark.parametrize("slug", known_slugs())
def test_playthroughs_end_legally(slug: str) -> None:
    rs = get_ruleset(slug)
    # The default table (random against greedy bots) with the full event budget.
    games = [simulate_one(rs, seed, n, players=n) for seed in SEEDS for n in _player_counts(rs)]
    ended = 0
    for game in games:
        assert check_events(rs, game.header, game.events) is None
        state = rs.setup(game.header)
        rs.fold(state, game.events)
        if state.over:
            ended += 1
            outcome = rs.outcome(state)
            assert outcome is not None, "a finished game reports its outcome"
            assert outcome.rule in rs.rulebook
            assert all(0 <= w < len(game.header.players) for w in outcome.winners)
            assert rs.pending(state).seats() == [] and rs.to_act(state) == []
        else:
            assert rs.to_act(state) or rs.pending(state).chance, "a game stops early only when it is over"
    assert ended > 0, "at least one random playthrough reaches the end"


def test_simulation_is_byte_reproducible(corpus: Corpus) -> None:
    rs, games = corpus
    game = games[-1]
    n = len(game.header.players)
    again = simulate_one(rs, SEEDS[-1], n, players=n, bots=("random",), max_events=MAX_EVENTS)
    assert again.lines() == game.lines()
    record = read_record(b"".join(game.lines()), "sim.jsonl", rs)
    assert record.chain == "sealed"


def _agenda_consistent(rs: Ruleset[Any, Any], state: Any, n: int) -> None:
    agenda = rs.pending(state)
    assert isinstance(agenda, Agenda)
    assert rs.to_act(state) == agenda.seats()
    for seat in range(n):
        offered = rs.legal_actions(state, seat)
        if agenda.decision(seat) is None and not agenda.windows_for(seat):
            assert offered == [], f"seat {seat} owes nothing but is offered {offered[:3]}"
    if agenda.chance is not None:
        assert agenda.seats() == []


def test_legal_actions_are_exactly_what_apply_accepts(corpus: Corpus) -> None:
    rs, games = corpus
    rng = random.Random(7)
    for game in games[:4]:
        n = len(game.header.players)
        seen: list[Event] = [e for e in game.events if e.actor is not None]
        for seq, state in _positions(rs, game, step=3):
            if state.over:
                break
            _agenda_consistent(rs, state, n)
            before = rs.codec.record(state)
            offered: dict[int, set[bytes]] = {}
            offered_actions: dict[int, list[Event]] = {}
            for seat in range(n):
                actions = offered_actions[seat] = rs.legal_actions(state, seat)
                offered[seat] = {msgspec.json.encode(a) for a in actions}
                for action in rng.sample(actions, min(len(actions), 6)):
                    assert action.seq == seq + 1 and action.actor == seat
                    trial = rs.copy_state(state)
                    rs.apply(trial, action)  # raises if an offered action is refused
            # Actions not offered: legal elsewhere in the game, or offered to another seat.
            candidates = [msgspec.structs.replace(e, seq=seq + 1, hash=None)
                          for e in rng.sample(seen, min(8, len(seen)))]
            for seat in range(n):
                for other, actions in offered_actions.items():
                    if other != seat and actions:
                        candidates.append(msgspec.structs.replace(rng.choice(actions), actor=seat))
            for candidate in candidates:
                assert candidate.actor is not None
                if msgspec.json.encode(candidate) in offered.get(candidate.actor, set()):
                    continue
                if rs.pending(state).windows_for(candidate.actor):
                    continue  # responses in an open window are offered by window_actions
                trial = rs.copy_state(state)
                with pytest.raises(RuleViolation):
                    rs.apply(trial, candidate)
                # A refused event leaves the state as it was.
                assert rs.codec.record(trial) == before, f"refused {candidate} changed the state"


def _shared_mutables(a: Any, b: Any, path: str, out: list[str], depth: int = 0) -> None:
    if depth > 12 or a is None or isinstance(a, (str, int, float, bool, bytes, frozenset)):
        return
    if isinstance(a, msgspec.Struct) and a.__struct_config__.frozen:
        return  # frozen records (events, decisions) are values by contract
    if dataclasses.is_dataclass(a) and type(a).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        return
    if isinstance(a, tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _shared_mutables(x, y, f"{path}[{i}]", out, depth + 1)
        return
    if a is b:
        out.append(path)
        return
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            _shared_mutables(x, y, f"{path}[{i}]", out, depth + 1)
    elif isinstance(a, dict):
        for key in a:
            if key in b:
                _shared_mutables(a[key], b[key], f"{path}[{key!r}]", out, depth + 1)
    elif isinstance(a, set):
        return
    elif isinstance(a, msgspec.Struct):
        for name in a.__struct_fields__:
            _shared_mutables(getattr(a, name), getattr(b, name), f"{path}.{name}", out, depth + 1)
    elif hasattr(type(a), "__slots__"):
        for cls in type(a).__mro__:
            for name in cls.__dict__.get("__slots__", ()):
                if hasattr(a, name):
                    _shared_mutables(getattr(a, name), getattr(b, name), f"{path}.{name}", out, depth + 1)


def test_copies_share_nothing_mutable_and_round_trip_the_codec(corpus: Corpus) -> None:
    rs, games = corpus
    codec = rs.codec
    for game in games:
        for _, state in _positions(rs, game, step=7):
            copy = rs.copy_state(state)
            shared: list[str] = []
            _shared_mutables(state, copy, "state", shared)
            assert not shared, f"copy_state shares {shared[:5]}"
            assert codec.equal(state, copy)
            back = codec.decode(codec.encode(state))
            assert type(back) is type(state)
            assert codec.equal(back, state)
            assert rs.view(back, "referee") == rs.view(state, "referee")


def test_replay_to_n_equals_the_prefix_fold(corpus: Corpus) -> None:
    rs, games = corpus
    rng = random.Random(11)
    for game in games[:3]:
        replay: Replay[Any] = Replay(rs, game.header, game.events, every=16)
        assert replay.violation is None
        for n in sorted(rng.sample(range(len(game.events) + 1), min(12, len(game.events) + 1))):
            state = rs.setup(game.header)
            rs.fold(state, game.events[:n])
            assert rs.codec.equal(replay.state_at(n), state)


def test_every_phase_a_game_reaches_has_words(corpus: Corpus) -> None:
    """The replay's heading said "bottom" and "turn 34 · turn": each phase is said in the
    table's words, by the ruleset, never as the state's own name."""
    rs, games = corpus
    reached = {state.phase for game in games for _seq, state in _positions(rs, game)}
    unsaid = sorted(p for p in reached if p not in rs.phase_words)
    assert not unsaid, f"{rs.slug}: no words for the phases {unsaid}"


def test_views_are_json_and_name_their_position(corpus: Corpus) -> None:
    """A view is JSON; a game that types its views (``view_type``) gives views that are
    that Struct's JSON, every field of the type its Struct says (engine.said), which is
    what its words read."""
    rs, games = corpus
    for game in games[:2]:
        n = len(game.header.players)
        for seq, state in _positions(rs, game, step=11):
            for perspective in [*range(n), "spectator", "referee"]:
                view = rs.view(state, perspective)
                msgspec.json.encode(view)
                assert view["seq"] == seq and view["perspective"] == perspective
                if rs.view_type is not None:
                    typed = msgspec.convert(view, rs.view_type)
                    assert msgspec.to_builtins(typed) == view, (rs.slug, seq, perspective)


def test_every_fact_of_an_effect_is_typed(corpus: Corpus) -> None:
    """A game whose words read types (``vocabulary.types``) types every fact its effects
    carry, and each value is of a type its Struct allows: a new fact without a type, or a
    fact whose value its type does not foresee, would be worded blind."""
    rs, games = corpus
    hints = rs.vocabulary.hints
    if not rs.vocabulary.types:
        pytest.skip(f"{rs.slug} words its facts by key tables")
    wrong: set[str] = set()
    for game in games:
        bound = rs.for_game(game.header)
        state = bound.setup(game.header)
        for event in game.events:
            for effect in bound.apply(state, event):
                for key, value in effect.data.items():
                    if key not in hints:
                        wrong.add(f"{effect.kind}.{key}: no type")
                        continue
                    plan = None if value is None else rs.vocabulary.plan_for(hints[key], value)
                    arm = None if plan is None else plan.arm
                    if value is not None and arm is None:
                        wrong.add(f"{effect.kind}.{key}: {value!r} fits none of its types")
                    elif arm is not None:
                        try:  # as it is stored: JSON, keys as text
                            msgspec.convert(msgspec.json.decode(msgspec.json.encode(value)), arm)
                        except msgspec.ValidationError as error:
                            wrong.add(f"{effect.kind}.{key}: {value!r} ({error})")
    assert not wrong, sorted(wrong)[:10]


def test_a_game_as_each_seat_saw_it_checks_and_shows_each_seat_the_same(corpus: Corpus) -> None:
    """The record a seat (or the table) could have written (engine.redact) is a legal game
    played at the table, and folding it gives that perspective the very views the full game
    gives it: a view shows nothing but what the perspective saw."""
    rs, games = corpus
    if not rs.capabilities.redacts:
        pytest.skip(f"{rs.slug} does not declare redaction (its refusal is tested below)")
    for game in games[:3]:
        n = len(game.header.players)
        for perspective in [*range(n), "spectator"]:
            header, events, origin = redact_mapped(rs, game.header, game.events, perspective)
            # one event or more for each (a table form may write the draws the full record
            # left to the engine: Killer Bunnies Quest)
            assert header.source == "recorded" and sorted(set(origin)) == list(range(len(game.events)))
            assert check_events(rs, header, events) is None, f"as {perspective} saw it"
            seen = _group_ends(_positions(rs, SimulatedGame(header, events)), origin)
            for (seq, full), (_, partial) in zip(_positions(rs, game), seen, strict=True):
                seen_full, seen_partial = rs.view(full, perspective), rs.view(partial, perspective)
                assert _unnumbered(seen_full) == _unnumbered(seen_partial), f"{perspective} at seq {seq}"


def _unnumbered(view: dict[str, Any]) -> dict[str, Any]:
    """A view without its seq (the redacted record numbers its events afresh)."""
    return {k: v for k, v in view.items() if k != "seq"}


def _group_ends(positions: Iterator[tuple[int, Any]], origin: list[int]) -> Iterator[tuple[int, Any]]:
    """The positions of a redacted record after the last event written for each event of
    the full record (and the start)."""
    for seq, state in positions:
        if seq == 0 or seq == len(origin) or origin[seq] != origin[seq - 1]:
            yield seq, state


def test_a_game_without_redaction_is_refused_not_copied(corpus: Corpus) -> None:
    """A ruleset that does not declare redaction cannot hand out its record as a redacted
    one: both ``redact_game`` and ``Ruleset.redact`` refuse it."""
    from engine.rules import WarrenError

    rs, games = corpus
    if rs.capabilities.redacts:
        assert type(rs).redact is not Ruleset.redact or not _hides_anything(rs, games[0]), \
            f"{rs.slug} declares redaction and hides information, but never says what a seat saw"
        return
    game = games[0]
    with pytest.raises(WarrenError, match="does not declare redaction"):
        redact_game(rs, game.header, game.events, 0)
    with pytest.raises(WarrenError, match="does not declare redaction"):
        rs.redact(game.events[0], 0, rs.setup(game.header))


def _hides_anything(rs: Ruleset[Any, Any], game: SimulatedGame) -> bool:
    return any(rs.event_view(e, 0) != rs.event_view(e, "referee") for e in game.events)


def _leaves(value: Any) -> Iterator[Any]:
    """Every scalar inside a record or a view (dict keys are names, not values)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _leaves(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _leaves(item)
    else:
        yield value


def _names_of(value: Any) -> set[str]:
    """The strings a record or view holds (cards, roles, Items...), "?" left out."""
    return {v for v in _leaves(value) if isinstance(v, str) and v != "?"}


def _masked(full: Any, shown: Any, written: Any, path: str = "") -> Iterator[str]:
    """Where the event as the perspective saw it masks a value (``"?"`` or null in its place)
    that the event holds, yet the redacted event writes it."""
    if isinstance(full, dict) and isinstance(shown, dict):
        for key, value in full.items():
            if key in shown and key not in ("hash", "seq"):
                mine = written.get(key) if isinstance(written, dict) else None
                yield from _masked(value, shown[key], mine, f"{path}.{key}")
    elif isinstance(full, list) and isinstance(shown, list):
        for i, value in enumerate(full):
            if i < len(shown):
                mine = written[i] if isinstance(written, list) and i < len(written) else None
                yield from _masked(value, shown[i], mine, f"{path}[{i}]")
    elif shown in ("?", None) and full not in ("?", None) and not isinstance(full, dict | list) \
            and written == full:
        yield f"{path} = {full!r}"


def test_a_redacted_record_holds_nothing_its_seat_did_not_see(corpus: Corpus) -> None:
    """Every field of every event, not only the views folded from them: each value the
    record written as a perspective saw it takes from the full event (a card, a role, an
    Item) is one that perspective saw, in the event as it saw it happen or in its own view
    of the position just before or just after it."""
    rs, games = corpus
    if not rs.capabilities.redacts:
        pytest.skip(f"{rs.slug} does not declare redaction")
    for game in games[:3]:
        effective, _ = rs.effective(game.events)
        for perspective in [*range(len(game.header.players)), "spectator"]:
            _, events = redact_game(rs, game.header, game.events, perspective)
            state = rs.setup(game.header)
            before = _names_of(rs.view(state, perspective))
            for original, written in zip(effective, events, strict=False):
                rs.apply(state, original)
                after = _names_of(rs.view(state, perspective))
                full = _names_of(msgspec.to_builtins(original))
                saw = before | after | _names_of(rs.event_view(original, perspective))
                told = (_names_of(msgspec.to_builtins(written)) & full) - saw
                assert not told, f"{rs.slug} as {perspective}, event {original.seq}: it holds {sorted(told)}"
                masked = list(_masked(msgspec.to_builtins(original), rs.event_view(original, perspective),
                                      msgspec.to_builtins(written)))
                assert not masked, f"{rs.slug} as {perspective} saw event {original.seq}: {masked}"
                before = after


def test_redaction_is_idempotent(corpus: Corpus) -> None:
    """A record redacted as a perspective saw it, redacted again as the same one, is itself."""
    rs, games = corpus
    if not rs.capabilities.redacts:
        pytest.skip(f"{rs.slug} does not declare redaction")
    for game in games[:2]:
        for perspective in [*range(len(game.header.players)), "spectator"]:
            header, events = redact_game(rs, game.header, game.events, perspective)
            again_header, again = redact_game(rs, header, events, perspective)
            assert again_header == header
            assert [msgspec.to_builtins(e) for e in again] == [msgspec.to_builtins(e) for e in events], \
                f"{rs.slug} as {perspective}"


def test_header_options_are_typed(corpus: Corpus) -> None:
    rs, games = corpus
    header: Header = games[0].header
    assert isinstance(rs.options(header), rs.options_type)
    assert rs.state_type is type(rs.setup(header))


def test_every_option_is_bounded_and_refused_outside_its_bounds(corpus: Corpus) -> None:
    # A sealed, legal record may carry any option value: a number with no bound is a
    # memory bomb (engine.options). Each must be bounded on its type, and refused beyond.
    from engine.options import bounds, unbounded
    from engine.rules import WarrenError

    rs, games = corpus
    assert unbounded(rs.options_type) == [], f"{rs.slug}: options without bounds"
    header: Header = games[0].header
    for name, said in bounds(rs.options_type).items():
        if not said or ".." not in said:
            continue
        huge = 10**12
        value: Any = huge
        if "values" in said:
            value = [huge] * 5 if not said.startswith("0 to") else {"1": huge}
        bad = msgspec.structs.replace(header, options={**header.options, name: value})
        with pytest.raises(WarrenError, match=f"bad option for {rs.slug}: {name}"):
            rs.check_header(bad)


def test_a_ruleset_bound_to_its_game_plays_it_the_same(corpus: Corpus) -> None:
    """``for_game`` changes how a game is worded, never how it is played."""
    rs, games = corpus
    for game in games[:2]:
        bound = rs.for_game(game.header)
        assert type(bound) is type(rs) and bound.slug == rs.slug
        assert bound.for_game(game.header) is bound  # asked again, the same
        mine, theirs = rs.setup(game.header), bound.setup(game.header)
        for event in game.events:
            assert rs.apply(mine, event) == bound.apply(theirs, event)
        assert rs.codec.equal(mine, theirs)


PYTHON_TEXT = ("=[", "['", "{'", "None", "True", "False")
"""What a Python repr leaks into a sentence (``cards=['AS']``)."""


def test_every_event_and_change_reads_in_words(corpus: Corpus) -> None:
    """engine.wording: a ruleset's own words, or the generic ones; either way sentences with
    players by name, never Python's punctuation."""
    rs, games = corpus
    game = games[0]
    names = [f"Player{i}" for i in range(len(game.header.players))]
    replay = Replay(rs, game.header, game.events)
    for seq in range(1, replay.last_seq + 1, max(1, replay.last_seq // 40)):
        step = replay.step(seq)
        for seen in ("referee", "spectator", 0):
            text = rs.describe(step.event, names, seen)
            assert text and not any(p in text for p in PYTHON_TEXT), (seq, seen, text)
            assert "seat " not in text, (seq, seen, text)  # the player is named
            for line in rs.describe_changes(rs.view(step.before, seen), rs.view(step.after, seen), names):
                assert not any(p in line for p in PYTHON_TEXT), (seq, seen, line)
        for key, value in msgspec.structs.asdict(step.event).items():
            assert isinstance(rs.describe_fact(key, value, names), str)  # any field has words
    final = replay.state_at(replay.last_seq)
    outcome = rs.outcome(final)
    if outcome is not None:
        said = rs.describe_outcome(outcome, names)
        assert outcome.rule in said and all(names[w] in said for w in outcome.winners)


@pytest.mark.parametrize("slug", ["bunnies", "trust-no-bunny", "killer-bunnies-quest", "kinderbunnies",
                                  "killer-bunnies-odyssey"])
def test_an_effect_says_the_same_after_the_game_goes_on(slug: str) -> None:
    """An effect is a fact about its event: later events may not change what it says (an
    Odyssey attack's targets were once the strike's own list, emptied as its rolls came in,
    so the projections and explanations read an attack on nobody)."""
    rs = get_ruleset(slug)
    encode = msgspec.json.Encoder().encode
    for i in range(6):
        game = simulate_one(rs, 9, i)
        state = rs.setup(game.header)
        said = [(effect, encode(effect.data)) for event in game.events for effect in rs.apply(state, event)]
        changed = [effect for effect, at_the_time in said if encode(effect.data) != at_the_time]
        assert not changed, changed[:3]
