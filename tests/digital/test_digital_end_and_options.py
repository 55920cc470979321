"""Issue 52 through the API: the set-up's rules are each ruleset's own options, as it declares
them (so a new option reaches the page with no edit of it), and the host ends a digital game
that would otherwise hold the journal up (a restore is refused while a game is in play)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from cli.app import create_app
from engine import registry
from engine.disney.rulesets import HOUSE_OPTIONS, RULESETS
from engine.elite.setup import OPTIONS as ELITE_OPTIONS
from scoreboard.journal import InPlayError, Journal
from tests.helpers.web import TOKEN
from tray.bus import Bus

HOST = {"X-Table-Token": TOKEN}


@pytest.fixture
def app(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    application = create_app(journal, Bus(), TOKEN)
    with TestClient(application) as client:
        client.journal = journal  # type: ignore[attr-defined]
        client.tmp = tmp_path  # type: ignore[attr-defined]
        yield client
    journal.close()


def declared(name: str) -> dict[str, tuple[object, bool]]:
    """What the engine declares of a ruleset's options: {name: (default, house rule)}, without
    the two the form has controls of its own for (mode, target)."""
    if name in RULESETS:
        options = {n: (o.default, n in HOUSE_OPTIONS) for n, o in RULESETS[name].options.items()}
    else:
        options = {n: (values[0], False) for n, values in ELITE_OPTIONS.items()}
    return {n: v for n, v in options.items() if n not in ("mode", "target")}


def test_every_option_of_every_ruleset_is_offered_with_its_kind_and_default(app):
    offered = {r["name"]: r for r in app.get("/api/digital/rulesets").json()["rulesets"]}
    assert list(offered) == list(registry.names())
    for name, ruleset in offered.items():
        got = {o["name"]: (o["default"], o["house"]) for o in ruleset["options"]}
        assert got == declared(name), name
        for option in ruleset["options"]:
            assert option["title"] and option["kind"] in ("yes-no", "choice", "number")
            if option["kind"] != "number":
                assert option["default"] in option["choices"]
    house = {o["name"] for o in offered["classic"]["options"] if o["house"]}
    assert house == {"stacking", "seven_o", "jump_in", "six_smackdown", "keep_drawing"}
    seven = next(o for o in offered["classic"]["options"] if o["name"] == "seven_o")
    assert seven["title"] == "Seven-O" and "swap hands" in seven["says"]


def start(app, ruleset="classic", **extra):
    body = {"players": ["Ann", "Bo", "Cy"], "humans": [0], "seed": 3, "pace": 0}
    res = app.post("/api/digital/new", json={**body, "ruleset": ruleset, **extra}, headers=HOST)
    assert res.status_code == 200, res.text
    return res.json()


def test_the_host_ends_the_game_so_a_restore_is_no_longer_refused(app):
    start(app)
    spare = Journal(app.tmp / "backup.sqlite3")
    spare.close()
    with pytest.raises(InPlayError):
        app.journal.replace_with(app.tmp / "backup.sqlite3", replace=True)
    asked = app.post("/api/digital/end", json={}, headers=HOST)
    assert asked.status_code == 409 and asked.json()["confirm"] is True
    assert "confirm to end it" in asked.json()["error"]
    ended = app.post("/api/digital/end", json={"confirm": True}, headers=HOST)
    assert ended.status_code == 200, ended.text
    view = app.get("/api/digital/view").json()
    assert view["game"] is None
    assert view["ended"].startswith("The host ended the game of Ann, Bo, Cy unfinished")
    kept = app.journal.latest_digital()
    assert kept is not None and not kept.finished and kept.events  # its record is kept
    app.journal.replace_with(app.tmp / "backup.sqlite3", replace=True)  # no longer refused


def test_ending_is_the_hosts_and_needs_a_game_in_play(app):
    none = app.post("/api/digital/end", json={"confirm": True}, headers=HOST)
    assert none.status_code == 409 and "no digital game is running" in none.json()["error"]
    start(app)
    guest = app.post("/api/digital/end", json={"confirm": True})
    assert guest.status_code in (401, 403)
    wrong = app.post("/api/digital/end", json={"confirm": "yes"}, headers=HOST)
    assert wrong.status_code == 422 and "confirm" in wrong.json()["error"]
    assert app.app.state.digital.link is not None  # nothing ended by a refusal


def test_a_new_game_after_an_ended_one_is_not_asked_to_confirm(app):
    start(app)
    app.post("/api/digital/end", json={"confirm": True}, headers=HOST)
    start(app, ruleset="elite")
    assert "ended" not in app.get("/api/digital/view").json()


def test_an_ended_game_is_marked_in_the_kept_games_and_never_played_on(tmp_path):
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    with TestClient(create_app(journal, Bus(), TOKEN)) as client:
        start(client)
        game = journal.latest_digital().game  # type: ignore[union-attr]
        assert client.post("/api/digital/end", json={"confirm": True}, headers=HOST).is_success
        kept = {g["id"]: g for g in client.get("/api/games").json()["games"]}
        assert kept[game]["ended"] is True and kept[game]["finished"] is False
    journal.close()
    journal = Journal(path)  # the service restarted: the ended game is not carried on
    with TestClient(create_app(journal, Bus(), TOKEN)) as client:
        view = client.get("/api/digital/view").json()
        assert view["game"] is None
        assert view["ended"] == (
            f"The host ended the game of Ann, Bo, Cy unfinished; its record is kept "
            f"(game {game} in the journal)."
        )
    journal.delete_game(game, f"delete game {game}")
    marks = journal._db.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'ended:%'").fetchone()
    assert marks == (0,)  # the mark went with its game
    journal.close()
