"""The bots' one policy of calls out of turn (`engine.bots.offer_calls`): the simulations, the
search bot's rollouts, UNO Elite's simulation and digital play all ask the bots through it, so
no other module asks a bot out of turn; each seat is asked once, with all its calls, a seat's
own UNO first."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine.bots import GREEDY, RandomBot, chance_order, offer_calls
from engine.elite import actions as EA
from engine.protocol import GameState
from tests.engine.elite.helpers import play, table

ROOT = Path(__file__).resolve().parents[2]
ASKING = {"interject", "greedy_interject"}
"""What asks a bot (or the greedy judgement) whether it calls out of turn."""


def _askers(path: Path) -> list[int]:
    """The lines of `path` that ask a bot out of turn (`bot.interject(...)`, `interject(...)`);
    a bot reading its ruleset's judgement (`game.hints.interject(...)`) asks nobody."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            judgement = isinstance(f, ast.Attribute) and getattr(f.value, "attr", None) == "hints"
            if name in ASKING and not judgement:
                lines.append(node.lineno)
    return lines


def test_the_bots_are_asked_out_of_turn_in_one_place():
    found = {
        f"{path.relative_to(ROOT)}:{line}"
        for room in ("engine", "digital", "cli", "scoreboard")
        for path in sorted((ROOT / room).rglob("*.py"))
        for line in _askers(path)
    }
    policy = ROOT / "engine" / "bots.py"
    ours = {f"{policy.relative_to(ROOT)}:{line}" for line in _askers(policy)}
    assert found - ours == set(), "ask the bots through engine.bots.offer_calls"
    assert len(ours) == 1  # offer_calls


class Asked:
    """A bot that says what it was asked and declines (or makes its first call, `makes`)."""

    name = "asked"

    def __init__(self, log: list[tuple[int, list[int]]], makes: bool = False) -> None:
        self.log, self.makes = log, makes

    def act(self, game: GameState) -> int:
        return game.legal_actions()[0]

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None:
        self.log.append((seat, list(options)))
        return options[0] if self.makes else None


def _elite_seat_1_due():
    """Three seats of UNO Elite; seat 1 has just played its next-to-last card."""
    game = table(hands={0: ["r3", "g1", "g2"], 1: ["r4", "b1"], 2: ["y1", "y2"]}, top="r5")
    game.apply_action(play(game, "r3"))
    game.apply_action(play(game, "r4"))
    return game


def test_each_seat_is_asked_once_with_all_its_calls_its_own_uno_first():
    game = _elite_seat_1_due()
    log: list[tuple[int, list[int]]] = []
    assert not offer_calls(game, [Asked(log)] * 3)
    assert log == [(1, [EA.UNO]), (0, [EA.CATCH + 1]), (2, [EA.CATCH + 1])]


def test_a_persons_seat_is_never_asked_and_the_first_to_call_calls():
    game = _elite_seat_1_due()
    log: list[tuple[int, list[int]]] = []
    assert offer_calls(game, [Asked(log, makes=True), None, Asked(log, makes=True)])
    assert log == [(0, [EA.CATCH + 1])]
    assert game.interjections() == [] and len(game.hands[1]) > 1  # caught: it drew


def test_with_a_generator_who_is_asked_first_is_chance():
    firsts = set()
    for seed in range(40):
        game = _elite_seat_1_due()
        log: list[tuple[int, list[int]]] = []
        offer_calls(game, [Asked(log)] * 3, chance_order(random.Random(seed)))
        assert sorted(seat for seat, _ in log) == [0, 1, 2]
        firsts.add(log[0][0])
    assert firsts == {0, 1, 2}


def test_the_greedy_bot_calls_its_own_uno_and_the_random_bot_may_not():
    game = _elite_seat_1_due()
    assert offer_calls(game, [GREEDY] * 3)
    assert game.uno_state[1] != "due" and len(game.hands[1]) == 1  # called, not caught
    declined = [
        offer_calls(_elite_seat_1_due(), [RandomBot(random.Random(s))] * 3) for s in range(30)
    ]
    assert True in declined and False in declined


class Cheat(Asked):
    """A bot that answers with a call it was not offered (a catch of itself)."""

    name = "cheat"

    def interject(self, game: GameState, seat: int, options: list[int]) -> int | None:
        return EA.CATCH + seat


def test_a_call_a_bot_was_not_offered_is_a_bug_and_changes_nothing():
    """The offered call is applied unchecked (`apply_listed`), so an answer outside the offer
    is refused before it reaches the game."""
    game = _elite_seat_1_due()
    before = game.record()
    with pytest.raises(ValueError, match="cheat bot of seat 1 made a call it was not offered"):
        offer_calls(game, [Cheat([])] * 3)
    assert game.record() == before
