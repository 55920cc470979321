"""What digital play says at the table: complete logs (penalty draws, the card turned up for a
new hand, each hand's points), the scoreboard told the card Tinker Bell answers, and no stale
colour while a Wild waits for her."""

from __future__ import annotations

import random

from digital.session import DigitalSession
from scoreboard.session import TableSession
from tests.helpers.digital import Picks, play_out
from tray.bus import Bus
from tray.events import Pick


def test_the_log_says_the_turned_up_card_penalty_draws_and_each_hands_points(journal):
    bus = Bus()
    table = TableSession(journal, bus)
    session = DigitalSession(bus, table=table, pace=0)
    keys = session.new_game(["Ann", "Bo", "Cy"], [0], "greedy", seed=5, options={"target": 150})
    said: list[str] = []
    rng = random.Random(5)
    play_out(
        session,
        Picks(bus, rng),
        0,
        keys[0],
        rng,
        check=lambda view: said.extend(x for x in view["log"] if x not in said[-12:]),
    )
    text = "\n".join(said)
    assert "Hand 1 is dealt: the card turned up is" in text
    assert "Hand 2 is dealt: the card turned up is" in text
    assert "is over:" in text and "scored" in text
    assert " draws 2 cards." in text or "You draw 2 cards." in text  # a Draw 2's victim
    session.close()
    table.close()


def test_the_scoreboard_is_told_the_card_and_the_wild_has_no_stale_colour(journal):
    """Seed 17 deals Ann Wild Discard All: while it waits for Tinker Bell the scoreboard has it
    declared (its pick panel explains the pick) and the colour in play is hers to choose."""
    bus = Bus()
    table = TableSession(journal, bus)
    session = DigitalSession(bus, table=table, pace=0)
    keys = session.new_game(["Ann", "Bo", "Cy"], [0], "greedy", seed=17)
    session.act(0, keys[0], event={"act": "play", "card": "WDA"})
    view = session.view(0, keys[0])
    assert view["awaiting"]["kind"] == "tinker_bell" and view["colour"] is None
    scoreboard = table.view()
    assert scoreboard["declared"]["card"] == "WDA" and scoreboard["declared"]["who"] == "Ann"
    bus.publish(Pick(seq=1, colour="red", t=0.0))
    assert "No card was declared" not in table.view()["pick"]["says"]
    assert "Wild Discard All" in (table.view()["pick"]["declared"] or "")
    assert session.view(0, keys[0])["colour"] == "red"
    session.close()
    table.close()


def test_uno_elite_names_who_plays_first_as_the_page_names_seats():
    """Issue 32: UNO Elite's log said "seat 0 plays first" where the page calls that seat
    "seat 1": the log names the player."""
    from cli.inputs import shipped_inputs

    session = DigitalSession(Bus(), pace=0, inputs=shipped_inputs())
    keys = session.new_game(["Mum", "Bot Bea", "Bot Cy"], [0], "greedy", ruleset="elite", seed=3)
    log = "\n".join(session.view(0, keys[0])["log"])
    assert "Each player turns up a Lineup of 3; Mum plays first." in log
    assert "seat 0" not in log
    session.close()
