#!/bin/sh
# Step "board check": the built tree carries the board's device trees and every covered board's
# Wi-Fi firmware (else the build fails, naming what is missing), and says which boards' Wi-Fi
# it covers and which will have none (no Debian package has their firmware, and the build was
# given no --wifi-firmware).
#   steps/board-check.sh ROOT "DTB ..." "BOARD=FILE+FILE ..." "BOARD=FILE ..."
set -eu
root=$1 dtbs=$2 wifi=$3 not_covered=${4:-}
for dtb in $dtbs; do
  [ -f "$root/boot/firmware/$dtb" ] || {
    echo "tinker image build: the boot partition lacks $dtb (the board's device tree)." >&2
    exit 1; }
done
covered=
for pair in $wifi; do
  board=${pair%%=*}
  for file in $(echo "${pair#*=}" | tr '+' ' '); do
    [ -e "$root/lib/firmware/brcm/$file" ] || {
      echo "tinker image build: the image lacks /lib/firmware/brcm/$file (the $board's Wi-Fi)." >&2
      exit 1; }
  done
  covered="$covered $board"
done
missing=
for pair in $not_covered; do missing="$missing ${pair%%=*}"; done
why=${missing:+ (its firmware is in no Debian package: --wifi-firmware)}
echo "tinker image build: Wi-Fi firmware for:${covered:- none}; no Wi-Fi on:${missing:- none}$why." >&2
