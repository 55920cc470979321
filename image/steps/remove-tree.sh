#!/bin/sh
# Step helper "remove-tree": delete a tree a chroot step may have left something mounted in
# (a build killed mid-way leaves mmdebstrap's or in-root.sh's /proc there): unmount first, and
# never delete across a mount (rm walked into a leftover /proc once).
#   steps/remove-tree.sh DIR
set -eu
tree=$1
[ -e "$tree" ] || exit 0
awk -v tree="$tree/" 'index($2, tree) == 1 { print $2 }' /proc/mounts | sort -r |
  while read -r mounted; do umount -l "$mounted"; done
rm -rf --one-file-system "$tree"
