"""The tray's SD-card image: the recipe (build.sh, steps/), its files (rootfs/, bootfs/) and the
programs the card runs at boot (onboard/; the boot partition's readers are the bootfiles
package). docs/image.md."""
