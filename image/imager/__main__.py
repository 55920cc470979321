"""python -m image.imager BOOT_DIR (tinker-tray-imager.service)."""

import sys

from image.imager.honour import main

sys.exit(main())
