"""Digital play on the display: the engine holds every hand, people play seats in the browser
against bots on the others, and the tray's Tinker Bell button (real or virtual) picks.

`DigitalSession` owns one game at a time through an `EngineLink` with human seats. Each human
seat gets a secret seat key when the game starts: its page shows that seat's hand and acts for
it. `view(seat, key)` is all a page ever receives: the public state (top card, colour in play,
how many cards each seat holds, whose move, what the engine awaits, the last events in words,
scores) plus, with the right key, that one seat's hand and moves. No other hand ever leaves the
engine while the game runs; the game record (which holds the decks) is exported when it is over.

Finished hands are also entered on the table session (when given one), so the scoreboard, its
chart and the journal's CSV/JSON export follow a digital game exactly as a table game.

With a table session, every move is also committed to its journal (`Journal.append_moves`)
before any page can see it: the link publishes its progress under its lock, which `view` takes
too. A restart (or kill -9) then resumes the game where it stood: the record is replayed, each
person's seat keeps its key (their page reconnects as it was), and the bots carry on.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from digital.engine_link import EngineLink, GameProgress
from engine import actions as A
from engine import bots as B
from engine import cards as C
from engine import record
from engine.game import Game
from engine.hand import COLOUR, DISCARD, PLAY, PLAY_DRAWN, PROTECT, TARGET
from engine.record import RecordError
from tray.bus import Bus

log = logging.getLogger(__name__)

LOG_LINES = 12
MAX_NAME = 24
MAX_PACE = 5.0


class SeatError(PermissionError):
    """A request for a seat's hand or move without that seat's key."""


class NoGameError(LookupError):
    """Nothing to act on or export: no digital game has been started."""


class DigitalSession:
    """The display's digital game. Thread-safe (the link's lock guards the game)."""

    def __init__(
        self,
        bus: Bus,
        *,
        table: Any = None,
        on_change: Callable[[], None] | None = None,
        pace: float = 0.8,
    ):
        self.bus, self.table, self.on_change, self.pace = bus, table, on_change, pace
        self.link: EngineLink | None = None
        self.keys: dict[int, str] = {}
        self.version = 0
        self._lock = threading.Lock()
        self._mirrored = 0
        self.journal_error: str | None = None
        self._saved: _Saved | None = None
        self._notes = _Notes(None)
        self._declared: tuple[int, int] | None = None  # (hand, event) last declared
        self._unsubscribe = bus.subscribe(self._progress, GameProgress)
        if table is not None:
            self._resume()

    # ------------------------------------------------------------------ starting
    def new_game(
        self,
        players: Any,
        humans: Any = (0,),
        bots: Any = "greedy",
        dealer: Any = 0,
        options: Any = None,
        ruleset: Any = "disney",
        *,
        seed: Any = None,
        pace: Any = None,
        confirm: bool = False,
    ) -> dict[int, str]:
        """Start a game (replacing the current one); returns {human seat: seat key}.
        ValueError, naming the problem, for anything malformed."""
        names = _names(players)
        bot_names = [bots] if isinstance(bots, str) else bots
        if not isinstance(bot_names, list) or not all(isinstance(b, str) for b in bot_names):
            raise ValueError(f"bots is a bot name or a list of them ({', '.join(B.BOTS)})")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ValueError("seed is a whole number (the same seed deals the same cards)")
        if pace is None:
            pace = self.pace
        if not isinstance(pace, int | float) or isinstance(pace, bool) or not 0 <= pace <= MAX_PACE:
            raise ValueError(f"pace is the seconds between bot moves, 0 to {MAX_PACE:g}")
        if options is not None and not isinstance(options, Mapping):
            raise ValueError("options is an object of rule options")
        if isinstance(dealer, bool) or not isinstance(dealer, int):
            raise ValueError(f"the dealer must be a seat number, not {dealer!r}")
        if not isinstance(ruleset, str):
            raise ValueError("ruleset is a name: disney, classic, official-2018 or elvis")
        game = Game(ruleset, names, dealer, options)  # ValueError: bad ruleset, options, counts
        seats = _humans(humans, len(names))
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        bot_list = B.make(bot_names, len(names), rng)  # ValueError for an unknown bot
        if self.table is not None:  # may ask for a confirmation first: nothing has changed yet
            self.table.new_game(names, dealer, options, name="digital game", confirm=confirm,
                                ruleset=ruleset)
        keys = {s: secrets.token_urlsafe(9) for s in seats}
        saved = None
        if self.table is not None:
            seating = {"humans": sorted(seats), "keys": {str(s): k for s, k in keys.items()},
                       "bots": bot_names, "pace": float(pace)}
            saved = _Saved(self.table.journal, self.table.game_id, seating)
        link = EngineLink(self.bus, game, list(bot_list), rng, humans=seats, pace=float(pace),
                          settles_in=self._settles_in)
        self._adopt(link, keys, saved, mirrored=0)
        return keys

    def _adopt(self, link: EngineLink, keys: dict[int, str], saved: _Saved | None,
               mirrored: int) -> None:
        with self._lock:
            old, self.link, self.keys = self.link, link, keys
            self._saved, self._mirrored, self.journal_error = saved, mirrored, None
            self._notes, self._declared = _Notes(link.game), None
        if old is not None:
            old.close()
        link.start()

    def _resume(self) -> None:
        """Carry on with the journal's latest game if it is a digital game (finished or not: a
        finished one is shown as it ended, and its record stays exportable)."""
        journal, game_id = self.table.journal, self.table.game_id
        found = journal.record(game_id) if game_id is not None else None
        if found is None:
            return
        setup, events = found
        try:
            game = _replay(setup, events)
            humans = frozenset(setup["humans"])
            keys = {int(s): k for s, k in setup["keys"].items()}
            rng = random.SystemRandom()
            bot_list = B.make(setup["bots"], len(game.players), rng)
            pace = float(setup["pace"])
        except (RecordError, KeyError, TypeError, ValueError) as exc:
            self.journal_error = (f"the digital game {game_id} in the journal cannot be resumed "
                                 f"({exc}); it is kept there untouched")
            log.error("%s", self.journal_error)
            return
        saved = _Saved(journal, game_id, setup, events)
        link = EngineLink(self.bus, game, list(bot_list), rng, humans=humans, pace=pace,
                          settles_in=self._settles_in)
        hands = self.table.table.game.hands if self.table.table.game is not None else []
        self._adopt(link, keys, saved, mirrored=min(len(hands), len(game.history)))
        log.info("resumed digital game %d at hand %d after %d moves", game_id, game.hand_no,
                 len(events))

    def _settles_in(self, pick: Any) -> float:
        """Seconds until the tray's lights settle on `pick`: the game takes it only then, so no
        page can tell it early (0 without a tray, or without a table session)."""
        return self.table.settles_in(pick) if self.table is not None else 0.0

    def close(self) -> None:
        self._unsubscribe()
        if self.link is not None:
            self.link.close()

    # ------------------------------------------------------------------ playing
    def check_key(self, seat: Any, key: Any) -> int:
        """The seat, if `key` is its seat key; SeatError otherwise."""
        want = self.keys.get(seat) if isinstance(seat, int) and not isinstance(seat, bool) else None
        if want is None or not isinstance(key, str) or not secrets.compare_digest(key, want):
            raise SeatError(f"seat {seat!r} is not yours: open the link made for it at the start")
        return seat

    def seat_of(self, key: str) -> int | None:
        """The seat whose key is `key` in the game in play (None: no such key)."""
        for seat, want in list(self.keys.items()):
            if isinstance(key, str) and secrets.compare_digest(key.encode(), want.encode()):
                return seat
        return None

    def act(self, seat: Any, key: Any, action: Any = None, event: Any = None) -> None:
        """A person's move for `seat`: an action int or a game-record event (RuleError, with the
        engine's message and nothing changed, if the rules forbid it)."""
        self.act_as(self.check_key(seat, key), action, event)

    def act_as(self, seat: int, action: Any = None, event: Any = None) -> None:
        """`act` for a seat whose key the caller has checked already (the web app's roles)."""
        link = self._link()
        if event is not None:
            if not isinstance(event, Mapping):
                raise ValueError("event is a game-record event object")
            if event.get("seat", seat) != seat:
                raise SeatError(f"this page plays seat {seat}, not {event.get('seat')!r}")
            link.act_event({**event, "seat": seat})
        elif isinstance(action, int) and not isinstance(action, bool):
            link.act(seat, action)
        else:
            raise ValueError("send an action (a whole number from moves) or an event")

    def record(self) -> str:
        return record.dumps(self._link().game)

    @property
    def over(self) -> bool:
        return self.link is not None and self.link.game.is_terminal()

    def _link(self) -> EngineLink:
        if self.link is None:
            raise NoGameError("no digital game is running: start one first")
        return self.link

    def _progress(self, _event: GameProgress) -> None:
        saved, link = self._saved, self.link
        if saved is not None and link is not None:
            try:
                saved.keep(link.game)  # in the journal before any page can read it
            except (sqlite3.Error, OSError, LookupError) as exc:
                self.journal_error = f"moves are not being saved in the journal ({exc})"
                log.exception("the journal refused the digital game's moves")
        if link is not None:
            with link.lock:
                self._notes.follow(link.game)
        with self._lock:
            self.version += 1
        self._mirror()
        self._declare()
        if self.on_change is not None:
            self.on_change()

    def _declare(self) -> None:
        """While the game waits for Tinker Bell, tell the scoreboard which card she answers (so
        its pick panel explains the pick as at a real table, not "no card was declared")."""
        link, saved = self.link, self._saved
        if self.table is None or link is None or saved is None or not link.waiting_for_tinker_bell:
            return
        if self.table.game_id != saved.game_id:
            return
        with link.lock:
            h = link.game.hand
            at = (link.game.hand_no, len(link.game.events))
            card, seat = C.code(h.trigger), h.seats[h.actor]
        if at == self._declared:
            return
        self._declared = at
        try:
            self.table.submit({"kind": "declare", "card": card, "seat": seat})
        except ValueError:
            log.info("the scoreboard has no pixie-dust card %s to declare", card)

    def _mirror(self) -> None:
        """Enter each finished hand on the table session (the scoreboard and the journal)."""
        link, saved = self.link, self._saved
        if self.table is None or link is None or saved is None:
            return
        if self.table.game_id != saved.game_id:
            return  # the scoreboard has moved on to another game: this one's hands are not its
        history = link.game.history
        while self._mirrored < len(history):
            h = history[self._mirrored]
            self._mirrored += 1
            held = [None if s == h["winner"] else p for s, p in enumerate(h["held"])]
            try:
                self.table.submit({"kind": "hand", "winner": h["winner"], "held": held})
            except ValueError:
                log.exception("the scoreboard refused hand %d of the digital game", h["hand"])

    # ------------------------------------------------------------------ reading
    def view(self, seat: Any = None, key: Any = None) -> dict[str, Any]:
        """What a page may see: the public state, plus seat `seat`'s hand and moves when `key`
        is that seat's key (SeatError otherwise). No other hand is ever in it."""
        if seat is not None:
            seat = self.check_key(seat, key)
        return self.seat_view(seat)

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        """`view` for a seat whose key the caller has checked already (the web app's roles)."""
        link = self.link
        if link is None:
            out: dict[str, Any] = {"game": None, "seat": seat}
        else:
            with link.lock:
                out = seat_view(link.game, seat, link.humans, link.waiting_for_tinker_bell,
                                link.choosing, self._notes.notes)
        out["version"] = self.version
        if self.journal_error:
            out["journal_error"] = self.journal_error
        return out


