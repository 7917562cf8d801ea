"""The helper process of a game's analysis (started by ``logstore.store.analyses``, not by
hand, where helpers cannot be forked): the game once, then jobs in, chances out."""

from __future__ import annotations

import sys

from logstore.store.analyses import serve

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
