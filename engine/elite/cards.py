"""Elite Action Cards as data: icons, powers, the card itself, and the card file's parser.

A card file is tab-separated, one row per card number: `number`, `name`, `role`, `variants`,
`powers`. `variants` lists the prints of that number in the box (see `VARIANTS`); `powers` is
the card's icons in order, e.g. `Draw 1 uno Target + Skip uno`. Lines starting with `#` and
blank lines are skipped. Every error names the source and the line.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from engine.colours import COLOURS  # (the engine's one list of the four colours)

ALL_COLOURS = frozenset(COLOURS)


class EliteDataError(ValueError):
    """A card or deck file that cannot be read: `source`, `line` (1-based) and the reason."""

    def __init__(self, source: str, line: int, reason: str) -> None:
        super().__init__(f"{source}, line {line}: {reason}")
        self.source, self.line, self.reason = source, line, reason


class Icon(enum.Enum):
    SKIP = "Skip"
    REVERSE = "Reverse"
    DRAW = "Draw"
    PEEK = "Peek"
    PLAY_AGAIN = "Play Again"
    DISCARD = "Discard"
    RECOVER = "Recover"
    SWAP_HANDS = "Swap Hands"
    DISCARD_COLOUR = "Discard Color"
    SEARCH = "Search"
    SUBSTITUTE = "Substitute"
    REFRESH = "Refresh"


ACTS_ON: dict[Icon, tuple[str, ...]] = {
    Icon.DRAW: ("uno",),
    Icon.DISCARD: ("uno", "elite"),
    Icon.RECOVER: ("elite", "uno"),
    Icon.SEARCH: ("elite",),
    Icon.SUBSTITUTE: ("elite",),
}
"""What an icon may act on (the first is its default); every other icon acts on UNO play."""

SELF_ONLY = frozenset({Icon.REVERSE, Icon.PLAY_AGAIN, Icon.SUBSTITUTE})
"""Icons that only their player can do: Target and Everyone make no sense on them."""
COUNTED = frozenset({Icon.DRAW, Icon.DISCARD, Icon.RECOVER})
"""Icons whose number says how many cards."""
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True)
class Power:
    icon: Icon
    count: int = 1
    target: bool = False
    everyone: bool = False
    on: str = "uno"

    def words(self) -> str:
        text = self.icon.value
        if self.icon in COUNTED:
            text += f" {self.count}"
        if len(ACTS_ON.get(self.icon, ())) > 1:
            text += " Elite" if self.on == "elite" else " UNO"
        if self.target:
            text += ", Target"
        if self.everyone:
            text += ", Everyone"
        return text

    def spec(self) -> str:
        """The power as a card file writes it (`Draw 1 uno Target`)."""
        text = self.icon.value
        if self.icon in COUNTED:
            text += f" {self.count}"
        text += f" {self.on}"
        if self.target:
            text += " Target"
        if self.everyone:
            text += " Everyone"
        return text


FOILS = ("base", "foil", "dual", "wild", "nitro", "promo")


@dataclass(frozen=True)
class EliteCard:
    id: str
    number: str
    name: str
    role: str
    colours: frozenset[str]
    foil: str
    powers: tuple[Power, ...]

    def colour_words(self) -> str:
        if self.foil in ("wild", "nitro"):
            return "Nitro Wild" if self.foil == "nitro" else "Wild"
        return "/".join(c for c in COLOURS if c in self.colours)

    def words(self) -> str:
        powers = " + ".join(p.words() for p in self.powers)
        return f"{self.name} ({self.colour_words()}): {powers}"

    def short(self) -> str:
        return f"{self.name} ({self.colour_words()})"

    def icons(self) -> list[Icon]:
        return [p.icon for p in self.powers]

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "number": self.number,
            "name": self.name,
            "role": self.role,
            "colours": [c for c in COLOURS if c in self.colours],
            "foil": self.foil,
            "powers": [p.words() for p in self.powers],
            "words": self.words(),
        }


# ---------------------------------------------------------------- variants
_SINGLE = {c: (frozenset({c}), "base", c) for c in COLOURS}
_SINGLE.update({f"{c}-foil": (frozenset({c}), "foil", f"{c}-foil") for c in COLOURS})
_SINGLE.update({f"{c}-promo": (frozenset({c}), "promo", f"promo-{c}") for c in COLOURS})
_SINGLE["blue/red"] = (frozenset({"blue", "red"}), "dual", "blue-red")
_SINGLE["green/yellow"] = (frozenset({"green", "yellow"}), "dual", "green-yellow")
_SINGLE["wild"] = (ALL_COLOURS, "wild", "wild")
_SINGLE["nitro"] = (ALL_COLOURS, "nitro", "nitro")
VARIANTS: dict[str, tuple[str, ...]] = {name: (name,) for name in _SINGLE}
VARIANTS.update(
    {
        "base": COLOURS,
        "foils": tuple(f"{c}-foil" for c in COLOURS),
        "dual": ("blue/red", "green/yellow"),
        "promo": tuple(f"{c}-promo" for c in COLOURS),
    }
)
VARIANTS["all"] = VARIANTS["base"] + VARIANTS["foils"] + VARIANTS["dual"] + ("wild",)
"""Variant words of the card file's `variants` column (comma-separated): one print (`red`,
`red-foil`, `blue/red`, `wild`, `nitro`, `red-promo` ...) or a group (`base` = the four base
colours, `foils`, `dual`, `promo`, `all` = base, foils, dual and wild)."""
BOX_FOILS = {"base": frozenset({"base"}), "all": frozenset(FOILS)}
"""What `box=` puts in the box for quick and draft play (see docs/rulesets.md)."""


def parse_power(text: str) -> Power:
    """`Draw 1 uno Target` (also the catalogue's `Draw One Target`) as a Power."""
    words = text.split()
    for icon in sorted(Icon, key=lambda i: -len(i.value)):
        size = len(icon.value.split())
        if [w.lower() for w in words[:size]] == icon.value.lower().split():
            return _modifiers(icon, words[size:])
    raise ValueError(f"unknown icon in {text.strip()!r}")


def _modifiers(icon: Icon, words: list[str]) -> Power:
    count, target, everyone, on = 1, False, False, None
    allowed = ACTS_ON.get(icon, ("uno",))
    for word in words:
        low = word.lower()
        if low.isdigit() or low in NUMBER_WORDS:
            if icon not in COUNTED:
                raise ValueError(f"{icon.value} takes no number")
            count = int(low) if low.isdigit() else NUMBER_WORDS[low]
            if count < 1:
                raise ValueError(f"{icon.value} needs a number of at least 1")
        elif low in ("uno", "elite"):
            if low not in allowed:
                raise ValueError(f"{icon.value} acts on {' or '.join(allowed)} cards, not {low}")
            on = low
        elif low in ("target", "everyone"):
            if icon in SELF_ONLY:
                raise ValueError(f"{icon.value} cannot take {word}: only its player does it")
            target, everyone = target or low == "target", everyone or low == "everyone"
        else:
            raise ValueError(f"unknown word {word!r} after {icon.value}")
    if target and everyone:
        raise ValueError(f"{icon.value} cannot be both Target and Everyone")
    return Power(icon, count, target, everyone, on or allowed[0])


def parse_cards(text: str, source: str = "cards") -> list[EliteCard]:
    """Every card of a card file, each variant of a row as its own card (ids `001-red` ...)."""
    cards: list[EliteCard] = []
    seen: dict[str, int] = {}
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            row = _row(raw)
        except ValueError as exc:
            raise EliteDataError(source, line_no, str(exc)) from None
        for card in row:
            if card.id in seen:
                raise EliteDataError(
                    source, line_no, f"card {card.id} is already on line {seen[card.id]}"
                )
            seen[card.id] = line_no
            cards.append(card)
    return cards


def _row(raw: str) -> list[EliteCard]:
    fields = [f.strip() for f in raw.split("\t")]
    if len(fields) == 1 and "  " in raw:
        raise ValueError("columns must be separated by tabs")
    if len(fields) != 5:
        raise ValueError(
            f"expected 5 tab-separated columns (number, name, role, variants, powers), "
            f"found {len(fields)}"
        )
    number, name, role, variants, powers_text = fields
    if not number or not name:
        raise ValueError("a card needs a number and a name")
    if not powers_text:
        raise ValueError("a card needs at least one power")
    powers = tuple(parse_power(p) for p in powers_text.split("+"))
    prints: list[str] = []
    for word in (w.strip().lower() for w in variants.split(",")):
        if word not in VARIANTS:
            raise ValueError(f"unknown variant {word!r} (e.g. red, blue/red, wild, base, all)")
        prints.extend(VARIANTS[word])
    if not prints:
        raise ValueError("a card needs at least one variant")
    out = []
    for p in dict.fromkeys(prints):
        colours, foil, suffix = _SINGLE[p]
        out.append(EliteCard(f"{number}-{suffix}", number, name, role, colours, foil, powers))
    return out


_PRINT_OF = {(v[1], v[0]): k for k, v in _SINGLE.items()}


def card_row(card: EliteCard) -> str:
    """One card as a card-file row (its single variant), so that `parse_cards` gives it back."""
    variant = _PRINT_OF[(card.foil, card.colours)]
    powers = " + ".join(p.spec() for p in card.powers)
    return "\t".join((card.number, card.name, card.role, variant, powers))


def box(cards: Iterable[EliteCard], which: str = "base") -> list[EliteCard]:
    """The cards a quick or draft game shuffles: `base` (the four base colours of each number)
    or `all` (every print the file lists)."""
    if which not in BOX_FOILS:
        raise ValueError(f"box must be one of {', '.join(BOX_FOILS)}, not {which!r}")
    return [c for c in cards if c.foil in BOX_FOILS[which]]


def format_cards(cards: Iterable[EliteCard]) -> list[str]:
    """Card-file rows for `cards`, the prints of one number with the same powers on one row
    (`parse_cards` of these rows gives the same cards; formatting again gives the same rows)."""
    rows: dict[tuple[str, str, str, tuple[Power, ...]], list[str]] = {}
    for card in cards:
        key = (card.number, card.name, card.role, card.powers)
        rows.setdefault(key, []).append(_PRINT_OF[(card.foil, card.colours)])
    return [
        "\t".join((n, name, role, ",".join(v), " + ".join(p.spec() for p in powers)))
        for (n, name, role, powers), v in rows.items()
    ]
