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
bench/image_boot.py, which stays as a thin wrapper for the benches that import its parts.) The
card under qemu that this check and the update's and backup's checks share is image/emulated.py's.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a file (bench/image_boot.py's old way): the checkout's root
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from image.boot_share import BootShareError, boot_share, parse_chain, parse_startup
from image.emulated import (
    ICOUNT,
    ROOT,
    TOOLS,
    WIFI,
    BenchError,
    Card,
    Guest,
    NoUsbNetwork,
    Play,
    Qemu,
    boot,
    first_boot_of,
    ready_in,
    run,
    ssh_answers,
    wait_for_page,
)
from image.emulated import (
    http as http,  # (bench/image_boot.py's name for it: the check's parts, from here)
)


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
        "--pins",
        action="store_true",
        help="instead of the power cuts: the button pressed and the LEDs watched on the patched"
        " qemu (./tinker image qemu), each press's pick and light show checked"
        " (image/pins_check.py)",
    )
    parser.add_argument(
        "--presses", type=int, default=20, help="the button's presses with --pins (default 20)"
    )
    parser.add_argument(
        "--pin-factory",
        choices=("lgpio", "rpigpio"),
        default=None,
        help="with --pins: the tray on this gpiozero pin factory (rpigpio: RPi.GPIO's API from"
        " rpi-lgpio, its wheel fetched on the host and put into the guest; default: the"
        " settings' own, auto = lgpio)",
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

    if args.pins:
        from image import pins_check

        return bench_main("tinker image check --pins", args.keep, lambda work, running:
            pins_check.check(args.image, work, running, port=args.port, presses=args.presses,
                             extra=() if args.no_icount else ICOUNT,
                             pin_factory=args.pin_factory))  # fmt: skip
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
    sys.exit(main())  # (BenchError is image.emulated's, as the update's and backup's checks raise)
