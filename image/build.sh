#!/bin/sh
# The tray's SD-card image, as one recipe: the steps below run top to bottom, each a declared
# value or a small script in steps/. Board and release are parameters, not copies.
#
#   ./tinker image build [OPTION ...]    (./tinker image build --help lists them)
#
# Rootless in the sense that matters here: no loop device and no mount of the image. Debian's
# mmdebstrap builds the arm64 system under qemu-user-static (binfmt), the tray is set up inside
# it (chroot, with /proc), and the card is assembled from plain files: mkfs.vfat + mcopy for the
# boot partition, mkfs.ext4 -d for the others, sfdisk on the image file, dd conv=notrunc. It must
# run as root (files owned by root and by the service's user; a chroot). docs/image.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

usage() {
  cat <<'HELP'
usage: sudo ./tinker image build [OPTION ...]

The tray's SD-card image (as root, on Debian or Ubuntu: docs/image.md), and beside it the
release files: SHA256SUMS and Raspberry Pi Imager's list, tinker-tray.rpi-imager.json.

  --board NAME          the boards the image boots (image/boards/NAME; default pi-arm64)
  --release NAME        the Debian release (default trixie)
  --out DIR             where the image, its release files and the cache go (default build/image)
  --xz                  also the image compressed, .img.xz (what a release publishes)
  --origin URL          the repository the tray's update pulls from (default this checkout's
                        origin)
  --trust FILE          an SSH allowed-signers file (git's gpg.ssh.allowedSignersFile): the
                        signers whose releases the tray's update installs
  --wifi-firmware SRC   Raspberry Pi OS's firmware-brcm80211 .deb, or a folder with its files:
                        the Wi-Fi of a Pi Zero 2 W with the BCM43430/2 chip
  --release-url URL     where Imager downloads the image from, for its list (default the file's
                        name, beside the list)
  --help                this help

What it needs:
  a signing key   --trust FILE is the maintainers' allowed-signers file (a line
                  "you@example.org $(cut -d' ' -f1,2 KEY.pub)" for each key of ssh-keygen -t
                  ed25519: docs/release.md, Once: the keys); without it the card cannot update
                  itself, as it refuses every release it cannot verify.
  free room       a build from nothing fills about 4 GB of --out at its fullest (the cache,
                  the tree, the card's partitions as files and the image), so it checks first
                  that 5000 MB are free there and stops with one sentence if not.
HELP
}

# --- Parameters ------------------------------------------------------------------------------
board=pi-arm64          # boards/NAME: the device trees and Wi-Fi firmware the image must carry
release=trixie          # Debian release (docs/image.md says why this one)
out="$repo/build/image" # the image, and a cache of the slow base system (out/cache)
xz=
origin=$(git -C "$repo" remote get-url origin 2>/dev/null || true)  # where `update` pulls from
trust=                  # the allowed signers of the tray's releases (docs/image.md)
wifi_firmware=          # Raspberry Pi OS's firmware-brcm80211 (.deb or folder)
release_url=            # the .img.xz's address in Imager's list
while [ $# -gt 0 ]; do
  case "$1" in
    --board|--release|--out|--origin|--trust|--wifi-firmware|--release-url)
      [ $# -gt 1 ] || { echo "tinker image build: $1 needs a value (see --help)." >&2; exit 2; } ;;
  esac
  case "$1" in
    --board) board=$2; shift ;;
    --release) release=$2; shift ;;
    --out) out=$2; shift ;;
    --origin) origin=$2; shift ;;
    --trust) trust=$2; shift ;;
    --wifi-firmware) wifi_firmware=$2; shift ;;
    --release-url) release_url=$2; shift ;;
    --xz) xz=1 ;;
    --help|-h) usage; exit 0 ;;
    *) echo "tinker image build: unknown option '$1' (see --help)." >&2; exit 2 ;;
  esac
  shift
