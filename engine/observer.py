"""The observer: what one seat may see of a game, and how the game's events read, in words.

In OpenSpiel's sense an observer turns a state into one player's observation; here it is the
one place that decides it, so the browser, the terminal and anything else that shows a game
(they all read `seat_view`) cannot show more than the seat may know. Everything public is in it:
the top card, the colour in play, how many cards each seat holds, whose move, what the game
waits for, the last events in words (never a hidden card: a deal's or a reshuffle's deck, which
card was drawn), scores; and only with `seat`, that seat's own hand and moves.

Pure, like the rest of the engine: no I/O, no clock. Words are English, from the seat's point
of view ("You play Red 7", "Bob catches you").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import actions as A
from engine import cards as C
from engine import record
from engine.game import Game
from engine.hand import COLOUR, DISCARD, PLAY, PLAY_DRAWN, PROTECT, TARGET
from engine.record import RecordError

LOG_LINES = 12
"""How many lines of the log a view carries."""

Notes = Mapping[int, list[tuple[Any, ...]]]


def seat_view(
    game: Game,
    seat: int | None,
    humans: frozenset[int],
    tinker_bell: bool,
    choosing: bool = False,
    notes: Notes | None = None,
) -> dict[str, Any]:
    """The public state of `game`, with `seat`'s own hand and moves (seat None: a spectator).
    `notes` (from `EventNotes`) add what each event did that the event does not say: penalty
    draws, the card turned up for a new hand, the points of a hand."""
    out = public_view(game, seat, humans, tinker_bell, choosing, notes)
    h = game.hand
    pos = h.pos_of.get(seat) if seat is not None and h is not None else None
    if h is None or pos is None or game.is_terminal():  # a spectator, or eliminated
        return out
    held = sorted(h.hands[pos], key=lambda c: (C.COLOUR_OF[c], C.RANK_OF[c]))
    mine = game.current_player() == seat
    legal = game.legal_actions() if mine else []
    by_card: dict[int, list[dict[str, Any]]] = {}
    for a in legal:
        lay = laid(a)
        if lay is not None:
            card, move = lay
            by_card.setdefault(card, []).append(move)
    out["hand"] = [{**card_view(c), "moves": by_card.get(c, [])} for c in held]
    out["moves"] = [{"a": a, "text": move_text(a, game)} for a in legal if laid(a) is None]
    out["calls"] = [
        {"a": a, "text": move_text(a, game)} for s, a in game.interjections() if s == seat
    ]
    out["uno_possible"] = len(held) == 2 and mine
    return out


def public_view(
    game: Game,
    seat: int | None,
    humans: frozenset[int],
    tinker_bell: bool,
    choosing: bool = False,
    notes: Notes | None = None,
) -> dict[str, Any]:
    """What every seat and spectator may see; words from `seat`'s point of view."""
    h = game.hand
    summary = game.summary()
    awaiting = dict(summary["awaiting"])
    names = game.players
    counts = {int(s): len(cards) for s, cards in summary["hands"].items()}
    # A Wild waiting for Tinker Bell has no colour yet: the old one is no longer in play
    wild_waits = (
        (tinker_bell or choosing) and h is not None and h.trigger is not None and h.trigger >= 64
    )
    return {
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
        "top": card_view(h.discard[-1]) if h is not None else None,
        "colour": None if wild_waits else summary["colour"],
        "direction": "left" if summary["direction"] == 1 else "right",
        "draw_pile": summary["draw_pile"],
        "discard_pile": len(h.discard) if h is not None else None,
        "awaiting": awaiting,
        "says": says(game, awaiting, seat, tinker_bell, choosing),
        "choosing": choosing,
        "log": log_lines(game, names, seat, notes or {}),
        "hands": [
            {"hand": x["hand"], "winner": names[x["winner"]], "points": max(x["awarded"])}
            for x in game.history
        ],
        "target": game.options.get("target", 500),
        "winner": winner_names(game),
        "hand": [],
        "moves": [],
        "calls": [],
    }


def log_lines(game: Game, names: Sequence[str], seat: int | None, notes: Notes) -> list[str]:
    """The last `LOG_LINES` things that happened, in words, from `seat`'s point of view."""
    events = game.events
    first = max(0, len(events) - 40)
    lines = [_noteevent_words(n, names, seat) for n in notes.get(-1, [])] if first == 0 else []
    for i in range(first, len(events)):
        line = event_words(events[i], names, seat)
        if line:
            lines.append(line)
        lines.extend(_noteevent_words(n, names, seat) for n in notes.get(i, []))
    return lines[-LOG_LINES:]


def _noteevent_words(note: tuple[Any, ...], names: Sequence[str], you: int | None) -> str:
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


