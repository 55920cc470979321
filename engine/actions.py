"""Actions as small ints (OpenSpiel style): cheap to list, compare and pick at random.

The game record speaks in events (`{"seat": 1, "act": "play", "card": "R7"}`); `engine.record`
translates between the two. Seats in TARGET and CATCH are seat numbers, not positions.
"""

from __future__ import annotations

from engine import cards as C

# play a card: card * 8 + chosen colour * 2 + uno  (chosen colour only for a Wild; else 0)
PROTECT = 1000  # + card * 2 + uno
DISCARD = 2000  # + card * 2 + uno
DRAW = 3000
PASS = 3001  # keep the playable card just drawn
DONE = 3002  # stop discarding after a Wild Discard All
TAKE = 3003  # take the Villain Draw 4 penalty instead of protecting
UNO = 3004  # a late UNO call ("catching yourself")
CHALLENGE = 3005  # challenge the Villain Draw 4 just played
FLIP = 3006  # Vegas: turn over the top card of the draw pile
COLOUR = 3100  # + colour: name the colour of a Wild turned up as the first discard
TARGET = 3200  # + seat: who draws 2 when Tinker Bell matches a Draw 2
CATCH = 3300  # + seat: catch that seat holding one card without having called UNO
MISPLAY = 3400  # + card: a wrong card was laid, is taken back, and its player draws the penalty


_NAMERS = frozenset({C.WILD, C.WILD_DRAW4, C.WILD_SHUFFLE_HANDS, C.WILD_CUSTOM})


def play(card: int, colour: int = 0, uno: bool = False) -> int:
    return card * 8 + colour * 2 + uno


def protect(card: int, uno: bool = False) -> int:
    return PROTECT + card * 2 + uno


def discard(card: int, uno: bool = False) -> int:
    return DISCARD + card * 2 + uno


def describe(action: int) -> str:
    """An action in words, for errors, logs and bots' explanations."""
    if action < PROTECT:
        card, rest = divmod(action, 8)
        colour, uno = divmod(rest, 2)
        text = f"play {C.name(card)}"
        if card in _NAMERS:
            text += f" calling {C.COLOURS[colour]}"
        return text + (" and call UNO" if uno else "")
    if action < DISCARD:
        card, uno = divmod(action - PROTECT, 2)
        return f"protect with {C.name(card)}" + (" and call UNO" if uno else "")
    if action < DRAW:
        card, uno = divmod(action - DISCARD, 2)
        return f"discard {C.name(card)}" + (" and call UNO" if uno else "")
    fixed = {
        DRAW: "draw a card",
        PASS: "keep the drawn card",
        DONE: "stop discarding",
        TAKE: "take the cards",
        UNO: "call UNO",
        CHALLENGE: "challenge the Draw 4",
        FLIP: "turn over the top card (Vegas)",
    }
    if action in fixed:
        return fixed[action]
    if COLOUR <= action < COLOUR + 4:
        return f"name {C.COLOURS[action - COLOUR]}"
    if TARGET <= action < TARGET + 100:
        return f"choose seat {action - TARGET}"
    if CATCH <= action < CATCH + 100:
        return f"catch seat {action - CATCH} without UNO"
    if MISPLAY <= action < MISPLAY + C.NCARDS:
        return f"take back the wrong card {C.name(action - MISPLAY)}"
    return f"unknown action {action}"
