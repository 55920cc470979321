#!/bin/sh
# Step "overlay": the image's own files (image/rootfs) laid over the tree, with the modes the
# system asks of them: NetworkManager ignores a keyfile that anyone but root can read.
#   steps/overlay.sh ROOTFS DEST
set -eu
rootfs=$1 dest=$2
cp -r --preserve=mode "$rootfs/." "$dest/"
chmod 600 "$dest"/etc/NetworkManager/system-connections/*.nmconnection
