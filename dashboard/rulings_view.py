"""Rulings on the disputes page: save one with the engine's verdict, list them, and open
one from a link (``?game=..&seq=..&ruling=..``) or a CLI reference (``warren://game/..``).

Rulings are read and written through :mod:`dashboard.data`, and so through logstore only.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import msgspec
import streamlit as st

from dashboard import data, position
from dashboard.disputes_view import ACTION, action_text, judge_all, read_actions, who
from dashboard.tables import md
from engine.rules import WarrenError
from logstore.store.rulings import Ruling

RULING = "dsp_ruling"
"""The ruling shown highlighted (its id)."""
RULING_LINK = "dsp_ruling_link"
"""The last ruling id taken from the URL, so a link is applied once, not on every rerun."""
RULING_MSG = "dsp_ruling_msg"
QUESTION = "dsp_question"
DECIDED_BY = "dsp_by"
NOTE = "dsp_note"
SUPERSEDES = "dsp_supersedes"
SCOPE = "dsp_rulings_scope"
PICK = "dsp_ruling_pick"


def ruling_link(ruling: Ruling) -> str:
    """The dashboard link that reopens a ruling's position (``warren://`` refs resolve here)."""
    return "./disputes?" + urlencode({"game": ruling.game_id, "seq": ruling.seq, "ruling": ruling.ruling_id})


def ref_params(ref: str) -> dict[str, str]:
    """The page's URL parameters for a position reference as the CLI prints it,
    ``warren://game/<id>?seq=N&ruling=<rid>`` (a dashboard link is read as well)."""
    parts = urlsplit(ref.strip())
    query = dict(parse_qsl(parts.query))
    if parts.scheme == "warren" and parts.netloc == "game" and parts.path.strip("/"):
        query["game"] = unquote(parts.path.strip("/"))
    if not query.get("game") and not query.get("ruling"):
        raise WarrenError(f"{ref!r} is not a position reference (warren://game/<id>?seq=N&ruling=<rid>)")
    if "seq" in query and not query["seq"].isdigit():
        raise WarrenError(f"{ref!r}: seq is a number, not {query['seq']!r}")
    return {k: v for k, v in query.items() if k in ("game", "seq", "ruling", "as")}


# -- rulings opened from the URL or the list ------------------------------------------------------
def apply_ruling_link() -> None:
    """Take ``ruling`` from the URL once: its game and seq fill in what the URL leaves out, and
    the ruling is shown highlighted. Runs before the game is chosen."""
    ss = st.session_state
    rid = st.query_params.get("ruling")
    if not rid or ss.get(RULING_LINK) == rid:
        return
    ss[RULING_LINK] = rid
    try:
        found = data.ruling(rid)
    except WarrenError as exc:
        st.warning(f"Ruling {md(repr(rid))} cannot be read: {md(exc)}")
        return
    if found is None:
        st.warning(f"There is no ruling {md(repr(rid))} in the store.")
        st.query_params.pop("ruling", None)
        ss.pop(RULING, None)
        return
    if not st.query_params.get("game"):
        st.query_params["game"] = found.game_id
    if st.query_params.get("seq") is None:
        st.query_params["seq"] = str(found.seq)
    if st.query_params.get("game") == found.game_id:
        ss.pop(position.SEQ, None)  # the link's seq is read again, even if this game is open
    ss[RULING] = rid
    _fill_action(found)


def _fill_action(found: Ruling) -> None:
    if found.action is None:
        return
    try:
        game = data.load_game(found.game_id)
        st.session_state[ACTION] = action_text(game.ruleset, found.action)
    except (WarrenError, msgspec.ValidationError, KeyError):
        st.session_state[ACTION] = json.dumps(found.action, ensure_ascii=False)


def open_ruling(found: Ruling) -> None:
    """Callback: open a ruling's position here (and in the URL)."""
    ss = st.session_state
    st.query_params["game"] = found.game_id
    st.query_params["seq"] = str(found.seq)
    st.query_params["ruling"] = found.ruling_id
    ss[position.GAME] = found.game_id
    ss[position.SEQ] = found.seq
    ss[RULING] = ss[RULING_LINK] = found.ruling_id
    _fill_action(found)


