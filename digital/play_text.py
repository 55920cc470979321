"""Terminal play's text: one seat's view (and its menu) as lines of rich `Text`, for every
ruleset, never asking which: what the table shows follows the view's `features` (points and
hands) and what the observation holds in its shape (`engine.observation`: each seat's facts and
shelves, the table's panels, what only the viewer has seen).

Pure functions of the view dict, so tests read `.plain` and need no terminal. Colour is never the
only cue: every card and colour is drawn with its symbol and its name, in the styles of the
terminal scoreboard (`scoreboard.terminal`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.text import Text

from digital.play_menu import Choice
from scoreboard import wins
from scoreboard.terminal import STYLE, SYMBOL
from tray.backend import COLOURS

WILD_STYLE = "bold white on grey30"
WILD_SYMBOL = "◆"
WON = "bold black on yellow1"


def swatch(colour: str | None, words: str | None = None) -> Text:
    """`words` (default: the colour's name) after the colour's symbol, in the colour's style."""
    if colour is None:
        return Text(words or "none")
    style = STYLE.get(colour, WILD_STYLE)
    symbol = SYMBOL.get(colour, WILD_SYMBOL)
    return Text(f" {symbol} {words or colour} ", style=style)


def card(card: Mapping[str, Any]) -> Text:
    """A card from the view: symbol and name, styled; the name already says its colour. A card
    of several colours (`colours`: an Elite Action Card) shows each colour's symbol, then its
    words (name, colours and powers), so no colour is told by colour alone."""
    colours = card.get("colours")
    if colours is not None:
        style = STYLE[colours[0]] if len(colours) == 1 and colours[0] in STYLE else WILD_STYLE
        symbols = "".join(SYMBOL.get(c, WILD_SYMBOL) for c in colours) or WILD_SYMBOL
        return Text(f" {symbols} {card['words']} ", style=style)
    return swatch(card.get("colour") or "wild", card.get("name") or card["words"])


def features(view: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(view.get("features", ()))


def header(view: Mapping[str, Any]) -> Text:
    if "hand_no" in view:
        return Text(f"── Hand {view['hand_no']} · {view['prompt']}", style="bold")
    mode = f" ({view['mode']})" if view.get("mode") else ""
    return Text(f"── {view.get('title', '')}{mode} · {view['prompt']}", style="bold")


def table(view: Mapping[str, Any]) -> list[Text]:
    """The table: a game with points shows each player's score (`points_table`); one without,
    each seat's facts and shelves as its observation gives them (`seats_table`)."""
    if "points" in features(view):
        return points_table(view)
    return seats_table(view)


def _top_line(view: Mapping[str, Any], shown: Callable[[Any], Text]) -> Text:
    """ "Top card <card>   Colour in play <swatch>", the card drawn by `shown`."""
    line = Text("Top card ")
    line.append_text(shown(view["top"]))
    line.append("   Colour in play ")
    line.append_text(swatch(view.get("colour")))
    return line


def points_table(view: Mapping[str, Any]) -> list[Text]:
    """Top card, colour in play, direction, and each player's cards and score (▶ marks whose
    move it is). No hand but the viewer's ever appears: the view has no other."""
    lines: list[Text] = []
    if view.get("top"):
        lines.append(_top_line(view, card))
    mover = (view.get("awaiting") or {}).get("seat")
    width = max(len(p["name"]) for p in view["players"])
    for p in view["players"]:
        tags = []
        if p["deals"]:
            tags.append("deals")
        if p["out"]:
            tags.append("out")
        if p["seat"] == view.get("seat"):
            tags.append("you")
        elif p["person"]:
            tags.append("person")
        mark = "▶" if p["seat"] == mover else " "
        count = f"{p['cards']} card" + ("" if p["cards"] == 1 else "s")
        text = f"{mark} {p['name']:<{width}}  {count:>9}  {p['score']:>4} points"
        if tags:
            text += f"  ({', '.join(tags)})"
        lines.append(Text(text, style="dim" if p["out"] else ""))
    facts = f"target {view['target']} points"
    if view.get("top"):
        facts = f"Play goes {view['direction']} · {view['draw_pile']} cards to draw · {facts}"
    lines.append(Text(f"  {facts[0].upper()}{facts[1:]}", style="dim"))
    return lines


def hand(view: Mapping[str, Any], width: int = 80) -> list[Text]:
    """The viewer's hand, every card (those with no move now are dim), broken into lines of at
    most `width` cells between cards, never inside one."""
    if not view.get("hand"):
        return []
    lines = [Text(f"Your hand ({len(view['hand'])}):")]
    named = {m["card"] for m in view.get("legal", []) if not m["out_of_turn"]}
    for c in view["hand"]:
        text = card(c)
        if c["code"] not in named:
            text.stylize("dim")
        if lines[-1].cell_len + 1 + text.cell_len > width and lines[-1].plain.strip():
            lines.append(Text("  "))
        lines[-1].append(" ")
        lines[-1].append_text(text)
    return lines


def choices(menu: Sequence[Choice]) -> list[Text]:
    """The numbered menu; a card move shows the card's colour by symbol, style and name."""
    lines: list[Text] = []
    width = len(str(len(menu)))
    for i, choice in enumerate(menu, 1):
        line = Text(f"  {i:>{width}}) ")
        if choice.kind == "card":
            line.append(
                f"{SYMBOL.get(choice.colour or '', WILD_SYMBOL)} ",
                style=STYLE.get(choice.colour or "", WILD_STYLE),
            )
            line.append(choice.label)
        else:
            line.append(choice.label, style="bold" if choice.kind == "call" else "")
        extras = []
        if choice.alias:
            extras.append(choice.alias)
        if choice.uno is not None:
            extras.append(f"{i}u with UNO!")
        if extras:
            line.append(f"   [{' · '.join(extras)}]", style="dim")
        lines.append(line)
    return lines


def new_lines(old: Sequence[str], new: Sequence[str]) -> list[str]:
    """The lines of `new` (the view's last few log lines) not yet shown, given the last `old`:
    `new` continues where the longest tail of `old` that starts it leaves off."""
    for k in range(min(len(old), len(new)), 0, -1):
        if list(old[-k:]) == list(new[:k]):
            return list(new[k:])
    return list(new)


def log(lines: Sequence[str]) -> list[Text]:
    return [Text(f"  · {line}", style="italic") for line in lines]


def hand_result(view: Mapping[str, Any], entry: Mapping[str, Any]) -> list[Text]:
    """A finished hand: who won it, for how many points, and the scores after it."""
    out = [
        Text(
            f"Hand {entry['hand']}: {entry['winner']} won it and scores {entry['points']} points.",
            style="bold",
        )
    ]
    out.append(
        Text("Scores: " + ", ".join(f"{p['name']} {p['score']}" for p in view["players"]) + ".")
    )
    return out


def game_over(view: Mapping[str, Any]) -> list[Text]:
    """The winner; with points, each player's score; without, the tally of wins."""
    if "points" not in features(view):
        out = [Text(f"Game over: {view['winner']} won {view.get('title', '')}.", style=WON)]
        tally = view.get("tally")
        if tally and tally["games"]:
            out.append(Text(wins.says(tally, f"{view.get('title', '')} wins")))
        return out
    out = [
        Text(
            f"Game over: {view['winner']} won after {len(view['hands'])} hands.",
            style=WON,
        )
    ]
    out += [Text(f"  {p['name']}: {p['score']} points") for p in view["players"]]
    return out


def plain(lines: Sequence[Text]) -> str:
    return "\n".join(line.plain for line in lines)


def lights(levels: Sequence[float]) -> Text:
    """One frame of the light show in text: the four colours, the lit one in its style, a
    trailing one dim, the others plain and dim (names always printed, so no colour is needed)."""
    line = Text()
    for i, (colour, level) in enumerate(zip(COLOURS, levels, strict=True)):
        if i:
            line.append("  ")
        label = f" {SYMBOL[colour]} {colour.upper() if level >= 0.99 else colour} "
        if level >= 0.99:
            line.append(label, style=STYLE[colour])
        elif level > 0:
            line.append(label, style=f"{STYLE[colour]} dim")
        else:
            line.append(label, style="dim")
    return line


# ---------------------------------------------------------------------- seats and panels
def seats_table(view: Mapping[str, Any]) -> list[Text]:
    """The table of a game without points: the top card and colour in play, then each seat:
    its cards and facts (`players[s]["facts"]`), then its shelves, a listed one a card a line
    (a Lineup), another by its cards' names in one line (a discard pile). ▶ marks whose move
    it is."""
    lines: list[Text] = []
    if view.get("top"):
        lines.append(_top_line(view, card))
        way = view.get("direction", "left")
        lines.append(
            Text(
                f"  Play goes {way} · {view.get('draw_pile', 0)} cards to draw · "
                f"{view.get('discard_pile', 0)} on the discard pile",
                style="dim",
            )
        )
    for player in view["players"]:
        lines.extend(_seat(view, player))
    return lines


def _seat(view: Mapping[str, Any], player: Mapping[str, Any]) -> list[Text]:
    s = player["seat"]
    mark = "▶" if s == (view.get("awaiting") or {}).get("seat") else " "
    tags = []
    if s == view.get("seat"):
        tags.append("you")
    elif player["person"]:
        tags.append("person")
    if player.get("called_uno"):
        tags.append("UNO!")
    cards = player["cards"]
    text = f"{mark} {player['name']}: {cards} card{'' if cards == 1 else 's'}"
    text += "".join(f" · {fact}" for fact in player.get("facts", ()))
    if tags:
        text += f"  ({', '.join(tags)})"
    out = [Text(text, style="bold" if mark == "▶" else "")]
    for shelf in player.get("shelves", ()):
        out.extend(_shelf(shelf))
    return out


def _shelf(shelf: Mapping[str, Any]) -> list[Text]:
    """A listed shelf a card a line ("Lineup: empty" without one); another, where it holds
    cards, their names in one dim line."""
    name, cards = shelf["name"], shelf["cards"]
    if not shelf.get("listed"):
        if not cards:
            return []
        names = ", ".join(c.get("short") or c["name"] for c in cards)
        return [Text(f"    {name}: {names}", style="dim")]
    if not cards:
        return [Text(f"    {name}: empty", style="dim")]
    out = []
    for c in cards:
        line = Text(f"    {name} ")
        line.append_text(card(c))
        out.append(line)
    return out


def panels(view: Mapping[str, Any]) -> list[Text]:
    """What the table shows besides the seats (`panels`: a draft's cards showing), each its
    title, its cards a line each, and its notes."""
    lines: list[Text] = []
    for panel in view.get("panels", ()):
        lines.append(Text(panel["title"], style="bold"))
        for c in panel["cards"]:
            line = Text("    ")
            line.append_text(card(c))
            lines.append(line)
        lines.extend(Text(f"  {note}", style="dim") for note in panel.get("notes", ()))
    return lines


def seen(view: Mapping[str, Any], width: int = 80) -> list[Text]:
    """What only the viewer sees besides its hand (`seen`: a hand it peeked at, a card it
    searched), each its title and its cards."""
    lines: list[Text] = []
    for part in view.get("seen", ()):
        lines += cards_line(part["title"], part["cards"], width)
    return lines


def cards_line(title: str, cards: Sequence[Mapping[str, Any]], width: int) -> list[Text]:
    """`title` and the UNO cards after it, broken between cards (never inside one)."""
    if not cards:
        return []
    lines = [Text(title)]
    for c in cards:
        text = card(c)
        if lines[-1].cell_len + 1 + text.cell_len > width and lines[-1].plain.strip():
            lines.append(Text("  "))
        lines[-1].append(" ")
        lines[-1].append_text(text)
    return lines


def seat_lines(view: Mapping[str, Any], width: int = 80) -> list[Text]:
    """The viewer's own part: the table's panels (a draft), its hand, and what only it sees."""
    return panels(view) + hand(view, width) + seen(view, width)
