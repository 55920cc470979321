"""Pico entry point (runs at power-up). Copy wire.py, tinkerfw.py and this file to the board.

Hold the Tinker Bell button while plugging the tray in to skip the firmware and get the
MicroPython REPL back (Ctrl-C is disabled while the firmware runs, because byte 0x03 can occur in
a binary frame and would otherwise raise KeyboardInterrupt).
"""

import select
import sys
import time

import machine
import micropython

import tinkerfw


def main():
    button = machine.Pin(tinkerfw.DEFAULT_PINS["button"], machine.Pin.IN, machine.Pin.PULL_UP)
    time.sleep_ms(50)
    if button.value() == 0:
        print("tinker-tray firmware skipped: button held at power-up")
        return
    micropython.kbd_intr(-1)
    out = sys.stdout.buffer
    inp = sys.stdin.buffer
    fw = tinkerfw.Firmware(machine, out.write, time)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    while True:
        if poller.poll(1):  # wait at most 1 ms, then run the clocks
            data = inp.read(1)
            while poller.poll(0):
                data += inp.read(1)
            fw.feed(bytes(data))
        fw.poll()


main()
