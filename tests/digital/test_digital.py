"""Digital play: people at some seats, bots at the others, the engine holding every hand, the
tray's picks as Tinker Bell. Session logic first, then its HTTP side."""

from __future__ import annotations

import json
import random

import pytest

from digital.session import DigitalSession, SeatError
from engine import record
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.hand import RuleError
from tests.helpers.digital import Picks, offered, play_out
from tests.helpers.web import TOKEN
from tray.bus import Bus
from tray.events import Pick


@pytest.fixture
def bus():
    return Bus()


def new_session(bus, players=3, humans=(0,), seed=5, target=150, **kw):
    session = DigitalSession(bus, pace=0)
    keys = session.new_game(
        [f"P{i}" for i in range(players)],
        list(humans),
        "greedy",
        options={"target": target},
        seed=seed,
        **kw,
    )
    return session, keys


def test_a_person_plays_a_whole_game_against_bots_on_tray_picks(bus):
    session, keys = new_session(bus)
    rng = random.Random(1)
    picks = Picks(bus, rng)
    play_out(session, picks, 0, keys[0], rng)
    game = session.link.game
    assert game.is_terminal() and session.view()["winner"]
    assert picks.seq > 0 and session.link.consumed == list(range(1, picks.seq + 1))
    replayed, _ = record.replay(session.record())  # the game record of a digital game
    assert replayed.summary() == game.summary()
    assert any(e.get("seat") == 0 for e in game.events)


def test_a_seat_sees_its_own_hand_and_never_another(bus):
    """The view of a seat is a function of the public state and that seat's hand: dealing the
    other hands and the draw pile differently never changes it."""
    session, keys = new_session(bus, players=4, seed=11)
    rng = random.Random(3)

    def check(view):
        game = session.link.game
        h = game.hand
        pos = h.pos_of[0]
        assert sorted(c["code"] for c in view["hand"]) == sorted(C.code(c) for c in h.hands[pos])
        counts = [len(h.hands[h.pos_of[s]]) for s in range(4)]
        assert [p["cards"] for p in view["players"]] == counts
        other = game.clone()
        oh = other.hand
        pool = [c for p, cards in enumerate(oh.hands) if p != pos for c in cards] + oh.draw
        rng.shuffle(pool)
        for p in range(len(oh.hands)):
            if p != pos:
                k = len(oh.hands[p])
                oh.hands[p], pool = pool[:k], pool[k:]
        oh.draw = pool
        again = other.observation(0)
        again["players"] = [{**p, "person": p["seat"] == 0} for p in again["players"]]
        observed = {k: view[k] for k in again}  # the observation, under digital play's keys
        assert json.dumps(again, sort_keys=True) == json.dumps(observed, sort_keys=True)
        assert "hands" not in json.dumps(view["players"])

    play_out(session, Picks(bus, rng), 0, keys[0], rng, check=check)


def test_a_spectator_sees_no_hand_and_a_wrong_key_sees_nothing(bus):
    session, keys = new_session(bus)
    view = session.view()
    assert view["hand"] == [] and view["legal"] == [] and view["seat"] is None
    with pytest.raises(SeatError):
        session.view(0, "guess")
    with pytest.raises(SeatError):
        session.view(1, keys[0])  # a bot's seat has no key
    with pytest.raises(SeatError):
        session.act(0, "guess", A.DRAW)


def test_illegal_actions_are_refused_with_the_rule_and_change_nothing(bus):
    session, keys = new_session(bus, seed=8)
    rng = random.Random(2)
    picks = Picks(bus, rng)
    link, game = session.link, session.link.game
    while link.waiting_for_tinker_bell:
        picks()
    before = record.dumps(game)
    hand = game.hand.hands[game.hand.pos_of[0]]
    stranger = next(c for c in range(C.NCARDS) if C.CODE_OF[c] and c not in hand and c < 64)
    with pytest.raises(RuleError, match="has no"):
        session.act(0, keys[0], A.play(stranger))
    with pytest.raises(RuleError):
        session.act(0, keys[0], A.TAKE)  # nothing to take
    with pytest.raises(RuleError, match="not played by a person"):
        link.act(1, A.DRAW)  # a bot's seat
    with pytest.raises(ValueError):
        session.act(0, keys[0], event={"act": "fly"})
    with pytest.raises(ValueError):
        session.act(0, keys[0], action="R7")
    assert record.dumps(game) == before


