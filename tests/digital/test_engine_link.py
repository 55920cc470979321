"""The engine consumes the tray's picks as its Tinker Bell chance events."""

import random

from digital.link import GameLink as EngineLink
from digital.link import GameProgress
from engine import record
from engine.bots import make
from engine.disney.game import Game
from tray.bus import Bus
from tray.events import Pick


def link(seed=4, players=3, target=100):
    bus = Bus()
    rng = random.Random(seed)
    game = Game("disney", [f"p{i}" for i in range(players)], 0, {"target": target})
    progress = []
    bus.subscribe(progress.append, GameProgress)
    engine = EngineLink(bus, game, make(["greedy"], players, rng), rng)
    return bus, game, engine, progress


def test_a_game_runs_on_tray_picks_until_someone_wins():
    bus, game, engine, progress = link()
    engine.start()
    assert progress and progress[-1].awaiting["kind"] in ("tinker_bell", "game_over")
    colours = ["red", "blue", "green", "yellow"]
    seq = 0
    while not game.is_terminal():
        assert engine.waiting_for_tinker_bell
        seq += 1
        bus.publish(Pick(seq=seq, colour=colours[seq % 4], t=float(seq)))
        assert seq < 5000
    assert engine.consumed == list(range(1, seq + 1))
    used = [e["colour"] for e in game.events if e.get("chance") == "tinker_bell"]
    assert used == [colours[s % 4] for s in engine.consumed]
    assert progress[-1].game_winner == game.sheet.winner
    replayed, _ = record.replay(record.dumps(game))  # the tray-driven game is a valid record
    assert replayed.summary() == game.summary()


def test_a_pick_with_nothing_waiting_is_not_consumed():
    bus, game, engine, _ = link()
    bus.publish(Pick(seq=1, colour="red", t=0.0))  # before the game starts
    assert engine.consumed == [] and game.hand is None
    engine.start()
    events = len(game.events)
    assert engine.waiting_for_tinker_bell
    bus.publish(Pick(seq=2, colour="red", t=1.0))
    assert engine.consumed == [2] and len(game.events) > events


def test_picks_after_the_game_ends_are_ignored():
    bus, game, engine, _ = link(seed=2, target=30)
    engine.start()
    seq = 0
    while not game.is_terminal():
        seq += 1
        bus.publish(Pick(seq=seq, colour="blue", t=0.0))
    events = list(game.events)
    bus.publish(Pick(seq=seq + 1, colour="blue", t=0.0))
    assert game.events == events and engine.consumed[-1] == seq


def test_progress_events_carry_every_record_event_once():
    bus, game, engine, progress = link(seed=9)
    engine.start()
    for seq in range(1, 40):
        if game.is_terminal():
            break
        bus.publish(Pick(seq=seq, colour="green", t=0.0))
    streamed = [e for p in progress for e in p.events]
    assert streamed == game.events


def test_a_human_seat_stops_the_bots_until_it_acts():
    bus = Bus()
    rng = random.Random(3)
    game = Game("disney", ["p0", "p1", "p2"], 0, {"target": 100})
    engine = EngineLink(bus, game, [None, *make(["greedy"], 2, rng)], rng, humans=[0])
    engine.start()
    seq = 0
    for _ in range(50):
        if engine.waiting_for_tinker_bell:
            seq += 1
            bus.publish(Pick(seq=seq, colour="red", t=0.0))
            continue
        assert engine.waiting_for() == 0 and game.current_player() == 0
        events = len(game.events)
        engine.act(0, game.legal_actions()[0])
        assert len(game.events) > events


def test_paced_bots_move_on_a_timer_until_the_person_is_to_move():
    import threading

    bus = Bus()
    rng = random.Random(5)
    game = Game("disney", ["p0", "p1", "p2"], 0, {"target": 100})
    moved = threading.Event()

    def progress(p):
        if engine.waiting_for() == 0 or p.awaiting["kind"] == "tinker_bell":
            moved.set()

    engine = EngineLink(bus, game, [None, *make(["greedy"], 2, rng)], rng, humans=[0], pace=0.001)
    bus.subscribe(progress, GameProgress)
    engine.start()
    assert moved.wait(10), "the bots never reached the person or the button"
    engine.close()
