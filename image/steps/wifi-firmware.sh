#!/bin/sh
# Step "Wi-Fi firmware": the Pi Zero 2 W's Wi-Fi files that no Debian package has, taken from a
# source the builder names (`--wifi-firmware SOURCE`): Raspberry Pi OS's firmware-brcm80211
# package file (.deb, unpacked with dpkg-deb -x) or a folder holding the files. Each file is
# checked against the SHA-256 the recipe carries (SUMS: steps/wifi-firmware.sha256) and refused
# if it differs; the package's licence goes beside them (/usr/share/doc); then the links, named
# as the kernel asks for the files.
#   steps/wifi-firmware.sh DEST SOURCE SUMS
# DEST is a root laid over the image's tree (build.sh): DEST/usr/lib/firmware/brcm (trixie's
# /lib is /usr/lib) and DEST/usr/share/doc/tinker-tray-wifi-firmware/copyright.
set -eu
umask 022  # folders the image gets: readable by all, whatever the builder's umask
dest=$1 source=$2 sums=$3
say() { echo "tinker image build: --wifi-firmware $source: $*" >&2; exit 1; }

# The names the kernel asks for, and the file each is. Debian's Linux (brcmfmac) calls the
# Zero 2 W's BCM43430/2 chip "43430b0" and asks for its firmware, NVRAM and CLM files by the
# board's name first (the device tree's "raspberrypi,model-zero-2-w"), then without it;
# Raspberry Pi OS's own kernel calls the same chip "43436" and the BCM43430/1 "43436s". Their
# files are the 43436 ones, as Raspberry Pi OS links them. The BCM43430/1's 43430 names stay
# Debian's own (docs/image.md).
LINKS="
brcmfmac43430b0-sdio.raspberrypi,model-zero-2-w.bin brcmfmac43436-sdio.bin
brcmfmac43430b0-sdio.raspberrypi,model-zero-2-w.txt brcmfmac43436-sdio.txt
brcmfmac43430b0-sdio.raspberrypi,model-zero-2-w.clm_blob brcmfmac43436-sdio.clm_blob
brcmfmac43436-sdio.raspberrypi,model-zero-2-w.bin brcmfmac43436-sdio.bin
brcmfmac43436-sdio.raspberrypi,model-zero-2-w.txt brcmfmac43436-sdio.txt
brcmfmac43436-sdio.raspberrypi,model-zero-2-w.clm_blob brcmfmac43436-sdio.clm_blob
brcmfmac43436s-sdio.raspberrypi,model-zero-2-w.bin brcmfmac43436s-sdio.bin
brcmfmac43436s-sdio.raspberrypi,model-zero-2-w.txt brcmfmac43436s-sdio.txt
"

[ -f "$sums" ] || say "the recipe's sums ($sums) are missing."
unpacked=
trap 'rm -rf "$unpacked"' EXIT
if [ -d "$source" ]; then
  tree=$source
elif [ -f "$source" ]; then
  unpacked=$(mktemp -d)
  dpkg-deb -x "$source" "$unpacked" 2>/dev/null ||
    say "it is neither a folder nor a .deb package dpkg-deb can unpack."
  tree=$unpacked
else
  say "there is no such file or folder."
fi

firmware="$dest/usr/lib/firmware/brcm"
mkdir -p "$firmware"
grep -v '^#' "$sums" | while read -r want name; do
  [ -n "$name" ] || continue
  found=$(find "$tree" -type f -path "*/brcm/$name" -print -quit)  # a file, never a link out
  [ -n "$found" ] || found=$(find "$tree" -type f -name "$name" -print -quit)
  [ -n "$found" ] || say "it has no $name (Raspberry Pi OS's firmware-brcm80211 has it)."
  got=$(sha256sum <"$found" | cut -d' ' -f1)
  [ "$got" = "$want" ] || say "$name's SHA-256 is $got, not the recipe's $want ($sums): refused."
  install -m 0644 "$found" "$firmware/$name"
done

licence=$(find "$tree" -path "*/usr/share/doc/firmware-brcm80211/copyright" -print -quit)
[ -n "$licence" ] || licence=$(find "$tree" -maxdepth 1 \( -name copyright -o -name 'LICEN[CS]E*' \
  \) -print -quit)
[ -n "$licence" ] || say "it has no licence file (the package's copyright; a folder's" \
  "copyright or LICENCE file): the image carries the firmware only with its licence."
install -D -m 0644 "$licence" "$dest/usr/share/doc/tinker-tray-wifi-firmware/copyright"

echo "$LINKS" | while read -r link target; do
  if [ -n "$link" ]; then ln -sfn "$target" "$firmware/$link"; fi
done
[ "$(id -u)" != 0 ] || chown -R 0:0 "$dest/usr"
