"""Invariants over random Elite play (hypothesis): every card accounted for after every action,
only legal actions offered, a refused action changes nothing, any game replays from its record
byte for byte, games end."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.bots import RandomBot, offer_calls
from engine.elite import EliteGame, RuleError
from engine.elite import actions as A
from engine.elite import steps as S
from engine.elite.simulate import play_game
from tests.engine.elite.helpers import CARDS, DECK, NAMES
from tests.helpers import examples

OPTIONS = st.fixed_dictionaries(
    {"mode": st.sampled_from(["quick", "draft"])},
    optional={
        "box": st.sampled_from(["base", "all"]),
        "two_player_reverse": st.sampled_from(["reverse", "skip"]),
        "discard_last_card": st.sampled_from(["keep", "discard"]),
    },
)
SLOW = [HealthCheck.too_slow]


def _elite_held(game: EliteGame) -> Counter:
    held = Counter()
    for seat in range(game.n):
        held.update(game.lineups[seat] + game.player_decks[seat] + game.elite_discards[seat])
    held.update(c for s in game.steps if s.kind == S.RETIRE and (c := S.detail(s).card) is not None)
    return held


def _check_conserved(game: EliteGame, elite: Counter) -> None:
    uno = Counter(game.draw + game.discard)
    for hand in game.hands:
        uno.update(hand)
    assert uno == Counter(game.deck_cards)
    assert _elite_held(game) == elite
    assert all(len(x) <= 3 for x in game.lineups)


def _step(game: EliteGame, rng: random.Random) -> None:
    if game.is_chance_node():
        game.sample_chance(rng)
        return
    if offer_calls(game, [RandomBot(rng)] * game.n):  # (the bots' one policy, one random bot)
        return
    game.apply_action(RandomBot(rng).act(game), game.current_player())


@settings(max_examples=examples(12), deadline=None, suppress_health_check=SLOW)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=OPTIONS)
def test_cards_are_conserved_across_piles_hands_decks_lineups_and_elite_discards(
    seed, players, options
):
    rng = random.Random(seed)
    game = EliteGame(NAMES[:players], options, cards=CARDS, deck=DECK)
    while game.phase not in (S.TURN, S.OVER):
        _step(game, rng)
    elite = _elite_held(game)
    assert sum(elite.values()) == 8 * players
    for _ in range(3000):
        if game.is_terminal():
            break
        _step(game, rng)
        _check_conserved(game, elite)


STATIC = {"elite_cards", "elite_index", "kinds", "kind_of", "deck_cards", "given_options"}


def _fingerprint(game: EliteGame) -> bytes:
    """Everything that can change (pickled: equal bytes for an equal state)."""
    return pickle.dumps({k: v for k, v in vars(game).items() if k not in STATIC})


@settings(max_examples=examples(10), deadline=None, suppress_health_check=SLOW)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), options=OPTIONS)
def test_a_refused_action_changes_nothing_and_every_legal_action_applies(seed, players, options):
    rng = random.Random(seed)
    game = EliteGame(NAMES[:players], options, cards=CARDS)
    for _ in range(400):
        if game.is_terminal():
            break
        if not game.is_chance_node() and rng.random() < 0.2:
            seat = rng.randrange(players)
            legal = set(game.legal_actions(seat))
            wrong = rng.choice([a for a in range(0, 10400, 7) if a not in legal])
            before = _fingerprint(game)
            try:
                game.apply_action(wrong, seat)
            except RuleError:
                pass
            else:
                raise AssertionError(f"action {wrong} by {seat} was not refused")
            assert _fingerprint(game) == before
        _step(game, rng)


@settings(max_examples=examples(10), deadline=None, suppress_health_check=SLOW)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    options=OPTIONS,
    bots=st.sampled_from([["random"], ["greedy"], ["greedy", "random"]]),
)
def test_any_game_replays_from_its_record_byte_for_byte(seed, players, options, bots):
    game = EliteGame(NAMES[:players], options, cards=CARDS)
    play_game(game, [bots[s % len(bots)] for s in range(players)], random.Random(seed))
    assert game.is_terminal()
    text = record.dumps(game)
    objects = [(i, json.loads(line)) for i, line in enumerate(text.splitlines(), start=1)]
    again, count = record.replay_objects(objects)
    assert count == len(game.events)
    assert record.dumps(again) == text
    assert again.winner == game.winner and record.summary(again) == record.summary(game)


def test_a_dynasty_game_replays_too():
    from tests.engine.elite.test_setup import _legal_deck

    game = EliteGame(NAMES[:2], {"mode": "dynasty", "decks": [_legal_deck(), _legal_deck()]})
    play_game(game, ["greedy", "random"], random.Random(4))
    text = record.dumps(game)
    again, _ = record.replay_objects((i, json.loads(x)) for i, x in enumerate(text.splitlines()))
    assert record.dumps(again) == text and again.winner == game.winner


def test_the_legal_actions_of_a_seat_not_to_move_are_only_calls():
    game = EliteGame(NAMES[:3], {}, cards=CARDS)
    rng = random.Random(1)
    while game.is_chance_node():
        game.sample_chance(rng)
    for seat in (1, 2):
        assert all(a == A.UNO or A.CATCH <= a < A.CARD for a in game.legal_actions(seat))
