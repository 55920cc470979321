"""Bots press Tinker Bell for their own cards, as every player does at a real table.

A bot that plays a pixie-dust card presses the tray's button itself: the same press as the
web page's virtual button, so the tray's lights still spin and settle on a fair pick, and the
game takes it only once they have. The people at the table press only for their own cards (a
person against two bots used to press 39 times in 8 hands, most of them for the bots).

A table that likes to press for its bots too says so when it starts the game (`bots_press`
false: the page and the terminal ask the people to press, as before).

The bot waits the game's pace first, so the card is seen before the lights start; longer when a
person may call out of turn right then (a challenge of the bot's Villain Draw 4 is open only
until Tinker Bell picks), so they have a moment to.
"""

from __future__ import annotations

from collections.abc import Callable

from digital.link import GameLink, own_calls
from engine.protocol import tinker_bell

CALL_S = 4.0
"""Seconds a bot waits before its press while a person may call out of turn (challenge)."""
AGAIN_S = 8.0
"""Seconds after which a bot presses again if no pick came of its press (a tray ignores a press
while its lights still spin for another): longer than any light show."""


def presser(link: GameLink, bots_press: bool) -> int | None:
    """The bot's seat whose card Tinker Bell answers now, when it presses for itself; None
    when nothing waits for her, her lights already spin, the card is a person's, or the table
    presses for its bots. The caller holds the link's lock."""
    if not bots_press or link.choosing or not link.waiting_for_tinker_bell:
        return None
    tray = tinker_bell(link.game)
    answered = None if tray is None else tray.tinker_bell_card()
    if answered is None or answered[1] in link.humans:
        return None
    return int(answered[1])


def people_may_call(link: GameLink) -> bool:
    """A person has an out-of-turn call open now (a challenge, a catch)."""
    return any(own_calls(link.game, seat) for seat in link.humans)


class BotPress:
    """Presses the tray's button for a bot, once per wait for Tinker Bell. `press` is the
    tray's press (None: no tray to press; then the page or the terminal asks the people)."""

    def __init__(self, press: Callable[[], None] | None, again_s: float = AGAIN_S) -> None:
        self.press, self.again_s = press, again_s
        self._due: tuple[int, int] | None = None  # (link id, the game's events) pressed for

    def check(self, link: GameLink, bots_press: bool) -> None:
        """After each change of the game (the caller holds the link's lock): if a bot's card
        waits for Tinker Bell, its press is due after the pace (once for that moment)."""
        if self.press is None or presser(link, bots_press) is None:
            return
        at = (id(link), len(link.game.events))
        if at == self._due:
            return
        self._due = at
        wait = max(link.pace, CALL_S) if people_may_call(link) else link.pace
        link.call_later(wait, lambda: self._fire(link, at, bots_press))

    def _fire(self, link: GameLink, at: tuple[int, int], bots_press: bool) -> None:
        """The press, if the game still waits for that bot at that moment (nobody called,
        nobody pressed, the game was not replaced); and again later if no pick comes of it."""
        with link.lock:
            now = (id(link), len(link.game.events))
            due = now == at and presser(link, bots_press) is not None
        if due and self.press is not None:
            self.press()
            link.call_later(self.again_s, lambda: self._fire(link, at, bots_press))


def name_of(link: GameLink, bots_press: bool) -> str | None:
    """For the pages: the name of the bot that presses now, or None."""
    seat = presser(link, bots_press)
    return None if seat is None else link.game.players[seat]