def test_a_move_can_be_sent_as_a_record_event(bus):
    session, keys = new_session(bus, seed=8)
    picks = Picks(bus, random.Random(2))
    link, game = session.link, session.link.game
    while link.waiting_for_tinker_bell:
        picks()
    legal = game.legal_actions()
    event = {"act": "draw"} if A.DRAW in legal else None
    if event is None:
        card = legal[0] // 8
        event = {"act": "play", "card": C.code(card)}
        if card == C.WILD:
            event["colour"] = "red"
    n = sum(1 for e in game.events if e.get("seat") == 0)
    session.act(0, keys[0], event=event)
    assert sum(1 for e in game.events if e.get("seat") == 0) == n + 1
    with pytest.raises(SeatError):
        session.act(0, keys[0], event={"seat": 1, "act": "draw"})


def test_new_game_input_is_checked(bus):
    session = DigitalSession(bus, pace=0)
    for args, message in [
        (([],), "players"),
        ((["A", "A"],), "same name"),
        ((["A", "B"], [2]), "seats are 0 to 1"),
        ((["A", "B"], "0"), "humans"),
        ((["A", "B"], [0], "smart"), "there is no 'smart' bot"),
        ((["A"],), "2-10 players"),
    ]:
        with pytest.raises(ValueError, match=message):
            session.new_game(*args)
    with pytest.raises(ValueError, match="option"):
        session.new_game(["A", "B"], options={"speed": 3})
    assert session.link is None


def test_two_people_play_with_their_own_keys(bus):
    session, keys = new_session(bus, players=3, humans=(0, 2), seed=21, target=60)
    assert set(keys) == {0, 2} and keys[0] != keys[2]
    rng = random.Random(4)
    picks = Picks(bus, rng)
    link, game = session.link, session.link.game
    for _ in range(20_000):
        if game.is_terminal():
            break
        if link.waiting_for_tinker_bell:
            picks()
            continue
        seat = link.waiting_for()
        assert seat in (0, 2)
        other = 2 - seat
        with pytest.raises(RuleError):
            session.act(other, keys[other], game.legal_actions()[0])
        view = session.view(seat, keys[seat])
        session.act(seat, keys[seat], rng.choice(offered(view)))
    assert game.is_terminal()


# ---------------------------------------------------------------------- over HTTP
NEW = {
    "players": ["Ann", "Bot1", "Bot2"],
    "humans": [0],
    "bots": "greedy",
    "seed": 5,
    "pace": 0,
    "options": {"target": 100},
}


def test_the_host_starts_and_a_seat_key_alone_plays_its_seat(client):
    assert client.post("/api/digital/new", json=NEW).status_code == 403
    res = client.post("/api/digital/new", json=NEW, headers={"X-Table-Token": TOKEN})
    assert res.status_code == 200
    key = res.json()["keys"]["0"]
    assert res.json()["links"]["0"] == f"/play?key={key}"
    seat = {"X-Seat-Key": key}  # the seat's link alone: no table token anywhere
    assert client.post("/api/digital/act", json={"action": A.DRAW}).status_code == 403
    assert (
        client.post(
            "/api/digital/act", json={"action": A.DRAW}, headers={"X-Seat-Key": "nope"}
        ).status_code
        == 403
    )
    assert client.get("/api/digital/view?seat=0", headers={"X-Seat-Key": "nope"}).status_code == 403
    assert client.get("/api/digital/events?seat=0").status_code == 403
    mine = client.get("/api/digital/view", headers=seat).json()
    assert mine["seat"] == 0 and len(mine["hand"]) == mine["players"][0]["cards"] > 0
    public = client.get("/api/digital/view").json()
    assert public["hand"] == [] and public["emulator"] is True
    assert client.get("/play").status_code == 200


