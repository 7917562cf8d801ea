"""The rules of Killer Bunnies and the Ultimate Odyssey, each with an id, a paraphrase in
warren's own words and its source: the rulebook's section, or a ruling of warren's own
(docs/rulings.md, section killer-bunnies-odyssey, ``R-ODY-n``) where the rulebook leaves a
number or a case out.

``grep -rn ODY-HEX-2`` finds a rule's definition here, the code that enforces it and the
tests and dispute scenarios that show it allowing and forbidding.
"""

from __future__ import annotations

from engine.rules import Rule, Rulebook

SOURCE = "killer-bunnies-odyssey.txt"
RULINGS = "docs/rulings.md#killer-bunnies-odyssey"


def _r(rule_id: str, text: str, section: str) -> Rule:
    source = f"{RULINGS} {section}" if section.startswith("R-ODY") else f"{SOURCE} §{section}"
    return Rule(rule_id, text, source)


RULES = Rulebook("Killer Bunnies and the Ultimate Odyssey", SOURCE, [
    # -- decks and set-up ------------------------------------------------------------------
    _r("ODY-DECK-1", "Each player plays his own deck of at least 60 cards, every one of them known "
       "to the catalogue; it is his draw pile, for his use only.", "Getting Started"),
    _r("ODY-DECK-2", "A record names every player's deck list and its content hash, and is never "
       "replayed under other cards.", "R-ODY-4"),
    _r("ODY-ID-1", "A card is named by its Card Identification Number: two letters, then two "
       "numbers.", "Card Identification Number"),
    _r("ODY-CIV-1", "Every player starts with 10 Civ points on his d20.", "Getting Started"),
    _r("ODY-SHUF-1", "A shuffle is recorded as the order it left, and holds exactly the cards of "
       "the pile.", "Shuffling"),
    _r("ODY-SHUF-2", "Once cards have been added to or taken from a draw pile, it is shuffled and "
       "an opponent cuts it before play goes on.", "Shuffling"),
    _r("ODY-SHUF-3", "A cut leaves at least five cards on each side of it, unless the pile holds "
       "fewer than ten.", "Shuffling"),
    _r("ODY-DEAL-1", "At the start each player deals himself seven cards from his own draw pile.",
       "Getting Started"),
    _r("ODY-HAND-1", "The hand holds five cards beside the two run cards (option hand_size=5, the "
       "default) or seven (hand_size=7: a player draws back to seven once his run cards are "
       "down).", "R-ODY-2"),
    _r("ODY-MULL-1", "A player whose first seven cards hold no Resource may shuffle them back and "
       "deal himself seven new ones; his d20 goes down to 5.", "Setting Up the First Round"),
    _r("ODY-MULL-2", "The mulligan is made once a game, at the start: before the player's run "
       "cards are down.", "Setting Up the First Round"),
    _r("ODY-SET-1", "At the start each player puts two cards of his hand face down: the top and "
       "the bottom run card, which are not changed afterwards.", "Setting Up the First Round"),
    _r("ODY-SET-2", "The highest roller of the d12 goes first; players tied for the highest roll "
       "again.", "Playing the Game"),
    _r("ODY-PILE-1", "An empty draw pile is made again from its player's discard pile, shuffled "
       "and cut (option empty_pile).", "R-ODY-14"),
    # -- the turn --------------------------------------------------------------------------
    _r("ODY-TURN-1", "Turns go clockwise from the first player; a round is over when every player "
       "has had his turn.", "A Turn, A Round"),
    _r("ODY-TURN-2", "FLIP: the player turns up his top run card and plays, discards or saves it.",
       "Playing the Game"),
    _r("ODY-TURN-3", "SLIDE: the bottom run card moves up to the top position.", "Playing the Game"),
    _r("ODY-TURN-4", "DRAW: the player draws a replacement from his own draw pile.",
       "Playing the Game"),
    _r("ODY-TURN-5", "REPLACE: the player puts a card of his hand face down as his bottom run "
       "card, and his turn is over.", "Playing the Game"),
    _r("ODY-TURN-6", "A turn plays one card, one of four ways: flip and play it, flip and discard "
       "it, flip and save it, or play a Special card from the hand.", "A Turn, A Round"),
    _r("ODY-SAVE-1", "Only a Resource, a Special or a Very Special card is saved, and only when "
       "flipped; saved cards lie face up for everybody to see.", "Face Up"),
    _r("ODY-RES-1", "A flipped Resource is saved at once and stays saved for the rest of the game.",
       "RESOURCE Cards"),
    _r("ODY-COST-1", "A card's cost is paid with saved Resources: one of the hexagon's colour for "
       "each coloured hexagon, one of any colour for each White hexagon.", "Card Conditions"),
    _r("ODY-COST-2", "A Resource that has paid is used up for the rest of the round (option "
       "resource_reset).", "R-ODY-6"),
    _r("ODY-COND-1", "A card with a pink box needs a bunny of the player's in the Bunny Circle.",
       "Rectangular Boxes"),
    _r("ODY-COND-2", "A card with a green box needs a city of the player's in the Center Circle.",
       "Rectangular Boxes"),
    _r("ODY-BURN-1", "A flipped card whose conditions cannot be met is burned: it goes to its "
       "player's discard pile.", "Card Conditions"),
    _r("ODY-SPEC-1", "Instead of flipping, a player may play a Special card from his hand, "
       "meeting its conditions; he draws a replacement and his run cards stay where they are.",
       "SPECIAL Cards"),
    _r("ODY-SPEC-2", "A Special card may be discarded from the hand as the turn; the player draws "
       "a replacement.", "SPECIAL Cards"),
    _r("ODY-SPEC-3", "A Special card is never saved from the hand, only when flipped.",
       "SPECIAL Cards"),
    _r("ODY-SPEC-4", "On his own turn, and only then, a player may use any number of his saved "
       "Special cards besides his regular play; a Special card is played on its player's own "
       "turn only.", "SPECIAL Cards"),
    _r("ODY-VSP-1", "A Very Special card may be played on any player's turn, from the hand or "
       "saved, and playing it is not a turn.", "VERY SPECIAL Cards"),
    _r("ODY-VSP-2", "A Very Special card played from the hand is replaced from the draw pile at "
       "once (a saved one is not).", "VERY SPECIAL Cards"),
    # -- what is in play -------------------------------------------------------------------
    _r("ODY-POS-1", "A creature goes anywhere its player likes in the Bunny Circle as he acquires "
       "it (flipped, traded, stolen, revived); creatures already there are never moved.",
       "Positioning Of Creatures And Structures"),
    _r("ODY-POS-2", "A city goes anywhere in the Center Circle as it is acquired; cities already "
       "there are never moved.", "Positioning Of Creatures And Structures"),
    _r("ODY-INPLAY-1", "A creature in play is one in the Bunny Circle or inside a city of the "
       "Center Circle.", "In Play"),
    _r("ODY-CITY-1", "A creature may go inside one of its owner's cities that has room instead of "
       "into the Bunny Circle; a city houses as many creatures as its capacity.", "R-ODY-8"),
    _r("ODY-WPN-1", "A Ground Weapon aims at an opponent's creature in the Bunny Circle, which "
       "lives only if its owner rolls above the weapon's level on the d12.", "R-ODY-11"),
    _r("ODY-WPN-2", "A City Weapon aims at an opponent's city, which stands only if its owner "
       "rolls above the weapon's level on the d12.", "R-ODY-11"),
    _r("ODY-KILL-1", "A player who kills an opponent's creature adds its points to his d20.",
       "Gaining Civ Points"),
    _r("ODY-KILL-2", "A player who destroys an opponent's city adds the points of the city and of "
       "every creature inside it to his d20; the occupants go with the city.",
       "Gaining Civ Points"),
    _r("ODY-FEED-1", "A Feed The Bunny card on an opponent's creature falls due at the end of its "
       "owner's next turn: fed by then with a saved Resource per unit, or it starves and the "
       "card's player scores it.", "R-ODY-13"),
    _r("ODY-SCORE-1", "A player's total is his d20 and the points of his creatures in the Bunny "
       "Circle, of his cities and (option occupants_score) of the creatures inside them.",
       "Gaining Civ Points"),
    _r("ODY-CIV-2", "The d20 keeps to its faces, 1 to 20 (option civ_bounds).", "R-ODY-10"),
    _r("ODY-END-1", "The game ends the moment a player's total reaches 60 or more, on anybody's "
       "turn, and he wins.", "Ending the Game"),
    _r("ODY-END-2", "Nothing is played after the end of the game.", "Ending the Game"),
    # -- the table -------------------------------------------------------------------------
    _r("ODY-ADJ-1", "Adjacent players sit either side of the player; in a two-player game both "
       "are the one opponent, hit once (option adjacent_twice).", "Adjacent"),
    _r("ODY-ADJ-2", "Adjacent bunnies are the creatures directly left and right of the target in "
       "the Bunny Circle, whoever owns them.", "Adjacent"),
    _r("ODY-AGG-1", "Every card with a pink box is Aggressive; a card that answers Aggressive "
       "cards answers exactly those.", "Aggressive Cards"),
    _r("ODY-FAN-1", "A card taken at random from a hand is picked by back fanning: the record "
       "names the card picked, which must be one the hand can hold.", "Back Fanning"),
    _r("ODY-HEX-1", "A player holding more cards in hand than the hand size, outside his own "
       "draw-to-replace step, holds an extra card.", "Hexascrewup"),
    _r("ODY-HEX-2", "Any opponent who spots an extra card picks a card of that hand at random to "
       "be discarded, and its holder loses 5 Civ points.", "Hexascrewup"),
    _r("ODY-OPP-1", "A card's opponents are all the other players; a card aims at an opponent or "
       "at his things only where its words say so.", "Player And Opponent"),
    _r("ODY-TRADE-1", "A trade happens only during the turn of one of the two traders.", "Trading"),
    _r("ODY-TRADE-2", "Saved cards, creatures of the Bunny Circle and cities with their occupants "
       "trade in any amounts agreed; what is acquired is placed again.", "Trading"),
    _r("ODY-TRADE-3", "Each item is traded once a game at most; a card that moves a card is not a "
       "trade.", "Trading"),
    _r("ODY-TRADE-4", "Hand cards trade one for one, and every hand holds the hand size after the "
       "trade.", "Trading"),
    _r("ODY-TRADE-5", "Run cards are never traded.", "Trading"),
    # -- what the cards do (warren's own cards, docs/odyssey-decks.md) ------------------------
    _r("ODY-CARD-1", "A card is played with exactly the choices it asks for: targets of the kind "
       "its words name, a place for what enters play, a payment of its cost.", "R-ODY-15"),
    _r("ODY-CARD-2", "A Civ card changes Civ points as it says: once, for each creature in play, "
       "for an opponent, every opponent or the adjacent players.", "R-ODY-15"),
    _r("ODY-CARD-3", "A cancel answers an Aggressive card aimed at its player's things while that "
       "card waits for its dice, or a Feed The Bunny card on his creature.", "R-ODY-15"),
    _r("ODY-CARD-4", "A steal takes an opponent's creature in play, or his city with its "
       "occupants, and the thief places it.", "R-ODY-15"),
    _r("ODY-CARD-5", "A revive brings a creature of the player's discard pile back into play, "
       "placed as it is acquired.", "R-ODY-15"),
    _r("ODY-CARD-6", "A recycle puts cards of the player's discard pile back into his draw pile, "
       "which is then shuffled and cut.", "R-ODY-15"),
    _r("ODY-CARD-7", "An inspect shows an opponent's hand to the player; the opponent discards a "
       "card of the type named, the player's pick, if he holds one.", "R-ODY-15"),
    _r("ODY-CARD-8", "A feed answer settles every Feed The Bunny card on one of the player's "
       "creatures without paying.", "R-ODY-15"),
    _r("ODY-CARD-9", "A Bunny Modifier goes for good under one of the player's creatures in the "
       "Bunny Circle: it adds its points and lowers every weapon aimed at that creature.",
       "R-ODY-15"),
    _r("ODY-CARD-10", "A card's die roll decides its outcome by the band the face falls in; the "
       "roll is recorded.", "R-ODY-15"),
])
