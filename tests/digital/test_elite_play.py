"""Digital play of UNO Elite: a person against `engine.bots`, through `DigitalSession` (what
the browser and the terminal both use) and the web API. The engine is the real one."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from cli.inputs import shipped_inputs
from digital.session import DigitalSession, SeatError
from engine.elite import RuleError
from tests.helpers.web import TOKEN
from tray.bus import Bus

INPUTS = shipped_inputs()
PRIVATE = ("peeked", "searched")


@pytest.fixture
def session():
    s = DigitalSession(Bus(), pace=0, inputs=INPUTS)
    yield s
    s.close()


def elite_game(session, players=("Ann", "Ben", "Cat"), humans=(0,), seed=7, **options):
    return session.new_game(
        list(players),
        list(humans),
        "greedy",
        options={"mode": "quick", **options},
        ruleset="elite",
        seed=seed,
    )


def legal(view):
    return [m["action"] for m in view["legal"]]


def play_out(session, keys, rng, check=None, limit=5_000):
    """The people play their seats from their views alone (a random offered action) until
    someone wins; `check(seat, view)` sees every view a person acted on."""
    game = session.link.game
    for _ in range(limit):
        if game.winner is not None:
            return
        to_move = session.view()["awaiting"]["seat"]
        assert to_move in keys, "the link stops only for a person (or at the end)"
        view = session.view(to_move, keys[to_move])
        if check:
            check(to_move, view)
        calls = [a for s, a in game.interjections() if s == to_move]
        assert sorted(legal(view)) == sorted(game.legal_actions() + calls)
        session.act(to_move, keys[to_move], rng.choice(legal(view)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode", ["quick", "draft"])
def test_a_person_plays_a_whole_elite_game_against_bots(session, mode):
    keys = elite_game(session, mode=mode, seed=11)
    words = set()

    def check(seat, view):
        assert view["ruleset"] == "elite" and view["seat"] == seat
        assert "tinker_bell" not in view["features"] and "lineups" in view["features"]
        assert len(view["seats"]) == 3  # every seat's Lineup, deck and discards
        for m in view["legal"]:
            assert m["words"], m
            words.add(m["words"].split()[0])

    play_out(session, keys, random.Random(1), check)
    view = session.view(0, keys[0])
    assert view["winner"] in ("Ann", "Ben", "Cat")
    assert view["legal"] == []
    assert view["tally"]["games"] == 1
    assert [p["wins"] for p in view["tally"]["players"]].count(1) == 1
    assert session.over
    assert words, "the person was offered actions in words"


ENVELOPE = {"players", "winner"}  # digital play's own (with names and who is a person)


def is_observed(view, engine_view):
    """The view holds the engine's own observation of the seat, every key as the engine says
    (but those digital play's envelope gives in its own shape)."""
    want = json.loads(json.dumps(engine_view))
    return {k: view[k] for k in want if k not in ENVELOPE} == {
        k: v for k, v in want.items() if k not in ENVELOPE
    }


def test_the_view_is_the_engines_observation_and_a_spectator_gets_the_public_one(session):
    keys = elite_game(session)
    game = session.link.game
    mine = session.view(0, keys[0])
    assert is_observed(mine, game.observation(0))
    assert mine["hand"], "the person sees their own hand"
    public = session.view()
    assert is_observed(public, game.observation(None))
    assert not public.get("hand") and not public.get("legal")
    assert all(k not in public for k in PRIVATE)
    with pytest.raises(SeatError):
        session.view(1, keys[0])  # a bot's seat: nobody holds its key
    with pytest.raises(SeatError):
        session.view(0, "guess")


def test_two_people_each_see_only_their_own_hand_and_peeks(session):
    """Two people play whole games as the greedy bot would (it always activates, so Peek and
    Search come up): every view a seat receives is the engine's view of that seat (whose own
    tests keep a peek to the peeker), and a peeked hand or a searched card never reaches a
    spectator."""
    seen: set[tuple[int, str]] = set()
    for seed in (1, 4, 6):
        keys = elite_game(session, humans=(0, 1), seed=seed)
        game = session.link.game
        while game.winner is None:
            views = {s: session.view(s, keys[s]) for s in keys}
            public = session.view()
            for s, view in views.items():
                assert is_observed(view, game.observation(s))
                for k in PRIVATE:
                    if view.get(k):
                        seen.add((s, k))
                        assert k not in public
            assert not public.get("hand") and not public.get("legal")
            to_move = session.view()["awaiting"]["seat"]
            session.act(to_move, keys[to_move], game.hints.act(game))
    assert {k for _, k in seen} == set(PRIVATE), seen


def test_refused_moves_say_why_and_change_nothing(session):
    keys = elite_game(session)
    game = session.link.game
    before = json.dumps(game.observation(0))
    offered = legal(session.view(0, keys[0]))
    with pytest.raises(RuleError, match="There is no action 1000000000"):
        session.act(0, keys[0], 10**9)
    for action in range(0, 1200):  # any action not offered: the engine's sentence
        if action not in offered:
            with pytest.raises(RuleError) as refused:
                session.act(0, keys[0], action)
            assert str(refused.value).endswith(".") and refused.value.rule
    with pytest.raises(ValueError, match="a play event needs a 'card'"):
        session.act(0, keys[0], event={"act": "play"})  # a move as a record event, as elsewhere
    with pytest.raises(ValueError, match="send an action"):
        session.act(0, keys[0], "1")
    with pytest.raises(SeatError):
        session.act(1, keys[0], offered[0])
    assert json.dumps(game.observation(0)) == before


@pytest.mark.parametrize(
    ("kw", "says"),
    [
        ({"options": {"mode": "dynasty"}}, "dynasty needs each player's own Player Deck"),
        ({"options": {"mode": "dynasty", "decks": [["001"], ["002"]]}}, "read from files"),
        ({"options": {"mode": "blitz"}}, "quick, draft, dynasty, not 'blitz'"),
        ({"bots": "smart"}, "bots are random, greedy and search: there is no 'smart'"),
        ({"bots": "search:0"}, "at least 1 rollout a move"),
        ({"bots": "search:9s"}, "0 to 2 s a move"),
        ({"bots": "greedy:5"}, "the greedy bot takes no budget"),
    ],
)
def test_what_digital_elite_cannot_play_is_refused_in_a_sentence(session, kw, says):
    args = {"options": {"mode": "quick"}, "bots": "greedy", **kw}
    with pytest.raises(ValueError, match=says):
        session.new_game(
            ["Ann", "Ben"], [0], args["bots"], options=args["options"], ruleset="elite"
        )
    assert session.link is None and session.link is None


def test_without_the_cards_elite_is_refused():
    s = DigitalSession(Bus(), pace=0)
    with pytest.raises(ValueError, match="UNO Elite needs its cards"):
        s.new_game(["Ann", "Ben"], [0], ruleset="elite")
    s.close()


def test_a_new_disney_game_replaces_an_elite_game_and_back(session):
    elite_game(session)
    session.new_game(["Ann", "Ben"], [0], "greedy", options={"target": 100}, seed=1)
    assert session.view()["ruleset"] == "disney" and "tinker_bell" in session.view()["features"]
    elite_game(session)
    assert session.view()["ruleset"] == "elite" and "lineups" in session.view()["features"]


# ---------------------------------------------------------------------- the web API
NEW = {
    "players": ["Ann", "Ben", "Cat"],
    "humans": [0],
    "bots": "random",
    "seed": 3,
    "pace": 0,
    "ruleset": "elite",
    "options": {"mode": "draft"},
}


def test_the_host_starts_elite_and_only_the_seat_key_plays_it(client, journal):
    assert client.post("/api/digital/new", json=NEW).status_code == 403
    res = client.post("/api/digital/new", json=NEW, headers={"X-Table-Token": TOKEN})
    assert res.status_code == 200, res.text
    key = res.json()["keys"]["0"]
    seat = {"X-Seat-Key": key}
    mine = client.get("/api/digital/view", headers=seat).json()
    assert mine["ruleset"] == "elite" and mine["seat"] == 0
    assert mine["draft"]["showing"], "the draft's showing cards are on the table"
    public = client.get("/api/digital/view").json()
    assert public["draft"]["showing"] == mine["draft"]["showing"]
    assert not public.get("hand") and not public.get("legal")
    assert client.get("/api/digital/view?seat=1", headers=seat).status_code == 403
    assert client.get("/api/digital/events?seat=1", headers=seat).status_code == 403
    action = mine["legal"][0]["action"]
    assert client.post("/api/digital/act", json={"action": action}).status_code == 403
    for body, status, says in [
        ({"action": action, "seat": 1}, 403, "not yours"),
        ({"event": {"act": "draft"}}, 422, "a draft event needs a 'card'"),
        ({"action": 10**9}, 422, "There is no action"),
        ({"action": "1"}, 422, "whole number"),
    ]:
        res = client.post("/api/digital/act", json=body, headers=seat)
        assert res.status_code == status, (body, res.text)
        assert says in res.json()["error"]
    res = client.post("/api/digital/act", json={"action": action}, headers=seat)
    assert res.status_code == 200, res.text
    assert client.get("/api/digital/record", headers=seat).status_code == 403


def test_a_finished_elite_game_is_tallied_on_the_scoreboard(client, journal):
    host = {"X-Table-Token": TOKEN}
    key = client.post("/api/digital/new", json={**NEW, "seed": 8}, headers=host).json()["keys"]["0"]
    session = client.app.state.digital
    play_out(session, {0: key}, random.Random(2))
    winner = session.view()["winner"]
    board = client.get("/api/view").json()
    assert board["wins"]["games"] == 1
    assert {p["name"]: p["wins"] for p in board["wins"]["players"]}[winner] == 1
    assert [(r.players, r.ruleset) for r in journal.results()] == [(("Ann", "Ben", "Cat"), "elite")]
    assert client.get("/api/digital/view").json()["tally"] == board["wins"]
    record = client.get("/api/digital/record", headers=host)
    assert record.status_code == 200 and record.text.strip()


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({**NEW, "options": {"mode": 3}}, "mode"),
        ({**NEW, "options": {"mode": "dynasty", "decks": "a.tsv,b.tsv"}}, "read from files"),
        ({**NEW, "bots": ["smart"]}, "random, greedy and search"),
        ({**NEW, "players": ["Ann"]}, "player"),
        ({**NEW, "humans": [5]}, "seats are 0 to 2"),
    ],
)
def test_a_bad_new_elite_game_is_a_4xx_sentence(client, body, says):
    res = client.post("/api/digital/new", json=body, headers={"X-Table-Token": TOKEN})
    assert 400 <= res.status_code < 500, res.text
    assert says in res.json()["error"]