class _Saved:
    """The journal's copy of one digital game's record: the set-up once the first hand is
    dealt (the record's header holds that deck), then each new event. The latest event may
    still grow after it is kept (a discard of several cards is one event), so its text is
    remembered and the journal's copy revised when it changes."""

    def __init__(self, journal: Any, game_id: int, setup: dict[str, Any],
                 events: list[dict[str, Any]] | None = None):
        self.journal, self.game_id, self.setup = journal, game_id, setup
        self.kept = -1 if events is None else len(events)  # -1: not even the set-up yet
        self.last = json.dumps(events[-1]) if events else None

    def keep(self, game: Game) -> None:
        if self.kept < 0:
            if not game.decks:
                return  # not dealt yet
            self.journal.start_record(self.game_id, {**self.setup, "header": game.header()})
            self.kept = 0
        events = game.events
        revised = None
        if self.kept and json.dumps(events[self.kept - 1]) != self.last:
            revised = events[self.kept - 1]
        new = events[self.kept:]
        if new or revised is not None:
            self.journal.append_moves(self.game_id, new, revised)
            self.kept = len(events)
            self.last = json.dumps(events[-1])


def _replay(setup: dict[str, Any], events: list[dict[str, Any]]) -> Game:
    game, _ = record.replay_objects(enumerate((setup["header"], *events), start=1))
    return game