class EventNotes:
    """What each event of a game did that the event itself does not say, found by replaying the
    events on a copy of the game (its header and events: public play, no hidden card named):
    who drew cards they did not draw themselves (penalties, Draw 2s, challenges), the card
    turned up when a hand is dealt, and each hand's points. Keyed by event index (-1: before
    the first event)."""

    def __init__(self, game: Game | None):
        self.notes: dict[int, list[tuple[Any, ...]]] = {}
        self.failed: str | None = None  # why the notes stopped following, if they did
        self.done = 0
        self.shadow: Game | None = None
        self._start(game)

    def _start(self, game: Game | None) -> None:
        """Shadow `game` from its first deal (its header holds that deck)."""
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
            if game.decks and self.done == 0:
                self._start(game)  # the first hand is dealt now
            if self.shadow is None:
                return
        events = game.events
        upto = len(events)
        if (
            upto
            and events[-1].get("act") == "discard"
            and game.hand is not None
            and game.hand.phase == DISCARD
        ):
            upto -= 1
        shadow = self.shadow
        while self.done < upto:
            i = self.done
            before = card_counts(shadow)
            hand_no, hands = shadow.hand_no, len(shadow.history)
            try:
                shadow.apply_event(events[i])
            except Exception as exc:  # never let the notes stop the game: they are only words
                self.failed = f"the log could not follow event {i}: {exc}"
                self.shadow = None
                return
            self.done += 1
            if shadow.hand_no == hand_no:  # a new deal's cards are a deal, not draws
                self._drew(i, events[i], before, card_counts(shadow))
            if len(shadow.history) > hands:
                x = shadow.history[-1]
                self.notes.setdefault(i, []).append(
                    ("hand", x["hand"], x["winner"], max(x["awarded"]))
                )
            if shadow.hand_no != hand_no:
                self._dealt(i)

    def _drew(
        self, i: int, event: Mapping[str, Any], before: dict[int, int], after: dict[int, int]
    ) -> None:
        actor, act = event.get("seat"), event.get("act")
        for seat, n in after.items():
            gained = n - before.get(seat, n)
            if seat == actor and act in ("draw", "take", "misplay", "pass"):
                continue  # the event says so itself
            if gained > 0 and seat in before:
                self.notes.setdefault(i, []).append(("draws", seat, gained))

    def _dealt(self, i: int) -> None:
        shadow = self.shadow
        h = shadow.hand if shadow is not None else None
        if shadow is not None and h is not None and h.discard:
            self.notes.setdefault(i, []).append(("turned", shadow.hand_no, C.name(h.discard[0])))


def card_counts(game: Game) -> dict[int, int]:
    h = game.hand
    if h is None:
        return {}
    return {seat: len(h.hands[pos]) for pos, seat in enumerate(h.seats)}


def card_view(card: int) -> dict[str, str]:
    colour = C.COLOURS[C.COLOUR_OF[card]] if card < 64 else "wild"
    return {"code": C.code(card), "name": C.name(card), "colour": colour}


def laid(action: int) -> tuple[int, dict[str, Any]] | None:
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


def move_text(action: int, game: Game) -> str:
    names = game.players
    move = A.decode(action)
    if move.kind == A.Kind.TARGET:
        return f"{names[move.seat]} draws 2"
    if move.kind == A.Kind.CATCH:
        return f"Catch {names[move.seat]}: no UNO!"
    if move.kind == A.Kind.COLOUR:
        return f"Name {C.COLOURS[move.colour]}"
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


def says(
    game: Game,
    awaiting: dict[str, Any],
    seat: int | None,
    tinker_bell: bool,
    choosing: bool = False,
) -> str:
    """What the game waits for, in words, from `seat`'s point of view."""
    names = game.players
    if game.is_terminal():
        return f"Game over: {winner_names(game)} won."
    if choosing:
        return "Tinker Bell is choosing…"
    h = game.hand
    if h is None:
        return "Dealing…"
    if tinker_bell:
        player = h.seats[h.actor]
        who = "You" if seat == player else names[player]
        return f"{who} played {C.name(h.trigger)}: press the Tinker Bell button!"
    mover = awaiting.get("seat")
    if mover is None:
        return "Dealing…"
    what = _PHASE_WORDS.get(h.phase, awaiting["kind"])
    if mover == seat:
        return f"Your move: {what}."
    return f"{names[mover]} to {what}."


def winner_names(game: Game) -> str | None:
    w = game.sheet.winner
    if w is None:
        return None
    return " and ".join(game.players[s] for s in (w if isinstance(w, tuple) else (w,)))


def event_words(
    event: Mapping[str, Any], names: Sequence[str], you: int | None = None
) -> str | None:
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
        "misplay": f"{who} laid a card that does not match: {v('takes')} it back and {v('draws')}.",
        "flip": f"{who} {v('turns')} over the top card for the Vegas card.",
        "protect": f"{who} {v('protects')} with {C.name(C.card(event.get('card', 'W')))}{uno}.",
        "take": f"{who} {v('takes')} four cards.",
        "colour": f"{who} {v('names')} {event.get('colour')}.",
    }.get(str(act), f"{who}: {act}.")
