"""Whether the player to move may take an action now: one check per kind of action, each
raising `RuleError` (with the rule's key and, where the book has one, its sentence) before the
hand changes at all. `CHECKS` maps the kind to its check; `Hand.apply` runs it, then the change.

Legality is membership: an action is allowed if and only if `Hand.legal_actions()` (the player to
move) or `Hand.interjections()` (calls out of turn) lists it. These checks only classify a refusal
afterwards, naming the rule actually broken: `refusal` for the player to move, `out_of_turn` for
anyone else (UNO, catch, a Villain Draw 4 challenge, Jump-In).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney.actions import Decoded, Kind
from engine.disney.handstate import HandState
from engine.disney.steps import (
    COLOUR,
    DISCARD,
    FLIP,
    NOBODY_MOVES,
    PLAY,
    PLAY_DRAWN,
    PROTECT,
    RESPOND,
    SMACKDOWN,
    TARGET,
)
from engine.disney.variant import STACKABLE, Stacking
from engine.errors import RuleError

_COLOUR_OF: Final = C.COLOUR_OF


def phase_hint(h: HandState, tried: str) -> str:
    """An action of a kind the phase does not take: what the hand waits for instead."""
    return f"You can't {tried} now: {h.names[h.to_move]} must {h.waiting_for()}."


def quoting(h: HandState, rule: str, text: str) -> RuleError:
    """A refusal in a player's words, quoting the sentence of this ruleset's own book."""
    quote = h.variant.rules.quotes.get(rule)
    return RuleError(rule, f'{text}: "{quote}"' if quote else f"{text}.")


def stack_refusal(h: HandState, card: int) -> RuleError:
    effect_of, stacking = h.variant.effect_of, h.variant.stacking
    top = h.discard[-1]
    choice = " or challenge" if effect_of[top] == "wild_draw4" else ""
    if not stacking:
        why = "stacking is not played at this table"
    elif effect_of[card] not in STACKABLE:
        why = "only a draw card can be stacked"
    elif stacking == Stacking.SAME and effect_of[card] != effect_of[top]:
        why = 'the same symbol only: "a +4 cannot be stacked on a +2, or vice versa"'
    else:
        why = f"it must match {C.COLOURS[h.colour]}, the colour in play"
    return RuleError(
        "stacking",
        f"You must take the {h.penalty()} cards{choice}: {C.name(card)} cannot be "
        f"stacked on {C.name(top)} ({why}).",
    )


def play(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != PLAY and h.phase != PLAY_DRAWN and h.phase != RESPOND:
        raise RuleError("phase", phase_hint(h, "play a card"))
    card = d.card
    hand = h.hands[pos]
    if card >= C.NCARDS or card not in hand:
        raise not_in_hand(h, pos, card, "to play")
    if h.uncalled and len(hand) == 1 and pos in h.uncalled:
        raise uno_first()
    if h.phase == RESPOND:
        if not h.stacks(card):
            raise stack_refusal(h, card)
    elif h.phase == PLAY_DRAWN and card != h.drawn_card:
        raise quoting(
            h,
            "play-drawn",
            f"After drawing, only the card drawn ({C.name(h.drawn_card)}) may be played",
        )
    top = h.discard[-1]
    if card not in C.matching(h.colour, top):
        raise quoting(
            h,  # (in RESPOND `stacks` has checked the match already)
            "match",
            f"{C.name(card)} does not match {C.name(top)} ({C.COLOURS[h.colour]} in play)",
        )
    if d.colour and not h.variant.names_colour[card]:
        raise RuleError("colour", f"Only a Wild lets you name a colour, not {C.name(card)}.")
    if d.uno and len(hand) != 2:
        raise quoting(h, "uno-call", "UNO is called as you play your next-to-last card")


def protect(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != PROTECT:
        raise RuleError("phase", phase_hint(h, "lay a protection card"))
    _lay(h, pos, d, "protect")


def discard(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != DISCARD:
        raise RuleError("phase", phase_hint(h, "discard"))
    _lay(h, pos, d, "discard")


def draw(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != PLAY:
        raise RuleError("phase", phase_hint(h, "draw"))
    if not h.variant.draw_when_playable and h.playable(pos) and not h.silenced(pos):
        raise quoting(h, "draw-when-stuck", "You have a card that matches, so you may not draw")


def pass_(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != PLAY_DRAWN:
        raise RuleError("phase", "You can keep a card only right after drawing it.")
    if h.variant.must_play_drawn:
        raise quoting(
            h,
            "must-play-drawn",
            f"You drew {C.name(h.drawn_card)} and can play it, so you must play it",
        )


def done(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != DISCARD:
        raise RuleError("phase", phase_hint(h, "stop discarding"))


def take(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != PROTECT and h.phase != RESPOND:
        raise RuleError("phase", phase_hint(h, "take the cards"))
    if h.phase == PROTECT and not h.variant.villain_may_take:
        colour = C.COLOURS[h.tinker_colour]
        raise RuleError(
            "protect-must",
            f"You hold a {colour} card, Tinker Bell's colour: lay it down as your Pixie Dust "
            'Protection ("each player will see if they have one card of that color to use '
            'as their Pixie Dust Protection Card! If so, lay it down").',
        )


def challenge(h: HandState, pos: int, d: Decoded) -> None:
    """In RESPOND only: a challenge in any other phase is out of turn (`_interject`)."""
    if h.variant.effect_of[h.discard[-1]] != "wild_draw4":
        raise RuleError(
            "challenge-window",
            "Only a Wild Draw 4 can be challenged, by the player who must draw, before they draw.",
        )


def colour(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != COLOUR:
        raise RuleError("colour", "A colour is named with the Wild that needs it, not on its own.")


def target(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != TARGET:
        raise RuleError("phase", phase_hint(h, "choose a player"))
    target = h.pos_of.get(d.seat)
    if target is None or target == pos:
        if h.variant.effect_of[h.trigger] != "draw2_tinker_bell":  # a swap (a 7, a Wild)
            raise RuleError(
                "swap-target",
                'Choose another player at the table to swap hands with ("swap hands '
                'with another player of their choice").',
            )
        raise RuleError(
            "draw2-target",
            'Choose another player at the table to draw 2 ("the player gets to chose '
            'whichever player they want to draw 2 cards").',
        )


def misplay(h: HandState, pos: int, d: Decoded) -> None:
    """Classic: "You play the wrong card ... You must reclaim your misplayed card and draw 2
    more cards from the Stock"."""
    card = d.card
    if not h.variant.rules.misplay_penalty:
        raise RuleError(
            "misplay",
            f"The {h.variant.rules.title} rules have no penalty for a wrong card: it is simply "
            "taken back.",
        )
    if h.phase != PLAY:
        raise RuleError("phase", phase_hint(h, "lay a card"))
    if card >= C.NCARDS or card not in h.hands[pos]:
        raise not_in_hand(h, pos, card, "to lay")
    top = h.discard[-1]
    if card in C.matching(h.colour, top):
        raise RuleError("misplay", f"{C.name(card)} matches {C.name(top)}: it is not a wrong card.")


