"""One game of UNO Elite (`EliteGame`): `engine.protocol.GameState` over the Elite rules.

OpenSpiel's shape, as every ruleset: `current_player()` is a seat, CHANCE or TERMINAL;
`legal_actions()` lists the small ints (engine/elite/actions.py) the seat to act may take;
UNO calls and catches, by any seat, are `interjections()`, applied with `apply_action(action,
seat)`; `apply_action` checks the action before anything changes, so a refused action
(`RuleError`, naming the rule broken) leaves the game exactly as it was. Chance (the UNO deal,
the Elite cards' shuffle, each Player Deck's order, a reshuffle) is an order of cards, given
whole (`apply_chance`, a record's event) or sampled (`sample_chance`), or one card at a time:
the next card is one of `chance_outcomes()`, taken through the same `apply_action`.
What a seat may see (its hand, what it peeked at or searched) is its `observation` alone.
No I/O, no clock, no randomness of its own.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.elite import actions as A
from engine.elite import chance, events, flow, imagine, legal, setup, view
from engine.elite.cards import EliteCard
from engine.elite.hints import ELITE_HINTS
from engine.elite.state import EliteState
from engine.elite.uno import UnoCard
from engine.errors import RuleError
from engine.protocol import CHANCE, TERMINAL, GameState

HAND_SIZE = 7
DECK_SIZE = 8
LINEUP = 3


class EliteGame(EliteState):
    """A game of UNO Elite: implements `engine.protocol.GameState`."""

    features = frozenset({"lineups"})
    """What the layers above may branch on: Lineups and Player Decks; no Tinker Bell, no
    points (a game is one hand, won by the first empty hand)."""
    hints = ELITE_HINTS
    """How the bots and the search bot play UNO Elite (`engine.elite.hints`)."""

    def __init__(
        self,
        players: Sequence[str] = ("Ann", "Ben"),
        options: Mapping[str, Any] | None = None,
        cards: Sequence[EliteCard] | None = None,
        deck: Sequence[UnoCard] | None = None,
        record: bool = True,
    ) -> None:
        if not 2 <= len(players) <= 10:
            raise ValueError(f"UNO Elite is for 2-10 players, not {len(players)}")
        given = dict(options or {})
        super().__init__(list(players), given, setup.resolve_options(given))
        self.recording = record
        setup.prepare(self, cards, deck)

    # ------------------------------------------------------------------ who acts
    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The actions of the seat to act (UNO calls and catches are `interjections`).

        `seat` (transitional, for digital/elite_link.py until digital play is one path): what
        that seat may do now, its step's actions on its move and its calls."""
        if seat is not None:
            return legal.seat_actions(self, seat)
        return legal.step_actions(self)

    def interjections(self) -> list[tuple[int, int]]:
        """(seat, action): UNO by a seat holding one card it has not called; a catch of such a
        seat by any other ("before the next player begins their turn"). A seat's own UNO is
        listed first, so the bots' one policy (`engine.bots.offer_calls`) asks it first."""
        if self.current_player() < 0:  # chance, or the game is over
            return []
        calls = [(s, a) for s in range(self.n) for a in legal.interjections(self, s)]
        return sorted(calls, key=lambda call: call[1] != A.UNO)  # (stable: seat order kept)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability): which card comes next in the pending deal, shuffle,
        reshuffle or Player Deck (`engine.elite.chance.outcomes`)."""
        return chance.outcomes(self)

    # ------------------------------------------------------------------ actions
    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Apply `action` by `seat` (default: the seat to act), or a listed chance outcome;
        RuleError changes nothing."""
        if self.is_chance_node():
            chance.place(self, action)
            flow.run(self)
            return
        actor = legal.check(self, action, seat)
        event = events.event_for(self, action, actor) if self.recording else None
        words = None if self.imagined else events.words_of(self, action, actor)
        flow.apply(self, action, actor)
        if event is not None:
            self.events.append(event)
        if words is not None:
            self.log.append(words)
        flow.run(self)

    def apply_listed(self, action: int, seat: int | None = None) -> None:
        """(`engine.protocol.GameState.apply_listed`) Checked all the same: UNO Elite's check
        is small beside what its powers then do."""
        self.apply_action(action, seat)

    def apply_event(self, event: Mapping[str, Any]) -> None:
        """Apply one record event; on any error the game is left as it was."""
        if "chance" in event:
            self.apply_chance(chance.order_of(self, event))
            return
        seat, action = events.action_for(self, event)
        self.apply_action(action, seat)

    def describe(self, action: int, seat: int | None = None) -> str:
        """An action in words, as the seat choosing it reads it ("play Red 3 (Elite)")."""
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
        for name in ("hands", "player_decks", "placed", "lineups", "elite_discards", "peeks"):
            setattr(twin, name, [list(x) for x in getattr(self, name)])
        twin.draw, twin.discard, twin.steps = list(self.draw), list(self.discard), list(self.steps)
        twin.ordered = list(self.ordered)
        twin.known = [[list(k) for k in row] for row in self.known]
        twin.owed = [list(x) for x in self.owed]
        twin.skips, twin.uno_state = list(self.skips), list(self.uno_state)
        twin.draft = self.draft.copy()
        twin.stats = {**self.stats, "icons": dict(self.stats["icons"])}
        return twin

    def determinise(self, seat: int, rng: random.Random) -> EliteGame:
        """A copy in which every card `seat` cannot see is dealt again at random, consistent
        with everything it can (`engine.elite.imagine`): what a search imagines. Its actions
        are not put into words in its log (`imagined`)."""
        world = self.clone()
        world.imagined = True
        imagine.deal_unseen(world, self, seat, rng)
        return world

    # ------------------------------------------------------------------ reading
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator): `engine.elite.view` decides."""
        return view.observation(self, seat)

    def header(self) -> dict[str, Any]:
        return setup.header(self)

    def header_ready(self) -> bool:
        """Always: the deal is an event of the record, not part of its header."""
        return True

    def record(self) -> str:
        """The replayable game record (JSON Lines), when this game records."""
        from engine import record  # (imported when asked: a game that records imports no more

        return record.dumps(self)

    def summary(self) -> dict[str, Any]:
        """The state as `replay` prints it (docs/record-format.md, "UNO Elite")."""
        acting = self.current_player()
        return {
            "ruleset": "elite",
            "mode": self.mode,
            "turn": self.to_move,
            "direction": self.direction,
            "colour": self.colour or None,
            "discard_top": self.discard[-1].code if self.discard else None,
            "draw_pile": len(self.draw),
            "hands": {str(s): [c.code for c in h] for s, h in enumerate(self.hands)},
            "lineups": {str(s): [c.id for c in x] for s, x in enumerate(self.lineups)},
            "player_decks": {str(s): len(d) for s, d in enumerate(self.player_decks)},
            "elite_discards": {
                str(s): [c.id for c in x] for s, x in enumerate(self.elite_discards)
            },
            "awaiting": {"kind": self.phase, "seat": acting if acting >= 0 else None},
            "winner": self.winner,
            "blocked": self.blocked,
        }


__all__ = ["CHANCE", "TERMINAL", "EliteGame", "RuleError"]


def _implements_the_protocol(game: EliteGame) -> GameState:
    """mypy checks here that `EliteGame` is a `GameState` (the protocol is structural)."""
    return game
