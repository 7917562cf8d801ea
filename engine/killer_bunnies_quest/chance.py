"""What simulators draw when the game owes chance (replay never calls this).

Shuffles and dice come from the simulator's seeded generator. The card's player's re-roll
in a roll-off is a decision folded into his roll (ruling R-KBQ-21): simulated players
re-roll a first roll on the wrong half of the die (6 or less when they want it high).
"""

from __future__ import annotations

import random

from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_quest import table, unknowns, waiting
from engine.killer_bunnies_quest.events import Draw, Reshuffle, Reveal, Roll, Setup
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    MagicReveal,
    QuestState,
    RollCard,
    RollOffFrame,
    Shown,
    Supplies,
)
from engine.pending import Chance
from engine.record import Event


def sample_chance(state: QuestState, owed: Chance, rng: random.Random) -> Event | None:
    now = waiting.released(state)
    seq = state.seq + 1
    d = table.deck(now)
    if owed.kind == "setup":
        opts = now.opts
        choose = [n for n in d.catalogue.numbers() if "choose-a-carrot" in d.card(n).tags
                  and _takes_one(d.effects(n)[0])]
        removed = sorted(rng.sample(choose, opts.remove_choose_a_carrot))
        draw = [c for c in d.catalogue.draw_pile() if c not in removed]
        rng.shuffle(draw)
        small = {k: d.catalogue.numbers(k) for k in ("cabbage", "water", "magic_carrot")}
        for cards in small.values():
            rng.shuffle(cards)
        carrots = d.catalogue.numbers("carrot")
        rng.shuffle(carrots)
        gifts: list[list[int]] = []
        if opts.starting_carrots:
            for s in range(now.n):
                k = opts.starting_carrots if now.seats[s].present else 0
                gifts.append(sorted(carrots[:k]))
                carrots = carrots[k:]
        first = rng.choice(table.present(now))
        return Setup(seq=seq, actor=None, draw=draw, cabbage=small["cabbage"],
                     water=small["water"], carrots=small["magic_carrot"], first=first,
                     gifts=gifts, removed=removed)
    if owed.kind == "shuffle":
        if now.partial:
            return Reshuffle(seq=seq, actor=None)
        order = [c for c in now.discard if c in d.large]
        rng.shuffle(order)
        return Reshuffle(seq=seq, actor=None, order=order)
    if owed.kind in ("draw", "deal", "reveal"):
        return _table_chance(now, owed, rng, seq)
    top = now.stack[-1]
    if isinstance(top, AttackFrame):
        hit = next(h for h in top.hits if h.lives is None)
        return Roll(seq=seq, actor=None, faces=[rng.randint(1, d.catalogue.dice[hit.die].sides)])
    if isinstance(top, RollCard):
        return Roll(seq=seq, actor=None,
                    faces=[rng.randint(1, d.catalogue.dice[die].sides) for die in top.dice])
    assert isinstance(top, RollOffFrame)
    off = top.off
    seat = owed.seat
    first = rng.randint(1, 12)
    if seat == off.card_player and not off.rerolled:
        if off.reroll == "two_rolls":
            return Roll(seq=seq, actor=None, faces=[first, rng.randint(1, 12)])
        if off.reroll == "once":
            wants_high = (off.winner_side == "high") == off.picked_wins
            if (first <= 6) == wants_high:
                return Roll(seq=seq, actor=None, faces=[first, rng.randint(1, 12)])
    return Roll(seq=seq, actor=None, faces=[first])


def _table_chance(now: QuestState, owed: Chance, rng: random.Random, seq: int) -> Event:
    """The table form's chance (R-KBQ-40): a card the pool can give here, drawn at random.
    A hand card from the draw pile (what the recorder proposes as unseen), a small card of
    the deck owed, the Magic Carrot's card, or the weapons a hand shows (none)."""
    d = table.deck(now)
    top = now.stack[-1]
    pool = sorted(now.pool)
    if isinstance(top, Supplies):
        return Draw(seq=seq, actor=None, seat=top.seat,
                    card=rng.choice([c for c in pool if d.type[c] == top.kind]))
    if isinstance(top, MagicReveal):
        carrots = [c for c in pool if d.type[c] == "magic_carrot"]
        return Reveal(seq=seq, actor=None, cards=[rng.choice(carrots)])
    if isinstance(top, Shown):
        return Reveal(seq=seq, actor=None, seat=top.seat, cards=[])
    assert owed.seat is not None
    hand = [c for c in pool if unknowns.hand_card(now, c)]
    return Draw(seq=seq, actor=None, seat=owed.seat, card=rng.choice(hand) if hand else "?")


def _takes_one(effect: fx.AnyEffect) -> bool:
    """A single Choose A Carrot (the cards the short-game house rule leaves out)."""
    return effect.carrots_taken() == 1
