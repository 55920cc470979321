"""What each of the Disney family's decisions does with the action taken on it: one function
per kind of decision (`play`, `play_drawn`, `colour`, `target`, `protect`, `discard`,
`respond`, `flip`), each registered with its legal actions and its words in
`engine.disney.listing.STEP_KINDS`; and what they share (a card laid, a draw, going out). They run
once the action is known to be legal (`Hand.step`), so none checks anything; what a card then
does is `engine.disney.effects`'.
"""

from __future__ import annotations

from typing import Final

from engine.disney import actions as A
from engine.disney import cards as C
from engine.disney import effects
from engine.disney.handstate import HandState
from engine.disney.steps import PLAY_AT, PLAY_DRAWN, about, reneged_in
from engine.disney.variant import RenegeTest
from engine.phases import Step

_COLOUR_OF: Final = C.COLOUR_OF
_RANK_OF: Final = C.RANK_OF
_PLAYED_CARD: Final = A.CARD_OF
_LAID_CARD: Final = A.CARD_OF
_NAMED_COLOUR: Final = A.COLOUR_NAMED
_UNO_SAID: Final = A.UNO_SAID
_DRAW4S: Final = (C.VILLAIN_DRAW4, C.WILD_DRAW4)
_DRAW: Final = A.DRAW
_PROTECT: Final = A.PROTECT
_OF_COLOUR: Final = C.CARDS_OF_COLOUR
"""The cards of each colour (Tinker Bell's: who must protect or may discard)."""
_MATCHING: Final = C.MATCHING
"""Cards that may be laid on a top card, by colour in play * 80 + the top card's rank."""


# ---------------------------------------------------------------- one function per decision
def play(h: HandState, head: Step, action: int) -> None:
    """PLAY: a card played (most moves: here, without a further call), a draw, or (classic) a
    wrong card laid. A drawn card played (`play_drawn`) or a stack (`respond`) is played here
    too."""
    if action >= _PROTECT:
        if action == _DRAW:
            draw(h, head.seat)
        else:
            misplay(h, head.seat)
        return
    pos = head.seat
    card = _PLAYED_CARD[action]
    hand = h.hands[pos]
    if head.kind != PLAY_DRAWN:
        h.stats.turns += 1
        if h.catchable:
            h.catchable.clear()  # the next player has begun their turn
    reneged = card >= 64 and card in _DRAW4S and reneged_by(h, hand, card)
    i = 0  # = hand.remove(card), as a loop: a compiled engine compares ints natively
    while hand[i] != card:
        i += 1
    h.discard.append(hand.pop(i))
    h.blocked_turns = 0
    if card < 64:
        h.colour = _COLOUR_OF[card]
    elif h.variant.names_colour[card]:
        h.colour = _NAMED_COLOUR[action]
    if not hand:
        go_out(h, pos, h.variant.effect_of[card])
    else:
        if len(hand) == 1 and not _UNO_SAID[action]:
            h.catchable.append(pos)
            if h.variant.uno_to_go_out:
                h.uncalled.append(pos)
        if h.variant.has_effect[card]:
            effects.played(h, pos, card, reneged)
        else:  # a number card or a plain Wild: the next player's turn, without a call
            h.head = PLAY_AT[(pos + h.direction) % h.num_players]


def play_drawn(h: HandState, head: Step, action: int) -> None:
    """PLAY_DRAWN: the card just drawn is played, or kept (PASS)."""
    if action == A.PASS:
        h.pass_turn(head.seat, 1)
    else:
        play(h, head, action)


def colour(h: HandState, head: Step, action: int) -> None:
    """COLOUR: the colour of the Wild turned up; its namer then plays."""
    h.colour = A.decode(action).colour
    h.head = PLAY_AT[head.seat]


