"""The old name of bootfiles.imager, kept for the units of cards built before the move."""
