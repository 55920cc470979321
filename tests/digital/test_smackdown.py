"""6-Smackdown in digital play (2018 house rules: "When a “6” is played, players must place
their hand on top of the card, whoever is the last player to place their hand on the card will
have to draw 2 cards"): a race. Every person's seat gets a button, the bots lay their hands
after a human-like delay (at once at pace 0), the last hand draws two, and the record keeps the
order. In the session, a terminal, and two people's phones in a real Chromium."""

from __future__ import annotations

import io
import random
import threading

import pytest
from rich.console import Console

from digital import race
from digital.play_loop import TerminalPlay
from digital.session import DigitalSession
from engine import record
from engine.disney import actions as A
from engine.disney.hand import RuleError
from tests.digital.test_play_terminal import Script
from tests.helpers.browser import WAIT
from tests.scoreboard.test_browser import browser, served  # noqa: F401 (fixtures)
from tray.bus import Bus
from tray.pick import Picker

SIX = {"target": 200, "six_smackdown": True}
PLAYERS = ["Bea", "Bo", "Ann", "Ed"]
SEED = 25
"""With this seed Bo, a bot, opens with Red 6: the race is on before anyone else moves."""


def start(humans, pace=0.0, on_change=None) -> tuple[DigitalSession, dict[int, str]]:
    session = DigitalSession(Bus(), pace=pace, on_change=on_change)
    keys = session.new_game(
        PLAYERS, list(humans), "greedy", ruleset="official-2018", options=SIX, seed=SEED
    )
    return session, keys


def slaps(session: DigitalSession) -> list[int]:
    return [e["seat"] for e in session.link.game.events if e.get("act") == "slap"]


def held(session: DigitalSession, seat: int) -> int:
    """The cards `seat` holds (every seat plays: its position is its seat)."""
    return len(session.link.game.hand.hands[seat])


def slap_of(view) -> list[dict]:
    return [m for m in view["legal"] if m["out_of_turn"] and m["kind"] == "slap"]


def test_every_persons_seat_gets_the_button_and_the_last_hand_draws_two():
    """At pace 0 the bots' hands are on the 6 at once; each person's view offers their own hand
    (a call out of turn, "Slap the 6!") and says so; the last person's draws two, and the
    record, in that order, replays to the same game."""
    session, keys = start([2, 3])
    try:
        assert slaps(session) == [1, 0]  # the bots' hands, at once
        for seat in (2, 3):
            view = session.view(seat, keys[seat])
            assert [m["words"] for m in slap_of(view)] == ["Slap the 6!"]
            assert view["prompt"] == "A 6! Slap it: the last hand on the 6 draws 2."
            assert view["awaiting"] == {"kind": "smackdown", "seat": None, "slapped": [1, 0]}
        session.act(3, keys[3], slap_of(session.view(3, keys[3]))[0]["action"])
        assert slap_of(session.view(3, keys[3])) == []
        with pytest.raises(RuleError, match="Each player places their own hand"):
            session.act(2, keys[2], A.SLAP + 3)  # Ann laying Ed's hand
        assert held(session, 2) == 7
        session.act(2, keys[2], slap_of(session.view(2, keys[2]))[0]["action"])
        assert slaps(session) == [1, 0, 3, 2] and held(session, 2) == 7 + 2
        assert session.view(2, keys[2])["log"][-2:] == ["You slap the 6.", "You draw 2 cards."]
        replayed, _ = record.replay(session.record())
        assert replayed.summary() == session.link.game.summary()
    finally:
        session.close()


def test_paced_bots_lay_their_hands_after_a_delay_and_a_person_can_be_last():
    """With a pace the bots' hands come on the link's timer, each after a delay like a person's
    (`digital.race.REACTION_S`), so the race waits for them; the person waiting them out is
    last and draws two."""
    changed = threading.Event()
    session, keys = start([3], pace=0.05, on_change=changed.set)
    try:
        for _ in range(200):  # until the three bots' hands are on the 6 (each change wakes us)
            if len(slaps(session)) == 3:
                break
            changed.wait(5)
            changed.clear()
        assert sorted(slaps(session)) == [0, 1, 2] and held(session, 3) == 7
        session.act(3, keys[3], slap_of(session.view(3, keys[3]))[0]["action"])
        assert slaps(session)[-1] == 3 and held(session, 3) == 9
    finally:
        session.close()


