"""Rulesets (and their boards and statistics) as plugins, found through entry points.

A game is a distribution that declares its ruleset in the entry-point group
``warren.rulesets``: the entry point's name is the slug, its value the object, e.g.::

    [project.entry-points."warren.rulesets"]
    my-game = "my_game:RULESET"

warren's own games are declared the same way in its pyproject.toml, so adding a game,
built in or from a third party, is one entry point and a ``pip install``: no list in
warren names them. Two more groups follow the same pattern for the layers above the
engine: ``warren.boards`` (slug -> the dashboard's board drawing) and ``warren.stats``
(slug -> a package whose ``*.sql`` files are the game's canned statistics).

Nothing here is imported by the record format: ``engine.record`` reads and seals records
without knowing any game.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from engine.rules import WarrenError
from engine.ruleset import Ruleset

RULESETS = "warren.rulesets"
BOARDS = "warren.boards"
STATS = "warren.stats"


class UnknownRuleset(WarrenError):
    """A slug no ruleset answers to."""


class PluginError(WarrenError):
    """An entry point that does not load or is not what its group promises."""


OWN = "warren"
"""The distribution that ships warren's own games, boards and statistics."""


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return str(name) if name else "an unknown distribution"


def _is_own(ep: EntryPoint) -> bool:
    return _distribution(ep).lower() == OWN


@cache
def plugins(group: str) -> dict[str, EntryPoint]:
    """Name -> entry point for one group, from every installed distribution.

    Cached for the process; :func:`refresh` forgets it (after installing a plugin). warren's
    own entry points always win: a plugin claiming one of their names is refused, named with
    its distribution (:func:`problems`), and the shipped one stays. Two plugins claiming a
    name warren does not ship are both refused: neither is chosen silently.
    """
    found: dict[str, EntryPoint] = {}
    contested: set[str] = set()
    for ep in entry_points(group=group):
        other = found.get(ep.name)
        if other is None or other.value == ep.value:
            if ep.name not in contested:
                found[ep.name] = ep
            continue
        if _is_own(other) and not _is_own(ep):
            _refuse(group, ep.name, f"plugin {ep.name!r} of {group} from {_distribution(ep)} ({ep.value}) "
                    f"is refused: {ep.name!r} is warren's own")
        elif _is_own(ep) and not _is_own(other):
            _refuse(group, ep.name, f"plugin {ep.name!r} of {group} from {_distribution(other)} "
                    f"({other.value}) is refused: {ep.name!r} is warren's own")
            found[ep.name] = ep
        else:
            _refuse(group, ep.name, f"two plugins claim {ep.name!r} in {group}: {other.value} "
                    f"({_distribution(other)}) and {ep.value} ({_distribution(ep)}); neither is used")
            contested.add(ep.name)
            del found[ep.name]
    return found


_PROBLEMS: dict[tuple[str, str], str] = {}


def _refuse(group: str, name: str, message: str) -> None:
    _PROBLEMS.setdefault((group, name), message)


def problems() -> list[str]:
    """What was wrong with the plugins found so far (refused, broken), one message each, in
    the order found: a command says them once and goes on without those plugins."""
    return list(_PROBLEMS.values())


@cache
def load_plugin(group: str, name: str) -> Any:
    """The object an entry point names (imported on first use, then kept)."""
    ep = plugins(group).get(name)
    if ep is None:
        raise PluginError(_PROBLEMS.get((group, name), f"no plugin {name!r} in {group}"))
    try:
        return ep.load()
    except (Exception, SystemExit) as exc:
        # A broken third-party plugin (one that raises, or calls sys.exit on import) must
        # neither look like warren's bug nor end the command: it is refused, with its cause.
        said = f"exit({exc.code})" if isinstance(exc, SystemExit) else f"{type(exc).__name__}: {exc}"
        message = f"plugin {name!r} of {group} from {_distribution(ep)} ({ep.value}) does not load: {said}"
        _refuse(group, name, message)
        raise PluginError(message) from None


def refresh() -> None:
    """Forget what was found and loaded (a plugin was installed or removed)."""
    plugins.cache_clear()
    load_plugin.cache_clear()
    _PROBLEMS.clear()


def known_slugs() -> list[str]:
    """Every ruleset's slug that an installed distribution declares (not refused)."""
    return sorted(plugins(RULESETS))


def get_ruleset(slug: str) -> Ruleset[Any, Any]:
    """The ruleset for ``slug``; a clear error naming the known slugs otherwise."""
    if slug not in plugins(RULESETS):
        raise UnknownRuleset(f"unknown ruleset {slug!r} (known: {', '.join(known_slugs())})")
    ruleset = load_plugin(RULESETS, slug)
    if not isinstance(ruleset, Ruleset):
        raise PluginError(f"plugin {slug!r} of {RULESETS} is not a Ruleset but {type(ruleset).__name__}")
    if ruleset.slug != slug:
        raise PluginError(f"plugin {slug!r} of {RULESETS} is a ruleset whose slug is {ruleset.slug!r}")
    return ruleset


def all_rulesets() -> list[Ruleset[Any, Any]]:
    """Every ruleset that loads; a broken plugin is left out (and named in :func:`problems`)."""
    out: list[Ruleset[Any, Any]] = []
    for slug in known_slugs():
        try:
            out.append(get_ruleset(slug))
        except PluginError as exc:
            _refuse(RULESETS, slug, str(exc))
    return out


def usable_slugs() -> list[str]:
    """The slugs of :func:`all_rulesets`: what a command offers to choose from."""
    return [rs.slug for rs in all_rulesets()]
