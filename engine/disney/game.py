"""A whole game: hands in a row, the dealer moving left, scores to the target, and the record.

`Game` is what players, bots, replays and the display use. Like an OpenSpiel state it says who
acts (`current_player`: a seat, CHANCE or TERMINAL), what they may do (`legal_actions`), applies
actions and chance outcomes, and can `clone` itself. Chance outcomes (a deck, Tinker Bell's
colour, a reshuffle) always come from outside, so the engine itself holds no randomness: her
colour as one listed outcome, an order of cards whole or one listed card at a time
(`engine.disney.deckchance`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine import chance
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import deckchance, listing, notation, rulesets, scoring, variant
from engine.disney.eventnotes import Log, Notes
from engine.disney.hand import Hand, RuleError
from engine.disney.listing import legal_actions
from engine.disney.steps import DISCARD, NOBODY_MOVES, PLAY, RESHUFFLE, SHUFFLE, SMACKDOWN, TINKER
from engine.errors import EventError
from engine.phases import OVER
from engine.protocol import CHANCE, TERMINAL, Hints

_CHANCE_KINDS = {
    TINKER: "tinker_bell",
    RESHUFFLE: "reshuffle",
    SHUFFLE: "shuffle_hands",
    SMACKDOWN: "smackdown",
}
"""What chance supplies at each chance phase of a hand (`chance_kind`)."""


class Game:
    """A whole game at one table: implements `engine.protocol.GameState`. It keeps the match:
    the dealer, the score sheet, the hands played, the record's header and its `log`;
    everything about the hand in play is the hand's (`hand`), which applies every action and
    writes its own events into the log."""

    def __init__(
        self,
        ruleset: str | rulesets.Ruleset = "disney",
        players: Sequence[str] = ("Ann", "Ben"),
        dealer: int = 0,
        options: Mapping[str, Any] | None = None,
        record: bool = True,
        checked: Game | None = None,
    ) -> None:
        """`checked`: a game at the same table whose options these are, already resolved and
        checked (`rematch`)."""
        self.rules = rulesets.get(ruleset) if isinstance(ruleset, str) else ruleset
        n = len(players)
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise ValueError(
                f"{self.rules.title} is for {self.rules.min_players}-{self.rules.max_players} "
                f"players, not {n}"
            )
        if not isinstance(dealer, int) or not 0 <= dealer < n:
            raise ValueError(f"the dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        if checked is None:
            self.given_options = dict(options or {})
            self.options = self.rules.resolve_options(options)
            scoring.check_options(self.options, n, self.rules.quotes)
        else:
            self.given_options, self.options = checked.given_options, checked.options
        self.players = list(players)
        self.deck = self.rules.deck_for(n)
        """The cards this table deals from (two decks for a classic game of 11 to 20)."""
        self.features: frozenset[str] = (
            features_of(self.rules, self.options) if checked is None else checked.features
        )
        self.first_dealer = dealer
        self.dealer = dealer
        self.sheet = scoring.Sheet.new(n)
        self.hand: Hand | None = None
        self.hand_no = 0
        self.history: list[dict[str, Any]] = []
        self.log: Log | None = Log() if record else None
        """The record being written (None: this game keeps none): the hand in play writes each
        move into it (`engine.disney.eventnotes.Log`)."""
        self.decks: list[list[int]] = []
        self.ordered: list[int] = []
        """The pending order of cards (a deck, a reshuffle, Wild Shuffle Hands) placed so far one
        listed chance outcome at a time, top first (`disney.deckchance`): no player sees it."""

    @property
    def recording(self) -> bool:
        return self.log is not None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The record's events so far (none when this game keeps no record)."""
        return [] if self.log is None else self.log.events

    @property
    def notes(self) -> Notes:
        """What each recorded event did that it does not say (`engine.disney.eventnotes`)."""
        return [] if self.log is None else self.log.notes

    def forget_record(self) -> None:
        """Keep no record from now on, and forget the decks dealt (the search bot's worlds)."""
        self.log = None
        self.decks = []
        if self.hand is not None:
            self.hand.log = None

    def rematch(self, dealer: int) -> Game:
        """A new game at this table: the same rules, players and options (checked once, here
        when this game was made), `dealer` dealing first. A simulation of single hands starts
        thousands of games, and need not check the same options for each."""
        return Game(self.rules, self.players, dealer, None, self.recording, checked=self)

    # ------------------------------------------------------------------ who acts
    def current_player(self) -> int:
        h = self.hand
        if self.sheet.over:
            return TERMINAL
        if h is None:
            return CHANCE
        head = h.head  # the decision waited for
        if head.kind != PLAY and head.kind in NOBODY_MOVES:  # chance phases and OVER
            return CHANCE
        return h.seats[head.seat]

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.sheet.over

    def chance_kind(self) -> str | None:
        """What chance must supply next: "new_hand" (a deck), "tinker_bell", "reshuffle",
        "shuffle_hands" (the order in which every held card is dealt again) or "smackdown" (the
        next hand on the 6, unless a player's own is quicker: `interjections`)."""
        if self.sheet.over:
            return None
        h = self.hand
        if h is None or h.phase == OVER:
            return "new_hand"
        return _CHANCE_KINDS.get(h.phase)

    def legal_actions(self) -> list[int]:
        h = self.hand
        if h is None or self.sheet.over:
            return []
        return legal_actions(h)  # (`Hand.legal_actions` without its call)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """`(action, probability)`, taken by `apply_action` (generic chance nodes, as in
        OpenSpiel): at Tinker Bell's pick her four colours, equally likely; at a new deck, a
        reshuffle or Wild Shuffle Hands, which card comes next from the top, each as likely as
        its copies left (`disney.deckchance`: the last card placed applies the whole order, as
        `start_hand`, `apply_reshuffle`, `apply_shuffle_hands` or `sample_chance` do)."""
        h = self.hand
        if self.sheet.over:
            return []
        if h is not None and (h.phase == TINKER or h.phase == SMACKDOWN):
            return h.chance_outcomes()
        return deckchance.outcomes(self)

    def interjections(self) -> list[tuple[int, int]]:
        """Calls out of turn (none while an order of cards is being placed one at a time: the
        order is one chance event, and nothing may come between its cards)."""
        return [] if self.hand is None or self.ordered else listing.interjections(self.hand)

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator), its log in words with what each event did
        (`notes`): `engine.disney.observer` decides (imported when first asked for: a
        simulation never is)."""
        from engine.disney import observer

        return observer.observation(self, seat)

    def header_ready(self) -> bool:
        """The header holds the first deal (its deck): none is made before that deal."""
        return bool(self.decks)

    def finished_hands(self) -> list[dict[str, Any]]:
        """Each hand scored so far, oldest first: {"hand", "winner", "held": points by seat}."""
        return [
            {"hand": x["hand"], "winner": x["winner"], "held": list(x["held"])}
            for x in self.history
        ]

    def tinker_bell_card(self) -> tuple[str, int] | None:
        """While the game waits for Tinker Bell: the code of the card she answers, and the seat
        that played it."""
        h = self.hand
        if self.chance_kind() != "tinker_bell" or h is None or h.trigger is None:
            return None
        return C.code(h.trigger), h.seats[h.actor]

    def tinker_bell_outcome(self, colour: str) -> int:
        """The chance outcome (one of `chance_outcomes()` at her pick) that is Tinker Bell
        choosing `colour`, for `apply_action`; RuleError (`engine.chance.no_tinker_bell`) in a
        ruleset of the family without her, CardError for a colour that is none of hers."""
        if "tinker_bell" not in self.features:
            raise chance.no_tinker_bell(self.rules.title)
        return A.PICK + C.colour(colour)

    def record(self) -> str:
        """The replayable game record (JSON Lines), when this game records."""
        from engine import record

        return record.dumps(self)

    @property
    def hints(self) -> Hints[Game]:
        """The ruleset's judgement for the bots and the search bot (`engine.protocol.Hints`),
        imported when first asked for: it needs `dataclasses`, which a simulation of random bots
        (and its start: 21 ms of imports here) does without."""
        from engine.disney.hints import DISNEY_HINTS

        return DISNEY_HINTS

    def determinise(self, seat: int, rng: random.Random) -> Game:
        """A copy with the cards `seat` cannot see dealt again (`disney.hints.determinise`)."""
        from engine.disney.hints import determinise

        return determinise(self, seat, rng)

    # ------------------------------------------------------------------ chance
    def start_hand(self, deck: Sequence[int], check: bool = True) -> None:
        """Deal a new hand from `deck` (top card first)."""
        if self.chance_kind() != "new_hand":
            raise RuleError("new-hand", "A new hand starts only when the last one is over.")
        deck = list(deck)
        if check:
            self.check_deck(deck)
        active = self.sheet.active()
        if self.hand is not None or self.dealer not in active:
            self.dealer = _next_active(self.dealer, active, len(self.players))
        if self.options.get("partners_rotation"):
            active = scoring.rotation_seating(self.sheet.hands)  # partners sit opposite
        names = [self.players[s] for s in active]
        self.hand = Hand.deal(
            self.rules, self.options, active, active.index(self.dealer), deck, names
        )
        self.hand_no += 1
        self.decks.append(deck)
        if self.ordered:  # (a whole order supersedes the cards placed one at a time)
            self.ordered = []
        if self.log is not None:
            self.log.dealt(self.hand_no, deck, self.hand.discard[0])
            self.hand.log = self.log  # (from here on the hand writes its own events)
        self._after()

    def check_deck(self, deck: Sequence[int]) -> None:
        """RuleError ("chance", a ValueError) unless `deck` is this ruleset's deck in some order."""
        what = f"the {self.rules.name} deck of {len(self.deck)} cards"
        chance.check(deck, self.deck, what, deckchance.RULES.key, C.code)

    def shuffled_deck(self, rng: random.Random) -> list[int]:
        deck = list(self.deck)
        rng.shuffle(deck)
        return deck

    def apply_reshuffle(self, order: Sequence[int]) -> None:
        """A whole reshuffle (`order`: the new DRAW pile, top first), recorded by the hand."""
        self._live_hand().apply_reshuffle(order)
        self.ordered = []
        self._after()

    def apply_shuffle_hands(self, order: Sequence[int]) -> None:
        """Wild Shuffle Hands' new deal (`order`, top first), recorded by the hand."""
        self._live_hand().apply_shuffle_hands(order)
        self.ordered = []
        self._after()

    def sample_chance(self, rng: random.Random) -> None:
        """Resolve the pending chance node with `rng` (simulations, the emulator, tests); the
        cards of an order already placed one at a time stay on top."""
        kind = self.chance_kind()
        if kind == "tinker_bell":
            self.apply_action(A.PICK + rng.randrange(4))
        elif kind == "smackdown":
            outcomes = self.dealt().chance_outcomes()
            self.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        elif kind is not None:
            deckchance.RULES.land(self, kind, deckchance.sample(self, rng))
        else:
            raise RuleError("chance", "Nothing is left to chance right now.")

    # ------------------------------------------------------------------ players
    def apply_action(self, action: int, seat: int | None = None) -> None:
        """Apply `action` by `seat` (default: the player to move); RuleError changes nothing.
        At a chance node the action is one of `chance_outcomes()`. Every action but a card of an
        order placed one at a time goes through the hand's one path (`Hand.apply`), which
        writes its event into the record."""
        self._apply(action, seat, False)

    def apply_listed(self, action: int, seat: int | None = None) -> None:
        """`apply_action` for an action just taken from `legal_actions()` or `interjections()`
        (`engine.protocol.GameState.apply_listed`): the hand does not list them again."""
        self._apply(action, seat, True)

    def _apply(self, action: int, seat: int | None, listed: bool) -> None:
        if A.CARD_NEXT <= action < A.SIZE or self.ordered:  # an order of cards, card by card
            deckchance.place(self, action)
            return
        h = self._live_hand()
        h.apply(action, seat, listed)
        if h.head.kind == OVER:
            self._finish_hand()

    def step(self, action: int) -> None:
        """Apply an action taken from `legal_actions()` without checking it again (the search
        bot's rollouts: `engine.search`); anything else must go through `apply_action`."""
        if self.recording:
            self.apply_action(action)
            return
        h = self.dealt()
        h.step(action)
        if h.phase == OVER:
            self._finish_hand()

    def apply_event(self, event: Mapping[str, Any]) -> None:
        """Apply one game-record event; on any error the game is left exactly as it was."""
        if not isinstance(event, Mapping):
            raise EventError("an event is a JSON object")
        if "chance" in event:
            self._apply_chance_event(event)
            return
        h = self._live_hand()
        seat, acts = notation.actions_for(h, dict(event))
        if len(acts) == 1:
            self.apply_action(acts[0], seat)
            return
        # A discard event is several steps: all of them or none. They are tried on a copy of
        # the hand first (copying the whole game, events and all, made a long replay quadratic).
        trial = h.clone()
        for action in acts:
            if action == A.DONE and trial.phase != DISCARD:
                break
            trial.apply(action, seat)  # RuleError: nothing has changed
        for action in acts:
            if action == A.DONE and self.dealt().phase != DISCARD:
                break
            self.apply_action(action, seat)

    def _apply_chance_event(self, event: Mapping[str, Any]) -> None:
        """A chance event: her pick as her outcome, an order of cards by `disney.deckchance`."""
        kind = event["chance"]
        if kind == "tinker_bell":
            colour: Any = event.get("colour")  # (CardError for anything but her colours)
            self.apply_action(self.tinker_bell_outcome(colour))
        elif kind in deckchance.ORDERS:
            deckchance.apply_event(self, event)
        else:
            raise EventError(
                f"unknown chance {kind!r} (tinker_bell, reshuffle, shuffle_hands or new_hand)"
            )

    # ------------------------------------------------------------------ bookkeeping
    def dealt(self) -> Hand:
        """The hand being played (or just finished); RuleError before the first deal."""
        if self.hand is None:
            raise RuleError("new-hand", "No hand has been dealt yet.")
        return self.hand

    def _live_hand(self) -> Hand:
        if self.sheet.winner is not None:  # (= `sheet.over`, without the property's call)
            raise RuleError("game-over", "The game is over.")
        if self.hand is None:
            raise RuleError("new-hand", "No hand has been dealt yet.")
        return self.hand

    def score_if_over(self) -> None:
        """Score the hand if it has just ended (once: a scored hand is not scored again).
        `apply_action` and the chance methods do it themselves; `Hand.step` callers call it."""
        self._after()

    def _after(self) -> None:
        if self.hand is not None and self.hand.phase == OVER:
            self._finish_hand()

    def _finish_hand(self) -> None:
        h = self.dealt()
        if self.history and self.history[-1]["hand"] == self.hand_no:
            return
        n = len(self.players)
        held = [0] * n
        for pos, seat in enumerate(h.seats):
            held[seat] = h.points_left(pos)
        winner = h.seats[h.winner]
        if self.rules.collected_value:
            self._add_collected_value(h, held, winner)
        self.sheet, awarded = scoring.settle(self.sheet, self.options, held, winner)
        self.history.append(
            {
                "hand": self.hand_no,
                "winner": winner,
                "held": held,
                "awarded": list(awarded),
                "scores": list(self.sheet.scores),
                "blocked": bool(h.hands[h.winner]),
            }
        )
        if self.log is not None:
            self.log.scored(self.hand_no, winner, max(awarded))

    def _add_collected_value(self, h: Hand, held: list[int], winner: int) -> None:
        team = {winner}
        if self.options.get("partners"):
            team.add(scoring.partner(winner))
        elif self.options.get("partners_rotation"):
            team.update(scoring.rotation_team(winner, self.sheet.hands))
        cards = {seat: h.hands[pos] for pos, seat in enumerate(h.seats)}
        per_card = self.rules.collected_value
        for seat, points in scoring.collected_points(per_card, self.options, cards, team).items():
            held[seat] += points

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g.rules, g.given_options, g.options = self.rules, self.given_options, self.options
        g.players, g.first_dealer, g.dealer = self.players, self.first_dealer, self.dealer
        g.deck = self.deck
        g.features = self.features
        g.sheet, g.hand_no = self.sheet, self.hand_no
        g.log = None if self.log is None else self.log.copy()
        g.hand = self.hand.clone() if self.hand is not None else None
        if g.hand is not None:
            g.hand.log = g.log
        g.history = [dict(x) for x in self.history]
        g.decks = list(self.decks)
        g.ordered = list(self.ordered)
        return g

    # ------------------------------------------------------------------ reading
    @property
    def winner(self) -> int | None:
        """The seat that won the game, None while it goes on (partners: the first seat of the
        winning pair; `sheet.winner` names both)."""
        w = self.sheet.winner
        return w[0] if isinstance(w, tuple) else w

    def describe(self, action: int, seat: int | None = None) -> str:
        """`action` in words for a person, players named ("catch Ben without UNO"); `seat`,
        who takes it (the player to move by default), as other rulesets word it for them."""
        return A.describe(action, self.players)

    def awaiting(self) -> dict[str, Any]:
        """What the game waits for, and who may call out of turn (`disney.observer.awaiting`)."""
        from engine.disney import observer

        return observer.awaiting(self)

    def summary(self) -> dict[str, Any]:
        """The state as `replay` prints it (`engine.disney.observer.summary`)."""
        from engine.disney import observer

        return observer.summary(self)

    def header(self) -> dict[str, Any]:
        return {
            "format": "tinker-tray-record/1",
            "ruleset": self.rules.name,
            "players": list(self.players),
            "dealer": self.first_dealer,
            "options": dict(self.given_options),
            "deck": [C.code(c) for c in self.decks[0]] if self.decks else [],
        }


