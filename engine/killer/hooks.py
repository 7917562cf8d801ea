"""Named hooks: the cards that fit no primitive of the effect vocabulary.

A card whose effect is ``{ do = "hook", name = "black_cat", params = {...} }`` is played by
the function its game registered under ``black_cat``. Hooks are few and named, so a reader
can list them (``Catalogue.hooks()``), and a game refuses to load a catalogue that uses a
hook it does not implement (``missing``). The function's signature is the game's own (its
state and event types), so the registry is generic in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

F = TypeVar("F", bound=Callable[..., object])


class HookRegistry(Generic[F]):
    """The hooks one game implements, by name."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.hooks: dict[str, F] = {}

    def register(self, name: str) -> Callable[[F], F]:
        """Decorator: ``@HOOKS.register("black_cat")``."""
        def wrap(fn: F) -> F:
            if name in self.hooks:
                raise ValueError(f"{self.game}: hook {name!r} is registered twice")
            self.hooks[name] = fn
            return fn
        return wrap

    def get(self, name: str) -> F:
        try:
            return self.hooks[name]
        except KeyError:
            raise KeyError(f"{self.game} implements no hook {name!r}") from None

    def missing(self, names: Iterable[str]) -> list[str]:
        """The hook names a catalogue uses that this game does not implement."""
        return sorted(set(names) - set(self.hooks))
