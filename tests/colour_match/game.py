"""Colour Match: a card game written only in the tests, to prove the engine's core knows no
ruleset (docs/engine.md, "Adding a ruleset", uses it as the worked example).

Forty cards, red, blue, green and yellow 0 to 9. Each player is dealt five and one card is
turned up. In turn, lay a card of the top card's colour or number, or draw one; with the draw
pile empty, pass. The first with no cards wins; if every player passes in a row, nobody does.

Given a target (the option "target"), it is played for points, hand after hand: going out scores
the numbers left in the others' hands (`awarded`), a hand nobody wins scores nothing, and the
first to the target wins (`won`). The game then declares "points", and the scoreboard keeps its
hands on Colour Match's own score sheet (`sheet.py`, which scores with the same two functions).
"""

from __future__ import annotations

import random
from typing import Any

from engine import observation as shape
from engine.colours import COLOUR_LETTERS, COLOURS
from engine.errors import EventError, RuleError
from engine.protocol import CHANCE, TERMINAL
from engine.record import FORMAT

NAME = "colour-match"
DECK = tuple(range(40))  # card = colour * 10 + number
DRAW, PASS = 40, 41
HAND = 5


def code(card: int) -> str:
    return f"{COLOUR_LETTERS[card // 10]}{card % 10}"


def card_of(text: object) -> int:
    if isinstance(text, str) and len(text) == 2 and text[0] in COLOUR_LETTERS and text[1].isdigit():
        return COLOUR_LETTERS.index(text[0]) * 10 + int(text[1])
    raise EventError(f"{text!r} is no Colour Match card (R0 to Y9)")


def awarded(totals: tuple[int, ...], winner: int, points: tuple[int, ...]) -> tuple[int, ...]:
    """Each seat's total after a hand `winner` went out of, the others holding `points`."""
    return tuple(t + (sum(points) if s == winner else 0) for s, t in enumerate(totals))


def won(totals: tuple[int, ...], target: int) -> int | None:
    """The game's winner once a total reaches `target` (the highest; the first seat of a tie)."""
    best = max(totals)
    return totals.index(best) if best >= target else None