# ---------------------------------------------------------------------- the view of one seat
def seat_view(
    game: Game, seat: int | None, humans: frozenset[int], tinker_bell: bool,
    choosing: bool = False, notes: Mapping[int, list[tuple[Any, ...]]] | None = None,
) -> dict[str, Any]:
    """The public state of `game`, with `seat`'s own hand and moves (seat None: a spectator).
    `notes` (from `_Notes`) add what each event did that the event does not say: penalty
    draws, the card turned up for a new hand, the points of a hand."""
    h = game.hand
    summary = game.summary()
    awaiting = dict(summary["awaiting"])
    names = game.players
    counts = {int(s): len(cards) for s, cards in summary["hands"].items()}
    out: dict[str, Any] = {
        "game": True,
        "seat": seat,
        "hand_no": game.hand_no,
        "players": [
            {
                "seat": s,
                "name": name,
                "cards": counts[s],
                "score": game.sheet.scores[s],
                "person": s in humans,
                "out": s in game.sheet.eliminated,
                "deals": s == game.dealer,
            }
            for s, name in enumerate(names)
        ],
        "top": _card(h.discard[-1]) if h is not None else None,
        # A Wild waiting for Tinker Bell has no colour yet: the old one is no longer in play
        "colour": None if (tinker_bell or choosing) and h is not None and h.trigger is not None
        and h.trigger >= 64 else summary["colour"],
        "direction": "left" if summary["direction"] == 1 else "right",
        "draw_pile": summary["draw_pile"],
        "awaiting": awaiting,
        "says": _says(game, awaiting, seat, tinker_bell, choosing),
        "choosing": choosing,
        "log": _log(game, names, seat, notes or {}),
        "hands": [
            {"hand": x["hand"], "winner": names[x["winner"]], "points": max(x["awarded"])}
            for x in game.history
        ],
        "target": game.options.get("target", 500),
        "winner": _winner(game),
        "hand": [],
        "moves": [],
        "calls": [],
    }
    if seat is None or h is None or game.is_terminal():
        return out
    pos = h.pos_of.get(seat)
    if pos is None:  # eliminated
        return out
    held = sorted(h.hands[pos], key=lambda c: (C.COLOUR_OF[c], C.RANK_OF[c]))
    mine = game.current_player() == seat
    legal = game.legal_actions() if mine else []
    by_card: dict[int, list[dict[str, Any]]] = {}
    for a in legal:
        lay = _lay(a)
        if lay is not None:
            card, move = lay
            by_card.setdefault(card, []).append(move)
    out["hand"] = [{**_card(c), "moves": by_card.get(c, [])} for c in held]
    out["moves"] = [
        {"a": a, "text": _button(a, game)} for a in legal if _lay(a) is None
    ]
    out["calls"] = [
        {"a": a, "text": _button(a, game)} for s, a in game.interjections() if s == seat
    ]
    out["uno_possible"] = len(held) == 2 and mine
    return out


