"""Position state shared by the replay and dispute pages: game, seq and perspective,
kept in ``st.session_state`` and mirrored in the URL so a position can be shared."""

from __future__ import annotations

from typing import Any

import streamlit as st

from dashboard import data
from dashboard.tables import md
from engine.rules import WarrenError
from engine.ruleset import Perspective
from engine.wording import and_list, seat_name

GAME = "pos_game"
SEQ = "pos_seq"
AS = "pos_as"
TURN = "pos_turn"


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return None


PICKER_LIMIT = 2000
"""Above this many games, the game is typed (or opened from the Games page), not picked."""


def choose_game(rows: list[dict[str, Any]]) -> str | None:
    """The game from the URL, the session, or a picker; None (with a message) if unknown."""
    known = _known_ids(rows)
    wanted = st.query_params.get("game")
    if wanted and st.session_state.get(GAME) != wanted and wanted not in known:
        st.error(f"There is no game {md(repr(wanted))} in the store. Pick one below.")
        del st.query_params["game"]
        wanted = None
    if wanted and st.session_state.get(GAME) != wanted:
        st.session_state[GAME] = wanted
        st.session_state.pop(SEQ, None)
    if st.session_state.get(GAME) not in known:
        st.session_state[GAME] = rows[0]["game_id"]

    def picked() -> None:
        # A game picked here replaces the one in the URL (and its position).
        if st.session_state.get(GAME) not in known:
            st.session_state["pos_unknown"] = st.session_state.get(GAME)
            st.session_state[GAME] = st.query_params.get("game") or rows[0]["game_id"]
            return
        st.query_params["game"] = st.session_state[GAME]
        for key in ("seq", "turn", "ruling"):
            st.query_params.pop(key, None)
        st.session_state.pop(SEQ, None)

    if len(rows) <= PICKER_LIMIT:
        ids: list[str] = [r["game_id"] for r in rows]
        choice = st.selectbox("Game", ids, key=GAME, on_change=picked)
    else:
        choice = st.text_input(f"Game id ({len(rows):,} games: open one from the Games page, or type "
                               "its id)", key=GAME, on_change=picked)
    unknown = st.session_state.pop("pos_unknown", None)
    if unknown:
        st.error(f"There is no game {md(repr(unknown))} in the store.")
    return choice


def _known_ids(rows: list[dict[str, Any]]) -> frozenset[str]:
    """The set of game ids, built once per list of rows (the list is a shared cached object)."""
    cache: dict[int, frozenset[str]] = st.session_state.setdefault("_pos_id_sets", {})
    key = id(rows)
    if key not in cache:
        cache.clear()
        cache[key] = frozenset(r["game_id"] for r in rows)
    return cache[key]


def open_game(rows: list[dict[str, Any]]) -> tuple[str, data.LoadedGame]:
    """The page's game (URL, session or picker), folded once; a message and a stop if it fails."""
    game_id = choose_game(rows)
    try:
        if game_id is None:  # an empty picker (the pages stop before that on an empty store)
            raise WarrenError("no game is chosen")
        return game_id, data.load_game(game_id)
    except WarrenError as exc:
        st.error(f"Game {md(repr(game_id))} cannot be opened: {md(exc)}")
        st.stop()
        raise  # st.stop() ends the run; this line only satisfies the type checker


def init_seq(game: data.LoadedGame, where_someone_acts: bool = False) -> None:
    """Take seq (or turn) from the URL once per game, else open at the start (with
    ``where_someone_acts``, at the first position where a seat acts: the Disputes page, for
    nothing can be judged where only the table records chance); clamp what the session holds."""
    last = game.replay.last_seq
    if SEQ not in st.session_state:
        seq = _int(st.query_params.get("seq"))
        turn = _int(st.query_params.get("turn"))
        if st.query_params.get("seq") is not None and (seq is None or not 0 <= seq <= last):
            st.warning(f"Position {md(repr(st.query_params.get('seq')))} is not in this game "
                       f"(0..{last}); showing the start.")
            seq = None
        if seq is None and turn is not None:
            try:
                seq = game.replay.seq_for_turn(turn)
            except WarrenError as exc:
                st.warning(md(exc))
        # A game opens at its start: the deal, then every event in order (or the linked one).
        if seq is None and where_someone_acts:
            seq = first_decision(game)
        st.session_state[SEQ] = 0 if seq is None else seq
    st.session_state[SEQ] = max(0, min(int(st.session_state[SEQ]), last))


