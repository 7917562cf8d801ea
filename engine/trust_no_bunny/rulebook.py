"""The rules of Trust No Bunny, paraphrased, each with its id and source section.

Sections of trust-no-bunny.txt: How to Win, Rounds, Wolves, Cards and Defense, Getting
Cards, Sabotage, Quirks/Magic Items/Mutations, Accuse, The Timer. Rulings (R-TNB-n) fill
the gaps and live in docs/rulings.md, section trust-no-bunny. The TNB-REC rules are how a
game recorded at the table writes what nobody saw (R-TNB-22 to R-TNB-27).
"""

from __future__ import annotations

from engine.rules import Rule, Rulebook

SRC = "trust-no-bunny.txt"
RUL = "docs/rulings.md#r-tnb-"


def _r(n: int) -> str:
    return f"{RUL}{n}"


RULES = Rulebook(
    "Trust No Bunny",
    SRC,
    [
        # -- set-up ---------------------------------------------------------------------
        Rule("TNB-SET-1", "Set-up makes exactly two players Werebunnies, at different seats; "
             "everybody else is Townsfolk.", f"{SRC} §Overview, §Accuse; {_r(1)}"),
        Rule("TNB-SET-2", "Each Townsfolk is given one of the three Quirks, all equally likely; "
             "a Werebunny has no Quirk.", f"{SRC} §Quirks; {_r(3)}"),
        Rule("TNB-SET-3", "Each Werebunny is given a Mutation from the game's pool (the "
             "rulebook's one, Gnaw, unless an option names others; none if the pool is empty), "
             "the two alike or not (different only by option); Townsfolk have none.",
             f"{SRC} §Quirks, Magic Items, and Mutations; {_r(5)}"),
        Rule("TNB-SET-4", "The first mayor is a seat picked at random with the roles.",
             f"{SRC} §Rounds (1); {_r(8)}"),
        Rule("TNB-ITEM-1", "Every player is offered two different Items out of the five.",
             f"{SRC} §Magic Items; {_r(4)}"),
        Rule("TNB-ITEM-2", "The Mystical Recipe and the Medallion are each offered to one player "
             "at most; the Recipe is the rarest.", f"{SRC} §Magic Items (notes); {_r(4)}"),
        Rule("TNB-ITEM-3", "Each player keeps one of its two offered Items, chosen once.",
             f"{SRC} §Quirks, Magic Items, and Mutations; {_r(4)}"),
        Rule("TNB-DEAL-1", "After the Items are chosen every player is dealt three cards from "
             "the deck of 1- to 4-point cards.", f"{SRC} §Cards and Defense; {_r(2)}"),
        # -- the day --------------------------------------------------------------------
        Rule("TNB-MUSTER-1", "Each day opens with the muster: every player, once, either "
             "accuses or declares itself ready; the mayor proposes only after that.",
             f"{SRC} §Accuse; {_r(6)}"),
        Rule("TNB-DAY-1", "Only the mayor proposes a guard team, once per proposal.",
             f"{SRC} §Rounds (1)"),
        Rule("TNB-DAY-2", "A guard team is exactly the night's number of guards, all different "
             "seats of the game.", f"{SRC} §Rounds (1), §Numbers and Stats; {_r(2)}"),
        Rule("TNB-DAY-3", "A rejected team passes the mayor to the next seat clockwise; each new "
             "round starts with the seat after the last mayor.", f"{SRC} §Rounds (1); {_r(8)}"),
        Rule("TNB-VOTE-1", "Votes to accept or reject are cast only while a team is up for "
             "the vote.", f"{SRC} §Rounds (1)"),
        Rule("TNB-VOTE-2", "Every player votes once on each proposed team.",
             f"{SRC} §Rounds (1); {_r(9)}"),
        Rule("TNB-VOTE-3", "A team goes on guard when more than half of all players accept it; "
             "otherwise it is rejected.", f"{SRC} §Rounds (1); {_r(9)}"),
        Rule("TNB-VOTE-4", "Votes stay secret until the last one is in; then every vote is "
             "shown to everybody.", _r(9)),
        Rule("TNB-WOLF-1", "Each night is attacked by the table's number of wolves for that "
             "night and player count.", f"{SRC} §Wolves; {_r(2)}"),
        Rule("TNB-WOLF-2", "A rejected vote raises tonight's wolves by the team size (variant: "
             "by one).", f"{SRC} §Wolves, §Rounds (1); {_r(9)}"),
        Rule("TNB-WOLF-3", "More than 35 wolves on a night ends the game at once: the "
             "Werebunnies win.", f"{SRC} §Wolves; {_r(10)}"),
        # -- the night ------------------------------------------------------------------
        Rule("TNB-NIGHT-1", "At night every player acts exactly once, guards at the Tower and "
             "the rest at home; the night resolves when the last action is in.",
             f"{SRC} §Rounds (2-5)"),
        Rule("TNB-GUARD-1", "Only players on guard play cards at the Tower.",
             f"{SRC} §Rounds (4), §Cards and Defense"),
        Rule("TNB-GUARD-2", "Cards played come from the player's own hand; any number, none "
             "included.", f"{SRC} §Cards and Defense"),
        Rule("TNB-GUARD-3", "Only Werebunnies play cards to weaken the defences; they may also "
             "defend, even on the same night.", f"{SRC} §Cards and Defense"),
        Rule("TNB-HOME-1", "A player at home takes one home action (Bless, Predict, Sabotage, "
             "an Item's action, or nothing) and plays no cards at the Tower.",
             f"{SRC} §Getting Cards; {_r(4)}"),
        Rule("TNB-HOME-2", "Bless names another player who is also at home; that player gains "
             "a card, and any number of players may bless the same one.",
             f"{SRC} §Getting Cards; {_r(15)}"),
        Rule("TNB-HOME-3", "Predict guesses whether the defences lose hit points tonight; a "
             "right guess gains a card.", f"{SRC} §Getting Cards; {_r(15)}"),
        Rule("TNB-SAB-1", "Only Werebunnies Sabotage.", f"{SRC} §Sabotage"),
        Rule("TNB-SAB-2", "Sabotage names another player and guesses one of the three Quirks.",
             f"{SRC} §Sabotage; {_r(12)}"),
        Rule("TNB-SAB-3", "A right guess makes the target lose its Item at the end of the "
             "night, gives each Werebunny a card and tells the target.",
             f"{SRC} §Sabotage; {_r(12)}"),
        Rule("TNB-MUT-1", "Gnaw: a Werebunny with Gnaw may also play cards from home to "
             "weaken the defences; the night's stage shows the points gnawed.",
             f"{SRC} §Cards and Defense; {_r(5)}"),
        Rule("TNB-MUT-2", "Frenzy (warren's, only by option): every weakening card of its holder "
             "counts one point more.", _r(5)),
        Rule("TNB-MUT-3", "Stealth (warren's, only by option): a right Sabotage by its holder is "
             "not told to the target.", _r(5)),
        Rule("TNB-ITEM-4", "Crystal Ball: once a game, at home, its holder gazes at another "
             "player and learns at dawn whether that player is a Werebunny.",
             f"{SRC} §Rounds (3), §Magic Items; {_r(4)}"),
        Rule("TNB-ITEM-5", "Mystical Recipe: once a game, at home, its holder brews and gains "
             "two cards.", f"{SRC} §Magic Items; {_r(4)}"),
        Rule("TNB-ITEM-6", "Horseshoe: its holder gains one more card each night at home.",
             _r(4)),
        Rule("TNB-ITEM-7", "Shield: on a night its holder defends with at least one card, one "
             "more point of defence.", _r(4)),
        Rule("TNB-ITEM-8", "Medallion: after a night on guard its holder learns how many "
             "weakening points the other guards played.", f"{SRC} §Magic Items; {_r(4)}"),
        Rule("TNB-ITEM-9", "An Item lost to Sabotage still works that night and never after.",
             _r(12)),
        Rule("TNB-RES-1", "Wolves getting through = wolves + weakening points + gnawed points - "
             "defending points, never below zero.", f"{SRC} §Rounds (5), §Cards and Defense"),
        Rule("TNB-RES-2", "Wolves getting through damage the Wall first; damage beyond the "
             "Wall's hit points is lost, never passed on to the Tower.",
             f"{SRC} §Cards and Defense"),
        Rule("TNB-RES-3", "The Tower takes damage only on nights after the one the Wall fell.",
             f"{SRC} §Cards and Defense"),
        Rule("TNB-DRAW-1", "At dawn every player at home draws one card plus the cards it "
             "earned (Bless, Predict, Sabotage, Items); a guard draws only what it earned.",
             f"{SRC} §Getting Cards; {_r(20)}"),
        Rule("TNB-DRAW-2", "Cards are drawn from the deck; when it runs short the discard pile "
             "is shuffled back in, and a still-empty deck deals no more.", _r(17)),
        Rule("TNB-ACC-1", "During the muster a player holding a card may accuse two other "
             "players of being the Werebunnies.", f"{SRC} §Accuse; {_r(7)}"),
        Rule("TNB-ACC-2", "A player accuses at most once per round.", f"{SRC} §Accuse"),
        Rule("TNB-ACC-3", "An accusation costs one card picked at random from the accuser's "
             "hand, recorded as chance right after it.", f"{SRC} §Accuse; {_r(7)}"),
        Rule("TNB-ACC-4", "When every Townsfolk's latest accusation names both Werebunnies the "
             "game ends at once and every Townsfolk wins.", f"{SRC} §Accuse, §How to Win"),
        # -- the end --------------------------------------------------------------------
        Rule("TNB-END-1", "Nothing happens after the game has ended.", f"{SRC} §How to Win"),
        Rule("TNB-END-2", "When a night leaves both the Wall and the Tower at zero, the "
             "Werebunnies win.", f"{SRC} §How to Win"),
        Rule("TNB-END-3", "A town with defence left after the fifth night wins; each Townsfolk "
             "wins only if its Quirk is met.", f"{SRC} §How to Win, §Quirks"),
        Rule("TNB-END-4", "If the Wall still stands after the fourth night the game ends and "
             "every Townsfolk wins (variant: play the fifth night).",
             f"{SRC} §Quirks (note); {_r(16)}"),
        Rule("TNB-QUIRK-1", "Brave: its holder must have been on guard at least one night.",
             _r(3)),
        Rule("TNB-QUIRK-2", "Homebody: its holder must have stayed at home at least three "
             "nights.", _r(3)),
        Rule("TNB-QUIRK-3", "Hoarder: its holder must end the game with at least three cards.",
             _r(3)),
        # -- the timer ------------------------------------------------------------------
        Rule("TNB-TIME-1", "A timer runs out only while players are choosing Items, mustering, "
             "proposing, voting or acting at night.", f"{SRC} §The Timer; {_r(13)}"),
        Rule("TNB-TIME-2", "The mayor's timer: everybody votes no, no wolves are added, the "
             "mayor passes clockwise.", f"{SRC} §The Timer"),
        Rule("TNB-TIME-3", "The voting timer: every missing vote counts as accept.",
             f"{SRC} §The Timer"),
        Rule("TNB-TIME-4", "The timer at home: no action, but the dawn card is still drawn.",
             f"{SRC} §The Timer"),
        Rule("TNB-TIME-5", "The timer on guard: the cards the guard had staged are played "
             "(variant: the whole hand, to defend); Items still work.",
             f"{SRC} §The Timer; {_r(14)}"),
        Rule("TNB-TIME-6", "The timer while choosing Items keeps the first Item offered; while "
             "mustering it declares the player ready.", _r(13)),
        # -- a game recorded at the table -----------------------------------------------
        Rule("TNB-REC-1", "In a game recorded at the table, the event that ends a night whose "
             "actions the record does not all know states the stage the table was shown (wolves "
             "through, points gnawed); only that event carries a stage, and it must agree with the "
             "known actions.", f"{_r(24)}; docs/record-format.md#unknowns-in-trust-no-bunny"),
        Rule("TNB-REC-2", "A stage lists what a seat was told at dawn only as the rules can have "
             "told it, each once; a seat the record knows whole is told there everything it learnt.",
             f"{_r(25)}; docs/record-format.md#unknowns-in-trust-no-bunny"),
        Rule("TNB-REC-3", "Only the event that ends a recorded game reveals every role, Quirk, "
             "Mutation, Item and hand size, and the reveal agrees with everything known before.",
             f"{_r(26)}; docs/record-format.md#unknowns-in-trust-no-bunny"),
    ],
)
