"""The host's update routes on their own (scoreboard.update_page): who may ask, one update at a
time, the root unit's requests, the uploaded update file's bounds, and the page's reading of
the progress. The whole flow with the real `tinker update` is in test_update_page_browser.py."""

from __future__ import annotations

import argparse
import io
import json
import os
import socket
import tarfile
import time
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from cli.app import create_app
from cli.commands import update as update_command
from scoreboard.journal import Journal
from scoreboard.server import ServerThread, bind
from scoreboard.update_page import MAX_FILE, Updates, installed_not_running
from tests.helpers.web import TOKEN
from tray.bus import Bus
from updater import bundle, requests

HOST = {"X-Table-Token": TOKEN}
SLOW_CHILD = """#!/bin/sh
# stands in for the checkout's `tinker update`: says it runs, waits for the test, then ends
status=$(eval echo "\\${$#}")
printf '{"state": "running", "lines": ["looking"], "last": null, "at": %s}' "$(date +%s)" >"$status"
while [ ! -e "$0.go" ]; do sleep 0.05; done
printf '{"state": "done", "lines": ["looking"], "last": "nothing newer", "at": 0}' >"$status"
"""


OPENED: list[Journal] = []


@pytest.fixture
def folders(tmp_path):
    (tmp_path / "state").mkdir()
    (tmp_path / "home").mkdir()
    yield tmp_path
    while OPENED:
        OPENED.pop().close()


def serve(folders, *, root=False, free=None, home_script=None):
    unit = folders / "tinker-tray-update.path"
    if root:
        unit.touch()
    if home_script is not None:
        script = folders / "home" / "tinker"
        script.write_text(home_script)
        script.chmod(0o755)
    updates = Updates(
        folders / "state",
        home=folders / "home",
        unit=unit,
        root_status=folders / "root-status.json",
        free=free or (lambda where: 10**12),
    )
    journal = Journal(folders / "state" / "journal.sqlite3")
    OPENED.append(journal)
    app = create_app(journal, Bus(), TOKEN)
    app.state.updates = updates
    return TestClient(app, raise_server_exceptions=False), updates


