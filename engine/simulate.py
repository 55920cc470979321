"""Bots playing hands or whole games, with the statistics a table wonders about.

Pure: all randomness comes from one seeded `random.Random`, so a seed reproduces every hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from math import floor
from typing import Any, Final

import engine
from engine import actions as A
from engine import bots as bots_mod
from engine import cards as C
from engine import scoring
from engine.effects import AFTER_TINKER_BELL, Effect, number, reverse, skip, tinker_bell
from engine.game import Game
from engine.hand import _MATCHING, _OF_COLOUR, Hand, RuleError
from engine.phases import DISCARD, OVER, PLAY, PLAY_DRAWN, PROTECT, RESHUFFLE, TINKER


def choose_dealer(
    players: int, rng: random.Random, deck: Sequence[int]
) -> tuple[int, list[list[str | None]]]:
    """ "Each player draws a card. Player with the highest point value is the dealer."

    Ties draw again among the tied players. Returns the dealer and each round of draws (codes,
    None for players not drawing) so a display can show how the dealer was found.
    """
    from engine.rulesets import DISNEY

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


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle in place: Fisher-Yates with one float per card. `random.shuffle` draws bits per
    card through two Python calls, a sixth of a simulation's time; a float's bias (below 2**-53)
    is nothing for statistics. (The tray's own pick is another matter: `tray.pick`.)"""
    draw = rng.random
    for i in range(len(cards) - 1, 0, -1):
        j = floor(draw() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def pick(rng: random.Random, n: int) -> int:
    """One of 0..n-1, uniformly (a float, as `shuffle`: `randrange` costs three Python calls)."""
    return int(rng.random() * n)


def new_deck(game: Game, rng: random.Random) -> list[int]:
    """The game's deck, shuffled with `shuffle`."""
    deck = list(game.rules.deck)
    shuffle(deck, rng)
    return deck


def play_hand(game: Game, bots: Sequence[bots_mod.Bot], rng: random.Random) -> int:
    """Play the current hand to its end: bots move, `rng` resolves Tinker Bell and reshuffles.
    Returns the number of decisions taken (moves, and calls out of turn).

    This is the simulation's playout: the same steps as `Game.step` and `bot.act` one by one,
    with a random bot's choice inlined (the same draw from the same generator as
    `RandomBot.act`), so a seed plays the same game either way (tests/engine/test_playout.py).
    Random bots all drawing from `rng`, unrecorded (a simulation's usual hand), play in
    `_random_playout`."""
    h = game.dealt()
    draw_chance = rng.random
    if not game.recording and all(
        type(b) is bots_mod.RandomBot and b.draw == draw_chance for b in bots
    ):
        decisions = _random_playout(game, h, bots, rng)
        h.stats.decisions += decisions
        game.score_if_over()
        return decisions
    seats = h.seats
    recording = game.recording
    choosers = [b.draw if type(b) is bots_mod.RandomBot else None for b in bots]
    decisions = 0
    while h.phase != OVER:
        if h.catchable or h.challenge_open or h.variant.jump_in:
            decisions += _offer_interjections(game, bots, rng)
            if h.phase == OVER:
                break
        phase = h.phase
        if phase < TINKER:  # a player moves
            seat = seats[h.to_move]
            draw = choosers[seat]
            if draw is None:
                action = bots[seat].act(game)
            else:
                legal = h.legal_actions()
                action = legal[floor(draw() * len(legal))]
            if recording:
                game.apply_action(action)
            else:
                h.step(action)
            decisions += 1
        elif phase == TINKER:  # (the hand's own chance methods: the game's only add the record)
            colour = int(draw_chance() * 4)  # = pick(rng, 4)
            if recording:
                game.apply_tinker_bell(colour)
            else:
                h.apply_tinker_bell(colour)
        elif phase == RESHUFFLE:
            pool = h.reshuffle_pool()
            shuffle(pool, rng)
            if recording:
                game.apply_reshuffle(pool)
            else:
                h.apply_reshuffle(pool)
        else:  # SHUFFLE: Wild Shuffle Hands
            pool = h.shuffle_pool()
            shuffle(pool, rng)
            if recording:
                game.apply_shuffle_hands(pool)
            else:
                h.apply_shuffle_hands(pool)
    h.stats.decisions += decisions
    game.score_if_over()
    return decisions


def _random_playout(game: Game, h: Hand, bots: Sequence[bots_mod.Bot], rng: random.Random) -> int:
    """`play_hand`'s loop for random bots drawing from `rng`, unrecorded: the same draws and
    the same changes, with the commonest moves inline. In PLAY, the same list of legal actions
    as `Hand.legal_actions` (the same set intersection, in the same order) and the same draw as
    `RandomBot.act`; a number card, Skip, Reverse or Tinker Bell's Draw 2, or a draw, makes the
    same changes as `Hand.step` with `engine.effects` / `Hand._do_draw`; likewise the card
    just drawn (PLAY_DRAWN), a protection or discard after Tinker Bell's pick (as
    `Hand._legal_lays`), her pick itself and the reshuffle (as `Hand.apply_tinker_bell` and
    `Hand.apply_reshuffle`, less the checks of what this loop supplies itself), and the calls
    out of turn when each player has one to make (a catch or UNO, a challenge). Anything else
    goes through `legal_actions` and `Hand.step`, or `_offer_interjections`
    (tests/engine/test_playout.py holds both ways equal). A change to those rules must be made
    here too."""
    draw = rng.random
    inline = _inline_plays(h.variant.effect_fn)
    matching, of_colour = _MATCHING, _OF_COLOUR
    rank_of = C.RANK_OF
    colour_of = C.COLOUR_OF
    effect_of = h.variant.effect_of
    after_tinker_bell = AFTER_TINKER_BELL
    colour_wild_set = h.variant.colour_wild_set
    colour_wilds = h.variant.colour_wilds
    when_playable = h.variant.draw_when_playable
    must_play_drawn = h.variant.must_play_drawn
    may_take = h.variant.villain_may_take
    keep_drawing = h.variant.keep_drawing
    to_go_out = h.variant.uno_to_go_out  # (only then may a player hold one card uncalled)
    names_colour = h.variant.names_colour
    jump_in = h.variant.jump_in
    seats, pos_of = h.seats, h.pos_of
    stats = h.stats
    discard = h.discard
    n = h.num_players
    decisions = turns = 0  # (turns: added to the hand's own count at the end)
    while True:
        phase = h.phase
        if h.catchable or h.challenge_open or jump_in:
            if phase == OVER:
                break
            catchable = h.catchable
            if jump_in or h.uncalled or (catchable and h.challenge_open) or len(catchable) > 1:
                decisions += _offer_interjections(game, bots, rng)
            else:
                # = _offer_interjections with one offer per player, the commonest: one player to
                # catch (they may call UNO, anyone else may catch them), or a Villain Draw 4 that
                # anyone but its player may challenge. Asked in random order, as there, each
                # acts with odds 1 in 2 (`RandomBot.interject` with one option).
                p = catchable[0] if catchable else h.actor
                late = seats[p]
                speakers = list(seats)  # the late player first, then the others in order
                if catchable:
                    speakers.insert(0, speakers.pop(p))
                else:
                    del speakers[p]
                for j in range(len(speakers) - 1, 0, -1):  # = shuffle(speakers, rng)
                    r = floor(draw() * (j + 1))
                    speakers[j], speakers[r] = speakers[r], speakers[j]
                for seat in speakers:
                    if draw() < 0.5:  # = floor(draw() * 2) == 0: the one action offered
                        if not catchable:
                            h._challenge_villain(pos_of[seat])  # = h.apply(CHALLENGE, seat)
                        elif seat == late:
                            catchable.clear()  # = h.apply(UNO, seat)
                        else:
                            h._catch(pos_of[seat], late)  # = h.apply(CATCH + late, seat)
                        if h.owed_draws or not h.draw:
                            h._settle_draws()
                        decisions += 1
                        break
            phase = h.phase
        if phase == PLAY:
            decisions += 1
            pos = h.to_move
            hand = h.hands[pos]
            if to_go_out and h.uncalled and pos in h.uncalled:
                legal = h.legal_actions()
                h.step(legal[floor(draw() * len(legal))])
                continue
            playable = matching[h.colour * 80 + rank_of[discard[-1]]].intersection(hand)
            # The legal actions: each playable card (with the UNO call as well, holding two),
            # then each Wild naming each colour, then DRAW if allowed; one of them at random.
            # `card` is the card chosen, or -1 for DRAW; `uno`, the UNO call with it (1: said).
            size = len(hand)
            uno = 0
            if not playable:
                draw()  # the one legal action, DRAW, chosen as `RandomBot.act` would
                card = -1
            elif colour_wild_set.isdisjoint(playable):
                k = len(playable)
                if size == 2:
                    i = floor(draw() * (2 * k + 1 if when_playable else 2 * k))
                    uno = i & 1
                    i >>= 1
                else:
                    i = floor(draw() * (k + 1 if when_playable else k))
                if i == k:
                    card = -1
                else:
                    # the i-th card (= `list(playable)[i]`, without making the list)
                    for card in playable:  # noqa: B007
                        if not i:
                            break
                        i -= 1
            elif size == 2:
                legal = h.legal_actions()
                h.step(legal[floor(draw() * len(legal))])
                continue
            else:
                plain = [c for c in playable if c not in colour_wild_set]
                wilds = [w for w in colour_wilds if w in playable]
                k = len(plain)
                m = k + 4 * len(wilds)
                i = floor(draw() * (m + 1 if when_playable else m))
                if k <= i < m:  # a Wild, naming colour (i - k) % 4
                    h.step((wilds[(i - k) >> 2] << 3) | (((i - k) & 3) << 1))
                    continue
                card = -1 if i == m else plain[i]
            if card < 0:  # = h.step(DRAW): `Hand._do_draw` for a player who holds cards
                pile = h.draw
                if not pile:
                    h.step(A.DRAW)
                    continue
                turns += 1
                if h.catchable:
                    h.catchable.clear()
                card = pile.pop()
                hand.append(card)
                if (
                    card >= 64
                    or colour_of[card] == h.colour
                    or rank_of[card] == rank_of[discard[-1]]
                ):
                    h.drawn_card = card
                    h.phase = PLAY_DRAWN
                elif not keep_drawing or h.playable(pos):
                    h.to_move = (pos + h.direction) % n
                # (else Keep-Drawing: "draw until they find a playable card")
                if not pile:  # (nothing is owed in PLAY)
                    h._settle_draws()
                continue
            how = inline[card]
            if how and size > 1:  # = h.step(card << 3 | uno): `Hand.step` and the effect
                turns += 1
                if h.catchable:
                    h.catchable.clear()
                hand.remove(card)
                discard.append(card)
                h.blocked_turns = 0
                h.colour = colour_of[card]
                if size == 2 and not uno:  # one card left, UNO not said
                    h.catchable.append(pos)
                    if to_go_out:
                        h.uncalled.append(pos)
                if how == _NUMBER:
                    h.to_move = (pos + h.direction) % n
                elif how == _SKIP:
                    h.to_move = (pos + 2 * h.direction) % n
                elif how == _REVERSE:
                    if n == 2:
                        h.to_move = pos
                    else:
                        h.direction = -h.direction
                        h.to_move = (pos + h.direction) % n
                else:  # Tinker Bell's Draw 2: she picks next (chance)
                    h.phase = TINKER
                    h.trigger = card
                    h.actor = pos
                if not h.draw:  # (nothing is owed in PLAY, and these cards add nothing)
                    h._settle_draws()
                continue
            h.step(card << 3 | uno)
        elif phase == PLAY_DRAWN:
            decisions += 1
            pos = h.to_move
            hand = h.hands[pos]
            card = h.drawn_card
            if len(hand) < 3 or names_colour[card]:
                legal = h.legal_actions()
                h.step(legal[floor(draw() * len(legal))])
                continue
            # legal: [card << 3, PASS], or [card << 3] with must_play_drawn
            chosen = draw()
            if not must_play_drawn and chosen >= 0.5:  # = int(chosen * 2) == 1: PASS
                h.to_move = (pos + h.direction) % n
                h.phase = PLAY
            elif inline[card] == _NUMBER:  # = h.step(card << 3)
                hand.remove(card)
                discard.append(card)
                h.blocked_turns = 0
                h.colour = colour_of[card]
                h.to_move = (pos + h.direction) % n
                h.phase = PLAY
            else:
                h.step(card << 3)
                continue
            if h.owed_draws or not h.draw:
                h._settle_draws()
        elif phase == TINKER:  # = h.apply_tinker_bell(pick(rng, 4)), less its checks
            colour = floor(draw() * 4)
            h.tinker_colour = colour
            h.challenge_open = False
            after_tinker_bell[effect_of[h.trigger]](h, colour)
            if h.owed_draws or not h.draw:
                h._settle_draws()
        elif phase in (PROTECT, DISCARD):
            # = `Hand._legal_lays` and the step: lay one card of Tinker Bell's colour (with the
            # UNO call as well, holding two), then TAKE four instead (PROTECT, with the option)
            # or DONE (DISCARD)
            decisions += 1
            pos = h.to_move
            hand = h.hands[pos]
            colour = h.tinker_colour
            lays = list(of_colour[colour].intersection(hand))
            two = len(hand) == 2
            k = 2 * len(lays) if two else len(lays)
            protecting = phase == PROTECT
            i = floor(draw() * (k if protecting and not may_take else k + 1))
            if i == k:
                if protecting:
                    h._do_take(pos, A.TAKE)
                else:
                    h.pass_turn(pos, 1)
            else:
                lay = ((lays[i >> 1] << 1) | (i & 1)) if two else lays[i] << 1
                if protecting:
                    h._do_protect(pos, A.PROTECT + lay)
                else:
                    h._do_discard(pos, A.DISCARD + lay)
            if h.owed_draws or not h.draw:
                h._settle_draws()
        elif phase < TINKER:  # the other moves
            decisions += 1
            legal = h.legal_actions()
            h.step(legal[floor(draw() * len(legal))])
        elif phase == RESHUFFLE:  # = h.apply_reshuffle(shuffled pool), less its checks
            pool = discard[:-1]
            shuffle(pool, rng)
            pool.reverse()  # (the order is top first; the DRAW pile's top is its end)
            h.draw, h.discard = pool, discard[-1:]
            discard = h.discard
            h.phase = h.resume_phase
            h._settle_draws()
        elif phase == OVER:
            break
        else:  # SHUFFLE: Wild Shuffle Hands
            pool = h.shuffle_pool()
            shuffle(pool, rng)
            h.apply_shuffle_hands(pool)
    stats.turns += turns
    return decisions


_NUMBER: Final = 1  # how `_random_playout` plays a card inline (`_inline_plays`)
_SKIP: Final = 2
_REVERSE: Final = 3
_TINKER_BELL: Final = 4
_INLINE: dict[int, tuple[tuple[Effect, ...], list[int]]] = {}


def _inline_plays(effect_fn: tuple[Effect, ...]) -> list[int]:
    """By card id, how `_random_playout` plays the card inline: a number card, Skip, Reverse or
    Tinker Bell's Draw 2 (all coloured cards), or 0: through `Hand.step`. Worked out once
    per table of effects (`effects.effect_table` keeps each one)."""
    known = _INLINE.get(id(effect_fn))
    if known is not None and known[0] is effect_fn:
        return known[1]
    kinds: dict[Effect, int] = {
        number: _NUMBER,
        skip: _SKIP,
        reverse: _REVERSE,
        tinker_bell: _TINKER_BELL,
    }
    table = [kinds.get(fn, 0) if card < 64 else 0 for card, fn in enumerate(effect_fn)]
    _INLINE[id(effect_fn)] = (effect_fn, table)
    return table


def _choose(h: Hand, draw: Callable[[], float]) -> int:
    """`RandomBot.act`'s choice."""
    legal = h.legal_actions()
    return legal[floor(draw() * len(legal))]


def _offer_interjections(game: Game, bots: Sequence[bots_mod.Bot], rng: random.Random) -> int:
    """Every player who may act out of turn is asked, in random order; the first who acts does.
    Returns 1 if someone acted, else 0."""
    h = game.dealt()
    by_seat: dict[int, list[int]] = {}
    for seat, action in h.interjections():
        if seat in by_seat:
            by_seat[seat].append(action)
        else:
            by_seat[seat] = [action]
    seats = list(by_seat)
    shuffle(seats, rng)  # who speaks first is chance, not seat order
    recording = game.recording
    for seat in seats:
        offered = by_seat[seat]
        bot = bots[seat]
        if type(bot) is bots_mod.RandomBot:  # = bot.interject(game, seat, offered)
            i = int(bot.draw() * (len(offered) + 1))
            if i == len(offered):
                continue
            said = offered[i]
        else:
            said_or_none = bot.interject(game, seat, offered)
            if said_or_none is None:
                continue
            said = said_or_none
        try:
            if recording:
                game.apply_action(said, seat)
            else:
                h.apply(said, seat)  # (the game scores the hand when the playout ends)
        except RuleError:
            continue  # overtaken by someone faster (e.g. a catch after a late UNO)
        return 1
    return 0


def new_stats(players: int, bot_names: Sequence[str]) -> dict[str, Any]:
    return {
        "hands": 0,
        "games": 0,
        "players": players,
        "bots": list(bot_names),
        "hand_wins_by_seat": [0] * players,
        "game_wins_by_seat": [0] * players,
        "hand_wins_by_bot": {},
        "game_wins_by_bot": {},
        "turns": 0,
        "decisions": 0,
        "points": 0,
        "draw2_picks": 0,
        "draw2_matches": 0,
        "villain_draw4s": 0,
        "villain_draw4s_fully_protected": 0,
        "blocked_hands": 0,
    }


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
    game.dealer = game.first_dealer = choose_dealer(players, rng, game.rules.deck)[0]
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
    return _with_rates(stats)


def merge_stats(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of several runs (chunks of one simulation, in order) as one run's."""
    merged = dict(parts[0])
    for part in parts[1:]:
        for key, value in part.items():
            had = merged[key]
            if isinstance(value, bool) or key in ("players", "bots", "ruleset"):
                continue
            if isinstance(value, int):
                merged[key] = had + value
            elif isinstance(value, list):
                merged[key] = [a + b for a, b in zip(had, value, strict=True)]
            elif isinstance(value, dict):
                merged[key] = {**had, **{k: had.get(k, 0) + v for k, v in value.items()}}
    return _with_rates(merged)


def _with_rates(stats: dict[str, Any]) -> dict[str, Any]:
    n = max(stats["hands"], 1)
    stats["average_turns_per_hand"] = round(stats["turns"] / n, 2)
    stats["average_decisions_per_hand"] = round(stats["decisions"] / n, 2)
    stats["average_points_per_hand"] = round(stats["points"] / n, 2)
    stats["draw2_match_rate"] = round(stats["draw2_matches"] / max(stats["draw2_picks"], 1), 4)
    stats["villain_draw4_fully_protected_rate"] = round(
        stats["villain_draw4s_fully_protected"] / max(stats["villain_draw4s"], 1), 4
    )
    return stats
