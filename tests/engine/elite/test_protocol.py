"""UNO Elite as one more ruleset of the game protocol: the seat to act's actions without a seat,
UNO and catches as interjections, a Player Deck's next card as a listed chance outcome, the
refusals that name the rule broken, and the package's modules importing one way."""

import ast
import random
from pathlib import Path

import pytest

from engine.elite import EliteGame, RuleError, parse_cards
from engine.elite import actions as A
from engine.protocol import CHANCE
from tests.engine.elite.helpers import CARDS, DYNASTY_ROWS, elite, pick, play, table, uno

PACKAGE = Path(__file__).resolve().parents[3] / "engine" / "elite"
DECK = parse_cards("\n".join(DYNASTY_ROWS), "a dynasty Player Deck")


def test_legal_actions_are_the_seat_to_acts_and_calls_are_interjections():
    game = table(hands={0: ["r3", "g1"], 1: ["b2", "b4"], 2: ["y2", "y5"]}, top="r5")
    game.apply_action(play(game, "r3"))  # seat 0 holds one card and has not called UNO
    assert game.current_player() == 1
    assert not any(A.is_call(a) for a in game.legal_actions())
    assert set(game.interjections()) == {(0, A.UNO), (1, A.CATCH + 0), (2, A.CATCH + 0)}
    game.apply_action(A.CATCH + 0, 2)
    assert len(game.hands[0]) == 3 and game.interjections() == []


def test_a_player_deck_is_dealt_one_listed_outcome_at_a_time_into_one_record_event():
    game = EliteGame(["a", "b"], {"mode": "draft", "box": "all"}, cards=CARDS)
    rng = random.Random(3)
    while game.chance_kind() != "player_decks":
        if game.current_player() == CHANCE:
            game.sample_chance(rng)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    picked = [list(p) for p in game.draft.picked]
    events_before = len(game.events)
    order: list[list[str]] = [[], []]
    while game.chance_kind() == "player_decks":
        outcomes = game.chance_outcomes()
        assert 1 <= len(outcomes) <= 8 and sum(p for _, p in outcomes) == pytest.approx(1)
        action = rng.choice(outcomes)[0]
        card = game.elite_cards[action - A.ELITE]
        order[0 if card in picked[0] else 1].append(card.id)
        game.apply_action(action)
    assert game.events[events_before:] == [{"chance": "player_decks", "decks": order}]
    assert [c.id for c in game.lineups[0]] == order[0][:3]


def test_a_chance_outcome_not_listed_is_refused_and_changes_nothing():
    game = EliteGame(["a", "b"], {"mode": "dynasty", "decks": [DECK, DECK]}, cards=CARDS)
    game.sample_chance(random.Random(1))  # the deal
    assert game.chance_kind() == "player_decks"
    outcomes = [a for a, _ in game.chance_outcomes()]
    seat_one = A.ELITE + game.elite_index["s1-001-red"]
    assert seat_one not in outcomes and len(outcomes) == 8
    with pytest.raises(RuleError) as caught:
        game.apply_action(seat_one)
    assert caught.value.rule == "chance" and game.placed == [[], []]


def test_a_card_not_in_the_hand_is_refused_as_not_in_hand():
    game = table(hands={0: ["r3", "g1"]}, top="r5")
    before = [list(h) for h in game.hands]
    for action in (play(game, "r7"), play(game, "b2")):  # matching, and not matching
        with pytest.raises(RuleError) as caught:
            game.apply_action(action)
        assert caught.value.rule == "not-in-hand" and "your own hand" in str(caught.value)
    assert game.hands == before
    with pytest.raises(RuleError) as caught:
        game.apply_action(play(game, "g1"))  # held, but no match
    assert caught.value.rule == "match"


def test_an_elite_card_not_in_the_own_lineup_is_refused_as_not_in_lineup():
    game = table(
        hands={0: ["r3e", "g1", "g2"]},
        top="r5",
        lineups={0: ["T01-red"], 1: ["T05-red"]},
        decks={0: ["T10-red"]},
    )
    game.apply_action(play(game, "r3e"))
    assert game.legal_actions() == [pick(game, "T01-red"), A.DONE]
    for other in ("T05-red", "T10-red"):  # another's Lineup, the own Player Deck
        with pytest.raises(RuleError) as caught:
            game.apply_action(pick(game, other))
        assert caught.value.rule == "not-in-lineup" and "own Lineup" in str(caught.value)
    assert [c.id for c in game.lineups[0]] == ["T01-red"]
    assert game.player_decks[0] == [elite("T10-red")] and game.hands[0] == [uno("g1"), uno("g2")]


def imports_within(path: Path) -> set[str]:
    """The engine.elite modules a module imports, TYPE_CHECKING and function imports too."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module == "engine.elite":
            found.update(
                alias.name for alias in node.names if (PACKAGE / f"{alias.name}.py").exists()
            )
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine.elite."):
            found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[2] for a in node.names if a.name.startswith("engine.elite.")
            )
    return found - {path.stem}


def test_the_package_imports_one_way():
    graph = {p.stem: imports_within(p) for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module not in done:
            for used in graph.get(module, ()):
                visit(used, (*path, module))
            done.add(module)

    for module in graph:
        visit(module, ())
    assert "game" in graph["record"] and "game" not in graph["state"] | graph["legal"]
