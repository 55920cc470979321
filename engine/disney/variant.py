"""What one table's ruleset and options make of every card and every hand: the effect of each
card (by name, `effect_table`), the options read once (`Variant`), made once per set of
options and shared by every hand (and every clone) at the table.

It reads only the cards and the ruleset: the effects themselves (`engine.disney.effects`), the state
(`engine.disney.handstate`) and the rules that play a hand (`engine.disney.hand`) all read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, Final, NamedTuple

from engine.disney import cards as C
from engine.disney.rulesets import RULESETS, Ruleset, effect_named


class RenegeTest(IntEnum):
    """Option `renege_test`: what makes a (Villain or Wild) Draw 4 challenge succeed."""

    COLOUR = 0  # its player held another card of the colour in play
    MATCHING = 1  # ... another card matching by colour, number or symbol
    PLAYABLE = 2  # ... any other card they could have played, wilds included


class Stacking(IntEnum):
    """Option `stacking` (Progressive UNO)."""

    NONE = 0
    SAME = 1  # Draw 2 on Draw 2, Wild Draw 4 on Wild Draw 4
    MIXED = 2  # also one on the other


EFFECTS: Final = frozenset(
    {
        "number",
        "skip",
        "reverse",
        "wild",
        "draw2_tinker_bell",
        "wild_discard_all",
        "villain_draw4",
        "draw2",
        "wild_draw4",
        "swap_hands",
        "wild_swap_hands",
        "pass_hands",
        "shuffle_hands",
        "vegas",
        "smackdown",
    }
)
"""Every effect `played` knows (tests/engine/test_effects.py holds the two together): each
ruleset's registry of effect names (`Ruleset.effect_names`) names only these, checked below."""
for _rules in RULESETS.values():  # at import: once, never per hand
    if not set(_rules.effect_names) <= EFFECTS:
        raise ValueError(
            f"ruleset {_rules.name} names effects the engine lacks: "
            f"{sorted(set(_rules.effect_names) - EFFECTS)}"
        )
NO_EFFECT: Final = frozenset({"number", "wild"})
"""The effects that only end the turn: `Hand.step` passes it on without calling `played`."""


STACKABLE: Final = frozenset({"draw2", "wild_draw4"})
"""The cards that can be stacked (Progressive UNO)."""
_TINKER_PICKS_COLOUR: Final = frozenset({"villain_draw4", "wild_discard_all"})


class EffectTable(NamedTuple):
    """Per card id, for one ruleset and its options."""

    effect_of: tuple[str, ...]  # the effect's name (what `played` does with it)
    names_colour: tuple[bool, ...]  # does playing it name a colour (a Wild)?
    colour_wilds: tuple[int, ...]  # the deck's cards that name a colour
    turned_up: tuple[str | None, ...]
    """What it does turned up as the first discard: its effect's `Effect.turned_up` (None: it
    starts play with no effect, as every number card does under every option)."""


_CACHE: dict[tuple[str, tuple[int, ...]], EffectTable] = {}


def effect_table(rules: Ruleset, options: Mapping[str, Any]) -> EffectTable:
    """The effects of this ruleset's cards under these options: by card id first, then by rank;
    the rows of the options chosen (Seven-O, 6-Smackdown, the Wild Customizable card:
    `Ruleset.effect_rows`) overlay them. Each name means what the ruleset's registry says
    (`Ruleset.effect_names`), whichever rule gave it."""
    rows = rules.effect_rows
    chosen = tuple(
        i
        for i, row in enumerate(rows)
        if row.option is not None and options.get(row.option[0]) == row.option[1]
    )
    key = (rules.name, chosen)
    cached = _CACHE.get(key)
    if cached is not None:
        return cached
    effects = dict(rules.effects)
    for i in chosen:
        effects[rows[i].card] = rows[i].name  # (a rank: every colour's card of it)
    names = tuple(effect_named(effects, c) for c in range(C.NCARDS))
    unknown = set(names) - set(EFFECTS)
    if unknown:
        raise ValueError(f"ruleset {rules.name} names effects the engine lacks: {unknown}")
    names_colour = tuple(c >= 64 and names[c] not in _TINKER_PICKS_COLOUR for c in range(C.NCARDS))
    colour_wilds = tuple(c for c in sorted(set(rules.deck)) if names_colour[c])
    registry = rules.effect_names
    unregistered = set(names) - set(registry)
    if unregistered:  # (a ruleset is made by `rulesets._ruleset`, which registers every name)
        raise ValueError(f"ruleset {rules.name} has no meaning registered for {unregistered}")
    turned_up = tuple(registry[name].turned_up for name in names)
    table = EffectTable(names, names_colour, colour_wilds, turned_up)
    _CACHE[key] = table
    return table