def target(h: HandState, head: Step, action: int) -> None:
    """TARGET: who draws 2 (a Draw 2 matched by Tinker Bell), or swaps hands."""
    pos = head.seat
    target = h.pos_of[A.decode(action).seat]
    if h.variant.effect_of[h.head.item] == "draw2_tinker_bell":
        h.owe(target, 2)
        h.pass_turn(target, 1)  # "Play resumes as if it was that player's turn."
        return
    h.swap_hands(pos, target)  # "swap_hands" (a 7) or "wild_swap_hands" (a Wild Customizable)
    h.pass_turn(pos, 1)  # "swap hands ... before ending their turn"


def protect(h: HandState, head: Step, action: int) -> None:
    """PROTECT: a card of Tinker Bell's colour laid as Pixie Dust Protection, or (with
    `villain_draw4_may_take`) the four cards taken instead."""
    if action == A.TAKE:
        effects.draw_instead(h, h.steps[0])
        return
    del h.steps[0]  # (its PROTECTION step: done; the queue runs on after the move)
    lay(h, head.seat, _LAID_CARD[action], _UNO_SAID[action])


def discard(h: HandState, head: Step, action: int) -> None:
    """DISCARD: a card of Tinker Bell's colour discarded (Wild Discard All), or DONE."""
    pos = head.seat
    if action == A.DONE:
        h.pass_turn(pos, 1)
    elif not lay(h, pos, _LAID_CARD[action], _UNO_SAID[action]) and _OF_COLOUR[
        h.tinker_colour
    ].isdisjoint(h.hands[pos]):
        h.pass_turn(pos, 1)  # (no card of her colour left to discard)


def respond(h: HandState, head: Step, action: int) -> None:
    """RESPOND: a draw card's penalty taken, the Wild Draw 4 challenged, or a card stacked."""
    pos = head.seat
    if action == A.TAKE:
        # "the next player must Draw 4 cards then end his turn without discarding"
        h.owe(pos, h.take_penalty())
        h.pass_turn(pos, 1)
    elif action == A.CHALLENGE:
        challenge(h, head, pos)
    else:
        play(h, head, action)


def challenge(h: HandState, respond: Step, pos: int) -> None:
    """A Wild Draw 4 challenged by the player who must draw (RESPOND)."""
    h.head = PLAY_AT[pos]  # the challenger plays their turn, unless it is lost
    n = h.take_penalty()
    if reneged_in(respond):
        # "the challenged player must draw the four cards instead before play continues"
        h.owe(respond.subject, n)
    else:
        # "the challenger must instead draw 6 cards AND miss their turn" (2018); classic:
        # "draw 4 ... Additionally ... 2 extra cards ... He may then discard as usual."
        h.owe(pos, n + 2)
        if h.variant.rules.failed_challenge_loses_turn:
            h.pass_turn(pos, 1)


def flip(h: HandState, head: Step, action: int) -> None:
    """Vegas: "the next player in turn order flips over the top card from the Draw Pile. The
    card they turn over determines what happens next." The flipper keeps the card."""
    h.stats.turns += 1
    if h.catchable:
        h.catchable.clear()  # taking a card from the Draw Pile begins the turn
    pos, actor = head.seat, head.subject
    h.head = PLAY_AT[pos]
    if not h.draw:
        return  # every other card is in a hand: nothing to turn over (RULES-MAP: vegas)
    card = h.draw.pop()
    h._give(pos, card)
    rank, effect, n = _RANK_OF[card], h.variant.effect_of[card], h.num_players
    if card < 64 and rank < 10:
        h.owe(pos, rank)  # "draws a number of cards equal to the number on the card"
    elif effect == "skip":
        if n == 2:  # "The player that plays the Vegas card has to draw the ten cards"
            h.owe(actor, 10)
            h.pass_turn(pos, 1)
        else:  # "They also skip their turn. The next player ... adds the ten drawn cards"
            h.owe((pos + h.direction) % n, 10)
            h.pass_turn(pos, 2)
    elif effect == "reverse":
        # "the player who played the Vegas card has to draw the ten cards ... You will also
        # reverse turn order."
        h.owe(actor, 10)
        h.direction = -h.direction
        if n == 2:
            h.head = PLAY_AT[actor]
    else:  # "Draw 2, Wild, Wild Draw 4: ... has to draw ten cards in addition to the card"
        h.owe(pos, 10)


