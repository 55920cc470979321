"""The page's Update from an origin on a web host: the release's own update file, published on
its release page, hands the set-up its wheels and compiled engine; without it (none published,
or one the tray refuses) the update goes on from the origin as before. The origin is served by
git's plain-HTTP ("dumb") protocol from a real HTTP server on loopback, as the image's check
serves it to qemu."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.update.helpers import Bench, git, make_bench
from tests.update.test_handed_engine import COMPILED, build_of, needs_compiled, pack

pytestmark = pytest.mark.slow


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[Bench, Path]]:
    """(the bench, its release page's download folder) with the tray's origin on HTTP."""
    bench = make_bench(tmp_path)
    web = tmp_path / "web"
    web.mkdir()
    (web / "origin.git").symlink_to(bench.origin / ".git")
    handler = functools.partial(Quiet, directory=str(web))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    git(
        bench.tray,
        "remote",
        "set-url",
        "origin",
        f"http://127.0.0.1:{server.server_address[1]}/origin.git",
    )
    try:
        yield bench, web / "origin" / "releases" / "download"
    finally:
        server.shutdown()
        server.server_close()


def release(bench: Bench, tag: str) -> None:
    bench.release(tag)
    git(bench.origin, "update-server-info")


def publish(page: Path, tag: str, file: Path) -> None:
    (page / tag).mkdir(parents=True)
    file.rename(page / tag / f"tinker-tray-{tag}.update")


def test_the_published_update_file_hands_its_engine_to_the_pages_update(served):
    needs_compiled()
    bench, page = served
    release(bench, "v1.1.0")
    status, file = pack(bench, "v1.1.0", COMPILED)
    assert status == 0
    publish(page, "v1.1.0", file)
    done = bench.update(TINKER_TRAY_PURE="0")
    assert done.returncode == 0, done.stderr
    assert "tinker-tray update: downloaded the update file http://" in done.stderr
    assert "the update file is signed and whole: v1.1.0" in done.stderr
    (slot,) = (bench.tray / ".releases" / "slots").iterdir()
    assert build_of(slot) == "compiled"
    assert not list((bench.tray / ".releases").glob("incoming-*"))  # unpacked, then removed


def test_without_a_published_file_the_update_goes_on_from_the_origin(served):
    bench, _ = served
    release(bench, "v1.1.0")
    done = bench.update()
    assert done.returncode == 0, done.stderr
    assert "(none is published): the set-up fetches what it needs itself" in done.stderr
    assert bench.version().startswith("tinker-tray v1.1.0 (")


def test_a_published_file_the_tray_refuses_is_not_used(served):
    bench, page = served
    release(bench, "v1.1.0")
    wheels = bench.origin.parent / "wheels"
    wheels.mkdir()
    from updater.bundle import pack as pack_file

    file = bench.origin.parent / "stranger.update"
    pack_file(bench.origin, "v1.1.0", bench.stranger, wheels, file, lambda line: None)
    publish(page, "v1.1.0", file)
    done = bench.update()
    assert done.returncode == 0, done.stderr
    refused = "the published update file was refused: tinker-tray-v1.1.0.update is not signed"
    assert f"{refused} by a key this tray trusts" in done.stderr
    assert bench.version().startswith("tinker-tray v1.1.0 (")
    assert not list((bench.tray / ".releases").glob("incoming-*"))