class Variant:
    """A ruleset with one table's options, and what they make of every hand: immutable, made
    once per set of options and shared by every hand (and every clone) at the table, so the
    options are read from here rather than copied into each hand. (The protocol's immutable
    game, `engine.protocol`; `Game` makes it from its ruleset and options.)"""

    __slots__ = (
        "colour_wilds",
        "draw_when_playable",
        "effect_of",
        "has_effect",
        "jump_in",
        "keep_drawing",
        "must_play_drawn",
        "names_colour",
        "options",
        "renege_test",
        "rules",
        "stacking",
        "turned_up",
        "uno_penalty",
        "uno_to_go_out",
        "villain_may_take",
        "villain_skips_next",
    )  # fmt: skip

    def __init__(self, rules: Ruleset, opts: Mapping[str, Any]) -> None:
        table = effect_table(rules, opts)
        self.rules: Final = rules
        self.options: Final = opts
        self.effect_of: Final = table.effect_of
        self.names_colour: Final = table.names_colour
        self.has_effect: Final = tuple(e not in NO_EFFECT for e in table.effect_of)
        self.colour_wilds: Final = table.colour_wilds
        self.turned_up: Final = table.turned_up
        self.draw_when_playable: Final = bool(opts.get("draw_when_playable"))
        self.must_play_drawn: Final = bool(opts.get("must_play_drawn"))
        self.villain_skips_next: Final = bool(opts.get("villain_draw4_skips_next"))
        self.villain_may_take: Final = bool(opts.get("villain_draw4_may_take"))
        self.renege_test: Final = RenegeTest[str(opts.get("renege_test", "colour")).upper()]
        self.stacking: Final = Stacking[str(opts.get("stacking", "none")).upper()]
        self.jump_in: Final = bool(opts.get("jump_in"))
        self.keep_drawing: Final = bool(opts.get("keep_drawing"))
        self.uno_to_go_out: Final = rules.uno_to_go_out
        self.uno_penalty: Final = rules.uno_penalty


_VARIANTS: dict[tuple[str, tuple[tuple[str, Any], ...]], Variant] = {}


def variant_of(rules: Ruleset, opts: Mapping[str, Any]) -> Variant:
    """The `Variant` of these rules and options, made once per set of options: a simulation
    deals thousands of hands at one table, and asks again with the same options (a game's
    resolved options, never changed once made): the last answer is kept by their identity,
    without a key to make and hash for every hand."""
    last = _LAST_VARIANT[0]
    if last is not None and last.options is opts and last.rules is rules:
        return last
    known = _variant_of(rules, opts)
    _LAST_VARIANT[0] = known
    return known


_LAST_VARIANT: list[Variant | None] = [None]


def _variant_of(rules: Ruleset, opts: Mapping[str, Any]) -> Variant:
    try:
        key = (rules.name, tuple(opts.items()))
        known = _VARIANTS.get(key)
    except TypeError:  # an option's value that cannot be a key: made each time
        return Variant(rules, opts)
    if known is None or known.rules is not rules:
        if len(_VARIANTS) >= 256:  # (a server's tables choose options freely)
            _VARIANTS.clear()
        known = _VARIANTS[key] = Variant(rules, opts)
    return known
