"""Text from the card as the screen and the login banner show it: every character that is not
printable (escape sequences, newlines, carriage returns, bidirectional overrides) written as its
Python escape, so a file on the card can neither move the console's cursor, recolour it, nor
start a line of its own (a forged "login:" prompt); and cut short, so no file can flood the
screen (a sentence is at most SENTENCE characters, everything printed at most OUTPUT bytes)."""

from __future__ import annotations

import io
import sys
from typing import TextIO

SENTENCE = 600
VALUE = 64
"""A value quoted from the card (a network's name is at most 32 bytes; a hostname 63)."""
OUTPUT = 60 * 1024
PREFIX = "tinker-tray: "
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    if char.isprintable():
        return char
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def shown(text: str, limit: int = SENTENCE) -> str:
    """`text` escaped and, past `limit` characters, cut with an ellipsis."""
    out = "".join(_escaped(char) for char in text[: limit + 1])
    return out if len(out) <= limit else out[: limit - 1] + "…"


def quoted(value: str) -> str:
    """A value from the card inside a sentence: escaped, at most VALUE characters."""
    return shown(value, VALUE)


def say(sentences: list[str], stream: TextIO | None = None) -> None:
    """Each sentence as one line, `tinker-tray: ...`, escaped; past OUTPUT bytes, one line says
    what was left out (a bug that made thousands of sentences must not flood the console)."""
    stream = sys.stdout if stream is None else stream
    if isinstance(stream, io.TextIOWrapper):  # a console without UTF-8 gets \\xe9, not a crash
        stream.reconfigure(errors="backslashreplace")
    written = 0
    for number, sentence in enumerate(sentences):
        line = f"{PREFIX}{shown(sentence)}\n"
        written += len(line.encode())
        if written > OUTPUT:
            stream.write(f"{PREFIX}{len(sentences) - number} more sentences were left out.\n")
            break
        stream.write(line)
    stream.flush()