def face(card: int) -> dict[str, Any]:
    return {
        "code": code(card),
        "name": f"{COLOURS[card // 10]} {card % 10}",
        "colour": COLOURS[card // 10],
    }


class ColourMatch:
    """A game of Colour Match, in the engine's protocol (`engine.protocol.GameState`)."""

    features: frozenset[str] = frozenset()

    def __init__(self, players: list[str], record: bool = True, target: int | None = None) -> None:
        if not 2 <= len(players) <= 4:
            raise ValueError("Colour Match seats 2 to 4 players")
        self.players, self.recording, self.target = list(players), record, target
        if target is not None:
            self.features = frozenset({"points"})
        self.totals = (0,) * len(players)
        self.history: list[dict[str, Any]] = []  # the hands scored, for the score sheet
        self.events: list[dict[str, Any]] = []
        self.ordered: list[int] = []  # the deck placed so far, top first (chance)
        self.hands: list[list[int]] = [[] for _ in players]
        self.draw: list[int] = []
        self.discard: list[int] = []
        self.to_move, self.passes, self.winner = 0, 0, None
        self.log: list[str] = []

    # ---- the core protocol
    def current_player(self) -> int:
        if not self.discard:
            return CHANCE
        return TERMINAL if self.is_terminal() else self.to_move

    def is_terminal(self) -> bool:
        return bool(self.discard) and (self.winner is not None or self.passes >= len(self.players))

    def legal_actions(self) -> list[int]:
        if self.current_player() < 0:
            return []
        top = self.discard[-1]
        plays = [c for c in self.hands[self.to_move] if c // 10 == top // 10 or c % 10 == top % 10]
        return [*sorted(plays), DRAW if self.draw else PASS]

    def chance_kind(self) -> str | None:
        return "deal" if not self.discard else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = [c for c in DECK if c not in self.ordered] if not self.discard else []
        return [(c, 1 / len(left)) for c in left]

    def sample_chance(self, rng: random.Random) -> None:
        rest = [c for c in DECK if c not in self.ordered]
        rng.shuffle(rest)
        self._deal(self.ordered + rest)

    def interjections(self) -> list[tuple[int, int]]:
        return []

    def apply_listed(self, action: int, seat: int | None = None) -> None:
        self.apply_action(action, seat)  # (its check is a list of a few cards)

    def apply_action(self, action: int, seat: int | None = None) -> None:
        if self.current_player() == CHANCE:
            if action not in dict(self.chance_outcomes()):
                raise RuleError("deal", f"{action} is not a card left to deal")
            self.ordered.append(action)
            if len(self.ordered) == len(DECK):
                self._deal(self.ordered)
            return
        if seat not in (None, self.to_move) or action not in self.legal_actions():
            raise RuleError("play", f"{self.describe(action, seat)} is not allowed now")
        who, hand = self.to_move, self.hands[self.to_move]
        self.log.append(self.describe(action))
        if action == DRAW:
            hand.append(self.draw.pop(0))
            self._event({"seat": who, "act": "draw"})
        elif action == PASS:
            self.passes += 1
            self._event({"seat": who, "act": "pass"})
        else:
            hand.remove(action)
            self.discard.append(action)
            self.passes = 0
            self._event({"seat": who, "act": "play", "card": code(action)})
            if not hand:
                self.winner = who
        self.to_move = (who + 1) % len(self.players)
        if self.target is not None and self.is_terminal():
            self._score_hand()

    def _score_hand(self) -> None:
        """Played for points: the hand just ended is scored, and the next is dealt unless a
        total has reached the target."""
        winner, held = self.winner, tuple(sum(c % 10 for c in h) for h in self.hands)
        if winner is not None:
            self.totals = awarded(self.totals, winner, held)
            number = len(self.history) + 1
            self.history.append({"hand": number, "winner": winner, "held": list(held)})
        assert self.target is not None
        self.winner = won(self.totals, self.target)
        if self.winner is None:  # the next hand: a deal again
            self.discard, self.draw, self.passes = [], [], 0
            self.hands = [[] for _ in self.players]

    def finished_hands(self) -> list[dict[str, Any]]:
        """Each hand scored so far (`engine.protocol.ScoreSheet`), when played for points."""
        return [{**h, "held": list(h["held"])} for h in self.history]

    def _deal(self, order: list[int]) -> None:
        if sorted(order) != list(DECK):
            raise EventError("a deal must order all forty cards once")
        n = len(self.players)
        self.hands = [order[s * HAND : (s + 1) * HAND] for s in range(n)]
        self.discard, self.draw, self.ordered = [order[n * HAND]], order[n * HAND + 1 :], []
        self._event({"chance": "deal", "order": [code(c) for c in order]})

    def _event(self, event: dict[str, Any]) -> None:
        if self.recording:
            self.events.append(event)

    def apply_event(self, event: Any) -> None:
        if not isinstance(event, dict):
            raise EventError("an event must be an object")
        if event.get("chance") == "deal":
            order = event.get("order")
            if self.discard or not isinstance(order, list):
                raise EventError("a deal comes first, with the order of the cards")
            return self._deal([card_of(c) for c in order])
        act = {"draw": DRAW, "pass": PASS}.get(event.get("act"))  # type: ignore[arg-type]
        action = card_of(event.get("card")) if event.get("act") == "play" else act
        if action is None:
            raise EventError(f"unknown event {event!r}")
        self.apply_action(action, event.get("seat"))

    # ---- what a seat sees, in words
    def describe(self, action: int, seat: int | None = None) -> str:
        who = self.players[self.to_move if seat is None else seat]
        return {DRAW: f"{who} draws", PASS: f"{who} passes"}.get(
            action, f"{who} lays {code(action) if 0 <= action < 40 else action}"
        )

    def observation(self, seat: int | None) -> dict[str, Any]:
        mine = seat is not None and seat == self.to_move and not self.is_terminal()
        if self.is_terminal():
            who = "nobody" if self.winner is None else self.players[self.winner]
            prompt = f"Game over: {who} won."
        elif not self.discard:
            prompt = "Waiting for the deal."
        elif mine:
            prompt = "Your move: lay a card of the colour or number, or draw."
        else:
            prompt = f"{self.players[self.to_move]} to play."
        kinds = {DRAW: "draw", PASS: "pass"}
        legal = [
            shape.move(a, kinds.get(a, "play"), self.describe(a), card=code(a) if a < 40 else None)
            for a in (self.legal_actions() if mine else [])
        ]
        top = self.discard[-1] if self.discard else None
        cards = [
            {"seat": s, "name": p, "cards": len(h)}
            for s, (p, h) in enumerate(zip(self.players, self.hands, strict=True))
        ]
        return {
            "seat": seat,
            "to_move": self.current_player() if self.current_player() >= 0 else None,
            "players": cards,
            "prompt": prompt,
            "top": None if top is None else face(top),
            "colour": None if top is None else COLOURS[top // 10],
            "direction": "left",
            "draw_pile": len(self.draw),
            "discard_pile": len(self.discard),
            "log": self.log[-8:],
            "hand": [face(c) for c in self.hands[seat]] if seat is not None else [],
            "legal": legal,
            "uno_call": False,
            "calls": [],
        }

    # ---- the record
    def header(self) -> dict[str, Any]:
        options = {} if self.target is None else {"target": self.target}
        return {"format": FORMAT, "ruleset": NAME, "players": self.players, "options": options}

    def header_ready(self) -> bool:
        return True

    def record(self) -> str:
        from engine import record

        return record.dumps(self)

    def summary(self) -> dict[str, Any]:
        top = code(self.discard[-1]) if self.discard else None
        hands = [[code(c) for c in h] for h in self.hands]
        return {"ruleset": NAME, "top": top, "hands": hands, "winner": self.winner}

    # ---- for bots and the search bot
    def clone(self) -> ColourMatch:
        other = ColourMatch.__new__(ColourMatch)
        other.__dict__ = dict(self.__dict__)
        for name in ("events", "ordered", "draw", "discard", "log", "history"):
            setattr(other, name, list(getattr(self, name)))
        other.hands = [list(h) for h in self.hands]
        return other

    def determinise(self, seat: int, rng: random.Random) -> ColourMatch:
        world = self.clone()
        hidden = [c for s, h in enumerate(world.hands) if s != seat for c in h] + world.draw
        rng.shuffle(hidden)
        for s, h in enumerate(world.hands):
            if s != seat:
                world.hands[s], hidden = hidden[: len(h)], hidden[len(h) :]
        world.draw = hidden
        return world

    @property
    def hints(self) -> Hints:
        return HINTS


class Hints:
    """Greedy: lay the highest card that matches; the search looks twelve moves on."""

    rollouts, move_seconds = 60, 0.1

    def act(self, state: ColourMatch) -> int:
        return max(state.legal_actions(), key=lambda a: (a < 40, a % 10))

    def interject(self, state: ColourMatch, seat: int, options: list[int]) -> int | None:
        return None

    def root(self, state: ColourMatch) -> ColourMatch:
        return state.clone()

    def candidates(self, state: ColourMatch, legal: list[int]) -> list[int]:
        first = self.act(state)
        return [first] + [a for a in legal if a != first]

    def luck(self, rng: random.Random) -> int:
        return rng.getrandbits(32)

    def playout(
        self, state: ColourMatch, seat: int, rng: random.Random, start: ColourMatch
    ) -> float:
        for _ in range(12):
            if state.is_terminal():
                break
            state.apply_action(self.act(state))
        return 1.0 if state.winner == seat else -len(state.hands[seat]) / 10


HINTS = Hints()
