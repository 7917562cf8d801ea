"""What each card does: the effect vocabulary applied to a game of Quest.

The kit's interpreter (engine.killer.interpreter) holds Quest's tables keyed by primitive
type: each primitive's check refuses a play whose choices it cannot take (run before
anything changes: a refused play leaves the state as it was), its apply carries it out, and
a rolling primitive's outcome reads the faces. The kit's resolver walks a card's primitives
(``Interpreter.check_card``, ``Interpreter.resolve``), one a step of the flow: a primitive
that needs a die or somebody's decision pushes its frame, and the rest of the card waits
below it (``state.Effects``, the card's continuation).

Each card of the box is data over these primitives (engine/killer_bunnies_quest/cards/*.toml); the
Black Cat is the one named hook (``HOOKS``). Card-specific rules are cited as
``KBQ-CARD-<ID>`` (engine.killer_bunnies_quest.rulebook).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.hidden import undetermined
from engine.killer import feeding, rolls, units
from engine.killer.catalogue import effects as fx
from engine.killer.words import choices_said
from engine.killer_bunnies_quest import auction as auctions
from engine.killer_bunnies_quest import combat, flow, leaving, roam, table, unknowns
from engine.killer_bunnies_quest.catalogue import DECKS as _DECKS
from engine.killer_bunnies_quest.catalogue import HOOKS, QUEST
from engine.killer_bunnies_quest.events import Play
from engine.killer_bunnies_quest.numbers import CARROT_PRICE_UPKEEP
from engine.killer_bunnies_quest.state import (
    AttackFrame,
    AuctionFrame,
    Choice,
    Ctx,
    Dormant,
    Effects,
    Hold,
    QuestState,
    Roamer,
    RollCard,
    RollOffFrame,
    Supplies,
)
from engine.killer_bunnies_quest.unknowns import HIDDEN, doubt
from engine.rules import Effect, RuleViolation
from engine.wording import cards_said

Check = Callable[[QuestState, Ctx, Any, Play], None]
HOOK_CHECKS: dict[str, Check] = {}
"""The interpreter's tables, read straight in the hot loops (one method call less a card)."""


# -- targets ------------------------------------------------------------------------------------


def check_target(state: QuestState, ctx: Ctx, target: str, ev: Play, category: str,
                 tags: tuple[str, ...] | list[str] = (), weapon: bool = False) -> int:
    """The bunny a card goes on: in the circle, of the kind the card allows, and one its
    harm can reach (KBQ-MOD-5). Bad Karma turns a weapon on its player's own bunny."""
    rule = table.card_rule(state, ctx.card)
    if ev.on is None:
        table.refuse(rule, f"card {ctx.card} goes on a bunny: name the bunny",
                          card=ctx.card)
    bunny = ev.on
    if bunny not in state.circle:
        table.refuse("KBQ-ADJ-2", f"bunny {bunny} is not in the Bunny Circle", bunny=bunny)
    owner = state.circle.owner(bunny)
    if weapon and state.seats[ctx.by].karma:
        if owner != ctx.by:
            table.refuse("KBQ-CARD-BAD-KARMA", f"seat {ctx.by} holds Bad Karma: his next "
                              "weapon goes on one of his own bunnies", seat=ctx.by, bunny=bunny)
    elif target == "opponent_bunny" and owner == ctx.by and not state.opts.target_own_bunnies:
        table.refuse("KBQ-FEED-1" if category == "hunger" else "KBQ-WPN-1",
                          f"card {ctx.card} goes on an opponent's bunny, not on seat "
                          f"{ctx.by}'s own bunny {bunny}", bunny=bunny, owner=owner)
    elif target == "own_bunny" and owner != ctx.by:
        table.refuse(rule, f"card {ctx.card} goes on one of seat {ctx.by}'s own bunnies",
                          bunny=bunny, owner=owner)
    if table.shielded(state, bunny, category, tags):
        table.refuse("KBQ-MOD-5", f"bunny {bunny} is protected from {category} by a "
                          "modifier under it", bunny=bunny, category=category)
    return bunny


def check_player(state: QuestState, ctx: Ctx, target: str, ev: Play) -> int:
    rule = table.card_rule(state, ctx.card)
    if ev.player is None:
        table.refuse(rule, f"card {ctx.card} is played on a player: name him")
    seat = ev.player
    if not 0 <= seat < state.n or not state.seats[seat].present:
        table.refuse(rule, f"seat {seat} is not in the game", player=seat)
    if target == "opponent" and seat == ctx.by:
        table.refuse(rule, f"card {ctx.card} names an opponent, not its own player",
                          player=seat)
    return seat


# -- bunnies and modifiers ------------------------------------------------------------------------


@QUEST.check(fx.EnterCircle)
def _check_enter(state: QuestState, ctx: Ctx, effect: fx.EnterCircle, ev: Play) -> None:
    n = len(state.circle)
    if ev.at is None or not 0 <= ev.at <= n:
        given = "none is named" if ev.at is None else f"not {ev.at}"
        table.refuse("KBQ-POS-1", f"a bunny entering the circle takes a place from 0 to {n}, "
                          f"{given}", at=ev.at, size=n)


@QUEST.apply(fx.EnterCircle)
def _enter(state: QuestState, ctx: Ctx, effect: fx.EnterCircle, out: list[Effect]) -> None:
    state.circle.place(ctx.card, ctx.by, ctx.at)
    ctx.keep = True
    out.append(Effect("KBQ-POS-1", "bunny_entered", {"bunny": ctx.card, "owner": ctx.by,
                                                     "at": ctx.at}))


@QUEST.check(fx.Attach)
def _check_attach(state: QuestState, ctx: Ctx, effect: fx.Attach, ev: Play) -> None:
    # Under any bunny in the circle (KBQ-MOD-1); a player with no bunny of his own puts
    # it under an opponent's, which is every bunny there (KBQ-MOD-3).
    if not state.circle.order:
        table.refuse("KBQ-MOD-3", "there is no bunny in the circle to put it under: it can "
                          "only be discarded", card=ctx.card)
    if ev.on is None or ev.on not in state.circle:
        given = "none is named" if ev.on is None else f"bunny {ev.on} is not there"
        table.refuse("KBQ-MOD-1", f"a Bunny Modifier goes under a bunny in the circle, and "
                          f"{given}", on=ev.on)


@QUEST.apply(fx.Attach)
def _attach(state: QuestState, ctx: Ctx, effect: fx.Attach, out: list[Effect]) -> None:
    assert ctx.host is not None
    state.circle.space(ctx.host).under.append(ctx.card)
    ctx.keep = True
    rule = "KBQ-MOD-1" if table.has_bunny(state, ctx.by) else "KBQ-MOD-3"
    out.append(Effect(rule, "modifier_placed", {"card": ctx.card, "bunny": ctx.host}))
    roam.recheck(state, out)


@QUEST.check(fx.Revive)
def _check_revive(state: QuestState, ctx: Ctx, effect: fx.Revive, ev: Play) -> None:
    return None


@QUEST.apply(fx.Revive)
def _revive(state: QuestState, ctx: Ctx, effect: fx.Revive, out: list[Effect]) -> None:
    """Bunnies from the discard pile only (KBQ-REV-1): the player picks which and where."""
    d = table.deck(state)
    candidates = sorted(c for c in state.discard if c in d.bunny)
    count = min(effect.count, len(candidates))
    if count == 0:
        out.append(Effect("KBQ-REV-1", "nothing_to_revive", {"seat": ctx.by}))
        return
    state.stack.append(Choice(ctx=ctx, seat=ctx.by, kind="revive", count=count,
                              options=candidates))


# -- attacks ---------------------------------------------------------------------------------------


def _weapon_tags(state: QuestState, card: int) -> list[str]:
    weapon = table.deck(state).card(card).weapon
    return list(weapon.tags) if weapon is not None else []


@QUEST.check(fx.Attack)
def _check_attack(state: QuestState, ctx: Ctx, effect: fx.Attack, ev: Play) -> None:
    if ev.roamer:
        _check_roamer_target(state, ctx, ev)
        return
    check_target(state, ctx, effect.target, ev, effect.category, _weapon_tags(state, ctx.card),
                 weapon=table.deck(state).is_weapon(ctx.card))


