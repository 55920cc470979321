#!/bin/sh
# Step "board check": the built tree carries the board's device trees (else the build fails,
# naming the missing one), and says which boards' Wi-Fi the release's firmware covers.
#   steps/board-check.sh ROOT "DTB ..." "BOARD=NVRAM_FILE ..."
set -eu
root=$1 dtbs=$2 wifi=$3
for dtb in $dtbs; do
  [ -f "$root/boot/firmware/$dtb" ] || {
    echo "tinker image build: the boot partition lacks $dtb (the board's device tree)." >&2
    exit 1; }
done
covered= missing=
for pair in $wifi; do
  if [ -e "$root/lib/firmware/brcm/${pair#*=}" ]; then covered="$covered ${pair%%=*}"
  else missing="$missing ${pair%%=*}"; fi
done
echo "tinker image build: Wi-Fi firmware for:${covered:- none}; not in this release:${missing:- none}." >&2
