"""Rulesets are configuration of one engine: a deck, card values, and named options.

The Disney tray game is the first; classic 108, official 2018 (with house rules), Elvis and Elite
plug in here as further `Ruleset` values, with their card effects chosen by name in `effects`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from engine.disney import cards as C

# (NamedTuples, not dataclasses: `dataclasses` imports `inspect`, a tenth of the engine's start)
_EMPTY: Mapping[Any, Any] = MappingProxyType({})

# ---------------------------------------------------------------- effect names, one registry each
NUMBER: Final = "number"
ACTION: Final = "action"
WILD: Final = "wild"
"""The three kinds of card an effect can be carried by (`Effect.carrier`): a number card (ranks
0-9 of a colour), a coloured action card (Skip, Reverse, Draw 2, Vegas) or a black card."""

TURNED_UP: Final = frozenset(
    {"colour", "skip", "draw2", "reverse_right_of_dealer", "reverse_dealer_first", "tinker_bell"}
)
"""What a card can do when turned up as the first discard (`Hand._first_discard`; None: nothing,
the player to the dealer's left plays first on it; `RETURNED`: it goes back under the deck)."""
RETURNED: Final = "returned"


class EffectNameClash(ValueError):
    """Two rules of one ruleset give one effect name two meanings (raised at import)."""


class Effect(NamedTuple):
    """What an effect's name means in one ruleset: the kind of card that carries it and what
    that card does when turned up as the first discard (what it does once played is
    `effects.played`'s, by the name). One name, one meaning: `effect_names` refuses a second."""

    carrier: str  # NUMBER, ACTION or WILD
    turned_up: str | None  # a rule of TURNED_UP, RETURNED, or None (nothing)


class CardEffect(NamedTuple):
    """One rule's effect for a card: `card` (a card id, or a coloured rank 0-13: every colour)
    carries the effect `name`, which does `turned_up` when the card is turned up first; `option`
    (name, value): only under that option's value (a house rule, the Wild Customizable's
    choice), which overlays the ruleset's own effects; None: always."""

    card: int
    name: str
    turned_up: str | None = None
    option: tuple[str, Any] | None = None
    rule: str = ""  # whose effect it is, for a clash's message


def meaning(row: CardEffect) -> Effect:
    """What `row` makes its effect's name mean: the kind of its card, and its first-discard rule."""
    carrier = WILD if row.card >= 64 else NUMBER if C.RANK_OF[row.card] <= 9 else ACTION
    return Effect(carrier, row.turned_up)


def effect_names(ruleset: str, rows: tuple[CardEffect, ...]) -> Mapping[str, Effect]:
    """The ruleset's one registry of effect names (`Ruleset.effect_names`), built at import from
    every rule that names an effect (`rows`: its own cards and its options'). A name given twice
    means the same each time, or this raises `EffectNameClash`: a 7 swapping hands under Seven-O
    (a number card, nothing when turned up) and a Wild Customizable swapping hands (a wild, whose
    colour is named when turned up) cannot share one name. "number", every card no rule names,
    is a number card: "Number cards have no special action"."""
    known: dict[str, CardEffect] = {"number": CardEffect(0, "number", rule="a number card")}
    for row in rows:
        meant = meaning(row)
        if meant.carrier == NUMBER and meant.turned_up is not None:
            raise EffectNameClash(
                f"ruleset {ruleset}: {row.rule or row.name} gives a number card the first-discard "
                f"rule {meant.turned_up!r}: a number card turned up starts play with no effect"
            )
        if meant.turned_up not in TURNED_UP and meant.turned_up not in (None, RETURNED):
            raise EffectNameClash(
                f"ruleset {ruleset}: {row.rule or row.name}: no first-discard rule "
                f"{meant.turned_up!r}"
            )
        if row.option is not None and meant.turned_up == RETURNED:
            raise EffectNameClash(
                f"ruleset {ruleset}: {row.rule or row.name}: an option cannot return a card "
                "turned up (`returned_first_discards` is the ruleset's own)"
            )
        first = known.setdefault(row.name, row)
        if meaning(first) != meant:
            raise EffectNameClash(
                f"ruleset {ruleset}: the effect name {row.name!r} means {_meant(first)} for "
                f"{first.rule or first.name} and {_meant(row)} for {row.rule or row.name}: give "
                "one of them a name of its own"
            )
    return MappingProxyType({name: meaning(row) for name, row in known.items()})


def effect_named(effects: Mapping[int, str], card: int) -> str:
    """The effect `effects` (card id or rank -> name) gives `card`: by its id, else its rank,
    else none ("number")."""
    return (
        effects.get(card, effects.get(C.RANK_OF[card], "number")) if C.CODE_OF[card] else "number"
    )


def _meant(row: CardEffect) -> str:
    carrier, turned_up = meaning(row)
    card = {NUMBER: "a number card", ACTION: "an action card", WILD: "a wild card"}[carrier]
    return f"{card} ({turned_up or 'nothing'} when turned up first)"


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
    effects: Mapping[int, str]
    """Card id or rank -> the name of its effect, the ruleset's own (`effect_rows` without an
    option; `variant.effect_table` overlays the options' rows)."""
    effect_rows: tuple[CardEffect, ...] = ()
    """Every rule that names a card's effect: the ruleset's own and its options' (`_ruleset`)."""
    effect_names: Mapping[str, Effect] = _EMPTY
    """The registry of its effect names: each name's one meaning (`effect_names`), so what a
    card does turned up as the first discard is its effect's (`Effect.turned_up`)."""
    quotes: Mapping[str, str] = _EMPTY
    """The book's own sentence for a rule key (see docs/RULES-MAP.md), quoted in its errors."""
    returned_first_discards: frozenset[int] = frozenset()
    """Cards that go back under the deck when turned up as the first discard (their effects'
    `turned_up` is RETURNED: `_ruleset` holds the two together)."""
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
    # "If this card is turned over at the beginning of play" (each card's own sentence)
    rows = (
        CardEffect(C.SKIP, "skip", "skip", rule="Skip"),
        CardEffect(C.REVERSE, "reverse", "reverse_right_of_dealer", rule="Reverse"),
        CardEffect(C.DRAW2, "draw2_tinker_bell", "tinker_bell", rule="Draw 2"),
        CardEffect(C.WILD, "wild", "colour", rule="Wild"),
        CardEffect(C.VILLAIN_DRAW4, "villain_draw4", RETURNED, rule="Villain Draw 4"),
        CardEffect(C.WILD_DISCARD_ALL, "wild_discard_all", RETURNED, rule="Wild Discard All"),
    )
    return _ruleset(
        rows,
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
        returned_first_discards=frozenset({C.WILD_DISCARD_ALL, C.VILLAIN_DRAW4}),
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


HOUSE_EFFECTS: tuple[CardEffect, ...] = (
    # Seven-O: "Every time a “7” is played ..." "Every time a “0” is played ...": played, so a
    # 7 or a 0 turned up as the first discard is a number card (docs/RULES-MAP.md, seven-o-first)
    CardEffect(7, "swap_hands", None, ("seven_o", True), "Seven-O's 7"),
    CardEffect(0, "pass_hands", None, ("seven_o", True), "Seven-O's 0"),
    # 6-Smackdown: "When a “6” is played" (smackdown-first-discard)
    CardEffect(6, "smackdown", None, ("six_smackdown", True), "6-Smackdown's 6"),
)
"""The house rules that give a card an effect, each under its option (classic, official 2018)."""


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


def _draw4_rows(skip: str | None, reverse: str | None, draw2: str | None) -> tuple[CardEffect, ...]:
    """The classic deck's action cards, each with what it does turned up first in this book."""
    return (
        CardEffect(C.SKIP, "skip", skip, rule="Skip"),
        CardEffect(C.REVERSE, "reverse", reverse, rule="Reverse"),
        CardEffect(C.DRAW2, "draw2", draw2, rule="Draw 2"),
        CardEffect(C.WILD, "wild", "colour", rule="Wild"),
        CardEffect(C.WILD_DRAW4, "wild_draw4", RETURNED, rule="Wild Draw 4"),
    )


def _classic() -> Ruleset:
    # "the player to the dealer’s left must respond by discarding, playing wild cards, or drawing
    # from the stock. However, there is 1 exception": an action card turned up does nothing
    return _ruleset(
        (*_draw4_rows(None, None, None), *HOUSE_EFFECTS),
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
        returned_first_discards=frozenset({C.WILD_DRAW4}),
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
    custom = ("wild_customizable", "swap_hands"), ("wild_customizable", "shuffle_hands")
    rows = (
        # "Card Effect As First Discard": the Skip's row repeats the Reverse's text (RULES-MAP)
        *_draw4_rows("skip", "reverse_dealer_first", "draw2"),
        # the two wilds of 2018 prints: silent, named like a Wild (RULES-MAP)
        CardEffect(C.WILD_SHUFFLE_HANDS, "shuffle_hands", "colour", rule="Wild Shuffle Hands"),
        CardEffect(C.WILD_CUSTOM, "wild", "colour", rule="Wild Customizable"),
        CardEffect(C.WILD_CUSTOM, "wild_swap_hands", "colour", custom[0], "WC swap_hands"),
        CardEffect(C.WILD_CUSTOM, "shuffle_hands", "colour", custom[1], "WC shuffle_hands"),
        *HOUSE_EFFECTS,
    )
    return _ruleset(
        rows,
        name="official-2018",
        quotes={
            "match": "Play a card matching the discard in color, number, or symbol.",
            "play-drawn": "Or draw the top card from the deck, and optionally play it if possible.",
        },
        title="UNO (official 2018 rules, 112 cards)",
        deck=tuple(_classic_deck() + [C.WILD_SHUFFLE_HANDS] + [C.WILD_CUSTOM] * 3),
        points=_points(20, {}),
        options=options,
        returned_first_discards=frozenset({C.WILD_DRAW4}),
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
    rows = (
        *_draw4_rows("skip", "reverse_dealer_first", "draw2"),
        *(CardEffect(v, "vegas", RETURNED, rule="Vegas") for v in vegas),
    )
    return _ruleset(
        rows,
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
        returned_first_discards=frozenset({C.WILD_DRAW4, *vegas}),
        failed_challenge_loses_turn=True,
        uno_penalty=5,
        collected_value={v: 10 for v in vegas},
    )


def _ruleset(rows: tuple[CardEffect, ...], **fields: Any) -> Ruleset:
    """A ruleset with its effects from `rows` (its own, and under its options), its registry of
    effect names made and checked: at import, so a clash never reaches a hand
    (`EffectNameClash`: one name with two meanings, one card given two effects by one rule, an
    option that is not the ruleset's, the cards it returns turned up not those whose effect says
    so)."""
    name = fields["name"]
    names = effect_names(name, rows)
    given: dict[tuple[str, Any] | None, dict[int, str]] = {}
    for row in rows:
        effects = given.setdefault(row.option, {})
        if effects.setdefault(row.card, row.name) != row.name:
            raise EffectNameClash(
                f"ruleset {name}: card {row.card} is given two effects, "
                f"{effects[row.card]!r} and {row.name!r}"
                + (f" under {row.option}" if row.option else "")
            )
        if row.option is not None:
            option = fields["options"].get(row.option[0])
            if option is None or (
                option.choices is not None and row.option[1] not in option.choices
            ):
                raise EffectNameClash(
                    f"ruleset {name}: {row.rule or row.name} names {row.option}, not its option"
                )
    ruleset = Ruleset(
        effects=MappingProxyType(given.get(None, {})),
        effect_rows=rows,
        effect_names=names,
        **fields,
    )
    returned = {
        c for c in ruleset.deck if names[effect_named(ruleset.effects, c)].turned_up == RETURNED
    }
    if returned != ruleset.returned_first_discards:
        raise EffectNameClash(
            f"ruleset {name}: it returns {sorted(ruleset.returned_first_discards)} turned up, "
            f"the cards whose effect is returned are {sorted(returned)}"
        )
    return ruleset


DISNEY = _disney()
CLASSIC = _classic()
OFFICIAL_2018 = _official_2018()
ELVIS = _elvis()
RULESETS: dict[str, Ruleset] = {r.name: r for r in (DISNEY, CLASSIC, OFFICIAL_2018, ELVIS)}


def get(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except KeyError:
        family = list(RULESETS)
        played = f"{', '.join(family[:-1])} and {family[-1]}"
        raise ValueError(f"{name!r} is no ruleset of the Disney family ({played})") from None
