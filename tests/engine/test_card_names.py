"""Cards typed by name, as the table knows them: by the name, any case, a start only one
name has, the name and number as warren writes it, or the number and code as before; a
typo answered with the nearest names; a name several copies share read as the copy the
player holds. Every action of simulated games, written with its cards by name, reads back
to the very same event."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine.dispute.notation import ActionError, format_action, make_event, propose, read_action
from engine.killer.naming import CardReader, UnknownCard, plain
from engine.registry import get_ruleset
from engine.simulate import simulate_one

QUEST = get_ruleset("killer-bunnies-quest")


def _card(text: str, ruleset: Any = QUEST, field: str = "card") -> Any:
    return getattr(make_event(ruleset, read_action(ruleset, text), seq=1, actor=0), field)


@pytest.mark.parametrize(("typed", "number"), [
    ("play Sword", 41), ("play sword", 41), ("play SWORD", 41), ("play 41", 41),
    ("play Blue Sinister Bunny", 4), ("play blue sinister", 4), ("play Choose A Carrot (17)", 17),
    ("play the mad mad", 74), ("play The Mad, Mad Donnelaith Bakery", 74), ("play Carrot #12", 165),
    ('play "Blue Sinister Bunny"', 4),
])
def test_a_quest_card_is_read_by_its_name(typed: str, number: int) -> None:
    assert _card(typed) == number


def test_a_field_named_by_a_card_of_several_words() -> None:
    assert _card("play Sword on=Blue Sinister Bunny", field="on") == 4
    proposed = read_action(QUEST, "play Sword on=Blue Sinister Bunny carrots=1")
    event = make_event(QUEST, proposed, seq=1, actor=0)
    assert (event.card, event.on, event.carrots) == (41, 4, [1])  # type: ignore[attr-defined]


@pytest.mark.parametrize(("typed", "said"), [
    ("play Blue Sinister Buny", "no card 'Blue Sinister Buny': did you mean Blue Sinister Bunny (4)"),
    ("play Swrod", "did you mean Sword (41)?"),
    ("play Choose", "'Choose' begins the names of Choose 2 Carrots, Choose A Carrot: type more of it"),
    ("play Sword (17)", "card 17 is Choose A Carrot (17), not 'Sword'"),
])
def test_a_typo_is_answered_with_the_nearest_names(typed: str, said: str) -> None:
    with pytest.raises(ActionError) as refused:
        _card(typed)
    assert said in str(refused.value)
    assert "Expected" not in str(refused.value) and "JSON" not in str(refused.value)


def test_a_number_no_card_has_is_left_for_the_rules() -> None:
    assert _card("play 999") == 999  # the rules refuse it, with their own rule


def test_kinderbunnies_and_odyssey_cards_by_name() -> None:
    kinder = get_ruleset("kinderbunnies")
    assert _card("play Aliens", kinder) == 97  # the words that tell it apart
    assert _card("play bad news aliens", kinder) == 97
    with pytest.raises(ActionError, match=r"did you mean Take A Carrot \(17\)"):
        _card("play Take A Carot", kinder)
    odyssey = get_ruleset("killer-bunnies-odyssey")
    assert _card("play Technology", odyssey) == "WB01"
    assert _card("play technology (WB01)", odyssey) == "WB01" == _card("play wb01", odyssey)
    with pytest.raises(ActionError, match=r"did you mean Technology \(WB01\)"):
        _card("play Tecnology", odyssey)


@pytest.mark.parametrize(("typed", "code"), [
    ("lay 9♣", ["9C"]), ("lay 10♥", ["TH"]), ("lay queen of hearts", ["QH"]),
    ("lay 9 of clubs 9♦", ["9C", "9D"]), ("lay tc", ["TC"]),
])
def test_a_playing_card_by_its_face(typed: str, code: list[str]) -> None:
    assert _card(typed, get_ruleset("bunnies"), "cards") == code


def test_names_are_compared_without_case_or_punctuation() -> None:
    assert plain("The Mad, Mad Donnelaith Bakery") == plain("the mad mad  donnelaith bakery")
    assert plain("Kaballa's Market - Closed") == "kaballas market closed"


def test_a_name_several_copies_share_reads_as_the_copy_the_player_holds() -> None:
    """The record says which copy: the one in the player's hand, not the lowest number."""
    reader = QUEST.card_reader()
    found = 0
    for seed in range(1, 12):
        game = simulate_one(QUEST, seed, 1, players=3, bots=("random",), max_events=300)
        rs = QUEST.for_game(game.header)
        state = rs.setup(game.header)
        for event in game.events:
            card = getattr(event, "card", None)
            if (type(event).__name__ == "Bottom" and isinstance(card, int)
                    and len(reader.copies(card)) > 1 and card != reader.copies(card)[0]):
                hand = list(state.seats[event.actor].hand)
                name = rs.card_words().name(card)
                chosen = propose(rs, state, f"bottom {name}", n_seats=3, seat=event.actor)
                assert chosen.card in hand and rs.card_words().name(chosen.card) == name  # type: ignore[attr-defined]
                assert chosen.card != reader.copies(card)[0] or reader.copies(card)[0] in hand  # type: ignore[attr-defined]
                found += 1
            rs.apply(state, event)
    assert found >= 1


SLUGS = ["killer-bunnies-quest", "kinderbunnies", "killer-bunnies-odyssey", "bunnies"]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_action_written_with_its_cards_by_name_reads_back_the_same(slug: str) -> None:
    rs = get_ruleset(slug)
    checked = 0
    for seed in (7, 8):
        players = 2 if slug == "bunnies" else 3
        game = simulate_one(rs, seed, 1, players=players, bots=("random",), max_events=300)
        ruleset = rs.for_game(game.header)
        state = ruleset.setup(game.header)
        for event in game.events:
            if event.actor is not None:
                text = format_action(ruleset, event, named=True)
                back = propose(ruleset, state, text, n_seats=players, seat=event.actor)
                same = msgspec.structs.replace(event, hash=None)
                assert msgspec.structs.replace(back, hash=None) == same, text
                checked += 1
            ruleset.apply(state, event)
    assert checked >= 50


def test_the_reader_refuses_what_no_card_is_called() -> None:
    reader = CardReader(QUEST.card_words().by_number)
    with pytest.raises(UnknownCard, match="no card 'Dragon'"):
        reader.read("Dragon")
    assert reader.token(41) == "Sword" and reader.read(reader.token(17) or "") == 17


def test_odyssey_pieces_in_play_are_typed_by_their_cards_names() -> None:
    """What is in play is written by piece number in the record; a person may type the
    card's name (or code) instead, and a name no piece in play has is refused in words."""
    from pathlib import Path

    from engine.dispute import ActionError, propose
    from engine.reader import read_record
    from engine.registry import get_ruleset

    path = Path(__file__).resolve().parents[2] / "fixtures/killer-bunnies-odyssey/board.jsonl"
    record = read_record(path.read_bytes(), str(path))
    rs = get_ruleset("killer-bunnies-odyssey").for_game(record.header)
    state = rs.setup(record.header)
    rs.fold(state, record.events[:32])
    by_number = propose(rs, state, "flip play target=10", n_seats=2)
    for typed in ("flip play target=Sprout Bunny", "flip play target=sprout bunny",
                  "flip play target=WG03"):
        assert propose(rs, state, typed, n_seats=2) == by_number, typed
    with pytest.raises(ActionError, match=r"nothing in play is Gadget Bunny \(WB04\)"):
        propose(rs, state, "flip play target=Gadget Bunny", n_seats=2)