def _check_roamer_target(state: QuestState, ctx: Ctx, ev: Play) -> None:
    """A single-target weapon may be aimed at a roaming card that can be attacked (Cyber
    Bunny) instead of the bunny under it (docs/card-facts.md §1.7 R-Q13)."""
    waiting = [r for r in state.roamers if r.host == ev.on and roam.spec(state, r.card).targetable]
    if ev.on is None or not waiting:
        table.refuse("KBQ-CARD-CYBER-BUNNY", "no roaming card that a weapon can attack "
                          + ("is named" if ev.on is None else f"waits on bunny {ev.on}"), on=ev.on)


@QUEST.apply(fx.Attack)
def _attack(state: QuestState, ctx: Ctx, effect: fx.Attack, out: list[Effect]) -> None:
    d = table.deck(state)
    card = ctx.card
    target = ctx.host
    assert target is not None
    weapon = d.is_weapon(card)
    on_roamer = None
    if ctx.roamer:
        waiting = [r for r in state.roamers
                   if r.host == target and roam.spec(state, r.card).targetable]
        on_roamer = waiting[0].card if waiting else None
    trojan = fx.first(d.effects(card), fx.Dormant) is not None
    combat.launch(state, ctx, target, effect.level, effect.die, effect.area, effect.clovers,
                  effect.category, _weapon_tags(state, card), weapon,
                  "trojan" if trojan else "weapon", on_roamer=on_roamer)
    out.append(Effect("KBQ-WPN-1", "weapon_launched", {"card": card, "by": ctx.by,
                                                       "bunny": target, "roamer": on_roamer}))
    if weapon and ctx.origin != "trigger":
        _karma_and_trojans(state, ctx, out)


def _karma_and_trojans(state: QuestState, ctx: Ctx, out: list[Effect]) -> None:
    """A weapon launched spends a Bad Karma, and wakes every Trojan Bunny under the
    launcher's own bunnies: they explode before the weapon's rolls (R-KBQ-19)."""
    seat = state.seats[ctx.by]
    if seat.karma:
        card = seat.karma.pop(0)
        table.to_discard(state, [card], out)
        out.append(Effect("KBQ-CARD-BAD-KARMA", "karma_spent", {"seat": ctx.by, "card": card}))
    for dormant in leaving.dormant_of(state, ctx.by):
        state.dormant.remove(dormant)
        trojan_ctx = Ctx(card=dormant.card, by=dormant.placed_by, origin="trigger",
                         host=dormant.host)
        state.stack.append(Effects(ctx=trojan_ctx, todo=list(_dormant_then(state, dormant.card))))
        out.append(Effect("KBQ-CARD-TROJAN-BUNNY", "trojan_woken",
                          {"card": dormant.card, "host": dormant.host}))


def _dormant_then(state: QuestState, card: int) -> list[fx.AnyEffect]:
    dormant = fx.first(table.deck(state).effects(card), fx.Dormant)
    return list(dormant.then) if dormant is not None else []


@QUEST.check(fx.Dormant)
def _check_dormant(state: QuestState, ctx: Ctx, effect: fx.Dormant, ev: Play) -> None:
    check_target(state, ctx, effect.target, ev, "harm", weapon=True)


@QUEST.apply(fx.Dormant)
def _dormant(state: QuestState, ctx: Ctx, effect: fx.Dormant, out: list[Effect]) -> None:
    assert ctx.host is not None
    _karma_and_trojans(state, ctx, out)
    state.dormant.append(Dormant(card=ctx.card, host=ctx.host, placed_by=ctx.by))
    ctx.keep = True
    out.append(Effect(table.card_rule(state, ctx.card), "dormant_placed", {"card": ctx.card,
                                                                     "bunny": ctx.host}))


@QUEST.apply(fx.Kill)
def _kill(state: QuestState, ctx: Ctx, effect: fx.Kill, out: list[Effect]) -> None:
    """Bunnies die without a roll (a Bakery or Casino result on the bunny the card is on)."""
    from engine.killer import attack

    host = ctx.host
    if host is None or host not in state.circle:
        return
    rule = table.card_rule(state, ctx.card)
    for bunny, _ in attack.reach(state.circle, host, effect.area):
        if table.shielded(state, bunny, effect.category):
            out.append(Effect("KBQ-MOD-5", "protected", {"bunny": bunny, "card": ctx.card}))
            continue
        leaving.kill(state, bunny, "gamble", rule, out, by=ctx.by)




@QUEST.check(fx.Roam)
def _check_roam(state: QuestState, ctx: Ctx, effect: fx.Roam, ev: Play) -> None:
    bunny = check_target(state, ctx, effect.target, ev, "harm", roam.tags(state, ctx.card),
                         weapon=effect.weapon)
    if not roam.viable(state, ctx.card, bunny):
        table.refuse("KBQ-MOD-5", f"bunny {bunny} cannot be harmed by card {ctx.card}",
                          bunny=bunny)


@QUEST.apply(fx.Roam)
def _roam(state: QuestState, ctx: Ctx, effect: fx.Roam, out: list[Effect]) -> None:
    assert ctx.host is not None
    state.roamers.append(Roamer(card=ctx.card, launcher=ctx.by, host=ctx.host,
                                direction=effect.direction, revisit=effect.revisit,
                                launched_turn=state.seats[ctx.by].turns))
    ctx.keep = True
    out.append(Effect("KBQ-ROAM-1", "roaming_launched", {"card": ctx.card, "by": ctx.by,
                                                         "bunny": ctx.host}))
    combat.launch(state, ctx, ctx.host, effect.level, effect.die, fx.Single(), effect.clovers,
                  "harm", list(roam.tags(state, ctx.card)), effect.weapon, "roaming",
                  roaming_card=ctx.card)
    if effect.weapon:
        _karma_and_trojans(state, ctx, out)


# -- answers to launched cards and the held ones -------------------------------------------------


@QUEST.check(fx.Abduct)
def _check_abduct(state: QuestState, ctx: Ctx, effect: fx.Abduct, ev: Play) -> None:
    check_target(state, ctx, effect.target, ev, "abduction")


@QUEST.apply(fx.Abduct)
def _abduct_hold(state: QuestState, ctx: Ctx, effect: fx.Abduct, out: list[Effect]) -> None:
    state.stack.append(Hold(ctx=ctx, effect=effect))


def abduct(state: QuestState, ctx: Ctx, out: list[Effect]) -> None:
    """The aliens take the bunny; the one they held comes back to its owner, who places it
    anywhere (R-KBQ-27). An abducted bunny is alive but out of the circle (R-Q12)."""
    bunny = ctx.host
    if bunny is None or bunny not in state.circle:
        return
    owner = state.circle.owner(bunny)
    returning = state.abducted[:]
    leaving.remove_bunny(state, bunny, out, "bunny_abducted", table.card_rule(state, ctx.card),
                      by=ctx.by, discard_bunny=False)
    state.abducted = [bunny, owner]
    table.to_discard(state, [ctx.card], out)
    # Discarded already (R-KBQ-44): the card's own frame below must not discard it again. A held card
    # is released on a copy of the state (engine.killer.holds), whose frames no longer
    # share one Ctx, so every frame of this card is told (each card is in play once).
    ctx.keep = True
    for frame in state.stack:
        held = getattr(frame, "ctx", None)
        if held is not None and held.card == ctx.card:
            held.keep = True
    if returning:
        back, back_owner = returning
        if state.seats[back_owner].present:
            state.stack.append(Choice(ctx=ctx, seat=back_owner, kind="return", bunny=back))
        else:
            table.to_discard(state, [back], out)


@QUEST.check(fx.LoseSupply)
def _check_lose(state: QuestState, ctx: Ctx, effect: fx.LoseSupply, ev: Play) -> None:
    ctx.player = check_player(state, ctx, effect.target, ev)


@QUEST.apply(fx.LoseSupply)
def _lose_hold(state: QuestState, ctx: Ctx, effect: fx.LoseSupply, out: list[Effect]) -> None:
    state.stack.append(Hold(ctx=ctx, effect=effect))


