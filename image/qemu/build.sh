#!/bin/sh
# A qemu-system-aarch64 whose Raspberry Pi GPIO has inputs, pulls, edge detection and the bank
# interrupts (bcm2835-gpio-inputs.patch, beside this script): Debian's own qemu source, as
# bookworm ships it, with that one patch, only the aarch64 system target.
#
#   ./tinker image qemu [OPTION ...]    (--help lists them)
#
# The result is cached, keyed by Debian's source version and the patch's SHA-256, in
# ${XDG_CACHE_HOME:-$HOME/.cache}/tinker-tray/qemu-VERSION-PATCHSHA12/qemu-system-aarch64, where
# image.qemu.patched_qemu() finds it. A build for this patch already there: nothing is done.
# docs/image.md, "An emulated Pi whose pins work".
set -eu
megabytes() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
here=$(cd "$(dirname "$0")" && pwd)
patch_file="$here/bcm2835-gpio-inputs.patch"

usage() {
  cat <<'HELP'
usage: ./tinker image qemu [OPTION ...]

Builds Debian bookworm's qemu (apt-get source) with image/qemu/bcm2835-gpio-inputs.patch, the
aarch64-softmmu target only, and caches the binary (docs/image.md).

  --cache DIR   where the built binaries are kept (default ${XDG_CACHE_HOME:-$HOME/.cache}/tinker-tray)
  --work DIR    where the source is fetched and built (default /var/tmp/tinker-tray-qemu)
  --jobs N      parallel compile jobs (default 2), run under nice -n 10
  --refresh     ask Debian for its current qemu source even if a build of this patch is cached
  --help        this help
HELP
}

cache=${XDG_CACHE_HOME:-$HOME/.cache}/tinker-tray
work=/var/tmp/tinker-tray-qemu
jobs=2
refresh=
while [ $# -gt 0 ]; do
  case "$1" in
    --cache|--work|--jobs)
      [ $# -gt 1 ] || { echo "tinker image qemu: $1 needs a value (see --help)." >&2; exit 2; } ;;
  esac
  case "$1" in
    --cache) cache=$2; shift ;;
    --work) work=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --refresh) refresh=1 ;;
    --help|-h) usage; exit 0 ;;
    *) echo "tinker image qemu: unknown option $1 (see --help)." >&2; exit 2 ;;
  esac
  shift
done

sha=$(sha256sum "$patch_file" | cut -c1-12)
# A build of this patch, of any Debian version: the network is not asked unless --refresh.
if [ -z "$refresh" ]; then
  for found in "$cache"/qemu-*-"$sha"/qemu-system-aarch64; do
    if [ -x "$found" ]; then
      echo "tinker image qemu: already built, nothing to do: $found" \
        "($(megabytes "$found")); --refresh to check Debian for a newer source."
      exit 0
    fi
  done
fi

# Debian's build dependencies this configuration needs (checked, not installed: as root,
# the line below installs them).
missing=
for pc in glib-2.0 pixman-1 slirp; do pkg-config --exists "$pc" 2>/dev/null || missing=1; done
[ -f /usr/include/libfdt.h ] || missing=1  # Debian's libfdt-dev has no pkg-config file
for tool in ninja meson flex bison dpkg-source patch python3; do
  command -v "$tool" >/dev/null 2>&1 || missing=1
done
if [ -n "$missing" ]; then
  echo "tinker image qemu: the build needs Debian's packages: apt-get install -y dpkg-dev" \
    "ninja-build meson libglib2.0-dev libpixman-1-dev libfdt-dev libslirp-dev pkg-config" \
    "python3-venv flex bison patch" >&2
  exit 1
fi

started=$(date +%s)
mkdir -p "$work/lists/partial" "$cache"
cd "$work"
# A private apt configuration: bookworm's deb-src entries, without touching /etc/apt.
cat > sources.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
apt_opts="-o Dir::Etc::SourceList=$work/sources.sources -o Dir::Etc::SourceParts=/dev/null"
apt_opts="$apt_opts -o Dir::State::Lists=$work/lists -o APT::Sandbox::User=root"
# shellcheck disable=SC2086  # apt_opts is a list of words
apt-get update -qq $apt_opts
# shellcheck disable=SC2086
# The .dsc apt would fetch (or "Skipping already downloaded file" names): its name is the version.
# (Its file name, the second field: the address before it is URL-encoded, 7.2%2bdfsg.)
dsc=$(apt-get source --print-uris $apt_opts qemu 2>/dev/null |
  awk '$2 ~ /^qemu_.*\.dsc$/ { print $2; exit } /Skipping already downloaded file/ {
    for (i = 1; i <= NF; i++) if ($i ~ /^.qemu_.*\.dsc.$/) { print substr($i, 2, length($i) - 2); exit } }')
[ -n "$dsc" ] || { echo "tinker image qemu: Debian's qemu source was not found." >&2; exit 1; }
version=${dsc#qemu_}; version=${version%.dsc}                  # e.g. 7.2+dfsg-7+deb12u18
dest="$cache/qemu-$version-$sha"
if [ -x "$dest/qemu-system-aarch64" ]; then
  echo "tinker image qemu: already built, nothing to do: $dest/qemu-system-aarch64" \
    "($(megabytes "$dest/qemu-system-aarch64"))."
  exit 0
fi
echo "tinker image qemu: Debian's qemu $version with the patch $sha, into $dest"
# shellcheck disable=SC2086
[ -f "$dsc" ] || apt-get source -qq --download-only $apt_opts qemu
# A fresh tree every time: dpkg-source applies Debian's own patches, then ours. (Its "cannot
# verify inline signature" is only the missing debian-keyring: apt-get has already checked the
# files against the signed Sources index, and dpkg-source their checksums against the .dsc.)
rm -rf src build
dpkg-source -x "$dsc" src > dpkg-source.log 2>&1 ||
  { echo "tinker image qemu: dpkg-source failed: $work/dpkg-source.log" >&2; exit 1; }
(cd src && patch -p1 --quiet < "$patch_file")
mkdir build
cd build
# Only what an emulated Pi needs: TCG, the raspi machines and their devices, the user network
# (hostfwd, for the boot check's page) and libfdt; no docs, tools, UI, guest agent or audio.
nice -n 10 ../src/configure --target-list=aarch64-softmmu --without-default-features \
  --enable-fdt=system --enable-slirp --disable-docs --disable-tools --disable-guest-agent \
  --disable-gtk --disable-sdl --disable-vnc --disable-werror --disable-debug-info \
  --disable-user --disable-install-blobs > configure.log 2>&1 ||
  { echo "tinker image qemu: configure failed: $work/build/configure.log" >&2; exit 1; }
nice -n 10 ninja -j"$jobs" qemu-system-aarch64 > ninja.log 2>&1 ||
  { echo "tinker image qemu: the build failed: $work/build/ninja.log" >&2; exit 1; }
mkdir -p "$dest.tmp"
strip -o "$dest.tmp/qemu-system-aarch64" qemu-system-aarch64
cp "$patch_file" "$dest.tmp/"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
ended=$(date +%s)
echo "tinker image qemu: built in $((ended - started)) s: $dest/qemu-system-aarch64" \
  "($(megabytes "$dest/qemu-system-aarch64")). Firmware files it may ask for: -L /usr/share/qemu."
