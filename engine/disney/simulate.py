"""Bots playing hands or whole games, with the statistics a table wonders about.

Pure: all randomness comes from one seeded `random.Random`, so a seed reproduces every hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine
from engine import bots as bots_mod
from engine import simulation
from engine.bots import shuffle
from engine.disney import cards as C
from engine.disney import scoring
from engine.disney.game import Game
from engine.disney.hand import Hand
from engine.disney.listing import legal_actions
from engine.disney.stats import RATES
from engine.disney.steps import NOBODY_MOVES, PLAY, RESHUFFLE, SMACKDOWN, TINKER
from engine.phases import OVER


def choose_dealer(
    players: int, rng: random.Random, deck: Sequence[int]
) -> tuple[int, list[list[str | None]]]:
    """ "Each player draws a card. Player with the highest point value is the dealer."

    Ties draw again among the tied players. Returns the dealer and each round of draws (codes,
    None for players not drawing) so a display can show how the dealer was found.
    """
    from engine.disney.rulesets import DISNEY

    points = DISNEY.points
    contenders = list(range(players))
    rounds: list[list[str | None]] = []
    while True:
        pile = list(deck)
        rng.shuffle(pile)
        drawn = {p: pile[i] for i, p in enumerate(contenders)}
        rounds.append([C.code(drawn[p]) if p in drawn else None for p in range(players)])
        best = max(points[c] for c in drawn.values())
        contenders = [p for p in contenders if points[drawn[p]] == best]
        if len(contenders) == 1:
            return contenders[0], rounds


def pick(rng: random.Random, n: int) -> int:
    """One of 0..n-1, uniformly (a float, as `shuffle`: `randrange` costs three Python calls)."""
    return int(rng.random() * n)


def new_deck(game: Game, rng: random.Random) -> list[int]:
    """The game's deck, shuffled with `shuffle`."""
    deck = list(game.deck)
    shuffle(deck, rng)
    return deck


def play_hand(game: Game, bots: Sequence[bots_mod.Bot], rng: random.Random) -> int:
    """Play the current hand to its end: bots move, `rng` resolves Tinker Bell and reshuffles.
    Returns the number of decisions taken (moves, and calls out of turn).

    Calls out of turn are offered by the one policy (`engine.bots.offer_calls`); every move
    goes through the one `Hand.step` (recorded: `Hand.apply`, which writes its event). A
    random bot's move is drawn from the hand's listed moves as `RandomBot.choose` draws it,
    without the call, so a seed plays the same game either way (tests/engine/test_playout.py)."""
    h = game.dealt()
    draw_chance = rng.random
    seats = h.seats
    recording = game.recording
    draws = [b.draw if type(b) is bots_mod.RandomBot else None for b in bots]
    by_chance = bots_mod.chance_order(rng)  # who speaks first out of turn
    jump_in = h.variant.jump_in
    decisions = 0
    while True:
        if (h.catchable or jump_in or (h.steps and h.challengeable())) and bots_mod.offer_calls(
            game, bots, by_chance
        ):  # (by its module: a compiled engine calls a function held in a variable as an object)
            decisions += 1  # (a hand that is over offers no call: `interjections`)
        head = h.head  # the decision waited for
        phase = head.kind
        # PLAY first, the end last: most decisions are plays, and a compiled engine tells two
        # names of one length apart ("play", "over") only by comparing their letters.
        if phase == PLAY or phase not in NOBODY_MOVES:  # a player moves
            seat = seats[head.seat]
            draw = draws[seat]
            if draw is None:
                action = bots[seat].act(game)
            else:  # = RandomBot.choose(legal), without the call
                legal = legal_actions(h)  # (`Hand.legal_actions`'s list)
                n = len(legal)  # (a variable: `RandomBot.choose`)
                action = legal[int(draw() * n)]
            if recording:  # (recorded: `Hand.apply`, the game's one path; just listed)
                h.apply(action, listed=True)
            else:
                h.step(action)
            decisions += 1
        elif phase == TINKER:  # (the hand's own chance methods: a recorded hand records them)
            h.apply_tinker_bell(int(draw_chance() * 4.0))  # = pick(rng, 4)
        elif phase == OVER:
            break
        else:  # the rarer chance events
            decisions += _rare_chance(h, phase, rng)
    h.stats.decisions += decisions
    game.score_if_over()
    return decisions


