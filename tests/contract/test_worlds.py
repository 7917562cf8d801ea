"""The worlds contract (engine.analysis.worlds), run over every registered ruleset.

A ruleset that deals out the unknown cards of a position (it overrides
``Ruleset.sample_world``) keeps three promises, checked here on simulated games for every
seat, the table and the referee:

* every world is complete and, seen from the perspective, is exactly the perspective's
  view of the real game (no world contradicts what it knows), and the game plays on from
  it legally;
* the sampler reads nothing hidden: two games that differ only in cards the perspective
  never saw give the same worlds for the same seed;
* the worlds come with the right frequencies: a hidden card of another hand is any card
  it may be, each as often as the count of its copies among them says (a chi-square test
  against that exact count; for two cards, against the exact count of pairs).

A ruleset that does not override it refuses a position with unknowns in words.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest
from scipy.stats import chisquare

from engine.analysis.worlds import knowledge, worlds
from engine.reader import check_events
from engine.record import Event, Header, event_to_dict
from engine.redact import redact_game
from engine.registry import get_ruleset, known_slugs
from engine.rules import WarrenError
from engine.ruleset import Ruleset
from engine.simulate import SimulatedGame, play_from, simulate_one

SEEDS = (1, 2)
P_VALUE = 1e-4
"""A frequency test fails only below this: a correct sampler fails once in ten thousand runs
(and the seeds are fixed, so a run that passes passes every time)."""


def _samples(rs: Ruleset[Any, Any]) -> bool:
    return type(rs).sample_world is not Ruleset.sample_world


VARIANTS: dict[str, list[dict[str, Any]]] = {
    "kinderbunnies": [{"level": "advanced"}, {"level": "really-advanced"}],
}
"""Options that hide cards in places of their own (KinderBunnies' Orange deck, set aside at
the start of a Really Advanced game): their games are dealt out too."""


def _games(rs: Ruleset[Any, Any]) -> Iterator[SimulatedGame]:
    for seed in SEEDS:
        for n in sorted({rs.min_players, rs.max_players}):
            yield simulate_one(rs, seed, n, players=n, bots=("random", "greedy"), max_events=300)
    for options in VARIANTS.get(rs.slug, []):
        yield simulate_one(rs, SEEDS[0], 0, bots=("random", "greedy"), options=options, max_events=300)


def _perspectives(rs: Ruleset[Any, Any], n: int) -> list[Any]:
    return [*range(n), "spectator", "referee"] if rs.capabilities.redacts else ["referee"]


def _unnumbered(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seq"}


@pytest.mark.parametrize("slug", known_slugs())
def test_every_world_is_whole_shows_the_perspective_its_view_and_plays_on(slug: str) -> None:
    rs = get_ruleset(slug)
    if not _samples(rs):
        pytest.skip(f"{slug} does not deal out unknown cards (its refusal is tested below)")
    checked = 0
    for game in _games(rs):
        n = len(game.header.players)
        referee = knowledge(rs, game.header, game.events, "referee")
        last = len(referee.full)
        seqs = sorted({0, 1, 2, last // 4, last // 2, (3 * last) // 4, last})
        real = referee.states(seqs)
        for perspective in _perspectives(rs, n):
            known = knowledge(rs, game.header, game.events, perspective).states(seqs)
            for seq in seqs:
                for i, world in enumerate(worlds(rs, known[seq], 3, seed=seq)):
                    assert not getattr(world, "partial", False), \
                        f"{perspective} at {seq}: a world left unknowns"
                    mine, theirs = rs.view(world, perspective), rs.view(real[seq], perspective)
                    assert _unnumbered(mine) == _unnumbered(theirs), \
                        f"a world contradicts what {perspective} knew at event {seq}"
                    play_from(rs, world, ["random"] * n, random.Random(i), 150)
                    checked += 1
    assert checked > 50


@pytest.mark.parametrize("slug", known_slugs())
def test_a_ruleset_that_deals_no_worlds_says_so(slug: str) -> None:
    rs = get_ruleset(slug)
    if _samples(rs) or not rs.capabilities.redacts:
        pytest.skip(f"{slug} deals out its unknowns, or keeps none")
    game = simulate_one(rs, 1, 0, bots=("random",), max_events=200)
    state = knowledge(rs, game.header, game.events, 0).states([len(game.events) // 2])[len(game.events) // 2]
    if not getattr(state, "partial", False):
        pytest.skip("this position leaves nothing unknown")
    with pytest.raises(WarrenError, match=f"cannot deal out the unknown cards of a {rs.title} position"):
        rs.sample_world(state, random.Random(0))


_NOT_CARDS = frozenset({"seq", "actor", "seat", "hash", "claims", "kind", "type"})


def _leaves(value: Any, key: str = "") -> Iterator[Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in _NOT_CARDS:
                yield from _leaves(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, key)
    elif isinstance(value, str | int) and not isinstance(value, bool):
        yield value


def _swapped(value: Any, a: Any, b: Any) -> Any:
    if isinstance(value, dict):
        return {k: v if k in _NOT_CARDS else _swapped(v, a, b) for k, v in value.items()}
    if isinstance(value, list):
        return [_swapped(v, a, b) for v in value]
    if type(value) is type(a) and value == a:
        return b
    if type(value) is type(b) and value == b:
        return a
    return value


def _other_game(rs: Ruleset[Any, Any], header: Header, events: list[Event], perspective: Any,
                rng: random.Random) -> list[Event] | None:
    """The same game with two cards the perspective never saw swapped everywhere: a game
    that is legal and that the perspective saw exactly as it saw this one (None if no two
    such cards are found)."""
    _header, seen = redact_game(rs, header, events, perspective)
    shown = {(type(v), v) for e in seen for v in _leaves(event_to_dict(e))}
    full = [event_to_dict(e) for e in events]
    hidden = sorted({(type(v).__name__, v) for e in full for v in _leaves(e) if (type(v), v) not in shown},
                    key=str)
    rng.shuffle(hidden)
    tried = 0
    for i, (ta, a) in enumerate(hidden):
        for tb, b in hidden[i + 1:]:
            if ta != tb or tried > 40:
                continue
            tried += 1
            try:
                other = [rs.decode_event(_swapped(e, a, b)) for e in full]
            except msgspec.ValidationError:
                continue  # the swap made a value its field cannot hold
            if other == events or check_events(rs, header, other) is not None:
                continue
            if redact_game(rs, header, other, perspective)[1] == seen:
                return other
    return None


@pytest.mark.parametrize("slug", known_slugs())
def test_the_sampler_reads_nothing_hidden(slug: str) -> None:
    rs = get_ruleset(slug)
    if not _samples(rs) or not rs.capabilities.redacts:
        pytest.skip(f"{slug} deals out no unknown cards")
    swaps = 0
    for game in _games(rs):
        at = len(game.events) // 2
        prefix = game.events[:at]
        for perspective in (0, "spectator"):
            other = _other_game(rs, game.header, prefix, perspective, random.Random(at))
            if other is None:
                continue
            swaps += 1
            mine = knowledge(rs, game.header, prefix, perspective).states([at])[at]
            theirs = knowledge(rs, game.header, other, perspective).states([at])[at]
            encode = rs.codec.encode
            assert [encode(w) for w in worlds(rs, mine, 4, seed=7)] == \
                   [encode(w) for w in worlds(rs, theirs, 4, seed=7)], \
                   f"{perspective}: the worlds read a hidden card"
    assert swaps >= 2, "no game had two hidden cards to swap: the test proved nothing"


def _slot_reader(slug: str) -> Callable[[Any, int], tuple[Callable[[Any], Any], Counter[Any]] | None]:
    """For a position (with unknowns) and a seat: a reader of one unknown card of the
    seat's hand in a world, and the exact count of what it may be (copies of each)."""
    if slug == "bunnies":
        def bunnies(state: Any, seat: int) -> Any:
            hand = state.hands[seat]
            if "?" not in hand or state.pool is None:
                return None
            i = hand.index("?")
            return (lambda w: w.hands[seat][i]), Counter(state.pool.unseen)
        return bunnies
    if slug == "kinderbunnies":
        from engine.kinderbunnies.table import cards

        def kinder(state: Any, seat: int) -> Any:
            hand = state.hands[seat]
            if 0 not in hand or state.pool is None:
                return None
            i = hand.index(0)
            orange = set(cards(state).orange)
            return (lambda w: w.hands[seat][i]), Counter(
                {int(c): k for c, k in state.pool.unseen.items() if int(c) not in orange})
        return kinder
    if slug == "killer-bunnies-quest":
        from engine.killer_bunnies_quest.unknowns import HIDDEN, hand_card

        def quest(state: Any, seat: int) -> Any:
            hand = state.seats[seat].hand
            if HIDDEN not in hand:
                return None
            i = hand.index(HIDDEN)
            return (lambda w: w.seats[seat].hand[i]), Counter(c for c in state.pool if hand_card(state, c))
        return quest
    if slug == "killer-bunnies-odyssey":
        from engine.killer_bunnies_odyssey.table import cards as ody_cards

        def odyssey(state: Any, seat: int) -> Any:
            hand = state.seats[seat].hand
            pool = state.seats[seat].unseen
            if 0 not in hand or pool is None:
                return None
            i = hand.index(0)
            kind = ody_cards(state).kind
            counts: Counter[Any] = Counter()
            for code, k in pool.unseen.items():
                counts[kind[code]] += k
            return (lambda w: w.seats[seat].hand[i]), counts
        return odyssey
    if slug == "trust-no-bunny":
        from math import comb

        def tnb(state: Any, seat: int) -> Any:
            # Cards of one value are alike, so a hand is counts: read the lowest of the hand's
            # k unknown cards, which is v as often as the k-card sets of the unseen cards whose
            # lowest is v (k must be certain: the record knows how many it holds).
            hidden = state.hidden
            if hidden is None or hidden.lo[seat] != hidden.hi[seat] or not hidden.lo[seat]:
                return None
            k, known = hidden.lo[seat], state.hands[seat][:]
            at_least = [sum(hidden.unseen[u] for u in range(v, 5)) for v in range(6)]
            counts = Counter({v: comb(at_least[v], k) - comb(at_least[v + 1], k) for v in (1, 2, 3, 4)})
            return (lambda w: min(v for v in (1, 2, 3, 4) if w.hands[seat][v] > known[v])), +counts
        return tnb
    return lambda state, seat: None


