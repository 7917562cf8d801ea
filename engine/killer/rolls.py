"""Readings of several dice, and roll-offs between players.

Readings (what a card's roll means; the faces are recorded chance):

* ``pattern``: how many of several dice agree: ``three_of_a_kind`` when three or more show
  one face, ``pair`` when two do (and no three), else ``all_different`` (the Casino);
* ``lowest``: the die (or dice, on a tie) with the lowest face (Supplies Surprise);
* ``matches``: how many dice show a number (the Magic Fountain; KinderBunnies' hazards);
* a single die's band (``RollBands.band_for``, the Bakery).

Roll-offs (Defector Detector, Russian Roulette, Poverty Poker): several players roll; the
highest (or lowest) roller is picked; players tied for it roll again, only they, until one
is left. The card's player has a re-roll right by printing: ``once`` (the later Bunny Bits:
after seeing his first roll he may roll once more, the new roll standing) or ``two_rolls``
(the 2002 cards: he rolls twice and keeps the better). :class:`RollOff` folds the recorded
rolls one by one and says who must roll next.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Literal

import msgspec

from engine.killer.catalogue.effects import Reroll
from engine.killer.refusal import Refusal

Pattern = Literal["all_different", "pair", "three_of_a_kind"]


def pattern(faces: Sequence[int]) -> Pattern:
    """How many dice agree."""
    most = max(Counter(faces).values(), default=0)
    if most >= 3:
        return "three_of_a_kind"
    if most == 2:
        return "pair"
    return "all_different"


def lowest(faces: Mapping[str, int]) -> list[str]:
    """The dice showing the lowest face (all of them on a tie), in the order given."""
    low = min(faces.values())
    return [die for die, face in faces.items() if face == low]


def matches(faces: Sequence[int], number: int) -> int:
    """How many dice show ``number``."""
    return sum(1 for f in faces if f == number)


def better(a: int, b: int, pick: Literal["high", "low"], picked_wins: bool) -> int:
    """The better of two rolls for the roller: nearer the pick when being picked wins
    (Defector Detector), farther from it when being picked loses (Russian Roulette)."""
    want_high = (pick == "high") == picked_wins
    return max(a, b) if want_high else min(a, b)


class RollOff(msgspec.Struct, kw_only=True):
    """A roll-off under way: who rolls, what they rolled, who is still in it."""

    players: list[int]
    """Everyone taking part, in turn order from the card's player."""
    winner_side: Literal["high", "low"]
    """Which roller is picked: the highest or the lowest."""
    picked_wins: bool
    """Being picked wins something (True) or loses something (False)."""
    card_player: int
    reroll: Reroll
    rolls: dict[int, int] = {}
    """This round's standing roll per player."""
    contenders: list[int] = []
    """Who rolls this round (everyone at first, then the tied)."""
    rerolled: bool = False
    """The card's player has used his re-roll (or his second roll)."""
    first_of_two: int | None = None
    """With ``two_rolls``: his first roll, waiting for the second."""
    decided: int | None = None
    """The player picked (the highest or lowest roller) once the roll-off is over."""

    def copy(self) -> RollOff:
        return RollOff(players=self.players[:], winner_side=self.winner_side,
                       picked_wins=self.picked_wins, card_player=self.card_player, reroll=self.reroll,
                       rolls=dict(self.rolls), contenders=self.contenders[:],
                       rerolled=self.rerolled, first_of_two=self.first_of_two,
                       decided=self.decided)


def start(players: Sequence[int], winner_side: Literal["high", "low"], card_player: int,
          reroll: Reroll, picked_wins: bool = True) -> RollOff:
    if not players:
        raise Refusal("rolloff.nobody", "nobody can take part in the roll-off")
    off = RollOff(players=list(players), winner_side=winner_side, picked_wins=picked_wins,
                  card_player=card_player, reroll=reroll, contenders=list(players))
    if len(players) == 1:
        off.decided = players[0]
    return off


def to_roll(off: RollOff) -> int | None:
    """The player whose roll is awaited next, or None when every roll of the round is in
    (or the roll-off is decided)."""
    if off.decided is not None:
        return None
    for seat in off.contenders:
        if seat not in off.rolls:
            return seat
    return None


def may_reroll(off: RollOff, seat: int) -> bool:
    """May ``seat`` now roll again instead of standing on his roll (right ``once``)?"""
    return (off.decided is None and off.reroll == "once" and seat == off.card_player
            and not off.rerolled and seat in off.rolls)


def record(off: RollOff, seat: int, face: int, reroll: bool = False) -> None:
    """Fold one recorded roll. ``reroll`` marks the card's player's second try under
    ``once`` (it replaces his roll). Under ``two_rolls`` his two rolls come one after the
    other and the better stands. When the round is complete, the tied players (if any) are
    sent round again."""
    if off.decided is not None:
        raise Refusal("rolloff.over", "the roll-off is already decided", winner=off.decided)
    if reroll:
        if not may_reroll(off, seat):
            raise Refusal("rolloff.no_reroll", f"seat {seat} may not re-roll now",
                          seat=seat, card_player=off.card_player, right=off.reroll)
        off.rolls[seat] = face
        off.rerolled = True
        return
    expected = to_roll(off)
    if expected != seat:
        raise Refusal("rolloff.not_your_roll",
                      f"seat {seat} does not roll now: "
                      + ("nobody does" if expected is None else f"seat {expected} does"),
                      seat=seat, waiting_for=expected)
    if (off.reroll == "two_rolls" and seat == off.card_player and not off.rerolled):
        if off.first_of_two is None:
            off.first_of_two = face
            return
        face = better(off.first_of_two, face, off.winner_side, off.picked_wins)
        off.first_of_two = None
        off.rerolled = True
    off.rolls[seat] = face


def close_round(off: RollOff) -> None:
    """Every contender has rolled (and the card's player has declined or used his re-roll):
    pick the winner, or send the tied round again."""
    if to_roll(off) is not None or off.decided is not None:
        return
    best = (max if off.winner_side == "high" else min)(off.rolls.values())
    tied = [s for s in off.contenders if off.rolls[s] == best]
    if len(tied) == 1:
        off.decided = tied[0]
        return
    off.contenders = tied
    off.rolls = {}
