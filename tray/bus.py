"""The in-process publish/subscribe bus.

Subscribers are called in the publisher's thread, in subscription order. One subscriber raising
must not stop the others (nor the button that published), so each call is guarded and the
exception is logged. A subscriber that needs its own thread or an asyncio loop hands the event on
itself (for example with `loop.call_soon_threadsafe`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from tray.events import Event

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], None]


class Bus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: tuple[tuple[Subscriber, tuple[type[Event], ...] | None], ...] = ()

    def subscribe(self, callback: Subscriber, *types: type[Event]) -> Callable[[], None]:
        """Call `callback` for every event (or only those of `types`); returns an unsubscribe."""
        entry = (callback, types or None)
        with self._lock:
            self._subscribers = (*self._subscribers, entry)

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = tuple(s for s in self._subscribers if s is not entry)

        return unsubscribe

    def publish(self, event: Event) -> None:
        for callback, types in self._subscribers:  # a snapshot: safe against (un)subscribe
            if types is not None and not isinstance(event, types):
                continue
            try:
                callback(event)
            except Exception:
                log.exception("bus subscriber %r failed on %s", callback, event.type)
