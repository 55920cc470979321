"""Dynasty mode's Player Deck Construction Rules, checked before a game begins."""

from __future__ import annotations

from collections import Counter

from engine.elite.cards import COLOURS, EliteCard

SIZE = 8
MOST_OF_AN_ICON = 4


class DeckRuleError(ValueError):
    """A Player Deck that breaks a construction rule: `rule` is its number in the book (1-4)."""

    def __init__(self, rule: int, owner: str, message: str) -> None:
        super().__init__(f"{owner}'s Player Deck breaks construction rule {rule}: {message}")
        self.rule = rule


def check_deck(cards: list[EliteCard], owner: str = "a player") -> None:
    """ "1. Your Player Deck must have 8 Elite Action Cards. 2. You cannot have more than 1
    card of any player, by name. 3. You must have at least 1 card of each color ... Dual Color
    Cards count as both colors ... 4. You cannot have more than 4 instances of any single
    action icon ... each icon counts ... Icon modifiers ... do not make an icon unique.\""""
    if len(cards) != SIZE:
        raise DeckRuleError(1, owner, f"it must have {SIZE} Elite Action Cards, not {len(cards)}")
    by_name: dict[str, list[str]] = {}
    for card in cards:
        by_name.setdefault(card.name, []).append(card.id)
    for name, ids in by_name.items():
        if len(ids) > 1:
            raise DeckRuleError(
                2, owner, f"no more than 1 card of {name} by name (it has {', '.join(ids)})"
            )
    for colour in COLOURS:
        if not any(colour in card.colours for card in cards):
            raise DeckRuleError(
                3, owner, f"at least 1 {colour} card is needed (dual and wild cards count)"
            )
    icons = Counter(icon for card in cards for icon in card.icons())
    for icon, count in icons.items():
        if count > MOST_OF_AN_ICON:
            ids = [c.id for c in cards if icon in c.icons()]
            raise DeckRuleError(
                4,
                owner,
                f"{count} {icon.value} icons, at most {MOST_OF_AN_ICON} "
                f"(on {', '.join(ids)}; modifiers do not make an icon unique)",
            )
