"""axe-core (the npm package, pinned by package-lock.json beside this file) run inside a page of
real Chromium: the pages' automated accessibility audit. Where the package is not installed
(`npm ci` here, which `./tinker test` runs) its tests skip with the reason, and fail instead
under CI=true."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

AXE = Path(__file__).with_name("node_modules") / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def require_axe() -> Path:
    import pytest

    if not AXE.exists():
        missing = f"no {AXE.relative_to(Path.cwd()) if AXE.is_relative_to(Path.cwd()) else AXE}"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {missing}: ./tinker test installs it (npm ci)")
        pytest.skip(f"{missing} (cd tests/browser_audit && npm ci): the audit is skipped")
    return AXE


def serious_violations(page: Any) -> list[str]:
    """axe's serious and critical findings on the page as it stands, one line each: the rule,
    what it says and the elements it found."""
    page.add_script_tag(path=str(require_axe()))
    found = page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ['violations']});
          return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 6)}));
        }"""
    )
    return [
        f"{v['impact']} {v['id']}: {v['help']} at {', '.join(v['nodes'])}"
        for v in found
        if v["impact"] in SERIOUS
    ]
