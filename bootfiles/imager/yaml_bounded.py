"""YAML as Imager's cloud-init files need it, and no more: PyYAML's safe loader (no objects of
Python's made) with three bounds of its own, since a file of a few hundred bytes could otherwise
hold the boot:
- no aliases (`*name`): nine lines of nested aliases make a list of 387 million strings, which
  ran a Pi out of memory the moment anything looked at it; Imager never writes one;
- at most MAX_DEPTH levels: PyYAML composes nested lists by recursion, and 3,000 brackets ended in
  a RecursionError; Imager writes six;
- at most MAX_NODES values: Imager writes under a hundred.
Each bound is checked as the document is composed, before the next value is read, so the work
stops there. Imported only when a cloud-init file is there (cloudinit.py)."""

from __future__ import annotations

from typing import Any

import yaml

from bootfiles.imager import ImagerError
from bootfiles.shown import quoted

MAX_DEPTH = 16
MAX_NODES = 5000


class _Refusal(Exception):
    """A bound passed, as the end of a sentence."""


class _Bounded(yaml.SafeLoader):
    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        line = event.start_mark.line + 1
        if isinstance(event, yaml.AliasEvent):
            raise _Refusal(
                f"uses a YAML alias (*{quoted(event.anchor)}) at line {line}, which Imager never "
                "writes"
            )
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Refusal(
                f"holds over {MAX_NODES:,} values (line {line}): Imager writes a hundred"
            )
        if self.depth >= MAX_DEPTH:
            raise _Refusal(
                f"nests deeper than {MAX_DEPTH} levels at line {line}: Imager writes six"
            )
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def load(text: str, source: str) -> object:
    """The document's data (None for an empty one), or ImagerError in one sentence naming
    `source`: not YAML (its line), or past a bound."""
    loader = None
    try:
        loader = _Bounded(text)  # its reader refuses control characters here already
        return loader.get_single_data()
    except _Refusal as exc:
        raise ImagerError(f"{source}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ImagerError(f"{source}: is not YAML{where}") from None
    except ValueError:  # a date such as 2001-13-45, an integer of 5,000 digits
        raise ImagerError(f"{source}: holds a date or a number that cannot be read") from None
    finally:
        if loader is not None:
            loader.dispose()
