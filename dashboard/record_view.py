"""The Record page's parts: a game recorded at the table as it is played, in the browser.

What ``warren record`` does on the command line (logstore.recording), once the game is
started or resumed (dashboard.record_start): the board as the table sees it; pickers for
what the rules allow now, built from the offers of the pending decisions; the typed
notation of the recorder (``2: guard 3 4``); the rule of a refusal and what an accepted
entry leaves undetermined; undo and corrections (correction events, never edits); the
sealed record to download.

Two devices may record one game in one store. Every append names the seq this page last
showed (``TableSession(at_seq=...)``), so when another device has recorded meanwhile the
store refuses it (:class:`logstore.store.StaleSeq`): the page says so, names what the other
device recorded and shows the fresh position. Nothing is written twice; nothing forks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import streamlit as st

from dashboard import data, tables
from dashboard.boards import board_html
from dashboard.tables import md
from engine.corrections import Correction, Struck
from engine.dispute.notation import action_usage
from engine.record import Event
from engine.rules import RuleViolation, WarrenError
from engine.ruleset import Perspective
from engine.wording import seat_name, value_text
from logstore.recording.choices import (
    ActionChoice,
    FieldChoice,
    action_choices,
    build_action,
    seats_of,
    template_fields,
    template_values,
)
from logstore.recording.entries import fill_template, read_entry
from logstore.recording.session import dealt_unseen

if TYPE_CHECKING:
    from logstore.recording.session import Accepted, Refusal, TableSession

GAME = "rec_game"
SEEN = "rec_seen"
"""(game id, seq): the position this page last showed; appends expect that seq."""
NOTE = "rec_note"
"""What became of the last entry, shown until the next one."""
PICK = "rec_pick_"
"""Prefix of the pickers' keys: all are cleared once an entry is recorded."""
TEXT = "rec_text"
PILLS_UP_TO = 60
"""Values shown as buttons at most; a field with more is a searchable list."""
RECENT = 10
"""Events of the record listed under the board."""
PERSPECTIVE: Perspective = "spectator"
"""The table sees what is public: the recorder records and shows that and nothing else."""


# -- entering events ---------------------------------------------------------------------------------
def clear_picks() -> None:
    for key in [k for k in st.session_state if isinstance(k, str) and k.startswith(PICK)]:
        del st.session_state[key]


def _seen(game_id: str) -> int | None:
    seen = st.session_state.get(SEEN)
    return seen[1] if isinstance(seen, tuple) and seen[0] == game_id else None


def _act(game_id: str, step: Callable[[TableSession], Accepted | Refusal | None]) -> None:
    """Do one step of recording at the position the page showed, and keep what became of it.

    A stale position (another device recorded first) is refused by the store: the page
    says so and moves to the fresh position; nothing was written.
    """
    from logstore.recording.session import Refusal
    from logstore.store import StaleSeq

    try:
        with data.table_session(game_id, _seen(game_id)) as session:
            before = session.seq
            try:
                if session.store.game(game_id).n_events != before:
                    # Behind already: nothing entered here is judged against a past position.
                    # (The store refuses it anyway, should another device get in between.)
                    raise StaleSeq(game_id, before, session.store.game(game_id).n_events)
                verdict = step(session)
            except StaleSeq:
                session.refresh()
                st.session_state[SEEN] = (game_id, session.seq)
                st.session_state[NOTE] = _stale_note(session, before)
                clear_picks()
                return
            except RuleViolation as exc:  # a correction that makes a later event illegal
                verdict = _refusal(session, exc)
            except WarrenError as exc:
                st.session_state[NOTE] = {"kind": "error", "text": f"Not recorded: {exc}"}
                return
            if verdict is None:
                return
            if isinstance(verdict, Refusal):
                st.session_state[NOTE] = {"kind": "refused", "rule": verdict.rule, "text": verdict.message,
                                          "paraphrase": verdict.text}
                return
            st.session_state[SEEN] = (game_id, session.seq)
            st.session_state[NOTE] = _accepted_note(session, verdict)
            st.session_state[TEXT] = ""
            clear_picks()
    except WarrenError as exc:  # the store went away, the game cannot be opened
        st.session_state[NOTE] = {"kind": "error", "text": f"Not recorded: {exc}"}


