"""The search bot: legal moves only, blind to hidden cards, repeatable for a seed, within budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine import bots as B
from engine.disney.game import CHANCE, Game
from engine.disney.hints import _candidates, seat_view
from engine.search import SearchBot, parse_budget

SMALL = 24  # rollouts a move: enough to make real choices, quick enough for a unit test


def _to_search_turn(seed: int, players: int = 2, moves: int = 0) -> Game:
    """A Disney game after `moves` greedy decisions, stopped where a player has a real choice."""
    rng = random.Random(seed)
    g = Game("disney", [f"P{s}" for s in range(players)], 0, {}, record=False)
    greedy = B.GreedyBot()
    made = 0
    while True:
        if g.current_player() == CHANCE:
            g.sample_chance(rng)
            continue
        if made >= moves and len(g.legal_actions()) > 1:
            return g
        g.apply_action(greedy.act(g))
        made += 1


def _hide_differently(game: Game, seat: int, rng: random.Random) -> Game:
    """The same public state with the cards `seat` cannot see dealt around another way."""
    g = game.clone()
    h = g.hand
    me = h.pos_of[seat]
    hidden = [c for p, held in enumerate(h.hands) if p != me for c in held] + h.draw
    rng.shuffle(hidden)
    at = 0
    for p, held in enumerate(h.hands):
        if p != me:
            h.hands[p] = hidden[at : at + len(held)]
            at += len(held)
    h.draw = hidden[at:]
    return g


@pytest.mark.parametrize("players", [2, 3])
def test_every_move_is_legal(players):
    rng = random.Random(players)
    g = Game("disney", [f"P{s}" for s in range(players)], 0, {"target": 150})
    bots = [SearchBot(random.Random(s), rollouts=SMALL) for s in range(players)]
    moves = 0
    while not g.is_terminal() and moves < 150:
        who = g.current_player()
        if who == CHANCE:
            g.sample_chance(rng)
            continue
        action = bots[who].act(g)
        assert action in g.legal_actions()
        g.apply_action(action)  # checked again by the rules
        moves += 1
        for seat, offered in g.interjections():
            choice = bots[seat].interject(g, seat, [offered])
            assert choice in (None, offered)
    assert moves > 20


@pytest.mark.parametrize("seed", range(6))
def test_the_choice_does_not_depend_on_hidden_cards(seed):
    """Deal the cards the bot cannot see another way: for the same seed it chooses the same."""
    g = _to_search_turn(seed, players=2 + seed % 2, moves=seed * 3)
    seat = g.current_player()
    choices = set()
    for shuffle in range(4):
        world = g if shuffle == 0 else _hide_differently(g, seat, random.Random(shuffle))
        choices.add(SearchBot(random.Random(99), rollouts=SMALL).act(world))
    assert len(choices) == 1


def test_its_view_and_imagined_deals_keep_every_public_count():
    g = _to_search_turn(3, players=3, moves=5)
    seat = g.current_player()
    view = seat_view(g, seat)
    h = g.hand
    assert Counter(view.unseen) == Counter(
        c for p, held in enumerate(h.hands) if p != view.pos for c in held
    ) + Counter(h.draw)
    world = g.determinise(seat, random.Random(1))
    w = world.hand
    assert w.hands[view.pos] == h.hands[view.pos]
    assert [len(x) for x in w.hands] == [len(x) for x in h.hands]
    assert len(w.draw) == len(h.draw) and w.discard == h.discard
    assert Counter(world.hand.all_cards()) == Counter(g.rules.deck)
    assert g.hand.hands == h.hands  # the real game is untouched


def test_deterministic_for_a_seed():
    g = _to_search_turn(5, moves=4)
    first = [SearchBot(random.Random(7), rollouts=SMALL).act(g) for _ in range(3)]
    assert len(set(first)) == 1


def test_budget_in_rollouts_is_respected():
    g = _to_search_turn(2)
    bot = SearchBot(random.Random(1), rollouts=40)
    bot.act(g)
    assert 0 < bot.last_rollouts <= 40


def test_budget_in_time_stops_at_the_deadline():
    """A clock that moves one second a reading: a half-second budget allows one imagined deal."""
    ticks = iter(range(10**6))
    g = _to_search_turn(2)
    bot = SearchBot(random.Random(1), seconds=0.5, clock=lambda: next(ticks))
    bot.act(g)
    assert bot.last_rollouts == len(_candidates(g.legal_actions()))  # one deal, every candidate


def test_a_forced_move_is_not_searched():
    bot = SearchBot(random.Random(1), rollouts=SMALL)
    g = _to_search_turn(4)
    while len(g.legal_actions()) != 1 or g.current_player() == CHANCE:
        if g.current_player() == CHANCE:
            g.sample_chance(random.Random(0))
        else:
            g.apply_action(B.GreedyBot().act(g))
    bot.act(g)
    assert bot.last_rollouts == 0


def test_made_by_name_with_a_budget():
    bots = B.make(["search:50", "greedy"], 2, random.Random(0))
    assert isinstance(bots[0], SearchBot) and bots[0].rollouts == 50
    assert bots[1].name == "greedy"
    timed = B.make(["search:200ms"], 2, random.Random(0), clock=lambda: 0.0)[0]
    assert timed.seconds == pytest.approx(0.2)
    assert parse_budget("0.25s") == (None, 0.25) and parse_budget("300") == (300, None)
    for bad in (["search:lots"], ["greedy:5"], ["search:200ms"]):
        with pytest.raises(ValueError):
            B.make(bad, 2, random.Random(0))  # the last: a time budget needs a clock


def test_candidates_call_uno_and_name_colours_held():
    from engine.disney import actions as A
    from engine.disney import cards as C

    wild, vd4, r5 = C.card("W"), C.card("VD4"), C.card("R5")
    legal = [
        A.play(r5),
        A.play(r5, uno=True),
        *(A.play(wild, k) for k in range(4)),
        A.play(vd4),
        A.DRAW,
    ]
    kept = _candidates(legal, [r5, wild, vd4, C.card("B2")])
    assert kept == [A.play(r5, uno=True), A.play(wild, 0), A.play(wild, 1), A.play(vd4), A.DRAW]
