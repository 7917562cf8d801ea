"""Cards are data: a card of one game's catalogue plays in another game's deck file, with no
code added. Quest's Fluorine Gas, written into an Odyssey personal deck (the Odyssey set's
d12 for Quest's black d12, a code, copies and a card cost, which an Odyssey deck file asks of
every card), is played by Odyssey's own rules: a level-9 Ground Weapon attack."""

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