def lose_supply(state: QuestState, ctx: Ctx, effect: fx.LoseSupply, out: list[Effect]) -> None:
    assert ctx.player is not None
    held = table.holding_of(state.seats[ctx.player], effect.kind)
    cards = held[:]
    held.clear()
    table.to_discard(state, cards, out)
    out.append(Effect(table.card_rule(state, ctx.card), "supply_lost",
                      {"seat": ctx.player, "kind": effect.kind, "cards": cards}))


def release(state: QuestState, frame: Hold, out: list[Effect]) -> None:
    """A held card's answers are over: it happens now."""
    state.stack.remove(frame)
    HELD[type(frame.effect)](state, frame.ctx, frame.effect, out)


HELD: dict[type, Callable[[QuestState, Ctx, Any, list[Effect]], None]] = {
    fx.Abduct: lambda state, ctx, effect, out: abduct(state, ctx, out),
    fx.LoseSupply: lose_supply,
}
"""What a held primitive does once its answers are over."""


@QUEST.check(fx.Cancel)
def _check_cancel(state: QuestState, ctx: Ctx, effect: fx.Cancel, ev: Play) -> None:
    if answerable(state, ctx.by, effect, ctx.card) is None and not _roamer_to_cancel(state, effect, ev):
        table.refuse(table.card_rule(state, ctx.card), f"card {ctx.card} has nothing to stop now",
                          card=ctx.card)


def _roamer_to_cancel(state: QuestState, effect: fx.Cancel, ev: Play) -> bool:
    return ("roaming" in effect.what and ev.weapon is not None
            and roam.find(state, ev.weapon) is not None)


def answerable(state: QuestState, seat: int, effect: fx.Cancel, answering: int) -> Any:
    """The launched card that ``effect`` may stop for ``seat``: the topmost frame that is not
    the answering card's own (it is on top once its own primitives are being applied)."""
    frame = next((f for f in reversed(state.stack)
                  if getattr(f, "ctx", None) is None or f.ctx.card != answering), None)  # type: ignore[union-attr]  # frames with a ctx
    if frame is None:
        return None
    d = table.deck(state)
    target_owner: int | None = None
    if isinstance(frame, AttackFrame):
        if frame.rolled:
            return None
        card = frame.ctx.card
        words = {d.card(card).id, "weapon" if frame.weapon else "",
                 "roaming" if frame.roaming is not None else ""}
        target_owner = state.circle.owner(frame.target) if frame.target in state.circle else None
    elif isinstance(frame, Hold):
        card = frame.ctx.card
        words = {d.card(card).id, fx.tag_of(frame.effect), frame.effect.answered_as}
        if frame.effect.aims_at_host:
            host = frame.ctx.host
            target_owner = state.circle.owner(host) if host is not None and host in state.circle \
                else None
        else:
            target_owner = frame.ctx.player
    elif isinstance(frame, RollOffFrame) and frame.purpose == "defector":
        if frame.off.rolls:
            return None
        card = frame.ctx.card
        words = {d.card(card).id}
    else:
        return None
    if not words & set(effect.what):
        return None
    if effect.only_own and target_owner != seat:
        return None
    return frame


@QUEST.apply(fx.Cancel)
def _cancel(state: QuestState, ctx: Ctx, effect: fx.Cancel, out: list[Effect]) -> None:
    target = answerable(state, ctx.by, effect, ctx.card)
    if target is None:
        r = roam.find(state, ctx.weapon) if ctx.weapon is not None else None
        if r is not None:
            roam.gone(state, r, "cancelled", out)
        return
    # The answered card sits below this card's own frame; take it out of play.
    state.stack.remove(target)
    stopped = target.ctx.card
    out.append(Effect(table.card_rule(state, ctx.card), "card_stopped", {"card": stopped,
                                                                    "by": ctx.by}))
    _drop_card_frames(state, target.ctx, out)


def _drop_card_frames(state: QuestState, stopped: Ctx, out: list[Effect]) -> None:
    """The stopped card's remaining primitives go with it; the card is discarded and its
    player's turn goes on."""
    for frame in list(state.stack):
        if isinstance(frame, Effects) and frame.ctx.card == stopped.card:
            state.stack.remove(frame)
    r = roam.find(state, stopped.card)
    if r is not None:
        state.roamers.remove(r)
    table.to_discard(state, [stopped.card], out)
    flow.after_card(state, stopped.origin, stopped.by, stopped.card, out)


@QUEST.check(fx.Redirect)
def _check_redirect(state: QuestState, ctx: Ctx, effect: fx.Redirect, ev: Play) -> None:
    frame = state.stack[-1] if state.stack else None
    if not isinstance(frame, AttackFrame) or frame.rolled or not frame.weapon:
        table.refuse(table.card_rule(state, ctx.card), "no weapon has just been launched",
                          card=ctx.card)
    if ev.on is None or ev.on not in state.circle or ev.on == frame.target:
        table.refuse(table.card_rule(state, ctx.card), "name another bunny in the circle for the weapon",
                          on=ev.on)


@QUEST.apply(fx.Redirect)
def _redirect(state: QuestState, ctx: Ctx, effect: fx.Redirect, out: list[Effect]) -> None:
    frame = next(f for f in reversed(state.stack) if isinstance(f, AttackFrame))
    assert ctx.host is not None
    # Bunnies under keys of their own: an effect's "from" and "to" are always seats.
    out.append(Effect(table.card_rule(state, ctx.card), "weapon_redirected",
                      {"card": frame.ctx.card, "from_bunny": frame.target, "to_bunny": ctx.host}))
    frame.target = ctx.host
    frame.on_roamer = None


@QUEST.check(fx.Clear)
def _check_clear(state: QuestState, ctx: Ctx, effect: fx.Clear, ev: Play) -> None:
    d = table.deck(state)
    roamers = [r for r in state.roamers if d.card(r.card).id in effect.what]
    if not ("feed" in effect.what and state.demands) and not roamers:
        table.refuse(table.card_rule(state, ctx.card), "there is nothing pending to clear",
                          card=ctx.card)


@QUEST.apply(fx.Clear)
def _clear(state: QuestState, ctx: Ctx, effect: fx.Clear, out: list[Effect]) -> None:
    d = table.deck(state)
    rule = table.card_rule(state, ctx.card)
    if "feed" in effect.what:
        for demand in state.demands:
            if demand.bunny in state.circle:
                space = state.circle.space(demand.bunny)
                if demand.card in space.on:
                    space.on.remove(demand.card)
        cards = [dm.card for dm in state.demands if dm.due_turn is not None]
        state.demands = [dm for dm in state.demands if dm.due_turn is None]
        table.to_discard(state, cards, out)
        out.append(Effect(rule, "feeds_cleared", {"cards": cards}))
    for r in [r for r in state.roamers if d.card(r.card).id in effect.what]:
        roam.gone(state, r, "cleared", out)


@QUEST.check(fx.ReuseWeapon)
def _check_reuse(state: QuestState, ctx: Ctx, effect: fx.ReuseWeapon, ev: Play) -> None:
    rule = table.card_rule(state, ctx.card)
    if ev.weapon is None or ev.weapon not in state.used_weapons or ev.weapon not in state.discard:
        named = "no weapon is named" if ev.weapon is None else f"card {ev.weapon} is not"
        table.refuse(rule, f"{named}: it names a weapon seat {ctx.by} used this turn",
                          weapon=ev.weapon, used=state.used_weapons[:])
    again = Ctx(card=ev.weapon, by=ctx.by, origin="trigger", keep=True)
    # the weapon's attack is checked again as the kit checks any card's first primitive
    QUEST.check_card(state, again, table.deck(state).effects(ev.weapon)[:1], ev, table.KIT_RULES)


@QUEST.apply(fx.ReuseWeapon)
def _reuse(state: QuestState, ctx: Ctx, effect: fx.ReuseWeapon, out: list[Effect]) -> None:
    assert ctx.weapon is not None
    state.discard.remove(ctx.weapon)
    state.used_weapons.remove(ctx.weapon)
    again = Ctx(card=ctx.weapon, by=ctx.by, origin="trigger", host=ctx.host)
    out.append(Effect(table.card_rule(state, ctx.card), "weapon_reused", {"weapon": ctx.weapon}))
    state.stack.append(Effects(ctx=again, todo=list(table.deck(state).effects(ctx.weapon))))


# -- feeding --------------------------------------------------------------------------------------


