"""Raspberry Pi Imager's OS customisation on the tray's card, read as data and turned into the
tray's own boot-partition files, at every boot before tinker-tray-settings.service
(tinker-tray-imager.service: `python -m bootfiles.imager BOOT_DIR ROOT_DIR`).

Imager writes its customisation (Wi-Fi, SSH keys, a user and its password, hostname, time zone)
to the boot partition in one of two shapes (docs/image.md says which Imager writes which):
  firstrun.sh, a shell script, and on cmdline.txt
      systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot
      systemd.unit=kernel-command-line.target
  (firstrun.py reads it); or cloud-init's user-data and network-config (cloudinit.py).
On Raspberry Pi OS /boot was the boot partition; on this image it is /boot/firmware, so
/boot/firstrun.sh is no program, and systemd's kernel-command-line.service would fail (its
FailureAction=exit: the Pi switches off) before any network or tray. The image's two drop-ins
(/etc/systemd/system/kernel-command-line.*.d) make that boot a normal one instead: no reboot, no
script run as root, nothing that depends on this package working. (Simpler and sturdier than a
/boot/firstrun.sh of the image's own doing the work, Imager's way: systemd then restarts the Pi
when it succeeds and switches it off when it fails, so any fault of it would stop the tray;
configuration cannot fail that way.) And no cloud-init runs here.
This package then takes from either shape only what is safe and the tray uses, as the tray's own
files, which the units after it apply as for any card (honour.py):
  Wi-Fi (name, password or the 64-digit key Imager derives, country) -> tinker-tray-wifi.txt,
      unless that file names a network already (the file a family edits wins);
  SSH public keys -> the boot partition's authorized_keys (merged with the keys there).
Imager's user and password, SSH with a password, hostname, time zone and keyboard are not used:
each is one sentence on the screen and in the journal (the image has no user with a password).
Imager's files are then renamed NAME.done (kept, so nothing is lost) and its words leave
cmdline.txt, so this happens once. A file that cannot be read is one sentence and changes
nothing but its name. Card text is bounded like any other (bootfiles/card.py: 64 KB; YAML with
no aliases and a few levels deep, yaml_bounded.py), and a value of the wrong shape (a key given
as text, not a list; a list as a password) refuses the file: nothing is read into what it is not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bootfiles.card import Refused
from bootfiles.wifi import Wifi
from bootfiles.wifi import check_wifi as _check_wifi

MAX_KEY = 16 * 1024
"""Characters of one SSH public key line: an RSA key of 16384 bits is under 3,000."""


class ImagerError(Refused):
    """Imager's files cannot be read, as one sentence naming the file."""


@dataclass
class Customisation:
    """What Imager asks for, as data (nothing of it is run)."""

    wifi: Wifi | None = None
    hidden: bool = False
    keys: list[str] = field(default_factory=list)
    user: str | None = None
    """The user Imager names ("" when it names none: Imager 1.6), None if none."""
    user_password: bool = False
    password_ssh: bool = False
    hostname: str = ""
    locale: bool = False


def check_wifi(source: str, wifi: Wifi) -> Wifi:
    """The network as the tray's own Wi-Fi file would be checked, or ImagerError."""
    try:
        _check_wifi(source, wifi.ssid, wifi.password, wifi.country)
    except Refused as exc:
        raise ImagerError(str(exc)) from None
    return wifi


def check_keys(source: str, keys: list[str]) -> list[str]:
    """The SSH public keys, each one line of printable text (they become lines of
    authorized_keys: a newline in one would be a second key nobody saw), blanks left out."""
    for key in keys:
        if len(key) > MAX_KEY or not key.isprintable():
            raise ImagerError(
                f"{source}: an SSH key must be one line of plain text, like "
                "'ssh-ed25519 AAAA... you@laptop'"
            )
    return [key.strip() for key in keys if key.strip()]
