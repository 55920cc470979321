"""The light show: a pure function from (the picked colour, where the scan starts, settings) to
frames.

The lights scan red -> blue -> green -> yellow -> red ..., each step longer than the last
(geometric growth from `first_step_s` to `last_step_s`), leaving a dim trail behind, and land on
the picked colour, which blinks and then stays lit for `lit_s` (0 = until the next show).

Nothing before the landing may give the pick away. So the scan starts on a light of its own,
`lead`, drawn independently of the pick (`tray.pick.Picker` draws both): `steps` steps with the
same timings every time, then the 0 to 3 steps at `last_step_s` still needed to reach the pick.
Those extra steps depend only on (pick - lead), which is uniform whatever the pick, so neither
the first light nor the length says anything about the colour until it lands. (A fixed start
would: the scan always has `steps` steps, so its first light would name the pick.)
"""

from __future__ import annotations

import functools

from tray.backend import COLOURS, DARK, Frame, Levels
from tray.config import ShowSettings


def _levels(brightness: float, **lit: float) -> Levels:
    return tuple(brightness * lit.get(colour, 0.0) for colour in COLOURS)  # type: ignore[return-value]


def step_times(settings: ShowSettings) -> list[float]:
    """The length of each of the `steps` scan steps: geometric from first_step_s to last_step_s."""
    n = settings.steps
    ratio = (settings.last_step_s / settings.first_step_s) ** (1 / (n - 1))
    return [settings.first_step_s * ratio**i for i in range(n)]


def extra_steps(colour: str, lead: str | None, settings: ShowSettings) -> int:
    """Steps after the `steps` fixed ones until the scan that started on `lead` reaches `colour`
    (0 to 3; None: no lead drawn, the scan starts where it needs none)."""
    if lead is None:
        return 0
    return (_index(colour) - _index(lead) - (settings.steps - 1)) % len(COLOURS)


def spin_seconds(
    settings: ShowSettings, colour: str | None = None, lead: str | None = None
) -> float:
    """How long from the first frame until the pick has landed (scan plus blinks); without a
    colour, the shortest show (no extra steps)."""
    return _spin(settings, extra_steps(colour, lead, settings) if colour is not None else 0)


@functools.lru_cache(maxsize=16)
def _spin(settings: ShowSettings, extra: int) -> float:  # on the way from a tap to the lights
    return (
        sum(step_times(settings))
        + extra * settings.last_step_s
        + 2 * settings.blinks * settings.blink_s
    )


def frames(colour: str, settings: ShowSettings, lead: str | None = None) -> list[Frame]:
    """Every frame of the show that starts on `lead` and lands on `colour`; the last frame's
    levels stay on.

    Computed once per (colour, lead, settings) and then reused: a tap must reach the first frame
    quickly, and building the show costs far more than copying it.
    """
    _index(colour)
    if lead is not None:
        _index(lead)
    return list(_frames(colour, lead, settings))


def _index(colour: str) -> int:
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}; expected one of {COLOURS}")
    return COLOURS.index(colour)


@functools.lru_cache(maxsize=32)
def _frames(colour: str, lead: str | None, settings: ShowSettings) -> tuple[Frame, ...]:
    b = settings.brightness
    extra = extra_steps(colour, lead, settings)
    times = step_times(settings) + [settings.last_step_s] * extra
    target = COLOURS.index(colour)
    start = (target - (len(times) - 1)) % len(COLOURS)  # == lead, when one is given
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
    out += [Frame((brightness,) * 4, seconds), Frame(DARK, 0.0)]
    return out
