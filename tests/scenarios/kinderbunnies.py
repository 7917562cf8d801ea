"""Games of KinderBunnies written by hand, for fixtures and tests.

A scenario names each hand of the deal (the cards in the order the seat gets them: a Bunny
Buck in a hand is put down and the seat is dealt again, as the rules say) and then lists
actions in the dispute notation (engine.dispute.notation): ``play 23 7`` (Feed The Bunny on
bunny 7), ``draw 0 41`` (chance: seat 0 draws card 41), ``roll 3,9,1,10,2``, ``accept``,
``choose bunnies=5``. The actor of an action is the seat the game waits for unless the
action names one (``actor=2``). :func:`playout` finishes a game by a fixed rule: the
lowest card left is drawn, every roll is 1s, and each seat takes the legal action warren's
greedy bot rates highest (the first of equals), so a whole game can be written by hand
without a random number.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.dispute.notation import propose
from engine.kinderbunnies import RULESET, bots
from engine.kinderbunnies.events import Draw, Reveal, Roll, SetAside, Spin
from engine.kinderbunnies.state import KinderState
from engine.record import FORMAT_VERSION, Event, Header, Player
from engine.rules import RuleViolation

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")


def header(game_id: str, players: int = 2, options: dict[str, Any] | None = None,
           source: str = "recorded", created: str = "2026-01-01T00:00:00Z") -> Header:
    opts = RULESET.record_options(dict(options or {}))
    head = Header(warren=FORMAT_VERSION, kind="header", game_id=game_id, ruleset=RULESET.slug,
                  options=opts, players=[Player(seat=s, name=NAMES[s]) for s in range(players)],
                  source=source, created=created)  # type: ignore[arg-type]
    RULESET.check_header(head)
    return head


def deal(state: KinderState, hands: Sequence[Sequence[int | str]]) -> list[Event]:
    """The deal's draws: each seat's cards in the order it gets them (applied to ``state``)."""
    queues = [list(h) for h in hands]
    out: list[Event] = []
    while state.dealing and not state.over:
        seat = state.deal_seat
        if not queues[seat]:
            raise ValueError(f"the deal runs out of cards for seat {seat}")
        event = Draw(seq=state.seq + 1, actor=None, seat=seat, card=queues[seat].pop(0))  # type: ignore[arg-type]
        RULESET.apply(state, event)
        out.append(event)
    left = [q for q in queues if q]
    if left:
        raise ValueError(f"cards left over after the deal: {left}")
    return out


def script(head: Header, hands: Sequence[Sequence[int | str]], actions: Sequence[str],
           orange: Sequence[int | str] | None = None, last_illegal: bool = False) -> list[Event]:
    """The events of a scenario. With ``last_illegal`` the last action is written whatever the
    rules say of it (an illegal fixture); every other action must be legal."""
    state = RULESET.setup(head)
    events: list[Event] = []
    if orange is not None:
        aside: Event = SetAside(seq=1, actor=None, orange=list(orange))  # type: ignore[arg-type]
        RULESET.apply(state, aside)
        events.append(aside)
    events += deal(state, hands)
    n = len(head.players)
    for i, text in enumerate(actions):
        event = propose(RULESET, state, text, n_seats=n)
        if last_illegal and i == len(actions) - 1:
            events.append(event)
            break
        try:
            RULESET.apply(state, event)
        except RuleViolation as exc:
            raise ValueError(f"action {i + 1} ({text!r}) is refused: {exc}") from exc
        events.append(event)
    return events


def _left(state: KinderState) -> list[int]:
    """The cards still in the draw pile: known, or (a game recorded at the table with every
    card named) the cards of the pile not yet seen."""
    if state.pile or state.pool is None:
        return sorted(state.pile)
    from engine.kinderbunnies.table import cards

    pile = set(cards(state).draw_pile)
    return [int(c) for c in state.pool.unseen if int(c) in pile]


def playout(head: Header, events: list[Event], limit: int = 3000) -> list[Event]:
    """``events`` and a fixed finish of the game (see the module docstring)."""
    state = RULESET.setup(head)
    RULESET.fold(state, events)
    out = list(events)
    while not state.over and len(out) < limit:
        agenda = RULESET.pending(state)
        seq = state.seq + 1
        event: Event | None = None
        owed = agenda.chance
        if owed is not None:
            live = state
            from engine.kinderbunnies.handlers import resolved

            live = resolved(state)
            if owed.kind in ("deal", "draw"):
                assert owed.seat is not None
                event = Draw(seq=seq, actor=None, seat=owed.seat, card=min(_left(live)))
            elif owed.kind == "roll":
                task = live.task
                assert task is not None
                event = Roll(seq=seq, actor=None,
                             faces=[1] * (1 if task.step == "reroll" else task.dice))
            elif owed.kind == "spin":
                event = Spin(seq=seq, actor=None, winner=0)
            elif owed.kind == "reveal":
                event = Reveal(seq=seq, actor=None, card=live.orange[-1])
        else:
            seat = agenda.seats()[0]
            actions = RULESET.legal_actions(state, seat)
            best = max(bots.greedy_value(state, a) for a in actions)
            event = next(a for a in actions if bots.greedy_value(state, a) == best)
        assert event is not None
        RULESET.apply(state, event)
        out.append(event)
    return out
