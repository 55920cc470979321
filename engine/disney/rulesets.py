"""Rulesets are configuration of one engine: a deck, card values, and named options.

The Disney tray game is the first; classic 108, official 2018 (with house rules), Elvis and Elite
plug in here as further `Ruleset` values, with their card effects chosen by name in `effects`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from engine.disney import cards as C

# (NamedTuples, not dataclasses: `dataclasses` imports `inspect`, a tenth of the engine's start)
_EMPTY: Mapping[Any, Any] = MappingProxyType({})


class Option(NamedTuple):
    default: Any
    choices: tuple[Any, ...] | None  # None: any int within `bounds`
    doc: str
    bounds: tuple[int, int] | None = None


class Ruleset(NamedTuple):
    name: str
    title: str
    deck: tuple[int, ...]
    points: tuple[int, ...]  # indexed by card id
    options: Mapping[str, Option]
    effects: Mapping[int, str]  # card id or rank -> effect name the engine implements
    quotes: Mapping[str, str] = _EMPTY
    """The book's own sentence for a rule key (see docs/RULES-MAP.md), quoted in its errors."""
    returned_first_discards: frozenset[int] = frozenset()
    """Cards that go back under the deck when turned up as the first discard."""
    first_discard: Mapping[str, str] = _EMPTY
    """Effect name -> what that card does when turned up as the first discard (`colour`: the
    player to the dealer's left names it; `skip`; `draw2`; `reverse_right_of_dealer`;
    `reverse_dealer_first`; `tinker_bell`). Effects not listed do nothing: the player to the
    dealer's left plays first."""
    failed_challenge_loses_turn: bool = False
    """Wild Draw 4: does a challenger who is wrong also lose their turn?"""
    uno_to_go_out: bool = False
    """Classic: "A player cannot win if he forgets to declare Uno because he is not allowed to
    discard his last card until he does so." """
    uno_penalty: int = 2
    """Cards drawn by a player caught without calling UNO."""
    collected_value: Mapping[int, int] = _EMPTY
    """Card -> points per card the scorer collects (Elvis's Vegas: "Count up the number of cards
    you collected and multiply it by ten"); such cards are worth 0 in `points`."""
    misplay_penalty: int = 0
    """Cards drawn by a player who lays a card that does not match and takes it back (0: the
    rule book has no such penalty and the engine refuses a `misplay`)."""
    hand_size: int = 7
    min_players: int = 2
    max_players: int = 10
    two_decks_from: int = 0
    """From this many players the game deals from two decks shuffled together (0: never).
    Classic: "For games that involve even more players, you can shuffle two Uno decks together
    and play with 216 cards"."""

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with `given`; an unknown name or a bad value raises ValueError."""
        resolved = {k: o.default for k, o in self.options.items()}
        for key, value in (given or {}).items():
            opt = self.options.get(key)
            if opt is None:
                raise ValueError(
                    f"unknown option {key!r} for the {self.name} rules "
                    f"(options: {', '.join(sorted(self.options))})"
                )
            if opt.choices is not None and value not in opt.choices:
                raise ValueError(f"option {key} must be {_either(opt.choices)}, not {_said(value)}")
            if opt.bounds is not None:
                lo, hi = opt.bounds
                if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                    raise ValueError(
                        f"option {key} must be a whole number from {lo} to {hi}, not {_said(value)}"
                    )
            resolved[key] = value
        return resolved

    def card_points(self, card_id: int) -> int:
        return self.points[card_id]

    def deck_for(self, players: int) -> tuple[int, ...]:
        """The cards a game of `players` deals from: one deck, or two shuffled together from
        `two_decks_from` players (the one place the number of decks is decided)."""
        if self.two_decks_from and players >= self.two_decks_from:
            return self.deck * 2
        return self.deck


def _said(value: Any) -> str:
    """A value as a person types it in `--option NAME=VALUE` or a setting: true, "lowest", 3."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def _either(choices: tuple[Any, ...]) -> str:
    """ "true or false";  "standard", "lowest" or "challenge"."""
    if set(choices) == {False, True} and all(isinstance(c, bool) for c in choices):
        return "true or false"
    said = [_said(c) for c in choices]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


