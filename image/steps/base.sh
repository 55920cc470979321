#!/bin/sh
# Step "base": the Debian system, as a directory (cached by the recipe: the slow step, 10-40 min
# under qemu-user). Everything is a Debian package from the archive; nothing of the tray yet.
#   steps/base.sh RELEASE MIRROR PACKAGES_FILE OUTDIR
# The initramfs is made small (MODULES=list plus the SD card's and the root's modules) before
# the kernel is configured: the default (MODULES=most) runs one emulated process per module.
set -eu
release=$1 mirror=$2 packages=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
"$here/remove-tree.sh" "$out.part"  # (what a killed build left mounted in it, first)
components="main non-free-firmware"
list=$(grep -v '^#' "$packages" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
mmdebstrap --format=directory --arch=arm64 --variant=minbase --components="$components" --include="$list" \
  --setup-hook="mkdir -p \"\$1/etc/initramfs-tools/conf.d\" \"\$1/etc/initramfs-tools/hooks\"" \
  --setup-hook="cp \"$here/initramfs.conf\" \"\$1/etc/initramfs-tools/conf.d/tinker-tray.conf\"" \
  --setup-hook="install -m 755 \"$here/initramfs-hook\" \"\$1/etc/initramfs-tools/hooks/tinker-tray\"" \
  "$release" "$out.part" \
  "deb $mirror $release $components" \
  "deb $mirror $release-updates $components" \
  "deb ${mirror%/debian}/debian-security $release-security $components"
mv "$out.part" "$out"
