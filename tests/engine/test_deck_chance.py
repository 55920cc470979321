"""The Disney engine's orders of many cards (a new hand's deck, a reshuffle, Wild Shuffle Hands)
are chance nodes listing which card comes next, taken one at a time through `apply_action`
(disney/deckchance.py): every card placed once, into the one record event a whole order makes,
the same state as that order applied whole, nothing shown to the players until it is complete."""

import random
from collections import Counter

import pytest

from engine import record
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import deckchance, notation
from engine.disney.game import Game
from engine.disney.hand import RuleError
from engine.errors import EventError
from engine.protocol import CHANCE

SHUFFLE_HANDS = {"wild_customizable": "shuffle_hands", "target": 500}
EVERY_ORDER = pytest.mark.parametrize(
    "kind,ruleset,options",
    [
        ("new_hand", "disney", None),
        ("reshuffle", "disney", None),
        ("shuffle_hands", "official-2018", SHUFFLE_HANDS),
    ],
)
"""Each order of cards, reached in a game of a ruleset that has it."""


def reach(kind: str, ruleset: str = "disney", options=None, seed: int = 0, when=bool) -> Game:
    """A seeded game, played at random with chance sampled, until `kind` is pending (a new deck:
    the second hand's, whose event is in the record) and `when(game)` holds."""
    for s in range(seed, seed + 300):
        rng = random.Random(s)
        g = Game(ruleset, ["Ann", "Ben", "Cy"], 0, options or {"target": 500})
        while not g.is_terminal():
            if g.current_player() != CHANCE:
                g.apply_action(rng.choice(g.legal_actions()))
            elif g.chance_kind() == kind and g.hand is not None and when(g):
                return g
            else:
                g.sample_chance(rng)
    raise AssertionError(f"no {kind} in 300 seeded games")


def whole(g: Game, kind: str, order: list[int]) -> None:
    """The order applied whole, as a record's event is."""
    if kind == "new_hand":
        g.start_hand(order)
    elif kind == "reshuffle":
        g.apply_reshuffle(order)
    else:
        g.apply_shuffle_hands(order)


def shown(g: Game) -> list:
    """What every seat and a spectator see."""
    return [g.observation(s) for s in (None, *range(len(g.players)))]


def place_every_card(g: Game, rng: random.Random) -> list[int]:
    """Place the pending order one listed outcome at a time, each list checked; the order."""
    kind, pool = g.chance_kind(), deckchance.pool(g)
    before = shown(g)
    placed: list[int] = []
    for _ in pool:
        assert g.current_player() == CHANCE and g.chance_kind() == kind
        assert g.legal_actions() == [] and (g.interjections() == [] or not placed)
        outcomes = g.chance_outcomes()
        left = Counter(pool) - Counter(placed)
        assert outcomes == [(A.CARD_NEXT + c, n / left.total()) for c, n in sorted(left.items())]
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        if placed:
            assert shown(g) == before  # the partial order is nobody's to see
        g.apply_action(action)
        placed.append(action - A.CARD_NEXT)
    assert Counter(placed) == Counter(pool) and g.ordered == []
    return placed


def check_one_event_and_the_whole_order(kind: str, g: Game, seed: int) -> None:
    twin, events = g.clone(), len(g.events)
    order = place_every_card(g, random.Random(seed))
    whole(twin, kind, order)
    (event,) = g.events[events:]
    assert event == {"chance": kind, "deck": [C.code(c) for c in order]}
    assert g.record() == twin.record() and g.summary() == twin.summary()
    assert shown(g) == shown(twin)
    assert Counter(g.dealt().all_cards()) == Counter(g.rules.deck)  # every card accounted for
    rng = random.Random(seed)
    while not g.is_terminal() and g.hand_no < 3:  # play on a little, then replay it all
        if g.current_player() == CHANCE:
            g.sample_chance(rng)
        else:
            g.apply_action(rng.choice(g.legal_actions()))
    again, _ = record.replay(g.record())
    assert again.summary() == g.summary() and again.record() == g.record()


def test_a_new_hands_deck_is_placed_one_listed_card_at_a_time_into_one_event():
    g = reach("new_hand")
    assert g.hand_no == 1 and len(deckchance.pool(g)) == 112
    check_one_event_and_the_whole_order("new_hand", g, 1)
    assert g.hand_no >= 2


def test_the_first_deal_placed_one_card_at_a_time_is_the_headers_deck():
    g = Game("disney", ["Ann", "Ben", "Cy"], 0, {"target": 500})
    assert not g.header_ready()
    order = place_every_card(g, random.Random(4))
    assert g.header_ready() and g.header()["deck"] == [C.code(c) for c in order]
    assert g.events == [] and g.current_player() >= 0
    twin = Game("disney", ["Ann", "Ben", "Cy"], 0, {"target": 500})
    twin.start_hand(order)
    assert shown(g) == shown(twin) and g.record() == twin.record()


def test_a_reshuffle_is_placed_one_listed_card_at_a_time_into_one_event():
    g = reach("reshuffle")
    assert len(deckchance.pool(g)) == len(g.dealt().discard) - 1
    check_one_event_and_the_whole_order("reshuffle", g, 2)


def test_wild_shuffle_hands_are_placed_one_listed_card_at_a_time_into_one_event():
    g = reach("shuffle_hands", "official-2018", SHUFFLE_HANDS)
    assert Counter(deckchance.pool(g)) == Counter(c for h in g.dealt().hands for c in h)
    check_one_event_and_the_whole_order("shuffle_hands", g, 3)


