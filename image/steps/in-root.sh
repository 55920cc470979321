#!/bin/sh
# Run one program inside the image's tree (chroot; arm64 programs through qemu-user). /proc and
# /dev are bound in for its run and unbound after, even when it fails: the tree's folders, not
# the image (which does not exist yet). For the run, the host's resolv.conf and the host's CA
# certificates for pip (a build machine behind a proxy that signs its own), its proxy settings
# if any; then the tree's own resolv.conf again, and no trace of the host's certificates.
#   steps/in-root.sh ROOT PROGRAM [ARGS]
set -eu
root=$1; shift
cleanup() {
  for fs in dev/pts dev proc; do umount "$root/$fs" 2>/dev/null || true; done
  rm -f "$root/etc/resolv.conf" "$root/tmp/host-ca-certificates.crt"
  if [ -e "$root/etc/resolv.conf.image" ] || [ -L "$root/etc/resolv.conf.image" ]; then
    mv "$root/etc/resolv.conf.image" "$root/etc/resolv.conf"
  fi
}
trap cleanup EXIT INT TERM
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
if [ -e "$root/etc/resolv.conf" ] || [ -L "$root/etc/resolv.conf" ]; then
  mv "$root/etc/resolv.conf" "$root/etc/resolv.conf.image"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$root/tmp/host-ca-certificates.crt"
chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  PIP_CERT=/tmp/host-ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
  ${http_proxy:+http_proxy="$http_proxy"} ${https_proxy:+https_proxy="$https_proxy"} \
  ${no_proxy:+no_proxy="$no_proxy"} "$@"