def from_header(header: Mapping[str, Any], players: list[str], options: dict[str, Any]) -> Game:
    """The game a Disney-family record's header describes (`engine.record`: `players` and
    `options` already read), dealt from its `deck` (top card first) or shuffled with its
    integer `seed`. ValueError (RuleError, CardError), naming the problem, if it is bad."""
    game = Game(header.get("ruleset", "disney"), players, header.get("dealer", 0), options)
    if "deck" in header:
        if not isinstance(header["deck"], list):
            raise ValueError("'deck' must be a list of card codes")
        deck = C.cards(header["deck"])
    elif isinstance(header.get("seed"), int):
        deck = game.shuffled_deck(random.Random(header["seed"]))
    else:
        raise ValueError("the header needs a 'deck' (top card first) or an integer 'seed'")
    game.start_hand(deck)
    return game


_CALLS_TINKER_BELL = frozenset({"draw2_tinker_bell", "wild_discard_all", "villain_draw4"})


def features_of(rules: rulesets.Ruleset, options: Mapping[str, Any]) -> frozenset[str]:
    """What the layers above may show of this ruleset: "points" (every hand scored to a
    target: every ruleset of this engine), and "tinker_bell" where a card of its deck calls
    her button (read from the cards' effects under these options: of today's rulesets, only
    the Disney deck has such cards; classic, official 2018 and Elvis have no Tinker Bell), and
    "smackdown" where a 6 starts the 6-Smackdown race (the house rule's option)."""
    table = variant.effect_table(rules, options)
    calls = any(table.effect_of[c] in _CALLS_TINKER_BELL for c in set(rules.deck))
    race = table.effect_of[6] == "smackdown"
    return frozenset(
        {"points"} | ({"tinker_bell"} if calls else set()) | ({"smackdown"} if race else set())
    )


def _next_active(seat: int, active: list[int], n: int) -> int:
    """The next seat to the left still in the game ("the dealer moving as the rules say")."""
    for step in range(1, n + 1):
        s = (seat + step) % n
        if s in active:
            return s
    raise RuleError("dealer", "Nobody is left to deal.")
