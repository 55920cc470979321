"""The host link by holding the button: a pairing window, as a smart-home bridge's link button.

Holding the tray's physical Tinker Bell button for about 3 s (`tray.events.LinkHeld`) proves
someone is at the table. It opens a window of `WINDOW_S` seconds in which one phone that asks
(`POST /api/pair`) is given the host cookie; then the window closes. Outside a window nobody
becomes host without the token.

The choices, for safety with nothing to type:
- Only a tray's own button opens it: `LinkHeld` comes from the press detector of a physical
  (or the emulator's mock) pin, never from the web page's virtual button, MQTT or the API.
- One phone per hold: the first phone that asks closes the window (a second phone: hold again).
- Asking is a POST (same-site only, `auth.SameOrigin`): a link preview or a prefetch never takes
  the window, and another site's page cannot. Reading gives nothing: the QR code and every
  endpoint carry the address of the pairing page, never the token; the token travels only in
  the HTTP-only cookie of the one answer to the phone that asked.
- No confirmation on the kiosk (a TV has no keyboard, a headless Pi no screen); instead the
  scoreboard says when a phone became host, so a table whose own phone was refused knows the
  window went to someone else within that minute.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

from tray.events import LinkHeld

WINDOW_S = 60.0
STATES = {
    (o, p): json.dumps({"open": o, "paired": p}, separators=(",", ":"))
    for o in (False, True)
    for p in (False, True)
}


class Pairing:
    """The pairing window: opened by `held`, used once by `claim`. Any thread (the bus's relay
    opens it, the web app claims it); `on_change` is called when it opens, is used or lapses."""

    def __init__(
        self,
        window_s: float = WINDOW_S,
        *,
        on_change: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.window_s, self.on_change, self.clock = window_s, on_change, clock
        self._lock = threading.Lock()
        self._closes_at: float | None = None  # the window's end (on `clock`)
        self._paired = False  # its phone became host
        self._timer: threading.Timer | None = None

    def held(self, event: LinkHeld) -> None:
        """The button was held: open a new window (a hold during one starts it again)."""
        if event.source == "virtual":  # no virtual press makes one; refused here all the same
            return
        with self._lock:
            self._closes_at = self.clock() + self.window_s
            self._paired = False
            self._lapse_later(self.window_s)
        self.on_change()

    def claim(self) -> bool:
        """A phone asks to become host: True (and the window is used) while one is open."""
        with self._lock:
            if not self._open():
                return False
            self._paired = True
        self.on_change()
        return True

    @property
    def is_open(self) -> bool:
        with self._lock:
            return self._open()

    def state(self) -> dict[str, bool]:
        """What the pages show: the window is open; or its phone has just become host (for the
        rest of that window's minute); or neither. No times: a kiosk's clock may differ."""
        with self._lock:
            lasting = self._closes_at is not None and self.clock() < self._closes_at
            return {"open": lasting and not self._paired, "paired": lasting and self._paired}

    def state_json(self) -> str:
        """`state()` as JSON: one of three strings, the same objects each time."""
        now = self.state()
        return STATES[now["open"], now["paired"]]

    def close(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()

    def _open(self) -> bool:
        return not self._paired and self._closes_at is not None and self.clock() < self._closes_at

    def _lapse_later(self, seconds: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(seconds + 0.05, self.on_change)  # the pages hide the QR
        self._timer.daemon = True
        self._timer.start()
