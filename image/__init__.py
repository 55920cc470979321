"""The tray's SD-card image: the recipe (build.sh, steps/) and what runs on the card at boot
(boot_settings, onboard/). docs/image.md."""
