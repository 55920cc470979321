"""Trays for the backup tests (tests/scoreboard/test_backup*.py): the table's app on its own
journal, with the table's token the journal keeps (as the service starts it, so a restore's
token is the one phones hold), a table game and a digital game played on it through the API,
and every record the journal exports, to compare byte for byte."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from cli.app import create_app
from scoreboard.journal import Journal
from tests.helpers.digital import Picks, play_out
from tray.bus import Bus
from tray.events import Pick

DIGITAL = {
    "players": ["Ann", "Bot1", "Bot2"],
    "humans": [0],
    "bots": "greedy",
    "seed": 5,
    "pace": 0,
    "options": {"target": 100},
}


class Tray:
    """One tray: its journal at `path`, its app served by a TestClient (`start`/`stop`)."""

    def __init__(self, path: Path):
        self.path = path

    def start(self) -> Tray:
        self.journal = Journal(self.path)
        self.bus = Bus()
        self.token = self.journal.token()
        self.app = create_app(self.journal, self.bus, self.token)
        self.client = TestClient(self.app).__enter__()
        return self

    def stop(self) -> None:
        self.client.__exit__(None, None, None)
        self.journal.close()

    def host(self, token: str | None = None) -> dict[str, str]:
        return {"X-Table-Token": self.token if token is None else token}

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        """A request with a token in its header and no cookie (a phone holding `token`)."""
        self.client.cookies.clear()
        return self.client.request(method, path, headers=self.host(token), **kw)


def play_a_table_game(tray: Tray) -> None:
    """A game at the table, as the entry page sends it: hands, a correction, a pick."""
    start = {"players": ["Ann", "Bea", "Cy"], "name": "Friday night"}
    assert tray.call("POST", "/api/new-game", json=start).status_code == 200
    for winner, held in ((0, [None, 12, 30]), (2, [7, 5, None]), (1, [3, None, 44])):
        body = {"kind": "hand", "winner": winner, "held": held}
        assert tray.call("POST", "/api/entry", json=body).status_code == 200
    tray.bus.publish(Pick(seq=1, colour="blue", t=1.0))
    assert tray.call("POST", "/api/entry", json={"kind": "undo"}).status_code == 200


def play_a_digital_game(tray: Tray, seed: int = 7) -> None:
    """A digital game against bots, played to its end from the person's seat."""
    res = tray.call("POST", "/api/digital/new", json={**DIGITAL, "confirm": True})
    assert res.status_code == 200, res.text
    key = res.json()["keys"]["0"]
    rng = random.Random(seed)
    play_out(tray.app.state.digital, Picks(tray.bus, rng), 0, key, rng)


def records(tray: Tray, token: str | None = None) -> dict[str, bytes]:
    """Every kept game's exports (the score sheet as JSON and CSV, the digital game's
    record) and the list of games, as the host downloads them."""
    games = tray.call("GET", "/api/games?limit=200", token)
    assert games.status_code == 200
    kept = {"games": games.content}
    for game in games.json()["games"]:
        formats = (["json", "csv"] if game["entries"] else []) + (
            ["jsonl"] if game["digital"] else []
        )
        for fmt in formats:
            res = tray.call("GET", f"/api/games/{game['id']}.{fmt}", token)
            assert res.status_code == 200, (game, fmt, res.text)
            kept[f"{game['id']}.{fmt}"] = res.content
    return kept
