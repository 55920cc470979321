"""The files a ruleset needs (its registry entry's `inputs`: UNO Elite's Action Cards, its UNO
deck table and dynasty's Player Decks), read here: the engine parses text and reads no file.

Each is named on the command line by an option of its own name (`cards=PATH`, `deck=PATH`,
`decks=PATH,PATH,...`); without one, the file the ruleset ships is read. Every problem is an
`InputFileError` naming the file (and the line, for a parse error).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from engine import registry


class InputFileError(ValueError):
    """A file that cannot be read or parsed, in a sentence."""


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputFileError(f"cannot read {path}: {(exc.strerror or str(exc)).lower()}") from None
    except UnicodeDecodeError:
        raise InputFileError(f"{path} is not UTF-8 text") from None


def load(spec: registry.InputFile, path: Path | str | None = None) -> Any:
    """One input file parsed (None: the file the ruleset ships)."""
    where = spec.default if path is None else path
    if where is None:
        raise InputFileError(f"no {spec.what} given: {spec.name}=PATH names the file")
    try:
        return spec.parse(_text(Path(where)), str(where))
    except InputFileError:
        raise
    except ValueError as exc:  # the ruleset's parse error names the file and the line
        raise InputFileError(str(exc)) from None


def game_inputs(ruleset: str, options: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options with the input files' paths taken out, and the files read: each of the
    ruleset's `inputs` from the path its option gives, else the shipped file (an optional file
    with none shipped and none given is left out)."""
    rest = dict(options)
    inputs: dict[str, Any] = {}
    for spec in registry.get(ruleset).inputs:
        given = rest.pop(spec.name, None)
        if spec.many:
            if given is None:
                continue
            if not isinstance(given, str):
                raise InputFileError(f"{spec.name}=PATH,PATH,... (the {spec.what}, one file each)")
            inputs[spec.name] = [load(spec, p.strip()) for p in given.split(",") if p.strip()]
        elif given is not None or spec.default is not None or spec.required:
            inputs[spec.name] = load(spec, None if given is None else str(given))
    return rest, inputs


def shipped_inputs() -> Mapping[str, Mapping[str, Any]]:
    """Every registered ruleset's shipped input files, by ruleset (the page starts games of any
    ruleset, with the files each ships); rulesets that need none are left out. Each ruleset's
    are read on its first lookup (`ShippedInputs`), so a start reads no file and makes no game
    module of a ruleset nobody plays."""
    return ShippedInputs()


class ShippedInputs(Mapping[str, Mapping[str, Any]]):
    """The shipped input files of each ruleset that needs some, read when first asked for and
    kept. A shipped file that cannot be read is as good as missing: the ruleset's entry then
    says what it lacks where a game of it would start (`Entry.missing`), and the reason is
    logged once."""

    def __init__(self) -> None:
        self._read: dict[str, Mapping[str, Any]] = {}

    def __getitem__(self, name: str) -> Mapping[str, Any]:
        if name not in self._read:
            if name not in self._names():
                raise KeyError(name)
            try:
                self._read[name] = game_inputs(name, {})[1]
            except InputFileError as exc:
                logging.getLogger(__name__).warning("%s: %s", registry.get(name).title, exc)
                self._read[name] = {}
        return self._read[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())

    @staticmethod
    def _names() -> list[str]:
        return [name for name in registry.names() if registry.get(name).inputs]
