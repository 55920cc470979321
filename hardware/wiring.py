"""The wiring diagrams as WireViz harnesses, drawn from the pin maps themselves.

The GPIO tray's harness comes from a loaded pin map (tray/default.toml by default, so the
diagram shows what the service drives), the USB tray's from the Pico firmware's `DEFAULT_PINS`.
Each LED runs pin -> resistor -> anode, cathode -> the ground rail; the button runs pin ->
contact -> ground rail; one ground wire joins the rail to the board. `traced` reads a harness
back into "which board pin reaches which part", the question the tests ask of the committed
diagrams.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, NamedTuple

from tray.config import Config

# BCM GPIO -> physical pin on the 40-pin header (every Pi since the B+).
PI_HEADER = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19,
    9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35,
    16: 36, 26: 37, 20: 38, 21: 40,
}  # fmt: skip
PI_GROUNDS = (6, 9, 14, 20, 25, 30, 34, 39)
# GPn -> physical pin of the Raspberry Pi Pico (GND on 3, 8, 13, 18, 23, 28, 33 (AGND), 38).
PICO_HEADER = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
    13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31,
    27: 32, 28: 34,
}  # fmt: skip
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 38)
WIRE_COLOURS = {"red": "RD", "blue": "BU", "green": "GN", "yellow": "YE"}
BUTTON = "Tinker Bell button"
GROUND_RAIL = "GND rail"
SIGNALS, LEGS, GROUNDS = "W1 board wires", "W2 resistor to part", "W3 ground returns"
# The series resistors WIRING.md (the Pi) and docs/bridge.md (the Pico) give.
LED_RESISTOR_PI, LED_RESISTOR_PICO, PIEZO_RESISTOR = "220 Ω", "330 Ω", "100 Ω"


def pi_row(pin: int) -> int:
    """The Pi header's two rows: odd pins on one, even pins on the other."""
    return pin % 2


def pico_row(pin: int) -> int:
    """The Pico's two sides: pins 1 to 20, and 21 to 40."""
    return int(pin > 20)


def nearest_ground(pins: list[int], grounds: tuple[int, ...], row: Callable[[int], int]) -> int:
    """The ground pin a short wire reaches: in the row most of the signals use, beside them."""
    rows = [row(p) for p in pins]
    busiest = max(set(rows), key=rows.count)
    same_row = [g for g in grounds if row(g) == busiest] or list(grounds)
    return min(same_row, key=lambda g: (min(abs(g - p) for p in pins), -g))


class Part(NamedTuple):
    """One part wired to one board pin (through `resistor` if any) and to the ground rail."""

    name: str
    pin: int  # the board's physical pin
    label: str  # the pin's name: GPIO5, GP2
    resistor: str | None
    connector: dict[str, Any]
    legs: tuple[Any, Any]  # (to the pin, to ground)
    colour: str  # of the wire from the board


def led(colour: str, pin: int, label: str, resistor: str) -> Part:
    connector = {
        "type": "LED 5 mm",
        "subtype": colour,
        "pins": ["A", "K"],
        "pinlabels": ["anode (long leg)", "cathode (short leg)"],
    }
    return Part(f"LED {colour}", pin, label, resistor, connector, ("A", "K"), WIRE_COLOURS[colour])


def button(pin: int, label: str) -> Part:
    connector = {"type": "push button", "subtype": "normally open", "pins": [1, 2]}
    return Part(BUTTON, pin, label, None, connector, (1, 2), "VT")


def buzzer(pin: int, label: str, kind: str, resistor: str | None) -> Part:
    connector = {"type": "buzzer", "subtype": kind, "pins": ["+", "-"]}
    return Part("buzzer", pin, label, resistor, connector, ("+", "-"), "OG")


