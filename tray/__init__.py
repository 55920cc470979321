"""The table tray: devices, the light show, the fair pick, the bus, the service and its displays."""