def _log(game: Game, names: Sequence[str], seat: int | None,
         notes: Mapping[int, list[tuple[Any, ...]]]) -> list[str]:
    """The last `LOG_LINES` things that happened, in words, from `seat`'s point of view."""
    events = game.events
    first = max(0, len(events) - 40)
    lines = [_note_words(n, names, seat) for n in notes.get(-1, [])] if first == 0 else []
    for i in range(first, len(events)):
        line = _words(events[i], names, seat)
        if line:
            lines.append(line)
        lines.extend(_note_words(n, names, seat) for n in notes.get(i, []))
    return lines[-LOG_LINES:]


def _note_words(note: tuple[Any, ...], names: Sequence[str], you: int | None) -> str:
    kind = note[0]
    if kind == "draws":
        _, who, n = note
        cards = f"{n} card{'s' if n != 1 else ''}"
        return f"You draw {cards}." if who == you else f"{names[who]} draws {cards}."
    if kind == "turned":
        _, hand, card = note
        return f"Hand {hand} is dealt: the card turned up is {card}."
    if kind == "hand":
        _, hand, winner, points = note
        who = "You" if winner == you else names[winner]
        return f"Hand {hand} is over: {who} went out and scored {points} points."
    return ""


class _Notes:
    """What each event of a game did that the event itself does not say, found by replaying the
    events on a copy of the game (its header and events: public play, no hidden card named):
    who drew cards they did not draw themselves (penalties, Draw 2s, challenges), the card
    turned up when a hand is dealt, and each hand's points. Keyed by event index (-1: before
    the first event)."""

    def __init__(self, game: Game | None):
        self.notes: dict[int, list[tuple[Any, ...]]] = {}
        self.done = 0
        self.shadow: Game | None = None
        if game is None or not game.decks:
            return
        try:
            self.shadow = record.game_from_header(game.header())
        except (RecordError, ValueError, KeyError, TypeError):
            return
        self._dealt(-1)

    def follow(self, game: Game) -> None:
        """Catch up with `game`'s events (all but a discard still growing)."""
        if self.shadow is None:
            if game.decks:
                self.__init__(game)  # the first hand is dealt now
            if self.shadow is None:
                return
        events = game.events
        upto = len(events)
        if upto and events[-1].get("act") == "discard" and game.hand is not None \
                and game.hand.phase == DISCARD:
            upto -= 1
        shadow = self.shadow
        while self.done < upto:
            i = self.done
            before = _counts(shadow)
            hand_no, hands = shadow.hand_no, len(shadow.history)
            try:
                shadow.apply_event(events[i])
            except Exception:  # never let the notes stop the game: they are only words
                log.exception("the log could not follow event %d", i)
                self.shadow = None
                return
            self.done += 1
            self._drew(i, events[i], before, _counts(shadow))
            if len(shadow.history) > hands:
                x = shadow.history[-1]
                self.notes.setdefault(i, []).append(("hand", x["hand"], x["winner"],
                                                     max(x["awarded"])))
            if shadow.hand_no != hand_no:
                self._dealt(i)

    def _drew(self, i: int, event: Mapping[str, Any], before: dict[int, int],
              after: dict[int, int]) -> None:
        actor, act = event.get("seat"), event.get("act")
        for seat, n in after.items():
            gained = n - before.get(seat, n)
            if seat == actor and act in ("draw", "take", "misplay", "pass"):
                continue  # the event says so itself
            if gained > 0 and seat in before:
                self.notes.setdefault(i, []).append(("draws", seat, gained))

    def _dealt(self, i: int) -> None:
        h = self.shadow.hand if self.shadow is not None else None
        if h is not None and h.discard:
            self.notes.setdefault(i, []).append(("turned", self.shadow.hand_no,
                                                 C.name(h.discard[0])))


