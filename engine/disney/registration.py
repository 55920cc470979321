"""The Disney family in the registry (`engine.registry`): its four rulesets by name, in the
order people read them, each entry made on its first lookup (`entries.py`), so that listing the
rulesets imports nothing more of the family than this."""

from __future__ import annotations

import functools

from engine import registry

NAMES = ("disney", "classic", "official-2018", "elvis")
"""The family's rulesets (`rulesets.RULESETS`, which a test holds this to)."""


def _entry(name: str) -> registry.Entry:
    from engine.disney.entries import entry

    return entry(name)


for _name in NAMES:  # the first records named no ruleset: they are the Disney tray game's
    registry.register_later(
        _name, functools.partial(_entry, _name), unnamed_records=_name == NAMES[0]
    )
