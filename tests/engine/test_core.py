"""The core's own pieces: the agenda of pending decisions, the state codec, hidden cards,
capabilities and the import-free record format."""

from __future__ import annotations

import subprocess
import sys

import msgspec
import pytest

from engine.codec import CodecError, StateCodec
from engine.hidden import UNKNOWN, Pool, count_unknown, is_undetermined, undetermined
from engine.pending import Agenda, Chance, Deadline, Decision, Moment, Trigger, Window, decisions_for, due
from engine.registry import PluginError, UnknownRuleset, get_ruleset, known_slugs, load_plugin
from engine.rules import RuleViolation
from engine.ruleset import GameState


# -- the agenda ------------------------------------------------------------------------
def test_a_required_chance_comes_before_every_decision() -> None:
    agenda = Agenda(decisions=decisions_for([2, 0], "vote"), chance=Chance(kind="roll", seat=1))
    assert agenda.seats() == [] and agenda.decision(0) is None
    agenda.chance = None
    assert agenda.seats() == [0, 2]
    assert agenda.decision(2) == Decision(seat=2, kind="vote")
    assert agenda.decision(1) is None


def test_windows_let_other_seats_answer_without_a_pass() -> None:
    window = Window(seats=(1, 3), kinds=("very_special",), rule="X-1", subject="weapon on bunny 4")
    agenda = Agenda(decisions=decisions_for([0], "turn"), windows=[window])
    assert agenda.responders() == [1, 3]
    assert agenda.may_act() == [0, 1, 3]
    assert agenda.windows_for(3) == [window] and agenda.windows_for(0) == []
    # While the defender's die is owed, only responders may still act.
    agenda.chance = Chance(kind="roll", seat=2)
    assert agenda.may_act() == [1, 3]


def test_moments_match_the_first_turn_after_they_were_set() -> None:
    feed = Moment(kind="turn_end", seat=2, after=14)
    assert not feed.matches("turn_end", 2, 14)  # the turn it was set in does not count
    assert not feed.matches("turn_end", 1, 15)
    assert not feed.matches("turn_start", 2, 16)
    assert feed.matches("turn_end", 2, 16)
    anyone = Moment(kind="round_end")
    assert anyone.matches("round_end", None, 3)


def test_deadlines_resolve_before_triggers_then_by_age() -> None:
    at = Moment(kind="turn_end", seat=1, after=3)
    roam = Trigger(at=at, kind="roam", rule="R-1", subject="cyber bunny", since=5)
    old_feed = Deadline(at=at, kind="feed", rule="F-1", subject="bunny 2", since=9)
    new_feed = Deadline(at=at, kind="feed", rule="F-1", subject="bunny 7", since=11)
    elsewhere = Deadline(at=Moment(kind="turn_end", seat=0, after=3), kind="feed", rule="F-1",
                         subject="bunny 1", since=1)
    order = due([roam, new_feed, elsewhere, old_feed], "turn_end", 1, 4)
    assert order == [old_feed, new_feed, roam]
    assert due([roam], "turn_end", 1, 3) == []


def test_an_agenda_copy_is_independent() -> None:
    agenda = Agenda(decisions=decisions_for([0, 1], "night"))
    copy = agenda.copy()
    del copy.decisions[0]
    assert agenda.seats() == [0, 1] and copy.seats() == [1]


# -- the codec ---------------------------------------------------------------------------
class Card(msgspec.Struct):
    name: str
    under: list[str] = []


class Toy(GameState):
    __slots__ = ("cards", "known", "pair", "pool")

    cards: list[Card]
    known: list[set[str]]
    pool: Pool
    pair: tuple[int, str] | None


def toy() -> Toy:
    state = Toy()
    state._init_position()
    state.cards = [Card("a", ["b"]), Card("c")]
    state.known = [{"x", "y"}, set()]
    state.pool = Pool.of(["a", "a", "q"])
    state.pair = (3, "z")
    return state