@QUEST.check(fx.Feed)
def _check_feed(state: QuestState, ctx: Ctx, effect: fx.Feed, ev: Play) -> None:
    check_target(state, ctx, effect.target, ev, "hunger")


@QUEST.apply(fx.Feed)
def _feed(state: QuestState, ctx: Ctx, effect: fx.Feed, out: list[Effect]) -> None:
    bunny = ctx.host
    if bunny is None or bunny not in state.circle:
        return
    owner = state.circle.owner(bunny)
    if table.shielded(state, bunny, "hunger"):
        out.append(Effect("KBQ-MOD-5", "protected", {"bunny": bunny, "card": ctx.card}))
        return
    if effect.due == "now":
        state.demands.append(feeding.FeedDemand(card=ctx.card, bunny=bunny, owner=owner,
                                                cabbage=effect.cabbage, water=effect.water,
                                                due_turn=None, placed_by=ctx.by))
        out.append(Effect("KBQ-FEED-6", "feed_due_now", {"bunny": bunny, "owner": owner,
                                                         "cabbage": effect.cabbage,
                                                         "water": effect.water}))
        state.stack.append(Choice(ctx=ctx, seat=owner, kind="feed_now", bunny=bunny))
        return
    # One more demand on the bunny, settled or falling due on its own (KBQ-FEED-5).
    due = feeding.due_turn(state.seats[owner].turns)
    state.demands.append(feeding.FeedDemand(card=ctx.card, bunny=bunny, owner=owner,
                                            cabbage=effect.cabbage, water=effect.water,
                                            due_turn=due, placed_by=ctx.by))
    state.circle.space(bunny).on.append(ctx.card)
    ctx.keep = True
    stacked = bool(feeding.on_bunny(state.demands, bunny)[:-1])
    out.append(Effect("KBQ-FEED-5" if stacked else "KBQ-FEED-1", "feed_placed",
                      {"card": ctx.card, "bunny": bunny,
                                                    "owner": owner, "cabbage": effect.cabbage,
                                                    "water": effect.water, "due_turn": due}))


@QUEST.check(fx.SettleFeed)
def _check_settle(state: QuestState, ctx: Ctx, effect: fx.SettleFeed, ev: Play) -> None:
    rule = table.card_rule(state, ctx.card)
    if ev.on is None or not feeding.on_bunny(state.demands, ev.on):
        table.refuse(rule, "name the bunny whose Feed The Bunny demand it settles" if ev.on is None
                     else f"no Feed The Bunny demand is pending on bunny {ev.on}", on=ev.on)
    if state.circle.owner(ev.on) != ctx.by and not state.opts.feed_others:
        table.refuse("KBQ-FEED-2", f"seat {ctx.by} feeds only his own bunnies", on=ev.on)


@QUEST.apply(fx.SettleFeed)
def _settle(state: QuestState, ctx: Ctx, effect: fx.SettleFeed, out: list[Effect]) -> None:
    assert ctx.host is not None
    settle_demands(state, feeding.on_bunny(state.demands, ctx.host), table.card_rule(state, ctx.card),
                   out)


def settle_demands(state: QuestState, demands: list[feeding.FeedDemand], rule: str,
                   out: list[Effect]) -> None:
    for demand in demands:
        state.demands.remove(demand)
        if demand.bunny in state.circle and demand.card in state.circle.space(demand.bunny).on:
            state.circle.space(demand.bunny).on.remove(demand.card)
        if demand.due_turn is not None:
            table.to_discard(state, [demand.card], out)
        out.append(Effect(rule, "fed", {"bunny": demand.bunny, "demand": demand.card}))


# -- carrots -------------------------------------------------------------------------------------


@QUEST.check(fx.TakeCarrot)
def _check_take(state: QuestState, ctx: Ctx, effect: fx.TakeCarrot, ev: Play) -> None:
    if not effect.while_closed and not state.market.open:
        table.refuse("KBQ-MKT-4", "Kaballa's Market is closed")
    want = min(effect.count, len(state.market.carrots))
    if len(ev.carrots) != want or len(set(ev.carrots)) != want:
        table.refuse("KBQ-CARROT-1", f"card {ctx.card} takes {want} different "
                          f"carrot{'s' if want != 1 else ''} of the market, "
                          + (f"not {cards_said(ev.carrots)}" if ev.carrots else "and none is named"),
                          carrots=ev.carrots,
                          market=state.market.carrots[:])
    missing = [c for c in ev.carrots if c not in state.market.carrots]
    if missing:
        table.refuse("KBQ-CARROT-1", f"carrot card {missing[0]} is not in the market",
                          carrot=missing[0], market=state.market.carrots[:])


@QUEST.apply(fx.TakeCarrot)
def _take(state: QuestState, ctx: Ctx, effect: fx.TakeCarrot, out: list[Effect]) -> None:
    chosen = list(ctx.carrots)
    if not chosen:  # a prize: the carrot is chosen after the roll
        if not state.market.open and not effect.while_closed:
            out.append(Effect("KBQ-MKT-4", "closed_market_nothing", {"card": ctx.card}))
            return
        if state.market.carrots:
            state.stack.append(Choice(ctx=ctx, seat=ctx.by, kind="carrot",
                                      count=min(effect.count, len(state.market.carrots)),
                                      options=state.market.carrots[:]))
        return
    ctx.carrots = []
    take_carrots(state, ctx.by, chosen, "KBQ-CARROT-1" if effect.while_closed else
                 table.card_rule(state, ctx.card), out)


def take_carrots(state: QuestState, seat: int, chosen: list[int], rule: str,
                 out: list[Effect]) -> None:
    for carrot in chosen:
        state.market.carrots.remove(carrot)
        state.seats[seat].carrots.append(carrot)
        out.append(Effect(rule, "carrot_taken", {"seat": seat, "carrot": carrot}))
    table.check_end(state, out)


@QUEST.check(fx.StealCarrot)
def _check_steal(state: QuestState, ctx: Ctx, effect: fx.StealCarrot, ev: Play) -> None:
    if not effect.while_closed and not state.market.open:
        table.refuse("KBQ-MKT-4", "Kaballa's Market is closed")


@QUEST.apply(fx.StealCarrot)
def _steal(state: QuestState, ctx: Ctx, effect: fx.StealCarrot, out: list[Effect]) -> None:
    assert effect.die is not None
    state.stack.append(RollCard(ctx=ctx, effect=effect, dice=[effect.die], roller=ctx.by))


def steal_rolled(state: QuestState, ctx: Ctx, effect: fx.StealCarrot, faces: list[int],
                 out: list[Effect]) -> None:
    d = table.deck(state)
    label = str(faces[0])
    rule = table.card_rule(state, ctx.card)
    for seat in range(state.n):
        for carrot in state.seats[seat].carrots:
            if d.carrot_label(carrot) == label:
                if seat == ctx.by:
                    out.append(Effect(rule, "own_carrot", {"carrot": carrot}))
                    return
                if not effect.from_opponents:
                    return
                state.seats[seat].carrots.remove(carrot)
                state.seats[ctx.by].carrots.append(carrot)
                out.append(Effect(rule, "carrot_stolen", {"carrot": carrot, "from": seat,
                                                         "to": ctx.by}))
                return
    for carrot in state.market.carrots:
        if d.carrot_label(carrot) == label and effect.from_market:
            take_carrots(state, ctx.by, [carrot], "KBQ-MKT-5", out)
            return
    out.append(Effect(rule, "no_such_carrot", {"carrot": label}))


@QUEST.check(fx.CarrotUpkeep)
def _check_upkeep(state: QuestState, ctx: Ctx, effect: fx.CarrotUpkeep, ev: Play) -> None:
    seat = check_player(state, ctx, effect.target, ev)
    if not state.seats[seat].carrots:
        table.refuse(table.card_rule(state, ctx.card), f"seat {seat} has no carrot to keep fresh",
                          player=seat)
    ctx.player = seat


@QUEST.apply(fx.CarrotUpkeep)
def _upkeep(state: QuestState, ctx: Ctx, effect: fx.CarrotUpkeep, out: list[Effect]) -> None:
    assert ctx.player is not None
    seat = state.seats[ctx.player]
    if table.money_of(state, ctx.player) < effect.price:
        upkeep_settle(state, ctx, [], None, out)
        return
    state.stack.append(Choice(ctx=ctx, seat=ctx.player, kind="upkeep", count=effect.price,
                              options=seat.carrots[:]))


