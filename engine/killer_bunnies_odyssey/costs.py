"""Card costs paid with saved Resource cards (Killer Bunnies Odyssey).

A card's cost is a number of hexagons per Resource colour; a White hexagon can be paid with
a saved Resource of any colour (Odyssey §Card Conditions: two Blue and three White need two
Technology Resources and three more of any colour). Resources are saved for the whole game
and spent per round (the rulebook slides used ones aside), so a payment is a question of
counts: can the saved Resources still unused this round cover the cost, and which.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.killer.refusal import Refusal

WHITE = "white"
"""The hexagon colour any Resource pays."""


def payment(cost: Mapping[str, int], available: Mapping[str, int]) -> dict[str, int]:
    """The Resources used to pay ``cost`` from ``available`` (colour -> count): every
    coloured hexagon with its own colour first, then the White ones with whatever is left,
    most plentiful colour first (ties by name). Refused if they do not cover it."""
    return _payment(cost, available)


def _payment(cost: Mapping[str, int], available: Mapping[str, int]) -> dict[str, int]:
    left = dict(available)
    used: dict[str, int] = {}
    for colour, n in sorted(cost.items()):
        if colour == WHITE or n == 0:
            continue
        if left.get(colour, 0) < n:
            raise Refusal("cost.short", f"the cost needs {counted(n, colour)}, "
                          f"{are(left.get(colour, 0))} available", colour=colour, need=n,
                          have=left.get(colour, 0))
        left[colour] -= n
        used[colour] = n
    white = cost.get(WHITE, 0)
    for colour in sorted(left, key=lambda c: (-left[c], c)):
        if white == 0:
            break
        take = min(white, left[colour])
        if take:
            used[colour] = used.get(colour, 0) + take
            left[colour] -= take
            white -= take
    if white:
        hexes = f"{white} White hexagon{'s are' if white != 1 else ' is'}"
        raise Refusal("cost.short", f"{hexes} left unpaid", colour=WHITE,
                      need=cost.get(WHITE, 0))
    return used


def affordable(cost: Mapping[str, int], available: Mapping[str, int]) -> bool:
    try:
        payment(cost, available)
    except Refusal:
        return False
    return True


def are(n: int) -> str:
    return f"{n} is" if n == 1 else f"{n} are"


def counted(n: int, colour: str) -> str:
    """Resources of a colour in words: ``1 Blue Resource``, ``2 Green Resources``."""
    return f"{n} {colour.capitalize()} Resource{'' if n == 1 else 's'}"


def hexagons(cost: Mapping[str, int]) -> int:
    """How many hexagons a cost has (how many Resources pay it)."""
    return sum(cost.values())


def check_payment(cost: Mapping[str, int], available: Mapping[str, int],
                  paid: Mapping[str, int]) -> None:
    """Refuse a payment a record names (colour -> Resources used) that does not pay ``cost``
    exactly from ``available``: every coloured hexagon by its own colour, every White one by
    any colour, no Resource more than the cost needs and none the player lacks."""
    for colour, n in paid.items():
        if n < 0:
            raise Refusal("cost.bad_payment", f"a payment of {n} {colour.capitalize()} Resources",
                          colour=colour)
        if n > available.get(colour, 0):
            raise Refusal("cost.short", f"the payment uses {counted(n, colour)}, "
                          f"{are(available.get(colour, 0))} available", colour=colour, need=n,
                          have=available.get(colour, 0))
    if sum(paid.values()) != hexagons(cost):
        raise Refusal("cost.bad_payment", f"the payment uses {sum(paid.values())} Resources for "
                      f"a cost of {hexagons(cost)} hexagons", paid=dict(paid), cost=dict(cost))
    spare = dict(paid)
    for colour, n in cost.items():
        if colour == WHITE or n == 0:
            continue
        if spare.get(colour, 0) < n:
            raise Refusal("cost.bad_payment", f"the cost needs {counted(n, colour)} and the "
                          f"payment gives {spare.get(colour, 0)}", paid=dict(paid), cost=dict(cost))
        spare[colour] -= n
