"""Each kind of decision has one entry, in one table per ruleset (`engine.phases.StepKind`: its
legal actions, its move, its words): the Disney family's `engine.disney.listing.STEP_KINDS`, UNO
Elite's `engine.elite.kinds.STEP_KINDS`. Every decision a player makes has its entry, the
entry's words are its ruleset's for the phase (`disney.steps.WORDS`, `engine.elite.steps.WORDS`),
and what the entry lists is what the game lists at every decision of random games."""

import random

import pytest

from engine.disney.game import Game
from engine.disney.listing import STEP_KINDS
from engine.disney.steps import NOBODY_MOVES, PHASE_NAMES, phase_words
from engine.elite import EliteGame, legal
from engine.elite import kinds as elite_kinds
from engine.elite import steps as S
from engine.phases import StepKind
from tests.engine.elite.helpers import CARDS, NAMES
from tests.engine.test_protocol import play_through_the_protocol


def test_every_decision_a_player_makes_has_one_entry_worded_as_its_phase():
    assert set(STEP_KINDS) == set(PHASE_NAMES) - NOBODY_MOVES
    assert set(elite_kinds.STEP_KINDS) == S.CHOICES
    for table, words in ((STEP_KINDS, phase_words), (elite_kinds.STEP_KINDS, S.phase_words)):
        for name, kind in table.items():
            assert kind.name == name and kind.words("X") == words(name, "X")


def test_a_kind_without_words_is_refused():
    with pytest.raises(ValueError, match="no words"):
        StepKind("ponder", "", lambda state, step: [], lambda state, step, action: None)


def _probed(game, seed: int, moves: int, check) -> int:
    """Random play through the protocol, `check` at every decision; how many decisions."""
    seen = []
    play_through_the_protocol(game, random.Random(seed), moves, lambda g: seen.append(check(g)))
    return len(seen)


@pytest.mark.parametrize("ruleset", ["disney", "classic", "official-2018", "elvis"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_disney_entry_lists_what_the_hand_lists(ruleset, seed):
    def check(game: Game) -> None:
        h = game.dealt()
        assert STEP_KINDS[h.head.kind].legal(h, h.head) == h.legal_actions()

    game = Game(ruleset, ["a", "b", "c", "d"], 0, {})
    game.start_hand(game.shuffled_deck(random.Random(seed)))
    assert _probed(game, seed, 400, check) > 50


@pytest.mark.parametrize("seed", [1, 2])
def test_the_elite_entry_lists_what_the_game_lists(seed):
    def check(game: EliteGame) -> None:
        step = game.steps[0]
        assert elite_kinds.STEP_KINDS[step.kind].legal(game, step) == legal.step_actions(game)

    game = EliteGame(NAMES[:3], {}, cards=CARDS)
    assert _probed(game, seed, 300, check) > 50
