"""The error every refused action raises."""

from __future__ import annotations


class RuleError(ValueError):
    """An action the rules forbid. `rule` is the key of the rule in docs/RULES-MAP.md."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
