"""Waiting for something a server or a process does, bounded: the tests' one poll loop."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(check: Callable[[], object], timeout: float = 10) -> bool:
    """True once `check()` is true, False if `timeout` seconds pass first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return False
