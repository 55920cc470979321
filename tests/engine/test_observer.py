"""The observer shows a seat its own hand and the public game, nothing more: a seat's view stays
the same whatever the cards it cannot see are (the other hands, the draw pile)."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import observer
from engine.bots import RandomBot
from engine.game import CHANCE, Game
from tests.helpers import examples

RULESETS = ("disney", "classic", "official-2018", "elvis")


def _played(ruleset: str, players: int, seed: int, moves: int) -> Game:
    """A game of random bots, `moves` decisions in (or over already)."""
    rng = random.Random(seed)
    g = Game(ruleset, [f"P{s}" for s in range(players)])
    g.start_hand(g.shuffled_deck(rng))
    bot = RandomBot(rng)
    for _ in range(moves):
        if g.is_terminal():
            break
        if g.current_player() == CHANCE:
            g.sample_chance(rng)
        else:
            g.apply_action(bot.act(g))
    return g


def _hide_differently(g: Game, seat: int, rng: random.Random) -> None:
    """Deal the cards `seat` cannot see (other hands, the draw pile) again, same counts."""
    h = g.hand
    mine = h.pos_of[seat]
    others = [p for p in range(len(h.hands)) if p != mine]
    unseen = [c for p in others for c in h.hands[p]] + list(h.draw)
    rng.shuffle(unseen)
    for p in others:
        n = len(h.hands[p])
        h.hands[p][:] = unseen[:n]
        del unseen[:n]
    h.draw[:] = unseen


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 150),
)
def test_a_seats_view_does_not_depend_on_the_cards_it_cannot_see(ruleset, players, seed, moves):
    g = _played(ruleset, players, seed, moves)
    if g.hand is None or g.is_terminal() or g.hand.is_over():
        return
    seat = seed % players
    if seat not in g.hand.pos_of:
        return
    before = json.dumps(observer.seat_view(g, seat, frozenset({seat}), False))
    _hide_differently(g, seat, random.Random(seed + 1))
    after = json.dumps(observer.seat_view(g, seat, frozenset({seat}), False))
    assert after == before


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(RULESETS),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    moves=st.integers(1, 150),
)
def test_a_spectator_sees_no_hand_and_a_seat_only_its_own(ruleset, players, seed, moves):
    g = _played(ruleset, players, seed, moves)
    if g.hand is None:
        return
    watching = observer.seat_view(g, None, frozenset(), False)
    assert watching["hand"] == [] and watching["moves"] == []
    seat = seed % players
    pos = g.hand.pos_of.get(seat)
    view = observer.seat_view(g, seat, frozenset({seat}), False)
    if pos is not None and not g.is_terminal():
        assert sorted(c["code"] for c in view["hand"]) == sorted(
            observer.card_view(c)["code"] for c in g.hand.hands[pos]
        )
    assert [p["cards"] for p in view["players"]] == [p["cards"] for p in watching["players"]]


def test_events_read_from_the_seats_point_of_view():
    names = ["Ann", "Bob"]
    play = {"seat": 0, "act": "play", "card": "R7"}
    assert observer.event_words(play, names, you=0) == "You play Red 7."
    assert observer.event_words(play, names, you=1) == "Ann plays Red 7."
    catch = {"seat": 1, "act": "catch", "target": 0}
    assert observer.event_words(catch, names, you=0) == "Bob catches you without UNO."
    assert observer.event_words({"chance": "new_hand", "deck": ["R1"]}, names) is None


def test_a_new_deal_is_a_deal_not_a_draw():
    """After a hand ends, the log says who won it and the card turned up for the next: the cards
    dealt are not read as each player drawing (which players take for a penalty)."""
    rng = random.Random(11)
    g = Game("disney", ["Ann", "Bea", "Cy"], 0, {"target": 10_000})
    g.start_hand(g.shuffled_deck(rng))
    notes = observer.EventNotes(g)
    bot = RandomBot(rng)
    while g.hand_no < 3:
        if g.current_player() == CHANCE:
            g.sample_chance(rng)
        else:
            g.apply_action(bot.act(g))
        notes.follow(g)
    dealt = [i for i, said in notes.notes.items() if any(n[0] == "turned" for n in said)]
    assert len(dealt) == 3  # the first deal, and two more
    ended = [i for i, said in notes.notes.items() if any(n[0] == "hand" for n in said)]
    for before, i in itertools.pairwise(dealt):
        assert "draws" not in [n[0] for n in notes.notes[i]], notes.notes[i]
        assert any(before < e <= i for e in ended)  # who won the hand, then the next deal
