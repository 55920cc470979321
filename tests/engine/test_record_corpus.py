"""Records written by `simulate --records` before the engine's core was rewritten (issue 9)
replay to exactly the state the old engine printed (`records/NAME.replay.json`: its `replay`
output), on whichever build runs the tests.

The Disney ones are replayed with `villain_draw4_may_take` (the reading the old engine played):
under the book's reading, now the default, a record in which a player holding Tinker Bell's
colour took four cards stops at that event with `protect-must`."""

import json
from pathlib import Path

import pytest

from engine import record

RECORDS = Path(__file__).with_name("records")
NAMES = sorted(p.name.removesuffix(".jsonl") for p in RECORDS.glob("*.jsonl"))


def _as_written_then(text: str) -> str:
    lines = text.splitlines(keepends=True)
    header = json.loads(lines[0])
    if header.get("ruleset", "disney") == "disney":
        header["options"]["villain_draw4_may_take"] = True
    return json.dumps(header) + "\n" + "".join(lines[1:])


@pytest.mark.parametrize("name", NAMES)
def test_old_records_replay_to_the_same_state(name):
    text = (RECORDS / f"{name}.jsonl").read_text()
    game, count = record.replay(_as_written_then(text))
    printed = json.dumps({"ok": True, "events": count, **game.summary()})
    assert printed == (RECORDS / f"{name}.replay.json").read_text().strip()


def test_an_old_record_that_kept_the_colour_stops_where_the_book_says_lay_it_down():
    text = (RECORDS / "disney-p4-s1-hand-00003.jsonl").read_text()
    with pytest.raises(record.RecordError) as info:
        record.replay(text)
    assert info.value.rule == "protect-must"
