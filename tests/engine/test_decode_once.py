"""One path for every action (`Hand.apply`): the action is taken apart once per move, and the
hand writes its own event into the game's record after the move."""

import random
from collections import Counter
from collections.abc import Iterator

import pytest

import engine.disney.hand
from engine.disney import actions as A
from engine.disney.game import Game
from engine.errors import RuleError

COMPILED = not engine.disney.hand.__file__.endswith(".py")

TABLES = [
    ("disney", {}),
    ("classic", {}),
    ("official-2018", {"six_smackdown": True, "jump_in": True, "seven_o": True}),
    ("elvis", {}),
]
READ_AGAIN = {A.Kind.COLOUR: 2, A.Kind.TARGET: 2}
"""The decisions whose move (`disney.moves.colour`, `target`) reads the colour or seat from the
action again: every other action is taken apart once."""


def _moves(game: Game, rng: random.Random) -> Iterator[tuple[int, int | None]]:
    """The hand dealt played to its end, calls out of turn now and then: each (action, seat) for
    the caller to apply (cards of an order are placed here, one order at a time)."""
    while game.dealt().phase != "over":
        if game.is_chance_node():
            if game.chance_kind() not in ("tinker_bell", "smackdown"):
                game.sample_chance(rng)
                continue
            outcomes = game.chance_outcomes()
            action, seat = outcomes[rng.randrange(len(outcomes))][0], None
        elif (calls := game.interjections()) and rng.random() < 0.3:
            seat, action = calls[rng.randrange(len(calls))]
        else:
            legal = game.legal_actions()
            action, seat = legal[rng.randrange(len(legal))], None
        yield action, seat


@pytest.mark.skipif(COMPILED, reason="a compiled engine calls decode natively, past any spy")
def test_each_recorded_move_takes_its_action_apart_once(mocker):
    decode, kind = mocker.spy(A, "decode"), mocker.spy(A, "kind")
    seen: Counter[A.Kind] = Counter()
    for ruleset, options in TABLES:
        for seed in range(2):
            rng = random.Random(seed)
            game = Game(ruleset, ["a", "b", "c", "d"], options=options)
            game.start_hand(game.shuffled_deck(rng))
            for action, seat in _moves(game, rng):
                what = A.Kind(A.KIND_OF[action])  # (read from the table: no call counted)
                decode.reset_mock()
                kind.reset_mock()
                game.apply_action(action, seat)
                taken_apart = decode.call_count + kind.call_count
                assert taken_apart == READ_AGAIN.get(what, 1), (what, ruleset)
                seen[what] += 1
    assert {A.Kind.PLAY, A.Kind.DRAW, A.Kind.PICK, A.Kind.CHALLENGE, A.Kind.SLAP} <= set(seen)
    assert {A.Kind.CATCH, A.Kind.TAKE, A.Kind.FLIP, A.Kind.PASS} <= set(seen)


def test_the_hand_writes_its_own_event_after_the_move():
    game = Game("disney", ["Ann", "Ben", "Cy"])
    game.start_hand(game.shuffled_deck(random.Random(5)))
    hand = game.dealt()
    seat, action = hand.seats[hand.to_move], hand.legal_actions()[-1]  # (a draw, or a card)
    hand.apply(action)  # the hand itself, not the game
    assert len(game.events) == 1
    assert game.events[-1]["seat"] == seat
    assert game.events[-1]["act"] == ("draw" if action == A.DRAW else "play")


def test_a_copy_of_the_hand_records_nothing_and_a_copy_of_the_game_its_own_record():
    game = Game("disney", ["Ann", "Ben"])
    game.start_hand(game.shuffled_deck(random.Random(2)))
    first = game.legal_actions()[0]
    trial = game.dealt().clone()
    trial.apply(first)
    assert game.events == []
    game.apply_action(first)
    twin = game.clone()
    assert twin.events == game.events and twin.events is not game.events
    assert twin.dealt().log is twin.log is not game.log
    twin.forget_record()
    assert twin.events == [] and twin.dealt().log is None and len(game.events) == 1


def test_her_pick_when_nobody_waits_for_her_is_refused_as_before_at_a_hand_s_end():
    """Tinker Bell's pick through the one path is refused by her rule even once the hand is
    over (as the game refused it when it took her pick past the hand's `apply`)."""
    rng = random.Random(1)
    game = Game("disney", ["a", "b", "c"])
    game.start_hand(game.shuffled_deck(rng))
    for action, seat in _moves(game, rng):
        game.apply_action(action, seat)
    events = list(game.events)
    with pytest.raises(RuleError) as refused:
        game.apply_action(A.PICK + 2)
    assert refused.value.rule == "tinker-bell" and game.events == events
