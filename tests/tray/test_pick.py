"""The pick is uniform, independent of the previous pick, numbered, and reproducible if seeded."""

from __future__ import annotations

import itertools
import math
import random
import threading
from collections import Counter

import pytest

from tray.backend import COLOURS
from tray.pick import Picker

N = 100_000


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square with integer `df` degrees of freedom (closed forms)."""
    if df % 2 == 0:
        term = total = math.exp(-x / 2)
        for k in range(1, df // 2):
            term *= (x / 2) / k
            total += term
        return total
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for k in range((df - 1) // 2):
        total += term
        term *= x / (2 * k + 3)
    return total


def test_chi2_sf_matches_known_critical_values():
    # Textbook table: chi-square critical values at p = 0.05 and p = 0.001.
    assert chi2_sf(7.815, 3) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(16.266, 3) == pytest.approx(0.001, abs=1e-5)
    assert chi2_sf(16.919, 9) == pytest.approx(0.05, abs=1e-4)
    assert chi2_sf(27.877, 9) == pytest.approx(0.001, abs=1e-5)
    assert chi2_sf(9.488, 4) == pytest.approx(0.05, abs=1e-4)


def uniformity(colours: list[str]) -> float:
    counts = Counter(colours)
    expected = len(colours) / 4
    return chi2_sf(sum((counts[c] - expected) ** 2 / expected for c in COLOURS), 3)


def independence(colours: list[str]) -> float:
    """Chi-square test of the 4x4 table (previous colour, next colour) for independence."""
    return table_independence(list(itertools.pairwise(colours)))


def table_independence(pairs: list[tuple[str, str]]) -> float:
    """Chi-square test of the 4x4 table of (a, b) colour pairs for independence."""
    counts = Counter(pairs)
    rows = Counter(a for a, _ in pairs)
    cols = Counter(b for _, b in pairs)
    stat = 0.0
    for a in COLOURS:
        for b in COLOURS:
            expected = rows[a] * cols[b] / len(pairs)
            stat += (counts[(a, b)] - expected) ** 2 / expected
    return chi2_sf(stat, 9)


@pytest.fixture(scope="module")
def system_pick_events() -> list:
    picker = Picker()
    return [picker.pick() for _ in range(N)]


@pytest.fixture(scope="module")
def system_picks(system_pick_events) -> list[str]:
    return [p.colour for p in system_pick_events]


def test_the_show_starts_on_a_light_that_says_nothing_of_the_pick(system_pick_events):
    """The show's first light (`lead`, tray.show) is uniform and independent of the colour:
    otherwise the start of the scan would hint at where it lands."""
    leads = [p.lead for p in system_pick_events]
    assert uniformity(leads) > 1e-6
    assert table_independence([(p.colour, p.lead) for p in system_pick_events]) > 1e-6
    tied = [(p.colour, COLOURS[(COLOURS.index(p.colour) + 1) % 4]) for p in system_pick_events]
    assert table_independence(tied) < 1e-6  # what the old fixed start was: the test can fail


def test_a_seed_gives_the_same_colours_with_leads_beside_them():
    picker = Picker(seed=7)
    picks = [picker.pick() for _ in range(2000)]
    colours = random.Random(7)
    assert [p.colour for p in picks] == [COLOURS[colours.randrange(4)] for _ in range(2000)]
    again = Picker(seed=7)
    assert [again.pick().lead for _ in range(2000)] == [p.lead for p in picks]
    assert table_independence([(p.colour, p.lead) for p in picks]) > 0.001


def test_system_picks_are_uniform(system_picks):
    # Fresh OS randomness every run: a threshold of 1e-6 makes a false alarm practically never.
    assert uniformity(system_picks) > 1e-6


def test_no_colour_is_more_likely_after_any_other(system_picks):
    assert independence(system_picks) > 1e-6


def test_seeded_picks_pass_the_same_tests_and_repeat():
    first = [Picker(seed=2024).pick().colour for _ in range(3)]
    picker, again = Picker(seed=2024), Picker(seed=2024)
    colours = [picker.pick().colour for _ in range(N)]
    assert [again.pick().colour for _ in range(N)] == colours
    assert first == [colours[0]] * 3
    assert uniformity(colours) > 0.001 and independence(colours) > 0.001


def test_the_tests_can_fail():
    biased = ["red", "blue", "green", "yellow", "red"] * (N // 5)  # red 2/5 of the time
    assert uniformity(biased) < 1e-6
    cycle = list(COLOURS) * (N // 4)  # uniform, but fully predictable from the last colour
    assert uniformity(cycle) > 0.5 and independence(cycle) < 1e-6


def test_sequence_numbers_rise_by_one_and_picks_carry_time_and_source():
    picker = Picker(first_seq=41)
    picks = [picker.pick(source="virtual") for _ in range(3)]
    assert [p.seq for p in picks] == [41, 42, 43] and picker.next_seq == 44
    assert all(p.source == "virtual" and p.t > 1e9 and p.colour in COLOURS for p in picks)


def test_sequence_numbers_are_unique_across_threads():
    picker = Picker()
    seqs: list[int] = []
    lock = threading.Lock()

    def work():
        mine = [picker.pick().seq for _ in range(2000)]
        with lock:
            seqs.extend(mine)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seqs) == list(range(1, 8001))
