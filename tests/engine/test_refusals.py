"""Membership decides every action, and a refusal names the rule actually broken.

Random games of every ruleset and option set (hypothesis draws them): at every decision, every
seat tries actions of every kind (its own cards played, laid and discarded, with and without
UNO; every call out of turn; every fixed action; a few at random). An action is allowed if and
only if it is listed (`legal_actions()` for the seat to act, `interjections()` for anyone), and
every other action is refused with a specific rule key: never the generic fallback ("not-now";
UNO Elite's "That is not a choice the game is waiting for")."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.game import Game
from engine.elite import EliteGame
from engine.elite import actions as EA
from engine.errors import RuleError
from engine.protocol import GameState
from tests.engine.elite.helpers import CARDS, NAMES
from tests.engine.elite.test_properties import OPTIONS as ELITE_OPTIONS
from tests.engine.test_properties import OPTIONS, PROBES, RULESET_OPTIONS
from tests.engine.test_protocol import play_through_the_protocol
from tests.helpers import examples

GENERIC = ("not-now", "That is not a choice the game is waiting for")
SLOW = [HealthCheck.too_slow]


def disney_candidates(game: Game, seat: int, rng: random.Random) -> set[int]:
    """Every kind of action `seat` might try now: its cards in every form, every call."""
    h = game.dealt()
    n = len(game.players)
    tries = set(PROBES)
    tries.update(A.CATCH + s for s in range(n + 1))
    tries.update(A.TARGET + s for s in range(n + 1))
    tries.update(A.COLOUR + c for c in range(4))
    held = h.hands[h.pos_of[seat]] if seat in h.pos_of else []
    for card in set(held) | {h.discard[-1], rng.randrange(C.NCARDS)}:
        for uno in (False, True):
            tries.update(A.play(card, c, uno) for c in range(4))
            tries.add(A.protect(card, uno))
            tries.add(A.discard(card, uno))
        tries.add(A.MISPLAY + card)
    tries.update(rng.randrange(A.PICK) for _ in range(6))
    return tries


def elite_candidates(game: EliteGame, seat: int, rng: random.Random) -> set[int]:
    tries = {EA.DRAW, EA.PASS, EA.DONE, EA.UNO, EA.TOP, EA.BOTTOM}
    tries.update(EA.COLOUR + c for c in range(4))
    tries.update(EA.TARGET + s for s in range(game.n))
    tries.update(EA.CATCH + s for s in range(game.n))
    tries.update(EA.PLAY + game.kind_of[c.code] for c in game.hands[seat])
    tries.update(EA.CARD + game.kind_of[c.code] for c in game.hands[seat] + game.discard)
    tries.update(EA.ELITE + i for i in range(0, len(game.elite_cards), 3))
    tries.update(rng.randrange(EA.ELITE + len(game.elite_cards)) for _ in range(6))
    return tries


def listed(state: GameState, seat: int) -> set[int]:
    mine = {a for s, a in state.interjections() if s == seat}
    return mine | set(state.legal_actions()) if state.current_player() == seat else mine


def assert_refusals_are_specific(state: GameState, candidates, rng: random.Random) -> int:
    """Every candidate not listed for its seat is refused, with a specific rule; how many."""
    refused = 0
    for seat in range(len(state.players)):
        allowed = listed(state, seat)
        for action in candidates(state, seat, rng):
            if action in allowed or (action >= A.MISPLAY and isinstance(state, Game)):
                continue  # (a misplay, the classic penalty, is the one unlisted move)
            try:
                state.clone().apply_action(action, seat)
            except RuleError as refusal:
                assert refusal.rule != GENERIC[0], (seat, state.describe(action), refusal)
                assert not str(refusal).startswith(GENERIC[1]), (seat, action, refusal)
                refused += 1
            else:
                raise AssertionError(f"seat {seat}: {action} applied, but was not listed")
    return refused


def walk(state: GameState, candidates, rng: random.Random, moves: int, every: int) -> int:
    """Random play through the protocol, probing every `every`-th decision; refusals seen."""
    seen = [0, 0]  # decisions, refusals

    def probe(state: GameState) -> None:
        if seen[0] % every == 0:
            seen[1] += assert_refusals_are_specific(state, candidates, rng)
        seen[0] += 1

    play_through_the_protocol(state, rng, moves, probe)
    return seen[1]


FAMILY = st.sampled_from(["disney", "classic", "official-2018", "elvis"])
"""The rulesets of the Disney family (each with its options, `family_game`)."""


def family_game(
    data, ruleset: str, seed: int, players: int, record: bool = True
) -> tuple[Game, random.Random]:
    """A dealt game of `ruleset` with options hypothesis draws, and the generator that dealt it
    (`record`: it keeps its record)."""
    options = data.draw(OPTIONS if ruleset == "disney" else RULESET_OPTIONS[ruleset])
    options.pop("partners", None)
    rng = random.Random(seed)
    game = Game(ruleset, [f"p{i}" for i in range(players)], 0, options, record=record)
    game.start_hand(game.shuffled_deck(rng))
    return game, rng


@settings(max_examples=examples(10), deadline=None, suppress_health_check=SLOW)
@given(
    data=st.data(),
    ruleset=FAMILY,
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
)
def test_every_refusal_of_the_disney_family_names_its_rule(data, ruleset, seed, players):
    # No record: a refusal is decided before anything is recorded, and each probe clones the
    # game once per candidate, which for a recording game copies its whole log (CI, loaded,
    # took over 300 s for one 2-player classic walk of 500 moves).
    game, rng = family_game(data, ruleset, seed, players, record=False)
    assert walk(game, disney_candidates, rng, 500, 5) > 0


@settings(max_examples=examples(8), deadline=None, suppress_health_check=SLOW)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), options=ELITE_OPTIONS)
def test_every_refusal_of_uno_elite_names_its_rule(seed, players, options):
    rng = random.Random(seed)
    game = EliteGame(NAMES[:players], options, cards=CARDS)
    assert walk(game, elite_candidates, rng, 300, 4) > 0
