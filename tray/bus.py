"""The in-process publish/subscribe bus, and the relay that keeps it off the tray's thread.

Subscribers are called in the publisher's thread, in subscription order. One subscriber raising
must not stop the others (nor the button that published), so each call is guarded and the
exception is logged.

The tray's scheduler thread times the light show and debounces the button: it must never wait
for a subscriber (the scoreboard's journal fsyncs, digital play moves bots). So the tray service
never publishes itself: it hands each event to a `Relay`, which publishes it from one worker
thread of its own, in order. Every subscriber of the service's events, the scoreboard and
digital play among them, takes them on that worker; whatever subscribes later (a log line, an
MQTT adapter) cannot put I/O back on the tray's thread.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from tray.events import Event

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], None]
E = TypeVar("E", bound=Event)


class Bus:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: tuple[tuple[Subscriber, tuple[type[Event], ...] | None], ...] = ()

    def subscribe(self, callback: Callable[[E], None], *types: type[E]) -> Callable[[], None]:
        """Call `callback` for every event (or only those of `types`); returns an unsubscribe."""
        entry: Any = (callback, types or None)
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


_STOP = object()


class Relay:
    """Publishes events on `bus` from a worker thread of its own, in the order they were posted.

    `post()` only appends to a queue (no lock held while subscribers run, no I/O), so a
    real-time thread can call it. `flush()` waits until everything posted so far has been
    published; `close()` publishes what is queued, then stops the thread.
    """

    def __init__(self, bus: Bus, name: str = "bus-relay") -> None:
        self.bus = bus
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def post(self, event: Event) -> None:
        """Publish `event` on the relay's thread, after every event posted before it."""
        if not self._closed:
            self._queue.put(event)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every event posted before this call has been published; False on timeout
        (a subscriber is stuck) or if the relay is closed."""
        if self._closed or self.in_thread():
            return not self._closed
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def alive(self, timeout: float = 1.0) -> bool:
        """A health check: True if the relay gets through its queue within `timeout` seconds."""
        return self.flush(timeout)

    def in_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def close(self, timeout: float = 5.0) -> None:
        """Publish what is queued, then stop the thread. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._queue.put(_STOP)
        if not self.in_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            if isinstance(item, threading.Event):
                item.set()
            elif isinstance(item, Event):
                self.bus.publish(item)  # guards each subscriber itself
