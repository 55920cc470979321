"""The one observation shape every ruleset's `observation(seat)` gives, so a page and a terminal
draw any game with one renderer and never ask which ruleset it is.

Every observation holds at least `KEYS`:

    seat      whose view this is (None: a spectator, who sees no hand)
    players   [{"seat", "name", "cards"}, ...]: each seat's public facts (a ruleset adds more)
    to_move   the seat to act, or None (chance, or the game is over)
    prompt    what the game waits for, in words, from `seat`'s point of view
    top       the top card of the discard pile ({"code", "name", "colour"}), or None
    colour    the colour in play, or None
    direction "left" or "right"
    draw_pile, discard_pile   how many cards each holds
    log       the last things that happened, in words
    hand      the seat's own cards, each {"code", "name", "colour", ...} ([] for a spectator)
    legal     every action the seat may take now, in turn and out of turn, each a `move`
              (`MOVE_KEYS`), in the order a menu lists them
    uno_call  True where UNO! is a call of its own, which a seat may make with the move that
              leaves it one card (a renderer's UNO! box sends the move saying it); False where a
              move saying UNO! is an action of its own in `legal` (its `uno`)
    calls     the actions of `legal` made out of turn, as {"a", "text"} (hot seat's menu)

A ruleset adds what only it has beside these. What a renderer draws without knowing the
ruleset, it gives in these optional keys (absent: nothing of the kind):

    players[s]["facts"]       the seat's public facts beyond its cards, each in words
                              ("Player Deck 3")
    players[s]["called_uno"]  the seat has called UNO!
    players[s]["shelves"]     the seat's face-up cards beside its hand, each shelf
                              {"name", "cards", "listed"}: a listed one (a Lineup) is shown a card
                              a line, another (a discard pile) by its cards' names
    panels    what the table shows beside the seats (a draft's cards showing), each
              {"title", "cards", "notes"}
    seen      what only `seat` sees beside its hand (a hand it peeked at, a card it searched),
              each {"title", "cards"}

A card in these is a `CARD_KEYS` card or, for a card of several colours, {"name", "words",
"colours", ...} (and "short": its name and colours, where a shelf lists names). The rest of a
ruleset's own (the Disney family's score sheet) a renderer draws from its declared `features`
("points", "tinker_bell").
"""

from __future__ import annotations

from typing import Any, Final

KEYS: Final = frozenset(
    {
        "seat",
        "players",
        "to_move",
        "prompt",
        "top",
        "colour",
        "direction",
        "draw_pile",
        "discard_pile",
        "log",
        "hand",
        "legal",
        "uno_call",
        "calls",
    }
)
"""The keys every ruleset's observation holds."""

MOVE_KEYS: Final = frozenset(
    {"action", "kind", "words", "card", "call", "uno", "out_of_turn", "hint", "confirm"}
)
"""The keys of every legal action in `legal`."""

CARD_KEYS: Final = frozenset({"code", "name", "colour"})
"""The keys every card of `hand` and `top` holds."""


def move(
    action: int,
    kind: str,
    words: str,
    *,
    card: str | None = None,
    call: str | None = None,
    uno: bool = False,
    out_of_turn: bool = False,
    hint: str | None = None,
    confirm: str | None = None,
) -> dict[str, Any]:
    """One legal action as a display needs it: its number, its kind (the ruleset's own word:
    "play", "draw", "catch" ...), its words for a person; `card`, the code of the card of the
    hand it lays (a renderer puts it on that card); `call`, the colour it names with that card
    (a Wild's); `uno`, whether it says UNO! as it is made (the same card without UNO! is another
    action); `out_of_turn`, a call any seat may make; `hint`, what the card it names does;
    `confirm`, what a person risks by it, in words (a display asks before making it: a
    challenge that fails costs cards), the ruleset's to say."""
    return {
        "action": action,
        "kind": kind,
        "words": words,
        "card": card,
        "call": call,
        "uno": uno,
        "out_of_turn": out_of_turn,
        "hint": hint,
        "confirm": confirm,
    }
