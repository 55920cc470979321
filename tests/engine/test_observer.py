"""The observer shows a seat its own hand and the public game, nothing more: a seat's view stays
the same whatever the cards it cannot see are (the other hands, the draw pile). Its log says what
each event did that the event does not say (the game's notes), as the game plays and after a
replay of its record."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.bots import RandomBot
from engine.disney import cards as C
from engine.disney import observer
from engine.disney.game import CHANCE, Game
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
    before = json.dumps(g.observation(seat))
    _hide_differently(g, seat, random.Random(seed + 1))
    after = json.dumps(g.observation(seat))
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
    watching = g.observation(None)
    assert watching["hand"] == [] and watching["legal"] == []
    seat = seed % players
    pos = g.hand.pos_of.get(seat)
    view = g.observation(seat)
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
    bot = RandomBot(rng)
    while g.hand_no < 3:
        if g.current_player() == CHANCE:
            g.sample_chance(rng)
        else:
            g.apply_action(bot.act(g))
    notes: dict[int, list[tuple]] = {}
    for i, note in g.notes:
        notes.setdefault(i, []).append(note)
    dealt = [i for i, said in notes.items() if any(n[0] == "turned" for n in said)]
    assert len(dealt) == 3  # the first deal, and two more
    ended = [i for i, said in notes.items() if any(n[0] == "hand" for n in said)]
    for before, i in itertools.pairwise(dealt):
        assert "draws" not in [n[0] for n in notes[i]], notes[i]
        assert any(before < e <= i for e in ended)  # who won the hand, then the next deal


def _step(g: Game, rng: random.Random, bot: RandomBot) -> None:
    """One random step: chance, an out-of-turn call now and then, or the move."""
    if g.current_player() == CHANCE:
        g.sample_chance(rng)
        return
    calls = g.interjections()
    if calls and rng.random() < 0.4:
        seat, action = rng.choice(calls)
        g.apply_action(action, seat)
        return
    g.apply_action(bot.act(g))


def _expected_lines(g: Game, before: list[int], hands: int, hand_no: int) -> list[str]:
    """What the log must say of the step just taken, found from the public view alone: who
    gained cards without the event saying it, a hand over, a hand dealt."""
    seen = g.observation(None)
    names = [p["name"] for p in seen["players"]]
    if g.hand_no != hand_no:
        return [f"Hand {g.hand_no} is dealt: the card turned up is {C.name(g.hand.discard[0])}."]
    event = g.events[-1]
    own = event.get("act") in ("draw", "take", "misplay", "pass")
    lines = []
    for s, p in enumerate(seen["players"]):
        gained = p["cards"] - before[s]
        if gained > 0 and not (own and event.get("seat") == s):
            lines.append(f"{names[s]} draws {gained} card{'s' if gained != 1 else ''}.")
    if len(seen["hands"]) > hands:
        x = seen["hands"][-1]
        lines.append(
            f"Hand {x['hand']} is over: {x['winner']} went out and scored {x['points']} points."
        )
    return lines


@settings(max_examples=examples(6), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ruleset=st.sampled_from(RULESETS), players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_the_log_says_what_each_event_did_that_it_does_not_say(ruleset, players, seed):
    """Step by step, every card a seat gained that the event does not say it drew (penalties,
    Draw 2s, catches, challenges, Tinker Bell), every hand over and every deal is in the
    observation's log at once, counted from the public view itself; and the log is the same
    after the record is replayed (a resumed game) and in a clone."""
    rng = random.Random(seed)
    g = Game(ruleset, [f"P{s}" for s in range(players)], 0, {"target": 250})
    g.start_hand(g.shuffled_deck(rng))
    assert g.observation(None)["log"][0].startswith("Hand 1 is dealt: the card turned up is")
    bot, said = RandomBot(rng), 0
    for _ in range(1500):
        if g.is_terminal():
            break
        seen = g.observation(None)
        before = [p["cards"] for p in seen["players"]]
        hands, hand_no = len(seen["hands"]), g.hand_no
        _step(g, rng, bot)
        log = g.observation(None)["log"]
        for line in _expected_lines(g, before, hands, hand_no):
            assert line in log, (line, log[-4:])
            said += 1
    assert said > 0
    again = record.game_from_header(json.loads(g.record().splitlines()[0]))
    for line in g.record().splitlines()[1:]:
        again.apply_event(json.loads(line))
    for seat in (None, *range(players)):
        assert again.observation(seat)["log"] == g.observation(seat)["log"]
    assert again.notes == g.notes == g.clone().notes


def test_a_long_games_log_names_its_latest_events_with_their_notes():
    """The log is read from the last events (a long game's page costs no more), each with its
    notes: a penalty draw long after the first deal is still said."""
    rng = random.Random(4)
    g = Game("disney", ["Ann", "Bea", "Cy"], 0, {"target": 100_000})
    g.start_hand(g.shuffled_deck(rng))
    bot = RandomBot(rng)
    while len(g.events) < 3000 or g.notes[-1][0] != len(g.events) - 1:  # the last event's
        _step(g, rng, bot)
    note = g.notes[-1][1]
    log = g.observation(None)["log"]
    assert "Hand 1 is dealt" not in " ".join(log)
    words = {"draws": "draws", "turned": "is dealt", "hand": "is over"}[note[0]]
    assert words in log[-1], (note, log)
