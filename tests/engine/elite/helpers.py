"""Elite tables for rule tests: the bundled cards, test cards with every icon and modifier,
and a game set up through the real chance events, then stacked as a test needs it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from engine.elite import EliteCard, EliteGame, UnoCard, default_deck, parse_cards, parse_deck
from engine.elite import actions as A
from engine.elite.uno import card_of_code
from engine.protocol import CHANCE

DATA = Path(__file__).resolve().parents[3] / "engine" / "elite" / "data"
F1 = parse_cards((DATA / "f1-2025.tsv").read_text(), "f1-2025.tsv")
DECK = parse_deck((DATA / "deck.tsv").read_text(), "deck.tsv")
TEST_ROWS = """\
T01\tTester Skip\tdriver\tbase\tSkip uno
T02\tTester Skip Target\tdriver\tbase\tSkip uno Target
T03\tTester Skip Everyone\tdriver\tbase\tSkip uno Everyone
T04\tTester Reverse\tdriver\tbase\tReverse uno
T05\tTester Draw\tdriver\tbase\tDraw 2 uno
T06\tTester Draw Target\tdriver\tbase\tDraw 3 uno Target
T07\tTester Draw Everyone\tdriver\tbase\tDraw 1 uno Everyone
T08\tTester Peek\tdriver\tbase\tPeek uno
T09\tTester Peek Everyone\tdriver\tbase\tPeek uno Everyone
T10\tTester Play Again\tdriver\tbase\tPlay Again uno
T11\tTester Discard\tdriver\tbase\tDiscard 1 uno
T12\tTester Discard Two Target\tdriver\tbase\tDiscard 2 uno Target
T13\tTester Discard Elite\tdriver\tbase\tDiscard 1 elite Target
T14\tTester Recover\tdriver\tbase\tRecover 2 elite
T15\tTester Recover UNO\tdriver\tbase\tRecover 1 uno
T16\tTester Swap\tdriver\tbase\tSwap Hands uno
T17\tTester Discard Color\tdriver\tbase\tDiscard Color uno
T18\tTester Search\tdriver\tbase\tSearch elite
T19\tTester Substitute\tdriver\tbase\tSubstitute elite
T20\tTester Refresh\tdriver\tbase\tRefresh uno
T21\tTester Reverse Skip\tdriver\tbase\tReverse uno + Skip uno
T22\tTester Foils\tdriver\tblue/red,green/yellow,wild,nitro\tSkip uno
T23\tTester Discard Everyone\tdriver\tbase\tDiscard 1 uno Everyone
T24\tTester Draw Discard Color\tdriver\tbase\tDiscard Color uno Target
"""
TEST_CARDS = parse_cards(TEST_ROWS, "test cards")
CARDS = F1 + TEST_CARDS
BY_ID = {c.id: c for c in CARDS}
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")
DYNASTY_ROWS = [  # a Player Deck that keeps every construction rule (8 cards)
    "001\tAlex Albon\tdriver\tred\tSkip uno Target + Peek uno",
    "004\tFernando Alonso\tdriver\tblue\tPlay Again uno + Reverse uno",
    "007\tKimi Antonelli\tdriver\tgreen\tDraw 1 uno + Skip uno",
    "013\tGabriel Bortoleto\tdriver\tyellow\tReverse uno + Discard 1 uno",
    "028\tIsack Hadjar\tdriver\tred\tPeek uno + Search elite",
    "048\tLando Norris\tdriver\tblue\tRecover 4 elite + Play Again uno",
    "067\tYuki Tsunoda\tdriver\tgreen\tSwap Hands uno + Recover 1 elite",
    "072\tMax Verstappen\tdriver\tyellow\tDraw 4 uno Target + Play Again uno",
]


def uno(code: str) -> UnoCard:
    return card_of_code(code)


def elite(card_id: str) -> EliteCard:
    return BY_ID[card_id]


def new_game(players: int = 3, options: dict | None = None, seed: int = 0) -> EliteGame:
    """A game with every chance event sampled with `seed` up to the first player choice."""
    game = EliteGame(NAMES[:players], {"box": "all", **(options or {})}, cards=CARDS)
    rng = random.Random(seed)
    while game.is_chance_node():
        game.sample_chance(rng)
    return game


def table(
    players: int = 3,
    hands: dict[int, Sequence[str]] | None = None,
    top: str = "r5",
    colour: str | None = None,
    draw: Sequence[str] = (),
    lineups: dict[int, Sequence[str]] | None = None,
    decks: dict[int, Sequence[str]] | None = None,
    options: dict | None = None,
) -> EliteGame:
    """A quick game dealt by chance, then stacked: `hands` (seat -> codes), the `top` card,
    the next cards to `draw` (top first), `lineups` and Player `decks` (seat -> Elite ids)."""
    game = new_game(players, options)
    for seat, codes in (hands or {}).items():
        game.hands[seat] = [uno(c) for c in codes]
    game.discard = [*game.discard[:-1], uno(top)]
    game.colour = colour or uno(top).colour or "red"
    game.draw.extend(uno(c) for c in reversed(draw))
    for seat, ids in (lineups or {}).items():
        game.lineups[seat] = [elite(i) for i in ids]
    for seat, ids in (decks or {}).items():
        game.player_decks[seat] = [elite(i) for i in ids]
    return game


def play(game: EliteGame, code: str) -> int:
    return A.PLAY + game.kind_of[code]


def card(game: EliteGame, code: str) -> int:
    return A.CARD + game.kind_of[code]


def pick(game: EliteGame, card_id: str) -> int:
    return A.ELITE + game.elite_index[card_id]


def target(seat: int) -> int:
    return A.TARGET + seat


def codes(cards: Sequence[UnoCard]) -> list[str]:
    return [c.code for c in cards]


def ids(cards: Sequence[EliteCard]) -> list[str]:
    return [c.id for c in cards]


__all__ = ["DECK", "F1", "default_deck"]


def until_chance(game: EliteGame, kind: str, rng: random.Random) -> EliteGame:
    """`game` played at random, chance sampled, until `kind` is the pending chance event."""
    while game.chance_kind() != kind:
        if game.current_player() == CHANCE:
            game.sample_chance(rng)
        else:
            game.apply_action(rng.choice(game.legal_actions()))
    return game
