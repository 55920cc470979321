"""The published update file, fetched for the page's Update: its address from the origin's, and
the download bounded in size and time before a byte of it is believed (a real HTTP server on
loopback answers as a release host would, or as a hostile one)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from updater import download


@pytest.mark.parametrize(
    ("origin", "url"),
    [
        ("https://github.com/tinker-tray/tinker-tray.git", "https://github.com/tinker-tray/tinker-tray"),
        ("https://github.com/tinker-tray/tinker-tray", "https://github.com/tinker-tray/tinker-tray"),
        ("https://github.com/tinker-tray/tinker-tray/", "https://github.com/tinker-tray/tinker-tray"),
        ("git@github.com:tinker-tray/tinker-tray.git", "https://github.com/tinker-tray/tinker-tray"),
        ("ssh://git@codeberg.org/fae/tray.git", "https://codeberg.org/fae/tray"),
        ("ssh://git@gitea.local:2222/fae/tray.git", "https://gitea.local/fae/tray"),
        ("http://10.0.2.2:18090/tinker-tray.git", "http://10.0.2.2:18090/tinker-tray"),
        ("https://user:secret@git.example.org/a/b.git", "https://git.example.org/a/b"),
    ],
)  # fmt: skip
def test_a_release_file_lives_on_its_origins_release_page(origin, url):
    assert download.address(origin, "v1.3.0") == (
        f"{url}/releases/download/v1.3.0/tinker-tray-v1.3.0.update"
    )


@pytest.mark.parametrize(
    "origin", ["", "/srv/git/tinker-tray.git", "../origin", "file:///srv/tray.git", "https://host/"]
)
def test_an_origin_that_is_no_web_host_has_no_release_file(origin):
    assert download.address(origin, "v1.3.0") is None


class Host(http.server.BaseHTTPRequestHandler):
    """Answers as `behaviour` says: the file, a 404, a lie about its length, a stall."""

    behaviour = "file"
    body = b"an update file" * 1000

    def do_GET(self) -> None:
        if self.behaviour == "missing":
            self.send_error(404)
            return
        self.send_response(200)
        claimed = {"short": len(self.body) * 2, "huge": 10**12}.get(self.behaviour, len(self.body))
        if self.behaviour != "no length":
            self.send_header("Content-Length", str(claimed))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def host() -> Iterator[tuple[str, type[Host]]]:
    handler = type("ThisHost", (Host,), {})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield (
            f"http://127.0.0.1:{server.server_address[1]}/r/releases/download/v1/x.update",
            handler,
        )
    finally:
        server.shutdown()
        server.server_close()


def fetched(url: str, into: Path, **how: object) -> tuple[Path | None, list[str]]:
    said: list[str] = []
    return download.fetch(url, into, said.append, **how), said  # type: ignore[arg-type]


def test_a_published_file_is_downloaded_whole(host, tmp_path):
    url, handler = host
    path, said = fetched(url, tmp_path)
    assert path is not None and path.read_bytes() == handler.body
    assert said[-1].startswith(f"downloaded the update file {url} (0.0 MB in ")


@pytest.mark.parametrize("behaviour", ["file", "no length"])
def test_a_length_told_or_not_is_read_to_the_end(host, tmp_path, behaviour):
    url, handler = host
    handler.behaviour = behaviour
    path, _ = fetched(url, tmp_path)
    assert path is not None and path.read_bytes() == handler.body


@pytest.mark.parametrize(
    ("behaviour", "sentence"),
    [
        ("missing", "(none is published): the set-up fetches what it needs itself"),
        ("huge", "was not taken: it is more than 537 MB, more than an update file can be"),
        ("short", "was cut short (14000 of 28000 bytes)"),
    ],
)
def test_a_file_not_there_too_large_or_cut_short_leaves_nothing(
    host, tmp_path, behaviour, sentence
):
    url, handler = host
    handler.behaviour = behaviour
    path, said = fetched(url, tmp_path)
    assert path is None and list(tmp_path.iterdir()) == []
    assert sentence in said[-1] and url in said[-1]


def test_a_host_that_cannot_be_reached_is_one_line(tmp_path):
    path, said = fetched("http://127.0.0.1:9/r/releases/download/v1/x.update", tmp_path)
    assert path is None and "Connection refused" in said[-1]


def test_a_card_without_room_for_it_takes_nothing(host, tmp_path, mocker):
    url, _ = host
    mocker.patch("updater.room.free", return_value=10_000_000)
    path, said = fetched(url, tmp_path)
    assert path is None and list(tmp_path.iterdir()) == []
    assert "not enough room on the card for the update file" in said[-1]


def test_a_download_past_its_deadline_is_given_up(host, tmp_path):
    url, handler = host
    handler.behaviour = "no length"
    ticks = iter([0.0, *[download.DEADLINE + 1.0] * 100])
    path, said = fetched(url, tmp_path, clock=lambda: next(ticks))
    assert path is None and list(tmp_path.iterdir()) == []
    assert said[-1].endswith("was not taken: it took more than 20 minutes")
