#!/bin/sh
# Step "host": every tool the recipe runs, named with the Debian package that has it; root (the
# tree holds files of root and of the service's user, and is entered with chroot); arm64
# programs running here (qemu-user-static through binfmt_misc, mounted and enabled if need be).
set -eu
missing=
for pair in mmdebstrap:mmdebstrap qemu-aarch64-static:qemu-user-static \
    update-binfmts:binfmt-support arch-test:arch-test mkfs.vfat:dosfstools mcopy:mtools \
    mkfs.ext4:e2fsprogs sfdisk:fdisk xz:xz-utils git:git python3:python3; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
done
if [ -n "$missing" ]; then
  echo "tinker image build: missing host tools: sudo apt install$missing" >&2; exit 1
fi
if [ "$(id -u)" != 0 ]; then
  echo "tinker image build: it builds a system owned by root: run it as root (sudo ./tinker image build)." >&2
  exit 1
fi
if ! arch-test arm64 >/dev/null 2>&1; then
  [ -f /proc/sys/fs/binfmt_misc/register ] ||
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
  update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
  arch-test arm64 >/dev/null 2>&1 || {
    echo "tinker image build: arm64 programs do not run here (qemu-user-static's binfmt entry" \
      "qemu-aarch64 is not enabled: update-binfmts --enable qemu-aarch64)." >&2; exit 1; }
fi