def test_a_seat_link_sets_a_cookie_and_the_seat_plays_from_it(client):
    key = client.post("/api/digital/new", json=NEW, headers={"X-Table-Token": TOKEN}).json()[
        "keys"
    ]["0"]
    page = client.get(f"/play?key={key}")
    assert page.status_code == 200 and page.cookies.get("tinker-seat-0") == key
    assert "samesite=strict" in page.headers["set-cookie"].lower()
    assert "httponly" in page.headers["set-cookie"].lower()
    view = client.get("/api/digital/view").json()
    assert view["seat"] == 0 and view["hand"]
    for asked in (
        "/api/digital/record",
        "/api/digital/record?reveal=yes",
        "/api/digital/links",
        "/api/digital/qr/0.svg",
        "/api/games/1.jsonl?reveal=yes",
        "/api/qr.svg",
    ):
        res = client.get(asked)
        assert res.status_code == 403, asked
        assert res.json()["error"]
    for path, body in [
        ("/api/entry", {"kind": "undo"}),
        ("/api/digital/new", NEW),
        ("/api/new-game", {"players": ["A", "B"]}),
    ]:
        assert client.post(path, json=body).status_code == 403, path


def test_a_refused_move_is_a_4xx_with_the_rule_and_changes_nothing(writer, bus):
    key = writer.post("/api/digital/new", json=NEW).json()["keys"]["0"]
    app_session = writer.app.state.digital
    while app_session.link.waiting_for_tinker_bell:
        bus.publish(Pick(seq=1, colour="red", t=0.0))
    before = app_session.link.game.summary()
    writer.headers["X-Seat-Key"] = key
    for body, status, message in [
        ({"action": A.TAKE}, 422, "can't"),
        ({"seat": 0, "action": "draw"}, 422, "action"),
        ({"event": {"act": "fly"}}, 422, "unknown act"),
        ({"event": {"act": "play", "card": "Q9"}}, 422, "unknown card"),
        ({"seat": 0}, 422, "either an action"),
        ({"action": 1, "x": 2}, 422, "no field 'x'"),
        ({"seat": 1, "action": A.DRAW}, 403, "not yours"),
        ({"event": {"seat": 1, "act": "draw"}}, 403, "plays seat 0, not 1"),
    ]:
        res = writer.post("/api/digital/act", json=body)
        assert res.status_code == status, (body, res.text)
        assert message in res.json()["error"]
    assert writer.post("/api/digital/act", content=b"{oops").status_code == 400
    assert app_session.link.game.summary() == before


def test_the_record_is_exported_when_the_game_is_over(writer, client, bus):
    assert client.get("/api/digital/record").status_code in (403, 409)
    key = writer.post("/api/digital/new", json=NEW).json()["keys"]["0"]
    assert writer.get("/api/digital/record").status_code == 409  # it would show every hand
    assert writer.get("/api/digital/record?reveal=yes").status_code == 200
    session = writer.app.state.digital
    rng = random.Random(7)
    play_out(session, Picks(bus, rng), 0, key, rng)
    assert client.get("/api/digital/record", headers={"X-Table-Token": ""}).status_code == 403
    res = writer.get("/api/digital/record")  # over: no confirmation needed
    assert res.status_code == 200
    game, _ = record.replay(res.text)
    assert game.is_terminal()


