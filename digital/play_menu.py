"""Terminal play's menu: from one seat's view to numbered choices, and from a typed line back to
a command. Pure functions of plain data, so every answer a person can type is testable without a
terminal.

The menu offers exactly what the view offers (the moves per card in the hand, the other moves,
the out-of-turn calls) and nothing else: the engine stays the judge of every move, and the
terminal never sees more than a page would. A card played with UNO! is the same menu line with
`u` typed after its number ("3u"), as the page's UNO checkbox is one box for every card.
"""

from __future__ import annotations

import dataclasses
import re
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

# Short letters for the moves people make most, by kind; a letter works only while offered.
ALIASES: dict[str, str] = {"draw": "d", "pass": "p", "done": "s", "uno": "u", "challenge": "c"}
PRESS_WORDS = frozenset({"", "t", "tb", "tinker", "b", "button"})
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
REDRAW_WORDS = frozenset({"r", "redraw", "l", "look"})
"""Moves that cost cards when they go wrong (a challenge that fails: the Villain Draw 4's cards
and two more). Typed by their number, a key typed out of habit ("1" at a prompt with one
choice), they are asked again (`Confirm`); their own letter is deliberate and acts at once."""
YES_WORDS = frozenset({"y", "yes"})

_NUMBER = re.compile(r"^(\d+)\s*(u|uno)?\s*!?$")


@dataclasses.dataclass(frozen=True)
class Choice:
    """One numbered line: `action` as offered; `uno` the same move with UNO! said, if offered."""

    label: str
    action: int
    kind: str  # "card" (a card from the hand), "move" or "call" (out of turn)
    colour: str | None = None  # the card's colour (or the colour a Wild calls), for drawing it
    alias: str | None = None
    uno: int | None = None
    seat: int | None = None  # whose move it is (hot seat: calls of several people on one menu)
    says_uno: bool = False  # `uno` is this same move, sent saying UNO! (`uno_plays`)
    confirm: str | None = None  # asked before it is made, when typed by its number (its risk)


@dataclasses.dataclass(frozen=True)
class Act:
    action: int
    label: str
    seat: int | None = None
    uno: bool = False  # send it saying UNO! (a ruleset whose UNO! is a call of its own)


@dataclasses.dataclass(frozen=True)
class Press:
    """Press the Tinker Bell button."""


@dataclasses.dataclass(frozen=True)
class Quit:
    pass


@dataclasses.dataclass(frozen=True)
class Help:
    pass


@dataclasses.dataclass(frozen=True)
class Redraw:
    pass


@dataclasses.dataclass(frozen=True)
class Refuse:
    """Input that is not a move: `message` says why, in one line; nothing has changed."""

    message: str


@dataclasses.dataclass(frozen=True)
class Confirm:
    """A risky move (the engine's `confirm` of it) typed by its number: `question` asks again,
    and only a yes (`YES_WORDS`) makes `act`."""

    act: Act
    question: str


Command = Act | Press | Quit | Help | Redraw | Refuse | Confirm


def tinker_bell_waits(view: Mapping[str, Any]) -> bool:
    """True while the game waits for a press of the Tinker Bell button."""
    return bool(view.get("game")) and (view.get("awaiting") or {}).get("kind") == "tinker_bell"


def no_tinker_bell(view: Mapping[str, Any]) -> str:
    return f"{view.get('title') or 'This game'} has no Tinker Bell"


def menu(view: Mapping[str, Any]) -> list[Choice]:
    """The seat's legal actions (`legal`, every ruleset's one shape) as numbered choices, in the
    engine's words and order: the hand's cards first, then the other moves, then the calls out
    of turn; the powers of the card an action names after a · (`hints`). A move that may be
    made saying UNO! is one line typed as its number then u: its twin saying UNO! (`uno`), or
    the same move sent saying it (`uno_plays`)."""
    seat = view.get("seat")
    said = set(view.get("uno_plays", []))
    colours = {card["code"]: card["colour"] for card in view.get("hand", [])}
    legal = view.get("legal", [])
    plain = {_twin(m) for m in legal if not m["uno"]}
    with_uno = {_twin(m): m["action"] for m in legal if m["uno"]}
    out: list[Choice] = []
    for m in legal:
        if m["uno"] and _twin(m) in plain:
            continue  # the same line as its twin, typed with u
        action = m["action"]
        kind = "call" if m["out_of_turn"] else "card" if m["card"] is not None else "move"
        label = f"{m['words']} · {m['hint']}" if m["hint"] else m["words"]
        alias = ALIASES.get(m["kind"])
        out.append(
            Choice(
                label,
                action,
                kind,
                m["call"] or colours.get(m["card"]),
                alias=alias,
                uno=action if action in said else None if m["uno"] else with_uno.get(_twin(m)),
                seat=seat,
                says_uno=action in said,
                confirm=_question(label, m, alias),
            )
        )
    return out


