"""bench/engine_speed.py --against: a revision that is not one says so in a sentence, before the
benchmark installs its peer or takes anything into bench/.against."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench" / "engine_speed.py"


def test_a_revision_that_is_not_one_is_named_and_nothing_is_taken():
    before = set((ROOT / "bench").iterdir())
    done = subprocess.run(
        [sys.executable, str(BENCH), "--against", "no-such-revision", "--hands", "10"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("--against no-such-revision: not a revision here:")
    assert "Traceback" not in done.stderr
    assert set((ROOT / "bench").iterdir()) == before  # no peer environment, no .against folder