def test_states_round_trip_with_nested_objects_and_sets() -> None:
    codec = StateCodec(Toy)
    state = toy()
    back = codec.decode(codec.encode(state))
    assert type(back) is Toy and codec.equal(back, state)
    assert back.known[0] == {"x", "y"} and back.pool.unseen == {"a": 2, "q": 1}
    back.cards[0].under.append("d")
    assert state.cards[0].under == ["b"], "decoding gives fresh objects"


def test_foreign_or_stale_bytes_are_refused_not_run() -> None:
    codec = StateCodec(Toy)
    import pickle

    with pytest.raises(CodecError):
        codec.decode(pickle.dumps(toy()))
    other = StateCodec(get_ruleset("bunnies").state_type)
    with pytest.raises(CodecError):
        other.decode(codec.encode(toy()))
    assert codec.fingerprint != other.fingerprint


def test_a_state_class_without_annotations_is_refused_at_once() -> None:
    class Careless(GameState):
        __slots__ = ("secret",)

    with pytest.raises(TypeError, match="secret"):
        StateCodec(Careless)


# -- hidden cards ------------------------------------------------------------------------
def test_a_card_comes_to_light_once() -> None:
    pool = Pool.of(["9C", "QH", "1D", "1D"])
    pool.reveal("9C", "X-1", "laid")
    with pytest.raises(RuleViolation, match="X-1: 9C cannot be laid"):
        pool.reveal("9C", "X-1", "laid")
    pool.reveal("1D", "X-1", "laid")
    pool.reveal("1D", "X-1", "laid")
    assert "1D" not in pool and len(pool) == 1
    with pytest.raises(RuleViolation):
        pool.reveal("ZZ", "X-2", "played")
    pool.hide("9C")
    assert "9C" in pool


def test_undetermined_effects_name_the_rule_and_the_fact() -> None:
    effect = undetermined("BUN-PICKUP-1", "legal only if seat 1 held no card of rank 9 or higher", seat=1)
    assert is_undetermined(effect) and effect.rule == "BUN-PICKUP-1" and effect.data["seat"] == 1
    assert count_unknown(["9C", UNKNOWN, UNKNOWN]) == 2


# -- plugins and capabilities ------------------------------------------------------------
def test_rulesets_come_from_entry_points() -> None:
    assert {"bunnies", "trust-no-bunny"} <= set(known_slugs())
    with pytest.raises(UnknownRuleset, match=r"known: .*bunnies"):
        get_ruleset("bunny")
    with pytest.raises(PluginError):
        load_plugin("warren.rulesets", "no-such-game")


def test_capabilities_are_declared_not_probed() -> None:
    tnb = get_ruleset("trust-no-bunny")
    assert tnb.capabilities.suspects is not None and "heuristic" in tnb.capabilities.bots
    bunnies = get_ruleset("bunnies")
    assert bunnies.capabilities.suspects is None and set(bunnies.capabilities.values) == {"greedy", "prolong"}


def test_the_record_format_loads_no_game() -> None:
    code = ("import sys, engine.record; "
            "print(sorted(m for m in sys.modules if m.startswith('engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['engine', 'engine.record', 'engine.rules']"


def test_the_fingerprint_follows_nested_structs_and_stays_small() -> None:
    """A nested Struct that changes a field changes the fingerprint; a Struct met many times
    (cards and effects shared by every union of a card game) is spelled out once, so the
    fingerprint's text does not grow with each use."""
    import msgspec

    from engine.codec import _shape

    class Face(msgspec.Struct):
        rank: int

    class Face2(msgspec.Struct):
        rank: str

    def state_with(face: type) -> type:
        annotations = {"a": list[face], "b": dict[str, face], "c": tuple[face, ...]}  # type: ignore[valid-type]
        return type("Holder", (GameState,), {"__slots__": ("a", "b", "c"), "__annotations__": annotations})

    one, two = StateCodec(state_with(Face)), StateCodec(state_with(Face2))
    assert one.fingerprint != two.fingerprint
    text = _shape(msgspec.inspect.type_info(one.schema), set())
    assert text.count("Face{") == 1 and text.count("<") >= 2