def _question(label: str, move: Mapping[str, Any], alias: str | None) -> str | None:
    """What a person is asked before a risky move (the engine's `confirm`) typed by its
    number, or None for a move made at once."""
    if not move.get("confirm"):
        return None
    letter = f" (its letter, {alias}, does it at once)" if alias else ""
    return f"{label}? {move['confirm']}{letter}. Type y to {move['kind']}, Enter not to"


def _twin(move: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a move and its twin saying UNO! share: the card, the kind, the colour called."""
    return move["card"], move["kind"], move["call"]


def calls_menu(views: Sequence[Mapping[str, Any]]) -> list[Choice]:
    """The out-of-turn calls of several people at one keyboard (hot seat), each named: no
    letters, since two people may have the same call."""
    out = []
    for view in views:
        offered = {m["action"]: m for m in view.get("legal", [])}
        for call in view.get("calls", []):
            label = f"{_name(view)}: {call['text']}"
            question = _question(label, offered.get(call["a"], {}), None)
            out.append(Choice(label, call["a"], "call", seat=view["seat"], confirm=question))
    return out


def _name(view: Mapping[str, Any]) -> str:
    return view["players"][view["seat"]]["name"]


def parse(
    text: str, choices: Sequence[Choice], tinker_bell: bool = False, no_button: str = ""
) -> Command:
    """What a typed line means, given the menu on screen and whether the game waits for the
    Tinker Bell button (`no_button`: why no game of this ruleset ever does). Never raises:
    anything that is not a move becomes a `Refuse`."""
    word = text.strip().lower()
    if word in QUIT_WORDS:
        return Quit()
    if word in HELP_WORDS:
        return Help()
    if word in REDRAW_WORDS:
        return Redraw()
    if word in PRESS_WORDS and tinker_bell:
        return Press()
    if word in PRESS_WORDS and word and no_button:
        return Refuse(f"{no_button}: type the number of a move.")
    if not word:
        return Refuse(_ask(choices))
    for choice in choices:
        if choice.alias and word == choice.alias:
            return Act(choice.action, choice.label, choice.seat)
    match = _NUMBER.match(word)
    if match is None:
        if word in PRESS_WORDS:
            return Refuse("The game is not waiting for the Tinker Bell button.")
        if word in ALIASES.values():
            return Refuse(f"{word!r} is not a move you can make now. {_ask(choices)}")
        return Refuse(f"{text.strip()!r} is not a move. {_ask(choices)}")
    if not choices:
        return Refuse("There is no move to choose now.")
    number = int(match.group(1))
    if not 1 <= number <= len(choices):
        return Refuse(f"There is no move {number}. {_ask(choices)}")
    choice = choices[number - 1]
    if match.group(2):
        if choice.uno is None:
            return Refuse(
                f"Move {number} cannot be made with UNO!: say it as you play your "
                "next-to-last card."
            )
        return Act(choice.uno, f"{choice.label} and UNO!", choice.seat, uno=choice.says_uno)
    act = Act(choice.action, choice.label, choice.seat)
    return act if choice.confirm is None else Confirm(act, choice.confirm)


def _ask(choices: Sequence[Choice]) -> str:
    if not choices:
        return "Type ? for help."
    letters = ", ".join(f"{c.alias}" for c in choices if c.alias)
    extra = f" (or {letters})" if letters else ""
    if len(choices) == 1:
        return f"Type 1{extra}, or ? for help."
    return f"Type a number from 1 to {len(choices)}{extra}, or ? for help."


HELP_HEAD = "Type the number of a move and press Enter."
HELP_KEYS = """\
  3u      play move 3 and say UNO! (with your next-to-last card)
  d       draw a card            p  keep the card drawn (pass)
  u       call UNO! late         c  challenge a Villain Draw 4 (its number asks first)
  s       stop discarding"""
HELP_PRESS = "  Enter   (or t) press the Tinker Bell button when the game waits for it"
HELP_TAIL = """\
  r       show the table again   ?  this help
  q       leave the game (Ctrl-D too)"""
HELP_WIDTH = 92


def help_text(view: Mapping[str, Any]) -> str:
    """The help for the menu this view makes (`menu`): how the ruleset offers its moves (the
    view's `about`, its registry entry's), the letters, and Enter for Tinker Bell where the game
    has her (else that nothing waits for a button)."""
    head = HELP_HEAD + (f" {view['about']}" if view.get("about") else "")
    lines = [textwrap.fill(head, HELP_WIDTH), HELP_KEYS]
    if "tinker_bell" in view.get("features", ()):
        lines += [HELP_PRESS, HELP_TAIL, "Bad input changes nothing: the game asks again."]
    else:
        lines += [
            HELP_TAIL,
            f"{no_tinker_bell(view)}: nothing waits for a button. Bad input changes nothing.",
        ]
    return "\n".join(lines)