def until_two_cards(session, keys, rng, limit=5_000):
    """Play seat 0 (at random, never its last-but-one card) until it may play saying UNO!."""
    game = session.link.game
    for _ in range(limit):
        view = session.view(0, keys[0])
        if view["uno_plays"]:
            return view
        if game.winner is not None:
            return None
        session.act(0, keys[0], rng.choice(legal(view)))
    return None


def test_a_card_played_from_two_saying_uno_cannot_be_caught(session):
    found = None
    for seed in range(20):
        keys = elite_game(session, seed=seed)
        found = until_two_cards(session, keys, random.Random(seed))
        if found:
            break
    assert found, "no seed brought the person down to two cards"
    game = session.link.game
    other = next(a for a in legal(found) if a not in found["uno_plays"])
    before = json.dumps(game.observation(0))
    with pytest.raises(RuleError, match="Say UNO! as you play your next-to-last card"):
        session.act(0, keys[0], other, uno=True)
    with pytest.raises(ValueError, match="uno is true or false"):
        session.act(0, keys[0], found["uno_plays"][0], uno="yes")
    assert json.dumps(game.observation(0)) == before
    events = len(game.events)
    session.act(0, keys[0], found["uno_plays"][0], uno=True)
    seat0 = session.view(0, keys[0])["seats"][0]
    mine = [e for e in game.events[events:] if e.get("seat") == 0]
    assert len(mine) >= 2 and "uno" in json.dumps(mine[1]).lower(), mine
    if seat0["hand_count"] == 1:  # no bot caught the person: the call came with the card
        assert seat0["called_uno"]
    assert not any("catch You" in line for line in session.view(0, keys[0])["log"])


