"""Attacks: weapons, roaming cards and the Trojan Bunny (KBQ-WPN-1..2, KBQ-CLOVER-1,
KBQ-ROAM-1..4; rulings R-KBQ-12, R-KBQ-18, R-KBQ-19).

An attack becomes an ``AttackFrame``: the bunnies it reaches (``engine.killer.attack``),
the level each faces after its clovers, and one roll per bunny whose fate is open, each
rolled by the bunny's owner (a roaming card attacked is rolled for by its launcher). Before
the first roll other players may answer (Very Special cards: the frame's ``rolled`` is 0);
an attack that needs no roll waits for answers until the next event that is not one. When
every roll is in, the losers die together.
"""

from __future__ import annotations

from engine.killer import attack, dice
from engine.killer.catalogue import effects as fx
from engine.killer_bunnies_quest import leaving, roam, table
from engine.killer_bunnies_quest.state import AttackFrame, Ctx, Hit, QuestState, Roamer
from engine.rules import Effect


def boost_of(state: QuestState, seat: int) -> fx.BoostWeapons | None:
    """A saved weapon booster (the Minilith) of ``seat``."""
    d = table.deck(state)
    for card in state.seats[seat].saved:
        boost = fx.first(d.effects(card), fx.BoostWeapons)
        if boost is not None:
            return boost
    return None


def launch(state: QuestState, ctx: Ctx, target: int, level: int, die: str, area: fx.Area,
           clovers: bool, category: str, tags: list[str], weapon: bool, cause: str,
           on_roamer: int | None = None, roaming_card: int | None = None) -> AttackFrame:
    """Put an attack on the stack (its hits are worked out when it is its turn to resolve)."""
    levels = area.levels(level, len(state.circle))
    if weapon:
        boost = boost_of(state, ctx.by)
        if boost is not None:
            levels = attack.boosted(levels, boost.max_level, boost.level_factor,
                                    boost.extra_spaces)
    frame = AttackFrame(ctx=ctx, cause=cause, weapon=weapon, target=target,  # type: ignore[arg-type]  # causes
                        levels=levels, die=die, clovers=clovers, tags=list(tags),
                        category=category, on_roamer=on_roamer, roaming=roaming_card)
    state.stack.append(frame)
    return frame


def refresh(state: QuestState, frame: AttackFrame) -> None:
    """Work out the hits afresh (before the first roll an answer may have changed things: a
    Containment Suit placed, the weapon redirected, a bunny gone)."""
    circle = state.circle
    sides = table.deck(state).catalogue.dice[frame.die].sides
    hits: list[Hit] = []
    if frame.on_roamer is not None:
        r = roam.find(state, frame.on_roamer)
        if r is not None and r.host == frame.target:
            hits.append(_certain(Hit(bunny=frame.target, owner=r.launcher, level=frame.levels[0],
                                     die=frame.die, roamer=r.card), sides))
        frame.hits = hits
        return
    # Each bunny's owner rolls for it; a roaming card attacked is rolled for by its launcher
    # (KBQ-ROAM-4, docs/card-facts.md §1.7 R-Q13).
    exposures = attack.exposures(circle, frame.target, frame.levels,
                                 lambda b: table.guard(state, b), frame.category, frame.tags,
                                 frame.clovers)
    area = len(frame.levels) > 1
    shielded: list[int] = []
    for exp in exposures:
        if area:
            for r in state.roamers:
                if r.host == exp.bunny and roam.spec(state, r.card).targetable:
                    hits.append(_certain(Hit(bunny=exp.bunny, owner=r.launcher,
                                             level=exp.printed, die=frame.die, roamer=r.card),
                                         sides))
        if exp.shielded:
            shielded.append(exp.bunny)
            continue
        hits.append(_certain(Hit(bunny=exp.bunny, owner=exp.owner, level=exp.level,
                                 die=frame.die), sides))
    frame.hits = hits
    frame.shielded = shielded


def _certain(hit: Hit, sides: int) -> Hit:
    hit.lives = dice.outcome_if_certain(hit.level, sides)
    return hit


def next_roll(frame: AttackFrame) -> Hit | None:
    """The hit whose roll is awaited."""
    return next((h for h in frame.hits if h.lives is None), None)


def attack_step(state: QuestState, frame: AttackFrame, out: list[Effect]) -> bool:
    if frame.rolled == 0:
        target_there = frame.target in state.circle
        if not target_there:
            state.stack.pop()
            out.append(Effect("KBQ-WPN-1", "attack_missed", {"card": frame.ctx.card,
                                                             "bunny": frame.target}))
            _after_roaming_launch_failed(state, frame, out)
            return True
        refresh(state, frame)
        if next_roll(frame) is None and not frame.released:
            return False  # nothing to roll: waits for answers (R-KBQ-32)
    if next_roll(frame) is not None:
        return False
    state.stack.pop()
    resolve(state, frame, out)
    return True


