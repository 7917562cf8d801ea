"""``warren record`` (a game at the table, entered as it is played) and ``warren redact``
(a game as the table or one seat saw it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, echo_json, open_store, parse_options, parse_perspective
from logstore.store import StaleSeq

Echo = Callable[[str], None]
Ask = Callable[[str, list[str]], str]
"""Asks one question with completions, returns the answer (prompt_toolkit in a terminal)."""

HELP_TEXT = """\
Type an action in the game's notation (Tab completes), e.g. `lay 9C`, `draw`, `vote yes`.
Cards by their names: `play Sword on=Blue Sinister Bunny`, `play take a carrot`, `lay 9♣`
(a start of a name that only one card has will do; numbers and codes are read too).
Or just the start of the one action you mean: `p` for pickup, `9chs` for 9♣ 9♥ 9♠,
`vio` or `vpb` for Violet Perky Bunny; `?` shows the shortest for each.
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
@click.option("--defaults", is_flag=True,
              help="Take every option not given with --option at its default, without asking.")
@click.option("--game-id", help="The game's id (default: RULESET-table-DATE-TIME).")
@click.option("--resume", "resume", metavar="GAME", help="Go on recording a game already in the store.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also keep a sealed record file, rewritten after every entry.")
@db_option
def record(ruleset: str | None, players: str | None, options: tuple[str, ...], defaults: bool,
           game_id: str | None, resume: str | None, out: Path | None, db: Path | None) -> None:
    """Record a game at the table, event by event, as it is played.

    Asks for the ruleset, the players and each of the game's options (Enter keeps the
    default shown; --option KEY=VALUE answers one beforehand, --defaults all), then for each event offers what
    the rules allow now, reads the game's short notation with completion, refuses an
    illegal entry with its rule (nothing is written) and stores every accepted event at
    once, sealed, so stopping or a crash loses nothing. What nobody at the table saw (the
    deal, the hands) is left unknown. Mistakes are put right with :undo and :correct,
    which add correction events; the record is never edited.

    Killer Bunnies Quest is recorded as the table sees it: the first player (`setup
    first=Dee`), then each card off a pile as a draw (Enter for a card another player drew,
    the card's name or its start for one you saw: `Free A`), every run card turned up by
    name (`ct` for Carrot Thief), the Magic Carrot's card when the game ends.

    Example: warren record bunnies --players Ann,Bo --out ann-bo.jsonl

    Example: warren record killer-bunnies-quest --players Ann,Bo,Cy,Dee --defaults
    """
    from logstore.recording.entries import player_names
    from logstore.recording.session import TableSession, table_header

    ask = _terminal_ask()
    with open_store(db) as store:
        if resume is not None:
            from logstore.store.recordings import remembered

            # the record file this game was being written to, unless another is named now
            session = TableSession(store, resume, out or remembered(store, resume))
            if session.out is not None:
                click.echo(f"resuming {resume}, also written to {session.out}")
        else:
            from engine.registry import usable_slugs

            slug = ruleset or ask("ruleset: ", usable_slugs())
            names = player_names(players or ask("players (names in seat order, comma-separated): ", []))
            given = parse_options(options)
            if not defaults:
                given = ask_options(slug, given, names, ask, click.echo)
            header = table_header(slug, names, given, game_id)
            session = TableSession.start(store, header, out)
            click.echo(f"recording {header.game_id} ({slug}) into {store.path}"
                       + (f" and {out}" if out else ""))
        run_recorder(session, ask, click.echo)


def _option_words(value: Any, seats: bool, names: list[str]) -> str:
    if seats and isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return str(value)


def _read_option(question: Any, answer: str, seats: bool, names: list[str]) -> Any:
    """An answer to an option's question, as the header writes it (WarrenError if it is
    not one of the values the option takes)."""
    from engine.options import Question

    assert isinstance(question, Question)
    text = answer.strip()
    if seats:
        lowered = [n.lower() for n in names]
        if text.lower() in lowered:
            return lowered.index(text.lower())
        if text.isdigit() and int(text) < len(names):
            return int(text)
        raise WarrenError(f"{text!r} is not a player: say one of {', '.join(names)}")
    if question.listed:
        values = [v.strip() for v in text.split(",") if v.strip()]
        bad = [v for v in values if question.allowed and v not in question.allowed]
        if bad:
            raise WarrenError(f"{', '.join(bad)}: not one of {', '.join(map(str, question.allowed))}")
        return values
    if question.allowed:
        if question.allowed == (True, False):
            said = {"yes": True, "y": True, "true": True, "no": False, "n": False, "false": False}
            if text.lower() in said:
                return said[text.lower()]
            raise WarrenError(f"{text!r}: answer yes or no")
        matches = [v for v in question.allowed if str(v).lower().startswith(text.lower())]
        exact = [v for v in question.allowed if str(v).lower() == text.lower()]
        if exact or len(matches) == 1:
            return (exact or matches)[0]
        raise WarrenError(f"{text!r}: say one of {', '.join(map(str, question.allowed))}")
    try:
        number = int(text)
    except ValueError:
        within = f" ({question.bounds})" if question.bounds else ""
        raise WarrenError(f"{text!r} is not a whole number{within}") from None
    if question.bounds:
        low, high = (int(x) for x in question.bounds.split(".."))
        if not low <= number <= high:
            raise WarrenError(f"{number} is out of bounds: {question.bounds}")
    return number


