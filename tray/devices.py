"""The tray's parts as one gpiozero device, on any pin factory.

`TrayDevices` composes the Tinker Bell button, the four lights and the optional buzzer the way
gpiozero composes boards (`CompositeDevice`), so one `close()` releases every pin. The button is
a plain `DigitalInputDevice` with no `bounce_time`: debounce and tap-versus-hold are ours
(`tray.press`), so gpiozero's `Button` would only add its idle hold thread. The buzzer is a
`Buzzer` (on/off) for an active one, a `TonalBuzzer` (a PWM tone) for a passive piezo.

Which pin factory they run on is `tray.pins.make_pin_factory`'s choice.
"""

from __future__ import annotations

from gpiozero import (
    LED,
    PWMLED,
    Buzzer,
    CompositeDevice,
    DigitalInputDevice,
    Factory,
    TonalBuzzer,
)
from gpiozero.tones import Tone

from tray.backend import COLOURS, Levels
from tray.config import BuzzerConfig, Config
from tray.player import Sound
from tray.tunes import PASSIVE_MID_TONE, PASSIVE_OCTAVES


class TrayDevices(CompositeDevice):
    """Button, four lights (PWMLED or LED) and an optional buzzer; COLOURS order for levels."""

    def __init__(self, config: Config, *, pin_factory: Factory | None = None) -> None:
        made = []
        try:
            light = PWMLED if config.pwm else LED
            lights = {}
            for colour in COLOURS:
                led = config.leds[colour]
                lights[colour] = light(
                    led.pin, active_high=led.active_high, pin_factory=pin_factory
                )
                made.append(lights[colour])
            button = DigitalInputDevice(
                config.button.pin,
                pull_up=config.button.pull_up,
                bounce_time=None,
                pin_factory=pin_factory,
            )
            made.append(button)
            extra = {}
            if config.buzzer.enabled:
                extra["buzzer"] = _buzzer(config.buzzer, pin_factory)
                made.append(extra["buzzer"])
            order = ["button", *COLOURS, *extra]
            super().__init__(
                button=button, **lights, **extra, _order=order, pin_factory=pin_factory
            )
        except BaseException:
            for device in made:
                device.close()
            raise
        self._gain = tuple(config.leds[c].brightness for c in COLOURS)
        self._pwm = config.pwm
        self._lights = tuple(getattr(self, c) for c in COLOURS)  # looked up once, not per frame

    @property
    def lights(self) -> tuple:
        return self._lights

    def set_levels(self, levels: Levels) -> None:
        """Show `levels` (0..1 per light), scaled by each light's calibrated brightness."""
        for led, level, gain in zip(self._lights, levels, self._gain, strict=True):
            value = min(1.0, max(0.0, level * gain))
            led.value = value if self._pwm else value >= 0.5

    def levels(self) -> Levels:
        """What the lights show now, 0..1 each (as driven, after calibration)."""
        return tuple(float(led.value) for led in self.lights)  # type: ignore[return-value]

    def sound(self, value: Sound) -> None:
        """Drive the buzzer, if any: False or None silences either kind; True sounds an active
        buzzer; a frequency in Hz plays that tone on a passive one (ValueError outside its range
        or for True: a passive piezo has no tone of its own). Without a buzzer, nothing."""
        buzzer = self._named.get("buzzer")
        if buzzer is None:
            return
        if not isinstance(buzzer, TonalBuzzer):
            buzzer.value = bool(value)
        elif value is None or value is False:
            buzzer.stop()
        elif value is True:
            raise ValueError("a passive buzzer needs a frequency, not True")
        else:
            buzzer.play(Tone.from_frequency(value))


def _buzzer(config: BuzzerConfig, pin_factory: Factory | None) -> Buzzer | TonalBuzzer:
    if config.kind == "passive":
        return TonalBuzzer(
            config.pin,
            mid_tone=Tone.from_note(PASSIVE_MID_TONE),
            octaves=PASSIVE_OCTAVES,
            pin_factory=pin_factory,
        )
    return Buzzer(config.pin, active_high=config.active_high, pin_factory=pin_factory)
