"""The boot check: boot the tray's SD-card image as a Pi boots it, under qemu, print what a
family would see and how much of the boot is the tray's own start, then pull the power during
play again and again and count what was lost.

    ./tinker image check IMG [--cuts 10] [--port 18080] [--seed 1]

Python's standard library and Debian's tools only (qemu-system-arm, mtools,
device-tree-compiler, openssh-client, fdisk: a missing one is named): no venv, as for the build.
The image is never changed: qemu boots a copy (grown to a power of two, as qemu's SD card must
be), and only that copy's boot partition gets the check's files, as a family's card would get
theirs: a Wi-Fi file (qemu has no Wi-Fi: the check is the profile it becomes), settings without
the button's pull-up (qemu has no pull resistors: an input with a pull-up reads 0, the button
would be "stuck"), and, from the second boot on, an SSH public key (the check's look inside).
Two emulator-side fixes, on qemu's copies only: the kernel command line gets
`initcall_blacklist=bcm2835_power_driver_init` (qemu 7.2 lacks the power block the driver
probes: a panic), and the device tree gets `/system/linux,revision` (a Pi's firmware adds it;
without it gpiozero cannot tell the board) and, at every power on, 64 bytes of
`/chosen/rng-seed` (a Pi's firmware fills it from its hardware RNG; without it, under -icount,
the kernel waited a minute for entropy and once stalled udev past systemd's device timeout);
trixie's kernel also needs its vchiq module kept out (qemu has no VideoCore to talk to:
BLACKLIST). The Pi 3 A+ (`-M raspi3ap`, 512 MB) stands for the Zero 2 W: the same SoC family and
memory. Two emulator-side settings, for the check's sake: qemu's copy of the command line has
journald copy the log to the kernel's, so the serial console's file shows systemd's "Started
tinker-tray.service" even on a boot the check cannot reach (CONSOLE_LOG), and qemu counts time
by instructions (`-icount shift=3`, see ICOUNT).

Boot 1 (the card's first, no key): seconds until the page answers through the forwarded port,
and SSH closed. Boot 2 (with the key): what runs inside, and the tray's share of the boot (from
systemd's own timestamps in the guest: image/boot_share.py). Then each power cut: play on (table
entries and a digital game's moves through the forwarded port), kill qemu at a random moment,
boot again, and count the acknowledged writes (answered 200) that are gone. (It was
bench/image_boot.py, which stays as a thin wrapper for the benches that import its parts.)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a file (bench/image_boot.py's old way): the checkout's root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from image.boot_share import BootShareError, boot_share, parse_chain, parse_startup

ROOT = Path(__file__).resolve().parent.parent
QEMU_DTB = "bcm2837-rpi-3-a-plus.dtb"
REVISION = "9020e0"  # a Pi 3 A+'s revision code, as its firmware would write it
BLACKLIST = "initcall_blacklist=bcm2835_power_driver_init module_blacklist=vchiq,cdc_subset"
"""qemu 7.2 lacks the Pi's power block (bcm2835-power panics probing it) and the VideoCore's
VCHIQ interface (trixie's Linux 6.12 loads vchiq, whose threads then oops: `recycle_func`,
`slot_handler_func`); and Linux 6.12's cdc_subset claims qemu's usb-net (its USB ids are the
Linux gadget's) before cdc_ether can, and no packet passes: no DHCP, no page."""
CONSOLE_LOG = (
    "systemd.journald.forward_to_kmsg=1 systemd.journald.max_level_kmsg=info printk.devkmsg=on"
)
"""The journal copied to the kernel's log (every line: no rate limit), which the serial console
prints: the bench's console file then holds the tray's own lines and systemd's line once the
tray said READY=1. (systemd's coloured status lines stop when the console's getty starts.)"""
ICOUNT = ("-icount", "shift=3")
"""The guest's clock advanced by the instructions it ran (8 ns each), not by the host's clock.
Without it, a loaded host starves the emulated CPUs while the guest's timers run on: the USB
enumeration of the network device then timed out (4 attempts, "dwc2 ... Not connected", no
usb0; once in 12 boots at a host load of 10-13). With it, the guest cannot see time pass that it
had no instructions for; one host thread runs the 4 emulated cores (slower boots)."""
READY = re.compile(rb"Started (\x1b\[[0-9;]*m)?tinker-tray\.servi")
"""systemd's console line once the tray said READY=1 (coloured, its description shortened)."""
WIFI = 'country = "GB"\nssid = "Fairy Dell"\npassword = "pixie-dust-42"\n'
BOOT_TIMEOUT = 900.0
TOOLS = {
    "qemu-system-aarch64": "qemu-system-arm",
    "mcopy": "mtools",
    "fdtput": "device-tree-compiler",
    "ssh": "openssh-client",
    "ssh-keygen": "openssh-client",
    "sfdisk": "fdisk",
}


class BenchError(Exception):
    """What stopped the bench, in one line."""


class NoUsbNetwork(BenchError):
    """qemu's emulated USB (dwc2) did not enumerate the network device: seen under heavy host
    load, an emulator fault, not the tray's; the page cannot be reached, so the bench powers
    the card off and on again and says so."""


USB_WAIT = 400.0
"""Seconds after power on by which the guest's console names usb0 (it took 125-190 s)."""


def run(*command: str | Path, input_text: str | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, input=input_text
    )
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise BenchError(
            f"{Path(str(command[0])).name} failed: {said[-1] if said else done.returncode}"
        )
    return done.stdout


@dataclass
class Card:
    """qemu's copy of the image, and the kernel, initrd, device tree and command line taken out
    of its boot partition (the last two with the emulator's fixes)."""

    image: Path
    work: Path
    offset: int = 0
    kernel: Path = field(init=False)
    initrd: Path = field(init=False)
    dtb: Path = field(init=False)
    cmdline: str = field(init=False)

    @classmethod
    def copy_of(cls, source: Path, work: Path) -> Card:
        image = work / "card.img"
        run("cp", "--sparse=always", source, image)
        size = image.stat().st_size
        with open(image, "r+b") as file:
            file.truncate(1 << (size - 1).bit_length())  # qemu: a power-of-two SD card
        table = json.loads(run("sfdisk", "--json", image))["partitiontable"]["partitions"]
        card = cls(image, work, table[0]["start"] * 512)
        card.take_boot_files()
        return card

    def fat(self) -> str:
        return f"{self.image}@@{self.offset}"

    def take_boot_files(self) -> None:
        names = run("mdir", "-b", "-i", self.fat(), "::/").split()
        kernel = next(n for n in names if n.startswith("::/vmlinuz"))
        initrd = next(n for n in names if n.startswith("::/initrd.img"))
        for name, local in ((kernel, "vmlinuz"), (initrd, "initrd"), (f"::/{QEMU_DTB}", "dtb")):
            run("mcopy", "-o", "-i", self.fat(), name, self.work / local)
        self.kernel, self.initrd, self.dtb = (self.work / n for n in ("vmlinuz", "initrd", "dtb"))
        run("fdtput", "-p", "-t", "x", self.dtb, "/system", "linux,revision", REVISION)
        cmdline = run("mtype", "-i", self.fat(), "::/cmdline.txt").strip()
        self.cmdline = f"{cmdline} {BLACKLIST} {CONSOLE_LOG}"

    def seed(self) -> None:
        """A new `/chosen/rng-seed` in qemu's device tree, as a Pi's firmware writes one from its
        hardware RNG at every power on (the kernel takes it before anything asks for entropy)."""
        words = [secrets.token_hex(4) for _ in range(16)]
        run("fdtput", "-p", "-t", "x", self.dtb, "/chosen", "rng-seed", *words)

    def put(self, name: str, text: str) -> None:
        """A file onto the copy's boot partition, as a family's computer would write it."""
        local = self.work / name
        local.write_text(text)
        run("mcopy", "-o", "-i", self.fat(), local, f"::/{name}")


@dataclass
class Qemu:
    card: Card
    port: int
    ssh_port: int
    extra: tuple[str, ...] = ()
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    log: Path | None = None
    restrict: bool = False
    """The guest's network cut (qemu's restrict=on): it reaches nothing outside; the forwarded
    ports still answer."""

    def start(self, log: Path) -> None:
        self.log = log
        self.card.seed()
        forward = (
            f"hostfwd=tcp:127.0.0.1:{self.port}-:8080,hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22"
        )
        command = [
            "qemu-system-aarch64", "-M", "raspi3ap", "-display", "none",
            "-kernel", str(self.card.kernel), "-initrd", str(self.card.initrd),
            "-dtb", str(self.card.dtb), "-append", self.card.cmdline,
            "-drive", f"if=sd,format=raw,file={self.card.image}",
            "-serial", "null", "-serial", f"file:{log}",
            "-device", "usb-net,netdev=n0",
            "-netdev", f"user,id=n0,{forward}{',restrict=on' if self.restrict else ''}",
            *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.started = time.monotonic()

    def cut_power(self) -> None:
        """SIGKILL: qemu stops at once, nothing flushed, as a pulled plug."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.process = None


def http(
    port: int,
    path: str,
    body: dict | None = None,
    headers: dict | None = None,
    timeout: float = 10.0,
) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=data, method="POST" if data else "GET"
    )
    request.add_header("Content-Type", "application/json")
    request.add_header("Origin", f"http://127.0.0.1:{port}")
    for key, value in (headers or {}).items():
        request.add_header(key, value)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()
    except (OSError, urllib.error.URLError):
        return 0, b""


def wait_for_page(qemu: Qemu) -> float:
    """Seconds from power on until the page answers 200 through the forwarded port."""
    while time.monotonic() - qemu.started < BOOT_TIMEOUT:
        if qemu.process is None or qemu.process.poll() is not None:
            raise BenchError("qemu stopped before the page answered (see the console log)")
        if http(qemu.port, "/", timeout=5)[0] == 200:
            return time.monotonic() - qemu.started
        if (
            time.monotonic() - qemu.started > USB_WAIT
            and qemu.log
            and (b"usb0" not in qemu.log.read_bytes())
        ):
            raise NoUsbNetwork("qemu's emulated USB network did not come up (no usb0)")
        time.sleep(2)
    raise BenchError(f"the page did not answer within {BOOT_TIMEOUT:.0f} s (see the console log)")


def ssh_answers(port: int) -> bool:
    """An SSH server answers on the port (its banner). qemu accepts every forwarded
    connection itself; with nothing listening in the guest it closes it at once."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.settimeout(10)
            return sock.recv(64).startswith(b"SSH-")
    except OSError:
        return False


@dataclass
class Play:
    """Play through the forwarded port as phones do, counting what the tray acknowledged
    (answered 200): per game, the table's entries (its start included), or a digital game's
    events of the person's seat that the journal held once each move was answered (a move may
    grow the last event instead of adding one). After a power cut, `lost` compares."""

    port: int
    token: str
    rng: random.Random
    acked: dict[int, int] = field(default_factory=dict)
    digital: set[int] = field(default_factory=set)

    def host(self) -> dict[str, str]:
        return {"X-Table-Token": self.token}

    def newest_game(self) -> int:
        status, body = http(self.port, "/api/games?limit=1", headers=self.host())
        if status != 200:
            raise BenchError(f"/api/games answered {status}")
        return int(json.loads(body)["games"][0]["id"])

    def table(self, until: float) -> None:
        """A table game: its start, then hands entered one after another."""
        players = ["Ann", "Bo", "Cy"]
        status, body = http(
            self.port, "/api/new-game", {"players": players, "confirm": True}, self.host()
        )
        if status != 200:
            return
        game = int(json.loads(body)["game"])
        self.acked[game] = 1
        while time.monotonic() < until:
            winner = self.rng.randrange(3)
            held = [None if s == winner else self.rng.randrange(1, 30) for s in range(3)]
            entry = {"kind": "hand", "winner": winner, "held": held}
            if http(self.port, "/api/entry", entry, self.host())[0] == 200:
                self.acked[game] += 1

    def digital_game(self, until: float) -> None:
        """A digital game against two bots: the person's seat plays a legal move each turn."""
        new = {"players": ["Ann", "Bot1", "Bot2"], "humans": [0], "bots": "greedy", "pace": 0,
               "options": {"target": 500}, "confirm": True}  # fmt: skip
        status, body = http(self.port, "/api/digital/new", new, self.host())
        if status != 200:
            return
        seat = {"X-Seat-Key": json.loads(body)["keys"]["0"]}
        game = self.newest_game()
        self.acked[game] = 0
        self.digital.add(game)
        while time.monotonic() < until:
            status, body = http(self.port, "/api/digital/view", headers=seat)
            view = json.loads(body) if status == 200 else {}
            legal = [m["action"] for m in view.get("legal", []) if not m["out_of_turn"]]
            if view.get("winner") is not None:
                return
            awaiting = view.get("awaiting") or {}
            if awaiting.get("kind") == "tinker_bell" and not view.get("choosing"):
                http(self.port, "/api/press", {}, self.host())  # the tray's virtual button
            if not legal:
                time.sleep(0.2)
                continue
            act = {"action": self.rng.choice(legal)}
            if http(self.port, "/api/digital/act", act, seat)[0] == 200:
                # what the journal holds once the move is acknowledged: the person's events (a
                # move may grow the last event, as a discard of several cards is one)
                self.acked[game] = self.kept(game)

    def kept(self, game: int) -> int:
        """What the journal holds of `game` now: its entries, or the person's events."""
        if game in self.digital:
            path = f"/api/games/{game}.jsonl?reveal=yes"
            status, body = http(self.port, path, headers=self.host(), timeout=30)
            lines = body.decode().splitlines()[1:] if status == 200 else []
            return sum(1 for line in lines if json.loads(line).get("seat") == 0)
        status, body = http(self.port, "/api/games?limit=200", headers=self.host(), timeout=30)
        games = json.loads(body)["games"] if status == 200 else []
        return next((int(g["entries"]) for g in games if g["id"] == game), 0)

    def lost(self) -> int:
        """Acknowledged writes missing from the journal, over every game played so far."""
        return sum(max(0, acked - self.kept(game)) for game, acked in self.acked.items())


INSIDE = r"""
pid=$(systemctl show -P MainPID tinker-tray)
echo "debian=$(cat /etc/debian_version)"
echo "kernel=$(uname -r)"
echo "active=$(systemctl is-active tinker-tray)"
echo "active_s=$(systemctl show -P ActiveEnterTimestampMonotonic tinker-tray)"
echo "user=$(ps -o user= -p "$pid")"
echo "rss_kb=$(ps -o rss= -p "$pid" | tr -d ' ')"
echo "gpiochip_fds=$(ls -l /proc/"$pid"/fd 2>/dev/null | grep -c gpiochip)"
echo "lgpio_mapped=$(grep -c 'lgpio' /proc/"$pid"/maps)"
echo "started_on=$(journalctl -b -u tinker-tray -o cat |
  sed -n 's/.*tray service started on //p' | tail -1)"
echo "engine=$(/opt/tinker-tray/.venv/bin/python -c 'import engine; print(engine.BUILD)')"
free -m | awk '/^Mem:/ {print "mem_used_mb=" $3; print "mem_total_mb=" $2}'
echo "wifi_profile=$(nmcli -t -f NAME,TYPE connection show | grep '^tinker-tray-wifi:' |
  cut -d: -f2)"
echo "wifi_ssid=$(nmcli -g 802-11-wireless.ssid connection show tinker-tray-wifi 2>/dev/null)"
echo "passwords=$(awk -F: '$2 !~ /^[!*]/ {print $1}' /etc/shadow | paste -sd, -)"
echo "failed=$(systemctl --failed --no-legend --plain | awk '{print $1}' | paste -sd, -)"
echo "root_size=$(df -h --output=size / | tail -1 | tr -d ' ')"
echo "journal_on=$(findmnt -no SOURCE,FSTYPE /var/lib/tinker-tray | tr ' ' /)"
echo "hostname=$(hostname)"
echo "mdns=$(systemctl is-active avahi-daemon)"
echo "token=$(journalctl -u tinker-tray -o cat | sed -n 's/.*token: *//p' | tail -1)"
echo "unit_start_us=$(systemctl show -P InactiveExitTimestampMonotonic tinker-tray)"
echo "ready_us=$(systemctl show -P ActiveEnterTimestampMonotonic tinker-tray)"
echo "startup=$(systemd-analyze 2>/dev/null | head -1)"
echo "chain=$(systemd-analyze critical-chain --no-pager tinker-tray.service 2>/dev/null |
  tr '\n' '|')"
"""


@dataclass
class Guest:
    """The bench's look inside, over SSH with the key it put on the boot partition."""

    port: int
    key: Path

    def ssh(
        self, *args: str, script: str | None = None, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        command = ["ssh", "-i", str(self.key), "-p", str(self.port), "-o", "BatchMode=yes",
                   "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                   "-o", "ConnectTimeout=15", "-o", "LogLevel=ERROR", *args]  # fmt: skip
        return subprocess.run(
            command, input=script, capture_output=True, text=True, timeout=timeout
        )

    def facts(self) -> dict[str, str]:
        deadline = time.monotonic() + 300
        while True:
            done = self.ssh("root@127.0.0.1", "sh", "-s", script=INSIDE)
            if done.returncode == 0:
                return dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
            if time.monotonic() > deadline:
                raise BenchError(f"no SSH with the boot partition's key: {done.stderr.strip()}")
            time.sleep(5)

    def password_refused(self) -> str:
        """What the SSH server says to a password: the methods it offers instead."""
        methods = "PreferredAuthentications=password,keyboard-interactive"
        done = self.ssh("-o", "PubkeyAuthentication=no", "-o", methods, "root@127.0.0.1", "true")
        said = done.stderr.strip().splitlines()
        return said[-1] if said else f"exit {done.returncode}"


def boot(qemu: Qemu, log: Path) -> float:
    qemu.start(log)
    return wait_for_page(qemu)


def first_boot_of(qemu: Qemu, log: Path) -> tuple[float, Path]:
    """A boot before the cuts: one whose emulated USB never came up is said and done again.
    Returns the seconds to the page and the console log of the boot that reached it."""
    try:
        return boot(qemu, log), log
    except NoUsbNetwork as exc:
        ready = "the tray ready on its console" if ready_in(log, 300) else "NO tray on its console"
        print(f"  {log.stem}: {exc}: an emulator fault ({ready}); power off and on again")
        qemu.cut_power()
        again = log.with_name(f"{log.stem}-again.log")
        return boot(qemu, again), again


def first_boots(card: Card, qemu: Qemu, work: Path) -> tuple[dict[str, str], Guest]:
    """Boot 1, the card's first, without a key; boot 2 with it, to look inside."""
    seconds, _ = first_boot_of(qemu, work / "console-1.log")
    print(f"boot 1 (first boot: growfs, settings): page 200 after {seconds:.0f} s "
          f"(host load {os.getloadavg()[0]:.1f})")  # fmt: skip
    ssh = "OPEN" if ssh_answers(qemu.ssh_port) else "closed"
    print(f"SSH without a key on the boot partition: {ssh}")
    qemu.cut_power()
    key = work / "bench_key"
    run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key)
    card.put("authorized_keys", (work / "bench_key.pub").read_text())
    seconds, log = first_boot_of(qemu, work / "console-2.log")
    print(f"boot 2: page 200 after {seconds:.0f} s (host load {os.getloadavg()[0]:.1f}); the tray's"
          f" READY=1 line on its console: {ready_in(log, 60)}")  # fmt: skip
    guest = Guest(qemu.ssh_port, key)
    facts = guest.facts()
    facts["password_login"] = guest.password_refused()
    return facts, guest


def report(facts: dict[str, str]) -> None:
    active = float(facts.get("active_s") or 0) / 1e6
    rss = int(facts.get("rss_kb") or 0) / 1024
    lines = [
        ("Debian, kernel", f"{facts.get('debian')}, {facts.get('kernel')}"),
        ("service", f"{facts.get('active')} as {facts.get('user')}, {active:.0f} s after boot"),
        ("pins", f"{facts.get('started_on')}: {facts.get('gpiochip_fds')} gpiochip handles, "
                 f"lgpio mapped {facts.get('lgpio_mapped')} times"),
        ("engine", facts.get("engine", "")),
        ("memory", f"{facts.get('mem_used_mb')} of {facts.get('mem_total_mb')} MB used (512 MB)"),
        ("service RSS", f"{rss:.1f} MB"),
        ("Wi-Fi profile", f"{facts.get('wifi_profile') or 'NONE'} ssid '{facts.get('wifi_ssid')}'"),
        ("accounts with a password", facts.get("passwords") or "none (root locked, no other user)"),
        ("SSH with a password", facts.get("password_login", "")),
        ("systemctl --failed", facts.get("failed") or "none"),
        ("root grown to", facts.get("root_size", "")),
        ("journal on", facts.get("journal_on", "")),
        ("name", f"{facts.get('hostname')}.local (avahi {facts.get('mdns')})"),
    ]  # fmt: skip
    for name, value in lines:
        print(f"  {name + ':':26} {value}")
    print(f"  {'the tray in the boot:':26} {tray_in_boot(facts)}")


def tray_in_boot(facts: dict[str, str]) -> str:
    """The tray's share of the boot (image/boot_share.py), with systemd-analyze's stages and
    what the tray's start waited for last (the critical chain's next unit), in one line."""
    try:
        share = boot_share(facts.get("unit_start_us", ""), facts.get("ready_us", ""))
    except BootShareError as exc:
        return f"not measured: {exc}"
    said = share.sentence()
    try:
        stages = parse_startup(facts.get("startup", ""))
        said += "; systemd-analyze: " + ", ".join(f"{k} {v:.1f} s" for k, v in stages.items())
    except BootShareError as exc:
        said += f"; {exc}"
    chain = parse_chain(facts.get("chain", "").replace("|", "\n"))
    if len(chain) > 1:
        said += f"; it waited last for {chain[1].unit} (active at {chain[1].at:.1f} s)"
    return said


@dataclass
class Cut:
    """One power cut: when, how long the tray took to come back, what was lost."""

    number: int
    played: float  # seconds of play before the cut
    load: float  # the host's load average (1 min) at the cut
    boot: float = 0.0  # seconds from power on to the page's 200 (the boot that reached it)
    lost: int = -1  # acknowledged writes missing after the boot, over the whole run
    back: bool = False  # the page answered again
    ready: bool = False  # the console of the boot that came back shows the tray's READY=1
    usb_fault: bool = False  # a boot on which qemu's USB never enumerated (powered on again)
    ready_on_fault: bool = False  # that boot's console shows the tray's service ready


def ready_in(log: Path, wait: float) -> bool:
    """The tray's "Started" line in a console log, waiting up to `wait` seconds for it."""
    deadline = time.monotonic() + wait
    while not READY.search(log.read_bytes()):
        if time.monotonic() > deadline:
            return False
        time.sleep(5)
    return True


def power_on_after(qemu: Qemu, cut: Cut, work: Path) -> None:
    """Power on after `cut`; a boot whose emulated USB never came up is counted apart (with
    whether the tray's service came up on it, from its console) and powered on once more."""
    log = work / f"console-cut-{cut.number}.log"
    try:
        cut.boot = boot(qemu, log)
        cut.ready = ready_in(log, 60)
    except NoUsbNetwork as exc:
        cut.usb_fault = True
        cut.ready_on_fault = ready_in(log, 300)
        ready = "its console shows the tray's service ready" if cut.ready_on_fault else "NO tray"
        print(f"  cut {cut.number}: {exc}: an emulator fault ({ready}); power off and on again")
        qemu.cut_power()
        again = work / f"console-cut-{cut.number}-again.log"
        cut.boot = boot(qemu, again)
        cut.ready = ready_in(again, 60)


def power_cuts(qemu: Qemu, play: Play, cuts: int, work: Path) -> list[Cut]:
    """Play, cut the power at a random moment, boot again, count what was lost."""
    results = []
    for number in range(1, cuts + 1):
        cut = Cut(number, play.rng.uniform(1.0, 20.0), os.getloadavg()[0])
        (play.table if number % 2 else play.digital_game)(time.monotonic() + cut.played)
        qemu.cut_power()
        try:
            power_on_after(qemu, cut, work)
            cut.back = True
            cut.lost = play.lost()
        except BenchError as exc:
            print(f"  cut {number}: the tray did not come back: {exc}")
        what = "table entries" if number % 2 else "a digital game"
        acked = sum(play.acked.values())
        print(f"  cut {number}: after {cut.played:.1f} s of {what} (load {cut.load:.1f});"
              f" back: {'yes' if cut.back else 'NO'} after {cut.boot:.0f} s;"
              f" acknowledged writes lost: {cut.lost} (of {acked} so far)")  # fmt: skip
        results.append(cut)
        if not cut.back:
            qemu.cut_power()
            qemu.start(work / f"console-cut-{number}-again.log")
            wait_for_page(qemu)
    return results


def summary(results: list[Cut], acked: int) -> int:
    """The cuts in two lines; 0 when the tray came back every time and nothing was lost."""
    lost = max((c.lost for c in results), default=0)
    back = sum(1 for c in results if c.back)
    faults = [c for c in results if c.usb_fault]
    loads = [c.load for c in results] or [0.0]
    print(f"power cuts: {len(results)}; the tray back {back} times; acknowledged writes "
          f"lost: {lost} of {acked}; host load {min(loads):.1f} to {max(loads):.1f}")  # fmt: skip
    print(f"the tray's READY=1 line on the console of the boots that came back: "
          f"{sum(c.ready for c in results)} of {len(results)}")  # fmt: skip
    print(f"boots where qemu's USB never enumerated (powered on again): {len(faults)}"
          f"{'' if not faults else '; the tray ready on their console: '}"
          f"{sum(c.ready_on_fault for c in faults) if faults else ''}")  # fmt: skip
    good = back == len(results) and all(c.ready_on_fault for c in faults)
    return 0 if good and lost == 0 else 1


def bench_card(image: Path, work: Path) -> Card:
    """qemu's copy of `image` with the bench's files on its boot partition, as a family's
    computer writes them: a Wi-Fi file and settings without the button's pull-up."""
    card = Card.copy_of(image, work)
    card.put("tinker-tray-wifi.txt", WIFI)
    settings = (ROOT / "hardware" / "pinmap.toml").read_text()
    card.put("tinker-tray-settings.txt", settings.replace("pull_up = true", "pull_up = false"))
    return card


def bench_main(name: str, keep: Path | None, body: Callable[[Path, list[Qemu]], int]) -> int:
    """Run `body` in a work folder (kept if `keep`), every qemu it started powered off at the
    end, a BenchError said in one line."""
    work = keep or Path(tempfile.mkdtemp(prefix=f"tinker-{name}-"))
    work.mkdir(parents=True, exist_ok=True)
    running: list[Qemu] = []
    try:
        check_host()
        return body(work, running)
    except BenchError as exc:
        print(f"{name}: {exc} (work folder: {work})", file=sys.stderr)
        return 1
    finally:
        for qemu in running:
            qemu.cut_power()
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)


def check_host() -> None:
    missing = sorted({pkg for tool, pkg in TOOLS.items() if not shutil.which(tool)})
    if missing:
        raise BenchError(f"missing tools: apt-get install {' '.join(missing)}")


def parser() -> argparse.ArgumentParser:
    """The command line of `./tinker image check`."""
    parser = argparse.ArgumentParser(
        prog="./tinker image check", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("image", type=Path, help="the .img that ./tinker image build made")
    parser.add_argument("--cuts", type=int, default=10, help="power cuts during play (default 10)")
    parser.add_argument("--port", type=int, default=18080, help="the page's forwarded port")
    parser.add_argument(
        "--seed", type=int, default=None, help="the cuts' moments (default: random)"
    )
    parser.add_argument(
        "--keep", type=Path, default=None, help="work here and keep it (console logs)"
    )
    parser.add_argument(
        "--qemu", action="append", default=[], metavar="ARG", help="one more argument for qemu"
    )
    parser.add_argument(
        "--no-icount", action="store_true", help="qemu's clock follows the host's (see ICOUNT)"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="then the update on a fresh copy: the page's Update button to a signed release from"
        " the origin, and an update file on the boot partition with the network cut"
        " (image/update_check.py; IMG built with --trust and --origin"
        " http://10.0.2.2:GIT_PORT/tinker-tray.git)",
    )
    parser.add_argument(
        "--backup",
        action="store_true",
        help="then the games across a new card: a backup from one copy restored on a second,"
        " freshly written, from its boot partition (image/backup_check.py)",
    )
    parser.add_argument(
        "--release-key", type=Path, help="the SSH key whose public half --trust named (--update)"
    )
    parser.add_argument(
        "--git-port", type=int, default=18090, help="the port --origin names (with --update)"
    )
    return parser


def update_check(image: Path, port: int, git_port: int, key: Path) -> int:
    """The update on a copy of its own (its own boots), after the check's qemu is off."""
    from image import update_check

    print("the update (image/update_check.py):", flush=True)
    return bench_main(
        "tinker image check --update",
        None,
        lambda work, running: update_check.check(
            image, work, running, key=key, port=port, git_port=git_port
        ),
    )


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not args.image.is_file():
        print(f"tinker image check: there is no image at {args.image} (sudo ./tinker image build"
              " makes one: docs/image.md).", file=sys.stderr)  # fmt: skip
        return 1
    if args.cuts < 0:
        print("tinker image check: --cuts is a number of power cuts, 0 or more.", file=sys.stderr)
        return 2

    def check(work: Path, running: list[Qemu]) -> int:
        card = bench_card(args.image, work)
        timing = () if args.no_icount else ICOUNT
        qemu = Qemu(card, args.port, args.port + 1, (*timing, *args.qemu))
        running.append(qemu)
        size = args.image.stat().st_size / 2**20
        clock = " ".join(qemu.extra) or "no -icount"
        print(f"image: {args.image} ({size:.0f} MiB); qemu raspi3ap, 512 MB, {clock}; "
              f"host load {os.getloadavg()[0]:.1f}")  # fmt: skip
        facts, _ = first_boots(card, qemu, work)
        report(facts)
        play = Play(args.port, facts.get("token", ""), random.Random(args.seed))
        results = power_cuts(qemu, play, args.cuts, work)
        return summary(results, sum(play.acked.values()))

    if args.update and args.release_key is None:
        print("tinker image check: --update needs --release-key KEY (the key --trust named).",
              file=sys.stderr)  # fmt: skip
        return 2
    only_after = (args.update or args.backup) and not args.cuts  # (--cuts 0: no boot check)
    status = 0 if only_after else bench_main("tinker image check", args.keep, check)
    if args.backup:
        from image import backup_check

        print("the games across a new card (image/backup_check.py):", flush=True)
        status = max(status, bench_main(
            "tinker image check --backup", None,
            lambda work, running: backup_check.check(args.image, work, running, port=args.port),
        ))  # fmt: skip
    if args.update:
        status = max(status, update_check(args.image, args.port, args.git_port, args.release_key))
    return status


if __name__ == "__main__":
    # (through the package's module, not __main__: the update's and backup's checks raise
    # image.check's BenchError, which a second copy of this module would not catch)
    from image import check as this_module

    sys.exit(this_module.main())
