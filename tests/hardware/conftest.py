"""The hardware tests need Debian's openscad, xvfb-run and graphviz (dot): where one is missing
they skip with the package to install, except under CI=true, where .ci/run installs them and a
missing tool fails (as tests/helpers/browser.py does for chromium)."""

from __future__ import annotations

import os
import shutil

import pytest

PACKAGES = {"openscad": "openscad", "xvfb-run": "xvfb", "dot": "graphviz"}


def need(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        package = PACKAGES[tool]
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {tool} is missing: .ci/run installs {package}")
        pytest.skip(f"no {tool} here (apt-get install {package}): skipped")
    return found
