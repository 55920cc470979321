"""The layers above the engine ask the ruleset, never its name: no line of the command line,
digital play or the scoreboard branches on "elite" (an `if` naming it, or a comparison with
it). Which code a ruleset's name chooses is its registry entry's (`engine.registry`); what
the layers above branch on is what a game declares (`features`) or its observation holds."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("cli", "digital", "scoreboard")
BRANCH = re.compile(
    r"\bif\b.*\belite\b|[=!]=\s*['\"]?elite\b|\belite\b['\"]?\s*[=!]=",
    re.IGNORECASE,
)
"""A line that decides by the name: `if ... elite`, `== "elite"`, `ruleset != ELITE`."""


def branches(text: str) -> list[str]:
    """The lines of `text` that branch on the ruleset's name (comments, Python's, JavaScript's
    and SQL's, are not code)."""
    out = []
    for line in text.splitlines():
        code = line.split("#")[0].split(" -- ")[0] if not line.lstrip().startswith("//") else ""
        if BRANCH.search(code):
            out.append(line.strip())
    return out


def test_the_pattern_finds_the_branches_it_is_for():
    assert branches('    if args.ruleset == "elite":') == ['if args.ruleset == "elite":']
    assert branches("    elite = args.ruleset == 'elite'")
    assert branches('    return "UNO Elite" if ruleset == ELITE else title')
    assert branches("  if (v.ruleset === 'elite') renderWords(v);")
    assert not branches('    if "elite_games" in names:  # a version 3 table')
    assert not branches("    if factory.card_files(args.ruleset):")
    assert not branches('    # if the ruleset is "elite"')
    assert not branches("    mode TEXT -- the mode, if it has several (UNO Elite: quick...)")


def test_no_layer_above_the_engine_branches_on_a_rulesets_name():
    found = {
        f"{path.relative_to(ROOT)}: {line}"
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*"))
        if path.suffix in (".py", ".js") and "node_modules" not in path.parts
        for line in branches(path.read_text(encoding="utf-8"))
    }
    assert not found, "\n".join(sorted(found))
