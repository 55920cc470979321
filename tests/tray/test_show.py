from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tray import show
from tray.backend import COLOURS, DARK
from tray.config import ShowSettings

settings_st = st.builds(
    ShowSettings,
    steps=st.integers(4, 60),
    first_step_s=st.floats(0.01, 0.2),
    last_step_s=st.floats(0.2, 1.0),
    trail=st.sampled_from([0.0, 0.25]),
    blinks=st.integers(0, 4),
    blink_s=st.floats(0.02, 0.3),
    lit_s=st.sampled_from([0.0, 2.0]),
    brightness=st.floats(0.05, 1.0),
)


def brightest(levels):
    return COLOURS[max(range(4), key=lambda i: levels[i])]


@given(colour=st.sampled_from(COLOURS), settings=settings_st)
def test_the_show_lands_on_the_pick_and_keeps_it_lit_for_lit_s(colour, settings):
    frames = show.frames(colour, settings)
    scan = frames[: settings.steps]
    assert brightest(scan[-1].levels) == colour
    on = tuple(settings.brightness if c == colour else 0.0 for c in COLOURS)
    if settings.lit_s:
        assert frames[-2:] == [show.Frame(on, settings.lit_s), show.Frame(DARK, 0.0)]
    else:
        assert frames[-1] == show.Frame(on, 0.0)
    assert all(0.0 <= level <= settings.brightness for f in frames for level in f.levels)


@given(settings=settings_st)
def test_the_scan_visits_the_colours_in_order_and_slows_down(settings):
    frames = show.frames("green", settings)[: settings.steps]
    order = [COLOURS.index(brightest(f.levels)) for f in frames]
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(order))
    times = [f.seconds for f in frames]
    assert times == sorted(times)
    assert times[0] == pytest.approx(settings.first_step_s)
    assert times[-1] == pytest.approx(settings.last_step_s)


@given(settings=settings_st)
def test_the_timing_is_the_same_whatever_the_colour(settings):
    timings = {tuple(f.seconds for f in show.frames(c, settings)) for c in COLOURS}
    assert len(timings) == 1
    [timing] = timings
    assert sum(timing[: settings.steps + 2 * settings.blinks]) == pytest.approx(
        show.spin_seconds(settings)
    )


def test_the_trail_is_the_light_just_left():
    settings = ShowSettings(trail=0.25)
    frames = show.frames("red", settings)
    first, second = frames[0].levels, frames[1].levels
    lit_first = first.index(1.0)
    assert second[lit_first] == 0.25 and second[(lit_first + 1) % 4] == 1.0
    no_trail = show.frames("red", dataclasses.replace(settings, trail=0.0))
    assert all(sorted(f.levels)[:3] == [0.0] * 3 for f in no_trail)


def test_unknown_colour_is_refused():
    with pytest.raises(ValueError, match="unknown colour 'purple'"):
        show.frames("purple", ShowSettings())


def test_walk_lights_each_colour_alone_then_all_then_dark():
    frames = show.walk(seconds=0.1)
    assert [brightest(f.levels) for f in frames[:4]] == list(COLOURS)
    assert frames[4].levels == (1.0,) * 4 and frames[-1].levels == DARK


@given(colour=st.sampled_from(COLOURS), lead=st.sampled_from(COLOURS), settings=settings_st)
def test_a_show_starts_on_its_lead_and_nothing_before_the_landing_names_the_pick(
    colour, lead, settings
):
    frames = show.frames(colour, settings, lead)
    extra = show.extra_steps(colour, lead, settings)
    assert 0 <= extra <= 3
    assert brightest(frames[0].levels) == lead
    scan = frames[: settings.steps + extra]
    assert brightest(scan[-1].levels) == colour
    # The first `steps` frames are the same whichever colour it lands on: they say nothing.
    others = [show.frames(c, settings, lead)[: settings.steps] for c in COLOURS]
    assert all(o == frames[: settings.steps] for o in others)
    assert [f.seconds for f in scan[settings.steps :]] == [settings.last_step_s] * extra
    landed = sum(f.seconds for f in frames[: settings.steps + extra + 2 * settings.blinks])
    assert landed == pytest.approx(show.spin_seconds(settings, colour, lead))


def test_over_the_leads_every_length_is_equally_likely_whatever_the_pick():
    settings = ShowSettings(steps=20)
    for colour in COLOURS:
        assert sorted(show.extra_steps(colour, lead, settings) for lead in COLOURS) == [0, 1, 2, 3]
    assert show.extra_steps("red", None, settings) == 0
    assert show.frames("red", settings, None) == show.frames("red", settings)


def test_an_unknown_lead_is_refused():
    with pytest.raises(ValueError, match="unknown colour 'pink'"):
        show.frames("red", ShowSettings(), "pink")