def current_ruling(game_id: str) -> Ruling | None:
    """The highlighted ruling, if it is about the game shown (another game's is dropped)."""
    ss = st.session_state
    rid = ss.get(RULING)
    if not rid:
        return None
    try:
        found = next((r for r in data.rulings(game_id)[0] if r.ruling_id == rid), None)
    except WarrenError:
        found = None
    if found is None:
        ss.pop(RULING, None)
        st.query_params.pop("ruling", None)
    return found


def _clear_ruling() -> None:
    st.session_state.pop(RULING, None)
    st.query_params.pop("ruling", None)


def _to_ruling_position(seq: int) -> None:
    st.session_state[position.SEQ] = seq


def _engine_says(found: Ruling) -> str:
    if found.status is None:
        return "no verdict asked"
    return found.status + (f" by {found.rule}" if found.rule else "")


def show_ruling_banner(found: Ruling, seq: int, names: list[str]) -> None:
    """The highlighted ruling: what was asked, what the engine said, who decided."""
    action = ""
    if found.verdict is not None:
        action = f" · action: `{found.verdict.get('notation')}` by {who(found.verdict.get('actor'), names)}"
    text = (f"**Ruling {found.ruling_id}** at seq {found.seq}"
            + (f" (turn {found.turn})" if found.turn is not None else "")
            + f": {found.question}  \nEngine: **{_engine_says(found)}**{action}  \n"
            f"Decided by {found.decided_by} at {found.created}"
            + (f"  \nNote: {found.note}" if found.note else "")
            + (f"  \nSupersedes {found.supersedes}" if found.supersedes else ""))
    with st.container(border=True, key="dsp_ruling_box"):
        st.info(text, icon=":material/gavel:")
        cols = st.columns([2, 2, 5])
        cols[0].button("Back to its position", key="dsp_ruling_back", on_click=_to_ruling_position,
                       args=(found.seq,), disabled=seq == found.seq)
        cols[1].button("Stop highlighting", key="dsp_ruling_clear", on_click=_clear_ruling)
        if seq != found.seq:
            cols[2].caption(f"You are at seq {seq}; the ruling is about seq {found.seq}.")


# -- saving rulings ---------------------------------------------------------------------------------
def _save_ruling(game_id: str, seq: int, seat: int | None) -> None:
    """Callback: store a ruling with the engine's verdict on the first proposed action (or on
    the event recorded next, when none is proposed)."""
    ss = st.session_state
    try:
        game = data.load_game(game_id)
        dispute = data.dispute_for(game)
        actions = read_actions(ss.get(ACTION) or "")
        verdict = None
        if actions:
            verdict = judge_all(dispute, seq, actions[:1], seat)[0]
        elif seq < len(game.record.events):
            verdict = dispute.verdict(game.record.events[seq], at=seq)
        saved = data.save_ruling(game_id, seq, ss.get(QUESTION) or "", ss.get(DECIDED_BY) or "",
                                 verdict=verdict, turn=dispute.state_at(seq).turn,
                                 note=(ss.get(NOTE) or "").strip() or None,
                                 supersedes=ss.get(SUPERSEDES) or None)
    except WarrenError as exc:
        ss[RULING_MSG] = ("error", f"The ruling was not saved: {exc}")
        return
    ss[RULING] = ss[RULING_LINK] = saved.ruling_id
    st.query_params["ruling"] = saved.ruling_id
    ss[QUESTION] = ss[NOTE] = ""
    ss.pop(SUPERSEDES, None)
    ss[RULING_MSG] = ("success", f"Saved ruling {saved.ruling_id} (engine: {_engine_says(saved)}).")


def ruling_form(game_id: str, seq: int, seat: int | None, earlier: list[Ruling]) -> None:
    st.markdown("**Save a ruling** at this position")
    st.text_input("Question", key=QUESTION, placeholder="Could Bo lay the nine on the queen?")
    cols = st.columns(2)
    cols[0].text_input("Decided by", key=DECIDED_BY, placeholder="the judge")
    ids = [r.ruling_id for r in earlier]
    if st.session_state.get(SUPERSEDES) not in [None, *ids]:
        st.session_state.pop(SUPERSEDES, None)
    cols[1].selectbox("Supersedes", [None, *ids], key=SUPERSEDES,
                      format_func=lambda r: "(nothing)" if r is None else r)
    st.text_area("Note", key=NOTE, height=68, placeholder="the reasoning, or the decision if it "
                                                          "differs from the engine's")
    st.button("Save ruling", key="dsp_save", on_click=_save_ruling, args=(game_id, seq, seat))
    st.caption("The ruling keeps the engine's verdict on the first proposed action (or, with "
               "none, on the event recorded next). Rulings are kept for good; correct one by "
               "saving another that supersedes it.")
    message = st.session_state.pop(RULING_MSG, None)
    if message is not None:
        kind, text = message
        (st.success if kind == "success" else st.error)(text)


