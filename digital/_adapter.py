"""TEMPORARY: what today's engines do not yet offer of the contract digital play is written
against (engine.protocol.GameState plus `features`, `describe`, `winner`, `observation`,
`interjections`, and bots over the protocol). Delete this file once the engine's branches land.

Every function here uses the game's own member when it has one, so nothing changes when the
engine grows it; only the fallback knows today's engines. This is the one place in digital/ that
tells the engines apart (by what they hold, `lineups` being UNO Elite's); nothing else may.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

Notes = Any  # engine.observer.EventNotes, for a game whose observation needs them


def _elite(game: Any) -> bool:
    return hasattr(game, "lineups")  # UNO Elite's (the fallbacks below only)


def features(game: Any) -> frozenset[str]:
    """What the ruleset declares: "tinker_bell", "points", "lineups"."""
    declared = getattr(game, "features", None)
    if declared is not None:
        return frozenset(declared)
    return frozenset({"lineups"}) if _elite(game) else frozenset({"tinker_bell", "points"})


def interjections(game: Any) -> list[tuple[int, int]]:
    """[(seat, action)]: every out-of-turn call (UNO, catch, challenge) open now."""
    if not _elite(game):
        return list(game.interjections())
    from engine.elite import legal

    return [(s, a) for s in range(len(game.players)) for a in legal.interjections(game, s)]


def describe(game: Any, action: int, seat: int | None = None) -> str:
    if hasattr(game, "describe"):
        return str(game.describe(action, seat))
    from engine.observer import move_text

    return move_text(action, game)


def winner_name(game: Any) -> str | None:
    """The winner's name (a team's names joined), or None while nobody has won."""
    if not _elite(game):
        from engine.observer import winner_names

        return winner_names(game)
    return None if game.winner is None else str(game.players[game.winner])


def winner_seat(game: Any) -> int | None:
    """The winning seat (for a tally of wins), or None."""
    w = game.winner if _elite(game) else game.sheet.winner
    return w if isinstance(w, int) else None


def record_text(game: Any) -> str:
    if not _elite(game):
        return str(game.record())
    from engine.elite import record

    return record.dumps(game)


def replay(header: dict[str, Any], events: Sequence[dict[str, Any]]) -> Any:
    """A game rebuilt from its record (RecordError, KeyError, ValueError... if it does not)."""
    if not isinstance(header, dict):
        raise ValueError("its record's header is not an object")
    objects = enumerate((header, *events), start=1)
    if header.get("ruleset") == "elite":
        from engine.elite import record as elite_record

        return elite_record.replay_objects(objects)[0]
    from engine import record

    return record.replay_objects(objects)[0]


# ---------------------------------------------------------------------- observation
def notes(game: Any) -> Notes:
    """What follows the game's events for its log's words (None: its observation has them)."""
    if _elite(game):
        return None
    from engine.observer import EventNotes

    return EventNotes(game)


def observation(
    game: Any, seat: int | None, humans: frozenset[int], choosing: bool, followed: Notes
) -> dict[str, Any]:
    """What `seat` may see (None: a spectator)."""
    if _elite(game):
        return dict(game.seat_view(seat) if seat is not None else game.public_view())
    from engine import observer

    waiting = game.chance_kind() == "tinker_bell"
    notes_now = followed.notes if followed is not None else None
    return observer.seat_view(game, seat, humans, waiting, choosing, notes_now)


def uno_plays(game: Any, seat: int | None) -> list[int]:
    """The actions `seat` may take saying UNO! at once (a card played from two), in a ruleset
    whose UNO call is a move of its own; [] where saying it is part of the move."""
    if seat is None or not _elite(game):
        return []
    from engine.elite import actions as EA

    if game.current_player() != seat or len(game.hands[seat]) != 2:
        return []
    return [a for a in game.legal_actions() if EA.PLAY <= a < EA.DRAW]


def uno_call(game: Any, seat: int) -> int | None:
    """The seat's UNO! call, if it is open now."""
    if not _elite(game):
        return None
    from engine.elite import actions as EA

    return EA.UNO if (seat, EA.UNO) in interjections(game) else None


