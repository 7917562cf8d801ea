"""Hand-made games of Killer Bunnies Odyssey, shared by the dispute table's writer
(tests/games/killer_bunnies_odyssey/make_disputes.py), the fixtures (fixtures/make_odyssey.py) and the
rule tests (tests/games/killer_bunnies_odyssey/).

Most games run on a *conveyor*: every turn the player draws the card he then puts down as
his bottom run card, so his hand keeps the five cards he kept at the start (his Specials and
Very Specials, to play from the hand) and the cards he flips are his two first run cards and
then his draws, in order. ``Game.turn`` plays one such turn.

Each builder returns a :class:`Game`: the scenario and named positions in it (the number of
events played when the position was reached).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from engine.killer_bunnies_odyssey.table import cards
from tests.scenarios.killer_bunnies_odyssey import Scenario


@dataclass
class Game:
    sc: Scenario
    about: str
    marks: dict[str, int] = field(default_factory=dict)

    def mark(self, name: str) -> None:
        self.marks[name] = len(self.sc.events)

    def piece(self, code: str, seat: int | None = None) -> int:
        """The newest piece in play of card ``code`` (of ``seat``, if given)."""
        state = self.sc.state
        t = cards(state)
        found = [pid for pid, p in state.pieces.items()
                 if t.code(p.kind) == code and (seat is None or p.owner == seat)]
        if not found:
            raise ValueError(f"no piece of {code} in play")
        return max(found)

    def renamed(self, game_id: str) -> Game:
        """The same game under another id (a fixture of its own)."""
        self.sc.header = msgspec.structs.replace(self.sc.header, game_id=game_id)
        return self

    def branch(self, mark: str | int, game_id: str) -> Game:
        """The game up to a position, as a new game to go on differently (a what-if)."""
        at = self.marks[mark] if isinstance(mark, str) else mark
        old = self.sc
        sc = Scenario([p.name for p in old.header.players], list(old.header.options["decks"]),
                      game_id=game_id, options=old.header.options, source=old.header.source)
        sc.events = list(old.events[:at])
        sc.rs.fold(sc.state, sc.events)
        return Game(sc, self.about, {k: v for k, v in self.marks.items() if v <= at})

    def hand(self, seat: int) -> list[str]:
        t = cards(self.sc.state)
        return [t.code(k) for k in self.sc.state.seats[seat].hand]

    def turn(self, flip: str, before: Sequence[str | dict[str, Any]] = (),
             rolls: Sequence[tuple[int, int] | tuple[int, int, str]] = (),
             after: Sequence[str | dict[str, Any]] = (), mark: str | None = None) -> None:
        """One conveyor turn: ``before`` (saved Specials, Very Specials...), the flip, the
        dice its card owes, ``after``, then the card just drawn goes down as the bottom
        run card (``mark`` names the position before it)."""
        sc = self.sc
        seat = sc.state.active
        assert seat is not None
        sc.many(*before)
        sc.act(flip)
        drawn = self.hand(seat)[-1]
        for roll in rolls:
            sc.roll(*roll)
        sc.many(*after)
        if mark:
            self.mark(mark)
        if sc.state.active == seat and sc.state.replace_owed and not sc.state.over:
            sc.act(f"bottom {drawn}")


def _start(players: Sequence[str], decks: Sequence[str], hands: Sequence[Sequence[str]],
           runs: Sequence[tuple[str, str]], draws: Sequence[Sequence[str]], about: str, *,
           game_id: str, first: int = 0, options: dict[str, Any] | None = None,
           source: str = "recorded") -> Game:
    sc = Scenario(players, decks, game_id=game_id, options=options, source=source)
    sc.setup(hands=hands, runs=runs, draws=draws, first=first)
    return Game(sc, about)


def mulligan(source: str = "recorded", options: dict[str, Any] | None = None) -> Game:
    """Blue (Ada) against Green (Bo). Bo's first seven hold no Resource: he mulligans, his pile
    is shuffled and cut, he deals again for 5 Civ points. The first roll ties once. Later Bo
    draws one card too many and Ada spots it: the Hexascrewup takes his d20 below its faces."""
    sc = Scenario(["Ada", "Bo"], ["blue", "green"], game_id="odyssey-mulligan", source=source,
                  options=options)
    g = Game(sc, mulligan.__doc__ or "")
    g.mark("start")
    sc.shuffle(0, ["WB01", "WB01", "WB03", "WB14", "WB22", "WB27", "WB30", "WB01", "WB01", "WB04"])
    g.mark("shuffled")
    sc.act("deal", 0)
    g.mark("dealt")
    sc.act("runs WB01 WB01", 0)
    g.mark("ran")
    sc.shuffle(1, ["WG03", "WG04", "WG09", "WG14", "WG20", "WG22", "WG27"])
    sc.act("deal", 1)
    g.mark("no-resource")
    sc.act("mulligan", 1)
    g.mark("mulliganed")
    # the cut lifts the five top cards under the rest: the deal comes from below them
    sc.shuffle(1, ["WG05", "WG06", "WG07", "WG08", "WG12", "WG01", "WG01", "WG03", "WG04", "WG14",
                   "WG27", "WG29", "WG01", "WG01", "WG10"])
    g.mark("to-cut")
    sc.act({"type": "cut", "actor": 0, "seat": 1, "depth": 5})
    g.mark("cut")
    sc.act("deal", 1)
    g.mark("dealt-again")
    sc.act("runs WG01 WG01", 1)
    g.mark("first-roll")
    sc.roll(0, 7)
    sc.roll(1, 7)
    g.mark("tied")
    sc.roll(0, 12)
    sc.roll(1, 2)
    g.mark("play")
    g.turn("flip save")
    g.turn("flip save", mark="bo-flipped")
    g.mark("round-2")
    sc.act("overdraw", 1)
    g.mark("extra-card")
    return g


def seven(source: str = "recorded") -> Game:
    """The seven-card reading (hand_size=7): once his run cards are down, a player draws back to
    seven cards before the next one sets up."""
    sc = Scenario(["Ada", "Bo"], ["blue", "green"], game_id="odyssey-seven", source=source,
                  options={"hand_size": 7})
    g = Game(sc, seven.__doc__ or "")
    sc.shuffle(0, ["WB01"] * 4 + ["WB03", "WB22", "WB27", "WB04", "WB09"])
    sc.act("deal", 0)
    sc.act("runs WB01 WB01", 0)
    g.mark("refill")
    sc.act("draw", 0)
    g.mark("sixth")
    sc.act("draw", 0)
    g.mark("full")
    sc.shuffle(1, ["WG01"] * 4 + ["WG03", "WG22", "WG27", "WG04", "WG09"])
    sc.act("deal", 1)
    sc.act("runs WG01 WG01", 1)
    sc.act("draw", 1)
    sc.act("draw", 1)
    sc.roll(0, 12)
    sc.roll(1, 1)
    g.mark("play")
    return g


def board(source: str = "recorded", options: dict[str, Any] | None = None) -> Game:
    """Blue (Ada) against Green (Bo), on the conveyor: Resources saved, bunnies and cities,
    occupants, a Ground Weapon and a City Weapon with their dice, Feed The Bunny and feeding, a
    Bunny Modifier, a d6 band, a reshuffle and its cut, Specials from the hand and saved, Very
    Specials off-turn, answers, trades."""
    g = _start(["Ada", "Bo"], ["blue", "green"],
               hands=[["WB01", "WB01", "WB27", "WB28", "WB24", "WB29", "WB23"],
                      ["WG01", "WG01", "WG27", "WG28", "WG22", "WG25", "WG29"]],
               runs=[("WB01", "WB01"), ("WG01", "WG01")],
               draws=[["WB02", "WB01", "WB03", "WB11", "WB14", "WB04", "WB21", "WB18", "WB01",
                       "WB17", "WB26", "WB25", "WB30", "WB12", "WB06"],
                      ["WG01", "WG01", "WG03", "WG11", "WG20", "WG15", "WG10", "WG23", "WG24",
                       "WG06", "WG04", "WG09", "WG12"]],
               about=board.__doc__ or "", game_id="odyssey-board", source=source, options=options)
    g.mark("start")
    for _ in range(4):
        g.turn("flip save")
        g.turn("flip save")
    g.mark("saved-four")
    g.turn("flip play at=0")                                  # Ada: WB03, piece 9
    g.turn("flip play at=0")                                  # Bo: WG03, piece 10
    g.mark("cities")
    g.turn("flip play at=0")                                  # Ada: WB11 city, piece 11
    g.turn("flip play at=0")                                  # Bo: WG11 city, piece 12
    g.mark("zap")
    g.sc.act(f"flip play target={g.piece('WG03')}")           # Ada: Zap Ray at Bo's bunny
    g.mark("zap-waits")
    g.sc.roll(1, 9)
    g.sc.act(f"bottom {g.hand(0)[-1]}")
    g.mark("feed")
    g.turn(f"flip play target={g.piece('WB03')}")             # Bo: Feed The Bunny on Ada's bunny
    g.mark("feed-due")
    g.turn(f"flip play into={g.piece('WB11')}",               # Ada feeds, Gadget Bunny into her city
           before=[f"feed {g.piece('WG20')}"])
    g.mark("pitchfork")
    g.turn(f"flip play target={g.piece('WB03')}", rolls=[(0, 11)])  # Bo: Pitchfork Toss
    g.mark("modifier")
    g.turn(f"flip play target={g.piece('WB03')}")             # Ada: Titanium Carrot under her bunny
    g.turn(f"flip play into={g.piece('WG11')}")               # Bo: Garden Tortoise into his city
    g.mark("emp")
    g.sc.act(f"flip play target={g.piece('WG11')}")           # Ada: EMP Bomb at Bo's city
    g.mark("emp-waits")
    g.sc.roll(1, 3)
    g.sc.act(f"bottom {g.hand(0)[-1]}")
    g.mark("bands")
    g.sc.act("flip play")                                     # Bo: Harvest Festival
    g.mark("bands-wait")
    g.sc.roll(1, 5, "d6")
    g.sc.act(f"bottom {g.hand(1)[-1]}")
    g.turn("flip save")                                       # Ada saves a Resource
    g.mark("recycle")
    g.sc.act("flip play")                                     # Bo: Compost Heap
    g.mark("recycled")
    # the cut lifts the five top cards under the rest: Bo draws what lies below them
    g.sc.shuffle(1, ["WG01"] * 5 + ["WG04", "WG09", "WG12", "WG05"])
    g.mark("to-cut")
    g.sc.act({"type": "cut", "actor": 0, "seat": 1, "depth": 5})
    g.sc.act(f"bottom {g.hand(1)[-1]}")
    g.mark("shock")
    g.sc.act(f"flip play target={g.piece('WG03')}")           # Ada: Shock Wave at Bo's bunny
    g.mark("shock-waits")
    g.sc.roll(1, 3)           # Bo's bunny dies; Ada's own, beside it, faces level 0 and lives
    g.sc.act(f"bottom {g.hand(0)[-1]}")
    g.mark("bo-turn")
    g.turn("flip play at=0")                                  # Bo: Farmhand Bunny
    g.mark("census")
    g.turn("flip play")                                       # Ada: Tech Census
    g.turn("flip play at=0")                                  # Bo: Clover Bunny
    g.mark("ada-saves")
    g.turn("flip save")                                       # Ada saves Reboot, a Special
    g.mark("bo-turn2")
    g.turn("flip play at=0")                                  # Bo: Seedling Bunny
    g.mark("ada-own")
    return g


def siege(source: str = "recorded", options: dict[str, Any] | None = None) -> Game:
    """Blue (Ada) against Green (Bo): cards flipped whose conditions cannot be met are burned (a
    pink box without a bunny, a green box without a city)."""
    g = _start(["Ada", "Bo"], ["blue", "green"],
               hands=[["WB01", "WB03", "WB27", "WB22", "WB25", "WB26", "WB30"],
                      ["WG14", "WG01", "WG27", "WG22", "WG24", "WG26", "WG30"]],
               runs=[("WB01", "WB03"), ("WG14", "WG01")],
               draws=[["WB18", "WB01"], ["WG01", "WG01"]],
               about=siege.__doc__ or "", game_id="odyssey-siege", source=source, options=options)
    g.turn("flip save")
    g.mark("pink-without-bunny")
    g.turn("flip discard")
    g.turn("flip play at=0")
    g.turn("flip save")
    g.mark("green-without-city")
    return g


def race(source: str = "recorded", options: dict[str, Any] | None = None) -> Game:
    """Blue (Ada) builds cities and fills them while Green (Bo) only saves Resources; Ada's
    total reaches 60 on Bo's turn, with a Very Special card."""
    flips = ["WB01"] * 4 + ["WB13", "WB08", "WB07", "WB06", "WB12", "WB06", "WB04", "WB12", "WB04",
                            "WB03", "WB11", "WB09", "WB22", "WB03", "WB05", "WB10"]
    g = _start(["Ada", "Bo"], ["blue", "green"],
               hands=[["WB01", "WB01", "WB30", "WB27", "WB28", "WB25", "WB23"],
                      ["WG01", "WG01", "WG27", "WG28", "WG25", "WG23", "WG22"]],
               runs=[("WB01", "WB01"), ("WG01", "WG01")],
               draws=[flips, ["WG01"] * 14 + ["WG02"] * 4],
               about=race.__doc__ or "", game_id="odyssey-race", source=source, options=options)
    plays = ["flip save"] * 6 + ["flip play at=0", "flip play into=5", "flip play into=5",
                                 "flip play into=5", "flip play at=1", "flip play into=6",
                                 "flip play into=6", "flip play at=2", "flip play into=7",
                                 "flip play into=7", "flip play at=3", "flip play into=8",
                                 "play_fair", "flip play at=0"]
    cities: list[int] = []
    for i, play in enumerate(plays):
        if play == "play_fair":
            g.turn("flip play")
        else:
            play = _city_refs(g, play, cities)
            g.turn(play)
        if i == len(plays) - 1:
            g.mark("fifty-nine")
            g.sc.act("flip save")
            g.mark("bo-flipped")
            g.sc.act("play WB30 actor=0")
            g.mark("over")
            break
        g.turn("flip save")
    return g