def first_decision(game: data.LoadedGame) -> int:
    """The first position where a seat acts (after the set-up and the deal), or the start."""
    for seq in range(game.replay.last_seq + 1):
        state = game.replay.state_at(seq)
        if state.over:
            break
        if game.ruleset.to_act(state):
            return seq
    return 0


def acting(game: data.LoadedGame, seq: int) -> str:
    """Who the position waits for, from the game's pending decisions (Ruleset.to_act): one
    player on a turn, several at once in a vote or a night, or the table (chance)."""
    state = game.replay.state_at(seq)
    if state.over:
        return "game over"
    seats = game.ruleset.to_act(state)
    if not seats:
        return "next: the table (chance)"
    return "to act: " + and_list([seat_name(s, game.names) for s in seats])


def init_perspective(names: list[str]) -> None:
    options = data.perspective_options(names)
    if AS not in st.session_state or st.session_state[AS] not in options:
        raw = st.query_params.get("as", "referee")
        value = _int(raw)
        label = data.perspective_label(value if value is not None else raw, names)
        if label not in options:
            st.warning(f"Perspective {md(repr(raw))} is not one of this game's; showing the referee's.")
            label = "referee"
        st.session_state[AS] = label


def perspective_picker(names: list[str]) -> Perspective:
    init_perspective(names)
    label = st.selectbox("Seen by", data.perspective_options(names), key=AS,
                         help="The referee sees everything; a seat sees what that player knew; "
                              "a spectator sees only what was public.")
    return data.parse_perspective(label)


def sync_url(game_id: str, seq: int, perspective: Perspective, **extra: str) -> None:
    wanted = {"game": game_id, "seq": str(seq), "as": str(perspective), **extra}
    for key, value in wanted.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value
    st.query_params.pop("turn", None)


def step_controls(game: data.LoadedGame) -> int:
    """First / previous / next / last, jump to a turn, the position, and a slider. Returns
    the seq shown. The controls flow onto a second line on a narrow screen rather than
    shrink (a button never shows a cut label)."""
    last = game.replay.last_seq

    def move(delta: int | None = None, to: int | None = None) -> None:
        seq = st.session_state[SEQ]
        st.session_state[SEQ] = max(0, min(last, to if to is not None else seq + (delta or 0)))

    def jump() -> None:
        try:
            st.session_state[SEQ] = game.replay.seq_for_turn(int(st.session_state[TURN]))
            st.session_state["pos_turn_for"] = st.session_state[SEQ]
        except WarrenError as exc:
            st.session_state["pos_jump_error"] = str(exc)

    # The turn box follows the position unless the user is typing into it (then jump() ran).
    seq = int(st.session_state[SEQ])
    shown_turn = game.replay.position(seq).turn
    if st.session_state.get("pos_turn_for") != seq:
        st.session_state[TURN] = shown_turn
        st.session_state["pos_turn_for"] = seq
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small", key="pos_bar"):
        st.button("First", key="pos_first", icon=":material/first_page:", on_click=move, kwargs={"to": 0},
                  disabled=seq == 0, help="The start: before the first event")
        st.button("Prev", key="pos_prev", icon=":material/chevron_left:", on_click=move,
                  kwargs={"delta": -1}, disabled=seq == 0, help="One event back")
        st.button("Next", key="pos_next", icon=":material/chevron_right:", on_click=move,
                  kwargs={"delta": 1}, disabled=seq == last, help="One event on")
        st.button("Last", key="pos_last", icon=":material/last_page:", on_click=move, kwargs={"to": last},
                  disabled=seq == last, help="The last event")
        turns = game.replay.turns
        st.number_input("Jump to turn", min_value=min(turns), max_value=max(turns), step=1,
                        key=TURN, on_change=jump, width=150)
        st.markdown(f"**Event {seq} of {last}**", width="content")
    if last > 0:
        st.slider("Event", 0, last, key=SEQ, label_visibility="collapsed")
    error = st.session_state.pop("pos_jump_error", None)
    if error:
        st.warning(md(error))
    return int(st.session_state[SEQ])
