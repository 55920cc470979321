"""Server-sent events, one way for every stream of the app (the scoreboard's and any
extension's): `Clients` holds the open streams, `respond` turns a snapshot function into an
event stream that sends the snapshot when it changes.

Each event carries the version of what it shows as its `id:`, so a page that reconnects (after a
network blip or a restart) is up to date with its first message.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.requests import Request

Snapshot = Callable[[], tuple[int, str]]
"""() -> (version, the JSON text to send): called once per wake-up."""


class Clients:
    """The open event streams: each waits on its own asyncio.Event, set from any thread."""

    def __init__(self) -> None:
        self._waiting: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.closing = False
        self._encoded: tuple[str, int, str, bytes] | None = None

    def encoded(self, event: str, version: int, text: str) -> bytes:
        """The event as sent, encoded once for all the clients that send the same one."""
        last = self._encoded
        if last is None or last[:2] != (event, version) or last[2] != text:
            data = ServerSentEvent(data=text, event=event, id=str(version), retry=1000).encode()
            last = self._encoded = (event, version, text, data)
        return last[3]

    def close(self) -> None:
        """End every stream (before the server stops, so it need not cancel them)."""
        self.closing = True
        self.wake()

    def add(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        entry = (asyncio.get_running_loop(), asyncio.Event())
        self._waiting.add(entry)
        return entry

    def remove(self, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        self._waiting.discard(entry)

    def wake(self, _event: object = None) -> None:
        for loop, changed in list(self._waiting):
            try:
                loop.call_soon_threadsafe(changed.set)
            except RuntimeError:  # that client's loop has closed
                self._waiting.discard((loop, changed))

    def __len__(self) -> int:
        return len(self._waiting)


Changes = Callable[[str, str], str]
"""(the text a client has, the new text) -> JSON of the top-level keys that changed."""


def respond(
    request: Request, snapshot: Snapshot, event: str, changes: Changes | None = None
) -> EventSourceResponse:
    """An event stream of `snapshot()`: sent at once, then whenever its text changes (a new
    version, or the same version with a pick revealed). With `changes`, only the first message
    is the whole snapshot (`event`); each later one (`<event>-change`) holds the keys that
    changed since the client's last, so a pick sends a few hundred bytes to each page, not the
    whole view. A reconnecting page gets the whole snapshot again."""
    clients: Clients = request.state.clients

    async def stream():
        entry = clients.add()
        _, changed = entry
        sent = None
        try:
            while not clients.closing:
                changed.clear()
                version, text = snapshot()
                if text != sent:
                    if sent is None or changes is None:
                        yield clients.encoded(event, version, text)
                    else:
                        yield clients.encoded(f"{event}-change", version, changes(sent, text))
                    sent = text
                await changed.wait()
        finally:
            clients.remove(entry)

    return EventSourceResponse(
        stream(), ping=request.state.ping, headers={"Cache-Control": "no-cache"}
    )