done
fail() { echo "tinker image build: $*" >&2; exit 1; }
[ -f "$here/boards/$board" ] || fail "no board '$board' (one of: $(ls "$here/boards" | paste -sd' '))."
. "$here/boards/$board"   # DTBS, WIFI_FIRMWARE, WIFI_NOT_COVERED(_BOARDS)
version=$(git -C "$repo" describe --tags --always --dirty 2>/dev/null || echo unknown)
name="tinker-tray-$version-$board"
work="$out/work-$board"
extra="$out/extra-$board"  # files laid over the tree after its set-up: --trust, --wifi-firmware
started=$(date +%s)
step() { echo "tinker image build: [$(( $(date +%s) - started ))s] $*" >&2; }

# --- 0. What the builder named, checked before the long build (seconds, not 25 minutes) -------
# The room first. At its fullest (the card step of a build from nothing) --out holds the cache
# (the base system and the tray's venv), the tree (1.0 GB: what card.sh sized the 1,513 MiB
# root of the measured 1,901 MiB image from), the partitions as files and the image (each
# about 1.1 GB allocated): about 4.2 GB, so 5000 MB. TINKER_IMAGE_NEED_MB: another figure
# (the tests; a builder whose cache is already there).
need_mb=${TINKER_IMAGE_NEED_MB:-5000}
mkdir -p "$out"
free_mb=$(df -Pm "$out" | awk 'NR == 2 { print $4 }')
case "$free_mb" in ''|*[!0-9]*) fail "df -Pm could not tell the free room in $out." ;; esac
[ "$free_mb" -ge "$need_mb" ] || fail "not enough room in $out: a build needs about" \
  "$need_mb MB free there and $free_mb MB are free (--out DIR names another place)."
rm -rf "$extra"; (umask 022 && mkdir -p "$extra")
if [ -n "$trust" ]; then
  "$here/steps/trust.sh" "$extra" "$trust" || exit 1
else
  echo "tinker image build: no --trust FILE: updates will be refused: the image carries no" \
    "allowed signers, so its update verifies no release (docs/image.md: --trust)." >&2
fi
if [ -n "$wifi_firmware" ]; then
  "$here/steps/wifi-firmware.sh" "$extra" "$wifi_firmware" "$here/steps/wifi-firmware.sha256" ||
    exit 1
  WIFI_FIRMWARE="$WIFI_FIRMWARE $WIFI_NOT_COVERED" WIFI_NOT_COVERED=
fi
if [ -n "$WIFI_NOT_COVERED" ]; then
  echo "tinker image build: no --wifi-firmware: $WIFI_NOT_COVERED_BOARDS will have no Wi-Fi" \
    "on this image (its firmware is in no Debian package; docs/image.md, Wi-Fi on each board)." >&2
fi

# --- 1. The host: its tools (each with its Debian package), root, arm64 binaries running ------
"$here/steps/host-check.sh" || exit 1
mirror=$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)$/\1/p; s/^deb \(http[^ ]*\/debian\) .*/\1/p' \
  /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}

# --- 2. The base system: Debian's packages (packages.txt), cached until that list changes -----
# (The list's comments are not the list: a reworded comment keeps the cache.)
key=$({ grep -v '^#' "$here/packages.txt"; cat "$here/steps/initramfs.conf" \
  "$here/steps/initramfs-hook"; } | cksum | cut -d' ' -f1)
base="$out/cache/base-$release-$key"
if [ ! -d "$base" ]; then
  step "the base system ($release, arm64) from $mirror: 10-40 minutes ..."
  mkdir -p "$out/cache"
  "$here/steps/base.sh" "$release" "$mirror" "$here/packages.txt" "$base" >"$out/base.log" 2>&1 ||
    fail "the base system did not build (mmdebstrap; the log: $out/base.log)."
fi

# --- 3. The tree: a copy of the base, with the image's own files laid over it ----------------
step "the tree: the base, the files of image/rootfs, the tray's checkout ($version) ..."
"$here/steps/remove-tree.sh" "$work"; mkdir -p "$work"
cp -a "$base" "$work/root"
"$here/steps/overlay.sh" "$here/rootfs" "$work/root"
"$here/steps/checkout.sh" "$repo" "$work/root/opt/tinker-tray" "$origin" ||
  fail "the tray's checkout could not be copied into the image."