# -- listing rulings ----------------------------------------------------------------------------------
REF = "dsp_ref"
REF_MSG = "dsp_ref_msg"


def _open_ref() -> None:
    """Callback: open a pasted position reference (the ruling's position, or the game's)."""
    ss = st.session_state
    try:
        params = ref_params(ss.get(REF) or "")
        found = data.ruling(params["ruling"]) if params.get("ruling") else None
        if params.get("ruling") and found is None:
            raise WarrenError(f"there is no ruling {params['ruling']!r} in the store")
        game_id = found.game_id if found is not None else params["game"]
        data.load_game(game_id)  # an unknown game is refused here, with the store's message
    except WarrenError as exc:
        ss[REF_MSG] = f"Cannot open that reference: {exc}"
        return
    if found is not None:
        open_ruling(found)
        return
    st.query_params["game"] = ss[position.GAME] = game_id
    st.query_params.pop("ruling", None)
    ss.pop(RULING, None)
    if params.get("seq") is not None:
        st.query_params["seq"] = params["seq"]
        ss[position.SEQ] = int(params["seq"])
    else:
        ss.pop(position.SEQ, None)


def show_rulings(game_id: str, highlighted: str | None) -> None:
    st.subheader("Rulings")
    st.text_input("Open a position reference", key=REF, on_change=_open_ref,
                  placeholder="warren://game/<id>?seq=N&ruling=R-...",
                  help="As `warren dispute rulings` prints them; a dashboard link works too.")
    problem = st.session_state.pop(REF_MSG, None)
    if problem:
        st.error(md(problem))
    scope = st.radio("Show", ["this game", "all games"], key=SCOPE, horizontal=True)
    try:
        found, replaced = data.rulings(game_id if scope == "this game" else None)
    except WarrenError as exc:
        st.error(f"The rulings cannot be read: {md(exc)}")
        return
    if not found:
        st.caption("No rulings yet" + (" for this game." if scope == "this game" else "."))
        return
    table = [{
        "open": ruling_link(r),
        "shown": "shown here" if r.ruling_id == highlighted else "",
        "ruling": r.ruling_id,
        "game": r.game_id,
        "seq": r.seq,
        "turn": r.turn,
        "question": r.question,
        "engine": _engine_says(r),
        "decided by": r.decided_by,
        "note": r.note or "",
        "when": r.created,
        "standing": "superseded" if r.ruling_id in replaced else "in force",
    } for r in reversed(found)]
    # Rows tall enough to wrap (Streamlit wraps text above 4rem): no question is cut mid-word.
    st.dataframe(table, hide_index=True, width="stretch", key="dsp_rulings_table", row_height=72,
                 column_config={"open": st.column_config.LinkColumn("open", display_text="open",
                                                                    width="small"),
                                "shown": st.column_config.TextColumn(
                                    "shown", width="small", help="The ruling the page shows now"),
                                "question": st.column_config.TextColumn("question", width="large"),
                                "engine": st.column_config.TextColumn("engine", width="medium"),
                                "decided by": st.column_config.TextColumn("decided by", width="medium"),
                                "note": st.column_config.TextColumn("note", width="large")})
    by_id = {r.ruling_id: r for r in found}
    cols = st.columns([3, 1])
    pick = cols[0].selectbox("Open a ruling here", list(reversed(by_id)), key=PICK,
                             format_func=lambda rid: f"{rid} · {by_id[rid].game_id} @ {by_id[rid].seq}: "
                                                     f"{by_id[rid].question}")
    if pick is not None:
        cols[1].button("Open", key="dsp_ruling_open", on_click=_open_picked, width="stretch")


def _open_picked() -> None:
    """Callback: open the ruling picked in the list (read now: the pick may have just changed)."""
    rid = st.session_state.get(PICK)
    try:
        found = data.ruling(rid) if rid else None
    except WarrenError as exc:
        st.session_state[RULING_MSG] = ("error", f"Ruling {rid} cannot be opened: {exc}")
        return
    if found is not None:
        open_ruling(found)
