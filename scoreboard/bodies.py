"""Request bodies, typed and checked in one place: every POST of the table's web app (and of the
extensions added to it) reads its JSON through `read`, with the body's shape declared as a
`Body` of `Field`s. Anything else is a `BadRequest` (a 4xx with a sentence), never a 500.

The JSON is checked before it is parsed: at most `MAX_BYTES`, nested at most `MAX_DEPTH` deep
(the standard parser would recurse, so a body of 30,000 brackets would overflow the stack).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from typing import Any

from starlette.requests import Request

MAX_BYTES = 64 * 1024
MAX_DEPTH = 8
MAX_TEXT = 100  # characters of a text field, unless its Field says otherwise
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_TYPE_WORDS = {
    str: "text",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "an object",
    type(None): "null",
}


class BadRequest(ValueError):
    """The request itself is malformed: `status` (400, 413, 422) and a sentence."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a body: its name, the JSON types it may take, whether it must be there."""

    name: str
    types: tuple[type, ...]
    required: bool = False
    says: str = ""  # how to describe it when it has the wrong type ("a seat number")
    max_chars: int = MAX_TEXT  # when it is text: every text a client sends has a limit

    def check(self, value: Any) -> None:
        ok = isinstance(value, self.types) and not (
            isinstance(value, bool) and bool not in self.types
        )
        if not ok:
            want = self.says or " or ".join(_TYPE_WORDS.get(t, t.__name__) for t in self.types)
            raise BadRequest(f"{self.name} must be {want}, not {shown(value)}")
        if isinstance(value, str) and len(value) > self.max_chars:
            raise BadRequest(
                f"{self.name} is at most {self.max_chars} characters, not {len(value)}"
            )


@dataclasses.dataclass(frozen=True)
class Body:
    """A request body: an object with these fields and no others. `what` names it in messages."""

    what: str
    fields: tuple[Field, ...]

    def check(self, data: Mapping[str, Any]) -> dict[str, Any]:
        for f in self.fields:
            if f.name in data:
                f.check(data[f.name])
            elif f.required:
                raise BadRequest(f"{self.what} needs {f.name}" + (f": {f.says}" if f.says else ""))
        extra = sorted(set(data) - {f.name for f in self.fields})
        if extra:
            raise BadRequest(f"{self.what} has no field {', '.join(map(repr, extra))[:200]}")
        return dict(data)


def parse(raw: bytes, body: Body | None = None) -> dict[str, Any]:
    """The JSON object in `raw` (empty: {}), checked against `body` if given."""
    if len(raw) > MAX_BYTES:
        raise BadRequest(f"the request is too large (at most {MAX_BYTES // 1024} KiB)", 413)
    if depth(raw) > MAX_DEPTH:
        raise BadRequest(f"the request body is nested too deep (at most {MAX_DEPTH} levels)", 400)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise BadRequest("the request body is not valid JSON", 400) from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object", 400)
    return body.check(data) if body is not None else data


async def read(request: Request, body: Body | None = None) -> dict[str, Any]:
    """The request's JSON body, checked (see `parse`); read no further than `MAX_BYTES`."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BYTES:
            break
    return parse(bytes(raw), body)


def depth(raw: bytes) -> int:
    """How deep the JSON text nests (strings skipped), without parsing it."""
    deepest = level = 0
    for m in _BRACKET.finditer(_STRING.sub(b'""', raw)):
        level += 1 if m.group() in (b"[", b"{") else -1
        deepest = max(deepest, level)
    return deepest


def whole(value: Any, name: str, low: int = 0, high: int = 2**31) -> int:
    """`value` as a whole number in [low, high), or BadRequest naming `name`."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < high:
        raise BadRequest(
            f"{name} must be a whole number from {low} to {high - 1}, not {shown(value)}"
        )
    return value


def shown(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, bytes) else repr(value)
    return text if len(text) <= 40 else text[:37] + "…"
