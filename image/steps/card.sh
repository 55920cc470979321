#!/bin/sh
# Step "card": the SD-card image from the finished tree, from plain files only.
#   steps/card.sh ROOT BOOTFS OUT.img
# Partitions (MBR; sfdisk on the image file), each made as a file and placed with dd:
#   1  TRAY-BOOT  FAT32  256 MiB  root/boot/firmware + BOOTFS (the files a family edits)
#   2  tray-data  ext4   128 MiB  /var/lib/tinker-tray: the journal, apart from the root, so a
#                                 full root cannot stop it being written
#   3  tray-root  ext4   the tree, plus room; last, so the first boot grows it to the card
set -eu
root=$1 bootfs=$2 img=$3
mib=1048576 boot_mb=256 data_mb=128 first_mb=4
root_mb=$(( $(du -sm --apparent-size "$root" | cut -f1) * 5 / 4 + 256 ))
parts="$img.parts"
rm -rf "$parts"; mkdir -p "$parts"

mkfs.vfat -F 32 -n TRAY-BOOT -C "$parts/boot" $(( boot_mb * 1024 )) >/dev/null
for file in "$root"/boot/firmware/* "$bootfs"/*; do
  [ ! -e "$file" ] || mcopy -s -Q -i "$parts/boot" "$file" ::/
done
find "$root/boot/firmware" -mindepth 1 -delete  # the tree keeps the mount point, empty

mkdir -p "$parts/data"
[ ! -d "$root/var/lib/tinker-tray" ] || cp -a "$root/var/lib/tinker-tray/." "$parts/data/"
mkfs.ext4 -q -L tray-data -d "$parts/data" "$parts/data.fs" ${data_mb}M
mkdir -p "$root/var/lib/tinker-tray"; find "$root/var/lib/tinker-tray" -mindepth 1 -delete
mkfs.ext4 -q -L tray-root -d "$root" "$parts/root" ${root_mb}M

boot_at=$first_mb data_at=$(( first_mb + boot_mb )) root_at=$(( first_mb + boot_mb + data_mb ))
truncate -s $(( (root_at + root_mb) * mib )) "$img.part"
sfdisk --quiet "$img.part" <<TABLE
label: dos
unit: sectors
start=$(( boot_at * 2048 )), size=$(( boot_mb * 2048 )), type=c, bootable
start=$(( data_at * 2048 )), size=$(( data_mb * 2048 )), type=83
start=$(( root_at * 2048 )), size=$(( root_mb * 2048 )), type=83
TABLE
dd if="$parts/boot" of="$img.part" bs=1M seek=$boot_at conv=notrunc,sparse status=none
dd if="$parts/data.fs" of="$img.part" bs=1M seek=$data_at conv=notrunc,sparse status=none
dd if="$parts/root" of="$img.part" bs=1M seek=$root_at conv=notrunc,sparse status=none
rm -rf "$parts"
mv "$img.part" "$img"
