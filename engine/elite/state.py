"""The state of one Elite game as data: every pile, hand and queue, and who acts now.

The bottom of `engine.elite`'s modules: the rules (`setup`, `chance`, `legal`, `flow`,
`powers`), the record's codec (`events`) and the observer (`view`) read and change an
`EliteState`; `engine.elite.game.EliteGame` is the state with the protocol's methods on top.
Dependencies flow one way, from the game down to here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.elite import steps as S
from engine.elite.cards import EliteCard
from engine.elite.uno import UnoCard
from engine.protocol import CHANCE, TERMINAL


@dataclass
class Draft:
    """The draft's table: the pile (top first), the cards showing, who picks in which order."""

    pile: list[EliteCard] = field(default_factory=list)
    showing: list[EliteCard] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    turn: int = 0
    round: int = 0
    picked: list[list[EliteCard]] = field(default_factory=list)

    def copy(self) -> Draft:
        """Its own lists, the same (immutable) cards: what a search's clone needs."""
        return replace(
            self,
            pile=list(self.pile),
            showing=list(self.showing),
            order=list(self.order),
            picked=[list(p) for p in self.picked],
        )


class EliteState:
    """Every pile, hand and queue of a game (the card tables are set by `setup.prepare`)."""

    deck_cards: list[UnoCard]
    """The UNO deck's make-up (the deck table)."""
    kinds: list[UnoCard]
    """Its distinct cards, by code: `PLAY + k` and `CARD + k` name `kinds[k]`."""
    kind_of: dict[str, int]
    elite_cards: list[EliteCard]
    """Every Elite Action Card in the game: `ELITE + i` names `elite_cards[i]`."""
    elite_index: dict[str, int]
    dynasty_decks: list[list[EliteCard]]

    def __init__(self, players: list[str], given: dict[str, Any], options: dict[str, Any]) -> None:
        self.players = players
        self.n = len(players)
        self.given_options = given
        self.options = options
        self.mode: str = options["mode"]
        self.recording = True
        self.imagined = False
        """A search's imagined world (`EliteGame.determinise`): nobody reads its log, so its
        actions are not put into words (a tenth of a rollout's time)."""
        self.events: list[dict[str, Any]] = []
        self.log: list[str] = []
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
        self.placed: list[list[EliteCard]] = [[] for _ in range(self.n)]
        """Player Decks being ordered one listed chance outcome at a time (top first)."""
        self.ordered: list[Any] = []
        """The deal, the box's shuffle or a reshuffle being ordered one listed chance outcome
        at a time (top first)."""
        self.lineups: list[list[EliteCard]] = [[] for _ in range(self.n)]
        self.elite_discards: list[list[EliteCard]] = [[] for _ in range(self.n)]  # top last
        self.peeks: list[list[tuple[int, int, tuple[UnoCard, ...]]]] = [[] for _ in range(self.n)]
        """Per seat: (seat peeked at, turn number, the hand as it was seen)."""
        self.known: list[list[list[UnoCard]]] = [[[] for _ in range(self.n)] for _ in range(self.n)]
        """`known[o][s]`: the cards seat `o` knows to be in seat `s`'s hand (`knowledge`)."""
        self.uno_state: list[str | None] = [None] * self.n
        self.winner: int | None = None
        self.blocked = False
        self.stuck = 0
        self.draft = Draft()
        self.stats: dict[str, Any] = {"turns": 0, "elite_activations": 0, "icons": {}}

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

    @property
    def top(self) -> UnoCard:
        return self.discard[-1]

    def is_playable(self, card: UnoCard) -> bool:
        """ "it matches at least one attribute of the top card ...: its color, number or symbol"
        (the Elite icon is not a symbol); a wild plays on anything."""
        return card.colour is None or card.colour == self.colour or card.rank == self.top.rank
