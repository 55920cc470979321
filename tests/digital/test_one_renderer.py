"""One renderer of moves for every ruleset, in the terminal and in the page: both draw the
observation's `legal` (`engine.observation`), never a ruleset's own shape of moves."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from digital.play_menu import menu
from engine.protocol import CHANCE
from tests.engine.test_observation_shape import a_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("ruleset", ["disney", "classic", "elite"])
def test_the_terminals_one_menu_offers_exactly_the_legal_moves_of_every_ruleset(ruleset):
    """Every legal action of the seat is on the menu once: a line of its own, or typed with u
    as the twin saying UNO! of the line it shares; the line says the engine's words."""
    rng = random.Random(4)
    game = a_game(ruleset, 3)
    seen = 0
    for _ in range(150):
        if game.is_terminal():
            break
        if game.current_player() == CHANCE:
            game.sample_chance(rng)
            continue
        for seat in range(3):
            view = game.observation(seat)
            choices = menu(view)
            offered = [c.action for c in choices] + [
                c.uno for c in choices if c.uno is not None and c.uno != c.action
            ]
            assert sorted(offered) == sorted(m["action"] for m in view["legal"])
            words = {m["action"]: m["words"] for m in view["legal"]}
            assert all(c.label.startswith(words[c.action]) for c in choices)
            seen += len(choices)
        game.apply_action(rng.choice(game.legal_actions()))
    assert seen > 100


def test_the_page_draws_moves_from_legal_alone():
    """play.js has one renderer of moves: no branch on which shape a view has, no reading of a
    ruleset's own lists of moves (a card's `moves`, the view's `moves`)."""
    source = (ROOT / "digital" / "static" / "play.js").read_text(encoding="utf-8")
    assert "renderMoves(v, has)" in source
    assert not re.search(
        r"if \(v\.legal\)|\bcard\.moves\b|\bv\.moves\b|renderWords|renderHand", source
    )
