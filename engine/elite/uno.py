"""The 112 UNO cards of UNO Elite as data: a card kind (`UnoCard`) and the deck table's parser.

A deck file is tab-separated: `colour`, `rank`, `elite`, `recover`, `count` (see
engine/elite/data/deck.tsv, the default, and docs/rulesets.md: its make-up is an assumption).
A card's code says all of it: colour letter, rank, then `e` for an Elite icon and `c` for a
Recover icon where the rank does not carry one already: `r3`, `r3e`, `brc` (Blue Recover),
`ew` (Elite Wild), `wr` (Wild Recover).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.elite.cards import COLOURS, EliteDataError

NUMBERS = tuple(str(n) for n in range(10))
RECOVER = "recover"
ELITE_WILD = "elite-wild"
WILD_RECOVER = "wild-recover"
WILDS = (ELITE_WILD, WILD_RECOVER)
RANKS = (*NUMBERS, RECOVER, *WILDS)
ACTIONS = frozenset({RECOVER, *WILDS})
"""The UNO Action Cards: "If this card is an UNO Action Card, ignore it and flip over the next"."""
_RANK_CODE = {RECOVER: "rc", ELITE_WILD: "ew", WILD_RECOVER: "wr"}
_RANK_WORDS = {RECOVER: "Recover", ELITE_WILD: "Elite Wild", WILD_RECOVER: "Wild Recover"}
_ELITE_BY_RANK = {ELITE_WILD: True}
_RECOVER_BY_RANK = {RECOVER: True, WILD_RECOVER: True}


@dataclass(frozen=True)
class UnoCard:
    code: str
    colour: str | None  # None: a wild
    rank: str
    elite: bool
    recover: bool

    @staticmethod
    def make(colour: str | None, rank: str, elite: bool, recover: bool) -> UnoCard:
        code = (colour[0] if colour else "") + _RANK_CODE.get(rank, rank)
        if elite and not _ELITE_BY_RANK.get(rank):
            code += "e"
        if recover and not _RECOVER_BY_RANK.get(rank):
            code += "c"
        return UnoCard(code, colour, rank, elite, recover)

    def __hash__(self) -> int:  # the code names the card (and hashing one str is cheap)
        return hash(self.code)

    @property
    def wild(self) -> bool:
        return self.colour is None

    def words(self) -> str:
        text = _RANK_WORDS.get(self.rank, self.rank)
        if self.colour:
            text = f"{self.colour.capitalize()} {text}"
        icons = [
            name
            for name, has, implied in (
                ("Elite", self.elite, _ELITE_BY_RANK.get(self.rank)),
                ("Recover", self.recover, _RECOVER_BY_RANK.get(self.rank)),
            )
            if has and not implied
        ]
        return f"{text} ({', '.join(icons)})" if icons else text

    def as_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "colour": self.colour,
            "rank": self.rank,
            "elite": self.elite,
            "recover": self.recover,
            "words": self.words(),
        }


def parse_deck(text: str, source: str = "deck") -> list[UnoCard]:
    """The deck a deck table describes: every card, `count` times each, in table order."""
    deck: list[UnoCard] = []
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            card, count = _row(raw)
        except ValueError as exc:
            raise EliteDataError(source, line_no, str(exc)) from None
        deck.extend([card] * count)
    if not deck:
        raise EliteDataError(source, 1, "the deck has no cards")
    return deck


def _yes(word: str, column: str) -> bool:
    if word.lower() not in ("yes", "no"):
        raise ValueError(f"{column} must be yes or no, not {word!r}")
    return word.lower() == "yes"


def _row(raw: str) -> tuple[UnoCard, int]:
    fields = [f.strip() for f in raw.split("\t")]
    if len(fields) != 5:
        raise ValueError(
            "expected 5 tab-separated columns (colour, rank, elite, recover, count), "
            f"found {len(fields)}"
        )
    colour, rank, elite_word, recover_word, count_word = fields
    colour, rank = colour.lower(), rank.lower()
    if rank not in RANKS:
        raise ValueError(f"unknown rank {rank!r} (0-9, {RECOVER}, {ELITE_WILD}, {WILD_RECOVER})")
    if rank in WILDS:
        if colour != "wild":
            raise ValueError(f"a {rank} is wild: its colour must be 'wild', not {colour!r}")
    elif colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r} (red, blue, green, yellow)")
    elite, recover = _yes(elite_word, "elite"), _yes(recover_word, "recover")
    if _ELITE_BY_RANK.get(rank) and not elite:
        raise ValueError(f"an {rank} always has the Elite icon")
    if _RECOVER_BY_RANK.get(rank) and not recover:
        raise ValueError(f"a {rank} always has the Recover icon")
    if not count_word.isdigit() or int(count_word) < 1:
        raise ValueError(f"count must be a whole number of at least 1, not {count_word!r}")
    card = UnoCard.make(None if rank in WILDS else colour, rank, elite, recover)
    return card, int(count_word)


def default_deck() -> list[UnoCard]:
    """The default deck as engine/elite/data/deck.tsv gives it (the engine reads no files: a
    test keeps the two the same). Per colour one 0, two each of 1-9 (one of each pair with the
    Elite icon) and six Recover; eight Elite Wild and four Wild Recover."""
    deck: list[UnoCard] = []
    for colour in COLOURS:
        deck.append(UnoCard.make(colour, "0", False, False))
        for n in NUMBERS[1:]:
            deck.append(UnoCard.make(colour, n, False, False))
            deck.append(UnoCard.make(colour, n, True, False))
        deck.extend([UnoCard.make(colour, RECOVER, False, True)] * 6)
    deck.extend([UnoCard.make(None, ELITE_WILD, True, False)] * 8)
    deck.extend([UnoCard.make(None, WILD_RECOVER, False, True)] * 4)
    return deck


def card_of_code(code: str) -> UnoCard:
    """The card a code names (`r3e`, `brc`, `ew` ...); ValueError for a code that names none."""
    text = code
    colour: str | None = None
    if text[:2] in ("ew", "wr"):
        rank = ELITE_WILD if text[:2] == "ew" else WILD_RECOVER
        text = text[2:]
    else:
        colour = next((c for c in COLOURS if text[:1] == c[0]), None)
        if colour is None:
            raise ValueError(f"unknown UNO card {code!r}")
        text = text[1:]
        if text[:2] == "rc":
            rank, text = RECOVER, text[2:]
        elif text[:1].isdigit():
            rank, text = text[0], text[1:]
        else:
            raise ValueError(f"unknown UNO card {code!r}")
    elite = bool(_ELITE_BY_RANK.get(rank)) or text.startswith("e")
    text = text[1:] if text.startswith("e") else text
    recover = bool(_RECOVER_BY_RANK.get(rank)) or text == "c"
    card = UnoCard.make(colour, rank, elite, recover)
    if card.code != code:
        raise ValueError(f"unknown UNO card {code!r}")
    return card
