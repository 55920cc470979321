"""The tray's SD-card image: the recipe (build.sh, steps/), its release files (release.py) and
its update's signers checked (signers.py), the boot check under qemu (check.py, with
boot_share.py: ./tinker image check), and what runs on the card at boot (boot_settings,
imager/, onboard/). docs/image.md."""
