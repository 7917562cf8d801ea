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


@cache
def plugins(group: str) -> dict[str, EntryPoint]:
    """Name -> entry point for one group, from every installed distribution.

    Cached for the process; :func:`refresh` forgets it (after installing a plugin).
    Two distributions claiming one name is an error, never a silent choice.
    """
    found: dict[str, EntryPoint] = {}
    for ep in entry_points(group=group):
        other = found.get(ep.name)
        if other is not None and other.value != ep.value:
            raise PluginError(f"two plugins claim {ep.name!r} in {group}: {other.value} and {ep.value}")
        found[ep.name] = ep
    return found


@cache
def load_plugin(group: str, name: str) -> Any:
    """The object an entry point names (imported on first use, then kept)."""
    ep = plugins(group).get(name)
    if ep is None:
        raise PluginError(f"no plugin {name!r} in {group}")
    try:
        return ep.load()
    except Exception as exc:  # a broken third-party plugin must not look like warren's bug
        raise PluginError(f"plugin {name!r} of {group} ({ep.value}) does not load: {exc}") from exc


def refresh() -> None:
    """Forget what was found and loaded (a plugin was installed or removed)."""
    plugins.cache_clear()
    load_plugin.cache_clear()


def known_slugs() -> list[str]:
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
    return [get_ruleset(slug) for slug in known_slugs()]