# ---------------------------------------------------------------- what they share
def draw(h: HandState, pos: int) -> None:
    """A card from the DRAW pile (PLAY): if it matches, its player may play it now (the
    PLAY_DRAWN decision); else the turn passes (with Keep-Drawing, they draw again)."""
    h.stats.turns += 1
    if h.catchable:
        h.catchable.clear()
    if not h.draw:
        # Nothing to draw anywhere (every card is in a hand): the turn passes. When that
        # happens to everyone in a row, the hand is blocked (RULES-MAP: blocked-hand).
        h.blocked_turns += 1
        if h.blocked_turns >= h.num_players:
            end_blocked(h)
        else:
            h.pass_turn(pos, 1)
        return
    card = h.draw.pop()
    h.hands[pos].append(card)
    if h.uncalled and pos in h.uncalled:
        h.uncalled.remove(pos)
    if card in _MATCHING[h.colour * 80 + _RANK_OF[h.discard[-1]]]:
        h.head = about(PLAY_DRAWN, pos, card)
    elif h.variant.keep_drawing and not h.playable(pos):
        return  # Keep-Drawing: "draw until they find a playable card"
    else:
        h.pass_turn(pos, 1)


def misplay(h: HandState, pos: int) -> None:
    """Classic: a wrong card laid goes back to the hand (it never left it here) and its player
    draws the penalty; the turn goes on."""
    if h.catchable:
        h.catchable.clear()  # laying a card began the turn
    h.owe(pos, h.variant.rules.misplay_penalty)


def reneged_by(h: HandState, hand: list[int], card: int) -> bool:
    """Would a challenge of this (Villain or Wild) Draw 4 succeed? ("Reneging")"""
    if not h.variant.renege_test and h.colour < C.BLACK:
        # another card of the colour in play (the Draw 4 itself is black): the commonest test
        return not _OF_COLOUR[h.colour].isdisjoint(hand)
    others = list(hand)
    others.remove(card)
    if h.variant.renege_test:
        matching = _MATCHING[h.colour * 80 + _RANK_OF[h.discard[-1]]]
        wilds = h.variant.renege_test == RenegeTest.PLAYABLE  # MATCHING does not count wilds
        return any(c in matching and (wilds or c < 64) for c in others)
    return any(_COLOUR_OF[c] == h.colour for c in others)


def go_out(h: HandState, pos: int, effect: str) -> None:
    """ "Once a player plays their last card, the hand is over." A last Draw 2 or Villain
    Draw 4 still makes the next player draw ("These cards are counted")."""
    n = effects.GOING_OUT_DRAWS.get(effect, 0)
    if n:
        victim = (pos + h.direction) % h.num_players
        h.owe(victim, n + h.take_penalty())  # a stack counts too
    h.finish(pos)


def end_blocked(h: HandState) -> None:
    """Nobody can draw or play: the player holding the fewest points wins (RULES-MAP:
    blocked-hand), the first of them in order of play from the player to move."""
    n = h.num_players
    order = [(h.to_move + h.direction * i) % n for i in range(n)]
    h.finish(min(order, key=h.points_left))


def lay(h: HandState, pos: int, card: int, uno: bool) -> bool:
    """Move a card from the hand onto the discard pile; True if that was the last card."""
    hand = h.hands[pos]
    hand.remove(card)
    h.discard.append(card)  # a command card laid this way is void; its colour counts
    if not hand:
        h.finish(pos)
        return True
    if len(hand) == 1 and not uno:
        h.catchable.append(pos)
    return False
