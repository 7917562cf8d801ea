"""Players as people across games: who played, who won, with whom, and their ratings.

A record names its players in its header, seat by seat (``players``), and says when it was
played (``created``). The store links every seat of every game to a player by that name:
spacing and case aside, one name is one player (:func:`engine.record.player_key`). A table
that wrote one person two ways ("Bo", "Bob") merges them, and a player may be renamed; both
are the store's own events (``player_changes``, append-only like the event log), and no
record is ever touched. Simulated games are played by bots: they are kept apart and left
out of every player's figure unless asked for.

* :mod:`logstore.players.book`: the players and their names (merges, renames);
* :mod:`logstore.players.figures`: each player's figures, per ruleset, seat, player count
  and opponent, with intervals;
* :mod:`logstore.players.ratings`: openskill ratings, game by game in the order played, and
  the chances of a new table;
* :mod:`logstore.players.plays`: results-only plays read from a play logger (BG Stats), which
  count with the recorded games; :mod:`logstore.players.loggers`: the people's games written
  for the loggers (BG Stats, BoardGameGeek).
"""
