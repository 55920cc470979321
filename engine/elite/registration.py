"""UNO Elite in the registry (`engine.registry`): its name, its entry made on its first
lookup (`entries.py`), so that listing the rulesets imports nothing more of it than this (and
the package's `__init__`, which imports its API only when asked for it)."""

from __future__ import annotations

from engine import registry

NAME = "elite"


def _entry() -> registry.Entry:
    from engine.elite.entries import entry

    return entry()


registry.register_later(NAME, _entry)
