"""The games across a new card, under qemu, as a family moves them (issue 39): one card plays and
backs up on the host's page; a second card, freshly written from the same image, gets the
backup on its boot partition before its first boot; its games must be the first card's, byte
for byte, and the first card's token must be the host's on it (paired phones stay paired).

    sudo ./tinker image check IMG --backup [--port 18080]
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from pathlib import Path

from image.emulated import (
    ICOUNT,
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


def records(play: Play) -> dict[int, str]:
    """Each game's record (its JSON Lines export), by game, as SHA-256s."""
    status, body = http(play.port, "/api/games?limit=200", headers=play.host(), timeout=30)
    if status != 200:
        raise BenchError(f"/api/games answered {status} to the host's token")
    kept = {}
    for game in json.loads(body)["games"]:
        path = f"/api/games/{game['id']}.jsonl?reveal=yes"
        status, record = http(play.port, path, headers=play.host(), timeout=60)
        kept[int(game["id"])] = hashlib.sha256(record).hexdigest() if status == 200 else str(status)
    return kept


def card_with_key(image: Path, work: Path) -> Card:
    work.mkdir(parents=True, exist_ok=True)
    card = Card.copy_of(image, work)
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", work / "bench_key")
    card.put("authorized_keys", (work / "bench_key.pub").read_text())
    card.put("tinker-tray-wifi.txt", WIFI)
    return card


def check(image: Path, work: Path, running: list[Qemu], *, port: int) -> int:
    first = card_with_key(image, work / "card-1")
    qemu = Qemu(first, port, port + 1, ICOUNT)
    running.append(qemu)
    seconds, _ = first_boot_of(qemu, work / "card-1" / "console.log")
    print(f"card 1: page 200 after {seconds:.0f} s")
    token = Guest(qemu.ssh_port, work / "card-1" / "bench_key").facts().get("token", "")
    play = Play(port, token, random.Random(2))
    play.table(time.monotonic() + 20)
    play.digital_game(time.monotonic() + 60)
    before = records(play)
    status, backup = http(port, "/api/backup", headers=play.host(), timeout=120)
    if status != 200:
        raise BenchError(f"/api/backup answered {status}")
    print(f"card 1: {len(before)} games; the backup is {len(backup) / 1e3:.0f} kB")
    qemu.cut_power()
    second = card_with_key(image, work / "card-2")
    (work / "tinker-tray-backup-bench.ttb").write_bytes(backup)
    run("mcopy", "-o", "-i", second.fat(), work / "tinker-tray-backup-bench.ttb",
        "::/tinker-tray-backup-bench.ttb")  # fmt: skip
    qemu = Qemu(second, port, port + 1, ICOUNT)
    running.append(qemu)
    seconds, _ = first_boot_of(qemu, work / "card-2" / "console.log")
    print(f"card 2 (freshly written, the backup on its boot partition): page 200 after "
          f"{seconds:.0f} s")  # fmt: skip
    guest = Guest(qemu.ssh_port, work / "card-2" / "bench_key")
    boot_files = guest.ssh("root@127.0.0.1", "ls /boot/firmware").stdout.split()
    after = records(play)  # with the first card's token
    checks = {
        "the backup was taken once (.done)": "tinker-tray-backup-bench.ttb.done" in boot_files,
        "every game's record is the first card's, byte for byte": after == before,
        "the first card's token is the host's on the second": bool(after),
    }
    for name, held in checks.items():
        print(f"  {'ok  ' if held else 'FAIL'} {name}")
    return 0 if all(checks.values()) else 1
