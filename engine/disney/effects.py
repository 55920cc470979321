"""What each card does once it is on the discard pile: one function per effect, and the tables
that give every card of a ruleset its effect.

A card's effect is chosen by name in the ruleset (`Ruleset.effects`: by card id, else by rank;
house rules such as Seven-O overlay them), each name with one meaning in the ruleset's registry
(`Ruleset.effect_names`). `played` applies the named effect when the card is
played; `after_tinker_bell`, what Tinker Bell's colour then does. The hand calls these after
its checks (the action was found among the legal actions), so an effect checks nothing itself.
"""

from __future__ import annotations

from typing import Final

from engine.disney import cards as C
from engine.disney.handstate import HandState
from engine.disney.steps import (
    CHALLENGE_WINDOW,
    DISCARD,
    FLIP,
    OWED,
    PROTECT_AT,
    PROTECTION,
    PROTECTION_AT,
    RESPOND,
    SHUFFLE,
    SMACKDOWN,
    TARGET,
    TINKER,
    VILLAIN_DONE,
    Detail,
    about,
    on_the_six,
    renege_detail,
)
from engine.phases import Step


def skip(h: HandState, pos: int, card: int) -> None:
    # "the next person in line to play after this card is skipped"; with two players, "you may
    # immediately play another card"
    h.pass_turn(pos, 2)


def reverse(h: HandState, pos: int, card: int) -> None:
    if h.num_players == 2:
        h.pass_turn(pos, 2)  # "Playing a Reverse card works like playing a Skip card."
    else:
        h.direction = -h.direction
        h.pass_turn(pos, 1)


def tinker_bell(h: HandState, pos: int, card: int) -> None:
    """Draw 2, Wild Discard All and Villain Draw 4: the player hits the Tinker Bell Button."""
    h.head = about(TINKER, pos, card)


def draw2(h: HandState, pos: int, card: int) -> None:
    # "The next player is forced to draw 2 cards from the stock pile then end his turn"
    h.add_penalty(2, (pos + h.direction) % h.num_players)
    await_response(h, pos, False, False)


def await_response(h: HandState, pos: int, draw4: bool, reneged: bool) -> None:
    """The next player must take the penalty's cards and lose their turn, unless they may
    challenge (a Wild Draw 4: `reneged`, would the challenge succeed?) or stack; with no
    choice the engine takes them at once."""
    victim = (pos + h.direction) % h.num_players
    if draw4 or (h.variant.stacking and any(h.stacks(c) for c in h.hands[victim])):
        h.head = Step(RESPOND, victim, subject=pos, detail=renege_detail(reneged))
    else:
        h.owe(victim, h.take_penalty())
        h.pass_turn(victim, 1)


def wild_draw4(h: HandState, pos: int, card: int, reneged: bool) -> None:
    # "the next player must Draw 4 cards then end his turn", unless they challenge
    h.add_penalty(4, (pos + h.direction) % h.num_players)
    await_response(h, pos, True, reneged)


def swap_hands(h: HandState, pos: int, card: int) -> None:
    """Seven-O's 7 ("swap_hands") and a Wild Customizable "swap hands" ("wild_swap_hands": a
    wild, a name of its own, since it does not do what a 7 does turned up first): "swap hands
    with another player of their choice". With two players there is no choice: the engine
    swaps at once."""
    if h.num_players == 2:
        h.swap_hands(pos, 1 - pos)
        h.pass_turn(pos, 1)
    else:
        h.head = about(TARGET, pos, card)


def pass_hands(h: HandState, pos: int, card: int) -> None:
    """Seven-O's 0: "all players pass their hands to the next player in the current direction"."""
    n, d, old = h.num_players, h.direction, h.hands
    h.hands = [old[(p - d) % n] for p in range(n)]
    h.catchable.clear()
    h.uncalled.clear()
    h.pass_turn(pos, 1)


def vegas(h: HandState, pos: int, card: int) -> None:
    """Vegas: the next player turns over the top card of the Draw Pile (a `flip`)."""
    h.head = Step(FLIP, (pos + h.direction) % h.num_players, subject=pos)


def shuffle_hands(h: HandState, pos: int, card: int) -> None:
    """Wild Shuffle Hands: "collect all cards held ... shuffles and re-deals them" (chance)."""
    h.head = Step(SHUFFLE, pos, subject=pos)


def smackdown(h: HandState, pos: int, card: int) -> None:
    """6-Smackdown: "When a “6” is played, players must place their hand on top of the card".
    The turn passes on as after any number, but the race comes first: it is the head of the
    queue, the next player's turn waiting behind it, and every player (its player too) lays a
    hand on the 6 out of turn (`listing.interjections`; or chance, which is quicker:
    `listing.chance_outcomes`), each in turn recorded (`slapped`)."""
    h.pass_turn(pos, 1)
    h.hold_head(Step(SMACKDOWN, pos, subject=pos, item=card))


def slapped(h: HandState, pos: int) -> None:
    """`pos` lays a hand on the 6: the step at the head keeps the order (its `extra`, replaced:
    a step never changes). "whoever is the last player to place their hand on the card will
    have to draw 2 cards", and the turn the race held up goes on."""
    race = h.head
    order = (*on_the_six(race), pos)
    if len(order) < h.num_players:
        h.head = Step(
            SMACKDOWN,
            race.seat,
            subject=race.subject,
            item=race.item,
            detail=Detail(on_the_six=order),
        )
        return
    h.owe(pos, 2)
    h.release_head()


