"""The boot check's play (image/check.py's `Play`) against the tray itself, a real process
on this machine: both kinds of play get writes acknowledged and the journal holds them. Without
this, a change of the page's API leaves the power-cut check counting nothing (a digital game
whose moves the bench no longer found acknowledged none, and "0 lost" said nothing of them)."""

from __future__ import annotations

import random
import time

import pytest

from image.check import Play
from tests.helpers.service import Service

pytestmark = pytest.mark.slow  # a real process


@pytest.fixture
def play(tmp_path):
    service = Service.ready(tmp_path / "journal.sqlite3")
    yield Play(service.port, service.token, random.Random(5))
    service.stop()


def test_a_table_game_is_acknowledged_and_kept(play):
    play.table(time.monotonic() + 2)
    ((game, acked),) = play.acked.items()
    assert acked > 1 and play.kept(game) == acked and play.lost() == 0


def test_a_digital_game_gets_moves_acknowledged_and_kept(play):
    play.digital_game(time.monotonic() + 10)
    ((game, acked),) = play.acked.items()
    assert game in play.digital
    assert acked >= 1, "the bench made no move the tray acknowledged"
    assert play.kept(game) >= acked and play.lost() == 0
