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
from typing import Any

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
SIGNALS, LEGS, GROUNDS = "W1 board wires", "W2 resistor to LED", "W3 ground returns"


def nearest_ground(pins: list[int], grounds: tuple[int, ...]) -> int:
    """The ground pin a short wire reaches: beside the signal pins, in the same row."""
    row = max((0, 1), key=lambda parity: sum(p % 2 == parity for p in pins))
    same_row = [g for g in grounds if g % 2 == row] or list(grounds)
    return min(same_row, key=lambda g: (min(abs(g - p) for p in pins), -g))


def _board(kind: str, subtype: str, signals: dict[str, tuple[int, str]], ground: int) -> dict:
    pins = sorted([*(pin for pin, _ in signals.values()), ground])
    labels = {pin: label for pin, label in signals.values()} | {ground: "GND"}
    return {"type": kind, "subtype": subtype, "pins": pins, "pinlabels": [labels[p] for p in pins]}


def harness(
    board: dict[str, Any],
    board_name: str,
    leds: dict[str, int],
    button: int,
    buzzer: int | None,
    resistor: str,
    ground: int,
) -> dict[str, Any]:
    """A WireViz harness: `leds` colour -> board pin, `button` and `buzzer` board pins."""
    connectors: dict[str, Any] = {board_name: board, GROUND_RAIL: {"type": "ground rail"}}
    cables: dict[str, Any] = {
        name: {"category": "bundle", "gauge": "0.14 mm2", "length": length, "colors": []}
        for name, length in ((SIGNALS, 0.15), (LEGS, 0.05), (GROUNDS, 0.1))
    }
    connections: list[Any] = []
    rail: list[str] = []

    def wire(cable: str, colour: str, start: tuple[str, Any], end: tuple[str, Any]) -> None:
        cables[cable]["colors"].append(colour)
        number = len(cables[cable]["colors"])
        connections.append([{start[0]: [start[1]]}, {cable: [number]}, {end[0]: [end[1]]}])

    def to_rail(part: str, pin: Any) -> None:
        rail.append(part)
        wire(GROUNDS, "BK", (part, pin), (GROUND_RAIL, len(rail)))

    for colour, pin in leds.items():
        led, res = f"LED {colour}", f"resistor {colour}"
        connectors[res] = {"type": "resistor", "subtype": resistor, "pins": [1, 2]}
        connectors[led] = {
            "type": "LED 5 mm",
            "subtype": colour,
            "pins": ["A", "K"],
            "pinlabels": ["anode (long leg)", "cathode (short leg)"],
        }
        wire(SIGNALS, WIRE_COLOURS[colour], (board_name, pin), (res, 1))
        wire(LEGS, WIRE_COLOURS[colour], (res, 2), (led, "A"))
        to_rail(led, "K")
    connectors[BUTTON] = {"type": "push button", "subtype": "normally open", "pins": [1, 2]}
    wire(SIGNALS, "VT", (board_name, button), (BUTTON, 1))
    to_rail(BUTTON, 2)
    if buzzer is not None:
        connectors["buzzer"] = {"type": "buzzer", "subtype": "+ and -", "pins": ["+", "-"]}
        wire(SIGNALS, "OG", (board_name, buzzer), ("buzzer", "+"))
        to_rail("buzzer", "-")
    rail.append(board_name)
    wire(SIGNALS, "BK", (board_name, ground), (GROUND_RAIL, len(rail)))
    connectors[GROUND_RAIL]["pins"] = list(range(1, len(rail) + 1))
    connectors[GROUND_RAIL]["pinlabels"] = [f"GND ({part})" for part in rail]
    for cable in cables.values():
        cable["wirecount"] = len(cable["colors"])
    return {
        "metadata": {"title": f"tinker-tray: {board_name}"},
        "connectors": connectors,
        "cables": cables,
        "connections": connections,
    }


def gpio_harness(config: Config) -> dict[str, Any]:
    """The Pi's tray, from a loaded pin map (BCM numbers -> the header's physical pins)."""
    leds = {colour: PI_HEADER[led.pin] for colour, led in config.leds.items()}
    button = PI_HEADER[config.button.pin]
    buzzer = PI_HEADER[config.buzzer.pin] if config.buzzer.enabled else None
    used = [*leds.values(), button, *([buzzer] if buzzer else [])]
    ground = nearest_ground(used, PI_GROUNDS)
    signals = {f"LED {c}": (PI_HEADER[led.pin], f"GPIO{led.pin}") for c, led in config.leds.items()}
    signals[BUTTON] = (button, f"GPIO{config.button.pin}")
    if buzzer:
        signals["buzzer"] = (buzzer, f"GPIO{config.buzzer.pin}")
    board = _board("Raspberry Pi 40-pin header", "physical pin numbers", signals, ground)
    return harness(board, "Raspberry Pi", leds, button, buzzer, "220 Ω", ground)


def pico_harness(pins: dict[str, Any], colours: tuple[str, ...]) -> dict[str, Any]:
    """The USB tray, from the firmware's pin table (GP numbers -> the Pico's physical pins)."""
    leds = {colour: PICO_HEADER[gp] for colour, gp in zip(colours, pins["leds"], strict=True)}
    button = PICO_HEADER[pins["button"]]
    buzzer = PICO_HEADER[pins["buzzer"]] if pins.get("buzzer") is not None else None
    used = [*leds.values(), button, *([buzzer] if buzzer else [])]
    ground = nearest_ground(used, PICO_GROUNDS)
    signals = {
        f"LED {c}": (leds[c], f"GP{gp}") for c, gp in zip(colours, pins["leds"], strict=True)
    }
    signals[BUTTON] = (button, f"GP{pins['button']}")
    if buzzer:
        signals["buzzer"] = (buzzer, f"GP{pins['buzzer']}")
    board = _board("Raspberry Pi Pico", "physical pin numbers", signals, ground)
    return harness(board, "Pico", leds, button, buzzer, "330 Ω", ground)


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
