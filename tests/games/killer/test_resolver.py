"""The one resolver every Killer Bunnies game plays a card's primitives with
(engine.killer.interpreter: ``check_card``, then ``resolve`` over the card's continuation).

A toy game (a list of what happened for its state, a dict for its frame) holds the walk to
what the games rely on: every primitive is checked before any acts, in order, and a kit
refusal is the game's rule; the primitives act in order from the front of the continuation,
each taken off before it acts, until the game says the card waits, and the rest is kept for
when it resumes. The three games then play through it (their suites; a Quest card whose
primitive the game no longer plays is refused here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.killer.catalogue import effects as fx
from engine.killer.interpreter import _INTERPRETERS, Interpreter
from engine.killer.refusal import Refusal
from engine.rules import RuleViolation

State = list[str]
Frame = dict[str, Any]


@pytest.fixture
def toy() -> Any:
    interp: Interpreter[State, Frame, dict[str, Any]] = Interpreter("toy")

    @interp.check(fx.TakeCarrot)
    def _check_take(state: State, frame: Frame, effect: fx.TakeCarrot, ev: dict[str, Any]) -> None:
        state.append(f"check take {effect.count}")
        if ev.get("carrots") != effect.count:
            raise Refusal("carrots.count", f"name {effect.count} carrots", named=ev.get("carrots"))

    @interp.check(fx.SkipTurn)
    def _check_skip(state: State, frame: Frame, effect: fx.SkipTurn, ev: dict[str, Any]) -> None:
        state.append("check skip")
        if ev.get("player") is None:
            raise RuleViolation("TOY-SKIP", "name a player")

    @interp.apply(fx.TakeCarrot)
    def _take(state: State, frame: Frame, effect: fx.TakeCarrot, out: list[Any]) -> None:
        state.append(f"take {effect.count} (left {len(frame['todo'])})")
        out.append("took")
        if effect.count > 1:
            frame["waiting"] = True  # a choice to make: the card waits

    @interp.apply(fx.SkipTurn, fx.GainMoney)
    def _other(state: State, frame: Frame, effect: Any, out: list[Any]) -> None:
        state.append(fx.tag_of(effect))
        out.append(fx.tag_of(effect))

    yield interp
    _INTERPRETERS.remove(interp)


def _entered(state: State, frame: Frame, index: int, effect: fx.AnyEffect) -> None:
    frame.setdefault("entered", []).append((index, fx.tag_of(effect)))


def test_every_primitive_is_checked_in_order_before_any_acts(toy: Any) -> None:
    state: State = []
    frame: Frame = {}
    card = [fx.GainMoney(amount=1), fx.TakeCarrot(count=2), fx.SkipTurn()]
    toy.check_card(state, frame, card, {"carrots": 2, "player": 1}, enter=_entered)
    assert state == ["check take 2", "check skip"]  # gain_money has nothing to check
    assert frame["entered"] == [(0, "gain_money"), (1, "take_carrot"), (2, "skip_turn")]


def test_a_refused_check_stops_the_walk_and_a_kit_refusal_is_the_game_s_rule(toy: Any) -> None:
    state: State = []
    card = [fx.TakeCarrot(count=2), fx.SkipTurn()]
    with pytest.raises(RuleViolation) as refused:
        toy.check_card(state, {}, card, {"carrots": 1}, {"carrots.count": "TOY-CARROTS"})
    assert refused.value.rule == "TOY-CARROTS" and refused.value.facts == {"named": 1}
    assert state == ["check take 2"]  # the skip is never checked
    with pytest.raises(RuleViolation, match="name a player"):  # the game's own refusal, as is
        toy.check_card([], {}, [fx.SkipTurn()], {})
    with pytest.raises(KeyError, match=r"carrots\.count"):  # a code the game never mapped: loud
        toy.check_card([], {}, card, {"carrots": 1})


def test_a_primitive_the_game_does_not_play_is_refused_by_its_rule(toy: Any) -> None:
    state: State = []
    card = [fx.GainMoney(amount=1), fx.Feed()]  # gain_money is played, unchecked; feed is not
    with pytest.raises(RuleViolation, match="does not play its 'feed'") as refused:
        toy.check_card(state, {}, card, {}, {"card.unplayed": "TOY-CARD"})
    assert refused.value.rule == "TOY-CARD"
    toy.check_card(state, {}, card[:1], {}, {"card.unplayed": "TOY-CARD"})  # allowed


def test_the_primitives_act_from_the_front_until_the_card_waits(toy: Any) -> None:
    state: State = []
    todo: list[fx.AnyEffect] = [fx.GainMoney(amount=1), fx.TakeCarrot(count=2), fx.SkipTurn()]
    frame: Frame = {"todo": todo}
    out: list[Any] = []
    done = toy.resolve(state, frame, todo, out, lambda: frame.get("waiting", False), _entered)
    assert not done and [fx.tag_of(e) for e in todo] == ["skip_turn"]  # kept for the resume
    assert state == ["gain_money", "take 2 (left 1)"]  # taken off before it acts
    assert out == ["gain_money", "took"]
    frame["waiting"] = False
    assert toy.resolve(state, frame, todo, out, lambda: False, _entered, start=2)
    assert todo == [] and state[-1] == "skip_turn"
    assert frame["entered"] == [(0, "gain_money"), (1, "take_carrot"), (2, "skip_turn")]


def test_a_card_that_waits_on_its_last_primitive_has_nothing_left(toy: Any) -> None:
    todo: list[fx.AnyEffect] = [fx.TakeCarrot(count=3)]
    frame: Frame = {"todo": todo}
    assert toy.resolve([], frame, todo, [], lambda: frame.get("waiting", False))
    assert frame["waiting"] and todo == []


def test_quest_refuses_a_card_whose_primitive_it_no_longer_plays(tmp_path: Path) -> None:
    from engine.killer_bunnies_quest import catalogue
    from engine.killer_bunnies_quest.catalogue import QUEST
    from engine.killer_bunnies_quest.port import PORT
    from tests.games.killer.test_toy_primitive import QUEST_DECK
    from tests.games.killer.toy_census import Census
    from tests.games.killer_bunnies_quest.helpers import BLUE_CONGENIAL, GREEN_GLEEFUL, give, put
    from tests.scenarios.killer_bunnies_quest import Scenario

    (tmp_path / "toy.toml").write_text(QUEST_DECK, encoding="utf-8")
    QUEST.adopt(Census, PORT)
    try:
        with catalogue.SHELF.using([tmp_path]):
            g = Scenario(3, options={"extra_decks": ["toy"]})
            give(g, 950, 0)
            put(g, BLUE_CONGENIAL, "circle", 0)
            put(g, GREEN_GLEEFUL, "circle", 1)
            QUEST.forget(Census)  # the deck stays loaded; the game no longer plays its primitive
            with pytest.raises(RuleViolation, match="cannot be played this way: this game does "
                               "not play its 'census'") as no:
                g.play(0, 950, player=1)
            assert no.value.rule == "KBQ-CARD-CUSTOM" and no.value.facts == {"effect": "census"}
            assert 950 in g.state.seats[0].hand  # nothing changed
    finally:
        QUEST.forget(Census)