def upkeep_settle(state: QuestState, ctx: Ctx, kept: list[int], pay: list[int] | None,
                  out: list[Effect]) -> None:
    """The carrots paid for stay; the rest go back to the market, open or closed (R-Q23)."""
    assert ctx.player is not None
    seat = state.seats[ctx.player]
    rule = table.card_rule(state, ctx.card)
    price = CARROT_PRICE_UPKEEP * len(kept)
    if price:
        cards = table.check_pay(state, ctx.player, "money", price, pay, rule)
        table.pay(state, ctx.player, "money", cards, price, rule, out)
    for carrot in [c for c in seat.carrots if c not in kept]:
        seat.carrots.remove(carrot)
        state.market.return_carrot(carrot)
        out.append(Effect(rule, "carrot_returned", {"seat": ctx.player, "carrot": carrot}))


# -- the market ------------------------------------------------------------------------------------


@QUEST.apply(fx.SetPrices)
def _prices(state: QuestState, ctx: Ctx, effect: fx.SetPrices, out: list[Effect]) -> None:
    from engine.killer.catalogue.schema import Prices

    state.market.set_prices(Prices(cabbage=effect.cabbage, water=effect.water,
                                   carrot=effect.carrot))
    out.append(Effect("KBQ-MKT-3", "prices_set", {"cabbage": effect.cabbage,
                                                  "water": effect.water, "carrot": effect.carrot}))


@QUEST.apply(fx.CloseMarket)
def _close(state: QuestState, ctx: Ctx, effect: fx.CloseMarket, out: list[Effect]) -> None:
    state.market.close()
    out.append(Effect("KBQ-MKT-4", "market_closed", {"card": ctx.card}))


@QUEST.apply(fx.HalfPrice)
def _half(state: QuestState, ctx: Ctx, effect: fx.HalfPrice, out: list[Effect]) -> None:
    state.coupon = [ctx.by, 0, 0]
    out.append(Effect(table.card_rule(state, ctx.card), "half_price", {"seat": ctx.by}))


@QUEST.check(fx.GainSupply)
def _check_gain(state: QuestState, ctx: Ctx, effect: fx.GainSupply, ev: Play) -> None:
    if not state.market.open:
        table.refuse("KBQ-MKT-4", "Kaballa's Market is closed: no free supplies (keep the "
                          "card saved until it opens)", card=ctx.card)


@QUEST.apply(fx.GainSupply)
def _gain(state: QuestState, ctx: Ctx, effect: fx.GainSupply, out: list[Effect]) -> None:
    if not state.market.open:
        out.append(Effect("KBQ-MKT-4", "closed_market_nothing", {"card": ctx.card}))
        return
    take_supply(state, ctx.by, effect.kind, effect.cards, table.card_rule(state, ctx.card), out)


def take_supply(state: QuestState, seat: int, kind: str, count: int, rule: str,
                out: list[Effect]) -> None:
    """Small cards from the top of their deck (KBQ-SMALL-1); none left: none come
    (KBQ-SUP-1), unless the house rule reshuffles the discarded ones (R-KBQ-16)."""
    if state.partial:  # the table form: a draw event names each card (R-KBQ-40)
        state.stack.append(Supplies(seat=seat, kind=kind, count=count, rule=rule))  # type: ignore[arg-type]  # cabbage or water
        return
    deck_pile = state.cabbage_deck if kind == "cabbage" else state.water_deck
    got: list[int] = []
    for _ in range(count):
        if not deck_pile and state.opts.reshuffle_supplies:
            discard = state.cabbage_discard if kind == "cabbage" else state.water_discard
            deck_pile.extend(sorted(discard))
            discard.clear()
        if not deck_pile:
            out.append(Effect("KBQ-SUP-1", "supplies_out", {"kind": kind}))
            break
        got.append(deck_pile.pop())
    table.holding_of(state.seats[seat], kind).extend(got)  # type: ignore[arg-type]  # cabbage or water
    out.append(Effect(rule, "supply_taken", {"seat": seat, "kind": kind, "cards": got}))


@QUEST.check(fx.TakeHalfSupply)
def _check_half(state: QuestState, ctx: Ctx, effect: fx.TakeHalfSupply, ev: Play) -> None:
    mine = state.seats[ctx.by]
    if all(table.units_of(state, table.holding_of(mine, k)) for k in effect.kinds):
        table.refuse(table.card_rule(state, ctx.card), f"seat {ctx.by} holds units of every "
                          "supply: Rock Bottom takes only a supply he has none of",
                          seat=ctx.by)
    for seat in ev.sources:
        if not 0 <= seat < state.n or seat == ctx.by or not state.seats[seat].present:
            table.refuse(table.card_rule(state, ctx.card), f"seat {seat} is not an opponent in "
                              "the game", source=seat)


@QUEST.apply(fx.TakeHalfSupply)
def _half_supply(state: QuestState, ctx: Ctx, effect: fx.TakeHalfSupply, out: list[Effect]) -> None:
    """Half (rounded down) of the richest opponent's units, through the bank (R-KBQ-30)."""
    d = table.deck(state)
    rule = table.card_rule(state, ctx.card)
    for i, kind in enumerate(effect.kinds):
        if table.units_of(state, table.holding_of(state.seats[ctx.by], kind)):
            continue
        opponents = [s for s in table.clockwise_from(state, ctx.by) if s != ctx.by]
        most = max((table.units_of(state, table.holding_of(state.seats[s], kind))
                    for s in opponents), default=0)
        if most < 2:
            out.append(Effect(rule, "nothing_to_take", {"kind": kind}))
            continue
        tied = [s for s in opponents
                if table.units_of(state, table.holding_of(state.seats[s], kind)) == most]
        chosen = ctx.sources[i] if i < len(ctx.sources) and ctx.sources[i] in tied else tied[0]
        half = units.half_of(table.holding_of(state.seats[chosen], kind), d.value)
        table.transfer(state, chosen, ctx.by, kind, half, rule, out)


@QUEST.check(fx.GainMoney)
def _check_money(state: QuestState, ctx: Ctx, effect: fx.GainMoney, ev: Play) -> None:
    return None


@QUEST.apply(fx.GainMoney)
def _money(state: QuestState, ctx: Ctx, effect: fx.GainMoney, out: list[Effect]) -> None:
    amount = table.money_of(state, ctx.by) if effect.amount == "equal_to_saved" else effect.amount
    table.payout(state, ctx.by, "money", amount, effect.iou, table.card_rule(state, ctx.card), out)


# -- dice tables -----------------------------------------------------------------------------------


def _check_roll_target(state: QuestState, ctx: Ctx, effect: Any, ev: Play) -> None:
    if effect.target is not None:
        bunny = check_target(state, ctx, effect.target, ev, "gamble")
        ctx.host = bunny


QUEST.check(fx.RollBands, fx.RollPattern)(_check_roll_target)


@QUEST.check(fx.RollMatches)
def _check_matches(state: QuestState, ctx: Ctx, effect: fx.RollMatches, ev: Play) -> None:
    _check_roll_target(state, ctx, effect, ev)  # a card put on a bunny first (a hazard)
    if effect.number == "chosen" and (ev.number is None
                                      or not effect.lowest <= ev.number <= effect.highest):
        table.refuse(table.card_rule(state, ctx.card), f"name a number from {effect.lowest} to "
                          f"{effect.highest}", number=ev.number)


def _roll_card(state: QuestState, ctx: Ctx, effect: Any, out: list[Effect]) -> None:
    dice = effect.dice_named()
    state.stack.append(RollCard(ctx=ctx, effect=effect, dice=dice, roller=_reaper(state, ctx, effect)))


def _reaper(state: QuestState, ctx: Ctx, effect: Any) -> int:
    """Who rolls a card's dice and takes the result, good or bad: the card's player, or the
    owner of the bunny it went on (Carrot Top Casino, the Bakery: R-KBQ-29)."""
    if getattr(effect, "reaps", "player") == "host_owner" and ctx.host is not None \
            and ctx.host in state.circle:
        return state.circle.owner(ctx.host)
    return ctx.by


