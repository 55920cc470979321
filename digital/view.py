"""What a page or a terminal receives of a digital game, for every ruleset: the game's own
observation of the seat (the engine decides what a seat may see), with the keys every digital
view has on top, so the page and the terminal read one shape and tell what to draw from
`features` alone:

    game      True while there is a game
    ruleset   its name; title: its name for a person; about: how it offers its moves, in words
    features  what the ruleset declares ("tinker_bell", "points", "smackdown" ...)
    seat      whose view this is (None: a spectator, who sees no hand)
    choosing  the tray's pick is made and its lights are still spinning (the game takes it
              once they settle): digital play's own state, so `prompt` says so meanwhile
    players   [{"seat", "name", "person", ...}]: the observation's own facts kept
    awaiting  {"kind", "seat"}: "tinker_bell" waits for the button; a seat, for its move;
              "smackdown" (a race) lists in "slapped" the seats whose hand is on the 6
    prompt    the observation's own (what the game waits for, in words), with what only
              digital play knows: the lights spinning, the bot pressing for its own card
    bot_presses  the name of the bot pressing Tinker Bell for its own card now, or None
    winner    the winner's name, or None
    uno_plays the seat's moves it may make saying UNO! (where that is a call of its own)
    hints     {action: the powers of the card it names}, where an action names one
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from digital.link import GameLink, awaiting, uno_plays

CHOOSING = "Tinker Bell is choosing…"
"""What the game waits for while the tray's lights spin (`choosing`)."""


ASK_PRESS = "press the Tinker Bell button!"
"""How the observation's prompt ends while Tinker Bell waits for a card (engine/disney/observer.py):
said otherwise when a bot presses for its own card."""


def page_view(link: GameLink, seat: int | None, presser: str | None = None) -> dict[str, Any]:
    """The view of `seat` (None: a spectator); `presser`, the bot pressing Tinker Bell for its
    own card now (`digital.bot_press.name_of`). The caller holds the link's lock and has
    checked that whoever asks holds `seat`'s key."""
    game = link.game
    observed = game.observation(seat)
    out = dict(observed)
    out.update(
        game=True,
        ruleset=link.ruleset,
        title=link.title,
        about=link.about,
        features=sorted(link.features),
        seat=seat,
        players=_players(observed.get("players"), game.players, link.humans),
        awaiting=observed.get("awaiting") or awaiting(game),
        prompt=_prompt(observed, link.choosing and not game.is_terminal(), presser),
        bot_presses=presser,
        choosing=link.choosing,
        winner=winner_name(game.winner, game.players),
        uno_plays=uno_plays(game, seat) if observed["uno_call"] else [],
        hints=hints(observed) if seat is not None else {},
    )
    return out


def _prompt(observed: Mapping[str, Any], choosing: bool, presser: str | None) -> str:
    """What the game waits for, in words: the observation's, unless the tray's lights spin;
    a bot's card, the bot presses ("Bo played Green Draw 2: Bo presses Tinker Bell.")."""
    if choosing:
        return CHOOSING
    prompt = str(observed["prompt"])
    return (
        prompt if presser is None else prompt.replace(ASK_PRESS, f"{presser} presses Tinker Bell.")
    )


def winner_name(winner: Any, names: list[str]) -> str | None:
    """The winner's name (a team's names joined), or None while nobody has won."""
    if winner is None:
        return None
    return " and ".join(
        names[s] for s in (winner if isinstance(winner, tuple | list) else [winner])
    )


def hints(observed: Mapping[str, Any]) -> dict[str, str]:
    """{action: the powers of the card it names}, where a move names a card with powers, so a
    choice is made without looking the card up ("activate Yuki Tsunoda (blue)": "Swap Hands")."""
    return {str(move["action"]): move["hint"] for move in observed["legal"] if move["hint"]}


def _players(observed: Any, names: list[str], humans: frozenset[int]) -> list[dict[str, Any]]:
    """Each seat's public facts from the observation (if it gives them per seat), with who is a
    person."""
    facts = observed if isinstance(observed, list) else []
    return [
        {
            **(facts[s] if s < len(facts) and isinstance(facts[s], Mapping) else {}),
            "seat": s,
            "name": name,
            "person": s in humans,
        }
        for s, name in enumerate(names)
    ]
