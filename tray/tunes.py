"""The tray's sounds as data: one table, each tune written for both kinds of buzzer.

An *active* buzzer has its own oscillator: it can only be switched on and off, so its tune is a
pattern of (on, seconds). A *passive* piezo is a bare transducer: it sounds the frequency it is
driven at (gpiozero's `TonalBuzzer`, a 50 % PWM square wave), so its tune is a melody of
(note, seconds), a note being a name such as "E6", a frequency in Hz, or None for a rest.

This is the one tune table: the GPIO tray plays it on its buzzer, and the USB tray sends each
melody to its firmware as (Hz, milliseconds) notes (`Tune.notes`), so a table sounds the same
whichever tray it has. A name not in the table is refused by every tray (`tune()`).
The notes sit high (E6 to C7, 1.3 to 2.1 kHz) because small piezos are loud near their resonance
of a few kHz and feeble in the octaves below. Every note
must lie within `PASSIVE_RANGE`, the range the passive buzzer is opened with; the tests check it.
"""

from __future__ import annotations

import dataclasses

from gpiozero.tones import Tone

from tray.backend import UnknownTune

Note = str | float | None  # "E6", 1318.5 (Hz) or None (a rest)
Step = tuple[bool | float | None, float]  # (on/off, or Hz/None; seconds) as the Player plays it

PASSIVE_MID_TONE = "A6"
PASSIVE_OCTAVES = 1
"""TonalBuzzer(mid_tone=PASSIVE_MID_TONE, octaves=PASSIVE_OCTAVES) plays A5 to A7 (880 to
3520 Hz); gpiozero's default (A4, one octave) would stop at 880 Hz, below every note here."""


def frequency(note: str | float) -> float:
    """A note name ("E6", "F#5", "Bb6") or a frequency in Hz, as Hz (gpiozero's Tone does the
    equal-temperament arithmetic; numbers are taken as Hz, never as MIDI note numbers)."""
    if isinstance(note, str):
        return Tone.from_note(note).frequency
    if isinstance(note, bool) or not isinstance(note, int | float) or note <= 0:
        raise ValueError(f"a note is a name like 'E6' or a frequency in Hz, not {note!r}")
    return float(note)


def passive_range() -> tuple[float, float]:
    """The lowest and highest frequency the passive buzzer is opened to play, in Hz."""
    mid = Tone.from_note(PASSIVE_MID_TONE)
    return mid.down(12 * PASSIVE_OCTAVES).frequency, mid.up(12 * PASSIVE_OCTAVES).frequency


@dataclasses.dataclass(frozen=True)
class Tune:
    """One sound, for either buzzer: `pattern` (on, seconds) and `melody` (note, seconds)."""

    pattern: tuple[tuple[bool, float], ...]
    melody: tuple[tuple[Note, float], ...]

    def steps(self, kind: str) -> tuple[Step, ...]:
        """What the Player plays on a buzzer of this kind ("active" or "passive"): on/off
        steps, or (Hz or None, seconds) steps with every note name turned into Hz."""
        if kind == "active":
            return self.pattern
        if kind == "passive":
            return tuple((None if note is None else frequency(note), s) for note, s in self.melody)
        raise ValueError(f"a buzzer is 'active' or 'passive', not {kind!r}")

    def notes(self) -> tuple[tuple[int, int], ...]:
        """The melody as the USB tray's firmware takes it: (Hz, or 0 for a rest; milliseconds)."""
        return tuple((0 if note is None else round(frequency(note)), round(s * 1000))
                     for note, s in self.melody)


TUNES: dict[str, Tune] = {
    # A quick two-note chirp, upwards: the press was heard.
    "press": Tune(
        pattern=((True, 0.03),),
        melody=(("E6", 0.03), ("A6", 0.04)),
    ),
    # A little rising chime (E6, G6, C7: a C major arpeggio) as the pick lands.
    "pick": Tune(
        pattern=((True, 0.08), (False, 0.06), (True, 0.08), (False, 0.06), (True, 0.25)),
        melody=(("E6", 0.08), (None, 0.02), ("G6", 0.08), (None, 0.02), ("C7", 0.16)),
    ),
}


def tune(name: str) -> Tune:
    """The tune called `name`; `UnknownTune` (naming the known ones) if there is none."""
    found = TUNES.get(name)
    if found is None:
        raise UnknownTune(f"unknown tune {name!r}; known: {', '.join(TUNES)}")
    return found
