"""The Record page's first step: start a game at the table (ruleset, players within the
ruleset's range, header options) or resume one being recorded, also opened by its link
(``/record?game=ID``). A game can be recorded on here if it was recorded at the table
(``source: "recorded"``) and no illegal event stops it (dashboard.record_view records it).
"""

from __future__ import annotations

import ast
import inspect
import itertools
import json
import textwrap
from collections.abc import Callable
from typing import Any

import msgspec
import msgspec.inspect as mi
import streamlit as st

from dashboard import data
from dashboard.record_view import GAME, NOTE, SEEN, clear_picks
from dashboard.tables import md
from engine.options import bounds
from engine.registry import get_ruleset, usable_slugs
from engine.rules import WarrenError
from engine.ruleset import Ruleset
from logstore.recording.entries import player_names

START_ERROR = "rec_start_error"


# -- which game ------------------------------------------------------------------------------------
def chosen_game() -> str | None:
    """The game in the URL (``/record?game=ID``), else the one this session records."""
    wanted = st.query_params.get("game")
    if wanted:
        if st.session_state.get(GAME) != wanted:
            st.session_state[GAME] = wanted
            st.session_state.pop(SEEN, None)
            st.session_state.pop(NOTE, None)
        return wanted
    current = st.session_state.get(GAME)
    if current:
        st.query_params["game"] = current
    return current if isinstance(current, str) else None


def leave() -> None:
    """Back to starting or resuming a game."""
    for key in (GAME, SEEN, NOTE):
        st.session_state.pop(key, None)
    st.query_params.pop("game", None)
    clear_picks()


def recordable(rows: list[dict[str, Any]], game_id: str) -> dict[str, Any] | None:
    """The game's row if it can be recorded on here, else None (with the reason on the page)."""
    row = next((r for r in rows if r["game_id"] == game_id), None)
    shown = md(repr(game_id))
    if row is None:
        st.error(f"There is no game {shown} in the store. Start one below, or resume one being "
                 "recorded.", icon=":material/error:")
    elif row["source"] != "recorded":
        st.error(f"Game {shown} was not recorded at the table (its source is {md(repr(row['source']))}): "
                 "only a game recorded at the table is recorded on. Open it on the Replay page.",
                 icon=":material/error:")
    elif not row["ok"]:
        st.error(f"Game {shown} has an illegal event at event {row['violation_seq']} "
                 f"({row['violation_rule']}): nothing can be recorded after it.", icon=":material/block:")
    else:
        return row
    return None


def being_recorded(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Games recorded at the table that are not over (nor stopped by an illegal event)."""
    return [r for r in rows if r["source"] == "recorded" and not r["over"] and r["ok"]
            and not r.get("parent_game")]


# -- starting a game ---------------------------------------------------------------------------------
def title_of(slug: str) -> str:
    try:
        return get_ruleset(slug).title
    except WarrenError:
        return slug


def option_notes(options_type: type) -> dict[str, str]:
    """Each option's docstring (the line under its field), to explain it on the form."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(options_type)))
    except (OSError, TypeError, SyntaxError):
        return {}
    notes: dict[str, str] = {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    for field, doc in itertools.pairwise(body):
        if isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name) \
                and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) \
                and isinstance(doc.value.value, str):
            notes[field.target.id] = " ".join(doc.value.value.split())
    return notes


def _asked(t: mi.Type) -> mi.Type:
    """``int | None`` (None: the rules' default) is asked as what it is when given."""
    if isinstance(t, mi.UnionType):
        given = [p for p in t.types if not isinstance(p, mi.NoneType)]
        return given[0] if len(given) == 1 else t
    return t


def option_inputs(ruleset: Ruleset[Any, Any]) -> Callable[[], dict[str, Any]]:
    """A widget per header option (its default shown, its bounds in its help: engine.options);
    returns a reader of the options the scorekeeper changed (a typed option that does not
    read is a :class:`WarrenError`; one out of bounds is refused when the game starts)."""
    options_type = ruleset.options_type
    notes = option_notes(options_type)
    said = bounds(options_type)
    info = mi.type_info(options_type)
    assert isinstance(info, mi.StructType)
    readers: list[Callable[[], tuple[str, Any] | None]] = []
    for spec in info.fields:
        name, default, t = spec.name, spec.default, spec.type
        if name in ruleset.seat_options:
            continue  # asked beside the players' names, by name (seat_inputs)
        if default is msgspec.NODEFAULT:  # a list option's default is made by a factory ([])
            default = spec.default_factory() if spec.default_factory is not msgspec.NODEFAULT else None
        key = f"rec_opt_{ruleset.slug}_{name}"
        label = name.replace("_", " ")
        allowed = f"Allowed: {said[name]}." if said.get(name) else ""
        help_ = " ".join(part for part in (notes.get(name), allowed) if part) or None
        typed = False
        if isinstance(t, mi.LiteralType):
            choices = list(t.values)
            st.selectbox(label, choices, index=choices.index(default) if default in choices else 0,
                         key=key, help=help_)
        elif isinstance(t, mi.BoolType):
            st.checkbox(label, value=bool(default), key=key, help=help_)
        elif isinstance(t, mi.IntType):
            st.number_input(label, value=int(default), step=1, min_value=t.ge, max_value=t.le, key=key,
                            help=help_)
        else:
            typed = not isinstance(_asked(t), mi.StrType)  # JSON, or a word for a text option
            shown = "the rules' default" if default is None else f"default {json.dumps(default)}"
            st.text_input(label, key=key, help=help_, placeholder=shown + (" (or JSON, e.g. [1, 2])"
                                                                            if typed else ""))

        def read(name: str = name, key: str = key, default: Any = default, typed: bool = typed) -> \
                tuple[str, Any] | None:
            value = st.session_state.get(key)
            if isinstance(value, str):
                if not value.strip():
                    return None
                if typed:
                    try:
                        value = json.loads(value)
                    except json.JSONDecodeError:
                        raise WarrenError(f"option {name}: {value!r} is not JSON "
                                          "(e.g. [1, 2] or 3)") from None
            same = value == (list(default) if isinstance(default, tuple) else default)
            return None if same else (name, value)

        readers.append(read)

    def chosen() -> dict[str, Any]:
        return dict(found for read in readers if (found := read()) is not None)

    return chosen