def _refusal(session: TableSession, exc: RuleViolation) -> Refusal:
    from logstore.recording.session import Refusal

    rule = session.ruleset.rulebook.get(exc.rule)
    return Refusal(exc.rule, session.ruleset.say(exc.message, session.names), rule.text if rule else "")


def _accepted_note(session: TableSession, verdict: Accepted) -> dict[str, Any]:
    said = session.ruleset.describe(verdict.event, session.names, PERSPECTIVE)
    doubts = []
    for doubt in verdict.undetermined:
        rule = session.ruleset.rulebook.get(doubt.rule)
        doubts.append({"rule": doubt.rule, "needs": session.ruleset.say(str(doubt.data.get("needs", "")),
                                                                        session.names),
                       "paraphrase": rule.text if rule else ""})
    return {"kind": "accepted", "text": f"Recorded event {session.seq}: {said}", "undetermined": doubts}


def _stale_note(session: TableSession, before: int) -> dict[str, Any]:
    events = session.store.record(session.game_id).events[before:session.seq]
    said = [f"{e.seq}: {session.ruleset.describe(e, session.names, PERSPECTIVE)}" for e in events]
    return {"kind": "stale", "before": before, "now": session.seq, "events": said}


def _enter_template(game_id: str) -> None:
    def step(session: TableSession) -> Accepted | Refusal | None:
        template = session.chance_template()
        if template is None:
            raise WarrenError("no chance is owed at this position")
        if template.complete:
            return session.enter(template.event)
        fields = template_fields(session.ruleset, template, len(session.names))
        picked = {f.name: st.session_state.get(f"{PICK}tpl_{f.name}") for f in fields}
        return session.enter(fill_template(session, template.event, template_values(fields, picked)))

    _act(game_id, step)


def _enter_whole_deal(game_id: str) -> None:
    from logstore.recording.session import deal_said

    def step(session: TableSession) -> Accepted | Refusal | None:
        dealt = session.enter_unseen_deal()
        return dataclasses.replace(dealt[-1], said=deal_said(session, dealt))

    _act(game_id, step)


def _pick_key(choice: ActionChoice, field: FieldChoice) -> str:
    return f"{PICK}{choice.seat}_{choice.tag}_{field.name}"


def _picked(choice: ActionChoice) -> dict[str, Any]:
    return {f.name: st.session_state.get(_pick_key(choice, f)) for f in choice.fields}


def _current_choice(session: TableSession) -> ActionChoice | None:
    """The seat and kind of action picked (the first of each until one is picked)."""
    choices = action_choices(session.ruleset, session.offers())
    if not choices:
        return None
    seats = seats_of(choices)
    seat = st.session_state.get(f"{PICK}seat")
    if seat not in seats:
        seat = seats[0]
    mine = [c for c in choices if c.seat == seat]
    tag = st.session_state.get(f"{PICK}kind_{seat}")
    return next((c for c in mine if c.tag == tag), mine[0])


def _enter_picked(game_id: str) -> None:
    def step(session: TableSession) -> Accepted | Refusal | None:
        choice = _current_choice(session)
        if choice is None:
            raise WarrenError("the rules offer nothing here: type the entry")
        return session.enter(build_action(session, choice, _picked(choice)))

    _act(game_id, step)


def _enter_typed(game_id: str) -> None:
    line = str(st.session_state.get(TEXT) or "")
    _act(game_id, lambda session: session.enter(read_entry(session, line)))


def _undo(game_id: str) -> None:
    _act(game_id, lambda session: session.undo())


