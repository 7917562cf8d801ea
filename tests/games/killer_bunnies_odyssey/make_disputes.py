"""Write the dispute table of Killer Bunnies Odyssey
(tests/engine/dispute_tables/killer-bunnies-odyssey.json).

    python tests/games/killer_bunnies_odyssey/make_disputes.py          # (re)write the table
    python tests/games/killer_bunnies_odyssey/make_disputes.py --check  # exit 1 if the file differs

Every rule of the rulebook appears both allowing (a legal scenario) and forbidding (an
illegal scenario, or a disputed claim for a rule that decides a consequence rather than an
action). The positions are the hand-made games of tests/scenarios/killer_bunnies_odyssey_games.py and one
simulated game; where the two readings of the hand size differ (a draw at the start, a
Hexascrewup, a trade of hand cards) the scenario notes it and checks the other reading's
verdict in the facts or the effects.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from engine.killer_bunnies_odyssey import RULESET
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards
from engine.simulate import simulate_one
from tests.scenarios.killer_bunnies_odyssey_games import BUILDERS, Game

TABLE = ROOT / "tests" / "engine" / "dispute_tables" / "killer-bunnies-odyssey.json"


def state_at(game: Game, mark: str | int) -> OdysseyState:
    at = game.marks[mark] if isinstance(mark, str) else mark
    state = RULESET.setup(game.sc.header)
    RULESET.fold(state, game.sc.events[:at])
    return state


def top(state: OdysseyState, seat: int) -> str:
    t = cards(state)
    return t.code(state.seats[seat].draw[-1])


def not_top(state: OdysseyState, seat: int) -> str:
    t = cards(state)
    on_top = state.seats[seat].draw[-1]
    return next(t.code(k) for k in sorted(set(state.seats[seat].draw)) if k != on_top)


def piece(state: OdysseyState, code: str, seat: int | None = None) -> int:
    t = cards(state)
    found = [pid for pid, p in state.pieces.items()
             if t.code(p.kind) == code and (seat is None or p.owner == seat)]
    return max(found)


def build() -> dict[str, Any]:
    games = {name: make() for name, make in BUILDERS.items()}
    setups: dict[str, Any] = {}
    for name, g in games.items():
        setups[name] = {"about": " ".join(g.about.split()), "options": g.sc.header.options,
                        "players": [p.name for p in g.sc.header.players],
                        "events": g.sc.as_json_events()}
    sim_seed, sim_index, remade_at = _pile_game()
    setups["simulated"] = {"about": "A simulated two-player game (random against greedy bots) "
                           "whose draw pile runs out and is made again from the discard pile.",
                           "simulate": {"seed": sim_seed, "index": sim_index, "players": 2}}
    S: list[dict[str, Any]] = []

    def add(setup: str, at: str | int, verdict: str, rule: str, note: str, action: Any = None,
            **extra: Any) -> None:
        g = games.get(setup)
        position = g.marks[at] if isinstance(at, str) and g is not None else at
        item: dict[str, Any] = {"setup": setup, "at": position, "verdict": verdict, "rule": rule,
                                "note": note}
        if action is None:
            item["recorded"] = True
        else:
            item["action"] = action
        item.update(extra)
        S.append(item)

    mul, brd, sev = games["mulligan"], games["board"], games["seven"]
    # -- decks and shuffles ------------------------------------------------------------------
    ada_order = mul.sc.events[0].order  # type: ignore[attr-defined]
    add("mulligan", "start", "legal", "ODY-DECK-1", "Ada shuffles her own 60-card deck",
        effects=["ODY-DECK-1", "ODY-SHUF-1"])
    add("mulligan", "start", "illegal", "ODY-DECK-1", "a card of Bo's deck in Ada's shuffle",
        {"type": "shuffle", "actor": None, "seat": 0, "order": ["WG01", *ada_order[1:]]})
    add("mulligan", "start", "legal", "ODY-DECK-2", "the shuffle names the deck's content hash",
        effects=["ODY-DECK-2"])
    add("mulligan", "start", "disputed", "ODY-DECK-2", "a record claiming another content hash",
        claims=[{"effect": "deck_hash", "rule": "ODY-DECK-2", "seat": 0, "deck": "blue",
                 "hash": "0" * 64}])
    add("mulligan", "start", "legal", "ODY-SHUF-1", "the first shuffle is Ada's")
    add("mulligan", "start", "illegal", "ODY-SHUF-1", "Bo's shuffle before Ada has set up",
        {"type": "shuffle", "actor": None, "seat": 1, "order": None})
    add("mulligan", "mulliganed", "legal", "ODY-SHUF-2", "cards went back into Bo's pile: its "
        "shuffle is owed, and a cut after it", effects=["ODY-SHUF-2"])
    add("mulligan", "to-cut", "illegal", "ODY-SHUF-2", "Bo cuts his own pile", "cut 1 5 actor=1")
    add("mulligan", "to-cut", "legal", "ODY-SHUF-3", "Ada cuts Bo's pile, five cards lifted",
        effects=["ODY-SHUF-3"])
    add("mulligan", "to-cut", "illegal", "ODY-SHUF-3", "a cut leaving two cards on one side",
        "cut 1 2 actor=0", facts={"depth": 2})
    add("mulligan", "shuffled", "legal", "ODY-DEAL-1", "Ada deals herself seven cards",
        effects=["ODY-DEAL-1"])
    add("mulligan", "shuffled", "illegal", "ODY-DEAL-1", "Bo deals before his pile is shuffled",
        "deal actor=1")
    add("mulligan", "shuffled", "legal", "ODY-CIV-1", "the d20 starts at 10", effects=["ODY-CIV-1"])
    add("mulligan", "shuffled", "disputed", "ODY-CIV-1", "a record claiming the d20 starts at 12",
        claims=[{"effect": "civ_start", "rule": "ODY-CIV-1", "seat": 0, "civ": 12}])
    add("mulligan", "dealt", "legal", "ODY-SET-1", "Ada's two run cards, from her hand",
        "runs WB01 WB01")
    add("mulligan", "ran", "illegal", "ODY-SET-1", "run cards put down a second time",
        "runs WB03 WB14 actor=0")
    add("mulligan", "dealt", "legal", "ODY-ID-1", "cards named by their identification numbers",
        "runs WB01 WB03")
    add("mulligan", "dealt", "illegal", "ODY-ID-1", "a name that is no Card Identification Number",
        "runs W1 WB01")
    add("mulligan", "no-resource", "legal", "ODY-MULL-1", "no Resource among Bo's seven: he "
        "trades them in", effects=["ODY-MULL-1"])
    add("mulligan", "dealt", "illegal", "ODY-MULL-1", "Ada holds Resources: no mulligan", "mulligan")
    add("mulligan", "no-resource", "legal", "ODY-MULL-2", "the mulligan at the start", "mulligan")
    add("mulligan", "dealt-again", "illegal", "ODY-MULL-2", "a second mulligan", "mulligan")
    add("mulligan", "ran", "illegal", "ODY-HAND-1", "THE HAND-SIZE DISPUTE: Ada draws a sixth card "
        "after her run cards; the five-card reading refuses it, the seven-card one owes it",
        "draw actor=0", facts={"other_reading": {"hand_size": 7, "verdict": "legal"}})
    add("seven", "refill", "legal", "ODY-HAND-1", "THE HAND-SIZE DISPUTE, read the other way: "
        "under hand_size=7 the draw back to seven is owed; the five-card reading would refuse it",
        "draw", effects=["ODY-HAND-1"])
    add("mulligan", "first-roll", "legal", "ODY-SET-2", "Ada rolls the d12 for the first player",
        {"type": "roll", "actor": None, "seat": 0, "face": 9, "die": "d12"})
    add("mulligan", "first-roll", "illegal", "ODY-SET-2", "Bo rolls before Ada",
        {"type": "roll", "actor": None, "seat": 1, "face": 9, "die": "d12"})
    add("mulligan", "tied", "legal", "ODY-SET-2", "a tie at 7: both roll again",
        {"type": "roll", "actor": None, "seat": 0, "face": 12, "die": "d12"})
    # -- the Hexascrewup, the d20's faces ------------------------------------------------------
    st = state_at(mul, "extra-card")
    bo_card = cards(st).code(st.seats[1].hand[0])
    add("mulligan", "round-2", "legal", "ODY-HEX-1", "Bo draws a card he was not owed: an extra "
        "card", effects=["ODY-HEX-1"])
    add("mulligan", "round-2", "undetermined", "ODY-HEX-1", "at the table a draw may go unrecorded: a "
        "Hexascrewup against a hand the record counts at five is undetermined",
        f"hexascrewup 1 {bo_card} actor=0")
    add("mulligan", "extra-card", "legal", "ODY-HEX-2", "THE HAND-SIZE DISPUTE: Ada spots Bo's sixth "
        "card: one of them at random is discarded, and Bo loses 5 Civ points (under the seven-card "
        "reading a sixth card is no extra one)", f"hexascrewup 1 {bo_card} actor=0",
        effects=["ODY-HEX-2", "ODY-HAND-1"])
    add("mulligan", "extra-card", "illegal", "ODY-HEX-2", "Bo raises it against himself",
        f"hexascrewup 1 {bo_card} actor=1")
    add("mulligan", "extra-card", "legal", "ODY-CIV-2", "Bo's d20 (5 after his mulligan) would go "
        "to 0: it stays on its faces, at 1", f"hexascrewup 1 {bo_card} actor=0", effects=["ODY-CIV-2"])
    add("mulligan", "extra-card", "disputed", "ODY-CIV-2", "a record claiming Bo's d20 at 0",
        {"type": "hexascrewup", "actor": 0, "against": 1, "card": bo_card,
         "claims": [{"effect": "civ_bounded", "rule": "ODY-CIV-2", "seat": 1, "civ": 0}]})
    st = state_at(sev, "play")
    add("seven", "play", "undetermined", "ODY-HEX-1", "THE HAND-SIZE DISPUTE: seven cards in hand are "
        "no extra card under hand_size=7 (unless a draw went unrecorded: undetermined at the table), "
        "but they are two too many under the five-card reading",
        f"hexascrewup 0 {cards(st).code(st.seats[0].hand[0])} actor=1")
    add("seven", "play", "legal", "ODY-TRADE-4", "THE HAND-SIZE DISPUTE: a one-for-one trade of hand "
        "cards leaves both hands at seven (illegal under the five-card reading)",
        "trade 1 give_hand=WB03 take_hand=WG03", effects=["ODY-HAND-1"])
    # -- the turn ------------------------------------------------------------------------------
    st = state_at(brd, "start")
    add("board", "start", "legal", "ODY-TURN-1", "Ada, the first player, flips", "flip save")
    add("board", "start", "illegal", "ODY-TURN-1", "Bo flips on Ada's turn", "flip save actor=1")
    add("board", "start", "legal", "ODY-TURN-2", "FLIP turns up the top run card", "flip save card=WB01",
        effects=["ODY-TURN-2"])
    add("board", "start", "illegal", "ODY-TURN-2", "the record names another card than the top run card",
        "flip save card=WB03")
    add("board", "start", "legal", "ODY-TURN-3", "SLIDE moves the bottom run card up", "flip save",
        effects=["ODY-TURN-3"])
    add("board", "start", "disputed", "ODY-TURN-3", "a claim that Bo's cards slid",
        {"type": "flip", "actor": 0, "how": "save",
         "claims": [{"effect": "slid", "rule": "ODY-TURN-3", "seat": 1}]})
    add("board", "start", "legal", "ODY-TURN-4", "DRAW from her own pile", "flip save",
        effects=["ODY-TURN-4"])
    add("board", "start", "illegal", "ODY-TURN-4", "the record names another card than the top of the "
        "pile as drawn", f"flip save drew={not_top(st, 0)}")
    add("board", "saved-four", "legal", "ODY-TURN-5", "REPLACE ends the turn", action=None)
    add("board", "start", "illegal", "ODY-TURN-5", "a bottom run card before the flip",
        f"bottom {cards(st).code(st.seats[0].hand[0])}")
    add("board", "start", "legal", "ODY-TURN-6", "a flipped card discarded by choice",
        "flip discard", effects=["ODY-TURN-6"])
    stf = state_at(brd, "feed-due")
    add("board", "feed-due", "illegal", "ODY-TURN-6", "a second flip in one turn", "flip save",
        then=[f"feed {piece(stf, 'WG20')}", f"flip play into={piece(stf, 'WB11')}"])
    add("board", "start", "legal", "ODY-RES-1", "a flipped Resource is saved", "flip save",
        effects=["ODY-RES-1"])
    add("board", "start", "illegal", "ODY-RES-1", "a Resource 'played'", "flip play")
    add("board", "ada-saves", "legal", "ODY-SAVE-1", "a flipped Special card saved face up",
        "flip save", effects=["ODY-SAVE-1"])
    add("board", "saved-four", "illegal", "ODY-SAVE-1", "a bunny saved", "flip save")
    add("board", "saved-four", "legal", "ODY-COST-1", "the bunny's blue hexagon paid with a "
        "Technology Resource", "flip play at=0", effects=["ODY-COST-1"])
    add("board", "saved-four", "illegal", "ODY-COST-1", "a blue hexagon paid with a violet Resource",
        {"type": "flip", "actor": 0, "how": "play", "at": 0, "pay": {"violet": 1}})
    add("board", "cities", "legal", "ODY-CARD-1", "a city with a place in the Center Circle",
        "flip play at=0")
    add("board", "saved-four", "illegal", "ODY-CARD-1", "a bunny played with an opponent named",
        "flip play at=0 opponent=1")
    add("board", "cities", "legal", "ODY-POS-2", "Ada's city into the Center Circle", "flip play at=0",
        effects=["ODY-POS-2"])
    add("board", "cities", "illegal", "ODY-POS-2", "a place the Center Circle does not have",
        "flip play at=5")
    add("board", "saved-four", "legal", "ODY-POS-1", "Ada's bunny into the Bunny Circle",
        "flip play at=0", effects=["ODY-POS-1"])
    add("board", "zap", "illegal", "ODY-POS-1", "a creature in play moved",
        f"place {piece(state_at(brd, 'zap'), 'WB03')} at=1")
    add("board", "zap", "illegal", "ODY-POS-2", "a city in the Center Circle moved: the "
        "structures' rule, not the creatures'", f"place {piece(state_at(brd, 'zap'), 'WB11')} at=0")
    ada_city, bo_city = piece(state_at(brd, 'zap'), 'WB11'), piece(state_at(brd, 'zap'), 'WG11')
    swap = [f"trade 1 give={ada_city} take={bo_city}"]  # each city goes to be placed again
    add("board", "zap", "legal", "ODY-POS-2", "a city traded goes anywhere in the Center Circle",
        f"place {ada_city} at=0 actor=1", then=swap, effects=["ODY-POS-2"])
    add("board", "zap", "illegal", "ODY-POS-2", "a city traded goes into the Center Circle, not into "
        "a city", f"place {bo_city} into={ada_city} actor=0", then=swap)
    stz = state_at(brd, "zap")
    bo_bunny = piece(stz, "WG03")
    ada_bunny = piece(stz, "WB03")
    add("board", "zap", "legal", "ODY-WPN-1", "Zap Ray at Bo's bunny: it waits for Bo's d12",
        f"flip play target={bo_bunny}", effects=["ODY-WPN-1"])
    add("board", "zap", "illegal", "ODY-WPN-1", "a Ground Weapon at Ada's own bunny",
        f"flip play target={ada_bunny}")
    add("board", "zap", "legal", "ODY-SPEC-1", "Sneak Attack, a Special weapon, from the hand instead "
        "of the flip; it draws a replacement", f"play WB24 target={bo_bunny}", effects=["ODY-SPEC-1"])
    add("board", "zap-waits", "legal", "ODY-CARD-3", "Bo's Hedgerow cancels the Zap Ray aimed at his "
        "bunny before the roll", "play WG27 actor=1", effects=["ODY-CARD-3"])
    add("board", "feed", "illegal", "ODY-CARD-3", "a cancel with nothing waiting", "play WB27 actor=0")
    add("board", "zap-waits", "legal", "ODY-AGG-1", "the Zap Ray has a pink box: Aggressive, so it "
        "can be answered", "play WG27 actor=1")
    add("board", "bands-wait", "illegal", "ODY-AGG-1", "Force Field against Harvest Festival, which is "
        "not Aggressive", "play WB27 actor=0")
    add("board", "zap-waits", "legal", "ODY-VSP-1", "a Very Special card on Ada's turn is not Bo's "
        "turn", "play WG27 actor=1", effects=["ODY-VSP-1"])
    add("board", "bo-turn", "illegal", "ODY-VSP-1", "Spy Satellite is a Special: not on Bo's turn",
        "play WB23 opponent=1 picked=WG27 actor=0")
    add("board", "zap-waits", "legal", "ODY-VSP-2", "the Very Special card is replaced at once",
        "play WG27 actor=1", effects=["ODY-VSP-2"])
    stw = state_at(brd, "zap-waits")
    add("board", "zap-waits", "illegal", "ODY-VSP-2", "the replacement named is not the top of Bo's "
        "pile", f"play WG27 drew={not_top(stw, 1)} actor=1")
    add("board", "feed", "legal", "ODY-COND-1", "Bo has a bunny: his Feed The Bunny card may be "
        "played", action=None)
    add("siege", "pink-without-bunny", "illegal", "ODY-COND-1", "Thorn Sling has a pink box and Bo has "
        "no bunny", "flip play target=1")
    add("board", "emp", "legal", "ODY-COND-2", "Ada has a city: her EMP Bomb may be played",
        f"flip play target={piece(state_at(brd, 'emp'), 'WG11')}")
    add("siege", "green-without-city", "illegal", "ODY-COND-2", "EMP Bomb has a green box and Ada "
        "has no city", "flip play target=1")
    add("siege", "pink-without-bunny", "legal", "ODY-BURN-1", "the card cannot be played: discarded, "
        "it is burned", "flip discard", effects=["ODY-BURN-1"])
    add("board", "start", "disputed", "ODY-BURN-1", "a Resource discarded by choice is no burn",
        {"type": "flip", "actor": 0, "how": "discard",
         "claims": [{"effect": "burned", "rule": "ODY-BURN-1", "seat": 0, "card": "WB01"}]})
    # -- Specials and Very Specials --------------------------------------------------------------
    add("mulligan", "play", "illegal", "ODY-SPEC-1", "a bunny played straight from the hand",
        "play WB03")
    add("mulligan", "play", "legal", "ODY-SPEC-2", "a Special discarded from the hand as the turn",
        "discard WB22", effects=["ODY-SPEC-2"])
    add("mulligan", "play", "illegal", "ODY-SPEC-2", "a bunny discarded from the hand as the turn",
        "discard WB03")
    add("board", "ada-saves", "legal", "ODY-SPEC-3", "a Special saved the only way: flipped",
        "flip save")
    add("mulligan", "play", "illegal", "ODY-SPEC-3", "a Special saved straight from the hand",
        "play WB22 save=true")
    sto = state_at(brd, "ada-own")
    reboot = piece(sto, "WB25")
    add("board", "ada-own", "legal", "ODY-SPEC-4", "Ada uses her saved Reboot on her own turn",
        f"use {reboot}", effects=["ODY-SPEC-4"])
    add("board", "bo-turn2", "illegal", "ODY-SPEC-4", "Ada uses her saved Special on Bo's turn",
        f"use {reboot} actor=0")
    # -- feeding, modifiers, attacks, kills -------------------------------------------------------
    stf = state_at(brd, "feed-due")
    demand = piece(stf, "WG20")
    add("board", "feed-due", "legal", "ODY-FEED-1", "Ada feeds her bunny: two saved Resources",
        f"feed {demand}", effects=["ODY-FEED-1"])
    add("board", "feed-due", "illegal", "ODY-FEED-1", "Bo feeds Ada's bunny", f"feed {demand} actor=1")
    add("board", "feed-due", "legal", "ODY-CARD-8", "Power Ration feeds Ada's bunny for free",
        f"play WB28 target={ada_bunny}", effects=["ODY-CARD-8"])
    add("board", "cities", "illegal", "ODY-CARD-8", "Power Ration on a bunny nobody asks to feed",
        f"play WB28 target={ada_bunny}")
    add("board", "feed-due", "legal", "ODY-CITY-1", "Gadget Bunny into Ada's city",
        f"flip play into={piece(stf, 'WB11')}", effects=["ODY-CITY-1"])
    add("board", "feed-due", "illegal", "ODY-CITY-1", "Gadget Bunny into Bo's city",
        f"flip play into={piece(stf, 'WG11')}")
    add("board", "modifier", "legal", "ODY-CARD-9", "Titanium Carrot under Ada's bunny",
        f"flip play target={ada_bunny}", effects=["ODY-CARD-9"])
    add("board", "modifier", "illegal", "ODY-CARD-9", "a Bunny Modifier under Bo's bunny",
        f"flip play target={bo_bunny}")
    ste = state_at(brd, "emp")
    add("board", "emp", "legal", "ODY-WPN-2", "EMP Bomb at Bo's city",
        f"flip play target={piece(ste, 'WG11')}", effects=["ODY-WPN-2"])
    add("board", "emp", "illegal", "ODY-WPN-2", "a City Weapon at Ada's own city",
        f"flip play target={piece(ste, 'WB11')}")
    add("board", "emp-waits", "legal", "ODY-KILL-2", "the city falls: Ada scores it and its tortoise",
        effects=["ODY-KILL-2"])
    add("board", "emp-waits", "disputed", "ODY-KILL-2", "a claim of 4 points: the occupant's 2 count "
        "as well", {"type": "roll", "actor": None, "seat": 1, "face": 3, "die": "d12",
                    "claims": [{"effect": "civ", "rule": "ODY-KILL-2", "seat": 0, "change": 4}]})
    add("board", "shock-waits", "legal", "ODY-KILL-1", "Bo's bunny dies: its point to Ada",
        effects=["ODY-KILL-1"])
    add("board", "shock-waits", "disputed", "ODY-KILL-1", "a claim that the kill scored 3",
        {"type": "roll", "actor": None, "seat": 1, "face": 3, "die": "d12",
         "claims": [{"effect": "civ", "rule": "ODY-KILL-1", "seat": 0, "change": 3}]})
    add("board", "shock", "legal", "ODY-ADJ-2", "Shock Wave reaches the creature beside its target, "
        "Ada's own", effects=["ODY-ADJ-2"])
    add("board", "shock", "disputed", "ODY-ADJ-2", "a claim that it reaches no neighbour",
        {"type": "flip", "actor": 0, "how": "play", "target": bo_bunny,
         "claims": [{"effect": "adjacent_reached", "rule": "ODY-ADJ-2", "target": bo_bunny,
                     "neighbours": []}]})
    add("board", "bands-wait", "legal", "ODY-CARD-10", "Bo's d6 for Harvest Festival",
        effects=["ODY-CARD-10"])
    add("board", "bands-wait", "illegal", "ODY-CARD-10", "the festival rolled on the d12",
        {"type": "roll", "actor": None, "seat": 1, "face": 5, "die": "d12"})
    add("board", "census", "legal", "ODY-CARD-2", "Tech Census: a Civ point per creature in play",
        effects=["ODY-CARD-2"])
    add("board", "census", "disputed", "ODY-CARD-2", "a claim of 5 Civ points",
        {"type": "flip", "actor": 0, "how": "play",
         "claims": [{"effect": "civ", "rule": "ODY-CARD-2", "seat": 0, "change": 5}]})
    add("board", "census", "legal", "ODY-INPLAY-1", "Ada's bunny in the circle and her Gadget Bunny "
        "inside her city are both in play", effects=["ODY-INPLAY-1"])
    add("board", "census", "disputed", "ODY-INPLAY-1", "a claim that only the circle's creature "
        "counts", {"type": "flip", "actor": 0, "how": "play",
                   "claims": [{"effect": "in_play", "rule": "ODY-INPLAY-1", "seat": 0, "creatures": 1}]})
    add("board", "census", "legal", "ODY-CARD-7", "Spy Satellite: Bo discards his Hedgerow",
        "play WB23 opponent=1 picked=WG27", effects=["ODY-CARD-7"])
    add("board", "census", "illegal", "ODY-CARD-7", "Bo holds Very Special cards: one is named",
        "play WB23 opponent=1")
    add("board", "recycle", "legal", "ODY-CARD-6", "Compost Heap: three discards back into Bo's pile",
        effects=["ODY-CARD-6"])
    add("board", "recycle", "disputed", "ODY-CARD-6", "a claim that nothing was recycled",
        {"type": "flip", "actor": 1, "how": "play",
         "claims": [{"effect": "recycled", "rule": "ODY-CARD-6", "seat": 1, "cards": []}]})
    add("board", "bo-turn", "legal", "ODY-CARD-5", "Replanting brings Bo's dead bunny back",
        "play WG25 chosen=WG03 at=0", effects=["ODY-CARD-5"])
    add("board", "bo-turn", "illegal", "ODY-CARD-5", "Replanting names a creature not in Bo's discard "
        "pile", "play WG25 chosen=WG10 at=0")
    stb = state_at(brd, "bo-turn2")
    add("board", "bo-turn2", "legal", "ODY-FAN-1", "Ada's Signal Jam, on Bo's turn: a card of Bo's "
        "hand picked at random", "play WB29 opponent=1 picked=WG27 actor=0", effects=["ODY-FAN-1"])
    add("board", "bo-turn2", "illegal", "ODY-FAN-1", "the card picked is not in Bo's hand",
        "play WB29 opponent=1 picked=WG11 actor=0")
    add("board", "bo-turn2", "illegal", "ODY-HEX-1", "after the Signal Jam Bo holds four cards: no "
        "extra one, under either reading", "hexascrewup 1 WG28 actor=0",
        then=["play WB29 opponent=1 picked=WG27 actor=0"])
    add("board", "bands", "illegal", "ODY-COST-2", "Ada's Resources paid for the EMP Bomb this round",
        "play WB29 opponent=1 picked=WG27 actor=0")
    # -- trades ----------------------------------------------------------------------------------
    bo_saved, ada_saved = stb.seats[1].saved[0], stb.seats[0].saved[0]
    gadget = piece(stb, "WB04")
    add("board", "bo-turn2", "legal", "ODY-TRADE-2", "saved Resources traded on Bo's turn",
        f"trade 0 give={bo_saved} take={ada_saved}", effects=["ODY-TRADE-2"])
    add("board", "bo-turn2", "illegal", "ODY-TRADE-2", "a creature inside a city trades only with it",
        f"trade 0 take={gadget}")
    add("board", "bo-turn2", "legal", "ODY-TRADE-3", "a first trade of these cards",
        f"trade 0 give={bo_saved} take={ada_saved}")
    add("board", "bo-turn2", "illegal", "ODY-TRADE-3", "the same Resource traded back",
        f"trade 0 give={ada_saved} take={bo_saved}",
        then=[f"trade 0 give={bo_saved} take={ada_saved}"])
    add("board", "bo-turn2", "legal", "ODY-TRADE-4", "THE HAND-SIZE DISPUTE: hand cards one for one "
        "leave both hands at five (the seven-card reading would refuse it)",
        "trade 0 give_hand=WG22 take_hand=WB27", effects=["ODY-HAND-1"])
    add("board", "bo-turn2", "illegal", "ODY-TRADE-4", "two hand cards for one",
        "trade 0 give_hand=WG22,WG28 take_hand=WB27")
    bo_top = cards(stb).code(stb.seats[1].run.top or 0)
    add("board", "bo-turn2", "legal", "ODY-TRADE-5", "a hand card, not a run card",
        "trade 0 give_hand=WG22 take_hand=WB27")
    add("board", "bo-turn2", "illegal", "ODY-TRADE-5", f"Bo's top run card ({bo_top}) offered",
        f"trade 0 give_hand={bo_top} take_hand=WB27")
    add("trio", "trade", "legal", "ODY-TRADE-1", "Ada trades with Cy on her own turn",
        effects=["ODY-TRADE-2"])
    stk = state_at(games["trio"], "kidnap")
    add("trio", "kidnap", "illegal", "ODY-TRADE-1", "Ada and Bo trade on Cy's turn",
        f"trade 1 give={stk.seats[0].saved[1]} take={stk.seats[1].saved[0]} actor=0")
    add("trio", "kidnap", "legal", "ODY-CARD-4", "Cy kidnaps Bo's bunny and places it by his own",
        f"play WO23 target={piece(stk, 'WG03')} at=0", effects=["ODY-CARD-4"])
    add("trio", "kidnap", "illegal", "ODY-CARD-4", "Cy 'kidnaps' his own bunny",
        f"play WO23 target={piece(stk, 'WO03')} at=0")
    # -- the table, the score, the end -------------------------------------------------------------
    add("duel", "border", "legal", "ODY-ADJ-1", "Border Dispute in a two-player game: Ada, on both "
        "sides, loses 2 Civ points once", "play WV23", effects=["ODY-ADJ-1"])
    add("duel", "border", "disputed", "ODY-ADJ-1", "a claim that Ada lost them twice",
        {"type": "play", "actor": 0, "card": "WV23",
         "claims": [{"effect": "civ", "rule": "ODY-ADJ-1", "seat": 1, "change": -4}]})
    add("duel", "heckle", "legal", "ODY-OPP-1", "Vi's Heckle, on Ada's turn, names Ada",
        "play WV29 opponent=1 actor=0", effects=["ODY-CARD-2"])
    add("duel", "heckle", "illegal", "ODY-OPP-1", "Heckle naming Vi herself", "play WV29 opponent=0 actor=0")
    race = games["race"]
    add("race", "bo-flipped", "legal", "ODY-END-1", "Ada's Uplink, a Very Special card on Bo's turn, "
        "takes her total to 60: she wins on his turn", effects=["ODY-END-1"])
    add("race", "fifty-nine", "disputed", "ODY-END-1", "a claim that the game ended at 59",
        {"type": "flip", "actor": 1, "how": "save",
         "claims": [{"effect": "game_over", "rule": "ODY-END-1", "winners": [0]}]})
    add("race", "fifty-nine", "legal", "ODY-END-2", "before the end, play goes on", action=None)
    add("race", "over", "illegal", "ODY-END-2", "a card flipped after the end", "flip save actor=1")
    add("race", "fifty-nine", "legal", "ODY-SCORE-1", "Ada's total counts her cities and the creatures "
        "inside them", action=None)
    add("race", race.marks["fifty-nine"] - 1, "disputed", "ODY-SCORE-1", "a claim that Ada's total "
        "is her d20 alone", {**race.sc.as_json_events()[race.marks["fifty-nine"] - 1],
                             "claims": [{"effect": "totals", "rule": "ODY-SCORE-1", "totals": [12, 10]}]})
    add("simulated", remade_at - 1, "legal", "ODY-PILE-1", "the last card drawn: the discard pile "
        "becomes the new draw pile", effects=["ODY-PILE-1"])
    add("simulated", remade_at - 1, "disputed", "ODY-PILE-1", "a claim that nothing was made again",
        claims=[{"effect": "pile_remade", "rule": "ODY-PILE-1", "cards": 0}])
    # -- a game recorded at the table: what the record cannot decide -----------------------------
    add("table", games["table"].marks["mulliganed"] - 1, "undetermined", "ODY-MULL-1", "Bo's hand "
        "nobody saw: only he knew it held no Resource", "mulligan")
    add("table", "spy", "undetermined", "ODY-CARD-7", "Bo's hand nobody saw: whether it held a Very "
        "Special card is not on the record", "play WB23 opponent=1")
    add("table", "hexascrewup", "undetermined", "ODY-HEX-1", "a draw nobody recorded would give Ada "
        "a sixth card", "hexascrewup 0 WB27 actor=1")
    # COST-2 allowing: the event that begins a round gives the used Resources back
    back_at = _first_with(games["board"], "ODY-COST-2")
    add("board", back_at, "legal", "ODY-COST-2", "the round ends: used Resources come back",
        effects=["ODY-COST-2"])
    return {
        "ruleset": RULESET.slug,
        "players": ["Ada", "Bo"],
        "both_ways": True,
        "about": ("Dispute scenarios for Killer Bunnies and the Ultimate Odyssey, written by "
                  "tests/games/killer_bunnies_odyssey/make_disputes.py from the hand-made games of "
                  "tests/scenarios/killer_bunnies_odyssey_games.py: every rule allowing and "
                  "forbidding, and the "
                  "positions where the five- and seven-card readings of the hand give different "
                  "verdicts (the notes say THE HAND-SIZE DISPUTE)."),
        "setups": setups,
        "scenarios": S,
    }


def _first_with(game: Game, rule: str) -> int:
    state = RULESET.setup(game.sc.header)
    for i, event in enumerate(game.sc.events):
        effects = RULESET.apply(state, event)
        if any(e.rule == rule for e in effects):
            return i
    raise ValueError(f"no effect by {rule}")


def _pile_game() -> tuple[int, int, int]:
    """A simulated two-player game whose draw pile is made again: (seed, index, seq)."""
    for index in range(50):
        game = simulate_one(RULESET, 5, index, players=2)
        state = RULESET.setup(game.header)
        for event in game.events:
            if any(e.kind == "pile_remade" for e in RULESET.apply(state, event)):
                return 5, index, event.seq
    raise ValueError("no simulated game remakes its draw pile")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    args = parser.parse_args()
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    if args.check:
        if not TABLE.exists() or TABLE.read_text(encoding="utf-8") != text:
            print(f"{TABLE} differs from what {Path(__file__).name} writes", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
