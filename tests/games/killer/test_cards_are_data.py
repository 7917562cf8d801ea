"""Cards are data: a card of one game's catalogue plays in another game's deck file, with no
code added for the card.

- Quest's Fluorine Gas, written into an Odyssey personal deck (the Odyssey set's d12 for
  Quest's black d12, a code, copies and a card cost, which an Odyssey deck file asks of every
  card), is played by Odyssey's own rules: a level-9 Ground Weapon attack.
- A KinderBunnies Safety Hazard, written into a Quest variant (the Blue Starter box plus a
  deck of hazards, the set declaring Kinder's five d10s), is played by Quest's own
  ``roll_matches``, target check and ``kill``: on an opponent's bunny, which dies when no
  die shows the number. (Quest read ``roll_matches`` without its ``target``, which only
  Kinder's cards used; this test found it.)"""

from __future__ import annotations

import tomllib
from pathlib import Path

from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.library import SHELF
from engine.reader import check_events
from engine.simulate import simulate_one

ROOT = Path(__file__).resolve().parents[3]
QUEST_BLUE = ROOT / "engine" / "killer_bunnies_quest" / "cards" / "blue.toml"


def _quest_card(card_id: str) -> dict:  # type: ignore[type-arg]  # a TOML table as read
    cards = tomllib.loads(QUEST_BLUE.read_text())["card"]
    return next(c for c in cards if c["id"] == card_id)


def test_a_quest_weapon_plays_in_an_odyssey_deck(tmp_path: Path) -> None:
    gas = _quest_card("fluorine-gas")
    weapon = gas["weapon"]
    assert weapon == {"level": 9, "die": "black-d12", "tags": ["gas"]}  # Quest's own card, as shipped
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "borrowed.toml").write_text(
        'format = 1\n[deck]\nid = "borrowed"\ntitle = "a deck with a Quest weapon"\nkind = "personal"\n\n'
        f'[[card]]\nid = "hx-{gas["id"]}"\ncode = "HX09"\ncopies = 12\nname = "{gas["name"]}"\n'
        f'type = "{gas["type"]}"\npink_box = true\ncost = {{ white = 1 }}\n'
        f'weapon = {{ level = {weapon["level"]}, die = "d12", tags = ["gas"] }}\n'
        f'text = "{gas["text"]}"\n\n'
        '[[list]]\ncard = "WB01"\ncopies = 20\n\n[[list]]\ncard = "WB03"\ncopies = 4\n\n'
        '[[list]]\ncard = "WB04"\ncopies = 4\n\n[[list]]\ncard = "WG01"\ncopies = 20\n')
    with SHELF.using([folder]) as library:  # the folder joins the library for this test only
        assert library.decks["borrowed"].size == 60
        attacks = []
        for i in range(40):
            game = simulate_one(RULESET, 5, i, players=2, options={"decks": ["borrowed", "green"]})
            assert check_events(RULESET, game.header, game.events) is None
            state = RULESET.setup(game.header)
            for event in game.events:
                attacks += [e for e in RULESET.apply(state, event)
                            if e.kind == "attack" and e.data.get("card") == "HX09"]
            if any(a.data["targets"] for a in attacks):
                break
        hits = [a for a in attacks if a.data["targets"]]
        assert hits, "the borrowed weapon never reached a creature in forty games"
        # Odyssey's own Ground Weapon rule, at the level the Quest card prints
        assert all(a.rule == "ODY-WPN-1" and a.data["levels"] == [9] * len(a.data["targets"]) for a in hits)
    assert "borrowed" not in SHELF.library().decks  # and leaves it after


KINDER_BLUE = ROOT / "engine" / "kinderbunnies" / "cards" / "blue.toml"
QUEST_SETS = ROOT / "engine" / "killer_bunnies_quest" / "cards" / "sets.toml"


def _hazard_variant(folder: Path) -> None:
    """A Quest variant: the Blue Starter box plus four KinderBunnies Safety Hazards, as the
    Kinder deck file writes them (five d10s, a 1 to save the bunny), numbered for Quest."""
    hazard = next(c for c in tomllib.loads(KINDER_BLUE.read_text())["card"] if c["id"] == "safety-hazard-01")
    assert hazard["effects"][0]["target"] == "opponent_bunny" and hazard["effects"][0]["if_none"]
    box = tomllib.loads(QUEST_SETS.read_text())["set"]["blue-starter"]
    dice = {**box["dice"], **{f"{c}-d10": {"sides": 10, "colour": c, "zero_is_ten": True}
                              for c in ("violet", "orange", "green", "yellow", "blue")}}
    lines = ["format = 1", "", "[set.hazard-variant]", 'title = "The Blue Starter box and four hazards"',
             'decks = ["blue", "yellow", "supplies", "hazards"]',
             f"colours = {box['colours']!r}".replace("'", '"'), f"kinds = {box['kinds']!r}".replace("'", '"'),
             "", "[set.hazard-variant.dice]"]
    lines += [f"{die} = {{ " + ", ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else repr(v)}"
                                          for k, v in spec.items()).replace("'", '"') + " }"
              for die, spec in dice.items()]
    (folder / "variant.toml").write_text("\n".join(lines) + "\n")
    effect = hazard["effects"][0]
    (folder / "hazards.toml").write_text(
        'format = 1\n[deck]\nid = "hazards"\ntitle = "KinderBunnies Safety Hazards"\nnumbers = "950-953"\n\n'
        f'[[card]]\nid = "{hazard["id"]}"\nname = "{hazard["name"]}"\nnumbers = "950-953"\n'
        f'type = "run"\npink_box = true\ntags = ["safety-hazard"]\n'
        f'effects = [{{ do = "roll_matches", target = "{effect["target"]}", dice = {effect["dice"]!r}, '
        f'number = {effect["number"]}, highest = 10, if_none = [{{ do = "kill", target = "host" }}] }}]\n'
        .replace("'", '"') + f'text = "{hazard["text"]}"\n')


