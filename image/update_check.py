"""The tray's update on its image under qemu, as a family meets it: the host's page's Update
button moving to a newer signed release from the origin, an update file uploaded through the
page, then one on the boot partition with the network cut; the games and the paired phones
kept (issues 38 and 50).

    sudo ./tinker image check IMG --update --release-key KEY [--port 18080] [--git-port 18090]

IMG must be built with `--trust FILE` (FILE naming KEY's public half) and `--origin
http://10.0.2.2:GIT_PORT/tinker-tray.git`: qemu's user network shows the host's loopback to the
guest as 10.0.2.2. The check serves there, as git's "dumb" HTTP, a bare clone of this checkout's
HEAD with signed releases on it (each one more commit, tagged and signed with KEY as a
maintainer signs a release: docs/release.md), and each release's update file where a release
host publishes it (`tinker-tray/releases/download/TAG/tinker-tray-TAG.update`). Each file is
packed as the release workflow packs it (`tinker-tray release pack`: the wheels for the guest's
Python from PyPI, and the compiled engine, here the image's own, taken from the guest, where it
was built from the same engine sources). The first release comes by the page's Update, the
second as an uploaded file, the third on the powered-off card's boot partition; that boot has
its network restricted (qemu's `restrict=on`: the guest reaches nothing outside, the forwarded
page still answers).

Printed: each update's seconds from the press (or the power on) to the page serving the new
release, the versions, the slots' room on the card, the journal's games and entries and the
host's token before and after, and one line of the three times.
"""

from __future__ import annotations

import base64
import functools
import json
import random
import threading
import time
import urllib.request
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from image.emulated import (
    ICOUNT,
    ROOT,
    WIFI,
    BenchError,
    Card,
    Guest,
    Play,
    Qemu,
    first_boot_of,
    http,
    run,
)

REPOSITORY = "tinker-tray.git"
UPDATE_WAIT = 3 * 3600.0
"""An update's set-up under emulation: a venv from PyPI or wheels, at a tenth of a Pi's pace."""


class Quiet(SimpleHTTPRequestHandler):
    """Plain files, no log line per request (git fetches one object at a time)."""

    def log_message(self, format: str, *args: object) -> None:
        return


