"""Disputes: at any position, the legal actions, a verdict on a proposed action with the rule
that decides, what-if branches beside the original, and rulings that can be shared as links."""

from __future__ import annotations

import streamlit as st

from dashboard import data, position, whatif_view
from dashboard import disputes_view as dv
from dashboard import rulings_view as rv
from dashboard.boards import board_html
from dashboard.tables import md
from dashboard.titles import page_title
from engine.rules import WarrenError

page_title("Disputes")

st.title("Disputes")

rows = data.games_or_stop()

rv.apply_ruling_link()
game_id, game = position.open_game(rows)

top = st.columns([3, 2])
with top[1]:
    seen = position.perspective_picker(game.names)
with top[0]:
    header = game.record.header
    parent = f" · branch of {header.branch.game_id} after seq {header.branch.seq}" if header.branch else ""
    st.caption(f"{game.ruleset.title} · {len(header.players)} players · {md(header.source)} · "
               f"created {md(header.created)}{md(parent)}")

position.init_seq(game, where_someone_acts=True)
seq = position.step_controls(game)
ruling = rv.current_ruling(game_id)
position.sync_url(game_id, seq, seen, **({"ruling": ruling.ruling_id} if ruling else {}))
if ruling is None:
    st.query_params.pop("ruling", None)
else:
    rv.show_ruling_banner(ruling, seq, game.names)

dispute = data.dispute_for(game)
state = game.replay.state_at(seq)

left, right = st.columns([3, 2])
with left:
    phase = game.ruleset.phase_text(state.phase)
    st.markdown(f"**Event {seq} · round {state.round} · turn {state.turn} · {md(phase)} · "
                f"{md(position.acting(game, seq))}**")
    st.html(board_html(game.ruleset.slug, game.ruleset.view(state, seen), game.names))
    dv.show_explanation(game, dispute, seq, seen)
with right:
    st.caption("Verdicts and legal actions are the referee's: they may name cards the chosen "
               "perspective does not see.")
    seat, listed = dv.seat_picker(dispute, seq)
    dv.show_legal(dispute, seq, listed)
    st.divider()
    dv.propose_box(game, seq)
    verdicts = dv.verdicts_for(dispute, seq, seat)
    if verdicts:
        dv.show_verdicts(verdicts, game)
        dv.show_chances(game, verdicts)
    st.divider()
    try:
        earlier = data.rulings(game_id)[0]
    except WarrenError:
        earlier = []
    rv.ruling_form(game_id, seq, seat, earlier)

st.divider()
whatif_view.show(game, game_id, seq, seat, seen)
st.divider()
rv.show_rulings(game_id, ruling.ruling_id if ruling else None)