def _correct(game_id: str) -> None:
    target = st.session_state.get(f"{PICK}fix_seq")
    strike = st.session_state.get(f"{PICK}fix_how") == "strike it"
    text = (st.session_state.get(f"{PICK}fix_text") or "").strip()
    reason = (st.session_state.get(f"{PICK}fix_reason") or "").strip()

    def step(session: TableSession) -> Accepted:
        if not isinstance(target, int):
            raise WarrenError("choose the event to correct")
        if not reason:
            raise WarrenError("say why the event is corrected (the record keeps the reason)")
        if not strike and not text:
            raise WarrenError("type the event as it should have been, or choose to strike it")
        return session.correct(target, None if strike else text, reason)

    _act(game_id, step)


def _refresh(game_id: str) -> None:
    before = _seen(game_id)
    try:
        with data.table_session(game_id) as session:
            st.session_state[SEEN] = (game_id, session.seq)
            if before is not None and before != session.seq:
                st.session_state[NOTE] = _stale_note(session, before) | {"kind": "refreshed"}
    except WarrenError as exc:
        st.session_state[NOTE] = {"kind": "error", "text": str(exc)}
    clear_picks()


# -- drawing ------------------------------------------------------------------------------------------
def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _words(session: TableSession, name: str, value: Any, element: bool = False) -> str:
    shown = [value] if element else value
    return value_text(session.ruleset.worded_vocabulary(), name, shown, session.names)


def _label(session: TableSession, name: str) -> str:
    label = session.ruleset.vocabulary.label(name)
    return label[:1].upper() + label[1:]


def field_picker(session: TableSession, field: FieldChoice, key: str) -> None:
    """One field's picker: buttons for a few values, a list for many, a box for typed ones."""
    label = _label(session, field.name)
    if field.fixed:
        st.caption(f"{label}: {md(_words(session, field.name, field.values[0]))}")
        return
    if field.kind == "typed":
        st.text_input(label + ("" if field.required else ", if the table saw it"), key=key,
                      placeholder="a value, or JSON", help="As the notation writes it: a word (9C, ?, 3) or "
                      'JSON ({"unblocked": 1}). Left blank, an optional field is left out.')
        return
    values = list(field.values)
    several = field.kind == "several"

    def word(value: Any) -> str:  # buttons and options draw Markdown: a name stays as typed
        return md(_words(session, field.name, value, element=several))

    if st.session_state.get(key) is not None:  # a value picked at another position
        kept = st.session_state[key]
        if (several and not all(v in values for v in kept)) or (not several and kept not in values):
            del st.session_state[key]
    if len(values) <= PILLS_UP_TO:
        st.pills(label, values, selection_mode="multi" if several else "single", format_func=word, key=key,
                 wrap=True)  # every card in view, never a row scrolled sideways
    elif several:  # plain-text options
        st.multiselect(label, values, format_func=lambda v: _words(session, field.name, v, element=True),
                       key=key, placeholder="choose")
    else:
        st.selectbox(label, values, index=None, format_func=lambda v: _words(session, field.name, v), key=key,
                     placeholder="choose")


def chance_panel(session: TableSession, game_id: str) -> bool:
    """The chance owed now, as the table saw it; False when none is owed."""
    template = session.chance_template()
    if template is None:
        return False
    owed = session.pending.chance
    kind = owed.kind if owed is not None else "chance"
    st.markdown(f"**Next: the {md(kind)}, recorded by the table.**")
    event: Event | None = template.event
    if template.complete:
        st.caption("Nobody at the table saw it: it is recorded as unknown, and the events that bring "
                   "a card to light will name it.")
    else:
        # The template's own values for these fields are one draw of many: never shown as seen.
        fields = template_fields(session.ruleset, template, len(session.names))
        seen = ", ".join(_label(session, f.name).lower() for f in fields)
        st.caption(f"The rest stays unknown, but the table saw the {md(seen)}: give it here.")
        for field in fields:
            field_picker(session, field, f"{PICK}tpl_{field.name}")
        picked = {f.name: st.session_state.get(f"{PICK}tpl_{f.name}") for f in fields}
        try:
            event = fill_template(session, template.event, template_values(fields, picked))
        except WarrenError as exc:
            st.caption(md(_sentence(str(exc))))
            event = None
    if event is not None:
        said = session.ruleset.describe(event, session.names, PERSPECTIVE)
        st.markdown(f"To record: **{md(said)}**")
    dealing = dealt_unseen(owed, template)
    if dealing:
        # a deal nobody saw is one entry, however many cards it deals one at a time
        st.button("Record the whole deal", key="rec_deal", type="primary", icon=":material/done_all:",
                  on_click=_enter_whole_deal, args=(game_id,))
    st.button("Record it", key="rec_chance", type="secondary" if dealing else "primary",
              icon=":material/check:", on_click=_enter_template, args=(game_id,))
    return True


