"""Every UNO Elite record main wrote before Elite moved onto the one game protocol (quick, draft
and dynasty play; `corpus/make.py`) replays through `tinker-tray replay` to exactly the state it
printed then, and writes itself again event for event."""

import gzip

import pytest

from engine import record
from tests.engine.corpus.make import run_cli
from tests.engine.elite.corpus.make import CASES, RECORDS, record_files

RECORD_FILES = record_files()


def test_every_case_kept_its_records():
    assert sorted({name.split("/")[0] for name in RECORD_FILES}) == sorted(CASES)
    assert {name.split("-")[0] for name in CASES} == {"quick", "draft", "dynasty"}


@pytest.mark.parametrize("name", RECORD_FILES)
def test_a_record_replays_to_the_same_state(name, tmp_path):
    packed = RECORDS / name
    path = tmp_path / packed.name.removesuffix(".gz")
    text = gzip.decompress(packed.read_bytes()).decode()
    path.write_text(text)
    code, out = run_cli(["replay", str(path)])
    want = packed.with_name(path.name.removesuffix(".jsonl") + ".replay.json").read_text()
    assert code == 0
    assert out.strip() == want.strip()
    game, _count = record.replay(text)
    assert record.dumps(game).rstrip("\n") == text.rstrip("\n")