def harness(board: dict[str, Any], name: str, parts: list[Part], ground: int) -> dict[str, Any]:
    """A WireViz harness: each part from its board pin (through its resistor) to the ground
    rail, and the rail to the board's `ground` pin."""
    pins = sorted([*(part.pin for part in parts), ground])
    labels = {part.pin: part.label for part in parts} | {ground: "GND"}
    board = board | {"pins": pins, "pinlabels": [labels[p] for p in pins]}
    connectors: dict[str, Any] = {name: board}
    cables: dict[str, Any] = {
        cable: {"category": "bundle", "gauge": "0.14 mm2", "length": length, "colors": []}
        for cable, length in ((SIGNALS, 0.15), (LEGS, 0.05), (GROUNDS, 0.1))
    }
    connections: list[Any] = []

    def wire(cable: str, colour: str, start: tuple[str, Any], end: tuple[str, Any]) -> None:
        cables[cable]["colors"].append(colour)
        number = len(cables[cable]["colors"])
        connections.append([{start[0]: [start[1]]}, {cable: [number]}, {end[0]: [end[1]]}])

    rail = [*(part.name for part in parts), name]
    for number, part in enumerate(parts, start=1):
        connectors[part.name] = part.connector
        if part.resistor is None:
            wire(SIGNALS, part.colour, (name, part.pin), (part.name, part.legs[0]))
        else:
            res = f"resistor {part.name.removeprefix('LED ')}"
            connectors[res] = {"type": "resistor", "subtype": part.resistor, "pins": [1, 2]}
            wire(SIGNALS, part.colour, (name, part.pin), (res, 1))
            wire(LEGS, part.colour, (res, 2), (part.name, part.legs[0]))
        wire(GROUNDS, "BK", (part.name, part.legs[1]), (GROUND_RAIL, number))
    wire(SIGNALS, "BK", (name, ground), (GROUND_RAIL, len(rail)))
    connectors[GROUND_RAIL] = {
        "type": "ground rail",
        "pins": list(range(1, len(rail) + 1)),
        "pinlabels": [f"GND ({part})" for part in rail],
    }
    for cable in cables.values():
        cable["wirecount"] = len(cable["colors"])
    return {
        "metadata": {"title": f"tinker-tray: {name}"},
        "connectors": connectors,
        "cables": cables,
        "connections": connections,
    }


def gpio_harness(config: Config) -> dict[str, Any]:
    """The Pi's tray, from a loaded pin map (BCM numbers -> the header's physical pins)."""
    parts = [
        led(colour, PI_HEADER[light.pin], f"GPIO{light.pin}", LED_RESISTOR_PI)
        for colour, light in config.leds.items()
    ]
    parts.append(button(PI_HEADER[config.button.pin], f"GPIO{config.button.pin}"))
    if config.buzzer.enabled:
        kind = config.buzzer.kind
        resistor = PIEZO_RESISTOR if kind == "passive" else None
        pin = config.buzzer.pin
        parts.append(buzzer(PI_HEADER[pin], f"GPIO{pin}", f"{kind} buzzer", resistor))
    ground = nearest_ground([part.pin for part in parts], PI_GROUNDS, pi_row)
    board = {"type": "Raspberry Pi 40-pin header", "subtype": "physical pin numbers"}
    return harness(board, "Raspberry Pi", parts, ground)


def pico_harness(pins: dict[str, Any], colours: tuple[str, ...]) -> dict[str, Any]:
    """The USB tray, from the firmware's pin table (GP numbers -> the Pico's physical pins)."""
    parts = [
        led(colour, PICO_HEADER[gp], f"GP{gp}", LED_RESISTOR_PICO)
        for colour, gp in zip(colours, pins["leds"], strict=True)
    ]
    parts.append(button(PICO_HEADER[pins["button"]], f"GP{pins['button']}"))
    if pins.get("buzzer") is not None:
        gp = pins["buzzer"]
        parts.append(buzzer(PICO_HEADER[gp], f"GP{gp}", "passive piezo (optional)", None))
    ground = nearest_ground([part.pin for part in parts], PICO_GROUNDS, pico_row)
    board = {"type": "Raspberry Pi Pico", "subtype": "physical pin numbers"}
    return harness(board, "Pico", parts, ground)


def traced(data: dict[str, Any], board_name: str) -> dict[str, set[str]]:
    """Which parts each of the board's pins reaches (by its label, e.g. "GPIO5"), following
    wires and passing through resistors; the ground rail stops the walk."""
    links: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for chain in data["connections"]:
        (a, [pin_a]), (b, [pin_b]) = (next(iter(chain[0].items())), next(iter(chain[2].items())))
        links[(a, str(pin_a))].add((b, str(pin_b)))
        links[(b, str(pin_b))].add((a, str(pin_a)))
    for name, connector in data["connectors"].items():
        if connector.get("type") not in ("resistor", "ground rail"):
            continue  # an LED, a button or a buzzer does not join its two legs
        for a in connector["pins"]:
            links[(name, str(a))] |= {(name, str(b)) for b in connector["pins"] if b != a}
    board = data["connectors"][board_name]
    reached: dict[str, set[str]] = {}
    for pin, label in zip(board["pins"], board["pinlabels"], strict=True):
        seen, todo = set(), [(board_name, str(pin))]
        while todo:
            node = todo.pop()
            if node in seen or (node[0] == GROUND_RAIL and label != "GND"):
                continue
            seen.add(node)
            todo += links[node]
        reached[label] = {part for part, _ in seen} - {board_name}
    return reached
