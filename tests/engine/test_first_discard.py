"""The card turned up as the first discard (issue 52, item 4): every ruleset, every option alone
and all of them together, every card that can be turned up, held to what the rule books say.

A number card turned up is a number card under every house rule: Seven-O's 7 and 0 and
6-Smackdown's 6 do what they do when "played", and a card turned up is not played
(docs/RULES-MAP.md, seven-o-first-discard and smackdown-first-discard). What each action card
does turned up, in the books' words:

- disney: "If this card is turned over at the beginning of play, the player to the left of the
  dealer is skipped" (Skip); "the player to the right of the dealer plays first, and play then
  goes to the right" (Reverse); "the player to the left of the dealer will hit the Tinker Bell
  Button" (Draw 2); "If a wild card is turned up at the beginning of play, the person to the left
  of the dealer chooses the color to begin play and plays the first card"; "If the top card is a
  Discard All 1 Color Wild, or Villain Draw 4, return it to the deck and pick another card."
- classic: "the player to the dealer’s left must respond by discarding, playing wild cards, or
  drawing from the stock. However, there is 1 exception to this rule: IF the dealer flips a
  “Wild Draw 4” card ... this card is returned to the deck" (a Wild: its colour named, RULES-MAP).
- official-2018, "Card Effect As First Discard": Reverse "The dealer plays first; the play
  proceeds counterclockwise"; Draw Two "The player to the dealer’s left draws two cards and
  misses a turn"; Wild "The player to the dealer’s left declares the first color to be matched
  and takes the first turn"; Wild Draw Four "The card is returned to the deck"; the Skip as a
  Skip, Wild Shuffle Hands and the Wild Customizable as a Wild (RULES-MAP).
- elvis: Draw 2 "the player to the left of the dealer has to draw two cards and they lose their
  turn"; Reverse "the dealer plays the first card and play moves counter-clockwise/right";
  Skip "the player to the left of the dealer loses their turn"; "If you turn over a Wild Draw
  Four or a Vegas card, you will return it to the deck and draw a new card."
- elite: "If this card is an UNO® Action Card, ignore it and flip over the next card."
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.disney import cards as C
from engine.disney import rulesets
from engine.disney.game import Game
from engine.disney.steps import TINKER
from engine.elite import EliteGame, parse_cards
from engine.elite.setup import OPTIONS as ELITE_OPTIONS
from engine.elite.uno import ACTIONS
from engine.protocol import CHANCE
from tests.engine.elite.helpers import DECK as ELITE_DECK
from tests.engine.elite.helpers import DYNASTY_ROWS, F1, NAMES
from tests.engine.helpers import deck_for

PLAYERS, DEALER = 4, 1
LEFT = (DEALER + 1) % PLAYERS

# What the book says a card turned up does, by rank (a coloured card) or id (a black card);
# every other card that can be turned up starts play with no effect ("none").
BOOKS: dict[str, dict[int, str]] = {
    "disney": {
        C.SKIP: "skip",
        C.REVERSE: "right-of-dealer-first",
        C.DRAW2: "tinker-bell",
        C.WILD: "colour",
    },
    "classic": {C.WILD: "colour"},
    "official-2018": {
        C.SKIP: "skip",
        C.REVERSE: "dealer-first",
        C.DRAW2: "draw-two",
        C.WILD: "colour",
        C.WILD_SHUFFLE_HANDS: "colour",
        C.WILD_CUSTOM: "colour",  # under each of its options: plain, swap hands, shuffle hands
    },
    "elvis": {C.SKIP: "skip", C.REVERSE: "dealer-first", C.DRAW2: "draw-two", C.WILD: "colour"},
}
RETURNED: dict[str, set[int]] = {
    "disney": {C.VILLAIN_DRAW4, C.WILD_DISCARD_ALL},
    "classic": {C.WILD_DRAW4},
    "official-2018": {C.WILD_DRAW4},
    "elvis": {C.WILD_DRAW4, *(colour * 16 + C.VEGAS for colour in range(4))},
}


ALONE_ONLY = frozenset({"partners", "partners_rotation"})
"""Options of the scoring only, which the rules refuse with other scorings (`check_options`):
each is tested alone, and left out of "together"."""


def option_sets(options: dict[str, Any]) -> list[dict[str, Any]]:
    """No option; every option alone at each value but its default; all of them together (each
    at its last value), and all together with each value of an option with more than two."""
    sets: list[dict[str, Any]] = [{}]
    together: dict[str, Any] = {}
    many: dict[str, list[Any]] = {}
    for name, (default, values) in options.items():
        others = [v for v in values if v != default]
        sets += [{name: v} for v in others]
        if others and name not in ALONE_ONLY:
            together[name] = others[-1]
        if len(others) > 1:
            many[name] = others
    sets.append(together)
    sets += [{**together, name: v} for name, values in many.items() for v in values[:-1]]
    return sets


def _disney_family_options(rules: rulesets.Ruleset) -> dict[str, Any]:
    return {
        name: (o.default, o.choices if o.choices is not None else (o.default, o.bounds[1]))
        for name, o in rules.options.items()
        if o.choices is not None or o.bounds is not None
    }


CASES = [
    (name, options)
    for name in ("disney", "classic", "official-2018", "elvis")
    for options in option_sets(_disney_family_options(rulesets.get(name)))
]


def test_the_option_sets_hold_seven_o_and_six_smackdown_alone_and_together():
    official = [o for n, o in CASES if n == "official-2018"]
    assert {"seven_o": True} in official and {"six_smackdown": True} in official
    assert any(o.get("seven_o") and o.get("wild_customizable") == "swap_hands" for o in official)


@pytest.mark.parametrize(("ruleset", "options"), CASES, ids=lambda v: str(v))
def test_every_card_turned_up_does_what_the_book_says(ruleset: str, options: dict[str, Any]):
    rules = rulesets.get(ruleset)
    book, returned = BOOKS[ruleset], RETURNED[ruleset]
    assert rules.returned_first_discards == returned
    for card in sorted(set(rules.deck)):
        deck = deck_for(PLAYERS, {}, C.code(card), dealer=DEALER, ruleset=ruleset)
        g = Game(ruleset, [f"P{s}" for s in range(PLAYERS)], DEALER, options)
        g.start_hand(deck)
        h = g.hand
        assert h is not None
        said = f"{C.name(card)} turned up, {ruleset} {options}"
        if card in returned:  # back under the deck; another card is turned up
            assert h.discard[-1] != card and h.draw[0] == card, said
            continue
        assert h.discard == [card], said
        # by position in the hand (a partners rotation seats the table in its own order)
        d, n = h.pos_of[DEALER], PLAYERS
        left, second, right = (d + 1) % n, (d + 2) % n, (d - 1) % n
        dealt = [deck[(p - d - 1) % n : 7 * n : n] for p in range(n)]
        drew = {p: len(h.hands[p]) - 7 for p in range(n) if len(h.hands[p]) != 7}
        what = book.get(card if card >= 64 else C.RANK_OF[card], "none")
        if what == "draw-two":
            assert drew == {left: 2}, said
            assert [h.hands[p][:7] for p in range(n)] == dealt, said
        else:  # nobody's hand changes: no swap, no pass, no shuffle, no draws
            assert drew == {} and h.hands == dealt, said
        if card < 64:
            assert h.colour == C.COLOUR_OF[card], said
        if what == "tinker-bell":
            assert g.current_player() == CHANCE and g.chance_kind() == "tinker_bell", said
            assert h.head.kind == TINKER and h.head.seat == left and h.direction == 1, said
            continue
        kind, first, direction = {
            "none": ("play", left, 1),
            "skip": ("play", second, 1),
            "draw-two": ("play", second, 1),
            "dealer-first": ("play", d, -1),
            "right-of-dealer-first": ("play", right, -1),
            "colour": ("colour", left, 1),
        }[what]
        awaited = {k: g.awaiting().get(k) for k in ("kind", "seat")}
        assert awaited == {"kind": kind, "seat": h.seats[first]}, said
        assert h.direction == direction and not h.steps, said


def test_a_seven_turned_up_under_seven_o_asks_for_no_colour_issue_52():
    """The report: "Official 2018 with Seven-O asks for a colour on a Blue 7 turned up first"."""
    for custom in ("wild", "swap_hands", "shuffle_hands"):
        options = {"seven_o": True, "wild_customizable": custom}
        for code in ("B7", "R7", "G0", "Y0"):
            deck = deck_for(PLAYERS, {}, code, dealer=DEALER, ruleset="official-2018")
            g = Game("official-2018", [f"P{s}" for s in range(PLAYERS)], DEALER, options)
            g.start_hand(deck)
            assert g.awaiting() == {"kind": "play", "seat": LEFT}, (code, custom)
            assert g.summary()["colour"] == C.COLOURS[C.COLOUR_OF[C.card(code)]]


ELITE_CASES = option_sets({name: (values[0], values) for name, values in ELITE_OPTIONS.items()})


@pytest.mark.parametrize("options", ELITE_CASES, ids=lambda v: str(v))
def test_elite_every_number_turned_up_starts_play_and_an_action_card_is_ignored(options):
    numbers = sorted({c for c in ELITE_DECK if c.rank not in ACTIONS}, key=lambda c: c.code)
    actions = [c for c in ELITE_DECK if c.rank in ACTIONS]
    assert numbers and actions
    if options.get("mode") == "dynasty":  # each player's own Player Deck
        options = {**options, "decks": [parse_cards("\n".join(DYNASTY_ROWS), "a deck")] * 3}
    for card in numbers:
        game = EliteGame(NAMES[:3], options, cards=F1)
        rest = list(ELITE_DECK)
        rest.remove(card)
        first_action = actions[0]
        rest.remove(first_action)
        order = [*rest[:21], first_action, card, *rest[21:]]  # an action card, then `card`
        game.apply_chance(order)
        said = f"{card.code} turned up, elite {options}"
        assert game.discard == [card] and game.colour == card.colour, said
        assert game.draw[0] == first_action, said  # "ignore it": under the draw pile
        assert [len(hand) for hand in game.hands] == [7, 7, 7], said
        assert not game.steps, said  # nothing to do: the card was not played
        if options.get("mode", "quick") == "quick":
            game.sample_chance(random.Random(1))  # the Elite cards' shuffle
            assert game.current_player() == 0 and game.phase == "play", said
