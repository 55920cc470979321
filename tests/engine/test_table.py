"""The table session fold: scoring through `engine.disney.scoring`, dealer rotation, undo."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.disney import table as T
from engine.disney.cards import code
from engine.disney.rulesets import DISNEY
from tests.helpers import examples


def start(players=("Ann", "Bea", "Cy"), dealer=0, **options):
    return {"kind": "start", "players": list(players), "dealer": dealer, "options": options}


def hand(winner, *held):
    return {"kind": "hand", "winner": winner, "held": list(held)}


def test_cards_held_are_scored_with_the_rulesets_values():
    t = T.fold([start(), hand(0, None, ["R7", "W", "VD4"], ["GS", "Y0"])])
    h = t.game.hands[0]
    assert h.points == (0, 7 + 50 + 75, 20 + 0)
    assert h.delta == (152, 0, 0)
    assert t.game.sheet.scores == (152, 0, 0)


def test_a_typed_total_counts_as_entered():
    t = T.fold([start(), hand(1, 33, None, ["B9"])])
    assert t.game.sheet.scores == (0, 42, 0)


def test_lowest_wins_charges_each_player_and_names_the_lowest():
    t = T.fold([start(scoring="lowest", target=100), hand(0, None, 60, 30), hand(2, 0, 50, None)])
    assert t.game.sheet.scores == (0, 110, 30)
    assert t.game.over and t.game.winner_names() == ["Ann"]


def test_challenge_eliminates_at_the_target_and_the_last_player_wins():
    t = T.fold([start(scoring="challenge", target=50), hand(0, None, 60, 10)])
    assert t.game.sheet.eliminated == {1}
    with pytest.raises(T.HeldError, match="Bea is out of the game"):
        T.apply(t, hand(0, None, 5, 10))
    t = T.apply(t, hand(0, None, None, 45))
    assert t.game.winner_names() == ["Ann"]


def test_partners_score_for_the_team_and_ignore_the_partners_cards():
    t = T.fold(
        [start(("Ann", "Bea", "Cy", "Dot"), partners=True), hand(0, None, ["R5"], None, ["B5"])]
    )
    assert t.game.sheet.scores == (10, 0, 10, 0)


def test_partners_need_four_players():
    with pytest.raises(T.EntryError, match="partners need exactly four"):
        T.apply(T.EMPTY, start(partners=True))


def test_the_game_ends_at_the_target_and_refuses_more_hands():
    t = T.fold([start(target=100), hand(0, None, 60, 50)])
    assert t.game.over and t.game.winner_names() == ["Ann"]
    with pytest.raises(T.GameOverError, match="Ann won"):
        T.apply(t, hand(1, 5, None, 5))


def test_the_deal_moves_left_each_hand_and_skips_eliminated_players():
    t = T.fold([start(("A", "B", "C", "D"), dealer=2, scoring="challenge", target=50)])
    assert t.game.dealer == 2
    t = T.apply(t, hand(0, None, 10, 10, 60))  # D is out
    assert t.game.hands[0].dealer == 2
    assert t.game.dealer == 0  # D (seat 3) skipped
    t = T.apply(t, {"kind": "dealer", "seat": 2})
    assert t.game.dealer == 2
    t = T.apply(t, hand(0, None, 1, 1, None))
    assert t.game.hands[1].dealer == 2 and t.game.dealer == 0


@pytest.mark.parametrize(
    ("entry", "error", "message"),
    [
        (hand(0, None, ["R7"]), T.HeldError, "each of the 3 players"),
        (hand(0, None, ["ZZ"], 3), T.HeldError, "unknown card 'ZZ'"),
        (hand(0, None, ["W4"], 3), T.HeldError, "no Wild Draw 4 in the Disney"),
        (hand(0, None, ["W"] * 3, ["W"] * 2), T.HeldError, "5 × Wild entered, but the deck has"),
        (hand(0, 5, ["R1"], 3), T.HeldError, "Ann went out and holds no cards"),
        (hand(0, None, None, 3), T.HeldError, "no cards or total entered for Bea"),
        (hand(0, None, -1, 3), T.HeldError, "a total is from 0"),
        (hand(0, None, True, 3), T.HeldError, "whole number"),
        (hand(3, None, 1, 3), T.SeatError, "winner must be a seat from 0 to 2"),
        ({"kind": "hand", "winner": 0}, T.UnknownEntryError, "needs held"),
        ({"kind": "hand", "winner": 0, "held": [], "x": 1}, T.UnknownEntryError, "no field x"),
        ({"kind": "shuffle"}, T.UnknownEntryError, "unknown entry kind 'shuffle'"),
        (
            {"kind": "edit", "hand": 5, "winner": 0, "held": [None, 1, 1]},
            T.EntryError,
            "no hand has been entered yet",
        ),
        ({"kind": "undo"}, T.NothingToUndoError, "nothing to undo"),
        ({"kind": "declare", "card": "R7"}, T.DeclareError, "'R7' has no pixie dust"),
        ({"kind": "pick", "seq": 1, "colour": "purple"}, T.EntryError, "not 'purple'"),
    ],
)
def test_bad_entries_are_refused_by_name_and_change_nothing(entry, error, message):
    t = T.fold([start()])
    with pytest.raises(error, match=message):
        T.apply(t, entry)
    assert T.fold([start()]) == t  # nothing shared was mutated


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (start(players=["Ann"]), "2 to 10 players, not 1"),
        (start(players=[f"P{i}" for i in range(11)]), "not 11"),
        (start(players=["Ann", "ann"]), "two players are called 'ann'"),
        (start(players=["Ann", " "]), "every player needs a name"),
        (start(dealer=3), "dealer must be a seat from 0 to 2"),
        (start(target=0), "option target must be a whole number"),
        (
            start(scoring="highest"),
            'option scoring must be "standard", "lowest" or "challenge", not "highest"',
        ),
        (
            {"kind": "start", "players": ["A", "B"], "ruleset": "elite"},
            "'elite' is no ruleset of the Disney family",
        ),
    ],
)
def test_bad_starts_are_refused(entry, message):
    with pytest.raises(T.EntryError, match=message):
        T.apply(T.EMPTY, entry)


def test_scoring_entries_need_a_game():
    with pytest.raises(T.NoGameError):
        T.apply(T.EMPTY, hand(0, None, 1))


def test_edit_rescores_every_later_hand():
    t = T.fold([start(), hand(0, None, 10, 10), hand(1, 5, None, 5)])
    t = T.apply(t, {"kind": "edit", "hand": 0, "winner": 2, "held": [30, 30, None]})
    assert [h.totals for h in t.game.hands] == [(0, 0, 60), (0, 10, 60)]


def test_an_edit_that_would_end_the_game_before_later_hands_is_refused():
    t = T.fold([start(target=100), hand(0, None, 10, 10), hand(1, 5, None, 5)])
    with pytest.raises(T.GameOverError, match="ends at hand 1"):
        T.apply(t, {"kind": "edit", "hand": 0, "winner": 0, "held": [None, 100, 0]})


def test_void_strikes_a_hand_and_undo_brings_it_back():
    t0 = T.fold([start(), hand(0, None, 10, 10), hand(1, 5, None, 5)])
    t1 = T.apply(t0, {"kind": "void", "hand": 0})
    assert t1.game.sheet.scores == (0, 10, 0)
    assert T.apply(t1, {"kind": "undo"}) == t0


def test_undo_after_a_pick_restores_the_sheet_but_keeps_the_pick():
    t0 = T.fold([start()])
    t1 = T.fold([hand(0, None, 10, 10), {"kind": "pick", "seq": 3, "colour": "blue"}], t0)
    t2 = T.apply(t1, {"kind": "undo"})
    assert t2.game == t0.game
    assert t2.last_pick.seq == 3


# --- the referee -------------------------------------------------------------------------


def referee_after(card, colour, seat=None):
    t = T.fold(
        [
            start(),
            {"kind": "declare", "card": card, "seat": seat},
            {"kind": "pick", "seq": 1, "colour": colour},
        ]
    )
    assert t.declared is None  # a pick resolves the declaration
    return t.last_pick.says


def test_a_matching_draw2_lets_its_player_choose():
    assert referee_after("RD2", "red") == (
        "Tinker Bell chose red: it matches your red Draw 2. Choose who draws 2. "
        "They lose their turn and play goes on from them."
    )
    assert "it matches Bea's red Draw 2. Bea, choose who draws 2" in referee_after("RD2", "red", 1)


def test_a_draw2_of_another_colour_hits_the_next_player():
    says = referee_after("BD2", "yellow")
    assert says.startswith("Tinker Bell chose yellow: it does not match your blue Draw 2.")
    assert "The next player draws 2" in says


def test_discard_all_and_villain_draw4():
    assert "discard all your green cards" in referee_after("WDA", "green").lower()
    says = referee_after("VD4", "blue", 2)
    assert "everyone but Cy" in says and "one blue card" in says and "draws 4" in says


def test_a_pick_with_nothing_declared_explains_every_card():
    t = T.fold([{"kind": "pick", "seq": 9, "colour": "red"}])  # works with no game, too
    assert t.last_pick.declared is None
    cards = dict(T.meanings("red"))
    assert set(cards) == {
        "Red Draw 2",
        "Other Draw 2",
        "Wild Discard All 1 Color",
        "Villain Draw 4",
    }
    assert "red cards" in cards["Wild Discard All 1 Color"]


def test_a_new_game_keeps_the_last_pick_but_not_the_old_sheet():
    t = T.fold(
        [
            start(),
            hand(0, None, 1, 1),
            {"kind": "pick", "seq": 2, "colour": "green"},
            start(("X", "Y")),
        ]
    )
    assert t.game.players == ("X", "Y") and not t.game.hands and not t.undo_stack
    assert t.last_pick.colour == "green"


# --- properties --------------------------------------------------------------------------

CODES = sorted({code(x) for x in DISNEY.deck})


@st.composite
def games(draw):
    n = draw(st.integers(2, 6))
    scoring = draw(st.sampled_from(["standard", "lowest", "challenge"]))
    target = draw(st.integers(50, 400))
    entries = [
        start(
            [f"P{i}" for i in range(n)], draw(st.integers(0, n - 1)), scoring=scoring, target=target
        )
    ]
    table = T.apply(T.EMPTY, entries[0])
    for _ in range(draw(st.integers(0, 12))):
        g = table.game
        if g.over:
            break
        alive = [s for s in range(n) if s not in g.sheet.eliminated]
        winner = draw(st.sampled_from(alive))
        held = []
        for s in range(n):
            if s == winner or s in g.sheet.eliminated:
                held.append(None)
            elif draw(st.booleans()):
                held.append(draw(st.integers(0, 120)))
            else:
                held.append(draw(st.lists(st.sampled_from(CODES), max_size=3)))
        entry = hand(winner, *held)
        try:
            table = T.apply(table, entry)
        except T.HeldError:  # e.g. more Wilds than the deck holds: refused, game unchanged
            continue
        entries.append(entry)
    return entries, table


@settings(max_examples=examples(60), deadline=None)
@given(games())
def test_totals_always_equal_the_sum_of_the_hands_entries(game):
    _, table = game
    g = table.game
    for seat in range(len(g.players)):
        assert g.sheet.scores[seat] == sum(h.delta[seat] for h in g.hands)
    running = [0] * len(g.players)
    for h in g.hands:
        running = [a + b for a, b in zip(running, h.delta, strict=True)]
        assert tuple(running) == h.totals
        if g.opts["scoring"] == "standard":  # the winner scores what the others held
            assert h.delta[h.winner] == sum(h.points)
        else:  # each is charged what they held
            assert all(h.delta[s] == h.points[s] for s in range(len(running)) if s != h.winner)


@settings(max_examples=examples(60), deadline=None)
@given(games(), st.data())
def test_undo_restores_the_previous_state_exactly(game, data):
    entries, _ = game
    states = [T.EMPTY]
    for e in entries:
        states.append(T.apply(states[-1], e))
    # undo every hand one by one: each undo returns exactly the state before that hand
    table = states[-1]
    for before in reversed(states[1:-1]):
        table = T.apply(table, {"kind": "undo"})
        assert table == before
    with pytest.raises(T.NothingToUndoError):
        T.apply(table, {"kind": "undo"})


@settings(max_examples=examples(40), deadline=None)
@given(games())
def test_replaying_the_entries_rebuilds_the_same_state(game):
    entries, table = game
    assert T.fold(entries) == table
    assert T.fold(json.loads(json.dumps(entries))) == table  # as the journal stores them


def test_elvis_vegas_is_ten_per_card_collected_at_the_table():
    """ "Vegas – Count up the number of cards you collected and multiply it by ten." """
    elvis = {**start(), "ruleset": "elvis"}
    t = T.fold([elvis, hand(0, None, ["RV", "G3"], ["B4", "W"])])
    assert t.game.sheet.scores == (10 * 4 + 3 + 4 + 50, 0, 0)
    with pytest.raises(T.HeldError, match="enter every hand as cards"):
        T.fold([elvis, hand(0, None, ["RV", "G3"], 54)])
    t = T.fold([{**elvis, "options": {"scoring": "lowest"}}, hand(0, None, ["RV", "G3"], 7)])
    assert t.game.sheet.scores == (0, 10 * 2 + 3, 7)


def test_elvis_partners_rotation_at_the_table():
    """ "play four hands with each other player as your partner": seat 0 partners seat 3 in
    hands 1-4, then seat 2 in hands 5-8; the partner's cards are not entered."""
    rot = {
        **start(("Ann", "Bea", "Cy", "Dot")),
        "ruleset": "elvis",
        "options": {"partners_rotation": True},
    }
    entries = [rot] + [hand(0, None, ["R5"], ["B1"], None)] * 4
    entries += [hand(0, None, ["R5"], None, ["B1"])]
    t = T.fold(entries)
    assert t.game.sheet.scores == (4 * 6 + 6, 0, 6, 4 * 6)


