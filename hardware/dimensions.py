"""The tray's one data file (enclosure/dimensions.toml), and what is written from it.

OpenSCAD cannot read TOML, so the numbers reach the model through `dimensions.scad`, written
here and never edited by hand; the bill of materials (BOM.md) is written from the same file, so
the part a maker buys and the hole the model cuts for it cannot drift apart.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DATA = HERE / "enclosure" / "dimensions.toml"
SCAD = HERE / "enclosure" / "dimensions.scad"
BOM = HERE / "BOM.md"
PARTS = ("shell", "base_pi_zero_2w", "base_pico")
"""The printable parts (tray.scad's `part`): one shell, and one base for each board."""


def load(path: Path | None = None) -> dict[str, Any]:
    with (path or DATA).open("rb") as file:
        return tomllib.load(file)


def _scad_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_scad_value(v) for v in value) + "]"
    raise TypeError(f"no OpenSCAD form for {value!r}")


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{name}_"))
        else:
            flat[name] = value
    return flat


def scad_text(data: dict[str, Any], colours: tuple[str, ...]) -> str:
    """dimensions.scad: `section_key = value;` for every number (the BOM rows stay out), and the
    lights' colours in the order the light show scans them (tray.backend.COLOURS)."""
    lines = [
        "// Written by `python hardware/render.py` from dimensions.toml: do not edit.",
        f"colours = {_scad_value(list(colours))};",
    ]
    fields = _flatten({k: v for k, v in data.items() if k != "bom"})
    lines += [f"{name} = {_scad_value(value)};" for name, value in fields.items()]
    return "\n".join(lines) + "\n"


def lookup(data: dict[str, Any], dotted: str) -> Any:
    value: Any = data
    for key in dotted.split("."):
        value = value[key]
    return value


def _fill(text: str, data: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        try:
            found = lookup(data, match.group(1))
        except (KeyError, TypeError):
            raise ValueError(f"the BOM names {{{match.group(1)}}}, which is not in it") from None
        return f"{found:g}" if isinstance(found, float) else str(found)

    return re.sub(r"\{([a-z0-9_.]+)\}", value, text)


def bom_text(data: dict[str, Any]) -> str:
    rows = [
        "# Bill of materials",
        "",
        "<!-- Written by `python hardware/render.py` from enclosure/dimensions.toml -->",
        "",
        "| Qty | Part | Notes |",
        "|----:|------|-------|",
    ]
    for row in data["bom"]:
        cells = (_fill(row[key], data) for key in ("qty", "part", "notes"))
        rows.append("| " + " | ".join(cells) + " |")
    rows += [
        "",
        "The printed parts (BUILD.md): the shell, and the base for your board "
        "(`base_pi_zero_2w.stl` or `base_pico.stl`). The wiring's own list of parts, drawn "
        "from the pin map: [wiring/tray-gpio.bom.tsv](wiring/tray-gpio.bom.tsv) "
        "(Pico: [wiring/tray-pico.bom.tsv](wiring/tray-pico.bom.tsv)).",
        "",
        "Instead of the Pi's GPIO wiring, a Raspberry Pi Pico (RP2040) with the same button and "
        "LEDs, driven over USB through `tinker-tray run --serial` (see "
        "[docs/bridge.md](../docs/bridge.md)); it fits the same tray on its own base.",
    ]
    return "\n".join(rows) + "\n"
