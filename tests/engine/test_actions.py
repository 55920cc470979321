"""The hot path's tables of action fields say exactly what `actions.decode` says."""

from engine import actions as A


def test_the_tables_of_card_colour_and_uno_agree_with_decode():
    for action in range(A.DRAW):
        d = A.decode(action)
        assert (A.CARD_OF[action], A.COLOUR_NAMED[action], A.UNO_SAID[action]) == (
            d.card,
            d.colour,
            d.uno,
        ), action
