"""Play whole games with bots, drawing chance from a seeded generator and recording it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from engine.bots import make_bot
from engine.record import FORMAT_VERSION, Event, Header, Player, event_to_dict, header_to_dict, seal
from engine.ruleset import Ruleset

SIM_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
"""Simulated games get ``created`` times from this epoch, so a seed fixes every byte."""


@dataclass(slots=True)
class SimulatedGame:
    header: Header
    events: list[Event]

    def lines(self) -> list[bytes]:
        return seal(header_to_dict(self.header), [event_to_dict(e) for e in self.events])


def play(
    ruleset: Ruleset[Any, Any],
    header: Header,
    bot_kinds: Sequence[str],
    rng: random.Random,
    max_events: int = 5000,
) -> list[Event]:
    """Play from the header's set-up until the game ends or ``max_events`` are recorded."""
    return play_from(ruleset, ruleset.setup(header), bot_kinds, rng, max_events)


def play_from(
    ruleset: Ruleset[Any, Any],
    state: Any,
    bot_kinds: Sequence[str],
    rng: random.Random,
    max_events: int = 5000,
) -> list[Event]:
    """Play on from ``state`` (changed in place) until the game ends or ``max_events`` more
    are recorded: what a whole simulated game does from its set-up, and what the analysis
    of a game (engine.analysis) does from every world it samples."""
    bots = [make_bot(kind, rng, ruleset) for kind in bot_kinds]
    events: list[Event] = []
    apply = ruleset.apply
    pending = ruleset.pending
    while not state.over and len(events) < max_events:
        # One agenda per position answers all three questions (chance, who acts, what they
        # may do): what Ruleset.chance, to_act and legal_actions each read from pending.
        agenda = pending(state)
        owed = agenda.chance or agenda.optional
        event = None if owed is None else ruleset.sample_chance(state, owed, rng)
        if event is None:
            seats = agenda.seats()
            if not seats:
                break
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            actions = ruleset.actions_in(state, seat, agenda)
            if not actions:
                break
            event = bots[seat].choose(ruleset, state, seat, actions)
            event = ruleset.randomize(state, event, rng)
        apply(state, event)
        events.append(event)
    return events


def simulate(
    ruleset: Ruleset[Any, Any],
    games: int,
    seed: int,
    *,
    players: int | None = None,
    bots: Sequence[str] = ("random", "greedy"),
    options: dict[str, Any] | None = None,
    max_events: int = 5000,
    start: int = 0,
) -> list[SimulatedGame]:
    """``games`` games; game ``i`` depends only on (seed, i), never on the others."""
    out = []
    for i in range(start, start + games):
        out.append(simulate_one(ruleset, seed, i, players=players, bots=bots,
                                options=options, max_events=max_events))
    return out


def simulate_one(
    ruleset: Ruleset[Any, Any],
    seed: int,
    index: int,
    *,
    players: int | None = None,
    bots: Sequence[str] = ("random", "greedy"),
    options: dict[str, Any] | None = None,
    max_events: int = 5000,
) -> SimulatedGame:
    rng = random.Random(f"warren:{ruleset.slug}:{seed}:{index}")
    n = players or ruleset.min_players
    # Seat i plays bot kind i mod len(bots), so mixed tables are the default.
    kinds = [bots[(index + s) % len(bots)] for s in range(n)]
    header = Header(
        warren=FORMAT_VERSION,
        kind="header",
        game_id=f"{ruleset.slug}-{seed}-{index:06d}",
        ruleset=ruleset.slug,
        options=ruleset.record_options(dict(options or {})),
        players=[Player(seat=s, name=f"{kinds[s]}-bot-{s}") for s in range(n)],
        source="simulated",
        created=(SIM_EPOCH + timedelta(seconds=index)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )
    ruleset.check_header(header)
    return SimulatedGame(header, play(ruleset, header, kinds, rng, max_events))
