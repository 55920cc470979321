"""The observer: what one seat may see of a game, and how the game's events read, in words.

In OpenSpiel's sense an observer turns a state into one player's observation; here it is the
one place that decides it (`Game.observation` is `observation`), so the browser, the terminal
and anything else that shows a game cannot show more than the seat may know. Everything public
is in it: the top card, the colour in play, how many cards each seat holds, whose move, what the
game waits for, the last events in words with what each did that it does not say (the game's
notes: penalty draws, the card turned up, a hand's points; never a hidden card: a deal's or a
reshuffle's deck, which card was drawn), scores; and only with `seat`, that seat's own hand and
moves.

Pure, like the rest of the engine: no I/O, no clock. Words are English, from the seat's point
of view ("You play Red 7", "Bob catches you"). It reads a game as a `Match`
(`engine.disney.match`): the game offers it (`Game.observation`), so it cannot import it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import observation as shape
from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import eventnotes
from engine.disney.handstate import HandState
from engine.disney.match import Match
from engine.disney.steps import COLOUR, RESHUFFLE, SHUFFLE, SMACKDOWN, TINKER, on_the_six
from engine.phases import OVER

LOG_LINES = 12
"""How many lines of the log a view carries."""
LOG_EVENTS = 40
"""How many of the latest events the log is read from (enough for `LOG_LINES`)."""


def observation(game: Match, seat: int | None) -> dict[str, Any]:
    """The public state of `game`, with `seat`'s own hand and moves (seat None: a spectator), in
    the shape every ruleset gives (`engine.observation`)."""
    out = _public(game, seat)
    h = game.hand
    pos = h.pos_of.get(seat) if seat is not None and h is not None else None
    if h is None or pos is None or seat is None or game.is_terminal():  # a spectator, or out
        return out
    cards = sorted(h.hands[pos], key=lambda c: (C.COLOUR_OF[c], C.RANK_OF[c]))
    held = list(dict.fromkeys(cards))  # each card once, in the hand's order
    legal = game.legal_actions() if game.current_player() == seat else []
    calls = [a for s, a in game.interjections() if s == seat]
    out["hand"] = [card_view(c) for c in cards]
    out["calls"] = [{"a": a, "text": move_text(a, game)} for a in calls]
    out["legal"] = legal_moves(game, held, legal, calls)
    return out


def legal_moves(
    game: Match, held: list[int], legal: list[int], calls: list[int]
) -> list[dict[str, Any]]:
    """Every action the seat may take now (`engine.observation.move`): those laying a card of
    its hand in the hand's order (`held`: each card once), then its other moves, then its calls
    out of turn."""
    by_card: dict[int, list[dict[str, Any]]] = {}
    for a in legal:
        lay = laid(a)
        if lay is not None:
            by_card.setdefault(lay[0], []).append(lay[1])
    out: list[dict[str, Any]] = []
    for card in held:
        for move in by_card.get(card, []):
            words = f"{_VERB[move['verb']]} {C.name(card)}"
            if "call" in move:
                words += f", calling {move['call']}"
            if move["uno"]:
                words += " and UNO!"
            out.append(
                shape.move(
                    move["a"],
                    move["verb"],
                    words,
                    card=C.code(card),
                    call=move.get("call"),
                    uno=move["uno"],
                )
            )
    for a in legal:
        if laid(a) is None:
            kind = _kind(a)
            out.append(shape.move(a, kind, move_text(a, game), confirm=_RISKS.get(kind)))
    for a in calls:
        kind = _kind(a)
        words = move_text(a, game)
        out.append(shape.move(a, kind, words, out_of_turn=True, confirm=_RISKS.get(kind)))
    return out


_RISKS = {"challenge": "If the challenge fails you draw the cards and two more"}
"""What a move costs a person if it goes wrong, by its kind: a display asks first (`confirm`)."""


_VERB = {"play": "Play", "protect": "Protect with", "discard": "Discard"}
"""A card laid from the hand, in words, by its verb (`laid`)."""


def _kind(action: int) -> str:
    """An action's kind in words ("draw", "catch" ...)."""
    return A.decode(action).kind.name.lower()


def _public(game: Match, seat: int | None) -> dict[str, Any]:
    """What every seat and spectator may see; words from `seat`'s point of view."""
    h = game.hand
    summary = game.summary()
    awaiting = dict(summary["awaiting"])
    names = game.players
    counts = {int(s): len(cards) for s, cards in summary["hands"].items()}
    tinker_bell = game.chance_kind() == "tinker_bell"
    acting = game.current_player()
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
                "out": s in game.sheet.eliminated,
                "deals": s == game.dealer,
            }
            for s, name in enumerate(names)
        ],
        "top": card_view(h.discard[-1]) if h is not None else None,
        "colour": summary["colour"],
        "direction": "left" if summary["direction"] == 1 else "right",
        "draw_pile": summary["draw_pile"],
        "discard_pile": len(h.discard) if h is not None else None,
        "awaiting": awaiting,
        "to_move": acting if acting >= 0 else None,
        "prompt": says(game, awaiting, seat, tinker_bell),
        "log": log_lines(game, names, seat),
        "hands": [
            {"hand": x["hand"], "winner": names[x["winner"]], "points": max(x["awarded"])}
            for x in game.history
        ],
        "target": game.options.get("target", 500),
        "winner": winner_names(game),
        "hand": [],
        "legal": [],
        "uno_call": False,
        "calls": [],
    }


