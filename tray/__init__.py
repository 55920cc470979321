"""The tray: the Tinker Bell button and four lights on gpiozero pins, debounce and tap-versus-hold,
the light show, the fair pick, the bus that publishes it (through a relay thread, so no subscriber
runs on the tray's own), the service and its settings. Other trays (`firmware_bridge`'s USB tray)
honour the same `tray.backend.Tray` protocol.
"""
