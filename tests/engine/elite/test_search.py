"""The Elite search bot: legal moves only, blind to what its seat cannot see, repeatable for a
seed, within its budget; and the clone it searches on is independent of the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.elite.hints import greedy_bot
from engine.search import SearchBot
from tests.engine.elite.helpers import new_game

SMALL = 12  # rollouts a move: real choices, quick enough for a unit test


def _to_choice(seed: int, players: int = 2, moves: int = 0, mode: str = "quick"):
    """A game after `moves` greedy actions, stopped where the player to act has a real choice."""
    rng = random.Random(seed)
    game = new_game(players, {"mode": mode}, seed=seed)
    made = 0
    while True:
        if game.is_chance_node():
            game.sample_chance(rng)
            continue
        seat = game.current_player()
        if made >= moves and len(game.legal_actions(seat)) > 1:
            return game
        game.apply_action(greedy_bot(game, seat, rng), seat)
        made += 1


def _hide_differently(game, seat: int, rng: random.Random):
    """The same table as `seat` sees it, with every card it cannot see dealt another way."""
    world = game.clone()
    hidden = [c for s in range(game.n) if s != seat for c in world.hands[s]] + world.draw
    rng.shuffle(hidden)
    for s in range(game.n):
        if s != seat:
            world.hands[s] = [hidden.pop() for _ in world.hands[s]]
    world.draw = hidden
    decks = [c for d in world.player_decks for c in d]
    rng.shuffle(decks)
    world.player_decks = [[decks.pop() for _ in d] for d in world.player_decks]
    return world


def _seat_view(game, seat):
    view = game.observation(seat)
    view.pop("log")  # the log is the game's, not the table's: a clone keeps its tail
    return view


@pytest.mark.parametrize("seed", range(4))
def test_the_choice_does_not_depend_on_hidden_cards(seed):
    game = _to_choice(seed, players=2 + seed % 2, moves=seed * 5)
    seat = game.current_player()
    choices = set()
    for shuffle in range(3):
        world = game if shuffle == 0 else _hide_differently(game, seat, random.Random(shuffle))
        assert _seat_view(world, seat) == _seat_view(game, seat)
        choices.add(SearchBot(random.Random(99), rollouts=SMALL).act(world))
    assert len(choices) == 1


@pytest.mark.parametrize("mode", ["quick", "draft"])
def test_an_imagined_world_keeps_every_public_count_and_the_game_untouched(mode):
    game = _to_choice(3, players=3, moves=12, mode=mode)
    seat = game.current_player()
    before = game.observation(seat), [list(h) for h in game.hands], list(game.draw)
    world = game.determinise(seat, random.Random(1))
    assert world.hands[seat] == game.hands[seat]
    assert [len(h) for h in world.hands] == [len(h) for h in game.hands]
    assert [len(d) for d in world.player_decks] == [len(d) for d in game.player_decks]
    assert world.discard == game.discard and world.lineups == game.lineups
    held = [*world.draw, *world.discard, *(c for h in world.hands for c in h)]
    assert Counter(held) == Counter(game.deck_cards)
    if mode == "draft":  # the picks were public: each deck keeps its make-up
        assert [Counter(d) for d in world.player_decks] == [Counter(d) for d in game.player_decks]
    assert (game.observation(seat), game.hands, game.draw) == before


def test_a_clone_is_independent_of_its_game():
    game = _to_choice(5, moves=3)
    twin = game.clone()
    view, events = game.observation(None), list(game.events)
    rng = random.Random(1)
    for _ in range(30):
        if twin.is_terminal():
            break
        if twin.is_chance_node():
            twin.sample_chance(rng)
            continue
        seat = twin.current_player()
        twin.apply_action(greedy_bot(twin, seat, rng), seat)
    assert game.observation(None) == view and game.events == events


def test_every_move_is_legal_and_the_game_ends():
    rng = random.Random(4)
    game = new_game(2, {"mode": "quick"}, seed=4)
    moves = 0
    while not game.is_terminal() and moves < 400:
        if game.is_chance_node():
            game.sample_chance(rng)
            continue
        seat = game.current_player()
        if seat == 0:
            action = SearchBot(rng, rollouts=SMALL).act(game)
        else:
            action = greedy_bot(game, seat, rng)
        assert action in game.legal_actions(seat)
        game.apply_action(action, seat)
        moves += 1
    assert game.is_terminal()


def test_deterministic_for_a_seed():
    game = _to_choice(6, moves=4)
    first = {SearchBot(random.Random(7), rollouts=SMALL).act(game) for _ in range(3)}
    assert len(first) == 1


def test_a_clock_stops_it_after_one_imagined_world():
    """A clock that moves one second a reading: half a second allows one world, every candidate."""
    ticks = iter(range(10**6))
    game = _to_choice(2, moves=2)
    bot = SearchBot(random.Random(1), seconds=0.5, clock=lambda: next(ticks))
    assert bot.act(game) in game.legal_actions()
    assert bot.last_rollouts == len(game.legal_actions())


def test_the_search_bot_plays_through_simulate():
    from engine.elite.simulate import simulate
    from tests.engine.elite.helpers import CARDS

    stats = simulate(
        players=2, seed=1, games=1, bots=["search", "random"], options={"box": "all"}, cards=CARDS
    )
    assert stats["games"] == 1 and stats["bots"] == ["search", "random"]


def test_the_greedy_choice_is_compared_first_so_ties_go_to_it():
    game = _to_choice(3, moves=3)
    legal = game.legal_actions()
    candidates = game.hints.candidates(game, legal)
    assert candidates[0] == game.hints.act(game) and sorted(candidates) == sorted(legal)
