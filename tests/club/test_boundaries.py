"""club/ is imported only when MQTT is asked for: tray/, scoreboard/, digital/ and engine/
never import it (the command line wires it), and club/ itself never imports digital play."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_no_product_package_imports_club():
    for package in ("tray", "scoreboard", "digital", "engine", "firmware_bridge"):
        for path, names in imported(package).items():
            assert "club" not in names and "paho" not in names, path


def test_club_uses_only_the_tray_scoreboard_and_paho():
    allowed = {"club", "tray", "scoreboard", "paho", "starlette", "sse_starlette"}
    for path, names in imported("club").items():
        ours = names & {
            "club",
            "tray",
            "scoreboard",
            "digital",
            "engine",
            "cli",
            "firmware_bridge",
            "paho",
            "starlette",
            "sse_starlette",
        }
        assert ours <= allowed, (path, ours - allowed)
