"""Settings every test shares."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def pytest_configure() -> None:
    # Snapshots are signed with a key kept in the user's config folder
    # (logstore.store.snapshots); the tests, and the processes they start, use one of their
    # own instead of creating the user's.
    if "WARREN_SNAPSHOT_KEY" not in os.environ:
        os.environ["WARREN_SNAPSHOT_KEY"] = str(Path(tempfile.mkdtemp(prefix="warren-key-")) / "snapshot.key")
