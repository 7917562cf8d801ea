"""The disputes page's parts: legal actions, proposed actions and their verdicts, the current
event explained (rulings: :mod:`dashboard.rulings_view`; branches: :mod:`dashboard.whatif_view`).

Verdicts come from :mod:`engine.dispute` over the loaded game's snapshots, never a replay
from the start.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import streamlit as st

from dashboard import data, tables, timeline
from dashboard.tables import md
from engine.dispute import (
    ActionError,
    Dispute,
    Verdict,
    action_usage,
    format_action,
    judge,
    read_action,
)
from engine.record import Event
from engine.rules import WarrenError
from engine.ruleset import HIDDEN_RULE, Perspective, Ruleset
from engine.wording import and_list

SEAT = "dsp_seat"
LEGAL = "dsp_legal"
LEGAL_FOR = "dsp_legal_for"
ACTION = "dsp_action"
TO_ACT = -1
"""The seat picker's first choice: whoever is to act at the position."""


# -- reading and judging proposed actions (no Streamlit) ----------------------------------------
def read_actions(text: str) -> list[str | dict[str, Any]]:
    """The proposed actions in a text box: one per line (notation or a JSON object), or one
    JSON object, or a JSON list of objects. Blank lines and ``#`` comments are skipped."""
    text = text.strip()
    if not text:
        return []
    if text[0] in "[{":
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = None  # perhaps one JSON object per line: read line by line below
        if isinstance(value, dict):
            return [value]
        if isinstance(value, list):
            if value and all(isinstance(v, dict) for v in value):
                return list(value)
            raise ActionError("a JSON list of actions holds event objects, e.g. "
                              '[{"type": "lay", "cards": ["QH"]}, {"type": "end_turn"}]')
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def names_actor(ruleset: Ruleset[Any, Any], action: str | dict[str, Any]) -> bool:
    """Does the action itself say who acts (``actor=N`` or a JSON ``actor``)?"""
    return read_action(ruleset, action).names_actor


def judge_all(dispute: Dispute, at: int, actions: list[str | dict[str, Any]],
              seat: int | None) -> list[Verdict]:
    """Verdicts on actions played one after the other from position ``at``, up to and
    including the first illegal one. Each action is ``seat``'s unless it names its actor."""
    ruleset = dispute.ruleset
    state = dispute.state_at(at)
    verdicts = []
    for action in actions:
        asked = None if names_actor(ruleset, action) else seat
        verdict = judge(ruleset, state, action, n_seats=dispute.n_seats, seat=asked)
        verdicts.append(verdict)
        if not verdict.legal:
            break
        event = msgspec.convert(verdict.action, ruleset.events_by_type[verdict.action["type"]])
        ruleset.apply(state, event)
    return verdicts


def action_text(ruleset: Ruleset[Any, Any], action: dict[str, Any] | Event) -> str:
    """An action (record form) as notation naming its actor, ready for the text box."""
    if isinstance(action, dict):
        action = msgspec.convert({k: v for k, v in action.items() if k != "hash"},
                                 ruleset.events_by_type[action["type"]])
    return format_action(ruleset, action, with_actor=True)


def who(seat: int | None, names: list[str]) -> str:
    """A seat as a sentence names it: its player (``the table`` for none)."""
    if seat is None:
        return "the table"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def action_words(game: data.LoadedGame, verdict: Verdict) -> str:
    """The judged action in the game's words ("Ann buys a cabbage"), not its notation."""
    try:
        event = msgspec.convert({k: v for k, v in verdict.action.items() if k != "hash"},
                                game.ruleset.events_by_type[verdict.action["type"]])
        return game.ruleset.describe(event, game.names)
    except (KeyError, msgspec.ValidationError, WarrenError):
        return verdict.notation


# -- legal actions ---------------------------------------------------------------------------------
def seat_picker(dispute: Dispute, seq: int) -> tuple[int | None, int | None]:
    """The seat asked about: (whose actions are judged, None to let the engine take the one
    seat to act or the table; the seat whose legal actions are listed, None where no seat
    acts and none was chosen)."""
    names = dispute.names
    options = [TO_ACT, *range(dispute.n_seats)]
    if st.session_state.get(SEAT) not in options:
        st.session_state.pop(SEAT, None)
    choice = st.selectbox(
        "Seat", options, key=SEAT,
        format_func=lambda s: "whoever is to act" if s == TO_ACT else names[s],
        help="Any seat may be asked about, on its turn or off it. A proposed action is this "
             "seat's unless it names another (actor=N, or actor=null for the table).")
    if choice is None or choice == TO_ACT:
        to_act = list(dispute.ruleset.to_act(dispute.state_at(seq)))
        if not to_act:
            return None, None  # the table records chance next: no seat's list to show
        listed = to_act[0]
        if len(to_act) > 1:
            # Several seats act at once (a vote): the engine cannot guess whose action it is.
            st.caption(f"{md(and_list([who(s, names) for s in to_act]))} may act now; actions are taken as "
                       f"{md(who(listed, names))}'s unless you choose another seat or name the actor.")
            return listed, listed
        return None, listed
    return int(choice), int(choice)