def _city_refs(g: Game, play: str, cities: list[int]) -> str:
    """Resolve ``into=N`` (the N-th city built, from 5) to the city's piece in the race."""
    state = g.sc.state
    built = [pid for pid in state.center.order if state.pieces[pid].owner == 0]
    if "into=" in play:
        n = int(play.split("into=")[1])
        ordered = sorted(built)
        return play.split("into=")[0] + f"into={ordered[n - 5]}"
    if play.startswith("flip play at=") and len(built) < 5:
        top = state.seats[0].run.top
        t = cards(state)
        if top is not None and t.is_city(top):
            return f"flip play at={len(state.center)}"
        return f"flip play at={len(state.circle)}"
    return play


def trio(source: str = "recorded", options: dict[str, Any] | None = None) -> Game:
    """Blue (Ada), Green (Bo), Orange (Cy): trades in a three-player game, a creature kidnapped
    from a city and placed again, a creature brought back from the discard pile."""
    g = _start(["Ada", "Bo", "Cy"], ["blue", "green", "orange"],
               hands=[["WB01", "WB01", "WB27", "WB22", "WB25", "WB26", "WB30"],
                      ["WG01", "WG01", "WG27", "WG22", "WG24", "WG26", "WG30"],
                      ["WO01", "WO01", "WO23", "WO25", "WO27", "WO22", "WO30"]],
               runs=[("WB01", "WB01"), ("WG01", "WG01"), ("WO01", "WO01")],
               draws=[["WB01", "WB03", "WB11", "WB14", "WB04", "WB01"],
                      ["WG01", "WG03", "WG11", "WG01", "WG04", "WG01"],
                      ["WO01", "WO03", "WO01", "WO01", "WO04", "WO01"]],
               about=trio.__doc__ or "", game_id="odyssey-trio", source=source, options=options)
    for _ in range(3):
        g.turn("flip save")
    g.mark("trade")
    g.turn("flip save", before=[{"type": "trade", "actor": 0, "partner": 2, "give": [1], "take": [3]}])
    g.turn("flip save")
    g.turn("flip save")
    for _ in range(3):
        g.turn("flip save")
    g.turn("flip play at=0")      # Ada: WB03 bunny
    g.turn("flip play at=0")      # Bo: WG03 bunny
    g.turn("flip play at=0")      # Cy: WO03 bunny
    g.turn("flip play at=0")      # Ada: WB11 city
    g.turn("flip play at=0")      # Bo: WG11 city
    g.mark("kidnap")
    return g


