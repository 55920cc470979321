"""A pin map whose light show lasts a few tens of milliseconds, for tests that start the service
as a user would (a file on disk, a subprocess)."""

QUICK_PIN_MAP = """\
[leds]
red = { pin = 5 }
blue = { pin = 6 }
green = { pin = 13 }
yellow = { pin = 19 }
[show]
steps = 4
first_step_s = 0.01
last_step_s = 0.02
blinks = 1
blink_s = 0.02
lit_s = 0.05
"""

MOCK_PINS = '[gpio]\npin_factory = "mock"\n'
"""Prepended where `run` must not look for a Pi (its fallback to the emulator is tested apart)."""