def _counts(game: Game) -> dict[int, int]:
    h = game.hand
    if h is None:
        return {}
    return {seat: len(h.hands[pos]) for pos, seat in enumerate(h.seats)}


def _card(card: int) -> dict[str, str]:
    colour = C.COLOURS[C.COLOUR_OF[card]] if card < 64 else "wild"
    return {"code": C.code(card), "name": C.name(card), "colour": colour}


def _lay(action: int) -> tuple[int, dict[str, Any]] | None:
    """(card, move) for an action that lays a card from the hand; None for any other action."""
    laid = A.decode(action)
    if laid.kind == A.Kind.PLAY:
        move: dict[str, Any] = {"a": action, "verb": "play", "uno": laid.uno}
        if laid.card == C.WILD:
            move["call"] = C.COLOURS[laid.colour]
        return laid.card, move
    if laid.kind == A.Kind.PROTECT or laid.kind == A.Kind.DISCARD:
        verb = "protect" if laid.kind == A.Kind.PROTECT else "discard"
        return laid.card, {"a": action, "verb": verb, "uno": laid.uno}
    return None


def _button(action: int, game: Game) -> str:
    names = game.players
    if A.TARGET <= action < A.TARGET + 100:
        return f"{names[action - A.TARGET]} draws 2"
    if A.CATCH <= action < A.CATCH + 100:
        return f"Catch {names[action - A.CATCH]}: no UNO!"
    if A.COLOUR <= action < A.COLOUR + 4:
        return f"Name {C.COLOURS[action - A.COLOUR]}"
    return {
        A.DRAW: "Draw a card",
        A.PASS: "Keep it (pass)",
        A.DONE: "Stop discarding",
        A.TAKE: "Take four cards",
        A.UNO: "UNO! (late call)",
        A.CHALLENGE: "Challenge the Villain Draw 4",
    }.get(action, A.describe(action))


_PHASE_WORDS = {
    PLAY: "play a card (or draw)",
    PLAY_DRAWN: "play the card just drawn or keep it",
    COLOUR: "name the colour of the Wild turned up",
    TARGET: "choose who draws 2",
    PROTECT: "protect with a card of Tinker Bell's colour or take four cards",
    DISCARD: "discard cards of Tinker Bell's colour, then stop",
}


