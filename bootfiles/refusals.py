"""The refusals already said, so that a broken file on the card is one sentence once, not at
every boot: each refused file's name, SHA-256 and sentence, kept on the root file system (the
boot partition is the family's: nothing of ours is written there but what they asked for). The
same file again is not read again; its sentence stays in the login banner until it is fixed.
A lost or damaged record only means a sentence said once more."""

from __future__ import annotations

import json
from pathlib import Path

from bootfiles import card

PATH = "var/lib/tinker-tray-boot/refused.json"


class Refusals:
    def __init__(self, root: Path) -> None:
        self.path = root / PATH
        self.changed = False
        self.known: dict[str, dict[str, str]] = {}
        try:
            known = json.loads(card.read_text(self.path))
        except (OSError, ValueError, RecursionError):  # lost, damaged, or not ours
            return
        if isinstance(known, dict):
            self.known = {
                name: entry
                for name, entry in known.items()
                if isinstance(entry, dict)
                and all(isinstance(entry.get(key), str) for key in ("sha256", "sentence"))
            }

    def said(self, file: card.CardFile) -> str | None:
        """The sentence said before about this very file (same name, same bytes), if any."""
        entry = self.known.get(file.name)
        return entry["sentence"] if entry and entry["sha256"] == file.digest else None

    def remember(self, file: card.CardFile, sentence: str) -> None:
        self.known[file.name] = {"sha256": file.digest, "sentence": sentence}
        self.changed = True

    def forget(self, name: str) -> None:
        """The file is gone or was used: a new mistake in it is a new sentence."""
        self.changed |= self.known.pop(name, None) is not None

    def save(self) -> None:
        """Written only when something changed (a card that boots fine writes nothing)."""
        if self.changed:
            card.write_file(self.path, json.dumps(self.known, indent=1) + "\n", 0o600)
            self.changed = False
