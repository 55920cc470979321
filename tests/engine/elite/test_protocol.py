"""UNO Elite as one more ruleset of the game protocol: the seat to act's actions without a seat,
UNO and catches as interjections, every chance event's next card as a listed chance outcome, the
refusals that name the rule broken, and the package's modules importing one way."""

import ast
import random
from collections import Counter
from pathlib import Path

import pytest

from engine.elite import EliteGame, RuleError, parse_cards
from engine.elite import actions as A
from engine.elite.hints import greedy_bot
from engine.protocol import CHANCE
from tests.engine.elite.helpers import (
    CARDS,
    DYNASTY_ROWS,
    elite,
    pick,
    play,
    table,
    uno,
    until_chance,
)

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
    until_chance(game, "player_decks", rng)
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


def _names(cards):
    return [getattr(c, "code", None) or c.id for c in cards]


def _take_listed_outcomes(game, rng):
    """Deal the pending chance event one listed outcome at a time, each checked; the cards in
    the order they were placed."""
    placed, pending = [], game.chance_kind()
    while game.chance_kind() == pending:
        outcomes = game.chance_outcomes()
        assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1)
        assert all(p > 0 for _, p in outcomes) and len({a for a, _ in outcomes}) == len(outcomes)
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        kind, arg = A.decode(action)
        placed.append(game.kinds[arg].code if kind == "card" else game.elite_cards[arg].id)
        game.apply_action(action)
    return placed


def _uno_cards_on_the_table(game):
    return Counter(c.code for c in [*game.draw, *game.discard, *(c for h in game.hands for c in h)])


def _play_to_chance(game, rng, listed=()):
    """Greedy bots play on, the chance events not in `listed` sampled, until one in `listed` is
    pending (True) or the game is over (False)."""
    while not game.is_terminal():
        if game.current_player() != CHANCE:
            seat = game.current_player()
            game.apply_action(greedy_bot(game, seat, rng), seat)
        elif game.chance_kind() in listed:
            return True
        else:
            game.sample_chance(rng)
    return False


def _deal_by_listed_outcomes(game, rng):
    """The pending chance event dealt one listed outcome at a time: every card of its pool
    once, into one record event as a sampled order makes, every UNO card accounted for."""
    deck = Counter(c.code for c in game.deck_cards)
    kind, pool, events = game.chance_kind(), _names(game.chance_pool()), len(game.events)
    placed = _take_listed_outcomes(game, rng)
    assert sorted(placed) == sorted(pool)
    (event,) = game.events[events:]
    assert event["chance"] == kind and event.get("deck", event.get("cards")) == placed
    assert _uno_cards_on_the_table(game) == deck


def _replays(game):
    again = EliteGame(["a", "b"], {"mode": "quick"}, cards=CARDS)
    for event in game.events:
        again.apply_event(event)
    assert again.observation(0) == game.observation(0) and again.winner == game.winner


def test_the_deal_and_the_box_are_dealt_one_listed_outcome_at_a_time():
    game = EliteGame(["a", "b"], {"mode": "quick"}, cards=CARDS)
    rng = random.Random(5)
    for kind in ("deal", "elite_shuffle"):
        assert game.chance_kind() == kind
        _deal_by_listed_outcomes(game, rng)
    assert game.current_player() == 0 and [len(h) for h in game.hands] == [7, 7]
    _play_to_chance(game, rng)
    _replays(game)


def test_a_reshuffle_is_dealt_one_listed_outcome_at_a_time():
    rng = random.Random(5)
    for _ in range(200):  # about one quick game in 25 reshuffles its Discard Pile
        game = EliteGame(["a", "b"], {"mode": "quick"}, cards=CARDS)
        if _play_to_chance(game, rng, listed=("reshuffle",)):
            break
    assert game.chance_kind() == "reshuffle"
    _deal_by_listed_outcomes(game, rng)
    assert game.current_player() >= 0 and game.draw
    _play_to_chance(game, rng)
    _replays(game)


def test_a_sample_after_cards_placed_one_at_a_time_keeps_them_on_top():
    game = EliteGame(["a", "b"], {"mode": "quick"}, cards=CARDS)
    first = [a for a, _ in game.chance_outcomes()][:3]
    for action in first:
        game.apply_action(action)
    assert game.current_player() == CHANCE and len(game.ordered) == 3
    game.sample_chance(random.Random(2))
    assert game.events[0]["deck"][:3] == [game.kinds[a - A.CARD].code for a in first]
    assert len(game.events[0]["deck"]) == len(game.deck_cards) and game.ordered == []


def test_a_sampled_order_is_drawn_as_before_the_outcomes_were_listed():
    game = EliteGame(["a", "b"], {"mode": "quick"}, cards=CARDS)
    order = list(game.deck_cards)
    random.Random(9).shuffle(order)
    game.sample_chance(random.Random(9))
    assert game.events[0]["deck"] == [c.code for c in order]


def test_a_deal_outcome_not_listed_is_refused_and_changes_nothing():
    game = EliteGame(["a", "b"], {"mode": "quick"}, cards=CARDS)
    for action in (A.ELITE, A.CARD + len(game.kinds), A.DRAW):
        with pytest.raises(RuleError) as caught:
            game.apply_action(action)
        assert caught.value.rule == "chance" and game.ordered == [] and game.events == []


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
