"""``warren analyse``: who was ahead in a game, when it turned, and what a move was worth."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from engine.rules import WarrenError
from logstore.cli.common import db_option, echo_json, json_option, open_store, progress

if TYPE_CHECKING:
    from engine.analysis.timeline import Analysis
    from engine.record import Record
    from engine.ruleset import Perspective


def perspective_named(text: str, names: list[str] | None) -> Perspective:
    """``--as``: a seat number, a player's name, ``table`` (or ``spectator``) or ``referee``;
    without ``names`` (every game of a store) a seat by its number only."""
    lowered = text.strip().lower()
    if lowered == "referee":
        return "referee"
    if lowered in ("table", "spectator"):
        return "spectator"
    if names is None:
        if lowered.isdigit():
            return int(lowered)
        raise WarrenError("--all takes --as referee, table or a seat number (names differ from game to game)")
    if lowered.isdigit():
        seat = int(lowered)
        if not 0 <= seat < len(names):
            raise WarrenError(f"--as {seat}: this game has seats 0..{len(names) - 1}")
        return seat
    matches = [i for i, name in enumerate(names) if name.lower() == lowered]
    if len(matches) == 1:
        return matches[0]
    said = ", ".join(names)
    raise WarrenError(f"--as {text!r}: no player of this game is called that (the players: {said}; "
                      "or give a seat number, 'table' or 'referee')")


@click.command()
@click.argument("game", required=False)
@click.option("--as", "perspective", default="referee", show_default=True,
              help="Whose knowledge: a player's name or seat number, 'table' (what everybody saw) "
                   "or 'referee' (everything the record holds).")
@click.option("--turn", type=int, default=None, help="Only the position at the start of this turn.")
@click.option("--at", "at_seq", type=int, default=None, help="Only the position after this event.")
@click.option("--worlds", type=click.IntRange(1, 100_000), default=None,
              help="Worlds sampled at each position (default 100).")
@click.option("--rollouts", type=click.IntRange(1, 1000), default=None,
              help="Plays from each world (default 4).")
@click.option("--seed", type=int, default=0, show_default=True, help="The same seed gives the same figures.")
@click.option("--bot", default="greedy", show_default=True,
              help="The bot that plays every seat in a rollout.")
@click.option("--all", "every", is_flag=True,
              help="Analyse every game of the store not analysed yet with these settings "
                   "(resumable: stop it and start it again).")
@click.option("--ruleset", default=None, help="With --all: only games of this ruleset; with --cards: the "
              "ruleset whose cards to show.")
@click.option("--cards", is_flag=True,
              help="What each card did in the store's analysed games (the referee's): the mean change of its "
                   "player's chance, with its 95% interval.")
@click.option("--fresh", is_flag=True, help="Work it out again even if the store keeps an answer.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None,
              help="Processes in all (default: one per core).")
@db_option
@json_option
def analyse(game: str | None, perspective: str, turn: int | None, at_seq: int | None, worlds: int | None,
            rollouts: int | None, seed: int, bot: str, every: bool, ruleset: str | None, cards: bool,
            fresh: bool, jobs: int | None, db: Path | None, as_json: bool) -> None:
    """Each player's chance to win over a game, its turning points, and what a move was worth.

    From the chosen player's knowledge (or the table's, or the referee's), warren deals the
    unseen cards anew many times, plays each deal out with simulation bots, and counts who
    wins. It shows every player's chance at the start of each turn with its 95% interval,
    the turns where a chance fell by 5 points or more (luck and decisions apart), the
    better move at a costly decision, and what an illegal event changed. A game of the
    store is analysed once per question; asking again answers at once (docs/analysis.md).

    With --cards, what each card did over the store's analysed games: the mean change of its
    player's chance across the decisions that played it, beside the plain win rate of those
    who played it (docs/analysis.md says what each carries).

    Example: warren analyse kinderbunnies-7-000003 --as Ann --seed 1
    """
    from engine.analysis.chances import ROLLOUTS, WORLDS
    from engine.analysis.timeline import Settings
    from engine.bots import BOTS

    if cards:
        if game is not None or every or ruleset is None:
            raise WarrenError("--cards shows one ruleset's cards over the store: give --ruleset, "
                              "and no GAME or --all")
        _cards(db, ruleset, as_json)
        return
    settings = Settings(worlds=worlds or WORLDS, rollouts=rollouts or ROLLOUTS, seed=seed, bot=bot)
    if bot not in BOTS:
        raise WarrenError(f"--bot {bot!r}: the bots are {', '.join(BOTS)}")
    if every:
        if game is not None or turn is not None or at_seq is not None:
            raise WarrenError("--all analyses whole games of the store: give no GAME, --turn or --at")
        _analyse_all(db, perspective, settings, ruleset, fresh, jobs, as_json)
        return
    if game is None:
        raise WarrenError("give a game (a record file or a game id of the store), or --all")
    if turn is not None and at_seq is not None:
        raise WarrenError("give --turn or --at, not both")
    _analyse_one(game, db, perspective, turn, at_seq, settings, fresh, jobs, as_json)


def _analyse_one(game: str, db: Path | None, perspective: str, turn: int | None, at_seq: int | None,
                 settings: Any, fresh: bool, jobs: int | None, as_json: bool) -> None:
    from logstore.cli.games import record_file
    from logstore.store import analyses

    record = record_file(game)
    if record is not None:
        question = _question(record, perspective, turn, at_seq, settings)
        with _bar() as (advance, size):
            result = analyses.work_out(record, question, jobs=jobs, progress=advance, total=size)
        kept = False
    else:
        with open_store(db, create=False) as store:
            record = store.record(game)
            question = _question(record, perspective, turn, at_seq, settings)
            with _bar() as (advance, size):
                result, kept = analyses.answer(store.conn, record, question, fresh=fresh, jobs=jobs,
                                               progress=advance, total=size)
    if as_json:
        echo_json({**result.to_dict(), "kept": kept})
        return
    for line in said(result, kept):
        click.echo(line)


def _question(record: Record, perspective: str, turn: int | None, at_seq: int | None, settings: Any) -> Any:
    from engine.registry import get_ruleset
    from engine.replay import Replay
    from logstore.store.analyses import Question

    names = [p.name for p in record.header.players]
    seen = perspective_named(perspective, names)
    at = at_seq
    if turn is not None:
        rs = get_ruleset(record.header.ruleset).for_game(record.header)
        at = Replay(rs, record.header, record.events).seq_for_turn(turn)
    return Question(seen, settings, at)


class _bar:
    """A progress bar whose size grows as the analysis plans more positions."""

    def __enter__(self) -> tuple[Any, Any]:
        import sys

        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from logstore.cli.common import err_console

        self.bar = None
        if not sys.stderr.isatty():
            return (lambda n=1: None), (lambda n: None)
        self.bar = Progress(TextColumn("positions"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            transient=True, console=err_console())
        self.bar.__enter__()
        task = self.bar.add_task("positions", total=None)
        bar = self.bar

        def advance(n: int = 1) -> None:
            bar.advance(task, n)

        def size(total: int) -> None:
            bar.update(task, total=total)

        return advance, size

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


def _analyse_all(db: Path | None, perspective: str, settings: Any, ruleset: str | None, fresh: bool,
                 jobs: int | None, as_json: bool) -> None:
    from logstore.store import analyses

    with open_store(db, create=False) as store:
        rows = store.games(ruleset)
        done = set() if fresh else analyses.kept_games(store.conn, analyses.Question(
            perspective_named(perspective, None), settings, None))
        todo = [r.game_id for r in rows if r.game_id not in done]
        worked = kept = failed = 0
        problems: list[str] = []
        with progress(len(rows), "games") as advance:
            advance(len(rows) - len(todo))
            for game_id in todo:
                record = store.record(game_id)
                try:
                    question = _question(record, perspective, None, None, settings)
                    _result, was_kept = analyses.answer(store.conn, record, question, fresh=fresh, jobs=jobs)
                except WarrenError as exc:
                    failed += 1
                    problems.append(f"{game_id}: {exc}")
                else:
                    kept += was_kept
                    worked += not was_kept
                advance(1)
    summary = {"games": len(rows), "analysed": worked, "kept_already": len(rows) - len(todo) + kept,
               "not_analysed": failed, "problems": problems}
    if as_json:
        echo_json(summary)
        return
    click.echo(f"{len(rows)} games: {worked} analysed now, {summary['kept_already']} kept already"
               + (f", {failed} could not be analysed:" if failed else ""))
    for problem in problems:
        click.echo(f"  {problem}")


def _cards(db: Path | None, ruleset: str, as_json: bool) -> None:
    from engine.registry import get_ruleset
    from logstore.store.analyses import card_impact

    title = get_ruleset(ruleset).title
    with open_store(db, create=False) as store:
        found, games = card_impact(store, ruleset)
    if as_json:
        echo_json({"ruleset": ruleset, "games": games, "cards": [c.to_dict() for c in found]})
        return
    if not games:
        click.echo(f"no {title} game of the store is analysed yet: warren analyse --all --ruleset {ruleset}")
        return
    click.echo(f"{title}: what each card did in {games} analysed game(s) (points of its player's chance, "
               "95% interval; win rate of those who played it)")
    width = max(len(c.card) for c in found) if found else 4
    for c in found:
        interval = f"({c.interval[0]:+.1f} to {c.interval[1]:+.1f})" if c.interval else "(too few)"
        click.echo(f"  {c.card:{width}}  {c.points:+6.1f} {interval:18}  n={c.plays:<5} won {c.win_rate:.0%}")


def _pts(value: float) -> str:
    return f"{value:.0f}"


def _signed(value: float) -> str:
    return f"{value:+.0f}"


def said(result: Analysis, kept: bool) -> list[str]:
    """The analysis in words: players by name, cards by name, points as whole numbers."""
    from engine.wording import seat_label

    names = result.players
    s = result.settings
    who = {"referee": "the referee", "spectator": "the table"}.get(str(result.perspective)) \
        or seat_label(int(result.perspective), names)
    worlds = f"{s.worlds} world{'s' if s.worlds != 1 else ''}"
    plays = f"{s.rollouts} rollout{'s' if s.rollouts != 1 else ''}"
    lines = [f"{result.game_id}, as {who} knew it: {worlds} x {plays} per position, {s.bot} bots, "
             f"seed {s.seed}" + (" (kept from an earlier run)" if kept else "")]
    if who != "the referee":
        lines.append(f"  (only what {who} could know is used: the cards {who} did not see are dealt anew)")
    shown = [p for p in result.timeline if p.get("turn_start", True)]
    lines.append("")
    lines.append("Chance to win, in points (95% interval):")
    width = max(12, *(len(n) + 11 for n in names))
    lines.append("  " + "where".ljust(22) + "".join(n.ljust(width) for n in names))
    for point in shown:
        c = point["chances"]
        where = "start" if point["seq"] == 0 else "end" if point is result.timeline[-1] \
            else f"turn {point['turn']} (event {point['seq']})"
        cells = [f"{_pts(c['points'][i])} ({_pts(c['low'][i])}-{_pts(c['high'][i])})"
                 for i in range(len(names))]
        lines.append("  " + where.ljust(22) + "".join(x.ljust(width) for x in cells))
    if result.turning_points:
        lines.append("")
        lines.append("Turning points:")
    for tp in result.turning_points:
        seat = tp["seat"]
        name = names[seat]
        where = "the set-up" if tp["turn"] == 0 else f"turn {tp['turn']}"
        article = "an" if tp["label"][0] in "aeiou" else "a"
        lines.append(f"  {where}: {name} fell {_pts(tp['drop'])} points, {article} {tp['label']} "
                     f"(luck {_signed(tp['luck'])}, {name}'s decisions {_signed(tp['decisions'])}, "
                     f"the others' {_signed(tp['others'])})")
        for step in tp["steps"]:
            if abs(step["delta"]) >= 5:
                part = "luck" if step["actor"] is None else ("decision" if step["luck"] == 0 else
                                                             f"decision {_signed(step['decision'])}, "
                                                             f"luck {_signed(step['luck'])}")
                lines.append(f"    event {step['seq']}: {step['event']}: {_signed(step['delta'])} "
                             f"for {name} ({part})")
        best = tp.get("best")
        if best and best.get("best"):
            lines.append(f"    {best['played']} ({_signed(best['played_delta'])} points for {name}); "
                         f"{best['best']} was best ({_signed(best['best_delta'])})")
    if result.totals:
        lines.append("")
        lines.append("Over the whole game (points of each player's chance):")
        for total in result.totals:
            lines.append(f"  {names[total['seat']]}: luck {_signed(total['luck'])}, own decisions "
                         f"{_signed(total['decisions'])}, the others' decisions {_signed(total['others'])}")
    illegal = result.illegal
    if illegal:
        lines.append("")
        actor = seat_label(illegal["actor"], names) if illegal["actor"] is not None else "chance"
        lines.append(f"Event {illegal['seq']} is illegal ({illegal['rule']}): {illegal['message']}")
        c = illegal["before"]
        lines.append("  before it: " + ", ".join(f"{n} {_pts(c['points'][i])} ({_pts(c['low'][i])}-"
                                                 f"{_pts(c['high'][i])})" for i, n in enumerate(names)))
        lines.append(f"  remedy: {illegal['remedy']}")
        if illegal.get("alternatives"):
            lines.append(f"  {actor}'s legal moves there, by what they would have done to {actor}'s chance:")
            for option in illegal["alternatives"]:
                lines.append(f"    {option['action']}: {_signed(option['delta'])}")
    return lines
