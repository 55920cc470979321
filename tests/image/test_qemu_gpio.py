"""The patched qemu's Raspberry Pi GPIO, register by register, without booting Linux (issue 47):
qemu runs `-M raspi3ap -accel qtest` (no CPU; only these commands touch the machine) and the
test reads and writes the BCM2837's GPIO and interrupt controller as a driver would. Skipped
where `./tinker image qemu` has not built the patched qemu (CI's fresh machine)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from image.pins import GPIO_BASE, Change, PinMap, Pins, Qtest
from image.qemu import patched_qemu

QEMU = patched_qemu()

GPFSEL0, GPSET0, GPCLR0, GPLEV0, GPEDS0 = 0x00, 0x1C, 0x28, 0x34, 0x40
GPREN0, GPFEN0, GPHEN0, GPLEN0, GPAREN0, GPAFEN0 = 0x4C, 0x58, 0x64, 0x70, 0x7C, 0x88
GPPUD, GPPUDCLK0 = 0x94, 0x98
IC_PENDING_2, IC_ENABLE_2 = 0x3F00B208, 0x3F00B214
"""The BCM2835 interrupt controller's GPU interrupts 32-63 (GPIO: 49-52, bits 17-20)."""
NAMES = {GPREN0: "GPREN", GPFEN0: "GPFEN", GPAREN0: "GPAREN", GPAFEN0: "GPAFEN"}
"""The test ids' names of the edge detectors' enable registers."""
BUTTON = 26


@pytest.fixture
def qtest() -> Iterator[Qtest]:
    if QEMU is None:
        pytest.skip("no patched qemu built here (./tinker image qemu builds it).")
    with Qtest(QEMU, ["-M", "raspi3ap", "-accel", "qtest"]) as running:
        yield running


@pytest.fixture
def pins(qtest: Qtest) -> Pins:
    return Pins(qtest)


def gpio(qtest: Qtest, offset: int, value: int | None = None) -> int:
    """Read a GPIO register (or write it, when given a value)."""
    if value is not None:
        qtest.writel(GPIO_BASE + offset, value)
        return value
    return qtest.readl(GPIO_BASE + offset)


def bank_irqs(qtest: Qtest) -> set[int]:
    """The GPIO interrupts (49-52) pending at the interrupt controller."""
    pending = qtest.readl(IC_PENDING_2)
    return {32 + bit for bit in range(17, 21) if pending & (1 << bit)}


def test_a_driven_input_shows_in_gplev(pins: Pins, qtest: Qtest) -> None:
    pins.drive(BUTTON, 1)
    assert gpio(qtest, GPLEV0) == 1 << BUTTON
    pins.drive(BUTTON, 0)
    assert gpio(qtest, GPLEV0) == 0
    pins.drive(40, 1)
    assert gpio(qtest, GPLEV0 + 4) == 1 << (40 - 32)


@pytest.mark.parametrize(
    ("enable", "start", "end", "latched"),
    [
        (GPREN0, 0, 1, True),  # rising
        (GPREN0, 1, 0, False),
        (GPFEN0, 1, 0, True),  # falling
        (GPFEN0, 0, 1, False),
        (GPAREN0, 0, 1, True),  # asynchronous rising
        (GPAREN0, 1, 0, False),
        (GPAFEN0, 1, 0, True),  # asynchronous falling
        (GPAFEN0, 0, 1, False),
    ],
    ids=lambda value: NAMES.get(value, str(value)),
)
def test_each_edge_detector_latches_only_its_own_edge(
    pins: Pins, qtest: Qtest, enable: int, start: int, end: int, latched: bool
) -> None:
    bit = 1 << BUTTON
    pins.drive(BUTTON, start)
    pins.drive(BUTTON, end)
    assert gpio(qtest, GPEDS0) == 0, "nothing is latched while no detector is enabled"
    gpio(qtest, enable, bit)
    pins.drive(BUTTON, start)
    gpio(qtest, GPEDS0, bit)
    pins.drive(BUTTON, end)
    assert gpio(qtest, GPEDS0) == (bit if latched else 0)
    gpio(qtest, GPEDS0, bit)
    assert gpio(qtest, GPEDS0) == 0, "write 1 to clear"


