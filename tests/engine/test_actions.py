"""The hot path's tables of action fields say exactly what `actions.decode` says."""

from engine.disney import actions as A


def test_the_tables_of_card_colour_and_uno_agree_with_decode():
    for action in range(A.DRAW):
        d = A.decode(action)
        assert (A.CARD_OF[action], A.COLOUR_NAMED[action], A.UNO_SAID[action]) == (
            d.card,
            d.colour,
            d.uno,
        ), action


def test_an_action_naming_no_card_is_refused_and_changes_nothing():
    import random

    from engine.disney.game import Game
    from engine.disney.hand import RuleError

    g = Game("disney", ["Ann", "Bea", "Cy"])
    g.start_hand(g.shuffled_deck(random.Random(2)))
    before = g.record()
    for action in (560, 999, 1140, 1999):  # a play or a protection with a card the deck lacks
        try:
            g.apply_action(action)
        except RuleError:
            pass
        else:
            raise AssertionError(f"action {action} was taken")
    assert g.record() == before