def action_panel(session: TableSession, game_id: str) -> None:
    """Pickers for what the rules allow now: the seat, the kind of action, its fields."""
    choices = action_choices(session.ruleset, session.offers())
    if not choices:
        st.info("The rules offer nothing to pick here: type the entry below.", icon=":material/info:")
        return
    seats = seats_of(choices)
    seat_key = f"{PICK}seat"
    if st.session_state.get(seat_key) not in seats:
        st.session_state[seat_key] = seats[0]
    if len(seats) > 1:
        st.radio("Who acts", seats, key=seat_key, horizontal=True,
                 format_func=lambda s: md(seat_name(s, session.names)))
    seat = st.session_state[seat_key]
    mine = [c for c in choices if c.seat == seat]
    tags = [c.tag for c in mine]
    kind_key = f"{PICK}kind_{seat}"
    if st.session_state.get(kind_key) not in tags:
        st.session_state[kind_key] = tags[0]
    if len(tags) > 1:
        st.radio(f"What {md(seat_name(seat, session.names))} does", tags, key=kind_key, horizontal=True,
                 format_func=lambda t: t.replace("_", " "))
    else:
        st.markdown(f"**{md(seat_name(seat, session.names))}**: {md(tags[0].replace('_', ' '))}")
    choice = next(c for c in mine if c.tag == st.session_state[kind_key])
    extra = [f for f in choice.fields if f.kind == "typed" and not f.required]
    for field in choice.fields:
        if field not in extra:
            field_picker(session, field, _pick_key(choice, field))
    if extra:  # rarely seen at a table (a card shown, a night's stage): out of the way until needed
        with st.expander("What else the table saw (optional)", key=f"rec_extra_{seat}_{choice.tag}"):
            for field in extra:
                field_picker(session, field, _pick_key(choice, field))
    try:
        event = build_action(session, choice, _picked(choice))
    except WarrenError as exc:
        st.caption(md(_sentence(str(exc))))
    else:
        offered = any(o.event is event for o in choice.offers)
        said = session.ruleset.describe(event, session.names, PERSPECTIVE)
        st.markdown(f"To record: **{md(said)}**")
        if not offered:
            st.caption("Not one of the actions offered: the rules will judge it.")
    st.button("Record", key="rec_record", type="primary", icon=":material/check:",
              on_click=_enter_picked, args=(game_id,))
    optional = session.pending.optional
    if optional is not None:
        st.caption(f"The table may also record chance now: the {md(optional.kind)}"
                   + (f" ({optional.rule})" if optional.rule else "") + ". Type it below.")
    st.caption("The pickers offer what the rules allow from what the table knows; anything else "
               "can be typed below, and is judged the same way.")


def entry_examples(session: TableSession) -> str:
    """The typed box's hint, from this game and this position: two of the actions the rules
    allow now, in the notation the box reads (the player's name first when several seats
    may act), or what the table types while it owes chance."""
    if session.pending.chance is not None:
        return "what the table saw (a card's name, a die's face)"
    offers = session.offers()
    seats = {o.seat for o in offers}
    shown: list[str] = []
    for offer in offers:
        said = offer.notation if len(seats) < 2 or offer.seat is None \
            else f"{session.names[offer.seat]}: {offer.notation}"
        if said not in shown:
            shown.append(said)
        if len(shown) == 2:
            break
    return "e.g. " + "   ·   ".join(shown) if shown else "an action in this game's notation"