def log_lines(game: Match, names: Sequence[str], seat: int | None) -> list[str]:
    """The last `LOG_LINES` things that happened, in words, from `seat`'s point of view: the
    latest events, each followed by its notes (read from the end: a long game costs no more)."""
    events = game.events
    first = max(0, len(events) - LOG_EVENTS)
    notes = eventnotes.since(game.notes, first)
    lines = [_note_words(n, names, seat) for n in notes.get(-1, [])]
    for i in range(first, len(events)):
        line = event_words(events[i], names, seat)
        if line:
            lines.append(line)
        lines.extend(_note_words(n, names, seat) for n in notes.get(i, []))
    return lines[-LOG_LINES:]


def _note_words(note: eventnotes.Note, names: Sequence[str], you: int | None) -> str:
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


def card_view(card: int) -> dict[str, str]:
    """A card as every observation shows one (`engine.observation.CARD_KEYS`)."""
    colour = C.COLOURS[C.COLOUR_OF[card]] if card < 64 else "wild"
    name = C.name(card)
    return {"code": C.code(card), "name": name, "colour": colour, "words": name}


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


def move_text(action: int, game: Match) -> str:
    names = game.players
    move = A.decode(action)
    if move.kind == A.Kind.TARGET:
        return f"{names[move.seat]} draws 2"
    if move.kind == A.Kind.CATCH:
        return f"Catch {names[move.seat]}: no UNO!"
    if move.kind == A.Kind.COLOUR:
        return f"Name {C.COLOURS[move.colour]}"
    if move.kind == A.Kind.SLAP:
        return "Slap the 6!"
    return {
        A.DRAW: "Draw a card",
        A.PASS: "Keep it (pass)",
        A.DONE: "Stop discarding",
        A.TAKE: "Take four cards",
        A.UNO: "UNO! (late call)",
        A.CHALLENGE: "Challenge the Villain Draw 4",
    }.get(action, A.describe(action))


def says(
    game: Match,
    awaiting: dict[str, Any],
    seat: int | None,
    tinker_bell: bool,
) -> str:
    """What the game waits for, in words, from `seat`'s point of view."""
    names = game.players
    if game.is_terminal():
        return f"Game over: {winner_names(game)} won."
    h = game.hand
    if h is None:
        return "Dealing…"
    if tinker_bell:
        player = h.seats[h.actor]
        who = "You" if seat == player else names[player]
        return f"{who} played {C.name(h.trigger)}: press the Tinker Bell button!"
    if awaiting.get("kind") == "smackdown":
        return _race_words(awaiting["slapped"], seat)
    mover = awaiting.get("seat")
    if mover is None:
        return "Dealing…"
    what = h.waiting_for()
    if mover == seat:
        return f"Your move: {what}."
    return f"{names[mover]} to {what}."


def _race_words(slapped: list[int], seat: int | None) -> str:
    """The 6-Smackdown race from `seat`'s point of view: slap, or wait for the others."""
    if seat is not None and seat not in slapped:
        return "A 6! Slap it: the last hand on the 6 draws 2."
    return f"A 6! Hands on it: {len(slapped)} so far; the last one draws 2."


def winner_names(game: Match) -> str | None:
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
        "slap": f"{who} {v('slaps')} the 6.",
    }.get(str(act), f"{who}: {act}.")


def awaiting(game: Match) -> dict[str, Any]:
    """What `game` waits for (a decision and whose, or chance), and who may challenge or be
    caught now: the prompt's source for every display."""
    h = game.hand
    if game.sheet.over:
        return {"kind": "game_over", "seat": None}
    if h is None or h.phase == OVER:
        return {"kind": "new_hand", "seat": None}
    if h.phase == SMACKDOWN:  # every hand on the 6, in order so far
        out: dict[str, Any] = {"kind": h.phase, "seat": None}
        out["slapped"] = [h.seats[p] for p in on_the_six(h.head)]
    elif h.phase == RESHUFFLE or h.phase == SHUFFLE:
        out = {"kind": h.phase, "seat": None}
    else:
        out = {"kind": h.phase, "seat": h.seats[h.to_move]}
    if h.challengeable():
        out["challenge"] = [s for p, s in enumerate(h.seats) if p != h.actor]
    if h.catchable:
        out["catchable"] = [h.seats[p] for p in h.catchable]
    return out


def _colour_in_play(h: HandState) -> bool:
    """Is a colour in play? Not while a Wild turned up waits for its colour to be named, nor
    while a wild card (a Villain Draw 4, a Wild Discard All) waits for Tinker Bell's: the old
    colour is no longer in play, hers is not yet ("see what color Tinker Bell selects"). The
    summary (`replay`) and every seat's observation (the page, the terminal) say the same."""
    if h.phase == COLOUR:
        return False
    return not (h.phase == TINKER and h.trigger >= 64)


def summary(game: Match) -> dict[str, Any]:
    """The state as `replay` prints it (see docs/record-format.md)."""
    h = game.hand
    n = len(game.players)
    hands: dict[str, list[str]] = {str(s): [] for s in range(n)}
    if h is not None:
        for pos, seat in enumerate(h.seats):
            hands[str(seat)] = [C.code(c) for c in h.hands[pos]]
    last = game.history[-1] if game.history and h is not None and h.phase == OVER else None
    winner = game.sheet.winner
    return {
        "hand": game.hand_no,
        "turn": None if h is None else h.seats[h.to_move],
        "direction": None if h is None else h.direction,
        "colour": None if h is None or not _colour_in_play(h) else C.COLOURS[h.colour],
        "discard_top": None if h is None else C.code(h.discard[-1]),
        "draw_pile": None if h is None else len(h.draw),
        "hands": hands,
        "awaiting": awaiting(game),
        "scores": {str(s): v for s, v in enumerate(game.sheet.scores)},
        "hand_winner": last["winner"] if last else None,
        "game_winner": list(winner) if isinstance(winner, tuple) else winner,
        "eliminated": sorted(game.sheet.eliminated),
        "dealer": game.dealer,
    }
