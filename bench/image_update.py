"""`sudo tinker-tray update` on the tray's image, under qemu, as a family with SSH would run it:
the new commit pulled, set up and running, the journal's rows kept, the service back.

    sudo .venv/bin/python bench/image_update.py IMG [--port 18080] [--git-port 18090]

IMG must be built with `./tinker image build --origin http://10.0.2.2:GIT_PORT/tinker-tray.git`:
qemu's user network shows the host's loopback to the guest as 10.0.2.2. The bench serves a bare
clone of this checkout there as git's "dumb" HTTP (plain files, Python's http.server), with one
commit more than the image holds on the image's branch: the update. The image is never changed
(the boot goes as in bench/image_boot.py: a copy, the emulator's fixes on qemu's copies, the
bench's SSH key on the copy's boot partition, as docs/image.md tells a family to put theirs).

Printed: the commit before and after, the update's seconds and its last lines, the service's
start before and after (a new process), the page's answer, the journal's games and entries
before and after.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from image_boot import (  # a sibling script, not a package
    ICOUNT,
    ROOT,
    BenchError,
    Guest,
    Play,
    Qemu,
    bench_card,
    bench_main,
    first_boot_of,
    http,
    run,
)

REPOSITORY = "tinker-tray.git"  # the path the image's --origin names on the bench's port
SERVICE = "systemctl show -P MainPID,ActiveEnterTimestamp tinker-tray | paste -sd' ' -"


class Quiet(SimpleHTTPRequestHandler):
    """Plain files, no log line per request (git fetches one object at a time)."""

    def log_message(self, format: str, *args: object) -> None:
        return


def serve(folder: Path, port: int) -> ThreadingHTTPServer:
    """`folder` as git's dumb HTTP on 127.0.0.1:port, in a thread, until shut down."""
    handler = functools.partial(Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def upstream(work: Path, branch: str, commit: str) -> str:
    """The repository the image pulls from: this checkout's history up to the image's commit
    on the image's branch, and one commit more (a line in a file the tray does not read), made
    here, so the update is a real pull of a commit the card never had. Returns that commit."""
    source = work / "upstream"
    run("git", "clone", "--quiet", "--no-checkout", ROOT, source)
    run("git", "-C", source, "checkout", "--quiet", "-B", branch, commit)
    (source / "UPDATED-BY-BENCH").write_text(f"bench/image_update.py, on top of {commit}\n")
    run("git", "-C", source, "add", "UPDATED-BY-BENCH")
    who = ("-c", "user.name=image bench", "-c", "user.email=bench@tinker-tray.invalid")
    run("git", "-C", source, *who, "commit", "--quiet", "-m", "bench: the update")
    bare = work / "served" / REPOSITORY
    run("git", "clone", "--quiet", "--bare", "--branch", branch, source, bare)
    run("git", "-C", bare, "update-server-info")  # the dumb protocol's index files
    return run("git", "-C", source, "rev-parse", "HEAD").strip()


def inside(guest: Guest, command: str, timeout: float = 120) -> str:
    done = guest.ssh("root@127.0.0.1", command, timeout=timeout)
    if done.returncode != 0:
        raise BenchError(f"in the guest, `{command}` failed: {done.stderr.strip()}")
    return done.stdout.strip()


def journal(play: Play) -> tuple[int, int]:
    """The journal as the page lists it: (games, entries over every game)."""
    status, body = http(play.port, "/api/games?limit=200", headers=play.host(), timeout=30)
    if status != 200:
        raise BenchError(f"/api/games answered {status}")
    games = json.loads(body)["games"]
    return len(games), sum(int(g["entries"]) for g in games)


def update(guest: Guest, play: Play, port: int, work: Path) -> int:
    """Play a little, run the update in the guest, compare. 0 when every check holds."""
    repo = "/opt/tinker-tray"
    branch = inside(guest, f"git -C {repo} rev-parse --abbrev-ref HEAD")
    before = inside(guest, f"git -C {repo} rev-parse HEAD")
    origin = inside(guest, f"git -C {repo} remote get-url origin")
    print(f"the card: {branch} at {before[:7]}, origin {origin}")
    new = upstream(work, branch, before)
    play.table(time.monotonic() + 15)
    rows_before = journal(play)
    service_before = inside(guest, SERVICE)
    print(f"journal before: {rows_before[0]} games, {rows_before[1]} entries; "
          f"service: pid/start {service_before}")  # fmt: skip
    server = serve(work / "served", port)
    try:
        started = time.monotonic()
        done = guest.ssh("root@127.0.0.1", "tinker-tray update", timeout=3600)
        seconds = time.monotonic() - started
    finally:
        server.shutdown()
    said = (done.stderr.strip() or done.stdout.strip()).splitlines()
    print(f"`tinker-tray update`: exit {done.returncode} after {seconds:.0f} s")
    for line in said[-4:]:
        print(f"  | {line}")
    after = inside(guest, f"git -C {repo} rev-parse HEAD")
    service_after = inside(guest, SERVICE)
    active = inside(guest, "systemctl is-active tinker-tray || true")
    deadline = time.monotonic() + 300
    while http(play.port, "/")[0] != 200 and time.monotonic() < deadline:
        time.sleep(2)
    page = http(play.port, "/")[0]
    rows_after = journal(play)
    print(f"the card now: {after[:7]} (the update: {new[:7]}); service {active}, "
          f"pid/start {service_after}; page {page}")  # fmt: skip
    print(f"journal after: {rows_after[0]} games, {rows_after[1]} entries")
    checks = {
        "the update exited 0": done.returncode == 0,
        "the new commit is checked out": after == new,
        "the service restarted (a new process)": service_after != service_before,
        "the service is active": active == "active",
        "the page answers 200": page == 200,
        "the journal's rows are kept": rows_after == rows_before,
    }
    for name, held in checks.items():
        print(f"  {'ok  ' if held else 'FAIL'} {name}")
    return 0 if all(checks.values()) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("image", type=Path, help="an .img built with --origin (see above)")
    parser.add_argument("--port", type=int, default=18080, help="the page's forwarded port")
    parser.add_argument("--git-port", type=int, default=18090, help="the port --origin names")
    parser.add_argument("--keep", type=Path, default=None, help="work here and keep it")
    args = parser.parse_args()

    def check(work: Path, running: list[Qemu]) -> int:
        card = bench_card(args.image, work)
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", work / "bench_key")
        card.put("authorized_keys", (work / "bench_key.pub").read_text())
        qemu = Qemu(card, args.port, args.port + 1, ICOUNT)
        running.append(qemu)
        seconds, _ = first_boot_of(qemu, work / "console-update.log")
        print(f"image: {args.image}; page 200 after {seconds:.0f} s (first boot)")
        guest = Guest(qemu.ssh_port, work / "bench_key")
        token = guest.facts().get("token", "")
        return update(guest, Play(args.port, token, random.Random(1)), args.git_port, work)

    return bench_main("image_update", args.keep, check)


if __name__ == "__main__":
    sys.exit(main())