def typed_box(session: TableSession, game_id: str) -> None:
    """The recorder's notation, as ``warren record`` reads it."""
    usage = "  \n".join(f"`{u}`" for u in action_usage(session.ruleset) if not u.startswith("correct"))
    with st.form("rec_typed_form", border=False, enter_to_submit=True):
        examples = entry_examples(session)
        st.text_input(
            # the hint is the short one; the examples are said under the box, where a phone's
            # narrow box cannot run them into its "Press Enter" note
            "Or type the entry", key=TEXT, placeholder="type here, then Enter",
            help="The notation of `warren record`: `TYPE [VALUE ...] [field=value ...]`. Prefix the seat "
                 "when several may act (`2: vote yes` or `Ann: ready`). While the table owes chance, "
                 "type what it saw over the rest (`roles first_mayor=2`). This game's actions:  \n" + usage)
        st.form_submit_button("Enter", key="rec_enter", icon=":material/keyboard_return:",
                              on_click=_enter_typed, args=(game_id,))
        st.caption(md(examples[0].upper() + examples[1:]))


def show_note(names: list[str]) -> None:
    note = st.session_state.get(NOTE)
    if not note:
        return
    kind = note["kind"]
    if kind == "accepted":
        st.success(md(note["text"]), icon=":material/check_circle:")
        for doubt in note.get("undetermined", []):
            st.warning(f"**Undetermined** by **{doubt['rule']}**: {md(doubt['needs'])}"
                       + (f"  \n{doubt['rule']}: {md(doubt['paraphrase'])}" if doubt["paraphrase"] else ""),
                       icon=":material/help:")
    elif kind == "refused":
        st.error(f"**Refused** by **{note['rule']}**: {md(note['text'])}. Nothing was written."
                 + (f"  \n{note['rule']}: {md(note['paraphrase'])}" if note["paraphrase"] else ""),
                 icon=":material/block:")
    elif kind == "stale":
        others = "; ".join(note["events"])
        st.warning(f"**Not recorded**: another device recorded meanwhile (this page showed event "
                   f"{note['before']}; the game is now at event {note['now']}: {md(others)}). Below is the "
                   "fresh position: enter yours again if it still applies.", icon=":material/sync_problem:")
    elif kind == "refreshed":
        st.info(f"Refreshed: another device recorded {md('; '.join(note['events']))}.",
                icon=":material/refresh:")
    elif kind == "error":
        st.error(md(note["text"]), icon=":material/error:")
    else:
        st.info(md(note["text"]), icon=":material/info:")


def record_rows(session: TableSession) -> list[dict[str, Any]]:
    """The last events recorded, in order, in words, with what became of struck and corrected
    ones."""
    events = session.store.record(session.game_id).events[:session.seq]
    effective, _ = session.ruleset.effective(events)
    fixed_by = {e.corrects: e for e in events if isinstance(e, Correction)}
    rows = []
    for event in events[-RECENT:]:
        text = session.ruleset.describe(event, session.names, PERSPECTIVE)
        fix = fixed_by.get(event.seq)
        if fix is not None:
            now = effective[event.seq - 1] if event.seq <= len(effective) else None
            if isinstance(now, Struck) or fix.event is None:
                text += f" (struck at event {fix.seq})"
            elif now is not None:
                text += (f" (corrected at event {fix.seq}: "
                         f"{session.ruleset.describe(now, session.names, PERSPECTIVE)})")
        rows.append({"event": event.seq, "what happened": text})
    return rows


def correction_form(session: TableSession, game_id: str) -> None:
    """Replace or strike an earlier entry (a correction event; the record keeps both)."""
    events = session.store.record(game_id).events[:session.seq]
    effective, _ = session.ruleset.effective(events)
    targets = [e for e in effective if not isinstance(e, Correction | Struck)]
    if not targets:
        st.caption("Nothing to correct yet.")
        return
    said = {e.seq: session.ruleset.describe(e, session.names, PERSPECTIVE) for e in targets}
    key = f"{PICK}fix_seq"
    if st.session_state.get(key) not in said:
        st.session_state.pop(key, None)
    st.selectbox("Event", list(reversed(said)), key=key, format_func=lambda s: f"{s}: {said[s]}")
    how = st.radio("Correction", ["replace it", "strike it"], key=f"{PICK}fix_how", horizontal=True,
                   help="Strike: the event never happened. Replace: it happened as typed here.")
    st.text_input("As it should have been", key=f"{PICK}fix_text", disabled=how == "strike it",
                  placeholder="lay 8C", help="The same notation as an entry, for the same seat.")
    st.text_input("Why", key=f"{PICK}fix_reason", placeholder="it was the eight")
    st.button("Record the correction", key="rec_fix_go", icon=":material/edit:", on_click=_correct,
              args=(game_id,))