def _standard_numbers() -> list[int]:
    """Per colour: one 0 and two each of 1-9 (19 cards)."""
    deck = []
    for colour in range(4):
        base = colour * 16
        deck.append(base)
        for n in range(1, 10):
            deck += [base + n, base + n]
    return deck


def _points(action: int, wild: Mapping[int, int]) -> tuple[int, ...]:
    table = [0] * C.NCARDS
    for cid in range(C.NCARDS):
        if cid < 64:
            rank = C.RANK_OF[cid]
            table[cid] = rank if rank < 10 else action
        else:
            table[cid] = wild.get(cid, 50)
    return tuple(table)


SCORING_OPTIONS: dict[str, Option] = {
    "target": Option(500, None, "Points that end the game.", bounds=(1, 100_000)),
    "scoring": Option(
        "standard",
        ("standard", "lowest", "challenge"),
        "standard: the player who goes out scores the cards left in the others' hands and the "
        "first to the target wins. lowest: each player is charged what they are caught holding; "
        "when one reaches the target, the lowest total wins. challenge: Challenge UNO, each "
        "player charged what they hold and eliminated at the target; the last one left wins.",
    ),
    "partners": Option(
        False, (False, True), "Four players, partners sit opposite (seats 0+2 and 1+3)."
    ),
}


def _disney_options() -> dict[str, Option]:
    """The Disney book's options: the scoring three, and where the book leaves a choice."""
    return {
        **SCORING_OPTIONS,
        "draw_when_playable": Option(
            False,
            (False, True),
            "May a player draw instead of playing a card that matches? The text: \"If you don't "
            'have anything that matches, you must pick a card" (default: no).',
        ),
        "must_play_drawn": Option(
            False,
            (False, True),
            'Must a drawn card that can be played be played? The text: "If you draw a card you '
            'can play, play it." Tables read it as permission (default: no, it may be kept).',
        ),
        "villain_draw4_skips_next": Option(
            False,
            (False, True),
            "Does the next player also lose their turn after a Villain Draw 4? The text says only "
            "that players protect or draw (default: no, play goes on to the next player).",
        ),
        "villain_draw4_may_take": Option(
            False,
            (False, True),
            "May a player who holds Tinker Bell's colour after a Villain Draw 4 take the four "
            'cards instead of laying it down? The text: "If so, lay it down" (default: no, it '
            "must be laid down; true is how this engine played before).",
        ),
        "renege_test": Option(
            "colour",
            ("colour", "playable"),
            "A Villain Draw 4 challenge succeeds if its player held another card of the colour "
            "in play (colour, the default) or any other card they could have played (playable).",
        ),
    }


def _disney() -> Ruleset:
    deck = _standard_numbers()
    for colour in range(4):
        for rank in (C.SKIP, C.REVERSE, C.DRAW2):
            deck += [colour * 16 + rank] * 2
    deck += [C.WILD] * 4 + [C.VILLAIN_DRAW4] * 4 + [C.WILD_DISCARD_ALL] * 4
    options = _disney_options()
    effects = {
        C.SKIP: "skip",
        C.REVERSE: "reverse",
        C.DRAW2: "draw2_tinker_bell",
        C.WILD: "wild",
        C.VILLAIN_DRAW4: "villain_draw4",
        C.WILD_DISCARD_ALL: "wild_discard_all",
    }
    return Ruleset(
        name="disney",
        quotes={
            "partners": "Partners (Four Players)",  # the book's heading
            "match": "Match the top card on the DISCARD pile either by number, color or word.",
            "not-in-hand": "drawing a card from your hand to play",
            "draw-when-stuck": "If you don't have anything that matches, you must pick a card "
            "from the DRAW pile.",
            "play-drawn": "If you draw a card you can play, play it. Otherwise, play moves to "
            "the next person.",
            "must-play-drawn": "If you draw a card you can play, play it.",
            "uno-call": "Before playing your next to last card, you must say UNO.",
        },
        title="Disney UNO with the Tinker Bell tray",
        deck=tuple(deck),
        points=_points(20, {C.WILD: 50, C.WILD_DISCARD_ALL: 50, C.VILLAIN_DRAW4: 75}),
        options=options,
        effects=effects,
        returned_first_discards=frozenset({C.WILD_DISCARD_ALL, C.VILLAIN_DRAW4}),
        first_discard={
            "wild": "colour",
            "reverse": "reverse_right_of_dealer",
            "skip": "skip",
            "draw2_tinker_bell": "tinker_bell",
        },
    )


