"""Setting an Elite game up: options, the cards of the box, the deal, the draft, the Lineups.

"Shuffle the 112 UNO cards ... deal 7 UNO cards to each player ... Flip over the top card ...
If this card is an UNO Action Card, ignore it and flip over the next card. Open the Game
Booster Packs, shuffle the cards and deal 8 cards to each player ... Each player flips over
the top 3 cards of their Player Deck ... to form their Lineup."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.elite import dynasty
from engine.elite import steps as S
from engine.elite.cards import EliteCard, box, card_row, format_cards
from engine.elite.options import OPTIONS as OPTIONS  # (re-exported: where it was)
from engine.elite.options import resolve_options as resolve_options
from engine.elite.state import EliteState
from engine.elite.uno import ACTIONS, UnoCard, default_deck

HAND, DECK, LINEUP, ROUNDS = 7, 8, 3, 8


def prepare(
    game: EliteState, cards: Sequence[EliteCard] | None, deck: Sequence[UnoCard] | None
) -> None:
    """The game's cards: the UNO deck, the Elite cards in play and their indices."""
    game.deck_cards = list(deck) if deck is not None else default_deck()
    if len(game.deck_cards) < HAND * game.n + 2:
        raise ValueError(f"a deck of {len(game.deck_cards)} cards is too small to deal")
    codes = sorted({c.code for c in game.deck_cards})
    game.kinds = [next(c for c in game.deck_cards if c.code == k) for k in codes]
    game.kind_of = {c.code: i for i, c in enumerate(game.kinds)}
    if game.mode == "dynasty":
        game.elite_cards = _dynasty_cards(game)
    else:
        if cards is None:
            raise ValueError(f"{game.mode} play needs the Elite Action Cards of the box")
        game.elite_cards = box(cards, game.options["box"])
        if len(game.elite_cards) < DECK * game.n:
            raise ValueError(
                f"{game.n} players need at least {DECK * game.n} Elite Action Cards "
                f"(8 each), the box has {len(game.elite_cards)}"
            )
    ids = [c.id for c in game.elite_cards]
    if len(set(ids)) != len(ids):
        raise ValueError("two Elite Action Cards share an id")
    game.elite_index = {c.id: i for i, c in enumerate(game.elite_cards)}


def _dynasty_cards(game: EliteState) -> list[EliteCard]:
    decks = game.given_options.get("decks")
    if not isinstance(decks, list | tuple) or not all(_cards(deck) for deck in decks):
        raise ValueError(  # (words from a request are no deck: its caller reads the files)
            "dynasty needs each player's own Player Deck, read from files: tinker-tray play "
            "--ruleset elite --option mode=dynasty --option decks=A.tsv,B.tsv,..."
        )
    if len(decks) != game.n:
        raise ValueError(f"dynasty play needs one Player Deck per player ({game.n})")
    out: list[EliteCard] = []
    game.dynasty_decks = []
    for seat, seat_deck in enumerate(decks):
        dynasty.check_deck(list(seat_deck), game.players[seat])
        own = [replace(c, id=f"s{seat}-{c.id}") for c in seat_deck]
        game.dynasty_decks.append(own)
        out.extend(own)
    return out


def _cards(deck: object) -> bool:
    return isinstance(deck, list | tuple) and all(isinstance(c, EliteCard) for c in deck)


def deal(game: EliteState, order: list[UnoCard]) -> None:
    """7 cards each, one at a time from seat 0; the next card turned up (an UNO Action Card
    turned up goes under the draw pile and the next is turned up)."""
    n = game.n
    for i in range(HAND * n):
        game.hands[i % n].append(order[i])
    rest = order[HAND * n :]
    for _ in range(len(rest)):
        if rest[0].rank not in ACTIONS:
            break
        rest.append(rest.pop(0))
    first = rest.pop(0)
    game.discard = [first]
    game.colour = first.colour or "red"
    game.draw = rest[::-1]
    game.log.append(f"The UNO cards are dealt; {first.words()} is turned up.")
    game.phase = S.PLAYER_DECKS if game.mode == "dynasty" else S.ELITE_SHUFFLE


def elite_shuffle(game: EliteState, order: list[EliteCard]) -> None:
    """Quick play: 8 cards dealt to each, one at a time from seat 0 (each Player Deck in the
    order dealt, top first). Draft: the shuffled pile, and the first cards turned up."""
    if game.mode == "quick":
        for seat in range(game.n):
            game.player_decks[seat] = order[seat :: game.n][:DECK]
        start_play(game)
        return
    d = game.draft
    d.pile, d.picked = list(order), [[] for _ in range(game.n)]
    d.order, d.round = list(range(game.n)), 0  # "The youngest player gets to draft first"
    _turn_up(game)


def _turn_up(game: EliteState) -> None:
    d = game.draft
    take = min(game.n + 2, len(d.pile))
    d.showing, d.pile, d.turn = d.pile[:take], d.pile[take:], 0
    game.steps = [S.Step(S.DRAFT, d.order[0])]
    game.phase = S.DRAFT


def draft_pick(game: EliteState, card: EliteCard) -> None:
    """A pick; after a round, "Return the undrafted cards to the bottom of the pile then flip
    over the same amount ... the player that chose last chooses first and the drafting goes
    in reverse order.\""""
    d = game.draft
    seat = d.order[d.turn]
    d.showing.remove(card)
    d.picked[seat].append(card)
    d.turn += 1
    if d.turn < len(d.order):
        game.steps = [S.Step(S.DRAFT, d.order[d.turn])]
        return
    d.pile.extend(d.showing)
    d.showing, d.round = [], d.round + 1
    if d.round == ROUNDS:
        game.steps, game.phase = [], S.PLAYER_DECKS
        return
    d.order.reverse()
    _turn_up(game)


def player_decks(game: EliteState, decks: list[list[EliteCard]]) -> None:
    game.player_decks = [list(d) for d in decks]
    start_play(game)


def start_play(game: EliteState) -> None:
    for seat in range(game.n):
        refill(game, seat)
    game.to_move = 0
    game.steps = [S.Step(S.TURN, 0)]
    game.phase = S.TURN
    game.log.append(f"Each player turns up a Lineup of 3; {game.players[0]} plays first.")


def refill(game: EliteState, seat: int) -> None:
    """ "draw 1 card from the top of your Player Deck and add it to your Lineup, bringing it
    back up to 3" (never reshuffled: an empty Player Deck leaves the Lineup short)."""
    lineup, deck = game.lineups[seat], game.player_decks[seat]
    while len(lineup) < LINEUP and deck:
        lineup.append(deck.pop(0))


def header(game: EliteState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "format": "tinker-tray-record/1",
        "ruleset": "elite",
        "players": list(game.players),
        "options": {k: v for k, v in game.given_options.items() if k != "decks"},
        "deck": [c.code for c in game.deck_cards],
    }
    if game.mode == "dynasty":
        out["player_decks"] = [[card_row(c) for c in d] for d in game.dynasty_decks]
    else:
        out["elite_cards"] = format_cards(game.elite_cards)
    return out