def test_finished_hands_go_to_the_scoreboard_from_the_record_not_as_entries(writer, bus, journal):
    key = writer.post("/api/digital/new", json=NEW).json()["keys"]["0"]
    session = writer.app.state.digital
    rng = random.Random(9)
    play_out(session, Picks(bus, rng), 0, key, rng)
    view = writer.get("/api/view").json()
    game = session.link.game
    assert [p["total"] for p in view["players"]] == list(game.sheet.scores)
    assert view["hand_count"] == len(game.history) and view["winner"] is not None
    kinds = {e.entry["kind"] for e in journal.entries(view["game"])}
    assert kinds <= {"start", "declare", "pick"}  # the hands are the record's alone
    again = journal.load(view["game"])  # the sheet as a restart or an export reads it
    assert again.game is not None and again.game.scores == tuple(game.sheet.scores)
    assert len(again.game.hands) == len(game.history) and again.game.over
    rows = writer.get(f"/api/games/{view['game']}.csv").text.strip().splitlines()
    assert len(rows) == 1 + len(game.history)  # the export has every hand


def test_a_game_played_digitally_takes_no_hand_from_the_score_keyboard(writer, journal):
    writer.post("/api/digital/new", json=NEW)
    before = writer.get("/api/view").json()
    for entry in (
        {"kind": "hand", "winner": 0, "held": [None, 5, 7]},
        {"kind": "undo"},
        {"kind": "dealer", "seat": 1},
    ):
        res = writer.post("/api/entry", json=entry)
        assert res.status_code == 422, entry
        assert "played on the digital table" in res.json()["error"]
    after = writer.get("/api/view").json()
    assert after["players"] == before["players"] and after["version"] == before["version"]
    assert writer.post("/api/entry", json={"kind": "declare", "card": None}).status_code == 200


@pytest.mark.parametrize("ruleset", ["classic", "official-2018", "elvis"])
def test_every_ruleset_plays_digitally_to_the_end(bus, ruleset):
    """Issue 6: each ruleset is playable in the emulator's digital play, its moves all offered
    on the page, and its record replays."""
    session = DigitalSession(bus, pace=0)
    keys = session.new_game(
        ["P0", "P1", "P2"],
        [0],
        "greedy",
        ruleset=ruleset,
        seed=3,
        options={"target": 100, "draw_when_playable": False},
    )
    rng = random.Random(2)
    play_out(session, Picks(bus, rng), 0, keys[0], rng)
    game = session.link.game
    assert game.rules.name == ruleset and game.is_terminal()
    replayed, _ = record.replay(session.record())
    assert replayed.summary() == game.summary()


def test_an_unknown_ruleset_is_refused(bus):
    session = DigitalSession(bus, pace=0)
    with pytest.raises(ValueError, match="unknown ruleset 'poker'"):
        session.new_game(["a", "b"], [0], "greedy", ruleset="poker")
    assert session.link is None


def test_a_person_plays_against_the_search_bot(bus):
    """The hardest opponent, by name with a small budget (a clock from digital play caps it)."""
    session = DigitalSession(bus, pace=0)
    keys = session.new_game(["P0", "P1"], [0], "search:16", options={"target": 60}, seed=4)
    assert session.link.bots[1].name == "search"
    rng = random.Random(2)
    play_out(session, Picks(bus, rng), 0, keys[0], rng)
    assert session.link.game.is_terminal() and session.view()["winner"]


def test_a_kept_game_name_fits_the_journal_however_long_the_names():
    """Four long player names make a kept name longer than a game's name may be (60): the first
    names are kept whole and the rest counted, so such a game still starts."""
    from digital.games import kept_name
    from scoreboard import names

    short = kept_name("elite", ["Ann", "Bot Bea", "Bot Cy"])
    assert short == "UNO Elite: Ann, Bot Bea, Bot Cy"
    long = ["Annabelle-Marie", "Bot Bartholomew", "Bot Cy", "Dorothea-Wilhelmina"]
    kept = kept_name("elite", long)
    assert kept == "UNO Elite: Annabelle-Marie, Bot Bartholomew, Bot Cy +1"
    assert names.game_name(kept) == kept  # the journal takes it as it is
    assert len(kept_name("disney", ["X" * 24] * 10)) <= names.MAX_GAME_NAME
