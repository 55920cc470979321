"""Which pin backend the tray opens: "mock", a named one, or "auto".

"auto" is GPIOZERO_PIN_FACTORY if set, else lgpio (every Pi, the Pi 5 included, and what
Raspberry Pi OS ships as python3-lgpio), else RPi.GPIO where it happens to be installed (older
systems; `./tinker` never installs it, as PyPI has no wheel of it to install without compiling).

Two failures read differently to a person, so they are two exceptions:
- `NoGpio`: no pins here at all (a laptop, a Pi without a backend): `run` falls back to the
  emulator and says so.
- `NoGpioAccess`: a Raspberry Pi whose GPIO devices this user may not open. Falling through to
  RPi.GPIO there used to end in its uncaught "No access to /dev/mem" once the first pin was set
  up, with lgpio's own reason lost; now the first backend's reason is kept and the message names
  the group to join, in one line.
"""

from __future__ import annotations

import glob
import grp
import os
from pathlib import Path

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

BACKENDS = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}
MODEL_FILES = (Path("/proc/device-tree/model"), Path("/sys/firmware/devicetree/base/model"))
"""Where the kernel names the board ("Raspberry Pi 4 Model B Rev 1.4")."""
DEVICE_PATTERNS = ("/dev/gpiochip*", "/dev/gpiomem*")
"""The GPIO character devices: lgpio opens a gpiochip, RPi.GPIO /dev/gpiomem."""
DEFAULT_GROUP = "gpio"


class NoGpio(RuntimeError):
    """No real pin backend could be loaded here (not a Pi, or no lgpio / RPi.GPIO)."""


class NoGpioAccess(NoGpio):
    """A Raspberry Pi whose GPIO devices this user may not open; the message says which group
    to join (one line, for the person at the Pi)."""


def make_pin_factory(name: str = "auto") -> Factory:
    if name == "auto":
        name = os.environ.get("GPIOZERO_PIN_FACTORY", "auto").lower()
    if name == "mock":
        return MockFactory(pin_class=MockPWMPin)
    reasons: list[str] = []
    for candidate in ["lgpio", "rpigpio"] if name == "auto" else [name]:
        if candidate not in BACKENDS:
            reasons.append(f"{candidate}: unknown pin factory")
            continue
        if candidate != "lgpio":  # RPi.GPIO opens without access, then fails on the first pin
            refuse_without_access(reasons)
        try:
            return load_backend(candidate)
        except ImportError as exc:
            reasons.append(f"{candidate}: not installed ({exc})")
        except Exception as exc:  # lgpio.error ("can not open gpiochip"), OSError
            reasons.append(f"{candidate}: {exc}")
            refuse_without_access(reasons)
    raise NoGpio("no GPIO pins found here (" + "; ".join(reasons) + ")")


def refuse_without_access(reasons: list[str]) -> None:
    """Raise NoGpioAccess on a Pi whose GPIO this user cannot open, with the first reason."""
    problem = access_problem()
    if problem is not None:
        raise NoGpioAccess(problem + (f" ({reasons[0]})" if reasons else ""))


def load_backend(name: str) -> Factory:
    """The named gpiozero factory, imported only now (off a Pi the import itself fails)."""
    module_name, class_name = BACKENDS[name]
    module = __import__(module_name, fromlist=[class_name])
    factory: Factory = getattr(module, class_name)()
    return factory


def board_model() -> str | None:
    """The board's name as the kernel gives it, or None where there is no device tree."""
    for path in MODEL_FILES:
        try:
            return path.read_bytes().rstrip(b"\0\n").decode(errors="replace")
        except OSError:
            continue
    return None


def access_problem() -> str | None:
    """On a Raspberry Pi, why this user cannot open its GPIO (naming the group to join), or
    None: not a Pi (nothing to say), or at least one GPIO device opens for reading and writing."""
    model = board_model()
    if model is None or "Raspberry Pi" not in model:
        return None
    devices = sorted(p for pattern in DEVICE_PATTERNS for p in glob.glob(pattern))
    if any(can_open(p) for p in devices):
        return None
    group = device_group(devices[0]) if devices else DEFAULT_GROUP
    what = "no GPIO device is visible" if not devices else f"no access to {devices[0]}"
    return (
        f"{model}: {what} for this user: add it to the {group} group "
        f"(sudo usermod -aG {group} $USER, then log in again), or try `tinker-tray emulate`"
    )


def can_open(path: str) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def device_group(path: str) -> str:
    """The group that owns a GPIO device (gpio on Raspberry Pi OS), by name."""
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (OSError, KeyError):
        return DEFAULT_GROUP
