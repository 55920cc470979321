"""Terminal play's text for UNO Elite: one seat's view as lines of rich `Text`, and its menu.

Pure functions of the view (`digital.elite_view`), like `digital.play_text` for the other
rulesets: every Lineup (public), each seat's Player Deck count and Elite discard pile, the top
card, and only the viewer's own hand (and a hand it peeked at, and a card it searched). The menu
is the engine's legal actions, each in the engine's words, numbered: every choice an activation
asks (whom to target, which card, which order) is one of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from digital.play_menu import Choice
from digital.play_text import WILD_STYLE, WILD_SYMBOL, swatch
from scoreboard import elite_wins
from scoreboard.terminal import STYLE, SYMBOL


def uno_card(card: Mapping[str, Any]) -> Text:
    """An UNO card: its colour's symbol and its words ("Red 3 (Elite)"); a wild card's ◆."""
    return swatch(card.get("colour") or "wild", card["words"])


def elite_card(card: Mapping[str, Any]) -> Text:
    """An Elite Action Card: each of its colours' symbols, then its words (name, colours and
    powers), so no colour is told by colour alone."""
    colours = list(card.get("colours") or [])
    style = STYLE[colours[0]] if len(colours) == 1 and colours[0] in STYLE else WILD_STYLE
    symbols = "".join(SYMBOL.get(c, WILD_SYMBOL) for c in colours) or WILD_SYMBOL
    return Text(f" {symbols} {card['words']} ", style=style)


def header(view: Mapping[str, Any]) -> Text:
    inner = view["elite"]
    return Text(
        f"── UNO Elite ({inner.get('mode', 'quick')}) · {inner.get('prompt', '')}", style="bold"
    )


def table(view: Mapping[str, Any]) -> list[Text]:
    """The top card and colour in play, then each seat: cards held, Player Deck, Elite discards,
    its Lineup, one Elite card a line, and its Elite discard pile by name (▶ marks whose move it
    is)."""
    inner = view["elite"]
    lines: list[Text] = []
    if inner.get("top"):
        line = Text("Top card ")
        line.append_text(uno_card(inner["top"]))
        line.append("   Colour in play ")
        line.append_text(swatch(inner.get("colour")))
        lines.append(line)
        way = "left" if inner.get("direction", 1) == 1 else "right"
        lines.append(
            Text(
                f"  Play goes {way} · {inner.get('draw_pile', 0)} cards to draw · "
                f"{inner.get('discard_pile', 0)} on the discard pile",
                style="dim",
            )
        )
    for s, seat in enumerate(inner["seats"]):
        lines.extend(_seat(view, s, seat))
    return lines


def _seat(view: Mapping[str, Any], s: int, seat: Mapping[str, Any]) -> list[Text]:
    mark = "▶" if s == view["elite"].get("to_move") else " "
    tags = []
    if s == view.get("seat"):
        tags.append("you")
    elif view["players"][s]["person"]:
        tags.append("person")
    if seat.get("called_uno"):
        tags.append("UNO!")
    cards = seat["hand_count"]
    text = (
        f"{mark} {seat['name']}: {cards} card{'' if cards == 1 else 's'} · "
        f"Player Deck {seat['player_deck']} · Elite discards {len(seat['elite_discard'])}"
    )
    if tags:
        text += f"  ({', '.join(tags)})"
    out = [Text(text, style="bold" if mark == "▶" else "")]
    if seat["lineup"]:
        for card in seat["lineup"]:
            line = Text("    Lineup ")
            line.append_text(elite_card(card))
            out.append(line)
    else:
        out.append(Text("    Lineup: empty", style="dim"))
    if seat["elite_discard"]:
        names = ", ".join(card["words"].partition(": ")[0] for card in seat["elite_discard"])
        out.append(Text(f"    Elite discard pile: {names}", style="dim"))
    return out


def private(view: Mapping[str, Any], width: int = 80) -> list[Text]:
    """What only the viewer sees: its hand, a hand it peeked at, a card it searched."""
    inner = view["elite"]
    lines = cards_line(f"Your hand ({len(inner.get('hand', []))}):", inner.get("hand", []), width)
    peeked = inner.get("peeked")
    if peeked:
        who = view["players"][peeked["seat"]]["name"]
        lines += cards_line(f"You peeked at {who}'s hand:", peeked["hand"], width)
    searched = inner.get("searched")
    if searched:
        line = Text("You searched: ")
        line.append_text(elite_card(searched["card"]))
        lines.append(line)
    return lines


def draft(view: Mapping[str, Any]) -> list[Text]:
    """The draft's showing cards (public) and what each seat has drafted so far."""
    d = view["elite"].get("draft")
    if not d:
        return []
    lines = [Text("Draft: the cards showing", style="bold")]
    for card in d.get("showing", []):
        line = Text("    ")
        line.append_text(elite_card(card))
        lines.append(line)
    for s, picked in enumerate(d.get("picked", [])):
        name = "You" if s == view.get("seat") else view["players"][s]["name"]
        names = ", ".join(card["name"] for card in picked) or "nothing yet"
        lines.append(Text(f"  {name} drafted {len(picked)}: {names}", style="dim"))
    return lines


def cards_line(title: str, cards: Sequence[Mapping[str, Any]], width: int) -> list[Text]:
    """`title` and the UNO cards after it, broken between cards (never inside one)."""
    if not cards:
        return []
    lines = [Text(title)]
    for c in cards:
        text = uno_card(c)
        if lines[-1].cell_len + 1 + text.cell_len > width and lines[-1].plain.strip():
            lines.append(Text("  "))
        lines[-1].append(" ")
        lines[-1].append_text(text)
    return lines


def menu(view: Mapping[str, Any]) -> list[Choice]:
    """The seat's legal actions, in the engine's words and order (with the powers of the Elite
    card an action names, after a ·); a card played from two may also be played saying UNO!
    (`uno` set: typed as its number then u)."""
    seat = view.get("seat")
    said = set(view.get("uno_plays", []))
    hints = view.get("hints", {})
    return [
        Choice(
            f"{m['words']} · {hints[str(m['action'])]}"
            if str(m["action"]) in hints
            else m["words"],
            m["action"],
            "move",
            seat=seat,
            uno=m["action"] if m["action"] in said else None,
        )
        for m in view["elite"].get("legal", [])
    ]


def game_over(view: Mapping[str, Any]) -> list[Text]:
    out = [Text(f"Game over: {view['winner']} won UNO Elite.", style="bold black on yellow1")]
    tally = view.get("tally")
    if tally and tally["games"]:
        out.append(Text(elite_wins.says(tally)))
    return out