def flip(h: HandState, pos: int, d: Decoded) -> None:
    if h.phase != FLIP:
        raise RuleError("phase", phase_hint(h, "turn over a card"))


def jump_in(h: HandState, pos: int, d: Decoded) -> None:
    """Jump-In: "If a player has exactly the same card (both number and color) as the top
    card of the discard pile, they may play it immediately, even if it is not their turn." """
    card = d.card
    top = h.discard[-1]
    if h.phase != PLAY and h.phase != RESPOND:
        raise RuleError(
            "jump-in",
            f"You can jump in only between turns, not while {h.names[h.to_move]} must "
            f"{h.phase.replace('_', ' ')}.",
        )
    if card != top or top >= 64:
        raise RuleError(
            "jump-in",
            f"Only the identical card may jump in: {C.name(top)} is on top, not "
            f'{A.card_name(card)} ("exactly the same card (both number and color)").',
        )
    if card not in h.hands[pos]:
        raise not_in_hand(h, pos, card, "to play")
    if h.uncalled and len(h.hands[pos]) == 1 and pos in h.uncalled:
        raise uno_first()
    if h.phase == RESPOND and not h.stacks(card):
        raise RuleError("jump-in", "Only a card that stacks may jump in on a draw card.")
    if d.colour:
        raise RuleError("colour", f"Only a Wild lets you name a colour, not {C.name(card)}.")
    if d.uno and len(h.hands[pos]) != 2:
        raise RuleError("uno-call", "UNO is called as you play your next-to-last card.")


def _lay(h: HandState, pos: int, d: Decoded, what: str) -> None:
    """Protection and discards: a card of Tinker Bell's colour from the hand (never a wild)."""
    card = d.card
    hand = h.hands[pos]
    colour = h.tinker_colour
    if card >= C.NCARDS or card not in hand:
        raise not_in_hand(h, pos, card, "to lay")
    if card >= 64 and what == "protect":
        raise RuleError("protect-no-wild", '"No Wild Card can be played as Pixie Dust Protection."')
    if _COLOUR_OF[card] != colour:
        raise RuleError(
            f"{what}-colour",
            f"Tinker Bell chose {C.COLOURS[colour]}: only a {C.COLOURS[colour]} card may be "
            f"laid ({'protection' if what == 'protect' else 'discard'}), not {C.name(card)}.",
        )
    if d.uno and len(hand) != 2:
        raise RuleError("uno-call", "UNO is called as you lay your next-to-last card.")


def uno(h: HandState, pos: int, d: Decoded) -> None:
    raise RuleError(
        "uno-late",
        "A late UNO call is only for a player holding one card who has not called it yet, "
        "before the next player begins their turn.",
    )


def catch(h: HandState, pos: int, d: Decoded) -> None:
    target = h.pos_of.get(d.seat)
    if target is None or target not in h.catchable:
        raise RuleError(
            "catch-window",
            "You can catch only a player holding one card who did not say UNO, after their "
            "next-to-last card touches the DISCARD pile and before the next player begins "
            "their turn.",
        )
    if target == pos:
        raise RuleError("catch-self", "To catch yourself, call UNO.")