def _use_legal() -> None:
    picked = st.session_state.get(LEGAL)
    if picked:
        st.session_state[ACTION] = picked


def show_legal(dispute: Dispute, seq: int, seat: int | None) -> None:
    if seat is None:
        over = dispute.state_at(seq).over
        st.markdown(f"**Legal actions** at seq {seq}")
        st.info("The game is over: nobody acts." if over else
                "No seat acts here: the table records chance next (a deal, a draw, a die). "
                "Choose a seat to see what it could do off its turn.")
        st.session_state.pop(LEGAL, None)
        return
    found = dispute.legal(seat, at=seq)
    st.markdown(f"**Legal actions of {md(who(seat, dispute.names))}** at seq {seq}: {len(found.actions)}")
    if not found.actions:
        st.info(md(found.note) if found.note else "No action is open to this seat here.")
        st.session_state.pop(LEGAL, None)
        return
    marker = (dispute.header.game_id, seq, seat)
    if st.session_state.get(LEGAL_FOR) != marker or st.session_state.get(LEGAL) not in found.notations:
        st.session_state[LEGAL_FOR] = marker
        st.session_state.pop(LEGAL, None)  # another position: nothing picked yet
    box = st.container(height=300) if len(found.actions) > 10 else st.container()
    with box:
        st.radio("Pick one to propose it", found.notations, index=None, key=LEGAL, on_change=_use_legal,
                 captions=found.descriptions)
    with st.expander("As record events (JSON)"):
        st.json(found.to_dict()["actions"], expanded=False)


# -- proposing and judging ----------------------------------------------------------------------------
def _use_next(text: str) -> None:
    st.session_state[ACTION] = text


def _clear_action() -> None:
    st.session_state[ACTION] = ""
    st.session_state.pop(LEGAL, None)


def propose_box(game: data.LoadedGame, seq: int) -> None:
    events = game.record.events
    usage = "  \n".join(f"`{u}`" for u in action_usage(game.ruleset))
    st.text_area(
        "Proposed action(s)", key=ACTION, height=90,
        placeholder="lay QH QS\n(notation or JSON; one action per line, played in order)",
        help="Short notation `TYPE [VALUE ...] [field=value ...]` or JSON in the record's event "
             f"vocabulary; `actor=N` names the seat. This game's actions:  \n{usage}")
    cols = st.columns(2)
    cols[0].button("Judge", key="dsp_judge", type="primary", width="stretch")
    cols[1].button("Clear", key="dsp_clear", on_click=_clear_action, width="stretch")
    following = action_text(game.ruleset, events[seq]) if seq < len(events) else None
    st.button("Propose the event recorded next", key="dsp_use_next", on_click=_use_next,
              args=(following or "",), disabled=following is None, type="tertiary",
              help="Was the recorded event legal here? (It is proposed with its actor.)")


def verdicts_for(dispute: Dispute, seq: int, seat: int | None) -> list[Verdict] | None:
    """The verdicts on the proposed actions, or None (with the reason on the page)."""
    text = st.session_state.get(ACTION) or ""
    if not text.strip():
        st.caption("Pick a legal action above or type one, then Judge.")
        return None
    try:
        actions = read_actions(text)
        if not actions:
            st.caption("Only comments: nothing to judge.")
            return None
        return judge_all(dispute, seq, actions, seat)
    except WarrenError as exc:
        st.error(f"Cannot judge this action: {md(str(exc))}", icon=":material/warning:")
        return None


def facts_rows(game: data.LoadedGame, facts: dict[str, Any]) -> list[dict[str, str]]:
    """The facts a rule looked at, one row each, in the game's words."""
    rows = []
    for key, value in facts.items():
        what, _, said = game.ruleset.describe_fact(key, value, game.names).partition(": ")
        rows.append({"fact": what, "value": said})
    return rows


