"""placeholder"""
from __future__ import annotations

from pathlib import Path

from engine.killer_quest import catalogue
from engine.killer_quest.scenario import Scenario

HOUSE = """format = 1
[deck]
id = "house"
title = "Our house cards"
numbers = "900-999"

[[card]]
id = "rubber-chicken"
name = "Rubber Chicken"
numbers = "900-901"
type = "run"
pink_box = true
weapon = { level = 3, die = "black-d12", tags = ["silly"] }
text = "A feeble weapon: the bunny lives on anything above 3."

[[card]]
id = "carrot-cake"
name = "Carrot Cake"
numbers = "902"
type = "special"
effects = [{ do = "take_carrot", count = 1, while_closed = false }, { do = "gain_money", amount = 2 }]
text = "A carrot and two Dolla for nothing, while the market is open."
"""


_HOUSE_FOLDER: list[Path] = []


def house_folder() -> Path:
    """A folder with the house deck file, made once per test run and added to the library."""
    import tempfile

    if not _HOUSE_FOLDER:
        folder = Path(tempfile.mkdtemp(prefix="warren-house-"))
        (folder / "house.toml").write_text(HOUSE, encoding="utf-8")
        catalogue.use_deck_folders([folder])
        _HOUSE_FOLDER.append(folder)
    return _HOUSE_FOLDER[0]


def house_game() -> Scenario:
    house_folder()
    g = Scenario(3, options={"extra_decks": ["house"]}, money={0: []})
    from tests.engine.quest_helpers import put
    put(g, 902, "hand", 0)
    return g