def duel(source: str = "recorded", options: dict[str, Any] | None = None) -> Game:
    """Violet (Vi) against Blue (Ada), two players: a card that hits the adjacent players hits the
    one opponent; a Very Special raid names an opponent."""
    g = _start(["Vi", "Ada"], ["violet", "blue"],
               hands=[["WV01", "WV01", "WV23", "WV29", "WV27", "WV22", "WV30"],
                      ["WB01", "WB01", "WB27", "WB22", "WB25", "WB26", "WB30"]],
               runs=[("WV01", "WV01"), ("WB01", "WB01")],
               draws=[["WV01", "WV03", "WV01"], ["WB01", "WB03", "WB01"]],
               about=duel.__doc__ or "", game_id="odyssey-duel", source=source, options=options)
    for _ in range(4):
        g.turn("flip save")
    g.mark("border")
    g.turn("flip save")
    g.turn("flip save")
    g.turn("flip play at=0")      # Vi: her bunny
    g.mark("heckle")
    return g


def table_record(source: str = "recorded") -> Game:
    """A game recorded at the table: nobody saw the shuffles or the hands, so the record writes
    those cards ``?`` and names each card as it comes to light (flipped, played from the hand,
    picked). Bo mulligans with a hand nobody saw (undetermined: only he knew it held no
    Resource); Ada looks at Bo's hand and finds no Very Special card (undetermined); Bo spots an
    extra card in Ada's hand that the record never saw drawn (undetermined)."""
    sc = Scenario(["Ada", "Bo"], ["blue", "green"], game_id="odyssey-at-the-table", source=source)
    g = Game(sc, table_record.__doc__ or "")
    sc.shuffle(0, unknown=True)
    sc.act("deal", 0)
    sc.act("runs ? ?", 0)
    sc.shuffle(1, unknown=True)
    sc.act("deal", 1)
    sc.act("mulligan", 1)
    g.mark("mulliganed")
    sc.shuffle(1, unknown=True)
    sc.act({"type": "cut", "actor": 0, "seat": 1, "depth": 7})
    sc.act("deal", 1)
    sc.act("runs ? ?", 1)
    sc.roll(0, 10)
    sc.roll(1, 4)
    for code in ("WB01", "WG01", "WB01", "WG01", "WB02", "WG01"):
        sc.act(f"flip save card={code}")
        sc.act("bottom ?")
    g.mark("spy")
    sc.act("play WB23 opponent=1")          # a Special from the hand: Ada's turn ends
    g.mark("spied")
    sc.act("flip save card=WG02")
    sc.act("bottom ?")
    g.mark("hexascrewup")
    sc.act("hexascrewup 0 WB27 actor=1")
    sc.act("flip play card=WB03 at=0")
    sc.act("bottom ?")
    return g


BUILDERS: dict[str, Callable[[], Game]] = {
    "mulligan": mulligan, "seven": seven, "board": board, "siege": siege, "race": race,
    "trio": trio, "duel": duel, "table": table_record,
}
