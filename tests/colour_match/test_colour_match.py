"""Colour Match, a ruleset written only here, played everywhere a shipped ruleset is: the
registry, records and replay, the simulation and its command, digital play in the terminal and
on a phone in Chromium. Nothing outside tests/colour_match/ names it."""

from __future__ import annotations

import io
import json
import random
import threading
import time

import pytest
from rich.console import Console

from cli.main import main
from digital.play_loop import TerminalPlay
from digital.session import DigitalSession
from engine import record, registry, simulation
from engine.record import RecordError
from tests.colour_match.game import NAME, ColourMatch
from tests.digital.test_play_terminal import Script
from tests.helpers.browser import WAIT, chromium
from tests.helpers.web import TOKEN
from tests.scoreboard.test_browser import Served
from tray.bus import Bus
from tray.pick import Picker

PLAYERS = ["Ann", "Bo", "Cy"]


def played(seed: int, bots=("greedy", "random", "search:20")) -> ColourMatch:
    game = registry.new_game(NAME, list(PLAYERS))
    assert isinstance(game, ColourMatch)
    simulation.play_game(game, list(bots), random.Random(seed))
    return game


def test_it_registers_as_any_ruleset_and_refuses_what_it_does_not_take():
    assert NAME in registry.names() and registry.get(NAME).title == "Colour Match"
    assert registry.get(NAME).features({}) == frozenset()
    with pytest.raises(ValueError, match="takes no option but a target"):
        registry.new_game(NAME, list(PLAYERS), options={"stack": True})
    with pytest.raises(ValueError, match="whole number of points, not 0"):
        registry.new_game(NAME, list(PLAYERS), options={"target": 0})
    assert registry.get(NAME).features({"target": 50}) == {"points"}
    with pytest.raises(ValueError, match="2 to 4 players"):
        registry.new_game(NAME, ["solo"])


@pytest.mark.parametrize("seed", range(5))
def test_a_game_played_by_every_bot_replays_from_its_record_to_the_same_end(seed):
    game = played(seed)
    assert game.is_terminal()
    again, count = record.replay(game.record())
    assert count == len(game.events)
    assert again.summary() == game.summary()
    for seat in (None, 0, 1, 2):
        assert again.observation(seat) == game.observation(seat)


def test_a_record_with_a_card_not_held_is_refused_naming_its_line():
    game = played(1)
    lines = game.record().splitlines()
    move = json.loads(lines[2])
    held = game.observation(move["seat"])["hand"]
    lines[2] = json.dumps({"seat": move["seat"], "act": "play", "card": "Y9"})
    if any(c["code"] == "Y9" for c in held):
        lines[2] = json.dumps({"seat": move["seat"], "act": "play", "card": "Q1"})
    with pytest.raises(RecordError, match="line 3"):
        record.replay("\n".join(lines))


def test_the_simulate_command_plays_it_by_seed_and_keeps_replayable_records(capsys, tmp_path):
    argv = ["simulate", "--ruleset", NAME, "--games", "12", "--players", "3", "--workers", "1"]
    runs = []
    for _ in range(2):
        assert main([*argv, "--json", "--bots", "greedy,random", "--seed", "4"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    for stats in runs:
        stats.pop("seconds", None)
    assert runs[0] == runs[1] and runs[0]["games"] == 12 and runs[0]["ruleset"] == NAME
    assert sum(runs[0]["game_wins_by_seat"]) + runs[0]["blocked_hands"] == 12
    assert main([*argv, "--records", str(tmp_path)]) == 0
    records = sorted(tmp_path.iterdir())
    assert len(records) == 12
    capsys.readouterr()
    assert main(["replay", str(records[0])]) == 0
    assert NAME in capsys.readouterr().out


def first_choice(prompt, _since, _n):
    return "1"


def test_a_person_plays_it_to_the_end_in_the_terminal():
    changed = threading.Event()
    session = DigitalSession(Bus(), on_change=changed.set, pace=0)
    keys = session.new_game(list(PLAYERS), [0], "greedy", ruleset=NAME, seed=5)
    buf = io.StringIO()
    console = Console(file=buf, width=200, color_system=None)
    play = TerminalPlay(
        session, keys, changed, Picker(5), read=Script(first_choice, buf), console=console
    )
    try:
        assert play.run() == 0
        game = session.link.game
        assert game.is_terminal()
        out = buf.getvalue()
        assert "Your move: lay a card of the colour or number, or draw." in out
        winner = "nobody" if game.winner is None else PLAYERS[game.winner]
        assert f"Game over: {winner} won" in out
    finally:
        session.close()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.mark.browser
def test_a_person_plays_it_to_the_end_on_a_phone(tmp_path, browser):
    served = Served(tmp_path / "journal.sqlite3").start()
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        body = {"players": PLAYERS, "humans": [0], "bots": "greedy", "seed": 3, "pace": 0}
        res = served.post("/api/digital/new", {**body, "ruleset": NAME})
        phone = context.new_page()
        phone.goto(served.url + res["links"]["0"])
        game = served.app.state.digital.link.game
        taps = 0
        while not game.is_terminal():
            if game.current_player() != 0:  # the bots' moves (pace 0): a moment
                time.sleep(0.02)
                continue
            phone.wait_for_selector("#actions button[data-action]", timeout=WAIT)  # draw or pass
            shown = phone.evaluate("Number(document.body.dataset.version)")
            phone.locator("#hand .card:not([disabled]), #actions button[data-action]").first.click()
            phone.wait_for_function(
                "(v) => Number(document.body.dataset.version) > v", arg=shown, timeout=WAIT
            )
            assert phone.inner_text("#message") == ""  # the engine took every tap
            taps += 1
        phone.wait_for_selector("#banner:not(.hidden)", timeout=WAIT)
        winner = "nobody" if game.winner is None else PLAYERS[game.winner]
        assert taps > 0 and winner in phone.inner_text("#banner")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        context.close()
        served.stop()


@pytest.mark.browser
def test_the_new_game_form_offers_it_from_the_registry(tmp_path, browser):
    """The setup page lists the rules the registry holds, this one too, with what its entry
    says: at most four seats, no target score (it keeps none), no Tinker Bell to press; and
    starts it."""
    served = Served(tmp_path / "journal.sqlite3").start()
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{served.url}/play?new=1&token={TOKEN}")
        page.wait_for_selector("#start:not([disabled])", timeout=WAIT)
        page.select_option("#ruleset", NAME)
        assert page.is_hidden("#targetbox") and page.is_hidden("#peoplepressbox")
        assert page.is_hidden("#modebox") and page.inner_text("#houserules") == ""
        for _ in range(3):
            page.click("#addseat")
        assert page.locator("#seatrows .seatrow").count() == 4  # its entry's most
        page.click("#start")
        page.wait_for_selector("#hand .card", timeout=WAIT)
        game = served.app.state.digital.link.game
        assert isinstance(game, ColourMatch) and len(game.players) == 4
        assert page.inner_text("#message") == ""
    finally:
        context.close()
        served.stop()