@settings(max_examples=examples(60), deadline=None)
@given(games())
def test_a_new_hand_settled_alone_equals_the_whole_game_settled_again(game):
    """A hand entry settles only the new hand (a long game folds in linear time); settling
    every hand again from a fresh sheet must give the same game."""
    _, table = game
    g = table.game
    assert T._rescore(g, T._records(g)) == g


@st.composite
def sheets(draw):
    """Random score sheets as a table builds them: hands, dealer corrections, edits, voids and
    undos, interleaved; Challenge UNO so that players drop out and the deal skips them. Returns
    the accepted entries and the tables after each (the start first)."""
    n = draw(st.integers(2, 6))
    entry = start(
        [f"P{i}" for i in range(n)],
        draw(st.integers(0, n - 1)),
        scoring=draw(st.sampled_from(["standard", "challenge"])),
        target=draw(st.integers(40, 300)),
    )
    states = [T.apply(T.EMPTY, entry)]
    entries = [entry]
    for _ in range(draw(st.integers(0, 30))):
        g = states[-1].game
        kind = draw(st.sampled_from(["hand"] * 4 + ["dealer", "edit", "void", "undo"]))
        winner = draw(st.integers(0, n - 1))
        held = [None if s == winner else draw(st.integers(0, 60)) for s in range(n)]
        index = draw(st.integers(0, max(0, len(g.hands) - 1)))
        entry = {
            "hand": {"kind": "hand", "winner": winner, "held": held},
            "dealer": {"kind": "dealer", "seat": winner},
            "edit": {"kind": "edit", "hand": index, "winner": winner, "held": held},
            "void": {"kind": "void", "hand": index},
            "undo": {"kind": "undo"},
        }[kind]
        try:
            states.append(T.apply(states[-1], entry))
        except T.EntryError:  # refused (a player out, the game over...): nothing changed
            continue
        entries.append(entry)
    return entries, states


