"""The errors of every ruleset: a refused action, and a record event that is not well formed."""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules forbid. `rule` is the key of the rule in docs/RULES-MAP.md."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class EventError(ValueError):
    """A record event that is not well formed (as opposed to one the rules forbid)."""
