"""The update check prints each line of the page's progress once, though the page keeps only
its last lines: a window that slid by some lines already shown prints only the new ones."""

from __future__ import annotations

from image.update_check import fresh


def test_new_lines_at_the_end_are_the_only_ones_printed():
    assert fresh(["a", "b"], ["a", "b", "c"]) == ["c"]


def test_a_window_that_slid_prints_only_what_follows_the_lines_shown():
    assert fresh(["a", "b", "c"], ["b", "c", "d", "e"]) == ["d", "e"]
    assert fresh(["a", "b", "c"], ["c", "d"]) == ["d"]


def test_an_unchanged_report_prints_nothing():
    assert fresh(["a", "b"], ["a", "b"]) == []


def test_a_report_with_nothing_in_common_is_printed_whole():
    assert fresh(["a", "b"], ["x", "y"]) == ["x", "y"]
    assert fresh([], ["x"]) == ["x"]