def tools(session: TableSession, game_id: str) -> None:
    """Undo, refresh, and the sealed record to download."""
    with st.container(horizontal=True, gap="small", key="rec_tools"):
        st.button("Undo the last entry", key="rec_undo", icon=":material/undo:", on_click=_undo,
                  args=(game_id,), disabled=session.seq == 0,
                  help="Strikes the last entry with a correction event; the record keeps both.")
        st.button("Refresh", key="rec_refresh", icon=":material/refresh:", on_click=_refresh, args=(game_id,),
                  help="Show what another device has recorded meanwhile.")
        st.download_button("Download the record", data=session.store.export(game_id),
                           file_name=f"{game_id}.jsonl", mime="application/jsonl", key="rec_download",
                           icon=":material/download:", on_click="ignore",
                           help="The sealed record as the store holds it (JSON Lines, hash chain).")


PHONE_ENTRY_FIRST = """<style>
@media (max-width: 640px) {
  .st-key-rec_position div[data-testid="stHorizontalBlock"] {flex-direction: column-reverse;}
}
</style>"""
"""Streamlit stacks columns below 640 px, in their order; reversed there, the entry leads."""


def position(session: TableSession, game_id: str) -> None:
    """The game as the table sees it, and everything to record the next event."""
    state = session.state
    stored = session.store.game(game_id).n_events
    st.markdown(f"**Event {session.seq} · round {state.round} · turn {state.turn} · waiting for "
                f"{md(session.waiting_for())}**")
    if stored != session.seq:
        st.warning(f"Another device has recorded {stored - session.seq} event(s) since this page "
                   "last looked. Refresh to see them; an entry made here first is refused, not recorded.",
                   icon=":material/sync_problem:")
    # On a phone the two columns stack: the entry (the right one) comes first, above the board,
    # so that recording an event needs no scroll past a board of a screen's height or more.
    st.html(PHONE_ENTRY_FIRST)
    with st.container(key="rec_position"):
        left, right = st.columns([3, 2])
    with left:
        st.html(board_html(session.ruleset.slug, session.ruleset.view(state, PERSPECTIVE), session.names))
        outcome = session.ruleset.outcome(state)
        if outcome is not None:
            st.success(md(session.ruleset.describe_outcome(outcome, session.names)), icon=":material/flag:")
        rows = record_rows(session)
        st.markdown("**The record so far**" + (f" (the last {RECENT})" if session.seq > RECENT else ""))
        if rows:
            tables.show(rows, current=len(rows) - 1)
        else:
            st.caption("Nothing recorded yet.")
    with right:
        show_note(session.names)
        if state.over:
            st.info("The game is over. An entry made in error can still be undone or corrected.",
                    icon=":material/flag:")
        elif not chance_panel(session, game_id):
            action_panel(session, game_id)
        if not state.over:
            typed_box(session, game_id)
        tools(session, game_id)
        with st.expander("Correct an earlier entry", key="rec_fix", icon=":material/edit:"):
            correction_form(session, game_id)


def recording(game_id: str) -> None:
    """The game being recorded, at the position this page last showed."""
    try:
        with data.table_session(game_id, _seen(game_id)) as session:
            st.session_state[SEEN] = (game_id, session.seq)
            position(session, game_id)
    except WarrenError as exc:
        st.error(f"Game {md(repr(game_id))} cannot be recorded on: {md(str(exc))}", icon=":material/error:")