@pytest.mark.parametrize(("enable", "level"), [(GPHEN0, 1), (GPLEN0, 0)], ids=["GPHEN", "GPLEN"])
def test_a_level_detector_latches_while_its_level_lasts(
    pins: Pins, qtest: Qtest, enable: int, level: int
) -> None:
    bit = 1 << BUTTON
    pins.drive(BUTTON, level)
    pins.drive(BUTTON, 1 - level)
    assert gpio(qtest, GPEDS0) == 0, "nothing is latched while no detector is enabled"
    gpio(qtest, enable, bit)
    assert gpio(qtest, GPEDS0) == 0, "the other level"
    pins.drive(BUTTON, level)
    assert gpio(qtest, GPEDS0) == bit
    gpio(qtest, GPEDS0, bit)
    assert gpio(qtest, GPEDS0) == bit, "cleared while the level lasts: latched again"
    pins.drive(BUTTON, 1 - level)
    gpio(qtest, GPEDS0, bit)
    assert gpio(qtest, GPEDS0) == 0, "write 1 to clear"


def test_the_bank_interrupts_follow_the_latched_events(pins: Pins, qtest: Qtest) -> None:
    qtest.writel(IC_ENABLE_2, 0xF << 17)
    for pin, irq in ((BUTTON, 49), (40, 50), (47, 51)):
        register, bit = 4 * (pin // 32), 1 << (pin % 32)
        gpio(qtest, GPREN0 + register, bit)
        assert bank_irqs(qtest) == set()
        pins.drive(pin, 1)
        assert bank_irqs(qtest) == {irq, 52}, f"pin {pin}"
        gpio(qtest, GPEDS0 + register, bit)
        assert bank_irqs(qtest) == set()
        pins.drive(pin, 0)
        assert bank_irqs(qtest) == set(), "a falling edge, not enabled"


def test_pulls_decide_an_undriven_input(pins: Pins, qtest: Qtest) -> None:
    bit = 1 << BUTTON

    def pull(control: int) -> None:  # the datasheet's sequence: control, clock, both off
        gpio(qtest, GPPUD, control)
        gpio(qtest, GPPUDCLK0, bit)
        gpio(qtest, GPPUD, 0)
        gpio(qtest, GPPUDCLK0, 0)

    assert gpio(qtest, GPLEV0) == 0, "no pull, nothing driving: 0"
    pull(2)
    assert gpio(qtest, GPLEV0) == bit, "pulled up"
    pins.press()
    assert gpio(qtest, GPLEV0) == 0, "driving overrides the pull"
    pins.release()
    assert gpio(qtest, GPLEV0) == bit, "released: the pull again"
    pull(1)
    assert gpio(qtest, GPLEV0) == 0, "pulled down"
    pins.drive(BUTTON, 1)
    assert gpio(qtest, GPLEV0) == bit


def test_an_output_pins_changes_are_seen_outside_with_their_times(pins: Pins, qtest: Qtest) -> None:
    red = pins.pinmap.leds["red"]  # GPIO5: GPFSEL0 bits 15-17
    qtest.command("irq_intercept_out /machine/soc/peripherals/gpio")
    gpio(qtest, GPSET0, 1 << red)
    assert qtest.irqs == [], "an input's latch drives nothing"
    gpio(qtest, GPFSEL0, 1 << (3 * red))
    start = pins.wait(1_000_000)
    gpio(qtest, GPCLR0, 1 << red)
    end = pins.wait(2_000_000)
    gpio(qtest, GPSET0, 1 << red)
    assert qtest.irqs == [("raise", red), ("lower", red), ("raise", red)]
    assert gpio(qtest, GPLEV0) == 1 << red
    assert pins.changes() == [
        Change(red, 1, start - 1_000_000),
        Change(red, 0, start),
        Change(red, 1, end),
    ]
    assert end - start == 2_000_000


def test_a_bouncing_press_latches_one_event_until_cleared(pins: Pins, qtest: Qtest) -> None:
    bit = 1 << BUTTON
    gpio(qtest, GPPUD, 2)
    gpio(qtest, GPPUDCLK0, bit)  # the button's pull-up (pinmap.toml: pull_up = true)
    qtest.writel(IC_ENABLE_2, 1 << 17)
    gpio(qtest, GPFEN0, bit)
    pins.bouncing_press(edges=5, over_ns=3_000_000)  # down, up, down, up, down
    assert gpio(qtest, GPEDS0) == bit
    assert bank_irqs(qtest) == {49}
    gpio(qtest, GPEDS0, bit)
    assert gpio(qtest, GPEDS0) == 0, "one write clears the bounces' one event"
    assert bank_irqs(qtest) == set()
    assert gpio(qtest, GPLEV0) == 0, "held down"
    pins.release()
    assert gpio(qtest, GPEDS0) == 0, "releasing is a rising edge: not enabled"


def test_the_driver_uses_the_pin_map() -> None:
    leds = {"red": 5, "blue": 6, "green": 13, "yellow": 19}
    assert PinMap.load() == PinMap(button=26, leds=leds, gains=dict.fromkeys(leds, 1.0))
