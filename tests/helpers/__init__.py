"""Helpers shared by the tests of several packages, and the one support package the benches take
from the tests: bench/ imports `tests.helpers` and nothing else of tests/ (tests/bench/ checks)."""

from hypothesis import settings


def examples(quick: int) -> int:
    """A property test's example count: `quick` by default, four times as many in the thorough
    profile (CI)."""
    return quick * 4 if settings.default.max_examples >= 400 else quick
