"""The helper process of large imports: it decodes, verifies and judges record files while
the importing process writes the previous ones (logstore.store.helpers does the running).

    python -m logstore.store.import_helper     (started by Store.import_paths, not by hand)

Its greeting is the stored game ids and the store's name; then one path per request, each
answered with a pickled ``Prepared`` or ``Refused``. A file's answer is the same whichever
process prepares it (both use the stored game ids read at the start of the import).
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import BinaryIO

from logstore.store.helpers import answer_all, in_order
from logstore.store.importing import Prepared, Refused, prepare_file, start_worker

MODULE = "logstore.store.import_helper"


def serve(requests: BinaryIO, answers: BinaryIO) -> None:
    known, db = pickle.load(requests)
    start_worker(known, db)
    answer_all(requests, answers, lambda path: prepare_file(str(path)))


def prepared_by_helpers(
    files: Sequence[str], helpers: int, known: frozenset[str], db: str,
    prepare_here: Callable[[str], Prepared | Refused],
) -> Iterator[Prepared | Refused]:
    """Each file's answer, in order, prepared by ``helpers`` helper processes and by
    ``prepare_here`` in this process (see logstore.store.helpers.in_order)."""
    return in_order(files, helpers, MODULE, serve, (known, db), prepare_here, patient=True)


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
