"""One game of UNO Elite (`EliteGame`): the state, who acts, what they may do, and the record.

OpenSpiel's shape, as `engine.game.Game`: `current_player()` is a seat, CHANCE or TERMINAL;
`legal_actions(seat)` lists small ints (engine/elite/actions.py); `apply_action` checks the
action against them before anything changes, so a refused action (`RuleError`) leaves the game
exactly as it was. Chance (the UNO deal, the Elite cards' shuffle, each Player Deck's order, a
reshuffle) is an explicit event: `apply_chance(order)` or `sample_chance(rng)`. No I/O, no
clock, no randomness of its own.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.elite import chance, events, flow, legal, setup, view
from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.uno import UnoCard
from engine.errors import RuleError
from engine.protocol import CHANCE, TERMINAL

MODES = ("quick", "draft", "dynasty")
HAND_SIZE = 7
DECK_SIZE = 8
LINEUP = 3


class EliteGame:
    deck_cards: list[UnoCard]
    """The UNO deck's make-up (the deck table)."""
    kinds: list[UnoCard]
    """Its distinct cards, by code: `PLAY + k` and `CARD + k` name `kinds[k]`."""
    kind_of: dict[str, int]
    elite_cards: list[EliteCard]
    """Every Elite Action Card in the game: `ELITE + i` names `elite_cards[i]`."""
    elite_index: dict[str, int]
    dynasty_decks: list[list[EliteCard]]

    def __init__(
        self,
        players: Sequence[str] = ("Ann", "Ben"),
        options: Mapping[str, Any] | None = None,
        cards: Sequence[EliteCard] | None = None,
        deck: Sequence[UnoCard] | None = None,
        record: bool = True,
    ) -> None:
        self.players = list(players)
        self.n = len(self.players)
        if not 2 <= self.n <= 10:
            raise ValueError(f"UNO Elite is for 2-10 players, not {self.n}")
        self.given_options = dict(options or {})
        self.options = setup.resolve_options(self.given_options)
        self.mode: str = self.options["mode"]
        self.recording = record
        self.events: list[dict[str, Any]] = []
        self.log: list[str] = []
        setup.prepare(self, cards, deck)
        self.phase = S.DEAL
        self.hands: list[list[UnoCard]] = [[] for _ in range(self.n)]
        self.draw: list[UnoCard] = []  # top at the end
        self.discard: list[UnoCard] = []  # top at the end
        self.colour = ""
        self.direction = 1
        self.to_move = 0
        self.steps: list[S.Step] = []
        self.owed: list[list[int]] = []  # [seat, cards] still to draw, in order
        self.skips = [0] * self.n
        self.again = False
        self.player_decks: list[list[EliteCard]] = [[] for _ in range(self.n)]  # top first
        self.lineups: list[list[EliteCard]] = [[] for _ in range(self.n)]
        self.elite_discards: list[list[EliteCard]] = [[] for _ in range(self.n)]  # top last
        self.peeks: list[list[tuple[int, int, tuple[UnoCard, ...]]]] = [[] for _ in range(self.n)]
        """Per seat: (seat peeked at, turn number, the hand as it was seen)."""
        self.uno_state: list[str | None] = [None] * self.n
        self.winner: int | None = None
        self.blocked = False
        self.stuck = 0
        self.draft = setup.Draft()
        self.stats: dict[str, Any] = {"turns": 0, "elite_activations": 0, "icons": {}}

    # ------------------------------------------------------------------ who acts
    def current_player(self) -> int:
        if self.phase == S.OVER:
            return TERMINAL
        if self.phase in S.CHANCE_PHASES:
            return CHANCE
        return self.steps[0].seat

    def is_terminal(self) -> bool:
        return self.phase == S.OVER

    def is_chance_node(self) -> bool:
        return self.phase in S.CHANCE_PHASES

    def chance_kind(self) -> str | None:
        """What chance must supply: "deal", "elite_shuffle", "player_decks" or "reshuffle"."""
        return self.phase if self.phase in S.CHANCE_PHASES else None

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The actions `seat` may take now (default: the seat to act); out of turn, only UNO
        and catch."""
        if self.phase == S.OVER or self.phase in S.CHANCE_PHASES:
            return []
        actor = self.steps[0].seat
        who = actor if seat is None else seat
        acts = legal.for_step(self, self.steps[0]) if who == actor else []
        return acts + legal.interjections(self, who)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every chance node here is an order of many cards: an explicit event (`chance_pool`,
        `apply_chance`, `sample_chance`), never a short list of outcomes."""
        return []

    # ------------------------------------------------------------------ actions
    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Apply `action` by `seat` (default: the seat to act); RuleError changes nothing."""
        actor = legal.check(self, action, seat)
        event = events.event_for(self, action, actor) if self.recording else None
        words = events.words_of(self, action, actor)
        flow.apply(self, action, actor)
        if event is not None:
            self.events.append(event)
        self.log.append(words)
        flow.run(self)

    def apply_event(self, event: Mapping[str, Any]) -> None:
        """Apply one record event; on any error the game is left as it was."""
        if "chance" in event:
            self.apply_chance(chance.order_of(self, event))
            return
        seat, action = events.action_for(self, event)
        self.apply_action(action, seat)

    def describe(self, action: int, seat: int | None = None) -> str:
        return events.describe(self, action, self.current_player() if seat is None else seat)

    # ------------------------------------------------------------------ chance
    def chance_pool(self) -> Any:
        """What the pending chance event orders (see `apply_chance`)."""
        return chance.pool(self)

    def apply_chance(self, order: Any) -> None:
        """deal / reshuffle: UNO cards top first; elite_shuffle: the box's Elite cards top
        first; player_decks: one list of Elite cards per seat, top first."""
        chance.apply(self, order)
        flow.run(self)

    def sample_chance(self, rng: random.Random) -> None:
        self.apply_chance(chance.sample(self, rng))

    def clone(self, record: bool = False) -> EliteGame:
        """An independent copy for search to play on: every pile, hand and queue copied; the
        cards (immutable), the deck table and the options shared. Unrecorded by default."""
        twin = copy.copy(self)
        twin.recording = record
        twin.events = list(self.events) if record else []
        twin.log = self.log[-view.LOG_LINES :]
        for name in ("hands", "player_decks", "lineups", "elite_discards", "peeks"):
            setattr(twin, name, [list(x) for x in getattr(self, name)])
        twin.draw, twin.discard, twin.steps = list(self.draw), list(self.discard), list(self.steps)
        twin.owed = [list(x) for x in self.owed]
        twin.skips, twin.uno_state = list(self.skips), list(self.uno_state)
        twin.draft = self.draft.copy()
        twin.stats = {**self.stats, "icons": dict(self.stats["icons"])}
        return twin

    # ------------------------------------------------------------------ reading
    def seat_view(self, seat: int) -> dict[str, Any]:
        return view.seat_view(self, seat)

    def public_view(self) -> dict[str, Any]:
        return view.seat_view(self, None)

    @property
    def top(self) -> UnoCard:
        return self.discard[-1]

    def header(self) -> dict[str, Any]:
        return setup.header(self)

    def is_playable(self, card: UnoCard) -> bool:
        """ "it matches at least one attribute of the top card ...: its color, number or symbol"
        (the Elite icon is not a symbol); a wild plays on anything."""
        return card.colour is None or card.colour == self.colour or card.rank == self.top.rank


__all__ = ["CHANCE", "TERMINAL", "EliteGame", "RuleError"]
