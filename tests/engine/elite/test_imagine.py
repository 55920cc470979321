"""What a determinised world keeps of what its seat has seen: a card recovered in sight, a hand
peeked at, the hand given away in a Swap Hands stay in the imagined hand (less what has left
it since); and no card the seat can place elsewhere is ever dealt to another hand."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.elite import EliteGame
from engine.elite import actions as A
from tests.engine.elite.helpers import (
    CARDS,
    DECK,
    NAMES,
    card,
    codes,
    elite,
    pick,
    play,
    table,
    uno,
)
from tests.engine.elite.helpers import target as target_seat
from tests.engine.elite.test_properties import OPTIONS, _step
from tests.helpers import examples


def _imagined(game: EliteGame, seat: int, subject: int, seeds: int = 20) -> list[Counter]:
    return [
        Counter(codes(game.determinise(seat, random.Random(s)).hands[subject]))
        for s in range(seeds)
    ]


def _swap(players: int = 2) -> EliteGame:
    """Seat 0 plays a Red 3 with the Elite icon, activates Swap Hands at seat 1."""
    game = table(players, hands={0: ["r3e", "g1", "g2", "y7"], 1: ["b1", "b2", "b3"]}, top="r5")
    game.lineups[0] = [elite("T16-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T16-red"))
    game.apply_action(target_seat(1))
    return game


def test_after_a_swap_the_imagined_hand_is_exactly_the_hand_given_away():
    game = _swap()
    assert codes(game.hands[1]) == ["g1", "g2", "y7"]
    for hand in _imagined(game, 0, 1):
        assert hand == Counter(["g1", "g2", "y7"])
    # the other way round: seat 1 knows the hand it gave seat 0
    for hand in _imagined(game, 1, 0):
        assert hand == Counter(["b1", "b2", "b3"])


def test_a_known_card_played_since_is_no_longer_kept():
    game = _swap()
    assert game.current_player() == 1
    game.colour = "green"
    game.apply_action(play(game, "g2"), seat=1)
    imagined = _imagined(game, 0, 1)
    assert all(hand == Counter(["g1", "y7"]) for hand in imagined)


def test_a_card_recovered_in_sight_stays_in_the_imagined_hand():
    game = table(2, hands={0: ["r3e", "g1", "g2", "g3"], 1: ["b1", "b2", "b3"]}, top="r5")
    game.discard = [uno("b7"), uno("y9"), uno("r5")]
    game.lineups[0] = [elite("T15-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T15-red"))
    game.apply_action(card(game, "y9"))
    assert "y9" in codes(game.hands[0])
    for hand in _imagined(game, 1, 0):
        assert hand["y9"] >= 1 and sum(hand.values()) == len(game.hands[0])


def test_a_peeked_hand_is_kept_after_the_peek_is_no_longer_shown():
    game = table(2, hands={0: ["r3e", "g1", "g2", "g3"], 1: ["b1", "b2", "y3"]}, top="r5")
    game.lineups[0] = [elite("T08-red")]
    game.apply_action(play(game, "r3e"))
    game.apply_action(pick(game, "T08-red"))
    game.apply_action(target_seat(1))
    for _ in range(2):  # each draws once: seat 0's peek is no longer shown
        seat = game.current_player()
        game.apply_action(A.DRAW, seat=seat)
        if game.phase == "play_drawn":
            game.apply_action(A.PASS, seat=seat)
    assert "peeked" not in game.observation(0)
    for hand in _imagined(game, 0, 1):
        assert hand & Counter(["b1", "b2", "y3"]) == Counter(["b1", "b2", "y3"])
        assert sum(hand.values()) == len(game.hands[1])


def test_without_anything_seen_the_hand_is_dealt_at_random():
    game = table(2, hands={0: ["r3e", "g1", "g2", "g3"], 1: ["b1", "b2", "b3"]}, top="r5")
    assert len({tuple(sorted(h.elements())) for h in _imagined(game, 0, 1)}) > 1


@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), options=OPTIONS)
def test_what_a_seat_knows_is_true_and_never_dealt_elsewhere(seed, players, options):
    """Over random play: what each seat knows of a hand is in it; an imagined world deals no
    other hand a card the seat holds, sees on the Discard Pile, or knows in a third hand."""
    rng = random.Random(seed)
    game = EliteGame(NAMES[:players], options, cards=CARDS, deck=DECK)
    for _ in range(400):
        if game.is_terminal():
            break
        _step(game, rng)
        if game.is_chance_node():
            continue
        for o in range(players):
            assert not game.known[o][o]
            for s in range(players):
                assert not Counter(game.known[o][s]) - Counter(game.hands[s])
        seat = rng.randrange(players)
        world = game.determinise(seat, rng)
        placed = Counter([*game.hands[seat], *game.discard])
        imagined = Counter(c for s in range(players) if s != seat for c in world.hands[s])
        imagined.update(world.draw)
        assert imagined == Counter(game.deck_cards) - placed
        for s in range(players):
            if s != seat:
                assert not Counter(game.known[seat][s]) - Counter(world.hands[s])