def ask_options(slug: str, given: dict[str, Any], names: list[str], ask: Ask, echo: Echo) -> dict[str, Any]:
    """Ask each of the ruleset's options not given already (engine.options.questions): the
    default is shown and Enter keeps it; a wrong answer is said and asked again."""
    from engine.options import questions
    from engine.registry import get_ruleset

    ruleset = get_ruleset(slug)
    chosen = dict(given)
    for question in questions(ruleset.options_type, ruleset.record_options({})):
        if question.name in chosen:
            continue
        seats = question.name in ruleset.seat_options
        if seats:
            allowed = " or ".join(names)
        elif question.allowed == (True, False):
            allowed = "yes or no"
        else:
            allowed = ", ".join(map(str, question.allowed)) or question.bounds
        many = " (several, comma-separated)" if question.listed else ""
        prompt = (f"{question.name.replace('_', ' ')}{many} [{_option_words(question.default, seats, names)}]"
                  + (f" ({allowed})" if allowed else "") + ": ")
        choices = names if seats else [_option_words(v, False, names) for v in question.allowed]
        explained = ruleset.option_help.get(question.name)
        if explained:
            echo(f"{question.name.replace('_', ' ')}: {explained}")
        while True:
            answer = ask(prompt, choices).strip()
            if not answer:
                break  # the default: left out of the header, as the rules read it
            try:
                chosen[question.name] = _read_option(question, answer, seats, names)
                break
            except WarrenError as exc:
                echo(f"not taken: {exc}")
    return chosen


def entry_completer(choices: Any) -> Any:
    """Tab asks the recorder's own reader (logstore.recording.completion): each completion
    a whole line Enter records, with the action in words beside it (a prompt_toolkit
    completer, made here so that the CLI imports prompt_toolkit only when it prompts)."""
    from collections.abc import Iterator

    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document

    class EntryCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            typed = document.text_before_cursor
            for found in choices.complete(typed):
                yield Completion(found.line, start_position=-len(typed), display_meta=found.said)

    return EntryCompleter()


def _terminal_ask() -> Ask:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import Completer, WordCompleter

    # Tab, not every key: the first Tab inserts what every completion shares (``la`` gives
    # ``lay ``), the next lists them; a menu open while typing would take the first instead.
    prompt: PromptSession[str] = PromptSession(complete_while_typing=False)

    def ask(question: str, choices: list[str]) -> str:
        completer: Completer | None = None
        if hasattr(choices, "complete"):
            completer = entry_completer(choices)
        elif choices:
            completer = WordCompleter(choices, sentence=True, ignore_case=True)
        return prompt.prompt(question, completer=completer)

    return ask