def update_file_bytes(size=4096) -> bytes:
    """A tar, as an update file is (its signature is the updater's to check, not the page's)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        info = tarfile.TarInfo("MANIFEST")
        info.size = size
        tar.addfile(info, io.BytesIO(b"x" * size))
    return out.getvalue()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/update"),
        ("POST", "/api/update/check"),
        ("POST", "/api/update/install"),
        ("POST", "/api/update/file"),
    ],
)
@pytest.mark.parametrize("who", [{}, {"X-Table-Token": "wrong"}, {"X-Seat-Key": "a-seat"}])
def test_only_the_host_may_see_or_ask(folders, method, path, who):
    client, updates = serve(folders, root=True)
    with client:
        res = client.request(method, path, headers=who, content=update_file_bytes())
        assert res.status_code == (401 if "X-Table-Token" in who else 403)  # 401: not the key
        assert "table's" in res.json()["error"]
    assert not requests.folder(updates.state).exists()  # nothing asked, nothing kept


def test_the_host_sees_the_version_that_runs_and_how_updates_run(folders):
    client, _ = serve(folders)
    with client:
        seen = client.get("/api/update", headers=HOST).json()
    assert seen["version"]  # this checkout's commit or tag
    assert seen["mode"] == "checkout" and seen["busy"] is False and seen["status"] is None
    assert seen["max_upload"] == MAX_FILE


def test_with_the_root_unit_a_check_is_a_request_and_a_second_is_refused(folders):
    client, updates = serve(folders, root=True)
    with client:
        res = client.post("/api/update/check", headers=HOST)
        assert res.status_code == 202, res.text
        assert json.loads((updates.folder / "request").read_text()) == {"action": "check"}
        assert client.get("/api/update", headers=HOST).json()["busy"] is True
        again = client.post("/api/update/install", headers=HOST)
        assert again.status_code == 409 and "already running" in again.json()["error"]
        assert requests.take(updates.state) == "check"  # root took it: still running
        (folders / "root-status.json").write_text(
            json.dumps({"state": "running", "lines": ["looking"], "at": time.time()})
        )
        assert client.post("/api/update/install", headers=HOST).status_code == 409
        (folders / "root-status.json").write_text(
            json.dumps({"state": "done", "lines": ["looking"], "last": "…", "available": "v2.0.0",
                        "running": "v1.0.0 (0123456789ab)", "at": time.time()})
        )  # fmt: skip
        seen = client.get("/api/update", headers=HOST).json()
        assert seen["busy"] is False and seen["status"]["available"] == "v2.0.0"
        assert client.post("/api/update/install", headers=HOST).status_code == 202
        assert requests.take(updates.state) == "install"


@pytest.mark.parametrize(
    ("request_text", "why"),
    [('{"action": "install-file"}', "no uploaded update file"), ("not json", "not one the update")],
)
def test_the_page_sees_a_root_run_from_its_request_to_its_last_line(
    folders, mocker, request_text, why
):
    """The page watches while it sees the request or a run's progress, and stops when it sees
    neither: so the root's run (the real command, here in-process) must say it runs before the
    request it took is gone. A page that looked in between once stopped watching for good."""
    client, updates = serve(folders, root=True)
    requests.folder(updates.state).mkdir(parents=True)
    (updates.folder / "request").write_text(request_text)
    shown_as_it_went: list[dict[str, object]] = []
    unlink = Path.unlink

    def removing(path: Path, missing_ok: bool = False) -> None:
        unlink(path, missing_ok=missing_ok)
        if path.name == "request":  # the moment after: what a page that looks then sees
            shown_as_it_went.append(updates.report())

    mocker.patch.object(Path, "unlink", autospec=True, side_effect=removing)
    parser = argparse.ArgumentParser()
    update_command.add_arguments(parser)
    status = ["--status", str(folders / "root-status.json")]
    assert update_command.run(parser.parse_args(["--requests", str(updates.state), *status])) == 1
    assert [shown["busy"] for shown in shown_as_it_went] == [True]
    with client:
        seen = client.get("/api/update", headers=HOST).json()
    assert seen["busy"] is False and seen["status"]["state"] == "failed"
    assert why in seen["status"]["last"]


@pytest.mark.parametrize(("ago", "blocks"), [(60, True), (10 * 60, False), (-3600, True)])
def test_a_request_root_never_took_no_longer_blocks(folders, ago, blocks):
    """The root unit's path unit gives up after failed starts: a request nobody takes must not
    leave the page "updating" for ever. The uploaded file it names is kept (a restart of the
    tray carries the request out), and asking again replaces it. A clock set back (ago < 0)
    reads as just asked."""
    client, updates = serve(folders, root=True)
    requests.ask(updates.state, "install-file")
    (updates.folder / requests.UPLOAD).write_bytes(update_file_bytes())
    asked = time.time() - ago
    os.utime(updates.folder / "request", (asked, asked))
    with client:
        seen = client.get("/api/update", headers=HOST).json()
        assert seen["busy"] is blocks
        assert (updates.folder / requests.UPLOAD).exists()
        if blocks:
            assert client.post("/api/update/check", headers=HOST).status_code == 409
            return
        assert seen["status"]["state"] == "failed"
        assert "restarting the tray carries it out" in seen["status"]["last"]
        assert client.post("/api/update/check", headers=HOST).status_code == 202
        assert client.get("/api/update", headers=HOST).json()["busy"] is True
    assert requests.take(updates.state) == "check"


@pytest.mark.parametrize(
    ("lines", "ago", "blocks"),
    [
        (["setting up v1.1.0 ..."], 20 * 60, True),  # a long set-up on a Pi
        (["setting up v1.1.0 ..."], 3600, False),  # killed by a power cut
        ([], 60, True),  # just started (an upload being copied)
        ([], 10 * 60, False),  # a run that found nothing asked, and never said so
    ],
)
def test_a_root_update_that_went_quiet_no_longer_blocks(folders, lines, ago, blocks):
    """A run that left "running" behind must not keep the page from asking for ever."""
    client, _ = serve(folders, root=True)
    (folders / "root-status.json").write_text(
        json.dumps({"state": "running", "lines": lines, "at": time.time() - ago})
    )
    with client:
        shown = client.get("/api/update", headers=HOST).json()["status"]
        res = client.post("/api/update/check", headers=HOST)
    assert res.status_code == (409 if blocks else 202)
    if blocks:
        assert shown["state"] == "running"
    elif lines:
        assert shown["state"] == "failed" and "stopped without saying" in shown["last"]
    else:
        assert shown is None  # nothing was ever said: nothing to show


def test_in_a_checkout_the_update_runs_as_a_child_one_at_a_time(folders):
    client, updates = serve(folders, home_script=SLOW_CHILD)
    with client:
        assert client.post("/api/update/check", headers=HOST).status_code == 202
        deadline = time.monotonic() + 30
        while updates.status() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        seen = client.get("/api/update", headers=HOST).json()
        assert seen["busy"] is True and seen["status"]["lines"] == ["looking"]
        refused = client.post("/api/update/install", headers=HOST)
        assert refused.status_code == 409 and "already running" in refused.json()["error"]
        (folders / "home" / "tinker.go").touch()
        while client.get("/api/update", headers=HOST).json()["busy"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        seen = client.get("/api/update", headers=HOST).json()
        assert seen["status"]["state"] == "done" and seen["status"]["last"] == "nothing newer"
        assert client.post("/api/update/check", headers=HOST).status_code == 202


def test_a_child_that_ends_without_a_word_is_a_failure_with_its_last_line(folders):
    client, _ = serve(folders, home_script="#!/bin/sh\necho 'no python here' >&2\nexit 3\n")
    with client:
        assert client.post("/api/update/install", headers=HOST).status_code == 202
        deadline = time.monotonic() + 30
        while client.get("/api/update", headers=HOST).json()["busy"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        status = client.get("/api/update", headers=HOST).json()["status"]
    assert status["state"] == "failed"
    assert status["last"] == ("the update ended before it finished (exit status 3): no python here")


def test_a_checkout_without_its_tinker_says_so(folders):
    client, _ = serve(folders)  # no `tinker` in home
    with client:
        res = client.post("/api/update/check", headers=HOST)
    assert res.status_code == 503 and res.json()["error"].startswith("the update could not start")


def test_an_update_file_is_kept_and_asked_for(folders):
    client, updates = serve(folders, root=True)
    data = update_file_bytes()
    with client:
        res = client.post("/api/update/file", headers=HOST, content=data)
        assert res.status_code == 202, res.text
        assert (updates.folder / requests.UPLOAD).read_bytes() == data
        assert requests.take(updates.state) == "install-file"
        assert not (updates.folder / ".upload.part").exists()
        (folders / "root-status.json").write_text(json.dumps({"state": "done", "lines": []}))
        client.get("/api/update", headers=HOST)  # root has copied it: the card gets it back
    assert not (updates.folder / requests.UPLOAD).exists()


def test_an_update_file_needs_room_on_the_card(folders):
    client, updates = serve(folders, root=True, free=lambda where: 30_000_000)
    with client:
        res = client.post("/api/update/file", headers=HOST, content=update_file_bytes())
    assert res.status_code == 413
    assert res.json()["error"] == (
        "not enough room on the card for this update file: it needs about 67 MB and 30 MB are free"
    )
    assert not (updates.folder / requests.UPLOAD).exists()
    assert not (updates.folder / "request").exists()


@pytest.mark.parametrize(
    ("headers", "body", "status", "says"),
    [
        ({"Content-Length": str(MAX_FILE + 1)}, b"", 413, "at most 512 MB; this one is 513 MB"),
        ({}, b"", 400, "the body is empty"),
        ({}, b"\x89PNG a photo" * 100, 415, "not an update file"),
        ({}, b"short", 415, "not an update file"),
        ({"Content-Length": "12x"}, b"", 400, "not a number of bytes"),
    ],
    ids=["too-large", "empty", "a-photo", "short", "bad-length"],
)
def test_a_bad_upload_is_a_sentence_and_nothing_is_kept(folders, headers, body, status, says):
    client, updates = serve(folders, root=True)
    with client:
        res = client.post("/api/update/file", headers={**HOST, **headers}, content=body)
    assert res.status_code == status, res.text
    assert says in res.json()["error"]
    assert not (updates.folder / requests.UPLOAD).exists()
    assert not (updates.folder / ".upload.part").exists()
    assert not (updates.folder / "request").exists()


def test_an_upload_without_its_length_is_refused(folders):
    client, _ = serve(folders, root=True)

    def chunks():
        yield update_file_bytes()

    with client:
        res = client.post("/api/update/file", headers=HOST, content=chunks())
    assert res.status_code == 411 and "Content-Length" in res.json()["error"]


def test_an_upload_while_an_update_runs_is_refused(folders):
    client, updates = serve(folders, root=True)
    with client:
        assert client.post("/api/update/install", headers=HOST).status_code == 202
        res = client.post("/api/update/file", headers=HOST, content=update_file_bytes())
    assert res.status_code == 409
    assert not (updates.folder / requests.UPLOAD).exists()


def test_the_page_takes_the_largest_file_the_update_reads():
    assert MAX_FILE == bundle.MAX_FILE


@pytest.mark.parametrize(
    ("status", "version", "installed"),
    [
        (None, "v1.0.0 (0123456789ab)", None),
        ({"state": "running", "running": "v1.1.0 (ba98)"}, "v1.0.0 (0123)", None),
        ({"state": "done", "running": "v1.1.0 (ba98)"}, "v1.0.0 (0123)", "v1.1.0 (ba98)"),
        ({"state": "done", "running": "v1.1.0 (ba98)"}, "v1.1.0 (ba98)", None),
        ({"state": "done", "running": "v1.1.0 (ba98)"}, "v1.1.0", None),  # a checkout at its tag
        ({"state": "done", "running": "the commit 0123"}, "commit 0123", None),  # a check
        ({"state": "done", "running": "v1.1.0 (ba98)"}, None, "v1.1.0 (ba98)"),
        ({"state": "failed", "running": "v1.1.0 (ba98)"}, "v1.0.0 (0123)", None),
    ],
)
def test_what_runs_from_the_next_start(status, version, installed):
    assert installed_not_running(status, version) == installed


ROUTES = ["/api/update", "/api/update/check", "/api/update/install", "/api/update/file"]
TAR_HEAD = update_file_bytes()[:600]


@pytest.mark.slow
@pytest.mark.parametrize("root", [True, False], ids=["root-unit", "checkout"])
def test_no_update_route_answers_bad_input_with_a_5xx(folders, root):
    """Every method, body and length, as the host and not: a 4xx sentence or a 2xx, never a
    5xx; the checkout's update is a child that ends at once (asked again and again)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    client, _ = serve(folders, root=root, home_script="#!/bin/sh\nexit 0\n")
    body = st.one_of(
        st.binary(max_size=700),
        st.binary(max_size=300).map(lambda tail: TAR_HEAD + tail),
        st.sampled_from([b"{}", b"[]", b'{"action": "install"}', b"null", b"{" * 40]),
    )
    length = st.one_of(
        st.none(), st.sampled_from(["0", "-1", "1e9", "99999999999999999999", str(MAX_FILE + 1)])
    )

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(
        method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
        path=st.sampled_from(ROUTES),
        data=body,
        length=length,
        host=st.booleans(),
    )
    def one(method, path, data, length, host):
        headers = {**(HOST if host else {}), **({"Content-Length": length} if length else {})}
        res = client.request(method, path, headers=headers, content=data)
        assert res.status_code < 500, (method, path, data[:40], length, res.text[:300])
        if res.status_code >= 400:
            assert res.json()["error"], res.text

    with client:
        one()


