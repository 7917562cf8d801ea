"""The parts of a document a script writes: the text between two marker lines is the
script's, and is written anew from the code (docs/analytics.md's column tables, its store
tables, docs/performance.md's figures); a test compares the document with what the script
would write."""

from __future__ import annotations

import re
from pathlib import Path


def write_between(text: str, markers: tuple[str, str], body: str) -> str:
    """``text`` with the part between the first ``markers`` (start line, end) made ``body``."""
    start, end = markers
    return re.sub(re.escape(start) + r".*?" + re.escape(end), lambda _: start + "\n" + body + end, text,
                  count=1, flags=re.S)


def rewrite(doc: Path, markers: tuple[str, str], body: str) -> None:
    """Write ``body`` between ``markers`` in the document ``doc``."""
    doc.write_text(write_between(doc.read_text(encoding="utf-8"), markers, body), encoding="utf-8")
