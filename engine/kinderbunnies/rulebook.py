"""The rules of KinderBunnies, paraphrased, each with its id and where it comes from.

The rulebook (kinderbunnies.txt) has no numbered sections; rules cite its headings:
§Object, §Pink Star, §Color Diamonds, §Dice, §Beginner (set-up and deal), §Turns, §Bunny
Bucks, §Bunnies, §Take A Carrot, §Carrots, §Feed The Bunny, §Cabbage & Water, §Safety
Hazard, §Bad News, §End (the last cards and the winner), §Advanced, §Yellow notes (Hi Low
Cash, Safety Skunk, Switch-A-Roo), §Really Advanced. Card rules (KIN-CARD-*) cite their
row of docs/card-facts.md §2.3. Rulings (R-KIN-n) are in docs/rulings.md, section kinderbunnies.
"""

from __future__ import annotations

from engine.rules import Rule, Rulebook

SRC = "kinderbunnies.txt"
CF = "docs/card-facts.md §2.3"
R = "docs/rulings.md#r-kin-"

RULES = Rulebook(
    "KinderBunnies",
    SRC,
    [
        # -- set-up ------------------------------------------------------------------------
        Rule("KIN-SET-1",
             "The level decides the cards: Beginner plays the Blue deck and carrots A-F, "
             "Advanced and Really Advanced add the Yellow deck and carrots G-J; a card of "
             "another level never enters the game.",
             f"{SRC} §Beginner, §Advanced; {R}1, {R}4"),
        Rule("KIN-SET-2",
             "Really Advanced only: before the deal the small Orange deck is shuffled and set "
             "aside face down, unseen by everyone.",
             f"{SRC} §Really Advanced; {R}3"),
        Rule("KIN-DEAL-1",
             "Each player is dealt a hand (four cards in Beginner, five in Advanced and Really "
             "Advanced) one card at a time, clockwise from the youngest player; every card "
             "drawn must be one still in the draw pile and go to the player it is owed to.",
             f"{SRC} §Beginner, §Advanced; {R}2"),
        # -- turns -------------------------------------------------------------------------
        Rule("KIN-TURN-1",
             "The youngest player plays first, then play goes clockwise; on his turn a player "
             "plays exactly one card, and nobody else plays except to answer a card.",
             f"{SRC} §Turns; {R}2"),
        Rule("KIN-HAND-1",
             "A player plays only cards he holds in his hand.",
             f"{SRC} §Turns"),
        Rule("KIN-PLAY-1",
             "A card that does nothing may be laid down as the turn's card only when no card in "
             "the hand can be used; after the draw pile is empty, a player with cards must "
             "still lay one each turn.",
             f"{SRC} §End; {R}8"),
        Rule("KIN-STAR-1",
             "A card with the pink star needs at least one of its player's bunnies on the "
             "table.",
             f"{SRC} §Pink Star"),
        Rule("KIN-BUCK-1",
             "A Bunny Buck is never held: drawn (in the deal too) it goes face up in front of "
             "its drawer at once and another card is drawn in its place.",
             f"{SRC} §Beginner, §Bunny Bucks"),
        Rule("KIN-BUNNY-1",
             "A bunny played goes face up on the table in front of its owner.",
             f"{SRC} §Bunnies"),
        Rule("KIN-CARROT-1",
             "Take A Carrot takes a carrot still in the carrot pile; the player picks which.",
             f"{SRC} §Take A Carrot; {R}9"),
        Rule("KIN-BUY-1",
             "A carrot costs 10 Bunny Bucks, bought only on the buyer's own turn and before he "
             "plays his card, paid with his Bunny Bucks (no card more than needed); change "
             "comes from the discard pile as far as it holds Bucks.",
             f"{SRC} §Carrots; {R}10"),
        Rule("KIN-FEED-1",
             "Feed The Bunny goes on another player's bunny; its owner may answer at once with "
             "a card of the supply it asks for, else the bunny is discarded.",
             f"{SRC} §Feed The Bunny"),
        Rule("KIN-FEED-2",
             "Only the supply the Feed The Bunny card pictures answers it (a Mini Danish "
             "answers either); both cards are discarded and the feeder draws back up at once; "
             "supply cards are only played as answers, even off the holder's turn.",
             f"{SRC} §Feed The Bunny, §Cabbage & Water; {R}7"),
        Rule("KIN-HAZ-1",
             "A Safety Hazard goes on another player's bunny; its owner rolls all five dice and "
             "the bunny is safe if any die shows the hazard's number, else it is discarded.",
             f"{SRC} §Safety Hazard"),
        Rule("KIN-DICE-1",
             "Dice are the table's to record: each roll gives one face per die owed, 1 to 10, a "
             "printed 0 counting as 10.",
             f"{SRC} §Dice, §Color Diamonds"),
        Rule("KIN-DRAW-1",
             "After playing a card a player draws back up to a full hand while the draw pile "
             "lasts.",
             f"{SRC} §Feed The Bunny, §End"),
        Rule("KIN-BAD-1",
             "A Bad News card is played the moment it is drawn: it acts only on its drawer's "
             "bunnies on the table (and may cost him carrots), then he draws another card.",
             f"{SRC} §Bad News; {R}4"),
        Rule("KIN-BAD-2",
             "A Bad News card drawn by a player with no bunny on the table (so always in the "
             "deal) is discarded and another card is drawn.",
             f"{SRC} §Bad News"),
        # -- the end -----------------------------------------------------------------------
        Rule("KIN-END-1",
             "Beginner and Advanced: the game ends once the draw pile is empty and every hand "
             "has been played out; each player scores his carrots plus his bunnies on the "
             "table.",
             f"{SRC} §Object, §End"),
        Rule("KIN-END-2",
             "The highest score wins; a tie goes to the most Bunny Bucks, and a tie on those "
             "too is a shared win.",
             f"{SRC} §End"),
        Rule("KIN-END-3",
             "Nothing is played after the game has ended.",
             f"{SRC} §End, §Really Advanced"),
        Rule("KIN-RA-1",
             "Really Advanced: the game ends the moment the last carrot leaves the carrot pile; "
             "the bottom card of the Orange deck is then turned up.",
             f"{SRC} §Really Advanced; {R}3"),
        Rule("KIN-RA-2",
             "Really Advanced: when a card is owed and the draw pile is empty, the discard pile "
             "becomes the new draw pile.",
             f"{SRC} §Really Advanced"),
        Rule("KIN-RA-3",
             "Really Advanced: the winner is the player who has a bunny on the table and owns "
             "the carrot the bottom Orange card names; if nobody does, nobody wins.",
             f"{SRC} §Really Advanced; {R}3"),
        # -- the Yellow cards --------------------------------------------------------------
        Rule("KIN-CARD-ADVENTURE",
             "No Safety Hazard can be put on the Adventure Bunny.",
             f"{CF} row 60"),
        Rule("KIN-CARD-TAKE-2",
             "Take 2 Carrots takes two carrots of the pile (one if only one is left).",
             f"{CF} row 63"),
        Rule("KIN-CARD-BUY-BACK",
             "Buy Back costs 5 Bunny Bucks and brings a card of the discard pile into the hand, "
             "which must be played at once as the turn's card.",
             f"{CF} row 72; {R}11"),
        Rule("KIN-CARD-CARROT-TRADER",
             "Carrot Trader gives one of the player's carrots back to the pile and takes two "
             "others from it (as many as there are).",
             f"{CF} row 73"),
        Rule("KIN-CARD-DEEP-SLEEP",
             "Deep Sleep Nine: every player rolls one die and each who rolls a 9 misses his "
             "next turn.",
             f"{CF} row 74"),
        Rule("KIN-CARD-DROUGHT",
             "Drought and Maggots: the player named shows and discards every Water (Drought) or "
             "Cabbage (Maggots) card of his hand, then draws back up.",
             f"{CF} rows 75, 80; {R}6"),
        Rule("KIN-CARD-FAKE-PHONE",
             "Fake Phone Number: up to three rolls of the five dice; the first with three or "
             "more 5s brings one bunny of the discard pile to the player's table.",
             f"{CF} row 76"),
        Rule("KIN-CARD-FUGITIVE",
             "Fugitive goes on another player's bunny; every player rolls one die, the tied "
             "highest roll again, and the highest roller takes the bunny.",
             f"{CF} row 77"),
        Rule("KIN-CARD-HAMLIN",
             "Hamlin Helper: the player names 1 to 10 and rolls the five dice; each die showing "
             "it brings one bunny of the discard pile to his table.",
             f"{CF} row 78"),
        Rule("KIN-CARD-HI-LOW",
             "High-Low Cash pays the highest of the five dice less the lowest in Bunny Bucks "
             "from the discard pile, only as much as it holds.",
             f"{CF} row 79; {SRC} §Yellow notes"),
        Rule("KIN-CARD-ONE-FOR-FUN",
             "One For Fun: everyone rolls a die, round after round, until a 1 shows; the first "
             "(from the card's player clockwise) to roll it gets a Bunny Buck from each other "
             "player who has one.",
             f"{CF} row 81; {R}12"),
        Rule("KIN-CARD-PASS",
             "Pass It Along: every player with cards passes one of them, his choice, to his "
             "left; the choices are made first and then passed.",
             f"{CF} row 82"),
        Rule("KIN-CARD-PRIME",
             "Prime Time: with three or more of the five dice on 2, 3, 5 or 7 the player takes "
             "a carrot of his choice from another player.",
             f"{CF} row 83"),
        Rule("KIN-CARD-RETURN",
             "Return A Carrot sends a carrot another player holds, named by the card's player, "
             "back to the pile.",
             f"{CF} rows 84-85; {R}9"),
        Rule("KIN-CARD-SQUID",
             "Secret Squid: the player sees another player's hand and swaps one of his cards for "
             "one of it.",
             f"{CF} row 86"),
        Rule("KIN-CARD-BURGLAR",
             "Sneaky Burglar: the Orange die names a carrot (1 = A ... 10 = J); the player takes "
             "it from the pile or from whoever holds it.",
             f"{CF} row 87; {R}5"),
        Rule("KIN-CARD-SPIN",
             "Spin To Win: the table names whose spun die lasted longest, and he takes a carrot "
             "of his choice from the pile.",
             f"{CF} row 88; {R}13"),
        Rule("KIN-CARD-SWITCH",
             "Switch-A-Roo: everyone rolls a die; two players on the same number change places "
             "with what lies in front of them, three or more each move to the next of them "
             "clockwise.",
             f"{CF} row 89; {SRC} §Yellow notes; {R}14"),
        Rule("KIN-CARD-REROLL",
             "Re-Roll: right after any roll, a player holding it rolls one die of that roll "
             "again and the new face stands.",
             f"{CF} row 94; {R}15"),
        Rule("KIN-CARD-SKUNK",
             "Safety Skunk: the owner of a bunny under a Safety Hazard cancels it, only before "
             "its dice are rolled.",
             f"{CF} row 95; {SRC} §Yellow notes"),
        Rule("KIN-CARD-NO-NEWS",
             "No News Is Good News: the drawer of a Bad News card cancels it before it acts.",
             f"{CF} row 96"),
        Rule("KIN-CARD-BAD-NEWS",
             "The Bad News cards: Aliens discards all the drawer's table bunnies, Bears and "
             "Candy one of his choice, Tornado all but one bunny and one carrot of his choice "
             "(the other carrots go back to the pile).",
             f"{CF} rows 97-100; {R}4"),
    ],
)
