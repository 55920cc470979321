"""Shared helpers of the bridge tests and bench/serial_noise.py: the quick link timings, and the
events a tray delivered."""

import threading
import time

from firmware_bridge.host import BridgeSettings

FAST = BridgeSettings(
    heartbeat_s=0.05,
    deadline_s=0.4,
    device_lost_s=1.0,
    hold_s=0.3,
    handshake_first_s=0.05,
    handshake_max_s=0.2,
    rescan_s=0.02,
    refused_retry_s=0.2,
)


class Events:
    """Collects delivered events; `wait_for` polls with a generous limit (not a timing test)."""

    def __init__(self):
        self.items = []
        self._cond = threading.Condition()

    def __call__(self, event):
        with self._cond:
            self.items.append(event)
            self._cond.notify_all()

    def of(self, kind):
        return [e for e in self.items if isinstance(e, kind)]

    def wait_for(self, kind, count=1, timeout=5.0):
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.of(kind)) >= count, timeout)
        assert ok, f"waited {timeout} s for {count} {kind.__name__}; got {self.items}"
        return self.of(kind)


def eventually(check, timeout=5.0):
    """Poll `check()` until it is truthy (the link is asynchronous); fail after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            assert value, f"condition never held: {check}"
            return value
        time.sleep(0.005)