def _late_position(rs: Ruleset[Any, Any], reader: Any) -> tuple[Any, Callable[[Any], Any], Counter[Any]]:
    """The position, seen by seat 0, with the fewest possible values for one of seat 1's
    unknown cards (a small position: every value expected often in a few thousand worlds)."""
    best = None
    for seed in (1, 2, 3):
        game = simulate_one(rs, seed, 0, players=rs.min_players, bots=("greedy",), max_events=400)
        known = knowledge(rs, game.header, game.events, 0)
        for state in known.states(range(1, len(known.full))).values():
            found = reader(state, 1)
            if found is not None and len(found[1]) >= 2 and (best is None or len(found[1]) < len(best[2])):
                best = (state, *found)
    assert best is not None
    return best


@pytest.mark.parametrize("slug", known_slugs())
def test_a_hidden_card_comes_as_often_as_the_count_says(slug: str) -> None:
    rs = get_ruleset(slug)
    reader = _slot_reader(slug)
    if not _samples(rs) or slug not in ("bunnies", "kinderbunnies", "killer-bunnies-quest",
                                        "killer-bunnies-odyssey", "trust-no-bunny"):
        pytest.skip(f"{slug}: no frequency reader")
    state, read, counts = _late_position(rs, reader)
    draws = max(2000, 20 * len(counts))
    got = Counter(read(w) for w in worlds(rs, state, draws, seed=11))
    assert set(got) <= set(counts), "a world dealt a card the position cannot hold there"
    total = sum(counts.values())
    values = sorted(counts, key=str)
    result = chisquare([got[v] for v in values], [draws * counts[v] / total for v in values])
    assert result.pvalue > P_VALUE, f"frequencies off (chi-square p = {result.pvalue:.2g})"