def _says(game: Game, awaiting: dict[str, Any], seat: int | None, tinker_bell: bool,
          choosing: bool = False) -> str:
    """What the game waits for, in words, from `seat`'s point of view."""
    names = game.players
    if game.is_terminal():
        return f"Game over: {_winner(game)} won."
    if choosing:
        return "Tinker Bell is choosing…"
    if tinker_bell:
        actor = names[game.hand.seats[game.hand.actor]]
        card = C.name(game.hand.trigger)
        who = "You" if seat == game.hand.seats[game.hand.actor] else actor
        return f"{who} played {card}: press the Tinker Bell button!"
    mover = awaiting.get("seat")
    if mover is None:
        return "Dealing…"
    what = _PHASE_WORDS.get(game.hand.phase, awaiting["kind"])
    if mover == seat:
        return f"Your move: {what}."
    return f"{names[mover]} to {what}."


def _winner(game: Game) -> str | None:
    w = game.sheet.winner
    if w is None:
        return None
    return " and ".join(game.players[s] for s in (w if isinstance(w, tuple) else (w,)))


def _words(event: Mapping[str, Any], names: Sequence[str], you: int | None = None) -> str | None:
    """A game-record event in words, without the secret part (a deal's or a reshuffle's deck,
    which card was drawn: the record never says). Seat `you` (the page's own) is "You"."""
    chance = event.get("chance")
    if chance == "tinker_bell":
        return f"Tinker Bell chose {event['colour']}."
    if chance == "new_hand":
        return None  # the note says it, with the card turned up
    if chance == "reshuffle":
        return "The discard pile is shuffled into a new draw pile."
    if chance == "shuffle_hands":
        return "Every hand is gathered, shuffled and dealt again."
    if chance is not None:
        return f"Chance: {chance}."
    me = event["seat"] == you
    who = "You" if me else names[event["seat"]]

    def v(verb: str) -> str:  # "plays" -> "play" when it is you
        return verb if not me else verb[:-2] if verb.endswith("ches") else verb[:-1]

    act = event.get("act")
    uno = f" and {v('calls')} UNO" if event.get("uno") else ""
    if act == "play":
        text = f"{who} {v('plays')} {C.name(C.card(event['card']))}"
        if "colour" in event:
            text += f", calling {event['colour']}"
        return text + uno + "."
    if act == "discard":
        cards = ", ".join(C.name(C.card(c)) for c in event.get("cards", []))
        return f"{who} {v('discards')} {cards or 'nothing'}{uno}."
    target = ""
    if isinstance(event.get("target"), int):
        target = "you" if event["target"] == you else names[event["target"]]
    owner = "your" if target == "you" else f"{target}'s"
    return {
        "draw": f"{who} {v('draws')} a card.",
        "pass": f"{who} {v('keeps')} the card drawn.",
        "uno": f"{who} {v('calls')} UNO!",
        "catch": f"{who} {v('catches')} {target} without UNO.",
        "challenge": f"{who} {v('challenges')} {owner} draw-four card.",
        "target": f"{who} {v('chooses')} {target}.",
        "misplay": f"{who} laid a card that does not match: {v('takes')} it back and "
                   f"{v('draws')}.",
        "flip": f"{who} {v('turns')} over the top card for the Vegas card.",
        "protect": f"{who} {v('protects')} with {C.name(C.card(event.get('card', 'W')))}{uno}.",
        "take": f"{who} {v('takes')} four cards.",
        "colour": f"{who} {v('names')} {event.get('colour')}.",
    }.get(act, f"{who}: {act}.")


# ---------------------------------------------------------------------- checking a new game
def _names(players: Any) -> list[str]:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ValueError("players is a list of names")
    names = [p.strip() for p in players]
    if any(not n or len(n) > MAX_NAME for n in names):
        raise ValueError(f"each player needs a name of 1 to {MAX_NAME} characters")
    if len(set(names)) != len(names):
        raise ValueError("two players have the same name")
    return names


def _humans(humans: Any, n: int) -> frozenset[int]:
    if not isinstance(humans, list | tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in humans
    ):
        raise ValueError("humans is a list of the seats people play (0 is the first player)")
    bad = [s for s in humans if not 0 <= s < n]
    if bad:
        raise ValueError(f"seats are 0 to {n - 1}, not {bad[0]}")
    return frozenset(humans)
