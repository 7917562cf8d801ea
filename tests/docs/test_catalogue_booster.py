"""docs/catalogue.md shows a table's own booster in TOML: the deck file it prints is the one
warren ships (engine/killer_bunnies_quest/cards/house-example.toml), and a table that copies
it into a folder of its own, under its own id and card numbers, plays its cards by Quest's
rules with no code added."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from engine.killer_bunnies_quest import RULESET as QUEST
from engine.killer_bunnies_quest.catalogue import SHELF
from engine.reader import check_events
from engine.simulate import simulate_one

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "catalogue.md"
SHIPPED = ROOT / "engine" / "killer_bunnies_quest" / "cards" / "house-example.toml"


def _deck_block() -> str:
    """The deck file the page prints under "Deck files"."""
    section = DOC.read_text().split("## Deck files", 1)[1]
    return re.search(r"```toml\n(.*?)```", section, re.S).group(1)  # type: ignore[union-attr]


def test_the_page_prints_the_deck_file_warren_ships() -> None:
    assert tomllib.loads(_deck_block()) == tomllib.loads(SHIPPED.read_text())


def test_a_table_plays_its_own_booster_written_as_the_page_shows(tmp_path: Path) -> None:
    text = (_deck_block().replace('id = "house-example"', 'id = "our-booster"')
            .replace('"900-909"', '"910-919"').replace('"900-901"', '"910-911"').replace('"902"', '"912"'))
    assert 'id = "our-booster"' in text and '"910-911"' in text
    (tmp_path / "our-booster.toml").write_text(text)
    played: dict[int, int] = {}
    cake = []
    with SHELF.using([tmp_path]):
        for i in range(40):
            game = simulate_one(QUEST, 7, i, players=3, options={"extra_decks": ["our-booster"]})
            assert check_events(QUEST, game.header, game.events) is None
            state = QUEST.setup(game.header)
            for event in game.events:
                effects = QUEST.apply(state, event)
                card = getattr(event, "card", None)
                if type(event).__name__ == "Play" and card in (910, 911, 912):
                    played[card] = played.get(card, 0) + 1
                if any(e.data.get("card") == 912 for e in effects if isinstance(e.data, dict)):
                    cake.append([e.kind for e in effects])
            if played.keys() >= {912} and played.keys() & {910, 911}:
                break
    assert played.keys() & {910, 911}, "the Rubber Chicken was never played"
    assert 912 in played, "the Carrot Cake was never played"
