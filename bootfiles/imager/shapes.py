"""A value from a cloud-init file taken only in the shape it must have, else one sentence: YAML
gives numbers, lists and mappings wherever a hand or a bug puts them, and reading one into
another (str() of a list as a password, a key given as text iterated into one-character keys)
would use what nobody wrote. Empty (None) is the same as absent."""

from __future__ import annotations

import datetime
from typing import Any

from bootfiles.imager import ImagerError

_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "true or false"),
    (int, "a number"),
    (float, "a number"),
    (str, "text"),
    (list, "a list"),
    (dict, "a mapping"),
    (datetime.date, "a date"),
    (bytes, "binary data"),
    (set, "a set"),
)


def kind(value: object) -> str:
    """What a value is, in the words of the sentence."""
    return next(
        (name for type_, name in _KINDS if isinstance(value, type_)), "another kind of value"
    )


def text(value: object, source: str, what: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    raise ImagerError(f"{source}: {what} must be text, not {kind(value)}")


def mapping(value: object, source: str, what: str) -> dict[Any, Any]:
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    raise ImagerError(
        f"{source}: {what} must be a mapping (lines such as name: value), not {kind(value)}"
    )


def flag(value: object, source: str, what: str) -> bool:
    if value is None or isinstance(value, bool):
        return value is True
    raise ImagerError(f"{source}: {what} must be true or false, not {kind(value)}")


def keys(value: object, source: str, what: str) -> list[str]:
    """A list of SSH keys, each text: never a key given as text, taken letter by letter."""
    if value is None:
        return []
    wrong = [key for key in value if not isinstance(key, str)] if isinstance(value, list) else []
    if isinstance(value, list) and not wrong:
        return value
    holding = f"a list holding {kind(wrong[0])}" if wrong else kind(value)
    raise ImagerError(
        f"{source}: {what} must be a list of keys, one line '- ssh-ed25519 AAAA...' each, not "
        f"{holding}"
    )
