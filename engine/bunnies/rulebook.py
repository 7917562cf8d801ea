"""The rules of "Bunnies", paraphrased, each with its id and source section.

Sections of bunnies-two-player.txt: Dealing, Play, Playing Blind Cards, Bunnies, Ending the
Game. Rulings (R-BUN-n) are in docs/rulings.md.
"""

from __future__ import annotations

from engine.rules import Rule, Rulebook

SRC = "bunnies-two-player.txt"

RULES = Rulebook(
    "Bunnies",
    SRC,
    [
        Rule("BUN-DEAL-1",
             "The game opens with one deal of the whole 52-card deck: a hand to each player, "
             "four blind cards per player, three shared blind cards, the rest as the stock; "
             "nothing is played before it.",
             f"{SRC} §Dealing; docs/rulings.md#r-bun-15"),
        Rule("BUN-DEAL-2",
             "Shared blind cards lie across the middle: one over both players' cards just left "
             "of it, one over those just right of it, one over those two; a blind card with "
             "another still lying on it is covered and cannot be turned up.",
             f"{SRC} §Dealing; docs/rulings.md#r-bun-2"),
        Rule("BUN-TURN-1",
             "Players take goes in turn; only the player whose go it is may act.",
             f"{SRC} §Play; docs/rulings.md#r-bun-1; docs/rulings.md#r-bun-14"),
        Rule("BUN-DRAW-1",
             "A go begins by drawing the top card of the stock while the stock has cards.",
             f"{SRC} §Play"),
        Rule("BUN-DRAW-2",
             "A player draws at most once per go, and never from an empty stock.",
             f"{SRC} §Play"),
        Rule("BUN-LAY-1",
             "A player lays one or more cards from hand onto the face-up pile, all of one rank.",
             f"{SRC} §Play; docs/rulings.md#r-bun-16"),
        Rule("BUN-LAY-2",
             "Laid cards must equal or beat the top face-up card; aces are high.",
             f"{SRC} §Play; docs/rulings.md#r-bun-10"),
        Rule("BUN-LAY-3",
             "A lay that scores no bunny ends the go: the player does nothing more until their "
             "next go.",
             f"{SRC} §Play"),
        Rule("BUN-PICKUP-1",
             "A player who cannot beat the top face-up card takes the whole face-up pile into "
             "hand, and the go ends; a player who can lay may not pick up.",
             f"{SRC} §Play; docs/rulings.md#r-bun-3"),
        Rule("BUN-BLIND-1",
             "A player whose hand is empty when it is time to lay must turn up a blind card; "
             "a player still holding cards may not.",
             f"{SRC} §Playing Blind Cards"),
        Rule("BUN-BLIND-2",
             "The blind card turned up must be one still lying on the table (BUN-DEAL-2 says "
             "which of those are free).",
             f"{SRC} §Playing Blind Cards"),
        Rule("BUN-BLIND-3",
             "A blind card reaches the pile only by being turned up; one that equals or beats "
             "the top face-up card is then laid.",
             f"{SRC} §Playing Blind Cards; docs/rulings.md#r-bun-10"),
        Rule("BUN-BLIND-4",
             "A turned-up blind card that cannot beat the top goes back to its place, the "
             "player picks up the face-up pile, and the go ends.",
             f"{SRC} §Playing Blind Cards"),
        Rule("BUN-BLIND-5",
             "A player may take only their own blind cards or the shared ones, never the "
             "opponent's own.",
             f"{SRC} §Dealing; docs/rulings.md#r-bun-2"),
        Rule("BUN-BUNNY-1",
             "When a lay leaves four cards of one rank together on top of the face-up pile, "
             "the player scores a bunny: the four cards leave play for good, to the player's "
             "stack; without a bunny there is no bunny action.",
             f"{SRC} §Bunnies; docs/rulings.md#r-bun-16"),
        Rule("BUN-BUNNY-2",
             "The bunny's rank sets its action: 2-10 a steal; J, Q, K a steal or a look at a "
             "blind card; an ace a steal and/or a look. Every steal is at random.",
             f"{SRC} §Bunnies (table); docs/rulings.md#r-bun-4"),
        Rule("BUN-BUNNY-3",
             "A steal takes one card at random from the opponent's hand (or, by option, an "
             "uncovered own blind card of theirs) into the stealer's hand.",
             f"{SRC} §Bunnies (table); docs/rulings.md#r-bun-4"),
        Rule("BUN-BUNNY-4",
             "A look shows the player one of their own or the shared blind cards on the table.",
             f"{SRC} §Bunnies (table); docs/rulings.md#r-bun-5"),
        Rule("BUN-BUNNY-5",
             "After a bunny the player chooses to lay again or end the go; only then may the "
             "go be ended by choice.",
             f"{SRC} §Bunnies; docs/rulings.md#r-bun-11"),
        Rule("BUN-BUNNY-6",
             "Each bunny gives its action once: one steal and one look at most.",
             f"{SRC} §Bunnies (table); docs/rulings.md#r-bun-6"),
        Rule("BUN-END-1",
             "The game ends when a player has laid every card in their control: an empty "
             "hand and none of their own blind cards left; nothing happens after that.",
             f"{SRC} §Ending the Game; docs/rulings.md#r-bun-7; docs/rulings.md#r-bun-12; "
             "docs/rulings.md#r-bun-13"),
        Rule("BUN-END-2",
             "Scores: a point per bunny in the player's stack (which no steal can reach); the "
             "player who went out adds three per own blind card the opponent has left, at "
             "least four.",
             f"{SRC} §Ending the Game; docs/rulings.md#r-bun-8; docs/rulings.md#r-bun-9"),
    ],
)