def _rare_chance(h: Hand, phase: str, rng: random.Random) -> int:
    """A reshuffle, Wild Shuffle Hands, or the next hand on the 6 in a 6-Smackdown race (the
    bots are equally quick, so chance orders their hands: each a decision). Returns the
    decisions taken."""
    if phase == SMACKDOWN:
        outcomes = h.chance_outcomes()
        h.apply(outcomes[pick(rng, len(outcomes))][0])  # (the one path: `Hand.apply`)
        return 1
    if phase == RESHUFFLE:
        pool = h.reshuffle_pool()
        shuffle(pool, rng)
        h.apply_reshuffle(pool)
    else:  # SHUFFLE: Wild Shuffle Hands
        pool = h.shuffle_pool()
        shuffle(pool, rng)
        h.apply_shuffle_hands(pool)
    return 0


COUNTERS = (
    "points",
    "draw2_picks",
    "draw2_matches",
    "villain_draw4s",
    "villain_draw4s_fully_protected",
    "blocked_hands",
)
"""What the Disney family counts beside every game's counts (`engine.simulation`)."""


def new_stats(players: int, bot_names: Sequence[str]) -> dict[str, Any]:
    return simulation.new_stats(players, bot_names, COUNTERS)


def _count_hand(
    stats: dict[str, Any], game: Game, names: Sequence[str], seating: Sequence[int] | None = None
) -> None:
    """Add the hand just finished; `seating` maps a table's seats to the players' own seats."""
    h = game.dealt()
    last = game.history[-1]
    seat = last["winner"] if seating is None else seating[last["winner"]]
    stats["hands"] += 1
    stats["hand_wins_by_seat"][seat] += 1
    bot = names[seat]
    stats["hand_wins_by_bot"][bot] = stats["hand_wins_by_bot"].get(bot, 0) + 1
    counted = h.stats
    stats["turns"] += counted.turns
    stats["decisions"] += counted.decisions
    stats["points"] += sum(last["held"])
    stats["draw2_picks"] += counted.draw2_picks
    stats["draw2_matches"] += counted.draw2_matches
    stats["villain_draw4s"] += counted.villain_draw4s
    stats["villain_draw4s_fully_protected"] += counted.villain_draw4s_fully_protected
    stats["blocked_hands"] += last["blocked"]


def eight_player_rotation(
    ruleset: str,
    options: Mapping[str, Any],
    names: Sequence[str],
    bots: Sequence[bots_mod.Bot],
    rng: random.Random,
    *,
    record: bool = False,
    on_hand: Callable[[Game, list[int]], None] | None = None,
) -> tuple[list[int], list[tuple[Game, list[int]]]]:
    """UNO Elvis partners with eight players: "you will use the rules in the previous paragraph
    except that you will play two games at the same time. Four people will play in each game.
    Each player will play a total of 28 hands."

    Seven rounds (`scoring.partner_schedule(8)`: everyone partners everyone once); in each, two
    four-player tables with partners opposite play four hands. Each player keeps the points they
    score. Returns every player's total and each table's game with its seating (table seat ->
    player). The two tables of a round are independent, so they are played one after the other.
    """
    table_options = {k: v for k, v in options.items() if k != "partners_rotation"}
    table_options.update(partners=True, target=100_000)  # the rotation, not a target, ends it
    totals = [0] * 8
    tables = []
    for round_ in scoring.partner_schedule(8):
        for (a, b), (c, d) in round_:
            seating = [a, c, b, d]  # "The teams will alternate positions around the table."
            game = Game(ruleset, [names[s] for s in seating], 0, table_options, record=record)
            for _ in range(scoring.ROTATION_HANDS):
                game.start_hand(new_deck(game, rng), check=False)
                play_hand(game, [bots[s] for s in seating], rng)
                if on_hand is not None:
                    on_hand(game, seating)
            for pos, player in enumerate(seating):
                totals[player] += game.sheet.scores[pos]
            tables.append((game, seating))
    return totals, tables


