"""The wiring diagrams say exactly what the pin maps say: every pin the service (or the Pico
firmware) drives goes to its part, and no other pin or part is drawn."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import pytest
import yaml

from firmware_bridge.firmware.tinkerfw import DEFAULT_PINS
from hardware import render, wiring
from tests.hardware.conftest import need
from tray import config
from tray.backend import COLOURS

PINMAP = render.DEFAULT_PINMAP
WIRING = render.WIRING_DIR


def expected_gpio(cfg: config.Config) -> dict[str, set[str]]:
    """What the pin map says, in the diagram's words: GPIOn -> the parts it reaches."""
    parts = {f"GPIO{led.pin}": {f"LED {c}", f"resistor {c}"} for c, led in cfg.leds.items()}
    parts[f"GPIO{cfg.button.pin}"] = {wiring.BUTTON}
    grounded = {f"LED {c}" for c in cfg.leds} | {wiring.BUTTON, wiring.GROUND_RAIL}
    if cfg.buzzer.enabled:
        parts[f"GPIO{cfg.buzzer.pin}"] = {"buzzer"} | (
            {"resistor buzzer"} if cfg.buzzer.kind == "passive" else set()
        )
        grounded.add("buzzer")
    return parts | {"GND": grounded}


def committed(name: str) -> dict:
    return yaml.safe_load((WIRING / f"{name}.yml").read_text(encoding="utf-8"))


def test_the_gpio_diagram_is_the_pin_map():
    assert wiring.traced(committed("tray-gpio"), "Raspberry Pi") == expected_gpio(
        config.load(PINMAP)
    )


def test_the_committed_yaml_is_written_from_the_pin_maps_now():
    assert committed("tray-gpio") == wiring.gpio_harness(config.load(PINMAP)), (
        "wiring/tray-gpio.yml is stale: run python hardware/render.py"
    )
    assert committed("tray-pico") == wiring.pico_harness(DEFAULT_PINS, COLOURS), (
        "wiring/tray-pico.yml is stale: run python hardware/render.py"
    )


def test_a_changed_pin_map_disagrees_with_the_diagram_until_it_is_drawn_again():
    cfg = config.load(PINMAP)
    moved = dataclasses.replace(
        cfg,
        leds=cfg.leds | {"red": dataclasses.replace(cfg.leds["red"], pin=12)},
        buzzer=dataclasses.replace(cfg.buzzer, enabled=True, kind="passive"),
    )
    assert wiring.traced(committed("tray-gpio"), "Raspberry Pi") != expected_gpio(moved)
    drawn = wiring.gpio_harness(moved)
    assert wiring.traced(drawn, "Raspberry Pi") == expected_gpio(moved)
    header = drawn["connectors"]["Raspberry Pi"]
    assert dict(zip(header["pinlabels"], header["pins"], strict=True))["GPIO12"] == 32


def test_the_pico_diagram_is_the_firmwares_pin_table():
    found = wiring.traced(committed("tray-pico"), "Pico")
    expected = {
        f"GP{gp}": {f"LED {c}", f"resistor {c}"}
        for c, gp in zip(COLOURS, DEFAULT_PINS["leds"], strict=True)
    }
    expected[f"GP{DEFAULT_PINS['button']}"] = {wiring.BUTTON}
    expected[f"GP{DEFAULT_PINS['buzzer']}"] = {"buzzer"}
    expected["GND"] = {f"LED {c}" for c in COLOURS} | {wiring.BUTTON, "buzzer", wiring.GROUND_RAIL}
    assert found == expected


def test_the_header_tables_name_each_pin_once():
    for header, grounds, count in (
        (wiring.PI_HEADER, wiring.PI_GROUNDS, 40),
        (wiring.PICO_HEADER, wiring.PICO_GROUNDS, 40),
    ):
        physical = [*header.values(), *grounds]
        assert len(set(physical)) == len(physical)
        assert all(1 <= pin <= count for pin in physical)
    # The ground WIRING.md draws: pin 39, beside GPIO26 at the end of the odd row.
    assert wiring.nearest_ground([29, 31, 33, 35, 37], wiring.PI_GROUNDS, wiring.pi_row) == 39
    # The Pico's: on the side the signals use (pins 1 to 20), beside GP5 (pin 7).
    assert wiring.nearest_ground([4, 5, 6, 7, 20], wiring.PICO_GROUNDS, wiring.pico_row) == 8


@pytest.mark.parametrize("name", ["tray-gpio", "tray-pico"])
def test_the_committed_pictures_and_bom_show_every_pin_and_part(name):
    data = committed(name)
    board = next(iter(data["connectors"]))
    svg = (WIRING / f"{name}.svg").read_text(encoding="utf-8")
    for label in data["connectors"][board]["pinlabels"]:
        assert f">{label}<" in svg, f"{name}.svg does not show {label}"
    for part in data["connectors"]:
        assert f">{part}<" in svg, f"{name}.svg does not show {part}"
    assert (WIRING / f"{name}.png").stat().st_size > 10_000
    with (WIRING / f"{name}.bom.tsv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))
    designators = {d.strip() for row in rows for d in row["Designators"].split(",")}
    assert set(data["connectors"]) <= designators


@pytest.mark.slow
def test_wireviz_draws_the_committed_yaml_again(tmp_path: Path):
    """Graphviz's layout may differ from one version to the next; the BOM and the labels not."""
    need("dot")
    from wireviz.wireviz import parse

    parse(WIRING / "tray-gpio.yml", output_formats=("svg", "tsv"), output_dir=tmp_path,
          output_name="tray-gpio")  # fmt: skip
    assert (tmp_path / "tray-gpio.bom.tsv").read_text() == (
        WIRING / "tray-gpio.bom.tsv"
    ).read_text()
    svg = (tmp_path / "tray-gpio.svg").read_text(encoding="utf-8")
    for label in expected_gpio(config.load(PINMAP)):
        assert f">{label}<" in svg


def test_the_resistors_drawn_are_the_ones_the_bom_and_the_guides_name():
    bom = (render.HERE / "BOM.md").read_text(encoding="utf-8")
    assert f"| 4 | resistor {wiring.LED_RESISTOR_PI}," in bom
    assert f"| resistor {wiring.PIEZO_RESISTOR} |" in bom
    assert f"[ {wiring.LED_RESISTOR_PI} ]" in (render.HERE / "WIRING.md").read_text(
        encoding="utf-8"
    )
    bridge = (render.HERE.parent / "docs" / "bridge.md").read_text(encoding="utf-8")
    assert f"through a {wiring.LED_RESISTOR_PICO} resistor" in bridge
