import pytest

from engine import registry
from tests.colour_match import ENTRY


@pytest.fixture(autouse=True)
def colour_match_registered():
    """Colour Match is a ruleset while its own tests run, and only then."""
    registry.register(ENTRY)
    yield
    registry.unregister(ENTRY.name)
