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
import re

from tray.backend import UnknownTune

Note = str | float | None  # "E6", 1318.5 (Hz) or None (a rest)
Step = tuple[bool | float | None, float]  # (on/off, or Hz/None; seconds) as the Player plays it

PASSIVE_MID_TONE = "A6"
PASSIVE_OCTAVES = 1
"""TonalBuzzer(mid_tone=PASSIVE_MID_TONE, octaves=PASSIVE_OCTAVES) plays A5 to A7 (880 to
3520 Hz); gpiozero's default (A4, one octave) would stop at 880 Hz, below every note here."""


_NOTE = re.compile(r"(?P<letter>[A-G])(?P<accidental>[#♯b♭♮]?)(?P<octave>[0-9])")
_LETTERS = {"C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11}
_ACCIDENTALS = {"#": 1, "♯": 1, "b": -1, "♭": -1, "♮": 0, "": 0}


def midi(note: str) -> int:
    """A note name's MIDI number ("A4" is 69), as gpiozero's `Tone.from_note` reads it.

    Written out here, not borrowed from gpiozero, so that the table (which the USB tray reads
    too) needs no GPIO library; a test holds the two to the same answers."""
    match = _NOTE.fullmatch(note)
    if match is None:
        raise ValueError(f"a note is a name like 'E6', 'F#5' or 'Bb6', not {note!r}")
    return (
        _LETTERS[match["letter"]]
        + _ACCIDENTALS[match["accidental"]]
        + 12 * (int(match["octave"]) + 1)
    )


def midi_frequency(number: int) -> float:
    """Equal temperament from A4 = 440 Hz (MIDI 69), as gpiozero computes it."""
    return float(440 * 2 ** ((number - 69) / 12))


def frequency(note: str | float) -> float:
    """A note name ("E6", "F#5", "Bb6") or a frequency in Hz, as Hz (numbers are taken as Hz,
    never as MIDI note numbers)."""
    if isinstance(note, str):
        return midi_frequency(midi(note))
    if isinstance(note, bool) or not isinstance(note, int | float) or note <= 0:
        raise ValueError(f"a note is a name like 'E6' or a frequency in Hz, not {note!r}")
    return float(note)


def passive_range() -> tuple[float, float]:
    """The lowest and highest frequency the passive buzzer is opened to play, in Hz."""
    mid = midi(PASSIVE_MID_TONE)
    return midi_frequency(mid - 12 * PASSIVE_OCTAVES), midi_frequency(mid + 12 * PASSIVE_OCTAVES)


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
        return tuple(
            (0 if note is None else round(frequency(note)), round(s * 1000))
            for note, s in self.melody
        )


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
