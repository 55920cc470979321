#!/bin/sh
# Step "trust": the SSH allowed-signers file (`--trust FILE`) whose signers' release tags the
# tray's update installs (`git verify-tag`; docs/image.md, Updates), checked line by line
# (image/signers.py) and put at /etc/tinker-tray/allowed_signers, root's, readable by all.
#   steps/trust.sh DEST FILE
# DEST is a root laid over the image's tree (build.sh).
set -eu
umask 022  # folders the image gets: readable by all, whatever the builder's umask
dest=$1 file=$2
here=$(cd "$(dirname "$0")/.." && pwd)
python3 "$here/signers.py" "$file" || exit 1
install -D -m 0644 "$file" "$dest/etc/tinker-tray/allowed_signers"
[ "$(id -u)" != 0 ] || chown -R 0:0 "$dest/etc/tinker-tray"
