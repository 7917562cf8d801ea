"""Look up a ruleset by its slug."""

from __future__ import annotations

from importlib import import_module

from engine.rules import WarrenError
from engine.ruleset import Ruleset

# slug -> module that defines ``RULESET``; imported on first use so that a command that
# needs one game does not pay for all of them.
KNOWN: dict[str, str] = {
    "bunnies": "engine.bunnies",
    "trust-no-bunny": "engine.trust_no_bunny",
}
_loaded: dict[str, Ruleset] = {}


class UnknownRuleset(WarrenError):
    """A slug no ruleset answers to."""


def get_ruleset(slug: str) -> Ruleset:
    """The ruleset for ``slug``; a clear error naming the known slugs otherwise."""
    ruleset = _loaded.get(slug)
    if ruleset is not None:
        return ruleset
    module = KNOWN.get(slug)
    if module is None:
        raise UnknownRuleset(f"unknown ruleset {slug!r} (known: {', '.join(sorted(KNOWN))})")
    ruleset = import_module(module).RULESET
    _loaded[slug] = ruleset
    return ruleset


def all_rulesets() -> list[Ruleset]:
    return [get_ruleset(slug) for slug in sorted(KNOWN)]
