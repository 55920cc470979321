import sys

from tray.cli import main

sys.exit(main())
