"""Commands that look into one game: ``replay`` (a position as a seat knew it), ``suspects``
(who could the Werebunnies be?) and ``rules`` (a ruleset's rulebook)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, echo_json, json_option, open_store, parse_perspective

if TYPE_CHECKING:
    from engine.record import Record
    from engine.ruleset import Perspective
    from engine.trust_no_bunny.suspects import SuspectReport


def record_file(source: str) -> Record | None:
    """The record in the file ``source`` names; None if no file is there (a game id, then).
    Whatever is there but a record file (a folder, a FIFO, a device) is refused by what it
    is, as ``warren check`` does (logstore.store.reading.open_record)."""
    from engine.reader import read_record
    from logstore.store.reading import open_record

    path = Path(source)
    if path.is_dir():
        raise WarrenError(f"{path} is a folder: give one record file or a game id")
    if not os.path.lexists(path):
        if source.endswith(".jsonl"):
            raise WarrenError(f"{source}: no such file")
        return None
    try:
        with open_record(path) as stream:
            data = stream.read()
    except OSError as exc:
        raise WarrenError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return read_record(data, str(path))


def load_source(source: str, db: Path | None) -> Record:
    """A record from a file path, or else from the store by game id."""
    record = record_file(source)
    if record is not None:
        return record
    with open_store(db, create=False) as store:
        return store.record(source)


@click.command()
@click.argument("source")
@click.option("--to", "--at", "to_seq", type=int, default=None,
              help="Show the position after this seq (--at is the same, as in dispute).")
@click.option("--turn", type=int, default=None, help="Show the position at the start of this turn.")
@click.option("--as", "perspective", default="referee", show_default=True,
              help="Whose knowledge: a seat number, 'referee' (everything) or 'spectator'.")
@db_option
@json_option
def replay(source: str, to_seq: int | None, turn: int | None, perspective: str,
           db: Path | None, as_json: bool) -> None:
    """Replay a game (a file, or a game id in the store) to a position and show it.

    Shows the state as the chosen perspective knew it, and the last event with each effect
    and the rule that caused it.

    Example: warren replay bunnies-7-000003 --turn 14 --as 0
    """
    from engine.registry import get_ruleset
    from engine.replay import Replay, position_of
    from engine.ruleset import HIDDEN_RULE

    if to_seq is not None and turn is not None:
        raise WarrenError("give --to (or --at) or --turn, not both")
    record = load_source(source, db)
    rs = get_ruleset(record.header.ruleset).for_game(record.header)
    seen = parse_perspective(perspective)
    if isinstance(seen, int) and not 0 <= seen < len(record.header.players):
        raise WarrenError(f"--as {seen}: this game has seats 0..{len(record.header.players) - 1}")
    game = Replay(rs, record.header, record.events)
    if turn is not None:
        seq = game.seq_for_turn(turn)
    elif to_seq is not None:
        seq = to_seq
    else:
        seq = game.last_seq
    state = game.state_at(seq)
    view = rs.view(state, seen)
    # Like the view, the violation as the perspective may know it (its rule id always).
    violation = game.violation_seen_by(seen, at=seq)
    step = game.step(seq) if seq >= 1 else None
    # What the perspective saw of the last event and its effects (secret actions stay secret).
    seen_effects = [] if step is None else [
        shown for e in step.effects if (shown := rs.effect_view(e, seen)) is not None
    ]
    names = [p.name for p in record.header.players]
    if as_json:
        echo_json({
            "game_id": record.header.game_id,
            "ruleset": rs.slug,
            "position": {**_struct_dict(position_of(state)), "turn_of_seq": game.turn_of_seq(seq)},
            "perspective": seen,
            "view": view,
            "event": None if step is None else rs.event_view(step.event, seen),
            "effects": [
                {"rule": e.rule, "kind": e.kind, "data": e.data, "text": rs.rulebook[e.rule].text}
                for e in seen_effects
            ],
            "violation": None if violation is None else _struct_dict(violation),
            "outcome": None if rs.outcome(state) is None else _struct_dict(rs.outcome(state)),
        })
        return
    click.echo(f"{record.header.game_id} ({rs.title}), seen by {seen_by(seen, names)}")
    click.echo(rs.render(view, names))
    if step is not None:
        # The same words as the dashboard's timeline (Ruleset.describe).
        click.echo(f"\nlast event: seq {seq}: {rs.describe(step.event, names, seen, before=step.before)}")
        for effect in seen_effects:
            details = "; ".join(rs.describe_fact(k, v, names) for k, v in effect.data.items())
            click.echo(f"  -> {effect.kind.replace('_', ' ')} [{effect.rule}] {rs.rulebook[effect.rule].text}"
                       + (f" ({details})" if details else ""))
    outcome = rs.outcome(state)
    if outcome is not None:
        click.echo(rs.describe_outcome(outcome, names))
    if violation is not None and seq == game.last_seq:
        v = violation
        message = rs.say(v.message, names)
        said = message if v.rule == HIDDEN_RULE else f"{v.rule}: {message}"
        click.echo(click.style(f"\nnext event (seq {v.seq}) is illegal: {said}", fg="red"))


def seen_by(perspective: Perspective, names: list[str]) -> str:
    """``seat 0 (Ann)``, ``the referee``, ``a spectator``."""
    from engine.wording import seat_label

    if isinstance(perspective, int):
        return seat_label(perspective, names)
    return "the referee" if perspective == "referee" else "a spectator"


def _struct_dict(obj: object) -> dict[str, Any]:
    """A position, violation or outcome (a msgspec Struct or a dataclass) as JSON values."""
    import msgspec

    if isinstance(obj, msgspec.Struct):
        fields: dict[str, Any] = msgspec.to_builtins(obj)
        return fields
    from dataclasses import asdict, is_dataclass

    if is_dataclass(obj) and not isinstance(obj, type):
        return asdict(obj)
    raise TypeError(f"not a Struct or a dataclass instance: {obj!r}")


# -- suspects --------------------------------------------------------------------------
@click.command()
@click.argument("source")
@click.option("--to", "--at", "to_seq", type=int, default=None,
              help="The position after this seq (default: the end; --at is the same).")
@click.option("--turn", type=int, default=None, help="The position at the start of this turn.")
@click.option("--as", "perspective", default="spectator", show_default=True,
              help="Whose knowledge: a seat number, 'spectator' (public facts) or 'referee'.")
@click.option("--rounds", is_flag=True, help="The answer at the end of every round up to the position.")
@db_option
@json_option
def suspects(source: str, to_seq: int | None, turn: int | None, perspective: str, rounds: bool,
             db: Path | None, as_json: bool) -> None:
    """Who could the Werebunnies be? Consistent pairs and each player's chance, for one perspective.

    The model is uniform over the Werebunny pairs that the perspective's knowledge does not
    rule out (docs/rulings.md, trust-no-bunny); the deductions that ruled pairs out are listed.

    Example: warren suspects trust-no-bunny-7-000002 --as 3 --turn 2
    """
    from engine.registry import get_ruleset
    from engine.replay import Replay
    from engine.suspicion import suspects_of, suspicion_by_round

    if to_seq is not None and turn is not None:
        raise WarrenError("give --to (or --at) or --turn, not both")
    record = load_source(source, db)
    rs = get_ruleset(record.header.ruleset)
    ask = suspects_of(rs)
    seen = parse_perspective(perspective)
    names = [p.name for p in record.header.players]
    if isinstance(seen, int) and not 0 <= seen < len(names):
        raise WarrenError(f"--as {seen}: this game has seats 0..{len(names) - 1}")
    game = Replay(rs, record.header, record.events)
    seq = game.seq_for_turn(turn) if turn is not None else (game.last_seq if to_seq is None else to_seq)
    state = game.state_at(seq)
    # suspects_of gives the ruleset's own `suspects` untyped; Trust No Bunny's answers with this
    report: SuspectReport = ask(state, seen, names)
    by_round = suspicion_by_round(game, seen, upto=seq) if rounds else []
    if as_json:
        echo_json({
            "game_id": record.header.game_id, "seq": seq, **report.to_dict(),
            "probabilities": {str(k): v for k, v in report.probabilities.items()},
            "rounds": [{"round": r.round, "seq": r.seq, "pairs": r.pairs,
                        "probabilities": {str(k): v for k, v in r.probabilities.items()}}
                       for r in by_round],
        })
        return
    click.echo(f"{record.header.game_id} at seq {seq} (round {state.round}), seen by {seen_by(seen, names)}")
    click.echo(f"model: {report.model}; {len(report.pairs)} consistent pair(s)")
    width = max(len(n) for n in names)
    for s_, p in sorted(report.probabilities.items(), key=lambda kv: -kv[1]):
        bar = "#" * round(p * 40)
        click.echo(f"  {names[s_]:<{width}} {p:6.1%} {bar}")
    if len(report.pairs) <= 12:
        click.echo("pairs: " + "; ".join(f"{names[a]} and {names[b]}" for a, b in report.pairs))
    for line in report.deductions:
        click.echo(f"  - {line}")
    for r in by_round:
        probs = ", ".join(f"{names[k]} {v:.0%}" for k, v in sorted(r.probabilities.items()))
        click.echo(f"round {r.round} (event {r.seq}, {r.pairs} pairs): {probs}")


# -- rules -----------------------------------------------------------------------------
@click.command()
@click.argument("ruleset")
@json_option
def rules(ruleset: str, as_json: bool) -> None:
    """List a ruleset's rules: id, paraphrase and rulebook section.

    Example: warren rules bunnies
    """
    from engine.registry import get_ruleset

    rs = get_ruleset(ruleset)
    for rule in rs.rulebook.values():
        if as_json:
            echo_json({"id": rule.id, "text": rule.text, "source": rule.source})
        else:
            click.echo(f"{rule.id:<14} {rule.text}\n{'':<14} ({rule.source})")