def _count_game_win(stats: dict[str, Any], seats: Sequence[int], names: Sequence[str]) -> None:
    stats["games"] += 1
    for seat in seats:
        stats["game_wins_by_seat"][seat] += 1
        bot = names[seat]
        stats["game_wins_by_bot"][bot] = stats["game_wins_by_bot"].get(bot, 0) + 1


def _whole_game(
    ruleset: str,
    seat_names: list[str],
    options: Mapping[str, Any] | None,
    bot_list: Sequence[bots_mod.Bot],
    rng: random.Random,
    record: bool,
    stats: dict[str, Any],
    names: Sequence[str],
) -> Game:
    """A game to its end, the dealer found by the highest card; its hands and win counted."""
    players = len(seat_names)
    game = Game(ruleset, seat_names, 0, options, record=record)
    game.dealer = game.first_dealer = choose_dealer(players, rng, game.deck)[0]
    while not game.is_terminal():
        game.start_hand(new_deck(game, rng), check=False)
        play_hand(game, bot_list, rng)
        _count_hand(stats, game, names)
    w = game.sheet.winner
    assert w is not None
    _count_game_win(stats, w if isinstance(w, tuple) else (w,), names)
    return game


def _eight_player_game(
    ruleset: str,
    options: Mapping[str, Any] | None,
    seat_names: list[str],
    bot_list: Sequence[bots_mod.Bot],
    rng: random.Random,
    record: bool,
    stats: dict[str, Any],
    names: Sequence[str],
) -> list[Game]:
    """The eight-player partners rotation (two tables of four); the most points win."""
    totals, tables = eight_player_rotation(
        ruleset,
        dict(options or {}),
        seat_names,
        bot_list,
        rng,
        record=record,
        on_hand=lambda g, seating: _count_hand(stats, g, names, seating),
    )
    best = max(totals)
    _count_game_win(stats, [s for s in range(8) if totals[s] == best], names)
    return [game for game, _seating in tables]


def simulate(
    *,
    players: int,
    seed: int,
    hands: int | None = None,
    games: int | None = None,
    bots: Sequence[str] = ("random",),
    options: Mapping[str, Any] | None = None,
    ruleset: str = "disney",
    record: bool = False,
    on_game: Callable[[Game], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play `hands` single hands (the dealer moving round the table) or `games` whole games
    (dealer by the highest card), and return the statistics. `on_game` sees each finished game
    (with its record when `record` is true)."""
    if (hands is None) == (games is None):
        raise ValueError("give either a number of hands or a number of games")
    rng = random.Random(seed)
    bot_list = bots_mod.make(list(bots), players, rng)
    names = [b.name for b in bot_list]
    stats = new_stats(players, names)
    stats["ruleset"] = ruleset
    stats["engine"] = engine.BUILD  # "compiled" (mypyc) or "python"
    seat_names = [f"{names[s]}-{s}" for s in range(players)]
    total = hands if hands is not None else games
    assert total is not None
    eight = players == 8 and bool((options or {}).get("partners_rotation"))
    if eight and hands is not None:
        raise ValueError("the eight-player partners rotation is played as whole games (--games)")
    table = None if eight else Game(ruleset, seat_names, 0, options, record=record)
    for i in range(total):
        if eight:
            for game in _eight_player_game(
                ruleset, options, seat_names, bot_list, rng, record, stats, names
            ):
                if on_game is not None:
                    on_game(game)
        else:
            if hands is not None:
                assert table is not None
                game = table.rematch(i % players)
                game.start_hand(new_deck(game, rng), check=False)
                play_hand(game, bot_list, rng)
                _count_hand(stats, game, names)
            else:
                game = _whole_game(
                    ruleset, seat_names, options, bot_list, rng, record, stats, names
                )
            if on_game is not None:
                on_game(game)
        if on_progress is not None:
            on_progress(i + 1)
    return simulation.with_rates(stats, RATES)


def merge_stats(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of several runs (chunks of one simulation, in order) as one run's."""
    return simulation.merge_stats(parts, RATES)
