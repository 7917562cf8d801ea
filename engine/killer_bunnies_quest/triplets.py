"""Bunny Triplets: three of a player's bunnies in the circle sharing a colour or a kind.

A player with a triplet may play a second card in his turn (Quest §Bunny Triplets); more
triplets never give more than two cards. A wild bunny (Free Agent) takes whatever colour
and kind help, except the colours it can never be, and may change as play goes on, so a
triplet exists whenever *some* choice of identities makes three alike. Only bunnies in the
circle count: an abducted bunny or one in hand does not.

The check is re-made whenever it matters: with the first card of the turn (a triplet made by
it allows the second card), and again after the replacement draw before the second card
(a Terrible Misfortune drawn in between may break it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.killer.catalogue.schema import BunnyFace

MAX_CARDS_PER_TURN = 2
"""However many triplets a player has, he plays at most two cards a turn."""


def triplets(faces: Iterable[BunnyFace], colours: Sequence[str]) -> list[str]:
    """Every way the bunnies make a triplet: ``colour:blue``, ``kind:timid``...

    ``colours`` are the deck set's colours (the ones a wild bunny may take)."""
    plain_colours: Counter[str] = Counter()
    plain_kinds: Counter[str] = Counter()
    wild: list[BunnyFace] = []
    for face in faces:
        if face.wild:
            wild.append(face)
            continue
        if face.colour is not None:
            plain_colours[face.colour] += 1
        if face.kind is not None:
            plain_kinds[face.kind] += 1
    found: list[str] = []
    for colour in sorted(set(colours) | set(plain_colours)):
        helpers = sum(1 for w in wild if colour not in w.not_colours)
        if plain_colours[colour] + helpers >= 3:
            found.append(f"colour:{colour}")
    kinds = set(plain_kinds)
    for kind in sorted(kinds):
        if plain_kinds[kind] + len(wild) >= 3:
            found.append(f"kind:{kind}")
    if len(wild) >= 3 and not kinds:
        found.append("kind:any")
    return found


def has_triplet(faces: Iterable[BunnyFace], colours: Sequence[str]) -> bool:
    """Whether :func:`triplets` finds any (the hot path: counted without naming them)."""
    faces = faces if isinstance(faces, list) else list(faces)
    if len(faces) < 3:
        return False
    colour_count: dict[str, int] = {}
    kind_count: dict[str, int] = {}
    wild = 0
    for face in faces:
        if face.wild:
            wild += 1
            continue
        if face.colour is not None:
            colour_count[face.colour] = colour_count.get(face.colour, 0) + 1
        if face.kind is not None:
            kind_count[face.kind] = kind_count.get(face.kind, 0) + 1
    if not wild:
        return any(v >= 3 for v in colour_count.values()) or \
            any(v >= 3 for v in kind_count.values())
    return bool(triplets(faces, colours))


def cards_allowed(faces: Iterable[BunnyFace], colours: Sequence[str]) -> int:
    """Cards a player may play this turn: two with a triplet, one without."""
    return MAX_CARDS_PER_TURN if has_triplet(faces, colours) else 1
