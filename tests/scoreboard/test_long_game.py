"""A table game of 100,000 hands starts: `tinker-tray display` as a real process, on a journal
built beforehand (tests.helpers.long_game). The fold is linear (tests/engine/test_table_fold.py
checks it by structure) and the start waits `scoreboard.server.START_S` for it; with a tuple of
hands rebuilt per hand, the display never started (the fold took minutes)."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.helpers import flood
from tests.helpers.long_game import build

HANDS = 100_000


@pytest.mark.slow
def test_a_game_of_100000_hands_starts_and_is_shown(tmp_path):
    build(tmp_path / "journal.sqlite3", HANDS)
    with flood.display(tmp_path) as shown:
        view = httpx.get(f"http://{flood.TABLE}:{shown.port}/api/view", timeout=30).json()
    assert view["hand_count"] == HANDS
    assert [h["number"] for h in view["hands"]][-1] == HANDS
    assert json.dumps(view).count('"number"') <= 20  # the pages get the recent hands only
