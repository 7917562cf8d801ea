"""warren's engine: pure, deterministic rules for the bunny card-game family.

No I/O, no storage, no randomness on replay. Simulators draw from a seeded generator and
record what they drew.

Importing the package loads nothing but this docstring: ``engine.record`` (the format)
must stay usable without any game being imported. The usual names are reachable from
their modules (``engine.record.Header``, ``engine.reader.read_record``,
``engine.registry.get_ruleset``...).
"""