def state_of(g: Game) -> tuple:
    return g.record(), g.summary(), list(g.ordered), g.chance_outcomes(), shown(g)


@EVERY_ORDER
def test_an_outcome_not_listed_is_refused_and_changes_nothing(kind, ruleset, options):
    g = reach(kind, ruleset, options)
    outcomes = [a for a, _ in g.chance_outcomes()]
    g.apply_action(outcomes[0])  # one card placed: the rest must wait for the order's end
    left = [a for a, _ in g.chance_outcomes()]
    absent = [A.CARD_NEXT + c for c in range(C.NCARDS) if A.CARD_NEXT + c not in left]
    assert absent  # a card of no copy left, or no card at all (ids without a card)
    before = state_of(g)
    for action in (*absent, A.DRAW, A.play(0), A.PICK + 1, A.UNO, A.SIZE, -1):
        with pytest.raises(RuleError) as caught:
            g.apply_action(action)
        assert caught.value.rule == "chance"
        assert "not an outcome" in str(caught.value)
        assert state_of(g) == before
    with pytest.raises(RuleError):
        g.apply_action(A.CATCH + 0, 1)  # nothing comes between the cards of one order
    assert state_of(g) == before


def test_nobody_calls_out_of_turn_between_the_cards_of_one_order():
    """A catch offered as a Wild Shuffle Hands waits is still offered (and taken) before its
    first card is placed, and none once one is: the order is one chance event."""
    g = reach("shuffle_hands", "official-2018", SHUFFLE_HANDS, when=lambda g: g.interjections())
    seat, catch = next((s, a) for s, a in g.interjections() if A.kind(a) == A.Kind.CATCH)
    g.clone().apply_action(catch, seat)  # offered, and taken, with nothing placed
    g.apply_action(g.chance_outcomes()[0][0])
    assert g.interjections() == [] and g.observation(seat)["calls"] == []
    before = state_of(g)
    with pytest.raises(RuleError) as caught:
        g.apply_action(catch, seat)
    assert caught.value.rule == "chance" and state_of(g) == before


def test_a_card_outcome_away_from_an_order_of_cards_is_refused():
    g = Game("disney", ["Ann", "Ben"], 0, {"target": 500})
    g.sample_chance(random.Random(1))
    assert g.current_player() >= 0
    before = state_of(g)
    with pytest.raises(RuleError) as caught:
        g.apply_action(A.CARD_NEXT + 5)
    assert caught.value.rule == "chance" and "no order of cards" in str(caught.value)
    assert state_of(g) == before and g.chance_outcomes() == []


def test_a_clone_in_the_middle_of_placing_places_on_its_own():
    g = reach("reshuffle")
    for action, _ in g.chance_outcomes()[:2]:
        g.apply_action(action)
    twin = g.clone()
    assert twin.ordered == g.ordered and twin.chance_outcomes() == g.chance_outcomes()
    before = state_of(g)
    top = list(g.ordered)
    twin_order = top + place_rest(twin, random.Random(7))
    assert state_of(g) == before  # the copy's cards are its own
    order = top + place_rest(g, random.Random(8))
    assert twin_order[:2] == order[:2] and Counter(twin_order) == Counter(order)
    assert twin.events[-1]["deck"] == [C.code(c) for c in twin_order]
    assert g.events[-1]["deck"] == [C.code(c) for c in order]


def place_rest(g: Game, rng: random.Random) -> list[int]:
    placed = []
    while g.ordered or not placed:
        action = rng.choice(g.chance_outcomes())[0]
        placed.append(action - A.CARD_NEXT)
        g.apply_action(action)
    return placed


@EVERY_ORDER
def test_a_sample_after_cards_placed_one_at_a_time_keeps_them_on_top(kind, ruleset, options):
    g = reach(kind, ruleset, options)
    pool = deckchance.pool(g)
    first = [a for a, _ in g.chance_outcomes()][-3:]
    for action in first:
        g.apply_action(action)
    events = len(g.events)
    g.sample_chance(random.Random(2))
    (event,) = g.events[events:]
    assert event["chance"] == kind and g.ordered == []
    assert event["deck"][:3] == [C.code(a - A.CARD_NEXT) for a in first]
    assert Counter(C.cards(event["deck"])) == Counter(pool)
    assert Counter(g.dealt().all_cards()) == Counter(g.rules.deck)


@EVERY_ORDER
def test_a_sampled_order_with_nothing_placed_is_drawn_as_before(kind, ruleset, options):
    g = reach(kind, ruleset, options)
    h = g.dealt()
    expected = {
        "new_hand": lambda: list(g.rules.deck),
        "reshuffle": h.reshuffle_pool,
        "shuffle_hands": h.shuffle_pool,
    }[kind]()
    random.Random(9).shuffle(expected)
    events = len(g.events)
    g.sample_chance(random.Random(9))
    assert g.events[events]["deck"] == [C.code(c) for c in expected]


def test_a_card_outcome_in_words_and_taken_apart():
    g = Game("disney", ["Ann", "Ben"])
    action = A.CARD_NEXT + C.card("R7")
    assert A.decode(action) == A.Decoded(A.Kind.CARD_NEXT, C.card("R7"))
    assert A.kind(action) == A.Kind.CARD_NEXT and action < A.SIZE
    assert g.describe(action) == "the next card is Red 7"
    assert A.kind(A.CARD_NEXT - 1) == A.Kind.UNKNOWN and A.kind(A.SIZE) == A.Kind.UNKNOWN
    g.sample_chance(random.Random(3))
    with pytest.raises(EventError):
        notation.event_for(g.dealt(), 0, A.decode(action))  # a chance outcome is no player's event