def test_two_hidden_cards_come_in_pairs_as_often_as_counting_says() -> None:
    """Bunnies near its end: seat 1's two unknown cards, as a pair, against the exact count
    of ordered pairs of distinct unseen cards (each equally likely)."""
    rs = get_ruleset("bunnies")
    best = None
    for seed in (1, 2, 3):
        game = simulate_one(rs, seed, 0, bots=("greedy",), max_events=400)
        known = knowledge(rs, game.header, game.events, 0)
        for state in known.states(range(1, len(known.full))).values():
            if state.hands[1].count("?") >= 2 and state.pool is not None and len(state.pool) >= 3 and \
                    (best is None or len(state.pool) < len(best.pool)):
                best = state
    assert best is not None
    first = best.hands[1].index("?")
    second = best.hands[1].index("?", first + 1)
    unseen = sorted(best.pool.unseen)
    pairs = [(a, b) for a in unseen for b in unseen if a != b]
    draws = max(3000, 10 * len(pairs))
    got = Counter((w.hands[1][first], w.hands[1][second]) for w in worlds(rs, best, draws, seed=5))
    assert set(got) <= set(pairs)
    result = chisquare([got[p] for p in pairs], [draws / len(pairs)] * len(pairs))
    assert result.pvalue > P_VALUE, f"pair frequencies off (chi-square p = {result.pvalue:.2g})"


def test_worlds_are_the_same_for_a_seed() -> None:
    rs = get_ruleset("killer-bunnies-quest")
    game = simulate_one(rs, 1, 0, bots=("greedy",), max_events=200)
    state = knowledge(rs, game.header, game.events, 1).states([100])[100]
    first = [rs.codec.encode(w) for w in worlds(rs, state, 3, seed=4)]
    assert first == [rs.codec.encode(w) for w in worlds(rs, state, 3, seed=4)]
    assert first != [rs.codec.encode(w) for w in worlds(rs, state, 3, seed=5)]


def _json(event: Event) -> bytes:
    return msgspec.json.encode(event_to_dict(event))