def test_a_kinderbunnies_hazard_plays_in_a_quest_variant(tmp_path: Path) -> None:
    """Quest's own roll_matches, its own target check and its own kill: the hazard goes on an
    opponent's bunny, five d10s roll, and the bunny dies when no die shows a 1."""
    from engine.killer_bunnies_quest import RULESET as QUEST
    from engine.killer_bunnies_quest.catalogue import SHELF as QUEST_SHELF
    from engine.rules import RuleViolation

    _hazard_variant(tmp_path)
    with QUEST_SHELF.using([tmp_path]):
        outcomes = []
        for i in range(60):
            game = simulate_one(QUEST, 3, i, players=3, options={"deck_set": "hazard-variant"})
            assert check_events(QUEST, game.header, game.events) is None
            state = QUEST.setup(game.header)
            host: dict[int, int] = {}  # hazard card -> the bunny it was put on
            for event in game.events:
                effects = QUEST.apply(state, event)
                if getattr(event, "card", None) in range(950, 954) and getattr(event, "on", None) is not None:
                    host[event.card] = event.on  # type: ignore[attr-defined]  # a Quest play
                rolled = [e for e in effects if e.kind == "rolled" and e.data.get("card") in range(950, 954)]
                if rolled:
                    bunny = host[rolled[0].data["card"]]
                    died = [e for e in effects if e.kind == "bunny_died" and e.data["bunny"] == bunny]
                    outcomes.append((rolled[0].data["matches"], bool(died)))
            if {hits > 0 for hits, _ in outcomes} == {True, False}:
                break
        assert outcomes, "no hazard was played in sixty games"
        assert all(died == (hits == 0) for hits, died in outcomes), outcomes
        assert {hits > 0 for hits, _ in outcomes} == {True, False}, "both outcomes were not seen"
        # refused both ways: where a hazard was played on an opponent's bunny, the same play
        # on nobody, and on the player's own bunny (a pink-box card: he has one), is refused
        import msgspec

        tried = 0
        for i in range(60):
            game = simulate_one(QUEST, 3, i, players=3, options={"deck_set": "hazard-variant"})
            state = QUEST.setup(game.header)
            for event in game.events:
                card, on = getattr(event, "card", None), getattr(event, "on", None)
                if card in range(950, 954) and on is not None:
                    mine = [b for b in state.circle.order if state.circle.owner(b) == event.actor]
                    assert mine, "a pink-box card played by a player without a bunny"
                    for other, rule in ((None, "KBQ-CARD-"), (mine[0], "KBQ-WPN-1")):
                        changed = msgspec.structs.replace(event, on=other)
                        try:
                            QUEST.apply(QUEST.copy_state(state), changed)
                        except RuleViolation as refused:
                            assert refused.rule.startswith(rule), (other, refused.rule, refused.message)
                        else:
                            raise AssertionError(f"a hazard played on {other} was accepted")
                    tried += 1
                QUEST.apply(state, event)
            if tried:
                break
        assert tried
    from engine.killer_bunnies_quest.catalogue import DECKS

    assert not any(key.startswith("hazard-variant|") for key in DECKS), "the variant outlived its folder"


def test_a_primitive_a_game_does_not_play_is_refused_when_the_game_starts(tmp_path: Path) -> None:
    """The other way: an Odyssey card (Civ points) in a Quest variant is refused as the game
    starts, naming the effect and the card, not halfway through a game; the same deck file
    without it plays."""
    import pytest

    from engine.killer_bunnies_quest import RULESET as QUEST
    from engine.killer_bunnies_quest.catalogue import SHELF as QUEST_SHELF
    from engine.rules import WarrenError

    _hazard_variant(tmp_path)
    hazards = tmp_path / "hazards.toml"
    deck = hazards.read_text().replace('numbers = "950-953"', 'numbers = "950-954"', 1)  # the deck's range
    hazards.write_text(deck + '\n[[card]]\nid = "odyssey-civ"\nname = "Civic Pride"\n'
                       'numbers = "954"\ntype = "run"\neffects = [{ do = "civ", amount = 2 }]\n'
                       'text = "Gain two Civ points."\n')
    with QUEST_SHELF.using([tmp_path]), \
            pytest.raises(WarrenError, match=r"does not play: civ \(cards: odyssey-civ\)"):
        simulate_one(QUEST, 3, 0, players=3, options={"deck_set": "hazard-variant"})
    _hazard_variant(tmp_path)  # written again without the Odyssey card
    with QUEST_SHELF.using([tmp_path]):
        game = simulate_one(QUEST, 3, 0, players=3, options={"deck_set": "hazard-variant"})
        assert check_events(QUEST, game.header, game.events) is None
