"""The press detector, pure: edges and times in, events out. No sleeping, no threads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tray.events import ButtonHeld, ButtonPressed, Fault, LinkHeld
from tray.press import LINK_S, PressDetector, link_seconds

DEBOUNCE, HOLD, STUCK = 0.02, 1.0, 5.0


def detector(**kw) -> PressDetector:
    return PressDetector(DEBOUNCE, HOLD, STUCK, wall_offset=1000.0, **kw)


def run(d: PressDetector, edges: list[tuple[float, bool]], until: float) -> list:
    """Feed edges in time order, polling at every deadline that falls due in between."""
    events = []
    for t, pressed in [*edges, (until, None)]:
        while d.next_deadline is not None and d.next_deadline <= t:
            events += d.poll(d.next_deadline)
        if pressed is not None:
            events += d.feed(pressed, t)
    return events


def bouncy(t: float, pressed: bool, bounces: int, spacing: float = 0.001):
    """An edge to `pressed` at `t` followed by contact bounce that ends on `pressed`."""
    return [(t + i * spacing, pressed == (i % 2 == 0)) for i in range(2 * bounces + 1)]


def test_a_clean_tap_is_reported_on_release_with_wall_time():
    events = run(detector(), [(1.0, True), (1.1, False)], until=10)
    assert events == [ButtonPressed(t=1001.1, source="gpio")]


def test_bounce_on_press_and_release_gives_one_tap():
    edges = bouncy(1.0, True, 5) + bouncy(1.2, False, 5)
    assert len(run(detector(), edges, until=10)) == 1


@given(
    press_bounces=st.integers(0, 8),
    release_bounces=st.integers(0, 8),
    spacing=st.floats(0.0001, DEBOUNCE / 20),
    down=st.floats(0.05, HOLD * 0.9),
)
def test_any_bounce_within_the_debounce_time_gives_exactly_one_tap(
    press_bounces, release_bounces, spacing, down
):
    edges = bouncy(1.0, True, press_bounces, spacing) + bouncy(
        1.0 + down, False, release_bounces, spacing
    )
    events = run(detector(), edges, until=20)
    assert [type(e) for e in events] == [ButtonPressed]


def test_a_release_lost_inside_the_bounce_is_found_when_the_lockout_ends():
    # Press, then the release edge arrives while still locked out: resampled at 1.0 + debounce.
    d = detector()
    assert d.feed(True, 1.0) == []
    assert d.feed(False, 1.005) == []
    assert d.next_deadline == 1.0 + DEBOUNCE
    # Down for no longer than the debounce time: a glitch, not a tap.
    assert d.poll(1.0 + DEBOUNCE) == [] and not d.pressed


def test_a_release_at_the_lockout_end_after_a_long_press_is_a_tap():
    d = detector()
    d.feed(True, 1.0)
    d.feed(False, 1.2)  # after the lockout: immediate
    assert len(d.feed(True, 1.21)) == 0  # bounce after release: ignored
    assert d.feed(False, 1.215) == []
    assert d.poll(1.22 + DEBOUNCE) == []  # raw matches the debounced level: nothing


def test_a_hold_is_reported_once_and_its_release_is_not_a_tap():
    events = run(detector(), [(1.0, True), (1.0 + HOLD * 2.5, False)], until=20)
    assert events == [ButtonHeld(t=1001.0 + HOLD, seconds=HOLD, source="gpio")]


def test_a_stuck_button_is_one_fault_not_endless_presses():
    events = run(detector(), [(1.0, True)], until=1000)
    assert [type(e) for e in events] == [LinkHeld, Fault]  # a link on the way, never a hold
    assert events[1].kind == "stuck_button" and "5 s" in events[1].message
    # When it comes free nothing is reported for it, and the next tap works again.
    d = detector()
    run(d, [(1.0, True), (100.0, False)], until=101)
    assert run(d, [(102.0, True), (102.1, False)], until=103) == [
        ButtonPressed(t=1102.1, source="gpio")
    ]


def test_down_at_start_up_is_not_a_hold_but_may_be_stuck():
    d = detector(pressed=True, now=0.0)
    assert d.poll(HOLD + 0.1) == []
    [fault] = d.poll(STUCK)
    assert fault.kind == "stuck_button"


def test_next_deadline_is_none_when_idle():
    d = detector()
    assert d.next_deadline is None
    d.feed(True, 1.0)
    assert d.next_deadline == 1.0 + HOLD


def test_held_for_the_link_time_is_one_link_and_no_hold():
    """Issue 32: the emulator's 3-second link hold first fired the 1.5-second long hold ("long
    hold: repeat"). A hold is decided on release, so holding on to the link is the link alone."""
    d = detector()
    d.feed(True, 1.0)
    assert d.poll(1.0 + HOLD) == []  # a hold, or on to the link: not said yet
    assert d.poll(1.0 + LINK_S) == [LinkHeld(t=1001.0 + LINK_S, seconds=LINK_S, source="gpio")]
    assert d.feed(False, 1.0 + LINK_S + 0.5) == []
    # Released just before the link time: a hold only (dated when it became one), no link.
    events = run(detector(), [(1.0, True), (1.0 + LINK_S - 0.1, False)], until=20)
    assert events == [ButtonHeld(t=1001.0 + HOLD, seconds=HOLD, source="gpio")]


def test_the_link_time_is_a_second_past_a_long_hold_and_never_past_the_stuck_time():
    assert link_seconds(1.5) == LINK_S and link_seconds(4.0) == 5.0
    late = PressDetector(DEBOUNCE, 4.0, 5.0, wall_offset=0.0)  # stuck at 5 s: no link
    assert [type(e) for e in run(late, [(1.0, True)], until=100)] == [ButtonHeld, Fault]


def test_down_at_start_up_is_not_a_link():
    d = detector(pressed=True, now=0.0)
    assert [type(e) for e in run(d, [], until=STUCK + 1)] == [Fault]