QUEST.apply(fx.RollBands, fx.RollPattern, fx.RollLowest, fx.RollMatches)(_roll_card)


def rolled(state: QuestState, frame: RollCard, faces: list[int], out: list[Effect]) -> None:
    """A card's dice are in: apply the outcome they pick (its primitives come next)."""
    state.stack.remove(frame)
    then = QUEST.rolled(frame.effect)(state, frame.ctx, frame.effect, faces, out)
    if then:
        ctx = frame.ctx
        # the result is the roller's: the card's player, or the bunny's owner (R-KBQ-29)
        sub = Ctx(card=ctx.card, by=frame.roller, origin="trigger", host=ctx.host, keep=True)
        state.stack.append(Effects(ctx=sub, todo=then))


@QUEST.outcome(fx.RollBands)
def _bands(state: QuestState, ctx: Ctx, effect: fx.RollBands, faces: list[int],
           out: list[Effect]) -> list[fx.AnyEffect]:
    band = effect.band_for(faces[0])
    out.append(Effect(table.card_rule(state, ctx.card), "rolled",
                      {"card": ctx.card, "faces": faces, "band": band.faces}))
    return list(band.then)


@QUEST.outcome(fx.RollPattern)
def _pattern(state: QuestState, ctx: Ctx, effect: fx.RollPattern, faces: list[int],
             out: list[Effect]) -> list[fx.AnyEffect]:
    pattern = rolls.pattern(faces)
    out.append(Effect(table.card_rule(state, ctx.card), "rolled",
                      {"card": ctx.card, "faces": faces, "pattern": pattern}))
    return [e for o in effect.outcomes if o.pattern == pattern for e in o.then]


@QUEST.outcome(fx.RollLowest)
def _lowest(state: QuestState, ctx: Ctx, effect: fx.RollLowest, faces: list[int],
            out: list[Effect]) -> list[fx.AnyEffect]:
    low = rolls.lowest(dict(zip(effect.dice, faces, strict=True)))
    out.append(Effect(table.card_rule(state, ctx.card), "rolled",
                      {"card": ctx.card, "faces": faces, "lowest": low}))
    return fx.merge_revives([e for die in low for e in effect.prizes.get(die, [])])


@QUEST.outcome(fx.RollMatches)
def _matches(state: QuestState, ctx: Ctx, effect: fx.RollMatches, faces: list[int],
             out: list[Effect]) -> list[fx.AnyEffect]:
    number = ctx.number if effect.number == "chosen" else effect.number
    assert number is not None
    hits = rolls.matches(faces, number)
    out.append(Effect(table.card_rule(state, ctx.card), "rolled",
                      {"card": ctx.card, "faces": faces, "number": number, "matches": hits}))
    return fx.merge_revives(list(effect.per_match) * hits if hits else list(effect.if_none))


@QUEST.outcome(fx.StealCarrot)
def _stolen(state: QuestState, ctx: Ctx, effect: fx.StealCarrot, faces: list[int],
            out: list[Effect]) -> list[fx.AnyEffect]:
    steal_rolled(state, ctx, effect, faces, out)
    return []


@QUEST.outcome(fx.Hook)
def _hooked(state: QuestState, ctx: Ctx, effect: fx.Hook, faces: list[int],
            out: list[Effect]) -> list[fx.AnyEffect]:
    HOOK_ROLLED[effect.name](state, ctx, effect, faces, out)
    return []





# -- roll-offs, gambles, auctions ------------------------------------------------------------------


@QUEST.check(fx.RollOff)
def _check_roll_off(state: QuestState, ctx: Ctx, effect: fx.RollOff, ev: Play) -> None:
    if effect.prize == "take_target":
        ctx.host = check_target(state, ctx, effect.target or "any_bunny", ev, "defect")


def roulette_players(state: QuestState) -> list[int]:
    """Who puts a bunny up at Russian Roulette: everyone with a bunny the Halo does not
    protect (a player whose bunnies are all haloed sits out: R-Q20)."""
    return [s for s in table.present(state) if table.can_aggress(state, s)]


@QUEST.apply(fx.RollOff)
def _roll_off(state: QuestState, ctx: Ctx, effect: fx.RollOff, out: list[Effect]) -> None:
    order = table.clockwise_from(state, ctx.by)
    if effect.prize == "take_target":
        off = rolls.start(order, "high", ctx.by, effect.card_player_reroll, picked_wins=True)
        state.stack.append(RollOffFrame(ctx=ctx, purpose="defector", off=off))
        return
    players = [s for s in order if s in roulette_players(state)]
    if len(players) < 2:
        out.append(Effect(table.card_rule(state, ctx.card), "too_few_players", {"players": players}))
        return
    off = rolls.start(players, "low", ctx.by, effect.card_player_reroll, picked_wins=False)
    frame = RollOffFrame(ctx=ctx, purpose="roulette", off=off)
    state.stack.append(frame)
    for seat in reversed(players):
        options = [b for b in state.circle.owned_by(seat) if not table.shielded(state, b, "harm")]
        if len(options) == 1:
            frame.staked[seat] = options
        else:
            state.stack.append(Choice(ctx=ctx, seat=seat, kind="stake", count=1, options=options))


@QUEST.check(fx.Gamble)
def _check_gamble(state: QuestState, ctx: Ctx, effect: fx.Gamble, ev: Play) -> None:
    rule = table.card_rule(state, ctx.card)
    if len(ev.stakes) != 3 or min(ev.stakes) < 0 or not any(ev.stakes):
        table.refuse(rule, "stakes are [Dolla, carrots, bunnies], at least one above 0",
                          stakes=ev.stakes)
    if not can_cover(state, ctx.by, ev.stakes):
        table.refuse(rule, f"seat {ctx.by} cannot put up his own stakes {ev.stakes}",
                          stakes=ev.stakes)
    ctx.stakes = list(ev.stakes)


def can_cover(state: QuestState, seat: int, stakes: list[int]) -> bool:
    s = state.seats[seat]
    return (table.money_of(state, seat) >= stakes[0] and len(s.carrots) >= stakes[1]
            and state.circle.count(seat) >= stakes[2])


@QUEST.apply(fx.Gamble)
def _gamble(state: QuestState, ctx: Ctx, effect: fx.Gamble, out: list[Effect]) -> None:
    players = [s for s in table.clockwise_from(state, ctx.by) if can_cover(state, s, ctx.stakes)]
    if len(players) < 2:
        out.append(Effect(table.card_rule(state, ctx.card), "too_few_players", {"players": players}))
        return
    off = rolls.start(players, "high", ctx.by, effect.card_player_reroll, picked_wins=True)
    frame = RollOffFrame(ctx=ctx, purpose="poker", off=off)
    state.stack.append(frame)
    _, n_carrots, n_bunnies = ctx.stakes
    for seat in reversed(players):
        carrots_held = state.seats[seat].carrots
        bunnies_held = state.circle.owned_by(seat)
        forced_c = n_carrots in (0, len(carrots_held))
        forced_b = n_bunnies in (0, len(bunnies_held))
        if forced_c and forced_b:  # nothing to choose
            frame.staked[seat] = [*(carrots_held if n_carrots else []),
                                  *(bunnies_held if n_bunnies else [])]
        else:
            state.stack.append(Choice(ctx=ctx, seat=seat, kind="stake", count=n_carrots,
                                      options=[*carrots_held, *bunnies_held]))


def settle_roll_off(state: QuestState, frame: RollOffFrame, out: list[Effect]) -> None:
    ctx = frame.ctx
    rule = table.card_rule(state, ctx.card)
    picked = frame.off.decided
    assert picked is not None
    out.append(Effect("KBQ-DICE-2", "roll_off_decided", {"card": ctx.card, "seat": picked,
                                                         "rolls": dict(frame.off.rolls)}))
    if frame.purpose == "defector":
        if ctx.host is not None and ctx.host in state.circle:
            leaving.change_owner(state, ctx.host, picked, rule, out)
        return
    if frame.purpose == "roulette":
        bunny = frame.staked[picked][0]
        if bunny in state.circle:
            leaving.kill(state, bunny, "gamble", rule, out, by=ctx.by)
        return
    dolla = ctx.stakes[0]
    for seat, staked in frame.staked.items():
        if seat == picked:
            continue
        if dolla:
            table.transfer(state, seat, picked, "money", dolla, rule, out)
        for card in staked:
            if card in state.seats[seat].carrots:
                state.seats[seat].carrots.remove(card)
                state.seats[picked].carrots.append(card)
                out.append(Effect(rule, "carrot_won", {"carrot": card, "from": seat,
                                                       "to": picked}))
            elif card in state.circle:
                leaving.change_owner(state, card, picked, rule, out)


