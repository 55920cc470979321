"""The stub `machine` module for the firmware under MicroPython's WebAssembly port, which has no
`machine`: firmware_bridge/fakemachine.py (the CPython tests' and the emulator's stub) in the
subset MicroPython runs, with the same behaviour and the same errors, so that replies compare
byte for byte. `Pin.drive(level)` is the finger on the button: it calls the IRQ handler on a
matching edge, as the real interrupt would."""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=None):
        self.id = id
        self.mode = mode
        self._level = 1 if pull == Pin.PULL_UP else 0
        self._handler = None
        self._trigger = 0

    def value(self, level=None):
        if level is None:
            return self._level
        self._level = 1 if level else 0
        return None

    def irq(self, handler=None, trigger=0, hard=False):
        self._handler, self._trigger = handler, trigger

    def drive(self, level):
        old, self._level = self._level, 1 if level else 0
        edge = 0
        if old != self._level:
            edge = Pin.IRQ_RISING if self._level else Pin.IRQ_FALLING
        if edge & self._trigger and self._handler is not None:
            self._handler(self)


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin
        self._freq = freq or 1000
        self._duty = duty_u16 or 0

    def freq(self, value=None):
        if value is None:
            return self._freq
        if not 8 <= value <= 62_500_000:  # the rp2 range; the real PWM raises too
            raise ValueError("freq %d out of range" % value)
        self._freq = value
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        if not 0 <= value <= 65535:
            raise ValueError("duty %d out of range" % value)
        self._duty = value
        return None

    def deinit(self):
        self._duty = 0
