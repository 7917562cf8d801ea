"""``warren record`` (a game at the table, entered as it is played) and ``warren redact``
(a game as the table or one seat saw it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, echo_json, open_store, parse_options, parse_perspective

Echo = Callable[[str], None]
Ask = Callable[[str, list[str]], str]
"""Asks one question with completions, returns the answer (prompt_toolkit in a terminal)."""

HELP_TEXT = """\
Type an action in the game's notation (Tab completes), e.g. `lay 9C`, `draw`, `vote yes`.
Cards by their names: `play Sword on=Blue Sinister Bunny`, `play take a carrot`, `lay 9♣`
(a start of a name that only one card has will do; numbers and codes are read too).
Prefix the seat when several may act: `2: guard 3 4` or `Ann: ready`.
  ?                       list the actions the rules allow now, in words
  :undo [REASON]          strike the last entry (recorded as a correction)
  :correct SEQ ACTION -- REASON    replace an earlier entry
  :strike SEQ -- REASON   strike an earlier entry
  :show                   the position as the table sees it
  :quit                   stop (the game stays in the store; resume with --resume)"""


@click.command("record")
@click.argument("ruleset", required=False)
@click.option("--players", help="Names in seat order, comma-separated (asked if left out).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="A header option (repeatable).")
@click.option("--game-id", help="The game's id (default: RULESET-table-DATE-TIME).")
@click.option("--resume", "resume", metavar="GAME", help="Go on recording a game already in the store.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also keep a sealed record file, rewritten after every entry.")
@db_option
def record(ruleset: str | None, players: str | None, options: tuple[str, ...], game_id: str | None,
           resume: str | None, out: Path | None, db: Path | None) -> None:
    """Record a game at the table, event by event, as it is played.

    Asks for the ruleset, the players and the options, then for each event offers what
    the rules allow now, reads the game's short notation with completion, refuses an
    illegal entry with its rule (nothing is written) and stores every accepted event at
    once, sealed, so stopping or a crash loses nothing. What nobody at the table saw (the
    deal, the hands) is left unknown. Mistakes are put right with :undo and :correct,
    which add correction events; the record is never edited.

    Example: warren record bunnies --players Ann,Bo --out ann-bo.jsonl
    """
    from logstore.recording.entries import player_names
    from logstore.recording.session import TableSession, table_header

    ask = _terminal_ask()
    with open_store(db) as store:
        if resume is not None:
            session = TableSession(store, resume, out)
        else:
            from engine.registry import usable_slugs

            slug = ruleset or ask("ruleset: ", usable_slugs())
            names = player_names(players or ask("players (names in seat order, comma-separated): ", []))
            header = table_header(slug, names, parse_options(options), game_id)
            session = TableSession.start(store, header, out)
            click.echo(f"recording {header.game_id} ({slug}) into {store.path}"
                       + (f" and {out}" if out else ""))
        run_recorder(session, ask, click.echo)


def _terminal_ask() -> Ask:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter

    prompt: PromptSession[str] = PromptSession()

    def ask(question: str, choices: list[str]) -> str:
        completer = WordCompleter(choices, sentence=True) if choices else None
        return prompt.prompt(question, completer=completer)

    return ask


COMMANDS = (":undo", ":correct", ":strike", ":show", ":quit", "?")


def run_recorder(session: Any, ask: Ask, echo: Echo) -> None:
    """The recorder's loop, with the terminal left out (tests drive it with scripted answers)."""
    from logstore.recording.entries import read_entry, seen_fields
    from logstore.recording.session import Refusal

    echo(HELP_TEXT)
    _show(session, echo)
    while not session.state.over:
        template = session.chance_template()
        offers = session.offers()
        choices = [*sorted({o.notation for o in offers}), *COMMANDS]
        owed = session.pending.chance
        whose = (f"{session.names[owed.seat]}'s " if owed is not None and owed.seat is not None
                 and 0 <= owed.seat < len(session.names) else "")
        if template is not None and template.complete:
            question = (f"[{session.seq + 1}] {whose}{session.pending.chance.kind} (unseen by the table): "
                        "Enter records it as unknown, or type it as you saw it> ")
        elif template is not None:
            tag = type(template.event).__struct_config__.tag
            example = " ".join(f"{name}=..." for name in seen_fields(template))
            seen = ", ".join(seen_fields(template))
            question = f"[{session.seq + 1}] {whose}{tag}: the table saw {seen}: type `{tag} {example}`> "
        else:
            question = f"[{session.seq + 1}] {session.waiting_for()}> "
        try:
            line = ask(question, choices).strip()
        except (EOFError, KeyboardInterrupt):
            echo(_stopped(session))
            return
        if line == ":quit":
            echo(_stopped(session))
            return
        try:
            if _command(session, line, offers, echo):
                continue
            if not line and (template is None or not template.complete):
                continue
            verdict = session.enter(read_entry(session, line, template))
        except WarrenError as exc:
            echo(f"not recorded: {exc}")
            continue
        if isinstance(verdict, Refusal):
            because = f" ({verdict.text})" if verdict.text else ""
            echo(f"refused by {verdict.rule}: {verdict.message}{because}")
            continue
        echo(f"recorded {session.seq}: {session.ruleset.describe(verdict.event, session.names)}")
        for doubt in verdict.undetermined:
            needs = session.ruleset.say(str(doubt.data.get("needs", "")), session.names)
            echo(f"  undetermined [{doubt.rule}]: {needs}")
        if session.state.over:
            _show(session, echo)
    echo(session.waiting_for())


