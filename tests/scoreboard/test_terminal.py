"""The terminal view, read through its rendered text."""

from __future__ import annotations

import threading

from rich.console import Console

from scoreboard.session import TableSession
from scoreboard.terminal import bar, render, run_live, sparkline
from tray.events import Pick


def text(view, width=110):
    console = Console(width=width, record=True, color_system=None, force_terminal=False)
    console.print(render(view))
    return console.export_text()


def test_an_empty_journal_says_how_to_start(journal):
    assert "No game yet" in text(TableSession(journal).view())


def test_scores_chart_dealer_and_pick_are_drawn(journal, bus):
    s = TableSession(journal, bus)
    s.new_game(["Ann", "Bea", "Cy"], dealer=2, options={"target": 200})
    s.submit({"kind": "hand", "winner": 0, "held": [None, ["VD4"], 25]})
    s.submit({"kind": "hand", "winner": 1, "held": [10, None, 0]})
    s.submit({"kind": "declare", "card": "VD4", "seat": 1})
    out = text(s.view())
    assert "Declared: Villain Draw 4 (Bea)" in out
    bus.publish(Pick(seq=5, colour="blue", t=0.0))
    out = text(s.view())
    lines = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 4}
    assert "100" in lines["Ann"] and "LEADS" in lines["Ann"]
    assert "10" in lines["Bea"] and "DEALS" in lines["Bea"]  # the deal moved left twice
    assert sparkline([100, 100], 200) in lines["Ann"]
    assert bar(100, 200) in lines["Ann"]
    assert "■ BLUE" in out and "everyone but Bea" in out
    assert "Tinker Bell's pick #5" in out


def test_the_winner_is_announced(journal):
    s = TableSession(journal)
    s.new_game(["Ann", "Bea"], options={"target": 50})
    s.submit({"kind": "hand", "winner": 1, "held": [["W"], None]})
    out = text(s.view())
    assert "Bea wins!" in out and "WINNER" in out


def test_sparkline_and_bar_scale_to_the_target():
    assert sparkline([], 500) == ""
    assert sparkline([0, 250, 500], 500) == "▁▄█"
    assert bar(0, 500, 4) == "····" and bar(500, 500, 4) == "████" and bar(900, 500, 4) == "████"


def test_run_live_redraws_on_each_change_until_stopped(journal, bus, capsys):
    s = TableSession(journal, bus)
    stop = threading.Event()
    live = threading.Thread(target=run_live, args=(s, bus, stop))
    live.start()
    s.new_game(["Zed", "Yan"])
    bus.publish(Pick(seq=1, colour="red", t=0.0))
    stop.set()
    live.join(5)
    assert not live.is_alive()
    out = capsys.readouterr().out
    assert "Zed" in out and "RED" in out