def test_uno_is_refused_where_it_is_part_of_the_move(session):
    keys = session.new_game(["Ann", "Ben"], [0], "greedy", options={"target": 100}, seed=1)
    with pytest.raises(RuleError, match="Say UNO! as you play your next-to-last card"):
        session.act(0, keys[0], 0, uno=True)


def test_over_http_a_peek_reaches_only_the_peekers_link(client):
    body = {**NEW, "humans": [0, 1], "seed": 6, "bots": "greedy", "options": {"mode": "quick"}}
    keys = client.post("/api/digital/new", json=body, headers={"X-Table-Token": TOKEN}).json()[
        "keys"
    ]
    session = client.app.state.digital
    game = session.link.game
    while game.winner is None:
        views = {
            s: client.get("/api/digital/view", headers={"X-Seat-Key": keys[str(s)]}) for s in (0, 1)
        }
        peekers = [s for s, res in views.items() if "peeked" in res.json()]
        if peekers:
            peeker = peekers[0]
            peek = views[peeker].json()["peeked"]
            other = views[1 - peeker].json()
            assert other.get("peeked") != peek or "peeked" in game.observation(1 - peeker)
            assert "peeked" not in client.get("/api/digital/view").json()
            asked = client.get(
                f"/api/digital/view?seat={peeker}", headers={"X-Seat-Key": keys[str(1 - peeker)]}
            )
            assert asked.status_code == 403
            return
        to_move = session.view()["awaiting"]["seat"]
        session.act(to_move, keys[str(to_move)], game.hints.act(game))
    raise AssertionError("seed 6 has a peek (test_two_people_each_see_only_their_own_hand...)")


