"""A card under qemu, for the image's checks (`./tinker image check`: image/check.py, with
image/update_check.py and image/backup_check.py): the copy of the image booted (`Card`), the
emulator (`Qemu`), the page played through the forwarded port (`Play`), a look inside over SSH
(`Guest`), a boot waited for (`first_boot_of`), and the tools they need (`TOOLS`). Each check
builds on these; none on another check (image/check.py runs the others after its own).
Python's standard library and Debian's tools only, as for the build; image/check.py says why
qemu is set up as it is.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

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
        command = ["qemu-system-aarch64", *self.board(log)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        self.started = time.monotonic()

    def board(self, log: Path, *accel: str) -> list[str]:
        """qemu's arguments for this card on a Pi 3A+ (`accel`: an -accel of its own), the
        console in `log`, the page and SSH forwarded: every check's boot, one list."""
        forward = (
            f"hostfwd=tcp:127.0.0.1:{self.port}-:8080,hostfwd=tcp:127.0.0.1:{self.ssh_port}-:22"
        )
        return [
            "-M", "raspi3ap", *accel, "-display", "none",
            "-kernel", str(self.card.kernel), "-initrd", str(self.card.initrd),
            "-dtb", str(self.card.dtb), "-append", self.card.cmdline,
            "-drive", f"if=sd,format=raw,file={self.card.image}",
            "-serial", "null", "-serial", f"file:{log}",
            "-device", "usb-net,netdev=n0",
            "-netdev", f"user,id=n0,{forward}{',restrict=on' if self.restrict else ''}",
            *self.extra,
        ]  # fmt: skip

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


def ready_in(log: Path, wait: float) -> bool:
    """The tray's "Started" line in a console log, waiting up to `wait` seconds for it."""
    deadline = time.monotonic() + wait
    while not READY.search(log.read_bytes()):
        if time.monotonic() > deadline:
            return False
        time.sleep(5)
    return True