def villain_challenge(h: HandState, pos: int, d: Decoded) -> None:
    """A challenge out of turn: a Villain Draw 4's, by anyone but its player, until Tinker Bell
    picks (a Wild Draw 4 is challenged in turn, by the player who must draw: `challenge`)."""
    if h.phase == RESPOND:
        raise RuleError(
            "challenge-who",
            f"Only {h.names[h.to_move]}, who must draw, may challenge the Wild Draw 4 "
            '("the next player in turn ... has the option of Challenging").',
        )
    if not h.challengeable():
        if "villain_draw4" not in h.variant.effect_of:
            raise RuleError(
                "challenge-window",
                "Only a Wild Draw 4 can be challenged, by the player who must draw, before "
                "they draw.",
            )
        raise RuleError(
            "challenge-window",
            "A Villain Draw 4 can be challenged only right after it is played, before Tinker "
            "Bell chooses.",
        )
    window = h.challenge_window()
    if window is not None and pos == window.seat:
        raise RuleError("challenge-self", "You can't challenge your own Villain Draw 4.")


SMACKDOWN_RULE: Final = (
    "When a \u201c6\u201d is played, players must place their hand on top of the card, whoever is "
    "the last player to place their hand on the card will have to draw 2 cards."
)


def slap(h: HandState, pos: int, d: Decoded) -> None:
    """6-Smackdown: a hand on the 6, by each player once, while the race is on."""
    if h.phase != SMACKDOWN:
        if h.variant.effect_of[6] != "smackdown":
            raise RuleError("smackdown", "6-Smackdown is not played at this table.")
        raise RuleError("smackdown", f'No 6 is waiting for your hand: "{SMACKDOWN_RULE}"')
    if d.seat != h.seats[pos]:
        raise RuleError("smackdown-own", "Each player places their own hand on the 6.")
    raise RuleError("smackdown-once", "Your hand is already on the 6.")


def out_of_turn(h: HandState, seat: int, action: int, decoded: Decoded) -> RuleError:
    """Why `action` (`decoded`: taken apart) by `seat`, a call out of turn or a move by someone
    not to move, is refused: asked only after it was not found among `h.interjections()`."""
    pos = h.pos_of.get(seat)
    if pos is None:
        return RuleError("who", f"Seat {seat} is not playing this hand.")
    if decoded.kind == Kind.UNKNOWN:
        return RuleError("unknown", f"Unknown action {action}.")
    try:
        check = OUT_OF_TURN_CHECKS.get(decoded.kind)
        if check is not None:
            check(h, pos, decoded)
        elif h.phase in NOBODY_MOVES:
            raise RuleError("chance", f"Waiting for {h.waiting_for()}; nobody may play until then.")
        elif h.variant.jump_in and decoded.kind == Kind.PLAY:
            jump_in(h, pos, decoded)
        else:
            mover = h.names[h.to_move]
            raise RuleError(
                "turn",
                f"It is {mover}'s move ({h.phase}), not {h.names[pos]}'s.",
            )
    except RuleError as broken:
        return broken
    return RuleError("not-now", f"{A.describe(action)} is not allowed now.")


def refusal(h: HandState, pos: int, action: int, decoded: Decoded) -> RuleError:
    """Why `action` (`decoded`: taken apart), which is not among `h.legal_actions()`, is refused:
    the check of its kind names the rule it breaks (legality itself is membership in the legal
    actions)."""
    if decoded.kind == Kind.UNKNOWN:
        return RuleError("unknown", f"Unknown action {action}.")
    try:
        CHECKS[decoded.kind](h, pos, decoded)
    except RuleError as broken:
        return broken
    return RuleError("not-now", f"{A.describe(action)} is not allowed now.")


def not_in_hand(h: HandState, pos: int, card: int, what: str) -> RuleError:
    """A card the player does not hold: the one refusal every kind of card move shares."""
    return quoting(h, "not-in-hand", f"{h.names[pos]} has no {A.card_name(card)} {what}")


def uno_first() -> RuleError:
    return RuleError(
        "uno-first",
        'Call UNO first: "A player cannot win if he forgets to declare Uno because he is not '
        'allowed to discard his last card until he does so."',
    )


Check = Callable[[HandState, int, Decoded], None]
CHECKS: Final[dict[Kind, Check]] = {
    Kind.PLAY: play,
    Kind.PROTECT: protect,
    Kind.DISCARD: discard,
    Kind.DRAW: draw,
    Kind.PASS: pass_,
    Kind.DONE: done,
    Kind.TAKE: take,
    Kind.CHALLENGE: challenge,
    Kind.COLOUR: colour,
    Kind.TARGET: target,
    Kind.MISPLAY: misplay,
    Kind.FLIP: flip,
}
"""How each kind of action by the player to move is checked."""
OUT_OF_TURN_CHECKS: Final[dict[Kind, Check]] = {
    Kind.UNO: uno,
    Kind.CATCH: catch,
    Kind.CHALLENGE: villain_challenge,
    Kind.SLAP: slap,
}
"""How each kind of call out of turn is checked (a play by someone not to move: `jump_in`)."""
