"""The SD card's boot partition: the files a family, or Raspberry Pi Imager, writes on the card's
FAT partition from any computer (the Wi-Fi file, the settings file, Imager's firstrun.sh or
cloud-init files, authorized_keys, cmdline.txt), read at every boot by the image's units before
the network and the tray start:

    python -m bootfiles.imager BOOT_DIR ROOT_DIR    tinker-tray-imager.service
    python -m bootfiles.settings BOOT_DIR ROOT_DIR  tinker-tray-settings.service

Why a room of its own, and not image/ or cli/: image/ is the recipe that builds the card (shell
steps, file trees), run on a builder's machine, while this is Python a tray runs, so it is
installed, linted, typed and tested as the other rooms are. It is not part of the command line
either: the units run it before the tray (and its command line) may start, on a card where
nothing else is known to work, so it keeps its imports to the least: the tray's settings check
(tray.config: the settings file is checked exactly as the tray will read it) and, only when a
cloud-init file is there, Debian's YAML. It sits beside the scoreboard and the USB bridge in the
layers (pyproject.toml's import-linter contracts): above the tray, below the command line, and
forbidden pins, servers and the engine.

Everything on the card is hostile until read: each file is read bounded (size, depth, no YAML
aliases, time), answered in one sentence shown escaped (no escape sequence or line of the card's
reaches the screen or the login banner), once, and the boot always goes on (exit status 0).
"""