def roll(state: QuestState, frame: AttackFrame, face: int, out: list[Effect]) -> None:
    """Record the roll of the next bunny (checked by the caller)."""
    hit = next_roll(frame)
    assert hit is not None
    hit.face = face
    hit.lives = dice.survives(face, hit.level)
    frame.rolled += 1


def _rule(frame: AttackFrame) -> str:
    if frame.cause == "roaming":
        return "KBQ-ROAM-1"
    if frame.cause == "trojan":
        return "KBQ-CARD-TROJAN-BUNNY"
    return "KBQ-WPN-2"


def resolve(state: QuestState, frame: AttackFrame, out: list[Effect]) -> None:
    """Every roll is in: report each, then the losers die together."""
    card = frame.ctx.card
    d = table.deck(state)
    rule = _rule(frame)
    if len(frame.levels) > 1:
        out.append(Effect("KBQ-ADJ-2", "area", {"card": card, "target": frame.target,
                                                "bunnies": sorted({h.bunny for h in frame.hits})}))
    for bunny in frame.shielded:
        out.append(Effect("KBQ-MOD-5", "protected", {"bunny": bunny, "card": card}))
    for hit in frame.hits:
        clovers = 0
        if hit.roamer is None and hit.bunny in state.circle and frame.clovers:
            clovers = table.guard(state, hit.bunny).clovers
        roll_rule = "KBQ-CLOVER-1" if clovers else "KBQ-ROAM-4" if frame.cause == "roaming" else rule
        out.append(Effect(roll_rule, "attack_roll", {
            "card": card, "bunny": hit.bunny, "owner": hit.owner, "roamer": hit.roamer,
            "printed": frame.levels[0], "level": hit.level, "clovers": clovers,
            "face": hit.face, "lives": bool(hit.lives), "die": hit.die,
            "weapon": frame.weapon}))
    r = roam.find(state, frame.roaming) if frame.roaming is not None else None
    host = frame.target
    next_host: int | None = None
    if r is not None:
        r.visited.append(host)
        host_dies = any(h.bunny == host and h.roamer is None and h.lives is False
                        for h in frame.hits)
        next_host = roam.next_host(state.circle, r, host,
                                      lambda b: roam.viable(state, r.card, b), host_dies)
        r.host = None  # detached while its victims die
    cause = "roaming" if frame.cause == "roaming" else "weapon"
    for hit in frame.hits:
        if hit.lives:
            continue
        if hit.roamer is not None:
            victim = roam.find(state, hit.roamer)
            if victim is not None:
                roam.gone(state, victim, "destroyed", out)
        elif hit.bunny in state.circle:
            leaving.kill(state, hit.bunny, cause, rule, out, by=frame.ctx.by)
    if r is not None and r in state.roamers:
        if next_host is not None and next_host in state.circle:
            r.host = next_host
            out.append(Effect("KBQ-ROAM-1", "roaming_moved", {"card": r.card, "bunny": next_host}))
        else:
            roam.gone(state, r, "no_viable_bunny", out)
    if frame.weapon and frame.cause != "roaming" and frame.ctx.by == state.active:
        state.used_weapons.append(card)
    if d.is_weapon(card) and frame.cause == "trojan":
        out.append(Effect("KBQ-CARD-TROJAN-BUNNY", "trojan_exploded", {"card": card,
                                                                       "host": frame.target}))


def _after_roaming_launch_failed(state: QuestState, frame: AttackFrame, out: list[Effect]) -> None:
    if frame.roaming is None:
        return
    r = roam.find(state, frame.roaming)
    if r is not None and r.host is None:
        roam.gone(state, r, "no_viable_bunny", out)


def roaming_attack(state: QuestState, r: Roamer, out: list[Effect]) -> None:
    """A roaming card attacks the bunny it waits on (KBQ-ROAM-2)."""
    spec = roam.spec(state, r.card)
    assert r.host is not None
    ctx = Ctx(card=r.card, by=r.launcher, origin="trigger", keep=True)
    out.append(Effect("KBQ-ROAM-2", "roaming_attack", {"card": r.card, "bunny": r.host}))
    launch(state, ctx, r.host, spec.level, spec.die, fx.Single(), spec.clovers, "harm",
           list(roam.tags(state, r.card)), spec.weapon, "roaming", roaming_card=r.card)
