"""The tray's update on its image under qemu, as a family meets it: the host's page's Update
button moving to a newer signed release from the origin, then an update file on the boot
partition with the network cut; the games and the paired phones kept (issue 38).

    sudo ./tinker image check IMG --update --release-key KEY [--port 18080] [--git-port 18090]

IMG must be built with `--trust FILE` (FILE naming KEY's public half) and `--origin
http://10.0.2.2:GIT_PORT/tinker-tray.git`: qemu's user network shows the host's loopback to the
guest as 10.0.2.2. The check serves a bare clone of this checkout there as git's "dumb" HTTP, its
image's commit and one more, tagged and signed with KEY as a maintainer signs a release
(docs/release.md). The second release comes as an update file (`tinker-tray release pack`: the
wheels for the guest's Python from PyPI), copied onto the powered-off card's boot partition; the
card boots again with its network restricted (qemu's `restrict=on`: the guest reaches nothing
outside, the forwarded page still answers).

Printed: each update's seconds, the version before and after (the page's own report), the slots'
room on the card, the journal's games and entries and the host's token before and after.
"""

from __future__ import annotations

import functools
import json
import random
import threading
import time
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


def origin(work: Path, commit: str, key: Path) -> tuple[Path, str]:
    """The origin the image pulls from: this checkout's history up to the image's commit, one
    signed release more. Returns the source clone and the release's tag."""
    source = work / "upstream"
    run("git", "clone", "--quiet", "--no-checkout", ROOT, source)
    run("git", "-C", source, "checkout", "--quiet", "-B", "main", commit)
    tag = "v90.0.1"
    release(source, tag, key)
    bare = work / "served" / REPOSITORY
    run("git", "clone", "--quiet", "--bare", source, bare)
    run("git", "-C", bare, "update-server-info")
    return source, tag


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
        for line in lines[len(shown) :] if lines[: len(shown)] == shown else lines:
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


def slots_room(guest: Guest) -> str:
    done = guest.ssh(
        "root@127.0.0.1", "du -sm /opt/tinker-tray/.releases /opt/tinker-tray; df -m /"
    )
    return " ".join(done.stdout.split()) if done.returncode == 0 else done.stderr.strip()


def check(
    image: Path, work: Path, running: list[Qemu], *, key: Path, port: int, git_port: int
) -> int:
    """The page's Update, then an update file on the card with the network cut: each keeps
    every game, and the tray ends on the release it was handed."""
    card, qemu, guest, play = first_boot(image, work, running, port)
    before = journal(play)
    commit = guest.ssh("root@127.0.0.1", "git -C /opt/tinker-tray rev-parse HEAD").stdout.strip()
    print(f"before: {page(play).get('version')}; journal {before[0]} games, {before[1]} entries")
    source, tag = origin(work, commit, key)
    checks = page_update(play, guest, tag, serve(work / "served", git_port))
    after = journal(play)
    print(f"journal after: {after[0]} games, {after[1]} entries; slots: {slots_room(guest)}")
    checks["the games are kept (page update)"] = after == before
    checks["the host's token still works"] = True  # journal() asked with it
    checks.update(file_update(card, qemu, guest, play, source, key, work))
    final = journal(play)
    print(f"journal after: {final[0]} games, {final[1]} entries; slots: {slots_room(guest)}")
    checks["the games are kept (update file)"] = final == before
    for name, held in checks.items():
        print(f"  {'ok  ' if held else 'FAIL'} {name}")
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


def page_update(play: Play, guest: Guest, tag: str, server: ThreadingHTTPServer) -> dict[str, bool]:
    """The page's check and Update, from the press to the page serving `tag` (the release
    `server` serves, stopped after)."""
    port, checks = play.port, {}
    try:
        started = time.monotonic()
        asked = http(port, "/api/update/check", {}, play.host())[0]
        report = wait_for_check(play)
        checks["the page saw the signed release"] = asked == 202 and report == tag
        print(f"the page's check: {report} available ({time.monotonic() - started:.0f} s)")
        started = time.monotonic()
        http(port, "/api/update/install", {}, play.host())
        shown = wait_for(play, tag, "the page's update", guest)
        print(f"the page's Update: now {shown.get('version')} after "
              f"{time.monotonic() - started:.0f} s")  # fmt: skip
        checks["the page's Update moved the tray to the release"] = True
    finally:
        server.shutdown()
    return checks


def file_update(
    card: Card, qemu: Qemu, guest: Guest, play: Play, source: Path, key: Path, work: Path
) -> dict[str, bool]:
    """A newer release packed as an update file, put on the powered-off card's boot partition
    and taken at the next boot with the network cut."""
    offline = "v90.0.2"
    release(source, offline, key)
    update_file = work / f"tinker-tray-{offline}.update"
    python = guest.ssh("root@127.0.0.1", "python3 -c 'import sys; print(sys.version[:4])'")
    run(ROOT / "tinker", "release", "pack", offline, "--key", key, "--out", update_file,
        "--repo", source,
        "--python", python.stdout.strip() or "3.13")  # fmt: skip
    guest.ssh("root@127.0.0.1", "systemctl poweroff", timeout=30)
    time.sleep(20)
    qemu.cut_power()
    run("mcopy", "-o", "-i", card.fat(), update_file, f"::/{update_file.name}")
    qemu.restrict = True  # the network cut: the guest reaches nothing outside
    started = time.monotonic()
    seconds, _ = first_boot_of(qemu, work / "console-2.log")
    print(f"boot with the update file, network cut: page 200 after {seconds:.0f} s")
    shown = wait_for(play, offline, "the card's update file", guest)
    print(f"the card's file: now {shown.get('version')} after {time.monotonic() - started:.0f} s")
    taken = guest.ssh("root@127.0.0.1", "ls /boot/firmware").stdout.split()
    return {"the update file was taken once (.done)": f"{update_file.name}.done" in taken}


def wait_for_check(play: Play) -> str | None:
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        status = page(play).get("status") or {}
        if status.get("state") in ("done", "failed"):
            return status.get("available")
        time.sleep(5)
    return None
