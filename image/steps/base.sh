#!/bin/sh
# Step "base": the Debian system, as a directory (cached by the recipe: the slow step, 10-40 min
# under qemu-user). Everything is a Debian package from the archive; nothing of the tray yet.
#   steps/base.sh RELEASE MIRROR PACKAGES_FILE OUTDIR
# The initramfs is made small (MODULES=list plus the SD card's and the root's modules) before
# the kernel is configured: the default (MODULES=most) runs one emulated process per module.
set -eu
release=$1 mirror=$2 packages=$3 out=$4
# A build killed mid-way can leave mmdebstrap's /proc mounted in the unfinished tree: never
# delete through a mount (unmounted first; and rm stays on the tree's own file system).
awk -v part="$out.part/" 'index($2, part) == 1 { print $2 }' /proc/mounts | sort -r |
  while read -r mounted; do umount -l "$mounted"; done
rm -rf --one-file-system "$out.part"
here=$(cd "$(dirname "$0")" && pwd)
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