def test_an_unfinished_elite_game_is_replaced_only_when_the_host_confirms(client):
    host = {"X-Table-Token": TOKEN}
    assert client.post("/api/digital/new", json=NEW, headers=host).status_code == 200
    again = client.post("/api/digital/new", json={**NEW, "seed": 4}, headers=host)
    assert again.status_code == 409 and again.json()["confirm"] is True
    assert "digital game in play is not finished" in again.json()["error"]
    disney = {"players": ["Ann", "Ben"], "humans": [0], "pace": 0}
    assert client.post("/api/digital/new", json=disney, headers=host).status_code == 409
    sure = client.post("/api/digital/new", json={**disney, "confirm": True}, headers=host)
    assert sure.status_code == 200, sure.text
    assert client.get("/api/digital/view").json()["ruleset"] == "disney"


def test_paced_bots_play_elite_on_the_links_timer_until_someone_wins():
    changed = threading.Event()
    s = DigitalSession(Bus(), on_change=changed.set, pace=0.002, inputs=INPUTS)
    try:
        s.new_game(["Ann", "Ben", "Cat"], [], ["random", "greedy"], ruleset="elite", seed=1)
        assert [b.name for b in s.link.bots] == ["random", "greedy", "random"]
        deadline = time.monotonic() + 60
        while not s.over and time.monotonic() < deadline:
            changed.wait(1)
            changed.clear()
        assert s.over and s.view()["tally"]["games"] == 1
    finally:
        s.close()


def test_closing_the_session_stops_the_paced_bots():
    changed = threading.Event()
    s = DigitalSession(Bus(), on_change=changed.set, pace=0.01, inputs=INPUTS)
    s.new_game(["Ann", "Ben"], [], "greedy", ruleset="elite", seed=2)
    game = s.link.game
    while len(game.events) < 6:
        assert changed.wait(10)
        changed.clear()
    s.close()
    moved = len(game.events)
    time.sleep(0.1)  # ten paces: no bot moves once closed
    assert len(game.events) == moved


def test_each_draft_pick_and_activation_is_offered_with_the_cards_powers(session):
    keys = elite_game(session, humans=(0,), seed=3, mode="draft")
    view = session.view(0, keys[0])
    showing = {
        c["words"].split(": ")[0]: c["words"].split(": ")[1] for c in view["draft"]["showing"]
    }
    for move in view["legal"]:
        label = move["words"].removeprefix("draft ")
        if label in showing and list(showing).count(label) == 1:
            assert view["hints"][str(move["action"])] == showing[label]
    assert view["hints"], "every draft pick names a showing card"
    assert session.view()["hints"] == {}  # a spectator chooses nothing
    game = session.link.game
    for _ in range(2_000):  # on to an activation
        view = session.view(0, keys[0])
        words = [m["words"] for m in view["legal"]]
        if any(w.startswith("activate ") for w in words) or game.winner is not None:
            break
        session.act(0, keys[0], game.hints.act(game))
    lineup = {
        c["words"].split(": ")[0]: c["words"].split(": ")[1] for c in view["seats"][0]["lineup"]
    }
    activations = [m for m in view["legal"] if m["words"].startswith("activate ")]
    assert activations, "greedy play reaches an activation"
    for move in activations:
        assert view["hints"][str(move["action"])] == lineup[move["words"].removeprefix("activate ")]


@pytest.mark.slow  # a search bot thinks up to 0.2 s a move
def test_a_person_plays_elite_against_the_search_bot(session):
    keys = session.new_game(
        ["Ann", "Ben"], [0], ["search:30"], options={"mode": "draft"}, ruleset="elite", seed=4
    )
    assert [b.name for b in session.link.bots] == ["search", "search"]
    play_out(session, keys, random.Random(4))
    assert session.view()["winner"] in ("Ann", "Ben")
