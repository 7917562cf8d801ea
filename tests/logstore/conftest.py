"""Fixtures the store and analytics tests share."""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One local Spark for the whole run (it takes seconds to start), as warren starts it."""
    if importlib.util.find_spec("pyspark") is None:
        pytest.skip("pyspark is not installed (pip install -e '.[test]' brings it; it needs Java 17)")
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java 17 (apt-get install openjdk-17-jre-headless); .ci/run installs it")
    from logstore.analytics.spark import session

    started = session("local[2]", "warren-tests")
    yield started
    started.stop()