@QUEST.check(fx.Auction)
def _check_auction(state: QuestState, ctx: Ctx, effect: fx.Auction, ev: Play) -> None:
    ctx.host = check_target(state, ctx, effect.target, ev, "auction")


@QUEST.apply(fx.Auction)
def _auction(state: QuestState, ctx: Ctx, effect: fx.Auction, out: list[Effect]) -> None:
    assert ctx.host is not None
    state.stack.append(AuctionFrame(ctx=ctx, auction=auctions.start(
        ctx.host, table.clockwise_from(state, ctx.by))))


def settle_auction(state: QuestState, frame: AuctionFrame, out: list[Effect]) -> None:
    a = frame.auction
    rule = table.card_rule(state, frame.ctx.card)
    if a.high_bidder is None or a.item not in state.circle:
        out.append(Effect(rule, "no_sale", {"bunny": a.item}))
        return
    cards = table.check_pay(state, a.high_bidder, "money", a.high_bid, None, rule)
    table.pay(state, a.high_bidder, "money", cards, a.high_bid, rule, out)
    leaving.change_owner(state, a.item, a.high_bidder, rule, out)
    out.append(Effect(rule, "sold", {"bunny": a.item, "to": a.high_bidder, "price": a.high_bid}))


# -- players, hands and run cards ------------------------------------------------------------------


@QUEST.check(fx.SkipTurn)
def _check_skip(state: QuestState, ctx: Ctx, effect: fx.SkipTurn, ev: Play) -> None:
    ctx.player = check_player(state, ctx, effect.target, ev)


@QUEST.apply(fx.SkipTurn)
def _skip(state: QuestState, ctx: Ctx, effect: fx.SkipTurn, out: list[Effect]) -> None:
    assert ctx.player is not None
    state.seats[ctx.player].lose_turns += effect.turns
    out.append(Effect(table.card_rule(state, ctx.card), "turn_to_lose", {"seat": ctx.player}))


@QUEST.check(fx.CurseWeapon)
def _check_curse(state: QuestState, ctx: Ctx, effect: fx.CurseWeapon, ev: Play) -> None:
    ctx.player = check_player(state, ctx, effect.target, ev)


@QUEST.apply(fx.CurseWeapon)
def _curse(state: QuestState, ctx: Ctx, effect: fx.CurseWeapon, out: list[Effect]) -> None:
    assert ctx.player is not None
    state.seats[ctx.player].karma.append(ctx.card)
    ctx.keep = True
    out.append(Effect(table.card_rule(state, ctx.card), "karma_given", {"seat": ctx.player}))


@QUEST.check(fx.DiscardHand)
def _check_geneva(state: QuestState, ctx: Ctx, effect: fx.DiscardHand, ev: Play) -> None:
    ctx.player = check_player(state, ctx, effect.target, ev)


@QUEST.apply(fx.DiscardHand)
def _geneva(state: QuestState, ctx: Ctx, effect: fx.DiscardHand, out: list[Effect]) -> None:
    assert ctx.player is not None
    if unknowns.needs_showing(state, ctx.player, effect, ctx):
        return  # the table form: the game waits for the weapons shown (R-KBQ-43)
    d = table.deck(state)
    hand = state.seats[ctx.player].hand
    weapons = [c for c in hand if d.is_weapon(c)]
    for c in weapons:
        hand.remove(c)
    if effect.to == "discard":
        table.to_discard(state, weapons, out)
    elif state.partial:  # under the draw pile, unseen again (R-KBQ-3, R-KBQ-43)
        state.pool.update(weapons)
        state.draw[0:0] = [HIDDEN] * len(weapons)
    else:
        state.draw[0:0] = weapons  # under the draw pile (the 2002 "swap": R-KBQ-3)
    out.append(Effect(table.card_rule(state, ctx.card), "weapons_given_up",
                      {"seat": ctx.player, "cards": weapons, "to": effect.to}))
    if weapons:
        table.draw_cards(state, ctx.player, len(weapons), "none")


@QUEST.check(fx.ExchangeHandWeapon)
def _check_exchange(state: QuestState, ctx: Ctx, effect: fx.ExchangeHandWeapon, ev: Play) -> None:
    d = table.deck(state)
    mine = [c for c in state.seats[ctx.by].hand if d.is_weapon(c) and c != ctx.card]
    if not mine and HIDDEN not in state.seats[ctx.by].hand:  # unknown cards: undetermined (R-KBQ-43)
        table.refuse(table.card_rule(state, ctx.card), f"seat {ctx.by} needs a weapon in his "
                          "hand to exchange", seat=ctx.by)
    ctx.player = check_player(state, ctx, "opponent", ev)


@QUEST.apply(fx.ExchangeHandWeapon)
def _exchange(state: QuestState, ctx: Ctx, effect: fx.ExchangeHandWeapon, out: list[Effect]) -> None:
    assert ctx.player is not None
    d = table.deck(state)
    theirs = [c for c in state.seats[ctx.player].hand if d.is_weapon(c)]
    mine = [c for c in state.seats[ctx.by].hand if d.is_weapon(c)]
    if state.partial and (HIDDEN in state.seats[ctx.player].hand or HIDDEN in state.seats[ctx.by].hand):
        # The table form (R-KBQ-43): the weapons were shown to the card's player alone; the
        # choice says what was swapped, "?" where the recorder did not see it, or nothing.
        rule = table.card_rule(state, ctx.card)
        if not mine and HIDDEN in state.seats[ctx.by].hand:
            needs = f"legal only if seat {ctx.by}'s hand held a weapon to exchange"
            out.append(undetermined(rule, needs, seat=ctx.by))
            doubt(state, rule, ctx.by, "weapon", needs)  # settled by the weapon he gives
        out.append(Effect(rule, "weapons_shown", {"seat": ctx.player, "to": ctx.by,
                                                  "cards": theirs}))
        state.stack.append(Choice(ctx=ctx, seat=ctx.by, kind="exchange", options=theirs))
        return
    out.append(Effect(table.card_rule(state, ctx.card), "weapons_shown",
                      {"seat": ctx.player, "to": ctx.by, "cards": theirs}))
    if theirs and mine:
        state.stack.append(Choice(ctx=ctx, seat=ctx.by, kind="exchange", options=theirs))


@QUEST.apply(fx.RotateTopRun)
def _rotate(state: QuestState, ctx: Ctx, effect: fx.RotateTopRun, out: list[Effect]) -> None:
    """Every top run card passes on; a player whose top position is empty at that moment
    (his own card is being played from it) is passed over (R-KBQ-38)."""
    from engine.killer import run

    seats = [s for s in table.present(state) if state.seats[s].run.top is not None]
    if len(seats) > 1:
        run.rotate_tops([st.run for st in state.seats], seats, effect.direction)
    out.append(Effect(table.card_rule(state, ctx.card), "top_runs_rotated", {"seats": seats}))
    if len(seats) > 1:
        out.append(Effect("KBQ-ADJ-1", "passed_to_neighbour", {"direction": effect.direction}))




@QUEST.check(fx.BoostWeapons)
def _check_boost(state: QuestState, ctx: Ctx, effect: fx.BoostWeapons, ev: Play) -> None:
    table.refuse(table.card_rule(state, ctx.card), f"card {ctx.card} works only while saved: "
                      "save it when it is flipped", card=ctx.card)


QUEST.apply(fx.BoostWeapons)(lambda state, ctx, effect, out: None)


# -- the one hook: the Black Cat -------------------------------------------------------------------

HOOK_ROLLED: dict[str, Callable[[QuestState, Ctx, fx.Hook, list[int], list[Effect]], None]] = {}


def _clovers_under(state: QuestState, bunny: int) -> list[int]:
    d = table.deck(state)
    return [c for c in state.circle.space(bunny).under
            if (m := d.card(c).modifier) is not None and m.clover]


