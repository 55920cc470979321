"""What the host's page and the boot partition ask of the update (the root unit carries it out):
a check that installs nothing, an install, an uploaded or card file; hostile requests refused."""

from __future__ import annotations

import json
import os

import pytest

from tests.update.helpers import Bench, make_bench
from tests.update.test_update_file import packed
from updater import requests

pytestmark = pytest.mark.slow


@pytest.fixture
def bench(tmp_path) -> Bench:
    return make_bench(tmp_path)


def test_a_check_says_what_can_be_installed_and_installs_nothing(bench, tmp_path):
    commit = bench.release("v1.1.0")
    status = tmp_path / "status.json"
    done = bench.update("--check", "--status", str(status))
    assert done.returncode == 0, done.stderr
    assert f"v1.1.0 ({commit[:12]}) can be installed" in done.stderr
    seen = json.loads(status.read_text())
    assert seen["state"] == "done" and seen["available"] == "v1.1.0"
    assert bench.slots() == []


def test_the_pages_request_to_install_is_carried_out_once(bench, tmp_path):
    commit = bench.release("v1.1.0")
    state, status = tmp_path / "state", tmp_path / "status.json"
    requests.ask(state, "install")
    done = bench.update("--requests", str(state), "--status", str(status))
    assert done.returncode == 0, done.stderr
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"
    seen = json.loads(status.read_text())
    assert seen["state"] == "done" and seen["running"] == f"v1.1.0 ({commit[:12]})"
    assert not (state / "update" / "request").exists()
    again = bench.update("--requests", str(state))  # nothing asked: nothing done
    assert again.returncode == 0 and again.stderr == ""


def test_an_uploaded_update_file_is_installed(bench, tmp_path):
    commit = bench.release("v1.1.0")
    _, out = packed(bench, "v1.1.0")
    state = tmp_path / "state"
    requests.folder(state).mkdir(parents=True)
    out.rename(requests.folder(state) / requests.UPLOAD)
    requests.ask(state, "install-file")
    done = bench.update("--requests", str(state))
    assert done.returncode == 0, done.stderr
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"


@pytest.mark.parametrize(
    "request_text",
    ['{"action": "rm -rf /"}', "not json", '{"action": ' + '"x' * 5000 + '"}', "[]"],
)
def test_a_malformed_request_is_one_sentence_and_is_gone(bench, tmp_path, request_text):
    state = tmp_path / "state"
    requests.folder(state).mkdir(parents=True)
    (requests.folder(state) / "request").write_text(request_text)
    done = bench.update("--requests", str(state))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1 and "request" in done.stderr
    assert not (requests.folder(state) / "request").exists()


def test_links_in_the_services_folder_are_not_followed(bench, tmp_path):
    """The service's user writes that folder; root must not read through a link it planted."""
    secret = tmp_path / "secret"
    secret.write_text('{"action": "install"}')
    state = tmp_path / "state"
    requests.folder(state).mkdir(parents=True)
    os.symlink(secret, requests.folder(state) / "request")
    done = bench.update("--requests", str(state))
    assert done.returncode == 1 and "could not be read" in done.stderr
    assert bench.slots() == []
    requests.ask(state, "install-file")
    os.symlink(secret, requests.folder(state) / requests.UPLOAD)
    done = bench.update("--requests", str(state))
    assert done.returncode == 1 and "no uploaded update file" in done.stderr


def test_an_update_file_on_the_card_is_taken_once(bench, tmp_path):
    commit = bench.release("v1.1.0")
    card = tmp_path / "boot"
    card.mkdir()
    _, out = packed(bench, "v1.1.0")
    out.rename(card / "tinker-tray-v1.1.0.update")
    done = bench.update("--card", str(card))
    assert done.returncode == 0, done.stderr
    assert bench.version() == f"tinker-tray v1.1.0 ({commit[:12]})"
    assert sorted(p.name for p in card.iterdir()) == ["tinker-tray-v1.1.0.update.done"]
    assert bench.update("--card", str(card)).stderr == ""  # the next boot: nothing to do


def test_a_broken_update_file_on_the_card_is_said_once(bench, tmp_path):
    card = tmp_path / "boot"
    card.mkdir()
    (card / "tinker-tray-v9.update").write_bytes(b"\x1b[2J forged\nlogin: " * 10)
    done = bench.update("--card", str(card))
    assert done.returncode == 1 and "is not an update file" in done.stderr
    assert "\x1b" not in done.stderr
    assert sorted(p.name for p in card.iterdir()) == ["tinker-tray-v9.update.refused"]
    assert bench.update("--card", str(card)).stderr == ""
