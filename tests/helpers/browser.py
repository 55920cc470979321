"""Debian's Chromium, launched the one way this project drives it (browser tests, the display
benchmark, the docs' screenshots): headless, and with nothing reaching out past this machine.
Playwright's own browser download does not work here; the system chromium does."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 10_000  # ms: generous for a loaded 2-core machine; an SSE update takes milliseconds


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A launched browser. In a test run without chromium: skipped, or failed under CI=true
    (.ci/run installs it)."""
    import pytest

    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but /usr/bin/chromium is missing: .ci/run installs it")
        pytest.skip("no /usr/bin/chromium here (apt-get install chromium): browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