def test_the_bots_delays_are_a_persons_and_seeded():
    """Each bot still to slap gets a delay within a person's reaction, quickest first; the
    people get none; the same seed times them the same way."""
    due = {0: 1, 1: 2, 2: 3, 3: 4}
    first = race.bot_delays(due, {2}, random.Random(4))
    assert [seat for _delay, seat in first] != [] and {s for _d, s in first} == {0, 1, 3}
    assert all(race.REACTION_S[0] <= d <= race.REACTION_S[1] for d, _s in first)
    assert [d for d, _s in first] == sorted(d for d, _s in first)
    assert race.bot_delays(due, {2}, random.Random(4)) == first


def test_the_terminal_offers_the_race_on_the_menu():
    """`tinker-tray play --option six_smackdown=true`: while the race waits for the person, the
    menu's one choice is their hand on the 6; typed, it is laid, and the person, last, draws two."""
    changed = threading.Event()
    session, keys = start([3], on_change=changed.set)
    buf = io.StringIO()
    seen: list[str] = []

    def answer(prompt, since, n):
        seen.append(since)
        return "1" if n == 1 else "q"

    play = TerminalPlay(
        session,
        keys,
        changed,
        Picker(1),
        read=Script(answer, buf),
        console=Console(file=buf, width=200, color_system=None),
    )
    try:
        play.run()
        assert "Slap the 6!" in seen[0] and "A 6! Slap it" in seen[0]
        assert slaps(session)[:4] == [1, 0, 2, 3]  # (the bots then play on to the next prompt)
        assert "You slap the 6.\n  · You draw 2 cards." in buf.getvalue()
    finally:
        session.close()


@pytest.mark.browser
def test_a_race_with_two_people_and_two_bots_in_the_browser(served, browser):  # noqa: F811
    """Two people, each on their own phone (a browser context of their own), two bots: both
    phones show the button; Ed taps first, Ann last, and Ann draws two."""
    res = served.post(
        "/api/digital/new",
        {
            "players": PLAYERS,
            "humans": [2, 3],
            "bots": "greedy",
            "seed": SEED,
            "pace": 0,
            "ruleset": "official-2018",
            "options": SIX,
        },
    )
    phones = [browser.new_context(viewport={"width": 360, "height": 740}) for _ in range(2)]
    try:
        ann, ed = (phone.new_page() for phone in phones)
        for seat, page in ((2, ann), (3, ed)):
            page.goto(served.url + res["links"][str(seat)])
            page.locator("#calls button", has_text="Slap the 6!").wait_for(timeout=WAIT)
        ed.locator("#calls button", has_text="Slap the 6!").click()
        ed.locator("#calls button", has_text="Slap the 6!").wait_for(state="detached", timeout=WAIT)
        ann.locator("#calls button", has_text="Slap the 6!").click()
        ann.get_by_text("You draw 2 cards.").wait_for(timeout=WAIT)
        game = served.app.state.digital.link.game
        assert [e["seat"] for e in game.events if e.get("act") == "slap"] == [1, 0, 3, 2]
        assert len(game.hand.hands[2]) == 9 and len(game.hand.hands[3]) == 7
    finally:
        for phone in phones:
            phone.close()


def test_a_restart_in_the_middle_of_a_race_carries_it_on(tmp_path):
    """The hands on the 6 so far are in the journal: after a restart the race waits for the
    same people, and the last of them draws two."""
    from tests.helpers.digital import Table

    first = Table(tmp_path / "journal.sqlite3")
    keys = first.digital.new_game(
        PLAYERS, [2, 3], "greedy", ruleset="official-2018", options=SIX, seed=SEED
    )
    first.digital.act(2, keys[2], A.SLAP + 2)
    first.stop()
    again = Table(tmp_path / "journal.sqlite3")
    try:
        assert slaps(again.digital) == [1, 0, 2]
        assert again.digital.view(3, keys[3])["prompt"].startswith("A 6! Slap it")
        again.digital.act(3, keys[3], A.SLAP + 3)
        assert slaps(again.digital) == [1, 0, 2, 3] and held(again.digital, 3) == 9
    finally:
        again.stop()