HOUSE_OPTIONS: dict[str, Option] = {
    "stacking": Option(
        "none",
        ("none", "same", "mixed"),
        'Progressive or Stacking UNO: "the next player in turn order has a card with the same '
        "symbol, that player can play that card and \u201cstack\u201d the penalty ... (although a "
        '+4 cannot be stacked on a +2, or vice versa)". none (default), same (Draw 2 on Draw 2, '
        "Wild Draw 4 on Wild Draw 4), mixed (also one on the other).",
    ),
    "seven_o": Option(
        False,
        (False, True),
        'Seven-O: "Every time a \u201c7\u201d is played, whoever played it must swap hands with '
        "another player of their choice ... Every time a \u201c0\u201d is played, all players pass "
        'their hands to the next player in the current direction of play".',
    ),
    "jump_in": Option(
        False,
        (False, True),
        'Jump-In: "If a player has exactly the same card (both number and color) as the top card '
        'of the discard pile, they may play it immediately, even if it is not their turn."',
    ),
    "six_smackdown": Option(
        False,
        (False, True),
        '6-Smackdown: "When a \u201c6\u201d is played, players must place their hand on top of '
        "the card, whoever is the last player to place their hand on the card will have to draw 2 "
        'cards."',
    ),
    "keep_drawing": Option(
        False,
        (False, True),
        "Keep-Drawing: \"When it's a player's turn and they don't have a card in their hand that "
        'they can play, the player will have to draw until they find a playable card."',
    ),
}


def _draw4_options(draw_default: bool, renege_default: str, source: str) -> dict[str, Option]:
    return {
        **SCORING_OPTIONS,
        "draw_when_playable": Option(
            draw_default, (False, True), "May a player draw while holding a card that matches?"
        ),
        "must_play_drawn": Option(
            False, (False, True), "Must a drawn card that can be played be played?"
        ),
        "renege_test": Option(
            renege_default,
            ("colour", "matching", "playable"),
            f"{source} A challenge of a Wild Draw 4 succeeds if its player held another card of "
            "the colour in play (colour), another card matching by colour, number or symbol "
            "(matching), or any other card they could have played, wilds included (playable).",
        ),
        **HOUSE_OPTIONS,
    }


def _classic_deck() -> list[int]:
    deck = _standard_numbers()
    for colour in range(4):
        for rank in (C.SKIP, C.REVERSE, C.DRAW2):
            deck += [colour * 16 + rank] * 2
    return deck + [C.WILD] * 4 + [C.WILD_DRAW4] * 4


_CLASSIC_EFFECTS = {
    C.SKIP: "skip",
    C.REVERSE: "reverse",
    C.DRAW2: "draw2",
    C.WILD: "wild",
    C.WILD_DRAW4: "wild_draw4",
}


def _classic() -> Ruleset:
    return Ruleset(
        name="classic",
        quotes={
            "match": "Players are supposed to play the Color or the Value of the card that was "
            "discarded by the player before him.",
            "play-drawn": "He is allowed to immediately discard this newly drawn card if it is a "
            "valid card for this purpose",
            "uno-call": "Failing to declare Uno deserves a penalty when caught.",
        },
        title="UNO (classic 108 cards)",
        deck=tuple(_classic_deck()),
        points=_points(20, {}),
        options=_draw4_options(
            True,
            "matching",
            'Classic: "ONLY IF he has no other valid card in terms of Color or Value" (matching).',
        ),
        effects=_CLASSIC_EFFECTS,
        returned_first_discards=frozenset({C.WILD_DRAW4}),
        first_discard={"wild": "colour"},
        misplay_penalty=2,
        uno_to_go_out=True,
        max_players=20,
        two_decks_from=11,  # the book's own table is "2-10 players"
    )