def show_verdicts(verdicts: list[Verdict], game: data.LoadedGame) -> None:
    for i, v in enumerate(verdicts, start=1):
        head = f"{md(action_words(game, v))}, as event {v.at + 1}"
        if len(verdicts) > 1:
            head = f"{i}. " + head
        if v.status == "illegal":
            assert v.rule is not None
            said = game.ruleset.say(v.message or "", game.names)
            st.error(f"**Illegal** by **{v.rule.id}** · {head}  \n{md(said)}",
                     icon=":material/block:")
            st.markdown(f"**{v.rule.id}**: {md(v.rule.text)}  \nSource: {md(v.rule.source)}")
            if v.facts:
                st.caption("The facts the rule looked at")
                tables.show(facts_rows(game, v.facts))
            continue
        if v.status == "undetermined":
            needs = "; ".join(game.ruleset.say(str(e.data.get("needs", "")), game.names)
                              for e in v.undetermined)
            st.warning(f"**Undetermined** · {head}  \nNo rule is known to forbid it, but the record does "
                       f"not show enough to say it is legal: {md(needs)}", icon=":material/help:")
        else:
            st.success(f"**Legal** · {head}", icon=":material/check_circle:")
        if v.effects:
            tables.show([{"effect": e.kind.replace("_", " "), "rule": e.rule, "what the rule says": e.text,
                          "details": timeline.details(game, e.data)} for e in v.effects])
        else:
            st.caption("No derived effects: the action changes only what it names.")
        for claim in v.disputed_claims:
            st.warning(f"Disputed claim [{claim.rule or '?'}]: {md(claim.message)}",
                       icon=":material/warning:")
    last = verdicts[-1]
    if last.position_facts:
        st.caption("At this position (public): " + md(timeline.position(game, last.position_facts)))
    with st.expander("The verdict as data"):
        st.json([v.to_dict() for v in verdicts], expanded=False)


# -- the current event explained ------------------------------------------------------------------------
def show_explanation(game: data.LoadedGame, dispute: Dispute, seq: int, seen: Perspective) -> None:
    st.markdown("**The current event explained**")
    if seq == 0:
        st.caption("The start: nothing has happened yet. Step on to the first event.")
    else:
        ex = dispute.explain(seq)
        st.markdown(f"Event {seq}: {md(timeline.describe(game, seq, seen))}")
        tables.show([{"rule": r.id, "why": role, "what the rule says": r.text, "source": r.source}
                     for r, role in ex.rules])
        effects = timeline.effects_table(game, seq, seen)
        if effects:
            tables.show(effects, ["effect", "rule", "details"])
        step = game.replay.step(seq)
        changes = game.ruleset.describe_changes(game.ruleset.view(step.before, seen),
                                                game.ruleset.view(step.after, seen), game.names)
        shown = "the referee" if seen == "referee" else (
            "a spectator" if seen == "spectator" else data.perspective_label(seen, game.names))
        st.caption(f"What changed, as {md(shown)} saw it")
        if changes:
            st.html(tables.bullets(changes))
        else:
            st.caption("Nothing visible changed.")
    violation = game.replay.violation_seen_by(seen, at=seq)  # like the view: what this perspective may know
    if violation is not None and seq == game.replay.last_seq:
        bad = dispute.explain(violation.seq)
        # Which rule it broke is the perspective's only where its own view names one.
        rule = bad.violation.rule if bad.violation is not None and violation.rule != HIDDEN_RULE else None
        said = game.ruleset.describe(game.record.events[violation.seq - 1], game.names, seen)
        by = "" if violation.rule == HIDDEN_RULE else f" by **{violation.rule}**"
        st.error(f"The next recorded event ({violation.seq}: {md(said)}) is illegal{by}: "
                 f"{md(game.ruleset.say(violation.message, game.names))}"
                 + (f"  \n{rule.id}: {md(rule.text)} ({md(rule.source)})" if rule is not None else "")
                 + f"  \nRemedy: take the game back to the position after event {violation.seq - 1} "
                   "and play on from there (the Replay page shows what it changed to the chances).",
                 icon=":material/block:")


# -- what a proposed action does to the chances (engine.analysis) ----------------------------------
def show_chances(game: data.LoadedGame, verdicts: list[Verdict]) -> None:
    """On request, every player's chance at the position and after the proposed action (the
    referee's knowledge, a quick look: dashboard.chances_chart.QUICK)."""
    from dashboard.chances_chart import QUICK

    if len(verdicts) != 1:
        return
    v = verdicts[0]
    if v.status == "illegal":
        st.caption(f"Refused, it changes nothing: the game goes on from the position after event {v.at} "
                   "(the remedy a referee applies to an illegal event).")
        return
    if not st.button("What would it do to the chances?", key="dv_chances", icon=":material/insights:",
                     help="Deals the unseen cards anew and plays the game out with bots from here, with "
                          "and without the action (20 worlds x 2 plays; warren analyse for more)"):
        return
    with st.spinner("Playing the game out from here..."):
        try:
            changed = data.chances_of_action(game.record.header.game_id, v.at, v.action, QUICK)
        except WarrenError as exc:
            st.info(md(exc))
            return
    before, after = changed["before"], changed["after"]
    if after is None:
        st.caption("In no world dealt from here could the action be played: it changes nothing.")
        return
    tables.show([{"player": name, "now": f"{before['points'][i]:.0f}",
                  "after it": f"{after['points'][i]:.0f}", "change": f"{changed['change'][i]:+.0f}"}
                 for i, name in enumerate(game.names)])
    st.caption("Chance to win in points, under simulation bots (docs/analysis.md).")