def hints(observed: dict[str, Any]) -> dict[str, str]:
    """{action: the powers of the Elite card it names}, for a choice made without looking the
    card up ("activate Yuki Tsunoda (blue)": "Swap Hands")."""
    return {
        str(move["action"]): " + ".join(move["elite"]["powers"]) or "no power"
        for move in observed.get("legal", [])
        if "elite" in move
    }


# ---------------------------------------------------------------------- bots
BOT_NAMES = ("random", "greedy", "search")
MAX_SEARCH_SECONDS = 2.0  # a search bot's longest think, whatever its budget says


def make_bots(game: Any, names: list[str], rng: random.Random) -> list[Any]:
    """Bots dealt round the table from `names` (ValueError naming a bad one), each with
    `act(game)` and `interject(game, seat, options)`."""
    n = len(game.players)
    if not _elite(game):
        from engine import bots as B

        return list(B.make(names, n, rng, clock=time.perf_counter))
    if not names:
        raise ValueError(f"bots is a bot name or a list of them ({', '.join(BOT_NAMES)})")
    unknown = [b for b in names if b.partition(":")[0] not in BOT_NAMES]
    if unknown:
        raise ValueError(
            f"UNO Elite's bots are random, greedy and search: there is no {unknown[0]!r} bot for it"
        )
    made = {spec: _EliteBot(spec, rng) for spec in set(names)}
    return [made[names[s % len(names)]] for s in range(n)]


class _EliteBot:
    """`engine.elite.bots` behind the one bot interface."""

    def __init__(self, spec: str, rng: random.Random) -> None:
        self.rng, self.greedy = rng, spec.partition(":")[0] != "random"
        self._move = _elite_mover(spec)

    def act(self, game: Any) -> int:
        return self._move(game, game.current_player(), self.rng)

    def interject(self, game: Any, seat: int, options: Collection[int]) -> int | None:
        from engine.elite import bots as elite_bots

        choice = elite_bots.interject(game, seat, self.rng, self.greedy)
        return choice if choice in options else None


def _elite_mover(spec: str) -> Callable[[Any, int, random.Random], int]:
    from engine.elite import bots as elite_bots
    from engine.elite import search as elite_search
    from engine.search import parse_budget

    name, _, budget = spec.partition(":")
    if name != "search":
        if budget:
            raise ValueError(f"the {name} bot takes no budget ({spec!r})")
        return elite_bots.BOTS[name]
    rollouts, seconds = parse_budget(budget) if budget else (None, None)
    if rollouts is not None and rollouts < 1:
        raise ValueError(f"the search bot needs at least 1 rollout a move, not {rollouts}")
    if seconds is not None and not 0 < seconds <= MAX_SEARCH_SECONDS:
        raise ValueError(f"the search bot thinks 0 to {MAX_SEARCH_SECONDS:g} s a move ({spec!r})")
    limit = seconds or elite_search.MOVE_SECONDS
    count = rollouts or (10**6 if seconds else elite_search.DEFAULT_ROLLOUTS)

    def search(game: Any, seat: int, rng: random.Random) -> int:
        return elite_search.search_bot(
            game, seat, rng, rollouts=count, clock=time.perf_counter, seconds=limit
        )

    return search


def ready_to_keep(game: Any) -> bool:
    """Whether the game's header is complete (a Disney game's holds its first deal)."""
    return _elite(game) or bool(game.decks)


def finished_hands(game: Any) -> list[dict[str, Any]]:
    """A game with points: each finished hand ({"hand", "winner", "held"}), for the score sheet."""
    return list(getattr(game, "history", []))


def tinker_bell_card(game: Any) -> tuple[str, int] | None:
    """A game waiting for Tinker Bell: (the card she answers, the seat that played it)."""
    from engine import cards as C

    h = game.hand
    if h is None or h.trigger is None:
        return None
    return C.code(h.trigger), h.seats[h.actor]


def title(game: Any) -> str:
    """The ruleset's name for a person ("UNO Elite", "Disney UNO with the Tinker Bell tray")."""
    rules = getattr(game, "rules", None)
    return str(rules.title) if rules is not None else "UNO Elite"