SEAT_QUESTIONS = {"first_seat": "Who plays first", "youngest": "The youngest player"}
"""How the form asks an option whose value is a seat; another reads as its name."""


def seat_inputs(ruleset: Ruleset[Any, Any], count: int) -> Callable[[], dict[str, Any]]:
    """An option whose value is a seat (who plays first), asked by the players' names as
    typed above it, its default said, not hidden among the options: the rules' default
    (Bunnies: the player after the dealer, the second name) is chosen, never assumed."""
    info = mi.type_info(ruleset.options_type)
    assert isinstance(info, mi.StructType)
    readers: list[Callable[[], tuple[str, Any] | None]] = []
    for spec in info.fields:
        if spec.name not in ruleset.seat_options:
            continue
        name, default = spec.name, int(spec.default)
        t = spec.type
        seats = [v for v in t.values if isinstance(v, int) and v < count] if isinstance(t, mi.LiteralType) \
            else list(range(count))
        key = f"rec_opt_{ruleset.slug}_{name}"
        if st.session_state.get(key) not in seats:
            st.session_state[key] = default if default in seats else seats[0]

        def who(seat: int) -> str:
            typed = (st.session_state.get(f"rec_name_{seat}") or "").strip()
            return typed or f"player {seat + 1}"

        help_ = ruleset.option_help.get(name)
        st.selectbox(SEAT_QUESTIONS.get(name, name.replace("_", " ").capitalize()), seats, key=key,
                     format_func=who, help=help_, width=320)
        st.caption(f"By the rules: {md(who(default))}" + (f" ({md(help_)})" if help_ else ""))

        def read(name: str = name, key: str = key, default: int = default) -> tuple[str, Any] | None:
            value = st.session_state.get(key)
            return None if value == default else (name, value)

        readers.append(read)
    return lambda: dict(found for read in readers if (found := read()) is not None)


def _count_key(slug: str) -> str:
    return f"rec_count_{slug}"


def start_form() -> None:
    """Ruleset, players (within the ruleset's range), options, and an optional id."""
    st.subheader("Start a game")
    slugs = usable_slugs()
    slug = st.selectbox("Ruleset", slugs, format_func=title_of, key="rec_ruleset")
    ruleset = get_ruleset(slug)
    low, high = ruleset.min_players, ruleset.max_players
    if low == high:
        count = low
        st.caption(f"{ruleset.title} is played by {low} players.")
    else:
        count = int(st.number_input(f"Players ({low} to {high})", low, high, value=low, step=1,
                                    key=_count_key(slug)))
    st.markdown("**Players**, in seat order")
    with st.container(horizontal=True, gap="small", key="rec_names"):
        for seat in range(count):
            st.text_input(f"Player {seat + 1}", key=f"rec_name_{seat}", width=170, placeholder="name")
    seated = seat_inputs(ruleset, count)
    with st.expander("Options", key="rec_options"):
        others = option_inputs(ruleset)

    def chosen() -> dict[str, Any]:
        return {**seated(), **others()}

    st.text_input("Game id (optional)", key="rec_new_id", placeholder=f"{slug}-table-DATE-TIME",
                  help="Left blank, the game is named after the ruleset and the time it starts.")
    st.button("Start recording", key="rec_start", type="primary", icon=":material/play_arrow:",
              on_click=_start, args=(slug, count, chosen))
    error = st.session_state.pop(START_ERROR, None)
    if error:
        st.error(md(error), icon=":material/error:")


def _start(slug: str, count: int, chosen: Callable[[], dict[str, Any]]) -> None:
    try:
        names = player_names([st.session_state.get(f"rec_name_{seat}") or "" for seat in range(count)])
        if len(names) != count:
            raise WarrenError(f"name all {count} players (every seat needs a name)")
        game_id = (st.session_state.get("rec_new_id") or "").strip() or None
        started = data.start_table_game(slug, names, chosen(), game_id)
    except WarrenError as exc:
        st.session_state[START_ERROR] = str(exc)
        return
    _open(started, f"Recording {started}: {', '.join(names)}.")


def _open(game_id: str, note: str) -> None:
    st.session_state[GAME] = game_id
    st.session_state.pop(SEEN, None)
    st.session_state[NOTE] = {"kind": "info", "text": note}
    st.query_params["game"] = game_id
    clear_picks()


def resume_form(rows: list[dict[str, Any]]) -> None:
    """The games being recorded, to go on with one (also opened by ``/record?game=ID``)."""
    st.subheader("Resume a game")
    open_games = being_recorded(rows)
    if not open_games:
        st.caption("No game is being recorded in this store.")
        return
    players = {r["game_id"]: ", ".join(r["players"]) for r in open_games}
    events = {r["game_id"]: r["n_events"] for r in open_games}
    pick = st.selectbox("Game being recorded", list(players), key="rec_resume",
                        format_func=lambda g: f"{g} ({players[g]}; {events[g]} events)")
    st.button("Resume recording", key="rec_resume_go", icon=":material/play_circle:",
              on_click=lambda: _open(pick, f"Resumed {pick} at event {events[pick]}."))
