"""``warren dispute ...``: settle rule disputes from the command line.

A thin layer over :mod:`engine.dispute` (verdicts, legal actions, explanations, re-runs,
claims) and the store's branches and rulings. GAME is a record file or a game id in the
store; positions are ``--at SEQ`` (after event SEQ) or ``--turn N`` (at the start of turn
N). Actions are JSON in the record's event vocabulary or the short notation that
``warren dispute notation RULESET`` lists.

Exit codes: 0 when the answer is "legal" (or the command simply answered), 1 when the
verdict is "illegal" or a claim is disputed, 2 for bad input (unknown game, position out
of range, unreadable action, a seat not in the game).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from logstore.cli.common import (
    EXIT_ILLEGAL,
    F,
    WarrenGroup,
    db_option,
    echo_json,
    json_option,
    open_store,
    parse_options,
)


def _position_options(func: F) -> F:
    func = click.option("--turn", type=int, default=None,
                        help="The position at the start of this turn.")(func)
    return click.option("--at", "--to", "at", type=int, default=None,
                        help="The position after this seq (0 = before the first event; "
                             "default: the end of the record). --to is the same (as in replay).")(func)


def _seat_option(required: bool = False) -> Callable[[F], F]:
    if required:
        # No default at all: with one (even None) click lets a required option be left out.
        return click.option("--seat", "-s", type=int, required=True, help="The seat whose actions to list.")
    return click.option("--seat", "-s", type=int, default=None,
                        help="The seat asking (default: the action's actor, else the seat to act).")


if TYPE_CHECKING:
    from engine.dispute import Dispute
    from engine.record import Event


@contextmanager
def _open_game(source: str, db: Path | None, *, with_events: bool = False) -> Iterator[Dispute]:
    """GAME as a :class:`engine.dispute.Dispute`: a record file, else a game id in the store."""
    from engine.dispute import Dispute
    from engine.registry import get_ruleset
    from logstore.cli.games import record_file

    record = record_file(source)
    if record is not None:
        yield Dispute.of_record(get_ruleset(record.header.ruleset), record.header, record.events)
        return
    from logstore.store.branches import stored_dispute

    with open_store(db, create=False) as store:
        yield stored_dispute(store, source, with_events=with_events)


def _out(verdict_code: int) -> None:
    if verdict_code:
        sys.exit(verdict_code)


@click.group(cls=WarrenGroup, context_settings={"help_option_names": ["-h", "--help"]})
def dispute() -> None:
    """Settle rule disputes: verdicts, legal actions, explanations, what-ifs, rulings.

    GAME is a record file or a game id in the store. A position is --at SEQ (after event
    SEQ; 0 is before the first event) or --turn N. An action is JSON in the record's event
    vocabulary ('{"type": "lay", "cards": ["QH"]}', seq filled in) or short notation
    ('lay QH QS', 'pickup', 'flip 0.3'; see `warren dispute notation RULESET`).

    Exit 0 for an answer (legal), 1 when the verdict is illegal or a claim is disputed, 2
    for bad input.

    Example: warren dispute verdict bunnies-7-000003 --at 12 --action 'lay 9C'
    """


# -- verdict ------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@_position_options
@click.option("--action", "-a", "action", required=True,
              help="The proposed action: notation ('lay QH QS') or JSON.")
@_seat_option()
@click.option("--chances", is_flag=True,
              help="Also what the action does to every player's chance to win (warren analyse's method; "
                   "a few seconds to a minute).")
@click.option("--worlds", type=click.IntRange(1, 100_000), default=None,
              help="With --chances: worlds (default 100).")
@click.option("--rollouts", type=click.IntRange(1, 1000), default=None,
              help="With --chances: plays per world (default 4).")
@click.option("--seed", type=int, default=0, show_default=True, help="With --chances: the seed.")
@db_option
@json_option
def verdict(game: str, at: int | None, turn: int | None, action: str, seat: int | None, chances: bool,
            worlds: int | None, rollouts: int | None, seed: int, db: Path | None, as_json: bool) -> None:
    """Is an action legal at a position? Answers with the rule that decides.

    Legal: the effects it would have. Illegal: the rule id, its paraphrase and rulebook
    section, the message, the facts of the position that decided it. Works for any seat,
    on its turn or off it. In a game recorded at the table, a verdict may be undetermined:
    no rule is known to forbid the action, but deciding needs a card nobody saw (the rule
    and that fact are named). Exit 0 legal or undetermined, 1 illegal (or a claim it
    carries is disputed).

    With --chances, every player's chance to win at the position and after the action
    (a refused action changes nothing: the game goes on from the position).

    Example: warren dispute verdict game.jsonl --at 13 --action 'lay 9H' --seat 1 --chances
    """
    from engine.dispute import render_verdict

    with _open_game(game, db, with_events=turn is not None) as d:
        v = d.verdict(action, at=at, turn=turn, seat=seat)
        changed = _chances(game, db, v.at, v.action, worlds, rollouts, seed) if chances else None
        if as_json:
            echo_json({"game_id": d.header.game_id, "ruleset": d.ruleset.slug, **v.to_dict(),
                       **({"chances": changed} if chances else {})})
        else:
            click.echo(f"{d.header.game_id} ({d.ruleset.slug})")
            click.echo(render_verdict(v, d.names, d.ruleset))
            if changed is not None:
                for line in chances_said(changed, d.names, v.legal):
                    click.echo(line)
    _out(0 if v.status in ("legal", "undetermined") else EXIT_ILLEGAL)


def _chances(game: str, db: Path | None, at: int, action: dict[str, Any], worlds: int | None,
             rollouts: int | None, seed: int) -> dict[str, Any]:
    from engine.analysis.chances import ROLLOUTS, WORLDS
    from engine.analysis.timeline import Settings
    from logstore.cli.games import load_source
    from logstore.store.analyses import changes

    record = load_source(game, db)
    settings = Settings(worlds=worlds or WORLDS, rollouts=rollouts or ROLLOUTS, seed=seed)
    return changes(record, at, action, settings)


def chances_said(changed: dict[str, Any], names: list[str], legal: bool) -> list[str]:
    """The chances before and after a proposed action, players by name."""
    before = changed["before"]
    lines = ["", "Chance to win here, in points (95% interval): " + ", ".join(
        f"{n} {before['points'][i]:.0f} ({before['low'][i]:.0f}-{before['high'][i]:.0f})"
        for i, n in enumerate(names))]
    after = changed["after"]
    if after is None or not legal:
        lines.append("The action is refused, so it changes nothing: the game goes on from this position "
                     f"(after event {changed['seq']}).")
        return lines
    lines.append("After the action: " + ", ".join(
        f"{n} {after['points'][i]:.0f} ({changed['change'][i]:+.0f})" for i, n in enumerate(names)))
    return lines


# -- legal ----------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@_position_options
@_seat_option(required=True)
@db_option
@json_option
def legal(game: str, at: int | None, turn: int | None, seat: int, db: Path | None, as_json: bool) -> None:
    """List every action a seat may take at a position (notation and description).

    With --json: the actions as record events (seq filled in) and their notations.

    Example: warren dispute legal bunnies-7-000003 --at 40 --seat 0
    """
    with _open_game(game, db, with_events=turn is not None) as d:
        found = d.legal(seat, at=at, turn=turn)
        if as_json:
            echo_json({"game_id": d.header.game_id, "ruleset": d.ruleset.slug, **found.to_dict()})
        else:
            click.echo(found.render())


# -- explain -------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@click.argument("seq", type=int)
@db_option
@json_option
def explain(game: str, seq: int, db: Path | None, as_json: bool) -> None:
    """Explain recorded event SEQ: its rules, each effect with its rule id, what changed.

    The change is a diff of the referee's view before and after the event. The first
    illegal event of a record is explained too (with the rule that forbids it).

    Example: warren dispute explain bunnies-7-000003 41
    """
    with _open_game(game, db, with_events=True) as d:
        ex = d.explain(seq)
        if as_json:
            echo_json({"game_id": d.header.game_id, "ruleset": d.ruleset.slug, **ex.to_dict()})
        else:
            click.echo(ex.render())


# -- rerun ---------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@click.option("--option", "-o", "options", multiple=True, required=True, metavar="KEY=VALUE",
              help="A header option to change (repeatable), e.g. steal_from=hand_or_blind.")
@db_option
@json_option
def rerun(game: str, options: tuple[str, ...], db: Path | None, as_json: bool) -> None:
    """Re-run a whole game under other header options (another reading of a rule).

    Replays the record as it is and under the changed options side by side, and reports
    the first seq where a verdict or an effect differs, and how the outcome differs.

    Example: warren dispute rerun bunnies-7-000003 --option steal_from=hand_or_blind
    """
    from engine.dispute import rerun as rerun_game

    changes = parse_options(options)
    with _open_game(game, db, with_events=True) as d:
        result = rerun_game(d.ruleset, d.header, d.events(), changes)
    if as_json:
        echo_json({"game_id": d.header.game_id, "ruleset": d.ruleset.slug, **result.to_dict()})
    else:
        click.echo(f"{d.header.game_id} ({d.ruleset.title})")
        click.echo(result.render(d.ruleset, [p.name for p in d.header.players]))


# -- claims --------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@db_option
@json_option
def claims(game: str, db: Path | None, as_json: bool) -> None:
    """Check the consequences a record claims (an event's "claims") against the engine.

    A claim the engine does not derive is a disputed claim at that seq, with its rule;
    that is distinct from an illegal action. Exit 1 when any claim is disputed.

    Example: warren dispute claims fixtures/bunnies/claims-bunny.jsonl
    """
    from engine.dispute import record_claims

    with _open_game(game, db, with_events=True) as d:
        report = record_claims(d.ruleset, d.header, d.events())
    if as_json:
        echo_json({"game_id": d.header.game_id, "ruleset": d.ruleset.slug, **report.to_dict()})
    else:
        click.echo(f"{d.header.game_id}: {report.claims} claim(s), {len(report.disputed)} disputed")
        for item in report.disputed:
            click.echo(f"  seq {item.seq}: disputed claim [{item.rule or '?'}]: {item.message}")
        if report.violation is not None:
            v = report.violation
            click.echo(f"  (claims after seq {v.seq} not checked: the event there is illegal by {v.rule})")
    _out(EXIT_ILLEGAL if report.disputed else 0)


# -- notation ------------------------------------------------------------------------------------
@dispute.command()
@click.argument("ruleset")
@json_option
def notation(ruleset: str, as_json: bool) -> None:
    """List the short notation of a ruleset's actions (what --action accepts besides JSON).

    Bare values fill the fields in the order shown (a trailing '...' field takes every value
    left); any field can be named as field=value, lists as comma-separated values, anything
    as JSON. actor=N names the seat.

    Example: warren dispute notation bunnies
    """
    from engine.dispute import action_usage, positional_fields
    from engine.registry import get_ruleset

    rs = get_ruleset(ruleset)
    for line in action_usage(rs):
        if as_json:
            tag = line.split()[0]
            echo_json({"type": tag, "usage": line, "positional": list(positional_fields(rs, tag))})
        else:
            click.echo(line)


# -- branches ------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@click.option("--at", "--to", "at", type=int, required=True,
              help="Keep the parent's events up to this seq (--to is the same).")
@click.option("--action", "-a", "actions", multiple=True, required=True,
              help="An alternative action (repeatable, played in order).")
@_seat_option()
@click.option("--replaces", type=click.IntRange(min=0), default=None,
              help="How many parent events the alternatives stand in for (default: as many as "
                   "there are alternatives).")
@click.option("--name", "name", default=None, help="The branch's game id (default: GAME~N).")
@click.option("--by", "author", default=None, help="Who made the branch.")
@click.option("--note", default=None, help="Why.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the branch record to this file instead of the store (GAME may be a file).")
@db_option
@json_option
def branch(game: str, at: int, actions: tuple[str, ...], seat: int | None, replaces: int | None,
           name: str | None, author: str | None, note: str | None, out: Path | None,
           db: Path | None, as_json: bool) -> None:
    """Fork a game at a seq with alternative actions (a what-if branch).

    The branch keeps the parent's events up to --at, then the alternatives. The parent's
    recorded continuation is then replayed on the branch until its first event that is no
    longer legal there: that divergence (seq and rule) is reported. A stored branch is a
    game of its own (replay, check, export it; branch from it again). Exit 1 if an
    alternative is illegal (nothing is stored).

    Example: warren dispute branch bunnies-7-000003 --at 30 --action 'lay KH' --by judge
    """
    from engine.dispute import IllegalAlternative, plan_branch, render_verdict
    from engine.dispute.verdict import action_said
    from engine.registry import get_ruleset

    try:
        if out is not None:
            from logstore.store.branches import branch_lines, now

            with _open_game(game, db, with_events=True) as d:
                d.check_position(at)
                plan = plan_branch(d.ruleset, d.header, d.events(), at, list(actions),
                                   game_id=name or f"{d.header.game_id}~1", created=now(), seat=seat,
                                   replaces=replaces, start=d.state_at(at))
            from logstore.store.files import write_file

            write_file(out, b"".join(branch_lines(plan)))
            info = None
        else:
            from logstore.store.branches import create_branch

            with open_store(db, create=False) as store:
                info, plan = create_branch(store, game, at, list(actions), seat=seat, replaces=replaces,
                                           game_id=name, author=author, note=note)
    except IllegalAlternative as exc:
        if as_json:
            echo_json({"ok": False, "error": str(exc), "verdict": exc.verdict.to_dict()})
        else:
            with _open_game(game, db) as d:
                names = [p.name for p in d.header.players]
                click.echo("Refused: an alternative is illegal, so nothing is stored", err=True)
                click.echo(render_verdict(exc.verdict, names, d.ruleset), err=True)
        sys.exit(EXIT_ILLEGAL)
    if as_json:
        echo_json({"ok": True, **plan.to_dict(), "path": None if out is None else str(out),
                    "registered": None if info is None else info.to_dict()})
        return
    if info is not None and info.already:
        click.echo(f"the same branch of {game} after seq {at} is stored already, as {info.game_id}: "
                   "no copy was stored")
        return
    where = str(out) if out is not None else "the store"
    click.echo(f"branch {plan.header.game_id} of {game} after seq {at}: {len(plan.alternatives)} "
               f"alternative(s), written to {where}")
    ruleset = get_ruleset(plan.header.ruleset)
    names = [p.name for p in plan.header.players]
    for v in plan.alternatives:
        effects = "; ".join(f"{e.kind.replace('_', ' ')} [{e.rule}]" for e in v.effects)
        said = action_said(v, names, ruleset) or v.notation
        click.echo(f"  event {v.at + 1}: {said}" + (f" -> {effects}" if effects else ""))
    d_ = plan.divergence
    if d_ is None:
        click.echo(f"the parent's continuation ({plan.continuation} events) stays legal on the branch")
    else:
        click.echo(f"divergence: the parent's event {d_.parent_seq} ({d_.event}) is illegal on the "
                   f"branch (its event {d_.branch_seq}) by {d_.rule}: {ruleset.say(d_.message, names)}")
        click.echo(f"  ({plan.continued} of the parent's {plan.continuation} later events "
                   "stayed legal before it)")


@dispute.command(name="branches")
@click.argument("game", required=False)
@db_option
@json_option
def branches_(game: str | None, db: Path | None, as_json: bool) -> None:
    """List the what-if branches in the store (of GAME and its branches, if given).

    Example: warren dispute branches bunnies-7-000003
    """
    from logstore.store.branches import list_branches

    with open_store(db, create=False) as store:
        if game is not None:
            store.game(game)  # an unknown game is an error, not an empty list
        infos = list_branches(store, game)
    for info in infos:
        if as_json:
            echo_json(info.to_dict())
        else:
            who = f" by {info.author}" if info.author else ""
            click.echo(f"{info.game_id}  of {info.parent_game} after seq {info.parent_seq}: "
                       f"{info.alternatives} alternative(s){who}")
            click.echo(f"    {info.divergence}")
            if info.note:
                click.echo(f"    note: {info.note}")
    if not as_json:
        click.echo(f"{len(infos)} branch(es)", err=True)


# -- rulings -------------------------------------------------------------------------------------
@dispute.command()
@click.argument("game")
@_position_options
@click.option("--question", "-q", required=True, help="The question the ruling answers.")
@click.option("--by", "decided_by", required=True, help="Who decided (a judge, the table).")
@click.option("--action", "-a", "action", default=None,
              help="The action ruled on (default: the event recorded right after the position).")
@_seat_option()
@click.option("--note", default=None, help="The reasoning, or the decision if it differs from the engine's.")
@click.option("--supersedes", default=None, help="The id of an earlier ruling this one replaces.")
@db_option
@json_option
def rule(game: str, at: int | None, turn: int | None, question: str, decided_by: str,
         action: str | None, seat: int | None, note: str | None, supersedes: str | None,
         db: Path | None, as_json: bool) -> None:
    """Save a ruling: the question, the engine's verdict, who decided, a note, the time.

    The game (or branch) must be in the store. Rulings are append-only; correct one by
    saving another with --supersedes. Each gets a stable id and a position reference
    (warren://game/<id>?seq=N&ruling=<rid>).

    Example: warren dispute rule bunnies-7-000003 --at 13 -q 'Could Bo pick up here?' --by judge
    """
    from logstore.store import rulings
    from logstore.store.branches import now, stored_dispute

    with open_store(db, create=False) as store:
        d = stored_dispute(store, game, with_events=True)
        seq = d.seq_of(at, turn)
        judged: str | Event | None = action
        if judged is None and seq < len(d.events()):
            judged = d.events()[seq]
        found = None if judged is None else d.verdict(judged, at=seq, seat=seat)
        ruling = rulings.make_ruling(game, seq, question, decided_by, now(), verdict=found,
                                     turn=d.state_at(seq).turn, note=note, supersedes=supersedes)
        rulings.save(store, ruling)
    if as_json:
        echo_json(ruling.to_dict())
    else:
        click.echo(f"saved ruling {ruling.ruling_id}")
        click.echo(ruling.line())


@dispute.command(name="rulings")
@click.argument("game", required=False)
@click.option("--export", "export", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the rulings (and the branches, with their records) to this JSONL file.")
@db_option
@json_option
def rulings_(game: str | None, export: Path | None, db: Path | None, as_json: bool) -> None:
    """List the saved rulings (of one game or branch), or export them.

    The export holds every ruling and every branch (record included), so importing it into
    another store with `warren dispute import-rulings` keeps them and their links.

    Example: warren dispute rulings --export rulings.jsonl
    """
    from logstore.store import rulings

    with open_store(db, create=False) as store:
        if game is not None:
            store.game(game)
        if export is not None:
            n = rulings.export_file(store, export, game)
            click.echo(f"wrote {n} line(s) to {export}", err=True)
            return
        found = rulings.list_rulings(store, game)
        replaced = rulings.superseded(store)
    for r in found:
        if as_json:
            echo_json({**r.to_dict(), "superseded": r.ruling_id in replaced})
        else:
            click.echo(r.line() + ("\n    (superseded)" if r.ruling_id in replaced else ""))
    if not as_json:
        click.echo(f"{len(found)} ruling(s)", err=True)


@dispute.command(name="import-rulings")
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@db_option
@json_option
def import_rulings(path: Path, db: Path | None, as_json: bool) -> None:
    """Import rulings and branches exported by `warren dispute rulings --export`.

    Idempotent: what is already stored is kept. The games the rulings are about must be
    in the store (branches come with the file).

    Example: warren dispute import-rulings rulings.jsonl --db club.db
    """
    from logstore.store import rulings

    with open_store(db, create=True) as store:
        summary = rulings.import_file(store, path)
    if as_json:
        echo_json(summary.to_dict())
        return
    click.echo(f"imported {summary.rulings} ruling(s) ({summary.rulings_present} already stored), "
               f"{summary.branches} branch(es) ({summary.branches_present} already stored)")
    for problem in summary.problems:
        click.echo(f"  note: {problem}")
