"""`python -m image.boot_settings BOOT_DIR ROOT_DIR`: the name the units of cards built before
the readers moved to bootfiles/ still run. `tinker-tray update` pulls new code but leaves /etc's
units as they were, so this name must keep working: it runs bootfiles.settings."""

import sys

from bootfiles.settings import main

if __name__ == "__main__":
    sys.exit(main())
