"""The Killer Bunnies family kit: what Killer Bunnies Quest, KinderBunnies and Killer Bunnies
Odyssey share, implemented once.

The games' own packages (``engine.killer_bunnies_quest``, ``engine.kinderbunnies``,
``engine.killer_bunnies_odyssey``) hold their rule ids, their turn order and whatever is
theirs alone (Quest's market, auctions, triplets, roaming cards and carrots; Odyssey's costs,
Civ points and personal decks). What the three have in common lives here, as pure modules
over the kit's own data structures:

* ``catalogue``: the card catalogue as data. A documented TOML format (docs/catalogue.md),
  validated into typed msgspec Structs, with a content hash so that a record replays under
  the cards it was played with. Cards are data over an effect vocabulary
  (``catalogue.effects``); the few cards that fit no primitive name a hook.
* ``interpreter``: what each primitive of the effect vocabulary does in a game, as tables
  keyed by the primitive's type.
* ``primitive``: a primitive written once, in a file of its own (its fields, family, choices,
  check, apply, options and description), and the small typed port through which it reads a game.
* ``hooks``: the registry of named hooks for cards that fit no primitive.
* ``holds``: a held card or roll, which happens when the next event that is not an answer
  to it comes.
* ``dice``: dice as recorded chance, and the survival arithmetic of weapons and clovers.
* ``rolls``: readings of several dice (bands, patterns, lowest colour, matches), roll-offs
  between players, re-roll rights.
* ``circle``: the Bunny Circle (or the row of bunnies in front of each player): placement
  anywhere on entry, no repositioning, adjacency, "N spaces away", rings, what lies under a
  bunny and what sits on it.
* ``attack``: which bunnies an attack reaches, at which level, and who is protected.
* ``run``: the top and bottom run positions and the run cycle; saved cards.
* ``units``: supplies and money as unit cards, paying, making change from the discard
  piles, and what the game owes a player (IOUs) when it cannot make change.
* ``feeding``: feed demands, their deadlines, stacking and settlement.
* ``trading``: what may be traded, when, and the one-trade rule.
* ``piles``: the draw pile and the discard piles; reshuffling large cards only; cuts (Odyssey:
  an opponent cuts a reshuffled pile, leaving five cards a side).
* ``refusal``: how the kit says no, in codes each game maps to its own rule ids.
* ``naming``: a card as a person types it, read back to the number or code the record writes.
* ``words``: the family's words, from a catalogue: a card by its name and number, a bunny
  with its owner, dice, money, supply units, the run positions.

Nothing here does I/O except the catalogue loader (which reads deck files at the
boundary), and nothing draws a random number: chance reaches the kit as recorded outcomes.
"""