def serve(folder: Path, port: int) -> ThreadingHTTPServer:
    handler = functools.partial(Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


SIGNING = ("-c", "gpg.format=ssh", "-c", "user.name=release bench",
           "-c", "user.email=release@tinker-tray.invalid")  # fmt: skip


def release(source: Path, tag: str, key: Path) -> str:
    """One more commit on `source`, tagged `tag` and signed with `key`; returns the commit."""
    (source / "UPDATED-BY-BENCH").write_text(f"image/update_check.py: {tag}\n")
    run("git", "-C", source, "add", "UPDATED-BY-BENCH")
    run("git", "-C", source, *SIGNING, "commit", "--quiet", "-m", f"bench: release {tag}")
    run("git", "-C", source, *SIGNING, "-c", f"user.signingkey={key}",
        "tag", "-s", tag, "-m", f"tinker-tray {tag}")  # fmt: skip
    return run("git", "-C", source, "rev-parse", "HEAD").strip()


def origin(work: Path) -> tuple[Path, Path]:
    """The origin the image pulls from: this checkout's committed history (the image's commit
    is in it), served as a bare clone. Returns the source clone and the served folder."""
    source = work / "upstream"
    run("git", "clone", "--quiet", ROOT, source)
    run("git", "-C", source, "checkout", "--quiet", "-B", "main")
    return source, work / "served"


Packing = Callable[[str, Path], Path]
"""Packs a release's update file (its tag, the file): `tinker-tray release pack`."""


def publish(source: Path, served: Path, tag: str, key: Path, packed: Packing) -> Path:
    """`tag` released on `source`, the served clone brought up to it, and its update file
    where a release host publishes it; returns the file."""
    release(source, tag, key)
    bare = served / REPOSITORY
    if not bare.exists():
        run("git", "clone", "--quiet", "--bare", source, bare)
    run("git", "-C", source, "push", "--quiet", "--tags", bare, "main")
    run("git", "-C", bare, "update-server-info")
    page = served / REPOSITORY.removesuffix(".git") / "releases" / "download" / tag
    page.mkdir(parents=True, exist_ok=True)
    return packed(tag, page / f"tinker-tray-{tag}.update")


def packer(source: Path, key: Path, python: str, engine: Path | None) -> Packing:
    def pack(tag: str, out: Path) -> Path:
        extra = ["--engine", str(engine)] if engine else []
        run(ROOT / "tinker", "release", "pack", tag, "--key", key, "--out", out,
            "--repo", source, "--python", python, *extra)  # fmt: skip
        return out

    return pack


def guest_engine(guest: Guest, work: Path) -> Path | None:
    """The image's compiled engine, copied from the guest (built there from the image's engine
    sources: `release pack` checks they are the release's, and refuses it otherwise)."""
    done = guest.ssh("root@127.0.0.1", "tar -C /opt/tinker-tray/build -cf - mypyc | base64 -w0",
                     timeout=300)  # fmt: skip
    if done.returncode != 0 or not done.stdout:
        return None
    archive = work / "engine.tar"
    archive.write_bytes(base64.b64decode(done.stdout))
    (work / "engine").mkdir()
    run("tar", "-C", work / "engine", "-xf", archive)
    return work / "engine" / "mypyc"


def journal(play: Play) -> tuple[int, int]:
    status, body = http(play.port, "/api/games?limit=200", headers=play.host(), timeout=30)
    if status != 200:
        raise BenchError(f"/api/games answered {status} to the host's token")
    games = json.loads(body)["games"]
    return len(games), sum(int(g["entries"]) for g in games)


def page(play: Play) -> dict:
    status, body = http(play.port, "/api/update", headers=play.host(), timeout=30)
    return json.loads(body) if status == 200 else {}


def wait_for(play: Play, until: str, what: str, guest: Guest) -> dict:
    """Poll the page's report until its version starts with `until` (the page comes back),
    printing each new line of the update's progress; on a failure, the guest's own log of it."""
    deadline = time.monotonic() + UPDATE_WAIT
    shown: list[str] = []
    while time.monotonic() < deadline:
        report = page(play)
        lines = (report.get("status") or {}).get("lines") or []
        for line in fresh(shown, lines):
            print(f"  | {line}", flush=True)
        shown = list(lines)
        if str(report.get("version", "")).startswith(until):
            return report
        if (report.get("status") or {}).get("state") == "failed":
            log = guest.ssh("root@127.0.0.1", "journalctl --no-pager -o cat -n 40 "
                            "-u tinker-tray-update -u tinker-tray-update-card")  # fmt: skip
            print(log.stdout, flush=True)
            raise BenchError(f"{what} failed: {report['status'].get('last')}")
        time.sleep(10)
    raise BenchError(f"{what}: the page did not show {until} within {UPDATE_WAIT:.0f} s")


def fresh(shown: list[str], lines: list[str]) -> list[str]:
    """The lines of the report not printed yet: the report keeps its last lines only, so the
    window may have slid by some of those already shown."""
    for start in range(len(shown) + 1):
        overlap = shown[start:]
        if lines[: len(overlap)] == overlap:
            return lines[len(overlap) :]
    return lines


UNITS = ("-u", "tinker-tray-update", "-u", "tinker-tray-update-card", "-u", "tinker-tray")


def cursor(guest: Guest) -> str:
    """Where the guest's journal stands now, to print what an update wrote after it."""
    done = guest.ssh("root@127.0.0.1", "journalctl -n 0 --show-cursor --no-pager")
    return done.stdout.strip().rpartition("-- cursor: ")[2]


def timeline(guest: Guest, after: str) -> None:
    """The update's own log with the guest's seconds since its boot: where its minutes go."""
    where = f"--after-cursor='{after}'" if after else "-b"
    done = guest.ssh("root@127.0.0.1", f"journalctl --no-pager -o short-monotonic {where} "
                     + " ".join(UNITS))  # fmt: skip
    stamped = [line for line in done.stdout.splitlines() if line.startswith("[")]
    first = float(stamped[0][1:].split("]")[0]) if stamped else 0.0
    for line in stamped:
        stamp, _, text = line[1:].partition("]")
        print(f"  t+{float(stamp) - first:6.1f} s {text.split(': ', 1)[-1]}", flush=True)


def slots_room(guest: Guest) -> str:
    done = guest.ssh(
        "root@127.0.0.1", "du -sm /opt/tinker-tray/.releases /opt/tinker-tray; df -m /"
    )
    return " ".join(done.stdout.split()) if done.returncode == 0 else done.stderr.strip()


def check(
    image: Path, work: Path, running: list[Qemu], *, key: Path, port: int, git_port: int
) -> int:
    """The page's Update, an uploaded update file, then one on the card with the network cut:
    each keeps every game, and the tray ends on the release it was handed."""
    card, qemu, guest, play = first_boot(image, work, running, port)
    before = journal(play)
    print(f"before: {page(play).get('version')}; journal {before[0]} games, {before[1]} entries")
    python = guest.ssh("root@127.0.0.1", "python3 -c 'import sys; print(sys.version[:4])'")
    engine = guest_engine(guest, work)
    carried = "the image's, from the guest" if engine else "none (the tray compiles it)"
    print(f"the releases' compiled engine: {carried}")
    source, served = origin(work)
    packed = packer(source, key, python.stdout.strip() or "3.13", engine)
    server = serve(served, git_port)
    timings: dict[str, float] = {}
    try:
        publish(source, served, "v90.0.1", key, packed)
        checks = page_update(play, guest, "v90.0.1", timings)
    finally:
        server.shutdown()
    after = journal(play)
    print(f"journal after: {after[0]} games, {after[1]} entries; slots: {slots_room(guest)}")
    checks["the games are kept (page update)"] = after == before
    checks["the host's token still works"] = True  # journal() asked with it
    checks.update(
        upload_update(play, guest, publish(source, served, "v90.0.2", key, packed), timings)
    )
    checks.update(
        file_update(
            card, qemu, guest, play, publish(source, served, "v90.0.3", key, packed), work, timings
        )
    )
    final = journal(play)
    print(f"journal after: {final[0]} games, {final[1]} entries; slots: {slots_room(guest)}")
    checks["the games are kept (update files)"] = final == before
    for name, held in checks.items():
        print(f"  {'ok  ' if held else 'FAIL'} {name}")
    print("update: " + ", ".join(f"{what} {seconds:.0f} s" for what, seconds in timings.items())
          + f" (emulated, {' '.join(ICOUNT)})")  # fmt: skip
    return 0 if all(checks.values()) else 1


def first_boot(
    image: Path, work: Path, running: list[Qemu], port: int
) -> tuple[Card, Qemu, Guest, Play]:
    """The image's first boot on a copy, reachable over SSH with a key of the check's own, and
    a table game played on it (what an update must keep)."""
    card = Card.copy_of(image, work)
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", work / "bench_key")
    card.put("authorized_keys", (work / "bench_key.pub").read_text())
    card.put("tinker-tray-wifi.txt", WIFI)
    qemu = Qemu(card, port, port + 1, ICOUNT)
    running.append(qemu)
    seconds, _ = first_boot_of(qemu, work / "console-1.log")
    print(f"image: {image}; page 200 after {seconds:.0f} s (first boot)")
    guest = Guest(qemu.ssh_port, work / "bench_key")
    token = guest.facts().get("token", "")
    # An emulator-side fix, on qemu's copy only: this workplace's network re-signs TLS with a
    # certificate authority of its own, which the host trusts and a family's tray never meets;
    # the guest is given the host's bundle so that its set-up can reach PyPI here.
    bundle = Path("/etc/ssl/certs/ca-certificates.crt").read_text()
    guest.ssh("root@127.0.0.1", "cat > /etc/ssl/certs/ca-certificates.crt", script=bundle)
    play = Play(qemu.port, token, random.Random(1))
    play.table(time.monotonic() + 20)
    return card, qemu, guest, play


def page_update(play: Play, guest: Guest, tag: str, timings: dict[str, float]) -> dict[str, bool]:
    """The page's check and Update, from the press to the page serving `tag`."""
    port, checks = play.port, {}
    started = time.monotonic()
    asked = http(port, "/api/update/check", {}, play.host())[0]
    report = wait_for_check(play)
    checks["the page saw the signed release"] = asked == 202 and report == tag
    print(f"the page's check: {report} available ({time.monotonic() - started:.0f} s)")
    started, mark = time.monotonic(), cursor(guest)
    http(port, "/api/update/install", {}, play.host())
    shown = wait_for(play, tag, "the page's update", guest)
    timeline(guest, mark)
    took = timings["the page's Update"] = time.monotonic() - started
    print(f"the page's Update: now {shown.get('version')} after {took:.0f} s")
    checks["the page's Update moved the tray to the release"] = True
    return checks


def upload_update(
    play: Play, guest: Guest, file: Path, timings: dict[str, float]
) -> dict[str, bool]:
    """The update file sent through the page's upload, from the press to serving its release."""
    tag = file.name.removeprefix("tinker-tray-").removesuffix(".update")
    started, mark = time.monotonic(), cursor(guest)
    request = urllib.request.Request(
        f"http://127.0.0.1:{play.port}/api/update/file", data=file.read_bytes(), method="POST",
        headers={**play.host(), "Content-Type": "application/octet-stream",
                 "Origin": f"http://127.0.0.1:{play.port}"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=600) as answer:
        status = answer.status
    shown = wait_for(play, tag, "the uploaded update file", guest)
    timeline(guest, mark)
    took = timings["an uploaded update file"] = time.monotonic() - started
    print(f"the uploaded file: answered {status}, now {shown.get('version')} after {took:.0f} s")
    return {"the page took the uploaded update file": status == 202}


def file_update(
    card: Card,
    qemu: Qemu,
    guest: Guest,
    play: Play,
    update_file: Path,
    work: Path,
    timings: dict[str, float],
) -> dict[str, bool]:
    """A newer release's update file, put on the powered-off card's boot partition and taken
    at the next boot with the network cut."""
    offline = update_file.name.removeprefix("tinker-tray-").removesuffix(".update")
    guest.ssh("root@127.0.0.1", "systemctl poweroff", timeout=30)
    time.sleep(20)
    qemu.cut_power()
    run("mcopy", "-o", "-i", card.fat(), update_file, f"::/{update_file.name}")
    qemu.restrict = True  # the network cut: the guest reaches nothing outside
    started = time.monotonic()
    seconds, _ = first_boot_of(qemu, work / "console-2.log")
    print(f"boot with the update file, network cut: page 200 after {seconds:.0f} s")
    shown = wait_for(play, offline, "the card's update file", guest)
    taken = f"{update_file.name}.done"
    for _ in range(30):  # renamed once the update has finished (after the page serves it)
        if taken in guest.ssh("root@127.0.0.1", "ls /boot/firmware").stdout.split():
            break
        time.sleep(5)
    took = timings["the card's update file from power on"] = time.monotonic() - started
    timeline(guest, "")
    timings["of it after the page answered"] = took - seconds
    print(f"the card's file: now {shown.get('version')} after {took:.0f} s from power on")
    listed = guest.ssh("root@127.0.0.1", "ls /boot/firmware").stdout.split()
    return {"the update file was taken once (.done)": taken in listed}


def wait_for_check(play: Play) -> str | None:
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        status = page(play).get("status") or {}
        if status.get("state") in ("done", "failed"):
            return status.get("available")
        time.sleep(5)
    return None
