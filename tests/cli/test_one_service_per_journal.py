"""One service per journal (issue 31, item 4): a second service on the same journal is refused
at start with a sentence naming the one running (its process id and address), by a lock the
operating system lets go when the first dies, so after kill -9 the next one starts at once.
Real processes, a real journal file."""

from __future__ import annotations

import pytest

from tests.helpers.service import Service

pytestmark = pytest.mark.slow  # real processes


def test_a_second_service_on_the_journal_is_refused_naming_the_first(tmp_path):
    journal = tmp_path / "journal.sqlite3"
    first = Service(journal)
    try:
        first.wait_ready()
        second = Service(journal)
        code, err = second.ended()
        assert code == 1
        assert (
            f"is in use by another tinker-tray (pid {first.proc.pid}, serving {first.url})" in err
        )
        assert "Traceback" not in err
        status, _view = first.call("/api/view")
        assert status == 200  # the first one plays on
    finally:
        first.stop()


def test_after_the_first_is_killed_with_9_the_next_starts_and_has_every_game(tmp_path):
    first = Service.ready(tmp_path / "journal.sqlite3")
    assert first.call("/api/new-game", {"players": ["Ann", "Bea"]})[0] == 200
    second = first.killed_and_restarted()
    try:
        status, games = second.call("/api/games")
        assert status == 200 and [g["entries"] for g in games["games"]] == [1]
        third = Service(first.journal)
        code, err = third.ended()
        assert code == 1 and f"pid {second.proc.pid}" in err
    finally:
        second.stop()


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_second_service_given_the_journal_by_a_link_is_refused(tmp_path, link):
    """Issue 41, item 4: the lock is the file's, not its name's. A second service given the
    same journal through a symbolic or a hard link (in another folder) is refused with the
    same sentence, naming the first by its process id."""
    journal = tmp_path / "journal.sqlite3"
    first = Service(journal)
    try:
        first.wait_ready()
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        other = elsewhere / "other-name.sqlite3"
        if link == "symbolic":
            other.symlink_to(journal)
        else:
            other.hardlink_to(journal)
        second = Service(other)
        try:
            code, err = second.ended()
        finally:
            if second.proc.poll() is None:  # it started beside the first: never left behind
                second.kill()
        assert code == 1, err
        assert f"the journal {other} is in use by another tinker-tray (pid {first.proc.pid}" in err
        assert "stop that one first, or give this one another journal with --journal" in err
        assert "Traceback" not in err
        assert first.call("/api/new-game", {"players": ["Ann", "Bea"]})[0] == 200
    finally:
        code, err = first.stop()
    assert code == 0 and "Traceback" not in err
