"""The helper process of ``warren check`` for folders of many records (started by
``logstore.store.checking.check_files``, not by hand): batches of paths in, verdicts out."""

from __future__ import annotations

import sys

from logstore.store.checking import serve

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
