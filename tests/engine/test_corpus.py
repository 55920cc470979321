"""The engine as main was before issue 18's rewrite, held to: every record it wrote (every
ruleset, option set and mode, `corpus/make.py`) replays through `tinker-tray replay` to exactly
the state it printed then, and a simulation without records (random bots: the simulation's
playout) gives exactly the statistics it gave then, on whichever build runs the tests."""

import gzip
import json

import pytest

from tests.engine.corpus.make import CASES, RECORDS, STATS, STATS_CASES, run_cli, simulate_stats

RECORD_FILES = sorted(p.relative_to(RECORDS).as_posix() for p in RECORDS.glob("*/*.jsonl.gz"))


def test_every_case_kept_its_records():
    assert sorted({name.split("/")[0] for name in RECORD_FILES}) == sorted(CASES)


@pytest.mark.parametrize("name", RECORD_FILES)
def test_a_record_replays_to_the_same_state(name, tmp_path):
    packed = RECORDS / name
    path = tmp_path / packed.name.removesuffix(".gz")
    path.write_bytes(gzip.decompress(packed.read_bytes()))
    code, out = run_cli(["replay", str(path)])
    want = packed.with_name(path.name.removesuffix(".jsonl") + ".replay.json").read_text()
    assert code == 0
    assert out.strip() == want.strip()


@pytest.mark.parametrize("name", sorted(STATS_CASES))
def test_a_simulation_gives_the_same_statistics(name):
    want = json.loads((STATS / f"{name}.json").read_text())
    assert simulate_stats(STATS_CASES[name]) == want
