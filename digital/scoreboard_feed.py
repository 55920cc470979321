"""What the scoreboard hears of a digital game, by the features the game declares, never its
kind: a game with points is the table game the scoreboard shows, and each hand it finishes goes
on that score sheet from the game itself (`TableSession.played_hands`: the record the journal
already holds is the hands' one copy, so the scoreboard, its chart and the journal's exports
read them as any sheet's, and nothing is entered); one with Tinker Bell declares the card she
answers while the game waits for her; every game's winner goes in the journal's results once
it is over (a game without points is on the scoreboard's tally of wins; without a table
session, on this session's own).

A write the journal cannot make now is owed, and tried again (`RETRY_S` later, and as soon as
the journal can be written again) until it is saved: each is counted once saved, so nothing is
entered twice. `DigitalSession` starts, resumes, ends and shows the games; this passes each
move's news on (`ScoreboardFeed.game_moved`), all in one place, so how the scoreboard hears of
a game can change without touching the rest.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from digital.link import RETRY_S, GameLink
from digital.saved import Saved
from engine.protocol import score_sheet, tinker_bell
from scoreboard import wins
from scoreboard.journal import JournalWriteError, Result
from scoreboard.session import TableSession

log = logging.getLogger(__name__)


class ScoreboardFeed:
    """What the scoreboard has had, and is owed, of the game digital play follows.

    It shares the session's lock, which swaps a game in or out together with what the
    scoreboard has had of it (`follow`, `take_retry`: called with that lock held). Its writes
    run in the link's progress, under the link's lock."""

    def __init__(
        self,
        table: TableSession | None,
        lock: threading.Lock,
        catch_up: Callable[[GameLink], None],
    ):
        """`catch_up(link)`: the session's, once an owed write's retry is due (it runs the
        game's progress again, which comes back to `game_moved`)."""
        self.table, self._lock, self._catch_up = table, lock, catch_up
        self.link: GameLink | None = None  # the game followed: the session's game in play
        self.saved: Saved | None = None  # the journal's copy of it (with a table session)
        self.tallied = False  # the winner of a game without points is on the tally
        self.declared: tuple[int, int] | None = None  # (hand, event) last declared
        self.retry: threading.Timer | None = None  # owed scoreboard writes, tried again
        self.results: list[Result] = []  # without a table: this session's finished games

    def follow(self, link: GameLink | None, saved: Saved | None, tallied: bool = False) -> None:
        """From now on pass on `link`'s news (None: no game's): its winner is on the tally
        already if `tallied`. With the lock held."""
        self.link, self.saved = link, saved
        self.tallied, self.declared = tallied, None

    def take_retry(self) -> threading.Timer | None:
        """The owed writes' pending retry, no longer pending (the caller cancels it, or it is
        the one firing). With the lock held."""
        retry, self.retry = self.retry, None
        return retry

    # ------------------------------------------------------------------ the game's news
    def game_moved(self, link: GameLink, winner: int | None) -> None:
        """`link`'s game moved (`winner`: its winner once over): pass on to the scoreboard what
        it has not had yet, by the features the game declares."""
        if "points" in link.features:
            self._score(link)
        self._tally(link, winner)
        if "tinker_bell" in link.features:
            self._declare(link)

    def _on_the_sheet(self, link: GameLink) -> TableSession | None:
        """The table session, while `link`'s game (one with points) has its table game still
        the scoreboard's; None otherwise."""
        saved, table = self.saved, self.table
        if table is None or saved is None or link is not self.link:
            return None
        return table if table.game_id == saved.game_id else None

    def _score(self, link: GameLink) -> None:
        """The game's finished hands go on its score sheet, while it is the scoreboard's (the
        link holds only what the journal has kept: `GameLink._fall_back`)."""
        table, saved = self._on_the_sheet(link), self.saved
        if table is None or saved is None or saved.game_id is None:
            return  # the scoreboard has moved on to another game: this one's hands are not its
        with link.lock:
            sheet = score_sheet(link.game)
            hands = [] if sheet is None else sheet.finished_hands()
        try:
            table.played_hands(saved.game_id, hands)
        except ValueError:  # the sheet's rules refuse the engine's hand: the record stands
            log.exception("the scoreboard's sheet refused a hand of digital game %d", saved.game_id)

    def _declare(self, link: GameLink) -> None:
        """While the game waits for Tinker Bell, tell the scoreboard which card she answers (so
        its pick panel explains the pick as at a real table, not "no card was declared")."""
        table = self._on_the_sheet(link) if link.waiting_for_tinker_bell else None
        if table is None:
            return
        with link.lock:
            sheet, tray = score_sheet(link.game), tinker_bell(link.game)
            at = (0 if sheet is None else len(sheet.finished_hands()), len(link.game.events))
            answered = None if tray is None else tray.tinker_bell_card()
        if answered is None or at == self.declared:
            return
        declared, self.declared = self.declared, at
        card, seat = answered
        try:
            table.submit({"kind": "declare", "card": card, "seat": seat})
        except JournalWriteError:  # said on every page; declared once it can be saved
            self.declared = declared
            self.retry_later(link)
        except ValueError:
            log.info("the scoreboard has no pixie-dust card %s to declare", card)

    def _tally(self, link: GameLink, winner: int | None) -> None:
        """The game is over: its winner goes in the journal's results, once (a game without
        points is on the scoreboard's tally of wins; with a table session, else this session's
        own)."""
        if not isinstance(winner, int):
            return  # not over
        with self._lock:
            tally_now, self.tallied = not self.tallied, True
        if not tally_now:
            return
        game, saved = link.game, self.saved
        names, mode = list(game.players), game.header().get("options", {}).get("mode")
        if self.table is None:
            scored = "points" in link.features
            self.results.append(
                Result(0, None, time.time(), tuple(names), winner, link.ruleset, mode, scored)
            )
            return
        try:
            game_id = saved.game_id if saved is not None else None
            self.table.game_won(game_id, names, winner, link.ruleset, mode=mode)
        except JournalWriteError as exc:  # said on the scoreboard; tried again until saved
            with self._lock:
                self.tallied = False
            log.warning("the winner of the digital game was not saved: %s", exc)
            self.retry_later(link)

    def retry_later(self, link: GameLink) -> None:
        """What the scoreboard is owed for this game (a hand, a declared card, the winner)
        could not be saved: try again in `RETRY_S` seconds, and as soon as the journal can be
        written again, until it is saved (nothing is owed twice: each is counted once saved)."""
        with self._lock:
            if self.retry is not None:
                return
            self.retry = timer = threading.Timer(RETRY_S, self._catch_up, (link,))
        timer.daemon = True
        timer.start()

    def tally(self) -> dict[str, Any]:
        """Wins per player of the games without points: the scoreboard's, or this session's."""
        if self.table is not None:
            tally: dict[str, Any] = self.table.wins
            return tally
        return wins.tally(self.results)
