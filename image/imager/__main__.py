"""`python -m image.imager BOOT_DIR`: the name the units of cards built before the readers moved
to bootfiles/ still run (an update leaves /etc's units as they were): it runs bootfiles.imager."""

import sys

from bootfiles.imager.honour import main

sys.exit(main())
