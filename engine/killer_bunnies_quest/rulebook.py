"""The rules of Killer Bunnies and the Quest for the Magic Carrot, paraphrased, in the
order the rulebook gives them, each with its id and source.

Sections of killer-bunnies-quest.txt: Play Immediately Cards, Run Cards, Special Cards,
Very Special Cards (More Card Information); A Turn A Round, Adjacent, Aggressive Cards,
Bunny Triplets, Discarded Supplies, Face Up, Game Length, Joining Late / Leaving Early,
Making Change, Modifier Cards, Order Of Operations, Positioning Of Bunnies, Reshuffling,
Reviving Bunnies, Roaming Red Run Cards, Trading, Cabbage Cards And Water Cards, Choose A
Carrot, Feed The Bunny, Kaballa's Market, Lucky Clover Cards, Weapons (Game Mechanics).
What the text leaves out (set-up, the end, dice details) are rulings R-KBQ-n in
docs/rulings.md, section killer-bunnies-quest. Every card of the box that is played also
has a rule, ``KBQ-CARD-<ID>``, whose paraphrase is the card's own entry in the deck files.
"""

from __future__ import annotations

from engine.killer.catalogue.loader import DeckLibrary
from engine.killer.catalogue.schema import Card
from engine.killer_bunnies_quest.catalogue import CARDS_DIR
from engine.rules import Rule, Rulebook

SRC = "killer-bunnies-quest.txt"
FACTS = "docs/card-facts.md"
RUL = "docs/rulings.md#r-kbq-"


def _r(*ns: int) -> str:
    return "; ".join(f"{RUL}{n}" for n in ns)


CUSTOM_CARD = "KBQ-CARD-CUSTOM"
"""The rule cited for what a card of a user's own deck file does."""


def card_rule_id(card_id: str) -> str:
    """The rule id of a card definition: ``fluorine-gas`` -> ``KBQ-CARD-FLUORINE-GAS``."""
    return "KBQ-CARD-" + card_id.upper()


