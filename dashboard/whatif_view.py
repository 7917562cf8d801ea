"""What-if branches on the disputes page: open one from the position with the proposed
actions, then step through it beside the original game, each with its own seq.

The branch column plays the branch's stored events (the parent's up to the fork, then the
alternatives) and after them the parent's recorded continuation, replayed on the branch until
its first event that the rules refuse there: the divergence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import streamlit as st

from dashboard import data, disputes_view, tables
from dashboard.boards import board_html
from engine.dispute import IdenticalBranch, IllegalAlternative, rule_ref
from engine.record import Event
from engine.replay import Replay
from engine.rules import WarrenError
from engine.ruleset import HIDDEN_RULE, Perspective, Ruleset
from engine.wording import and_list, seat_name
from logstore.store.branches import BranchInfo

BRANCH = "dsp_branch"
BRANCH_MSG = "dsp_branch_msg"
BRANCH_BY = "dsp_branch_by"
BRANCH_NOTE = "dsp_branch_note"
REPLACES = "dsp_branch_replaces"
COMPARED = "dsp_cmp_for"
PARENT_SEQ = "dsp_cmp_p_seq"
BRANCH_SEQ = "dsp_cmp_b_seq"


@dataclass(frozen=True)
class Line:
    """One column of the comparison: events, their labels, and a replay to seek in."""

    ruleset: Ruleset[Any, Any]
    names: list[str]
    events: list[Event]
    labels: list[str]
    """What each event is (``shared`` with the other column, ``alternative``, ``replaced``,
    ``parent event N`` replayed on the branch, ``recorded``), by seq - 1."""
    replay: Replay[Any]

    @property
    def last_seq(self) -> int:
        return self.replay.last_seq


def parent_line(game: data.LoadedGame, at: int, replaced: int) -> Line:
    n = len(game.record.events)
    labels = ["shared"] * at + ["replaced"] * replaced + ["recorded"] * (n - at - replaced)
    return Line(game.ruleset, game.names, list(game.record.events), labels[:n], game.replay)


@st.cache_resource(show_spinner=False, max_entries=16)
def _branch_line(path: str, stamp: float, branch_id: str, parent_id: str, replaced: int) -> Line:
    branch = data.load_game(branch_id)
    parent = data.load_game(parent_id)
    header = branch.record.header
    assert header.branch is not None
    at = header.branch.seq
    stored = list(branch.record.events)
    continuation = parent.record.events[at + replaced:]
    renumbered = [msgspec.structs.replace(e, seq=len(stored) + i, hash=None)
                  for i, e in enumerate(continuation, start=1)]
    labels = (["shared"] * at + ["alternative"] * (len(stored) - at)
              + [f"parent event {e.seq}" for e in continuation])
    events = stored + renumbered
    # The replay stops at the first continuation event the rules refuse: the divergence.
    return Line(branch.ruleset, branch.names, events, labels, Replay(branch.ruleset, header, events))


def branch_line(info: BranchInfo) -> Line:
    return _branch_line(str(data.store_path()), data.store_stamp(), info.game_id, info.parent_game,
                        info.replaced)


# -- making a branch ---------------------------------------------------------------------------------
def _make_branch(game_id: str, seq: int, seat: int | None) -> None:
    """Callback: judge the proposed actions and store them as a branch through logstore."""
    ss = st.session_state
    try:
        game = data.load_game(game_id)
        actions = disputes_view.read_actions(ss.get(disputes_view.ACTION) or "")
        if not actions:
            ss[BRANCH_MSG] = ("error", "Propose the alternative action(s) first, then open the branch.")
            return
        verdicts = disputes_view.judge_all(data.dispute_for(game), seq, actions, seat)
        # The judged record forms name their actors, so each alternative stays whose it was.
        info, plan = data.create_branch(game_id, seq, [v.action for v in verdicts], replaces=ss.get(REPLACES),
                                        author=(ss.get(BRANCH_BY) or "").strip() or None,
                                        note=(ss.get(BRANCH_NOTE) or "").strip() or None)
    except (IllegalAlternative, IdenticalBranch) as exc:
        ss[BRANCH_MSG] = ("error", f"No branch was stored: {exc}")
        return
    except WarrenError as exc:
        ss[BRANCH_MSG] = ("error", f"No branch was stored: {exc}")
        return
    ss[BRANCH] = info.game_id
    ss.pop(COMPARED, None)
    if info.already:
        ss[BRANCH_MSG] = ("success", f"This branch is stored already, as {info.game_id}: opened; "
                                     f"{info.divergence}.")
        return
    ss[BRANCH_MSG] = ("success", f"Stored branch {info.game_id}: {len(plan.alternatives)} alternative(s) "
                                 f"after seq {seq}; {info.divergence}.")


def branch_maker(game_id: str, seq: int, seat: int | None) -> None:
    st.markdown("**Open a what-if branch** here with the proposed action(s)")
    cols = st.columns([2, 3, 2])
    cols[0].text_input("By", key=BRANCH_BY, placeholder="who asks")
    cols[1].text_input("Why", key=BRANCH_NOTE, placeholder="what if she had laid the queen?")
    cols[2].number_input("Recorded events replaced", min_value=0, value=None, step=1, key=REPLACES,
                         placeholder="as many as proposed",
                         help="How many recorded events the alternatives stand in for (0 inserts them).")
    st.button("Open branch", key="dsp_branch_make", on_click=_make_branch, args=(game_id, seq, seat))
    message = st.session_state.pop(BRANCH_MSG, None)
    if message is not None:
        kind, text = message
        (st.success if kind == "success" else st.error)(text)


# -- comparing --------------------------------------------------------------------------------------------
def divergence_report(info: BranchInfo, ruleset: Ruleset[Any, Any]) -> None:
    head = (f"Branch **{info.game_id}** leaves {info.parent_game} after seq {info.parent_seq}: "
            f"{info.alternatives} alternative(s) in place of {info.replaced} recorded event(s)"
            + (f", by {info.author}" if info.author else "") + (f" ({info.note})" if info.note else "") + ".")
    st.markdown(head)
    if info.divergence_rule is None:
        st.success(f"The parent's continuation ({info.continuation} events) stays legal on the branch."
                   if info.divergence_message is None else tables.md(info.divergence_message))
        return
    rule = rule_ref(ruleset, info.divergence_rule)
    st.warning(f"Divergence: parent event {info.divergence_parent_seq} is no longer legal on the branch "
               f"(it would be branch event {info.divergence_seq}) by **{rule.id}**: "
               f"{tables.md(info.divergence_message)}  \n{rule.id}: {rule.text} ({rule.source})  \n"
               f"{info.continued} of the parent's {info.continuation} later events stayed legal before it.")


def _move(keys: tuple[str, ...], lasts: tuple[int, ...], delta: int | None = None,
          to: tuple[int, ...] | None = None) -> None:
    for i, (key, last) in enumerate(zip(keys, lasts, strict=True)):
        now = int(st.session_state.get(key, 0))
        st.session_state[key] = max(0, min(last, to[i] if to is not None else now + (delta or 0)))


def _window(line: Line, seq: int, perspective: Perspective, radius: int = 3) -> str:
    lo, hi = max(1, seq - radius), min(len(line.events), seq + radius)
    violation = line.replay.violation
    rows = []
    for s in range(lo, hi + 1):
        if s > line.last_seq + (1 if violation is not None else 0):
            break
        text = line.ruleset.describe(line.events[s - 1], line.names, perspective)
        if violation is not None and s == violation.seq:
            text += f"  (illegal here: {violation.rule})"
        rows.append({"event": s, "": line.labels[s - 1], "what happened": text})
    current = seq - lo if lo <= seq <= hi else None
    return tables.html_table(rows, current=current)


def _column(title: str, prefix: str, key: str, line: Line, perspective: Perspective,
            mark: int | None) -> None:
    last = line.last_seq
    seq = max(0, min(int(st.session_state.get(key, 0)), last))
    st.session_state[key] = seq
    st.markdown(f"**{tables.md(title)}**")
    with st.container(horizontal=True, gap="small"):
        for name, icon, kwargs in (("First", ":material/first_page:", {"to": (0,)}),
                                   ("Prev", ":material/chevron_left:", {"delta": -1}),
                                   ("Next", ":material/chevron_right:", {"delta": 1}),
                                   ("Last", ":material/last_page:", {"to": (last,)})):
            st.button(name, key=f"{prefix}_{name.lower()}", icon=icon, on_click=_move, args=((key,), (last,)),
                      kwargs=kwargs)
    if last > 0:
        st.slider("seq", 0, last, key=key, label_visibility="collapsed")
    state = line.replay.state_at(seq)
    seats = line.ruleset.to_act(state)
    acting = "game over" if state.over else (
        "to act: " + and_list([seat_name(s, line.names) for s in seats]) if seats else "next: the table")
    phase = line.ruleset.phase_text(state.phase)
    st.caption(f"event {seq} of {last} · turn {state.turn} · {tables.md(phase)} · {tables.md(acting)}"
               + (" · the branch leaves here" if mark is not None and seq == mark else ""))
    st.html(board_html(line.ruleset.slug, line.ruleset.view(state, perspective), line.names))
    st.html(_window(line, seq, perspective))
    violation = line.replay.violation_seen_by(perspective, at=seq)
    if violation is not None and seq == last:
        rule = rule_ref(line.ruleset, violation.rule)
        by = "" if rule.id == HIDDEN_RULE else f" by **{rule.id}**"
        why = "" if rule.id == HIDDEN_RULE else f"  \n{rule.text}"
        st.error(f"The next event ({violation.seq}, {tables.md(line.labels[violation.seq - 1])}) is illegal "
                 f"here{tables.md(by)}: {tables.md(line.ruleset.say(violation.message, line.names))}"
                 f"{tables.md(why)}")


def compare(game: data.LoadedGame, info: BranchInfo, perspective: Perspective) -> None:
    try:
        branch = branch_line(info)
    except WarrenError as exc:
        st.error(f"Branch {tables.md(info.game_id)} cannot be replayed: {tables.md(exc)}")
        return
    parent = parent_line(game, info.parent_seq, info.replaced)
    at = info.parent_seq
    ss = st.session_state
    if ss.get(COMPARED) != info.game_id:
        ss[COMPARED] = info.game_id
        ss[PARENT_SEQ] = min(at, parent.last_seq)
        ss[BRANCH_SEQ] = min(at, branch.last_seq)
    keys, lasts = (PARENT_SEQ, BRANCH_SEQ), (parent.last_seq, branch.last_seq)
    with st.container(horizontal=True, gap="small"):
        st.button("Both back", key="dsp_cmp_both_prev", icon=":material/chevron_left:", on_click=_move,
                  args=(keys, lasts), kwargs={"delta": -1})
        st.button("Both on", key="dsp_cmp_both_next", icon=":material/chevron_right:", on_click=_move,
                  args=(keys, lasts), kwargs={"delta": 1})
        st.button("To the fork", key="dsp_cmp_fork", icon=":material/call_split:", on_click=_move,
                  args=(keys, lasts), kwargs={"to": (at, at)},
                  help="Both columns to the position the branch leaves from.")
    left, right = st.columns(2)
    with left:
        _column(f"Original · {game.record.header.game_id}", "dsp_cmp_p", PARENT_SEQ, parent, perspective, at)
    with right:
        _column(f"Branch · {info.game_id}", "dsp_cmp_b", BRANCH_SEQ, branch, perspective, at)


def show(game: data.LoadedGame, game_id: str, seq: int, seat: int | None, perspective: Perspective) -> None:
    st.subheader("What-if branches")
    branch_maker(game_id, seq, seat)
    try:
        infos = data.branches_of(game_id)
    except WarrenError as exc:
        st.error(f"The branches cannot be read: {tables.md(exc)}")
        return
    if not infos:
        st.caption("No branch of this game yet.")
        return
    by_id = {i.game_id: i for i in infos}
    if st.session_state.get(BRANCH) not in by_id:
        st.session_state[BRANCH] = infos[-1].game_id
    picked = st.selectbox("Compare with the original", list(by_id), key=BRANCH,
                          format_func=lambda b: f"{b} · after seq {by_id[b].parent_seq}"
                                                + (f" · by {by_id[b].author}" if by_id[b].author else ""))
    info = by_id[picked]
    divergence_report(info, game.ruleset)
    compare(game, info, perspective)
