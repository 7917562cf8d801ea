"""The Killer Bunnies family kit: what Killer Bunnies Quest, KinderBunnies and Killer Bunnies
Odyssey share, implemented once.

The games' own packages (``engine.killer_bunnies_quest`` and, later, KinderBunnies and Odyssey) are
thin: their rule ids, their turn order and whatever is theirs alone. Everything the three
have in common lives here, as pure modules over the kit's own data structures:

* ``catalogue``: the card catalogue as data. A documented TOML format (docs/catalogue.md),
  validated into typed msgspec Structs, with a content hash so that a record replays under
  the cards it was played with. Cards are data over an effect vocabulary
  (``catalogue.effects``); the few cards that fit no primitive name a hook.
* ``dice``: dice as recorded chance, and the survival arithmetic of weapons and clovers.
* ``circle``: the Bunny Circle (or the row of bunnies in front of each player): placement
  anywhere on entry, no repositioning, adjacency, "N spaces away", rings, what lies under a
  bunny and what sits on it.
* ``attack``: which bunnies an attack reaches, at which level, and who is protected.
* ``run``: the top and bottom run positions and the run cycle; saved cards.
* ``units``: supplies and money as unit cards, paying, making change from the discard
  piles, and what the game owes a player (IOUs) when it cannot make change.
* ``market``: prices, open and closed, price cards, half-price buying.
* ``feeding``: feed demands, their deadlines, stacking and settlement.
* ``triplets``: Bunny Triplets by colour or kind, wild bunnies.
* ``roaming``: cards that roam the circle and act again at a trigger.
* ``rolls``: readings of several dice (bands, patterns, lowest colour, matches), roll-offs
  between players, re-roll rights.
* ``auction``: bidding in turn order.
* ``carrots``: carrots, the small Magic Carrot deck, and who wins at the end.
* ``trading``: what may be traded, when, and the one-trade rule.
* ``piles``: the draw pile and the discard piles; reshuffling large cards only; cuts (Odyssey:
  an opponent cuts a reshuffled pile, leaving five cards a side).
* ``costs``: card costs paid with saved Resources (Odyssey's hexagons, White as any colour),
  and a payment a record names checked against a cost.
* ``decks``: a player's own deck (Odyssey): a personal deck file's list, its checks with file,
  line and reason, and its content hash.
* ``civ``: a count kept on a die (Odyssey's Civ points on the d20) and the total score.
* ``hooks``: the registry of named hooks for cards that fit no primitive.
* ``words``: the family's words, from a catalogue: a card by its name and number, a bunny
  with its owner, dice, money, supply units, the run positions.

Nothing here does I/O except the catalogue loader (which reads deck files at the
boundary), and nothing draws a random number: chance reaches the kit as recorded outcomes.
"""