def played(h: HandState, pos: int, card: int, reneged: bool) -> None:
    """What `card`, just played by `pos`, does: its effect, by the name the ruleset gives it
    (`reneged`: a Draw 4's, would a challenge of it succeed?).
    (Compared here rather than looked up in a table of functions: a compiled engine calls these
    natively, where a call through a table costs it more than a dozen string comparisons.)"""
    effect = h.variant.effect_of[card]
    if effect == "number" or effect == "wild":  # (`NO_EFFECT`: Hand.step does this, uncalled)
        h.pass_turn(pos, 1)  # the next player's turn
    elif effect == "skip":
        skip(h, pos, card)
    elif effect == "reverse":
        reverse(h, pos, card)
    elif effect == "draw2_tinker_bell" or effect == "wild_discard_all":
        tinker_bell(h, pos, card)
    elif effect == "villain_draw4":
        villain_draw4(h, pos, card, reneged)
    elif effect == "draw2":
        draw2(h, pos, card)
    elif effect == "wild_draw4":
        wild_draw4(h, pos, card, reneged)
    elif effect == "swap_hands":
        swap_hands(h, pos, card)
    elif effect == "pass_hands":
        pass_hands(h, pos, card)
    elif effect == "shuffle_hands":
        shuffle_hands(h, pos, card)
    elif effect == "smackdown":
        smackdown(h, pos, card)
    elif effect == "vegas":
        vegas(h, pos, card)
    else:  # "wild_swap_hands" (`effect_table` lets no other name in): a Wild Customizable
        swap_hands(h, pos, card)  # swapping hands, as Seven-O's 7 does once played


# ---------------------------------------------------------------- the Villain Draw 4, whole
def villain_draw4(h: HandState, pos: int, card: int, reneged: bool) -> None:
    """Played: its player hits the Tinker Bell Button; until she picks, anyone else may
    challenge it ("Reneging": `Hand._interject`, `moves.reneged_by`)."""
    tinker_bell(h, pos, card)
    h.steps.append(Step(CHALLENGE_WINDOW, pos, detail=renege_detail(reneged)))


def villain_picked(h: HandState, colour: int) -> None:
    """Tinker Bell picked `colour`: every other player, in order of play, protects with a card
    of it or draws four; then the turn passes on (one more with `villain_draw4_skips_next`).
    Her pick stays at the head of the queue until the first of them replaces it."""
    h.colour = colour
    n, actor, steps = h.num_players, h.head.subject, h.steps
    for i in range(1, n):
        steps.append(PROTECTION_AT[(actor + h.direction * i) % n])
    steps.append(Step(VILLAIN_DONE, actor, 2 if h.variant.villain_skips_next else 1))
    h.stats.villain_hits = 0


def villain_step(h: HandState, step: Step) -> bool:
    """Run the Villain Draw 4's next step (the first of the work queued); False while a player
    must protect. "each player will see if they have one card of that color to use as their Pixie
    Dust Protection Card! If so, lay it down" (`listing.lays`); "If a player doesn't have a
    card in the color selected", they draw four."""
    if step.kind == PROTECTION:
        if not C.CARDS_OF_COLOUR[h.tinker_colour].isdisjoint(h.hands[step.seat]):
            # the decision, at the head of the queue; the step stays first behind it until
            # the card is laid (`moves.protect`) or the cards taken (`draw_instead`)
            h.head = PROTECT_AT[step.seat]
            return False
        draw_instead(h, step)
        return True
    del h.steps[0]  # VILLAIN_DONE: the next player's turn
    h.stats.villain_draw4s += 1
    if not h.stats.villain_hits:
        h.stats.villain_draw4s_fully_protected += 1
    h.pass_turn(step.seat, step.count)
    return True


def draw_instead(h: HandState, step: Step) -> None:
    """A player draws the four cards instead of protecting (none of the colour, or by choice
    with `villain_draw4_may_take`): the PROTECTION step (the first behind the head) becomes
    cards owed."""
    h.steps[0] = Step(OWED, step.seat, step.count)
    h.stats.villain_hits += 1


# ---------------------------------------------------------------- after Tinker Bell's pick
def draw2_picked(h: HandState, colour: int) -> None:
    pick = h.head
    actor = pick.subject
    h.stats.draw2_picks += 1
    if colour == C.COLOUR_OF[pick.item]:
        # "the player gets to chose whichever player they want to draw 2 cards"
        h.stats.draw2_matches += 1
        h.head = about(TARGET, actor, pick.item)
    else:
        # "the next player must draw 2 cards and forfeit their turn"
        victim = (actor + h.direction) % h.num_players
        h.owe(victim, 2)
        h.pass_turn(victim, 1)


def discard_all_picked(h: HandState, colour: int) -> None:
    """Wild Discard All: its player may discard every card of Tinker Bell's colour."""
    pick = h.head
    actor = pick.subject
    h.colour = colour
    if not C.CARDS_OF_COLOUR[colour].isdisjoint(h.hands[actor]):
        h.head = about(DISCARD, actor, pick.item)
    else:
        h.pass_turn(actor, 1)


def after_tinker_bell(h: HandState, colour: int) -> None:
    """What Tinker Bell's colour does after the card that called her (the item of her pick,
    the decision at the head of the queue)."""
    effect = h.variant.effect_of[h.head.item]
    if effect == "villain_draw4":
        villain_picked(h, colour)
    elif effect == "wild_discard_all":
        discard_all_picked(h, colour)
    else:  # "draw2_tinker_bell"
        draw2_picked(h, colour)


GOING_OUT_DRAWS: Final = {"draw2_tinker_bell": 2, "villain_draw4": 4, "draw2": 2, "wild_draw4": 4}
"""How many cards the next player draws when a hand is won on this effect ("Going Out")."""
