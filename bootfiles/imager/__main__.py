"""python -m bootfiles.imager BOOT_DIR (tinker-tray-imager.service)."""

import sys

from bootfiles.imager.honour import main

sys.exit(main())
