"""The club's leaderboard service: subscribe to every table, journal, serve the page."""

from __future__ import annotations

import hashlib
import logging
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from club import topics
from club.board import Board
from club.journal import ClubJournal
from club.link import Broker, Link
from club.pace import UPDATES_PER_S, Paced
from club.web import create_app
from scoreboard.stream import Clients

if TYPE_CHECKING:
    from scoreboard.server import ServerThread

log = logging.getLogger(__name__)


def client_id(journal: Path) -> str:
    """Stable for one club (host and journal), so its persistent session on the broker keeps
    what arrives while the club is restarting; distinct for two clubs on one broker."""
    digest = hashlib.sha1(str(journal.resolve()).encode()).hexdigest()[:8]
    return f"tinker-club-{socket.gethostname()}-{digest}"[:64]


class ClubService:
    """The board rebuilt from the journal, then kept live from the broker.

    Each message that changes the board is journaled before the pages are woken, so the page
    never shows what a restart would forget. The pages are woken at most `updates_per_s` times
    a second (`club.pace`: a flood is sent as the latest board, a few times a second); None
    wakes them for every change."""

    def __init__(
        self,
        broker: Broker,
        journal: Path,
        *,
        backoff: tuple[float, float] = (1, 30),
        updates_per_s: float | None = UPDATES_PER_S,
    ):
        self.board = Board()
        self.journal = ClubJournal(journal)
        self.replayed = self.journal.replay(self.board)
        self.watchers = Clients()
        self._pages: Callable[[], None] = self.watchers.wake
        self.paced: Paced | None = None
        if updates_per_s is not None:
            self.paced = Paced(self.watchers.wake, 1 / updates_per_s)
            self._pages = self.paced.poke
        self._lock = threading.Lock()
        self.link = Link(broker, client_id(journal), persistent_session=True, backoff=backoff)
        self.link.subscribe(topics.every_table("#"), self._on_message)
        self.server: ServerThread | None = None

    def _on_message(self, name: str, payload: bytes, retained: bool) -> None:
        """A retained copy (what the broker kept, delivered on subscribing) is news but not
        play: only live picks earn a table its place (`club.board`)."""
        parts = topics.split(name)
        if parts is None:
            return
        table, leaf = parts
        with self._lock:
            now = time.time()
            if not self.board.apply(table, leaf, payload, live=not retained, at=now):
                return
            self.journal.append(table, leaf, payload, self.board, live=not retained, received=now)
        self._pages()

    def start(self, host: str = "127.0.0.1", port: int = 8090) -> ClubService:
        """Connect (LinkError for a bad address or refused credentials), then serve."""
        from scoreboard.server import ServerThread, bind

        self.link.start()
        log.info("club journal %s: %d messages replayed", self.journal.path, self.replayed)
        app = create_app(self.board, self.watchers)
        try:
            self.server = ServerThread(app, bind(host, port)).start()
        except BaseException:
            self.link.stop()
            raise
        return self

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.port

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        self.link.stop()
        if self.paced is not None:
            self.paced.close()
        self.journal.close()
