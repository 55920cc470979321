"""The scoreboard: the table's session kept in the journal, one view model of it, drawn as a web
page (live over server-sent events) and in a terminal; the reveal that keeps a pick back until
the tray's lights settle. It reads the tray's events from the bus and never touches a pin.
"""
