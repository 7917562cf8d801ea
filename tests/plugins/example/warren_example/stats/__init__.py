"""Carrot Nim's canned statistics: the SQL files beside this file (entry point warren.stats)."""