MECHANICS = [
    # -- Play Immediately cards ------------------------------------------------------------
    Rule("KBQ-PI-1", "A Play Immediately card is played the moment it is drawn: one of the "
         "drawer's own bunnies, of his choice, dies.", f"{SRC} §Play Immediately Cards; {_r(8)}"),
    Rule("KBQ-PI-2", "With no bunny of his own that it can hit (none in the circle, or only "
         "haloed ones), the drawer puts it on an opponent's bunny, which dies.",
         f"{SRC} §Play Immediately Cards; {_r(8)}"),
    Rule("KBQ-PI-3", "With no bunny anywhere that it can hit, a Play Immediately card is "
         "discarded unused and the drawer draws again.", _r(8)),
    # -- Run cards ---------------------------------------------------------------------------
    Rule("KBQ-RUN-1", "A Run card is played only through the run positions: down at the bottom, "
         "slid to the top, flipped; only the top run card is flipped.", f"{SRC} §Run Cards"),
    Rule("KBQ-RUN-2", "A card with a pink box needs a bunny of its player in the Bunny Circle; "
         "flipped without one, it must be discarded.", f"{SRC} §Run Cards; {_r(9)}"),
    Rule("KBQ-RUN-3", "Run cards are never saved.", f"{SRC} §Run Cards"),
    # -- Special cards -----------------------------------------------------------------------
    Rule("KBQ-SPC-1", "A flipped Special (or Very Special) card is either played like a Run "
         "card or saved face up beside its player.", f"{SRC} §Special Cards"),
    Rule("KBQ-SPC-2", "A Special card may be played straight from hand as the turn's card, "
         "leaving the run cards in place.", f"{SRC} §Special Cards; §A Turn, A Round (4)"),
    Rule("KBQ-SPC-3", "A Special card may be discarded straight from hand as the turn's card.",
         f"{SRC} §Special Cards"),
    Rule("KBQ-SPC-4", "A Special card is never saved straight from hand: only by the run cycle.",
         f"{SRC} §Special Cards"),
    Rule("KBQ-SPC-5", "Saved Special cards, any number of them, are played during their "
         "player's own turn, besides his card; a Special is never played on another's turn.",
         f"{SRC} §Special Cards; §Order Of Operations; {FACTS} §1.7 R-Q29"),
    # -- Very Special cards ------------------------------------------------------------------
    Rule("KBQ-VSP-1", "A Very Special card, saved or from hand, may be played during any "
         "player's turn.", f"{SRC} §Very Special Cards; {_r(32)}"),
    Rule("KBQ-VSP-2", "Playing a Very Special card is not the player's turn; one played from "
         "hand is replaced from the draw pile at once.", f"{SRC} §Very Special Cards; {_r(7)}"),
    # -- a turn, a round ---------------------------------------------------------------------
    Rule("KBQ-TURN-1", "On his turn a player plays one card in one of four ways: flip and play "
         "the top run card, flip and discard it, flip and save it (Special or Very Special "
         "only), or play a Special card from hand.", f"{SRC} §A Turn, A Round"),
    Rule("KBQ-TURN-2", "Turns go clockwise round the players in the game; a round is complete "
         "when each has had one turn.", f"{SRC} §A Turn, A Round; {_r(5, 25)}"),
    Rule("KBQ-TURN-3", "A turn is over once its card is played and replaced: flip, slide the "
         "bottom card up, draw back to five, lay a new bottom card (a Special from hand is "
         "simply replaced).", f"{SRC} §Order Of Operations; {_r(7)}"),
    Rule("KBQ-TURN-4", "Only the player whose turn it is plays then; anyone else acts only when "
         "the game waits for him (a roll, a bid, a choice) or with a Very Special card.",
         f"{SRC} §A Turn, A Round; §Very Special Cards; {_r(7, 32)}"),
    Rule("KBQ-TURN-5", "A player who has lost his turn (Baker Street) does nothing in it; the "
         "turn still ends for deadlines and roaming cards.", _r(17)),
    # -- adjacent ---------------------------------------------------------------------------
    Rule("KBQ-ADJ-1", "Adjacent players are the players directly left and right.",
         f"{SRC} §Adjacent"),
    Rule("KBQ-ADJ-2", "Adjacent bunnies are the bunnies directly left and right of the target in "
         "the circle, whoever owns them; N spaces away counts both sides.", f"{SRC} §Adjacent"),
    # -- aggressive cards --------------------------------------------------------------------
    Rule("KBQ-AGG-1", "Every card with a pink box is Aggressive, except Choose A Carrot cards.",
         f"{SRC} §Aggressive Cards"),
    Rule("KBQ-AGG-2", "An Aggressive card needs a bunny of its player in the circle that the "
         "Heavenly Halo does not protect; Choose A Carrot needs only a bunny.",
         f"{FACTS} §1.7 R-Q9, R-Q12; {_r(9)}"),
    # -- bunny triplets ----------------------------------------------------------------------
    Rule("KBQ-TRIP-1", "Three of a player's bunnies in the circle of one colour or one kind (a "
         "Free Agent counting as any) let him play a second card in his turn.",
         f"{SRC} §Bunny Triplets; {FACTS} §1.7 R-Q26"),
    Rule("KBQ-TRIP-2", "A triplet made by the turn's first card allows the second card that turn.",
         f"{SRC} §Bunny Triplets"),
    Rule("KBQ-TRIP-3", "However many triplets he has, a player plays at most two cards a turn.",
         f"{SRC} §Bunny Triplets"),
    Rule("KBQ-TRIP-4", "With two cards: the first is played and replaced, the triplet is checked "
         "again, and only then is the second played.",
         f"{SRC} §Bunny Triplets; §Order Of Operations; {FACTS} §1.7 R-Q30"),
    # -- supplies, face up, game length --------------------------------------------------------
    Rule("KBQ-SUP-1", "Cabbage and water cards spent go face up to their discard piles, which "
         "are never reshuffled: once the small decks are drawn out, no more come.",
         f"{SRC} §Discarded Supplies; §Reshuffling; {_r(16)}"),
    Rule("KBQ-FACE-1", "Saved cards, Dolla, cabbage, water and carrots lie face up for all to see.",
         f"{SRC} §Face Up"),
    Rule("KBQ-LEN-1", "House rule for long games: each player starts with carrots from the market.",
         f"{SRC} §Game Length; {_r(4)}"),
    Rule("KBQ-LEN-2", "House rule for short games: some Choose A Carrot cards are left out.",
         f"{SRC} §Game Length; {_r(4)}"),
    # -- joining late, leaving early -------------------------------------------------------------
    Rule("KBQ-JOIN-1", "A late player joins by taking seven cards from the draw pile (Play "
         "Immediately cards among them are discarded unused), lays his two run cards, and play "
         "goes on.", f"{SRC} §Joining Late / Leaving Early; {_r(25)}"),
    Rule("KBQ-LEAVE-1", "A player who leaves returns his carrots to the market and discards his "
         "supplies and his seven cards.",
         f"{SRC} §Joining Late / Leaving Early; {_r(25)}"),
    Rule("KBQ-LEAVE-2", "A player who leaves may not give away his carrots, Dolla, saved Special "
         "or Very Special cards or supplies to players still in the game.",
         f"{SRC} §Joining Late / Leaving Early; {_r(25)}"),
    # -- making change -----------------------------------------------------------------------------
    Rule("KBQ-CHANGE-1", "A player who overpays in Dolla, cabbage or water takes his change from "
         "the discard pile of that kind.", f"{SRC} §Making Change; {_r(13)}"),
    Rule("KBQ-CHANGE-2", "Change the discard pile cannot make is owed to the player and paid as "
         "soon as the pile can.", f"{SRC} §Making Change; {_r(13)}"),
    # -- modifier cards ----------------------------------------------------------------------------
    Rule("KBQ-MOD-1", "A Bunny Modifier goes under any bunny in the circle; several may lie "
         "under one bunny.", f"{SRC} §Modifier Cards"),
    Rule("KBQ-MOD-2", "A modifier once placed never moves to another bunny.",
         f"{SRC} §Modifier Cards"),
    Rule("KBQ-MOD-3", "A modifier flipped by a player with no bunny is discarded or put under an "
         "opponent's bunny.", f"{SRC} §Modifier Cards"),
    Rule("KBQ-MOD-4", "A bunny that leaves the circle takes its modifiers (and the cards on it) "
         "to the discard pile.", f"{SRC} §Modifier Cards; {FACTS} §1.7 R-Q10, R-Q12"),
    Rule("KBQ-MOD-5", "A card aimed at a single bunny must be able to affect it: a bunny a "
         "modifier protects is no target for it.", f"{FACTS} §1.7 R-Q9; {_r(10)}"),
    # -- order of operations -----------------------------------------------------------------------
    Rule("KBQ-ORDER-1", "A player buys at the market only during his own turn, before his card "
         "or at any moment before the turn is over.",
         f"{SRC} §Order Of Operations; §Kaballa's Market; {_r(7, 15)}"),
    Rule("KBQ-ORDER-2", "Saved Special cards are played before the turn's card or at any moment "
         "before the turn is over.", f"{SRC} §Order Of Operations"),
    # -- positioning, reshuffling, reviving --------------------------------------------------------
    Rule("KBQ-POS-1", "A bunny flipped into play or revived is placed anywhere in the circle: "
         "left, right or between the bunnies there.", f"{SRC} §Positioning Of Bunnies; {_r(27)}"),
    Rule("KBQ-POS-2", "A bunny already in the circle is never repositioned (one that changes "
         "hands stays where it is).", f"{SRC} §Positioning Of Bunnies"),
    Rule("KBQ-SHUF-1", "When the draw pile runs out, every large card of the discard pile is "
         "reshuffled into a new draw pile; supply cards never are.",
         f"{SRC} §Reshuffling; {_r(35)}"),
    Rule("KBQ-REV-1", "A revived bunny comes from the discard pile only (none there: nothing is "
         "revived) and goes straight into the circle.", f"{SRC} §Reviving Bunnies; {_r(27)}"),
    # -- roaming red runs --------------------------------------------------------------------------
    Rule("KBQ-ROAM-1", "A Roaming Red Run attacks the bunny it is put on, then moves on to the "
         "next viable bunny in its direction (Cyber Bunny clockwise, the Ebola Virus "
         "counter-clockwise) and waits on it.", f"{SRC} §Roaming Red Run Cards; {_r(18)}"),
    Rule("KBQ-ROAM-2", "It attacks again at the end of each of its launcher's turns, starting a "
         "round after the launch, and may come round to its launcher's own bunnies.",
         f"{SRC} §Roaming Red Run Cards; {_r(18)}"),
    Rule("KBQ-ROAM-3", "It stays in play until it is eliminated or no viable bunny is left; then "
         "it is discarded.", f"{SRC} §Roaming Red Run Cards; {FACTS} §1.7 R-Q13, R-Q14"),
    Rule("KBQ-ROAM-4", "The owner of the bunny it attacks rolls its die.",
         f"{SRC} §Roaming Red Run Cards"),
    # -- trading -----------------------------------------------------------------------------------
    Rule("KBQ-TRADE-1", "Trades happen only during the turn of one of the two traders.",
         f"{SRC} §Trading"),
    Rule("KBQ-TRADE-2", "Cabbage and water cards, Dolla, saved Special and Very Special cards, "
         "carrots and bunnies in the circle trade in any amounts.", f"{SRC} §Trading; {_r(26)}"),
    Rule("KBQ-TRADE-3", "Hand cards trade one for one, so every hand keeps five cards.",
         f"{SRC} §Trading"),
    Rule("KBQ-TRADE-4", "Cards in the run positions are never traded.", f"{SRC} §Trading"),
    Rule("KBQ-TRADE-5", "Each bunny, saved card and carrot may be traded only once a game.",
         f"{FACTS} §1.7 R-Q27; {_r(26)}"),
    # -- cabbage and water, choose a carrot --------------------------------------------------------
    Rule("KBQ-SMALL-1", "The market sells cabbage and water cards, not units: a card bought is "
         "the top card of its shuffled small deck, whatever its units.",
         f"{SRC} §Cabbage Cards And Water Cards; {_r(6, 15)}"),
    Rule("KBQ-CARROT-1", "Choose A Carrot cards take carrots of the player's choice from the "
         "market, open or closed.", f"{SRC} §Choose A Carrot; {_r(36)}"),
    Rule("KBQ-END-1", "When the last carrot leaves the market the game is over at once (no card "
         "is drawn after it) and the Magic Carrot is revealed.",
         f"{SRC} §Choose A Carrot; {FACTS} §1.7 R-Q1; {_r(24)}"),
    Rule("KBQ-END-2", "The Magic Carrot is the one named by the bottom card of the small carrot "
         "deck, shuffled at set-up and unseen until the end.", f"{FACTS} §1.7 R-Q3; {_r(5, 24)}"),
    Rule("KBQ-END-3", "Only a player with a bunny (in the circle or held by the aliens) can "
         "win: first, every player without one hands his carrots to the player with a bunny "
         "and the most Dolla.", f"{FACTS} §1.7 R-Q2; {_r(24)}"),
    Rule("KBQ-END-4", "The owner of the Magic Carrot wins; nothing happens after the end.",
         f"{FACTS} §1.7 R-Q1, R-Q2; {_r(24)}"),
    # -- feed the bunny ----------------------------------------------------------------------------
    Rule("KBQ-FEED-1", "A Feed The Bunny card goes on an opponent's bunny; its owner owes the "
         "units shown by the end of his next turn.", f"{SRC} §Feed The Bunny; {_r(11)}"),
    Rule("KBQ-FEED-2", "The owner feeds during his own turn, paying cabbage and water cards "
         "(buying or trading for them first if he likes).", f"{SRC} §Feed The Bunny; {_r(14)}"),
    Rule("KBQ-FEED-3", "A bunny not fed by the end of that turn dies of hunger.",
         f"{SRC} §Feed The Bunny"),
    Rule("KBQ-FEED-4", "A pending feed does not stop its owner playing Aggressive cards.",
         f"{SRC} §Feed The Bunny"),
    Rule("KBQ-FEED-5", "Several Feed The Bunny cards may sit on one bunny; each is settled on "
         "its own.", f"{SRC} §Feed The Bunny"),
    Rule("KBQ-FEED-6", "A feed due at once (a Casino or Bakery result) is paid on the spot from "
         "the supplies the owner holds, or the bunny dies.", f"{FACTS} §1.7 R-Q18; {_r(14)}"),
    # -- kaballa's market --------------------------------------------------------------------------
    Rule("KBQ-MKT-1", "A player buys cabbage cards, water cards and carrots at the market's "
         "prices with his Dolla while the market is open; he needs no bunny.",
         f"{SRC} §Kaballa's Market; {_r(15)}"),
    Rule("KBQ-MKT-2", "The market is open at the start, at the starter card's prices.",
         f"{SRC} §Kaballa's Market; {FACTS} §1.7 R-Q5"),
    Rule("KBQ-MKT-3", "A price card sets new prices and opens the market, closed or not.",
         f"{SRC} §Kaballa's Market"),
    Rule("KBQ-MKT-4", "While the market is closed nothing comes from it: no purchase, no free "
         "supplies (such cards may stay saved), no cabbage, water or carrot as a prize.",
         f"{SRC} §Kaballa's Market; {FACTS} §1.7 R-Q6"),
    Rule("KBQ-MKT-5", "Choose A Carrot and Carrot Thief take carrots even from a closed market.",
         f"{SRC} §Kaballa's Market"),
    # -- lucky clovers, weapons --------------------------------------------------------------------
    Rule("KBQ-CLOVER-1", "Each Lucky Clover under a bunny lowers every weapon's level against it "
         "by its number (never below 0); clovers under one bunny add up.",
         f"{SRC} §Lucky Clover Cards; {FACTS} §1.7 R-Q11"),
    Rule("KBQ-WPN-1", "A weapon goes on an opponent's bunny, and its owner rolls the black d12 "
         "at once (a roll is made only when the outcome is open).",
         f"{SRC} §Weapons; {_r(11, 12)}"),
    Rule("KBQ-WPN-2", "The bunny dies unless the roll is higher than the weapon's level.",
         f"{SRC} §Weapons"),
    # -- set-up and the game's own numbers (rulings) -----------------------------------------------
    Rule("KBQ-SET-1", "2 to 8 players; the set-up records the shuffled draw pile, the shuffled "
         "small decks and the first player, and names the cards played with.", _r(1, 2, 5)),
    Rule("KBQ-SET-2", "Each player is dealt seven cards (Dolla go face up and are replaced, Play "
         "Immediately cards are discarded and replaced) and lays two as his top and bottom "
         "run cards.", _r(5)),
    Rule("KBQ-SET-3", "The market starts with every large carrot of the deck set.", _r(5)),
    Rule("KBQ-DRAW-1", "A Dolla card drawn goes face up beside its player at once, and he draws "
         "again.", f"{FACTS} §1.2 rows 87-101; {_r(5)}"),
    Rule("KBQ-DICE-1", "A die roll is recorded, and its face must be one the die has.", _r(12)),
    Rule("KBQ-DICE-2", "In a roll-off ties roll again among the tied; the card's player may "
         "re-roll his own die once (the 2002 printing: he rolls twice and keeps the better).",
         f"{FACTS} §1.7 R-Q20; {_r(21)}"),
    Rule("KBQ-BID-1", "In an auction bids go round from the card's player in turn order; a bid "
         "beats the standing one and is no more than the bidder holds; a pass is final.", _r(22)),
    Rule(CUSTOM_CARD, "A card from a user's own deck file does what its entry says.",
         "docs/catalogue.md"),
]


def _box_cards() -> list[Card]:
    lib = DeckLibrary([CARDS_DIR])
    cards = {c.id: c for c in lib.catalogue("blue-starter").by_id.values()}
    for c in lib.catalogue("blue-starter", "2002").by_id.values():
        cards.setdefault(c.id, c)
    return sorted(cards.values(), key=lambda c: (c.numbers[0] if c.numbers else 0, c.id))


BOX_CARDS = _box_cards()
"""Every card definition of the Blue Starter box (both printings have the same ids)."""

PLAYED = frozenset({"run", "special", "very_special", "play_immediately", "roaming_red_run"})
"""Card types that are played and so have a rule of their own; Dolla, carrots, the starter
card and the small cards do only what the mechanic rules say (KBQ-DRAW-1, KBQ-MKT-2,
KBQ-SMALL-1, KBQ-END-2)."""

CARD_RULES = [Rule(card_rule_id(c.id), c.text or c.name, c.source or FACTS) for c in BOX_CARDS
              if c.type in PLAYED]

RULES = Rulebook("Killer Bunnies and the Quest for the Magic Carrot", SRC,
                 [*MECHANICS, *CARD_RULES])