def _check_black_cat(state: QuestState, ctx: Ctx, effect: fx.Hook, ev: Play) -> None:
    target = str(effect.params.get("target", "any_bunny"))
    ctx.host = check_target(state, ctx, target, ev, "clovers")


@HOOKS.register("black_cat")
def _black_cat(state: QuestState, ctx: Ctx, effect: fx.Hook, out: list[Effect]) -> None:
    """Every clover comes off the bunny; the green d12 decides where they go (R-KBQ-31)."""
    assert ctx.host is not None
    clovers = _clovers_under(state, ctx.host)
    if not clovers:
        out.append(Effect(table.card_rule(state, ctx.card), "no_clovers", {"bunny": ctx.host}))
        return
    state.stack.append(RollCard(ctx=ctx, effect=effect, dice=[str(effect.params["die"])],
                                roller=ctx.by))


def _black_cat_rolled(state: QuestState, ctx: Ctx, effect: fx.Hook, faces: list[int],
                      out: list[Effect]) -> None:
    assert ctx.host is not None
    rule = table.card_rule(state, ctx.card)
    clovers = _clovers_under(state, ctx.host)
    space = state.circle.space(ctx.host)
    for c in clovers:
        space.under.remove(c)
    out.append(Effect(rule, "clovers_taken", {"bunny": ctx.host, "cards": clovers,
                                              "face": faces[0]}))
    if faces[0] % 2 == 0:
        table.to_discard(state, clovers, out)
        return
    if effect.params.get("odd") == "to_own_bunny":
        options = state.circle.owned_by(ctx.by)
    else:
        options = state.circle.order[:]
    if not options:
        table.to_discard(state, clovers, out)
        return
    state.stack.append(Choice(ctx=ctx, seat=ctx.by, kind="clovers", count=len(clovers),
                              options=clovers))


HOOK_ROLLED["black_cat"] = _black_cat_rolled
HOOK_CHECKS["black_cat"] = _check_black_cat


@QUEST.check(fx.Hook)
def _check_hook(state: QuestState, ctx: Ctx, effect: fx.Hook, ev: Play) -> None:
    HOOK_CHECKS[effect.name](state, ctx, effect, ev)


@QUEST.apply(fx.Hook)
def _hook(state: QuestState, ctx: Ctx, effect: fx.Hook, out: list[Effect]) -> None:
    HOOKS.get(effect.name)(state, ctx, effect, out)


# -- Play Immediately ------------------------------------------------------------------------------


PLAY_CHOICES = ("on", "at", "player", "carrots", "number", "weapon", "roamer", "stakes", "sources")
"""The fields of a play that are the card's choices."""

_EVERY = frozenset(PLAY_CHOICES)
QUEST.fields.update({
    fx.EnterCircle: frozenset({"at"}), fx.Attach: frozenset({"on"}),
    fx.Attack: frozenset({"on", "roamer"}), fx.Kill: frozenset({"on"}),
    fx.Abduct: frozenset({"on"}), fx.Revive: frozenset(), fx.Feed: frozenset({"on"}),
    fx.SettleFeed: frozenset({"on"}), fx.TakeCarrot: frozenset({"carrots"}),
    fx.StealCarrot: frozenset(), fx.CarrotUpkeep: frozenset({"player"}),
    fx.SetPrices: frozenset(), fx.CloseMarket: frozenset(), fx.HalfPrice: frozenset(),
    fx.GainSupply: frozenset(), fx.LoseSupply: frozenset({"player"}),
    fx.TakeHalfSupply: frozenset({"sources"}), fx.GainMoney: frozenset(),
    fx.RollBands: frozenset({"on"}), fx.RollPattern: frozenset({"on"}),
    fx.RollLowest: frozenset(), fx.RollMatches: frozenset({"number"}),
    fx.RollOff: frozenset({"on"}), fx.Gamble: frozenset({"stakes"}),
    fx.Auction: frozenset({"on"}), fx.SkipTurn: frozenset({"player"}),
    fx.CurseWeapon: frozenset({"player"}), fx.DiscardHand: frozenset({"player"}),
    fx.ExchangeHandWeapon: frozenset({"player"}), fx.RotateTopRun: frozenset(),
    fx.Cancel: frozenset({"weapon"}), fx.Clear: frozenset(), fx.Redirect: frozenset({"on"}),
    fx.ReuseWeapon: frozenset({"weapon", "on"}), fx.BoostWeapons: frozenset(),
    fx.Roam: frozenset({"on"}), fx.Dormant: frozenset({"on"}),
})
"""Primitive -> the choices a play of it may name (a hook: any). A play naming a choice
none of its card's primitives takes is refused by the card's rule: a bunny goes into the
circle, not on a bunny; a price card names nobody (R-KBQ-10)."""


def takes_of(effect: fx.AnyEffect) -> frozenset[str]:
    """The choices a play of this primitive may name: its kind's (``QUEST.fields``; any, for
    a kind that lists none)."""
    return QUEST.takes_of(effect, _EVERY)


@QUEST.takes_by(fx.RollMatches)
def _hazard_takes(effect: fx.RollMatches, takes: frozenset[str]) -> frozenset[str]:
    """A dice card put on a bunny first (a ``target``) names that bunny (``on``)."""
    return takes | {"on"} if effect.target is not None else takes


def named_choices(ev: Play) -> list[str]:
    # the fields of PLAY_CHOICES, in its order, read at once
    values = (ev.on, ev.at, ev.player, ev.carrots, ev.number, ev.weapon, ev.roamer, ev.stakes,
              ev.sources)
    return [f for f, v in zip(PLAY_CHOICES, values, strict=True) if v not in _UNNAMED]


_UNNAMED: tuple[object, ...] = (None, [], False)
"""A choice left at one of these is not named (0 counts as False, as ``in`` compares)."""


def check_card_play(state: QuestState, ctx: Ctx, ev: Play) -> None:
    """Every top-level primitive of the card accepts the play's choices (nothing changes),
    and the play names no choice the card does not take."""
    d = _DECKS.get(state.deck) or table.deck(state)
    effects = d.effects(ctx.card)
    QUEST.check_card(state, ctx, effects, ev, table.KIT_RULES)
    named = named_choices(ev)
    if named:
        takes = d.takes.get(ctx.card)
        if takes is None:  # the card's primitives are fixed: their choices are read once
            takes = d.takes[ctx.card] = frozenset().union(*(takes_of(e) for e in effects))
        extra = [f for f in named if f not in takes]
        if extra:
            raise RuleViolation(table.card_rule(state, ctx.card), f"card {ctx.card} asks for no "
                                f"{choices_said([extra[0]]).removeprefix('a ')} (it asks for "
                                f"{choices_said(sorted(takes))})",
                                card=ctx.card, choice=extra[0])


# -- the steps of a card's frames in the turn's flow (flow.STEPS) -------------------------------


def _one_a_step() -> bool:
    return True


def apply_primitive(state: QuestState, ctx: Ctx, effect: fx.AnyEffect, out: list[Effect]) -> None:
    """One primitive of a card, applied (engine.killer_bunnies_quest.drawing resumes one)."""
    QUEST.resolve(state, ctx, [effect], out)


@flow.step(Effects)
def _effects_step(state: QuestState, frame: Effects, out: list[Effect]) -> bool:
    if frame.todo:
        # the card's continuation is its frame's ``todo``, a primitive a step: the flow then
        # resolves whatever the primitive put on the stack (an attack, a roll, a choice) first
        QUEST.resolve(state, frame.ctx, frame.todo, out, _one_a_step)
        return True
    state.stack.pop()
    flow.finish_card(state, frame.ctx, out)
    return True

@flow.step(RollOffFrame)
def _roll_off_step(state: QuestState, frame: RollOffFrame, out: list[Effect]) -> bool:
    if frame.off.decided is None:
        return False
    state.stack.pop()
    settle_roll_off(state, frame, out)
    return True

@flow.step(AuctionFrame)
def _auction_step(state: QuestState, frame: AuctionFrame, out: list[Effect]) -> bool:
    from engine.killer_bunnies_quest.auction import over

    if not over(frame.auction):
        return False
    state.stack.pop()
    settle_auction(state, frame, out)
    return True
