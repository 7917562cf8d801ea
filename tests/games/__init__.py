"""Tests of each game, one folder a game (the family kit's in killer/)."""
