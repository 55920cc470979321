"""The light show: a pure function from (the picked colour, settings) to frames.

The lights scan red -> blue -> green -> yellow -> red ..., each step longer than the last
(geometric growth from `first_step_s` to `last_step_s`), leaving a dim trail behind, and land on
the picked colour, which blinks and then stays lit for `lit_s` (0 = until the next show).

The scan always has the same number of steps and the same timings whatever the colour: only its
starting light changes. So the show's length reveals nothing, and a test can check every frame
without sleeping.
"""

from __future__ import annotations

import functools

from tray.backend import COLOURS, DARK, Frame, Levels
from tray.config import ShowSettings


def _levels(brightness: float, **lit: float) -> Levels:
    return tuple(brightness * lit.get(colour, 0.0) for colour in COLOURS)  # type: ignore[return-value]


def step_times(settings: ShowSettings) -> list[float]:
    """The length of each scan step: geometric from first_step_s to last_step_s."""
    n = settings.steps
    ratio = (settings.last_step_s / settings.first_step_s) ** (1 / (n - 1))
    return [settings.first_step_s * ratio**i for i in range(n)]


def spin_seconds(settings: ShowSettings) -> float:
    """How long from the first frame until the pick has landed (scan plus blinks)."""
    return sum(step_times(settings)) + 2 * settings.blinks * settings.blink_s


def frames(colour: str, settings: ShowSettings) -> list[Frame]:
    """Every frame of the show that lands on `colour`; the last frame's levels stay on.

    Computed once per (colour, settings) and then reused: a tap must reach the first frame
    quickly, and building the show costs far more than copying it.
    """
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}; expected one of {COLOURS}")
    return list(_frames(colour, settings))


@functools.lru_cache(maxsize=16)
def _frames(colour: str, settings: ShowSettings) -> tuple[Frame, ...]:
    b = settings.brightness
    times = step_times(settings)
    target = COLOURS.index(colour)
    start = (target - (len(times) - 1)) % len(COLOURS)
    out: list[Frame] = []
    for i, seconds in enumerate(times):
        here = COLOURS[(start + i) % 4]
        lit = {here: 1.0}
        if i and settings.trail:
            lit[COLOURS[(start + i - 1) % 4]] = settings.trail
        out.append(Frame(_levels(b, **lit), seconds))
    on = _levels(b, **{colour: 1.0})
    for _ in range(settings.blinks):
        out += [Frame(DARK, settings.blink_s), Frame(on, settings.blink_s)]
    if settings.lit_s:
        out += [Frame(on, settings.lit_s), Frame(DARK, 0.0)]
    else:
        out.append(Frame(on, 0.0))
    return tuple(out)


def walk(seconds: float = 0.4, brightness: float = 1.0) -> list[Frame]:
    """A self-test: each light alone, in order, then all together, then dark."""
    out = [Frame(_levels(brightness, **{c: 1.0}), seconds) for c in COLOURS]
    out += [Frame((brightness,) * 4, seconds), Frame(DARK, 0.0)]  # type: ignore[arg-type]
    return out