def run_recorder(session: Any, ask: Ask, echo: Echo) -> None:
    """The recorder's loop, with the terminal left out (tests drive it with scripted answers)."""
    from logstore.recording.completion import EntryChoices
    from logstore.recording.entries import read_entry, seen_fields
    from logstore.recording.session import ONE_UNSEEN, Refusal, deal_said, dealt_unseen

    echo(HELP_TEXT)
    _show(session, echo)
    while not session.state.over:
        _caught_up(session, echo)
        template = session.chance_template()
        offers = session.offers()
        choices = EntryChoices(session, offers)
        owed = session.pending.chance
        whose = (f"{session.names[owed.seat]}'s " if owed is not None and owed.seat is not None
                 and 0 <= owed.seat < len(session.names) else "")
        # a deal one card at a time (to a seat each): Enter enters all of it
        dealing = dealt_unseen(owed, template)
        if dealing:
            to = session.who(owed.seat if owed else None)
            question = (f"[{session.seq + 1}] the deal, unseen: Enter for all of it, `{ONE_UNSEEN}` for "
                        f"{to}'s card alone, or type it> ")
        elif template is not None and template.complete:
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
            if _command(session, line, offers, echo, ask):
                continue
            if not line and (template is None or not template.complete):
                continue
            if line == ONE_UNSEEN and template is not None and template.complete:
                line = ""  # this one card unseen, as Enter records any other chance
            elif not line and dealing:
                dealt = session.enter_unseen_deal()
                first = session.seq - len(dealt) + 1
                echo(f"recorded {first}-{session.seq}: {deal_said(session, dealt)}")
                continue
            verdict = session.enter(read_entry(session, line, template))
        except StaleSeq:
            # Another device recorded meanwhile: show what it recorded, then go on from there.
            _caught_up(session, echo)
            echo(f"not recorded: the game had moved on; type {line!r} again if it still stands")
            continue
        except WarrenError as exc:
            echo(f"not recorded: {exc}")
            continue
        if isinstance(verdict, Refusal):
            because = f" ({verdict.text})" if verdict.text else ""
            echo(f"refused by {verdict.rule}: {verdict.message}{because}")
            continue
        said = verdict.said or session.ruleset.describe(verdict.event, session.names)
        echo(f"recorded {session.seq}: {said}")
        for doubt in verdict.undetermined:
            needs = session.ruleset.say(str(doubt.data.get("needs", "")), session.names)
            echo(f"  undetermined [{doubt.rule}]: {needs}")
        if session.state.over:
            _show(session, echo)
    echo(session.waiting_for())


def _correct(session: Any, target: int, action: str | None, reason: str, echo: Echo,
             ask: Ask | None = None) -> None:
    """Correct entry ``target``; when that makes a later entry illegal, offer to correct or
    strike that one too, in the same batch (nothing is written until the batch stands)."""
    from logstore.recording.session import BreaksLater

    also: list[Any] = []
    while True:
        try:
            session.correct(target, action, reason, also=also)
            break
        except BreaksLater as broken:
            echo(f"with that correction entry {broken.seq} would break {broken.rule}: {broken.broken}")
            if ask is None:
                raise WarrenError("nothing was corrected: correct or strike that entry too") from None
            answer = ask(f"entry {broken.seq}: type what it should be, :strike, or Enter to give up> ",
                         []).strip()
            if not answer:
                echo("nothing was corrected")
                return
            later = None if answer == ":strike" else answer
            assert broken.seq is not None
            also.append(session.correction(broken.seq, later, reason, before=also))
    first = session.seq - len(also)  # the seq of the batch's first correction
    done = [(target, action is None), *((c.corrects, c.event is None) for c in also)]
    for n, (seq, struck) in enumerate(done):
        echo(f"recorded {first + n}: entry {seq} {'struck' if struck else 'corrected'} ({reason})")


def _command(session: Any, line: str, offers: list[Any], echo: Echo, ask: Ask | None = None) -> bool:
    """Handle a recorder command; False when ``line`` is an action."""
    if line in ("?", ":help"):
        from logstore.recording.shorthand import Entries

        entries = Entries(session, offers)  # copies of one card are one choice
        choices = list(entries.choices.values())
        for offer in choices[:60]:  # each in words, then the fewest keys that say it
            short = entries.shortest(offer)
            also = f" (or `{offer.notation}`)" if short != offer.notation else ""
            echo(f"  {session.ruleset.describe(offer.event, session.names)}: type `{short}`{also}")
        if len(choices) > 60:
            echo(f"  ... and {len(choices) - 60} more (Tab completes them)")
        if not offers:
            echo("  no seat acts now: the table records chance (Enter, or type what you saw)")
        return True
    if line == ":show":
        _caught_up(session, echo)
        _show(session, echo)
        return True
    if line.startswith(":undo"):
        _caught_up(session, echo)  # undo the game's last entry, not this device's idea of it
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
        _correct(session, target, action, reason.strip(), echo, ask)
        return True
    return False


def _caught_up(session: Any, echo: Echo) -> None:
    """Say what another device recorded since this session last looked, and take it in."""
    missed = session.catch_up()
    if missed:
        echo(f"meanwhile, {len(missed)} event(s) were recorded on another device:")
        for event in missed:
            echo(f"  {event.seq}: {session.ruleset.describe(event, session.names)}")


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
    the perspective could not judge so is refused). A Killer Bunnies Quest game is written
    in its table form: each card drawn is an event, "?" where the perspective did not see
    it. A game whose ruleset does not declare redaction (a plugin's) is refused. --out -
    writes to standard output; a FIFO or a device is written to, never replaced.

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