@pytest.mark.slow
@settings(max_examples=examples(100), deadline=None)
@given(sheets())
def test_each_dealer_equals_the_walk_over_every_earlier_hand(sheet):
    """The fold takes each hand's dealer from the hand before it (constant time); the
    definition walks from the first dealer (or the latest correction) over every hand since."""
    _, states = sheet
    for table in states:
        g = table.game
        for k, h in enumerate(g.hands):
            assert h.dealer == T.dealer_by_walk(g, k)
        assert g.dealer == T.dealer_by_walk(g, len(g.hands))
        assert T._rescore(g, T._records(g)) == g


@pytest.mark.slow
@settings(max_examples=examples(60), deadline=None)
@given(sheets())
def test_undo_returns_to_the_game_before_each_entry_it_takes_back(sheet):
    """An undo after a hand keeps only the sheet from before it, not the whole game: what it
    returns to must still be exactly the game before that hand (a model stack of whole games
    says which)."""
    entries, states = sheet
    model: list[T.TableGame] = []
    for entry, before, after in zip(entries[1:], states[:-1], states[1:], strict=True):
        if entry["kind"] == "undo":
            assert after.game == model.pop()
        else:
            model.append(before.game)
    table = states[-1]
    while model:
        table = T.apply(table, {"kind": "undo"})
        assert table.game == model.pop()
    assert table.undo_stack is None
