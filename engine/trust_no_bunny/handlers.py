"""One handler per event type of Trust No Bunny, from the step of the round it belongs to:
the set-up (setup.py), the day (day.py), the night (night.py and, for a game recorded at
the table, unknowns_night.py), dawn (dawn.py) and the timer (timer.py). Every handler
checks every guard before it changes anything, so a refused event leaves the state as it
was (engine.ruleset)."""

from __future__ import annotations

from typing import Any

from engine.trust_no_bunny import events as ev
from engine.trust_no_bunny.dawn import draw
from engine.trust_no_bunny.day import accuse, card_lost, propose, ready, vote
from engine.trust_no_bunny.night import bless, brew, gaze, guard, predict, rest, sabotage
from engine.trust_no_bunny.setup import choose_item, deal, offers, roles
from engine.trust_no_bunny.timer import timeout
from engine.trust_no_bunny.unknowns_night import act

HANDLERS: dict[Any, Any] = {
    ev.Roles: roles, ev.Offers: offers, ev.ChooseItem: choose_item, ev.Deal: deal,
    ev.Accuse: accuse, ev.Ready: ready, ev.CardLost: card_lost, ev.Propose: propose, ev.Vote: vote,
    ev.Guard: guard, ev.Bless: bless, ev.Predict: predict, ev.Sabotage: sabotage, ev.Gaze: gaze,
    ev.Brew: brew, ev.Rest: rest, ev.Draw: draw, ev.Timeout: timeout, ev.Act: act,
}
"""Event type -> its handler."""
