"""The tray's SD-card image: the recipe (build.sh, steps/), its release files (release.py) and
its update's signers checked (signers.py), the boot check under qemu (check.py, with
boot_share.py: ./tinker image check), its files (rootfs/, bootfs/) and the programs the card
runs at boot (onboard/; the boot partition's readers are the bootfiles package). docs/image.md."""
