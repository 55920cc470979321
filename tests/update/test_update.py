"""`./tinker update` from a local origin: only signed releases, set up beside the running one,
tried before they are switched to; whatever fails, the version that ran still runs and the last
line says so (issue 38's cases, each against a real git, real SSH signatures, a real service)."""

from __future__ import annotations

import pytest

from tests.update.helpers import Bench, git, make_bench, stand_in

pytestmark = pytest.mark.slow


@pytest.fixture
def bench(tmp_path) -> Bench:
    return make_bench(tmp_path)


def last_line(done) -> str:
    return done.stderr.strip().splitlines()[-1]


def test_a_good_signed_release_is_installed_and_runs(bench):
    before = bench.version()
    commit = bench.release("v1.1.0")
    done = bench.update()
    assert done.returncode == 0, done.stderr
    assert last_line(done) == (
        f"tinker-tray update: tried v1.1.0 ({commit[:12]}); now running v1.1.0 ({commit[:12]})."
    )
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})" != before
    assert bench.serves()
    again = bench.update()
    assert again.returncode == 0 and "nothing newer" in last_line(again)
    # the checkout itself was never changed: its HEAD and files are as they were
    assert git(bench.tray, "status", "--porcelain") == ""
    assert not (bench.tray / "NEWS").exists()


def test_an_unsigned_tag_is_refused_and_nothing_is_set_up(bench):
    bench.release("v1.1.0", signed=False)
    done = bench.update()
    assert done.returncode == 1
    assert "refused: v1.1.0 is not signed with an SSH key" in done.stderr
    assert "no newer release could be trusted" in last_line(done)
    assert bench.slots() == []
    assert bench.serves()


def test_a_tag_signed_by_a_key_not_allowed_is_refused(bench):
    bench.release("v1.1.0", key=bench.stranger)
    done = bench.update()
    assert done.returncode == 1
    assert (
        f"refused: v1.1.0 is not signed by a key this tray trusts (the keys in {bench.signers})"
        in done.stderr
    )
    assert bench.slots() == []


def test_a_branch_head_is_never_installed(bench):
    (bench.origin / "NEWS").write_text("unreleased work\n")
    git(bench.origin, "add", "NEWS")
    git(bench.origin, "commit", "-qm", "Work on main, no release")
    done = bench.update()
    assert done.returncode == 0 and "nothing newer" in last_line(done)
    assert bench.slots() == []


def test_without_an_allowed_signers_file_every_release_is_refused(bench, tmp_path):
    bench.release("v1.1.0")
    done = bench.update(TINKER_TRAY_ALLOWED_SIGNERS=str(tmp_path / "missing"))
    assert done.returncode == 1
    assert "no release can be verified" in done.stderr and "which is not a file" in done.stderr
    assert bench.slots() == []


def test_an_old_release_under_a_newer_name_is_not_newer(bench):
    """A signed v1.1.0 pushed again as the tag v9.0.0 is still v1.1.0 (its signed name)."""
    bench.release("v1.1.0")
    assert bench.update().returncode == 0
    old = git(bench.origin, "rev-parse", "v1.1.0")
    git(bench.origin, "update-ref", "refs/tags/v9.0.0", old)
    done = bench.update()
    assert "v9.0.0 is signed as the older v1.1.0" in done.stderr
    assert bench.version().startswith("tinker-tray v1.1.0")


def test_a_release_whose_set_up_fails_leaves_the_old_one(bench):
    running = bench.version()
    bench.release(
        "v1.1.0", setup=stand_in(extra='echo "pip: no matching distribution" >&2; exit 1')
    )
    done = bench.update()
    assert done.returncode == 1
    assert (
        "v1.1.0 was not installed: its set-up failed: pip: no matching distribution" in done.stderr
    )
    line = last_line(done)
    assert line.startswith("tinker-tray update: tried v1.1.0") and "still running" in line
    assert bench.slots() == []
    assert bench.version() == running and bench.serves()


def test_a_release_that_cannot_serve_leaves_the_old_one(bench):
    bench.release("v1.1.0")
    assert bench.update().returncode == 0
    running = bench.version()
    broken = 'case "$1" in run) echo "ImportError: a broken release" >&2; exit 3;; esac; '
    bench.release("v1.2.0", setup=stand_in(service=broken))
    done = bench.update()
    assert done.returncode == 1, done.stderr
    assert "it stopped at its start (status 3)" in done.stderr
    assert "a broken release" in done.stderr
    assert "tried v1.2.0" in last_line(done) and "still running v1.1.0" in last_line(done)
    assert bench.version() == running and bench.serves()
    # the way back is still there, and a good release after it goes in
    fixed = bench.release("v1.2.1")
    done = bench.update()
    assert done.returncode == 0, done.stderr
    assert bench.version() == f"tinker-tray v1.2.1 ({fixed[:12]})"
    assert len(bench.slots()) == 2  # the running one and the previous (the way back)


def test_the_running_slots_compiled_engine_is_offered_to_the_new_one(bench):
    """Used only where its recorded sources match (engine/__init__.py), so a release that did
    not change the engine compiles nothing on the Pi."""
    compiled = bench.tray / "build" / "mypyc" / "engine"
    compiled.mkdir(parents=True)
    (compiled / "SOURCES").write_text("engine/cards.py 0123\n")
    commit = bench.release("v1.1.0")
    assert bench.update().returncode == 0
    slot = bench.tray / ".releases" / "slots" / f"v1.1.0-{commit[:12]}"
    assert (slot / "build" / "mypyc" / "engine" / "SOURCES").read_text() == "engine/cards.py 0123\n"


def test_a_failed_set_up_is_told_by_pips_error_not_by_a_log_that_is_gone(bench):
    """The set-up's log goes with the slot: the sentence carries pip's ERROR line."""
    pip_says = (
        'echo "Collecting zeroconf"; '
        'echo "ERROR: No matching distribution found for zeroconf>=0.130" >&2; '
        'echo "tinker: the set-up failed (above; also in .venv/pip.log)." >&2; exit 1'
    )
    bench.release("v1.1.0", setup=stand_in(extra=pip_says))
    done = bench.update()
    assert done.returncode == 1
    assert (
        "its set-up failed: ERROR: No matching distribution found for zeroconf>=0.130"
        in done.stderr
    )
