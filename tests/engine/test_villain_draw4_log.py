"""A Villain Draw 4 in the game's log and in `replay` (issue 52, item 12): its draws are noted
in turn order, as its protections go ("each player will see if they have one card of that color
... in the order of play"), and the colour the summary (`tinker-tray replay`) says is the one
every seat's observation (the page, the terminal) says: none while Tinker Bell's pick waits."""

from __future__ import annotations

from engine import record
from engine.disney import observer
from tests.engine.helpers import game, play, tinker


def _drawn(g, event: int) -> list[tuple[int, int]]:
    return [(note[1], note[2]) for at, note in g.notes if at == event and note[0] == "draws"]


def test_the_villain_draw4_draws_are_noted_in_turn_order_from_the_player_after_hers():
    # dealer 1: seat 2 plays first; nobody else holds red, so 3, 0 and 1 draw four, in order
    g = game(
        4, {2: ["VD4", "B1"], 3: ["B2", "B3"], 0: ["G1", "G2"], 1: ["Y1", "Y2"]}, "B5", dealer=1
    )
    play(g, "VD4")
    tinker(g, "red")
    pick = len(g.events) - 1
    assert g.events[pick] == {"chance": "tinker_bell", "colour": "red"}
    assert _drawn(g, pick) == [(3, 4), (0, 4), (1, 4)]  # not in order of seat: 0, 1, 3
    log = observer.log_lines(g, g.players, None)
    assert log[-3:] == ["P3 draws 4 cards.", "P0 draws 4 cards.", "P1 draws 4 cards."]


def test_going_right_the_draws_are_noted_to_the_right():
    # a Reverse turned up: the player to the dealer's right (seat 3) plays first, going right
    g = game(4, {3: ["VD4", "R1"], 2: ["B2"], 1: ["G1", "Y5"], 0: ["Y1"]}, "RR", dealer=0)
    assert g.current_player() == 3 and g.hand.direction == -1
    play(g, "VD4")
    tinker(g, "green")  # seat 2 draws, seat 1 must protect, then seat 0 draws
    pick = len(g.events) - 1
    assert _drawn(g, pick) == [(2, 4)]
    assert g.awaiting()["kind"] == "protect" and g.awaiting()["seat"] == 1
    g.apply_event({"seat": 1, "act": "protect", "card": "G1"})
    assert _drawn(g, len(g.events) - 1) == [(0, 4)]


def test_several_draws_of_one_protection_come_in_turn_order():
    # seat 3 protects; then 0 and 1 (after 3, before the player of the card) draw, in order
    hands = {2: ["VD4", "B1"], 3: ["R3", "B3"], 4: ["G4"], 0: ["G1"], 1: ["Y1"]}
    g = game(5, hands, "B5", dealer=1)
    play(g, "VD4")
    tinker(g, "red")
    assert (g.awaiting()["kind"], g.awaiting()["seat"]) == ("protect", 3)
    g.apply_event({"seat": 3, "act": "protect", "card": "R3"})
    assert _drawn(g, len(g.events) - 1) == [(4, 4), (0, 4), (1, 4)]


def _replayed(g):
    """The game its record makes (what `tinker-tray replay` prints the summary of)."""
    replayed, _ = record.replay(record.dumps(g))
    return replayed


def test_replay_after_a_villain_draw4_says_the_colour_the_terminal_says():
    g = game(4, {1: ["VD4", "B1"], 2: ["R2"]}, "B5")
    assert g.summary()["colour"] == "blue"
    play(g, "VD4")  # Tinker Bell's pick waits: the blue is no longer in play, hers not yet
    for shown in (g, _replayed(g)):
        assert record.summary(shown)["colour"] is None
        assert shown.observation(None)["colour"] is None
        assert shown.observation(2)["colour"] is None
    tinker(g, "red")
    for shown in (g, _replayed(g)):
        assert record.summary(shown)["colour"] == "red" == shown.observation(None)["colour"]


def test_a_wild_discard_all_waits_without_a_colour_and_a_draw2_keeps_its_own():
    g = game(4, {1: ["WDA", "B1"]}, "B5")
    play(g, "WDA")
    assert record.summary(_replayed(g))["colour"] is None is g.observation(1)["colour"]
    g = game(4, {1: ["BD2", "B1"]}, "B5")
    play(g, "BD2")  # a coloured card calls her: its colour is in play
    assert record.summary(_replayed(g))["colour"] == "blue" == g.observation(1)["colour"]