def test_the_services_own_updates_live_beside_its_journal(folders, monkeypatch):
    """Without `app.state.updates`, the first ask makes the service's own: its state folder is
    the journal's, `./tinker`'s TINKER_TRAY_HOME its checkout, and the root unit's files may be
    named elsewhere (as the browser tests do)."""
    monkeypatch.setenv("TINKER_TRAY_HOME", str(folders / "home"))
    monkeypatch.setenv("TINKER_TRAY_UPDATE_UNIT", str(folders / "unit.path"))
    monkeypatch.setenv("TINKER_TRAY_UPDATE_STATUS", str(folders / "root-status.json"))
    journal = Journal(folders / "state" / "journal.sqlite3")
    OPENED.append(journal)
    app = create_app(journal, Bus(), TOKEN)
    with TestClient(app) as client:
        assert client.get("/api/update", headers=HOST).json()["mode"] == "checkout"
        (folders / "unit.path").touch()
        assert client.get("/api/update", headers=HOST).json()["mode"] == "root"
        assert client.post("/api/update/check", headers=HOST).status_code == 202
    made: Updates = app.state.updates
    assert (made.state, made.home) == (folders / "state", folders / "home")
    assert requests.take(folders / "state") == "check"


def _half_sent(port: int, data: bytes) -> socket.socket:
    """An upload whose header promises more than its body sends: what a phone leaves behind
    when it loses the Wi-Fi half-way."""
    conn = socket.create_connection(("127.0.0.1", port))
    conn.sendall(
        b"POST /api/update/file HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + f"X-Table-Token: {TOKEN}\r\nContent-Length: {len(data) * 2}\r\n\r\n".encode()
        + data
    )
    return conn


