"""What simulators draw for the chance a position owes (never called on replay)."""

from __future__ import annotations

import random

from engine.killer import rolls as kit_rolls
from engine.killer_bunnies_odyssey import cards as card_rules
from engine.killer_bunnies_odyssey.events import Roll, Shuffle
from engine.killer_bunnies_odyssey.numbers import FIRST_DIE
from engine.killer_bunnies_odyssey.state import OdysseyState
from engine.killer_bunnies_odyssey.table import cards
from engine.pending import Chance
from engine.record import Event


def sample_chance(state: OdysseyState, owed: Chance, rng: random.Random) -> Event | None:
    seq = state.seq + 1
    t = cards(state)
    if owed.kind == "shuffle":
        assert owed.seat is not None
        order = [t.code(k) for k in state.seats[owed.seat].draw]
        order.sort()
        rng.shuffle(order)
        return Shuffle(seq=seq, actor=None, seat=owed.seat, order=order)
    if state.phase == "first" and state.rolloff is not None:
        seat = kit_rolls.to_roll(state.rolloff)
        assert seat is not None
        return Roll(seq=seq, actor=None, seat=seat, face=rng.randint(1, 12), die=FIRST_DIE)
    strike = state.strike
    assert strike is not None
    sides = card_rules.SIDES.get(strike.die, 12)
    return Roll(seq=seq, actor=None, seat=card_rules.strike_roller(state), face=rng.randint(1, sides),
                die=strike.die)
