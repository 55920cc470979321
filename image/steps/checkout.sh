#!/bin/sh
# Step "checkout": the tray's code in the image at /opt/tinker-tray, as a git clone of this
# checkout's HEAD (committed work only), its origin set to where `tinker-tray update` pulls from.
#   steps/checkout.sh REPO DEST ORIGIN
set -eu
repo=$1 dest=$2 origin=$3
rm -rf "$dest"
git clone --quiet --no-hardlinks "$repo" "$dest"
if [ -n "$origin" ]; then git -C "$dest" remote set-url origin "$origin"
else git -C "$dest" remote remove origin; fi