def _official_2018() -> Ruleset:
    options = _draw4_options(
        True,
        "colour",
        'Official 2018: "can only be played if the player holding it has no other cards matching '
        'the current color" (colour).',
    )
    options["wild_customizable"] = Option(
        "wild",
        ("wild", "swap_hands", "shuffle_hands"),
        'The three Wild Customizable cards: "blank cards that can have a house rule assigned to '
        'them". wild (plain wilds, default), swap_hands (swap hands with a player of your choice), '
        "shuffle_hands (another Wild Shuffle Hands).",
    )
    return Ruleset(
        name="official-2018",
        quotes={
            "match": "Play a card matching the discard in color, number, or symbol.",
            "play-drawn": "Or draw the top card from the deck, and optionally play it if possible.",
        },
        title="UNO (official 2018 rules, 112 cards)",
        deck=tuple(_classic_deck() + [C.WILD_SHUFFLE_HANDS] + [C.WILD_CUSTOM] * 3),
        points=_points(20, {}),
        options=options,
        effects={**_CLASSIC_EFFECTS, C.WILD_SHUFFLE_HANDS: "shuffle_hands", C.WILD_CUSTOM: "wild"},
        returned_first_discards=frozenset({C.WILD_DRAW4}),
        first_discard={
            "wild": "colour",
            "shuffle_hands": "colour",
            "swap_hands": "colour",
            "skip": "skip",
            "draw2": "draw2",
            "reverse": "reverse_dealer_first",
        },
        failed_challenge_loses_turn=True,
    )


def _elvis() -> Ruleset:
    vegas = [colour * 16 + C.VEGAS for colour in range(4)]
    points = list(_points(20, {}))
    for v in vegas:
        points[v] = 0  # counted by `collected_value`
    options = _draw4_options(
        True,
        "colour",
        'Elvis: "You may only play a Wild Draw 4 card if you have no other cards in your hand '
        'that match the color of the top card" (colour).',
    )
    for house in HOUSE_OPTIONS:  # the Elvis book has no house rules; its Draw 2 never stacks
        del options[house]
    options["partners_rotation"] = Option(
        False,
        (False, True),
        'Four players: "play four hands with each other player as your partner. You will play a '
        'total of twelve hands. ... The player that scores the most points wins the game."',
    )
    return Ruleset(
        name="elvis",
        quotes={
            "partners": "If there are four players you can choose to play with another player "
            "as your teammate.",
            "match": "To play a card to the Discard Pile it has to match the top card in one of "
            "three ways: Color, Number, Symbol",
            "draw-when-stuck": "If you do not have a card in your hand that you can play (none "
            "match the card on the top of the Discard Pile), you have to draw the top card from "
            "the Draw Pile.",
            "play-drawn": "If you can play the card you draw, you can play it immediately. "
            "Otherwise you will add the card to your hand.",
            "uno-call": "Once you play the second to last card from your hand (you only have one "
            "card left in your hand), you must call out UNO Elvis.",
        },
        title="UNO Elvis Presley",
        deck=tuple(_classic_deck() + vegas),
        points=tuple(points),
        options=options,
        effects={**_CLASSIC_EFFECTS, C.VEGAS: "vegas"},
        returned_first_discards=frozenset({C.WILD_DRAW4, *vegas}),
        first_discard={
            "wild": "colour",
            "skip": "skip",
            "draw2": "draw2",
            "reverse": "reverse_dealer_first",
        },
        failed_challenge_loses_turn=True,
        uno_penalty=5,
        collected_value={v: 10 for v in vegas},
    )


DISNEY = _disney()
CLASSIC = _classic()
OFFICIAL_2018 = _official_2018()
ELVIS = _elvis()
RULESETS: dict[str, Ruleset] = {r.name: r for r in (DISNEY, CLASSIC, OFFICIAL_2018, ELVIS)}
PLAYED = (*RULESETS, "elite")
"""Every ruleset the engine plays, by name: these, and UNO Elite (`engine.elite`)."""


def get(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        played = f"{', '.join(PLAYED[:-1])} and {PLAYED[-1]}"
        raise ValueError(f"unknown ruleset {name!r} (this engine plays: {played})") from None