# --- 4. Inside the tree (chroot, emulated): the venv and the compiled engine, the service, ----
#        the system's settings (locked root, no SSH host keys, first-boot state), boot files.
#        The venv and the compiled engine (half an hour under emulation) are cached until the
#        base, pyproject.toml, setup.py or the engine's sources change.
tray="$work/root/opt/tinker-tray"
built="$out/cache/tray-$release-$key-$(cat "$tray/pyproject.toml" "$tray/setup.py" \
  "$tray"/engine/*.py "$tray"/engine/disney/*.py | cksum | cut -d' ' -f1)"
if [ -d "$built" ]; then
  cp -a "$built/.venv" "$built/build" "$tray/" && touch "$tray"/.venv/.installed-*
fi
# lgpio, compiled inside the tree (12 minutes under emulation), cached with the base it was
# compiled for: the system's /usr/local/lib, where configure.sh puts it.
lgpio="$out/cache/lgpio-$release-$key"
[ ! -d "$lgpio" ] || cp -a "$lgpio/." "$work/root/usr/local/lib/"
step "inside the tree: the venv, the compiled engine, the service (minutes under emulation) ..."
"$here/steps/in-root.sh" "$work/root" /opt/tinker-tray/image/steps/configure.sh \
  >"$out/configure.log" 2>&1 || { tail -5 "$out/configure.log" >&2;
  fail "setting up the tray inside the image failed (the log: $out/configure.log)."; }
if [ ! -d "$built" ]; then
  rm -rf "$built.part"; mkdir -p "$built.part"
  cp -a "$tray/.venv" "$tray/build" "$built.part/" && mv "$built.part" "$built"
fi
if [ ! -d "$lgpio" ]; then
  rm -rf "$lgpio.part"; cp -a "$work/root/usr/local/lib" "$lgpio.part" && mv "$lgpio.part" "$lgpio"
fi
# The compiled engine beside the image, for the release's update file (`tinker-tray release
# pack --engine`): the trays' update is handed it and compiles nothing.
rm -rf "$out/$name.engine"; cp -a "$tray/build/mypyc" "$out/$name.engine"
# --trust, --wifi-firmware (step 0), laid over the tree; its own folders keep their modes
{ tar -C "$extra" -cf - . | tar -C "$work/root" -xf - --no-overwrite-dir; } ||
  fail "the files of --trust and --wifi-firmware could not be laid over the tree (above)."
"$here/steps/board-check.sh" "$work/root" "$DTBS" "$WIFI_FIRMWARE" "$WIFI_NOT_COVERED" || exit 1

# --- 5. The card: boot (FAT), data (the journal), root (grown to the card on first boot) ------
step "the card: partitions from plain files (mkfs.vfat + mcopy, mkfs.ext4 -d, sfdisk, dd) ..."
mkdir -p "$work/bootfs"   # the files a family edits: Wi-Fi, and the settings (the defaults)
cp "$here"/bootfs/* "$work/bootfs/"
cp "$repo/hardware/pinmap.toml" "$work/bootfs/tinker-tray-settings.txt"
"$here/steps/card.sh" "$work/root" "$work/bootfs" "$out/$name.img" ||
  fail "assembling the card image failed (above)."
"$here/steps/remove-tree.sh" "$work"; rm -rf "$extra"
if [ -n "$xz" ]; then
  step "compressing ($name.img.xz) ..."
  xz -T0 -6 -k -f "$out/$name.img" || fail "xz failed (above)."
else
  rm -f "$out/$name.img.xz"  # an earlier build's, of another .img: never in this release
fi

# --- 6. The release files: SHA256SUMS and Imager's list, beside the image (image/release.py) --
python3 "$here/release.py" "$out/$name.img" ${release_url:+--url "$release_url"} || exit 1
step "done: $out/$name.img ($(du -h --apparent-size "$out/$name.img" | cut -f1) raw," \
  "$(du -h "$out/$name.img" | cut -f1) used${xz:+, $(du -h "$out/$name.img.xz" | cut -f1) as .xz})."