def _command(session: Any, line: str, offers: list[Any], echo: Echo) -> bool:
    """Handle a recorder command; False when ``line`` is an action."""
    if line in ("?", ":help"):
        for offer in offers[:60]:  # each in words, then what to type for it
            echo(f"  {session.ruleset.describe(offer.event, session.names)}: type `{offer.notation}`")
        if len(offers) > 60:
            echo(f"  ... and {len(offers) - 60} more (Tab completes them)")
        if not offers:
            echo("  no seat acts now: the table records chance (Enter, or type what you saw)")
        return True
    if line == ":show":
        _show(session, echo)
        return True
    if line.startswith(":undo"):
        reason = line[len(":undo"):].strip() or "undone at the table"
        done = session.undo(reason)
        echo(f"recorded {session.seq}: entry {done.event.corrects} struck ({reason})")
        return True
    if line.startswith((":correct", ":strike")):
        words, _, reason = line.partition("--")
        parts = words.split(maxsplit=2)
        if len(parts) < 2 or not parts[1].isdigit() or not reason.strip():
            raise WarrenError("usage: :correct SEQ ACTION -- REASON, or :strike SEQ -- REASON")
        target = int(parts[1])
        action = parts[2].strip() if parts[0] == ":correct" and len(parts) > 2 else None
        if parts[0] == ":correct" and action is None:
            raise WarrenError("usage: :correct SEQ ACTION -- REASON")
        session.correct(target, action, reason.strip())
        how = "corrected" if action else "struck"
        echo(f"recorded {session.seq}: entry {target} {how} ({reason.strip()})")
        return True
    return False


def _stopped(session: Any) -> str:
    """How to go on: the command to type, with the record file this session writes."""
    again = f"--resume {session.game_id}" + (f" --out {session.out}" if session.out is not None else "")
    return f"stopped; the game is stored and can be resumed with {again}"


def _show(session: Any, echo: Echo) -> None:
    view = session.ruleset.view(session.state, "spectator")
    echo(session.ruleset.render(view, session.names))
    echo(f"waiting for: {session.waiting_for()}")


@click.command("redact")
@click.argument("source")
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where to write the redacted record.")
@click.option("--as", "perspective", default="spectator", show_default=True,
              help="Whose knowledge: a seat number, or 'spectator' for the table.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary for scripts.")
@db_option
def redact(source: str, out: Path, perspective: str, as_json: bool, db: Path | None) -> None:
    """Write a game as the table (or one seat) saw it: a record made at the table.

    SOURCE is a record file or a stored game id. The result has source "recorded": every
    card the perspective did not see is "?", shuffles are unknown, secrets stay secret;
    it checks as a game played at the table does (warren check). An illegal game keeps
    its illegal event, so the copy is illegal at the same event by the same rule (a game
    the perspective could not judge so is refused). A game whose ruleset does not declare
    redaction (Killer Bunnies Quest, for now) is refused. --out - writes to standard
    output; a FIFO or a device is written to, never replaced.

    Example: warren redact bunnies-7-000003 --out table.jsonl --as spectator
    """
    from engine.record import event_to_dict, header_to_dict, seal
    from engine.redact import redact_game
    from engine.registry import get_ruleset
    from logstore.cli.games import load_source
    from logstore.recording.session import write_atomically

    record = load_source(source, db)
    seen = parse_perspective(perspective)
    ruleset = get_ruleset(record.header.ruleset)
    header, events = redact_game(ruleset, record.header, record.events, seen)
    write_atomically(out, b"".join(seal(header_to_dict(header), [event_to_dict(e) for e in events])))
    summary = {"game_id": header.game_id, "perspective": seen, "events": len(events), "out": str(out)}
    if as_json:
        echo_json(summary)
    else:
        click.echo(f"wrote {out}: {header.game_id} as {perspective} saw it ({len(events)} events)")
