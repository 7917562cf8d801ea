"""The analysis of a game: who was ahead, when it turned, and what a move was worth.

Read it like a coach reading a game back:

- :mod:`~engine.analysis.worlds`: what one perspective (a seat, the table, the referee)
  knows at each position, and the complete positions (worlds) that agree with it;
- :mod:`~engine.analysis.chances`: each seat's chance to win from a position, by playing
  sampled worlds to their end with the simulation bots, with its 95% interval;
- :mod:`~engine.analysis.timeline`: the chances over a whole game, the turning points
  split into luck and decisions, the better move at a costly decision, and what an illegal
  event changed.

Everything here is pure and deterministic for a seed: the same game, perspective and
settings give the same figures in any process, on any number of cores.
"""