@pytest.mark.parametrize("how", ["stalls", "goes-away"])
def test_a_half_sent_upload_is_dropped_and_the_next_is_taken(folders, how):
    """Real uvicorn, a raw socket: the upload either stops sending (dropped after `stall_s`:
    408) or closes; either way nothing is kept, and the next upload is not told to wait."""
    client, updates = serve(folders, root=True)
    updates.stall_s = 0.5
    server = ServerThread(client.app, bind()).start()
    try:
        conn = _half_sent(server.port, update_file_bytes())
        if how == "stalls":
            conn.settimeout(30)
            assert conn.recv(200).startswith(b"HTTP/1.1 408 ")
        else:
            conn.close()
        deadline = time.monotonic() + 30
        while updates.busy() or (updates.folder / ".upload.part").exists():
            assert time.monotonic() < deadline, "the half-sent upload still holds the update"
            time.sleep(0.05)
        conn.close()
        data = update_file_bytes()
        res = httpx.post(
            f"http://127.0.0.1:{server.port}/api/update/file", headers=HOST, content=data
        )
        assert res.status_code == 202, res.text
        assert (updates.folder / requests.UPLOAD).read_bytes() == data
    finally:
        server.stop()


def test_the_report_says_how_a_tray_without_the_maintainers_key_is_updated(folders):
    """No allowed-signers file: every check would be refused, so the report says how this tray
    is updated instead (the page shows it in place of the buttons); with the file, nothing."""
    keys = folders / "allowed_signers"
    for root in (False, True):
        updates = Updates(folders / "state", home=folders / "home", signers=keys,
                          unit=folders / ("unit" if root else "none"))  # fmt: skip
        (folders / "unit").touch()
        said = updates.report()["how"]
        assert said is not None and ("flashing a newer card" if root else "git pull") in said
    keys.write_text("x\n")
    assert Updates(folders / "state", signers=keys).report()["how"] is None
    assert Updates(folders / "state").report()["how"] is None  # not looked at
