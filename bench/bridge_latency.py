"""Benchmark of the USB tray link, over pseudo-terminals (no hardware needed).

Prints, in one run:
  - round trip host → emulated firmware → host (a HEARTBEAT and its reply, through the real
    framing, CRC and firmware logic), median and p99 over 10,000 messages, beside a bare pyserial
    echo of the same number of bytes over the same kind of pty: the ratio is the protocol's cost;
  - sustained messages per second, and frames lost, in a 100,000-message burst;
  - time from replug to the link being up, and to the first press delivered.

    .venv/bin/python -m bench.bridge_latency [--messages 10000] [--burst 100000] [--replugs 10]
"""

from __future__ import annotations

import argparse
import logging
import os
import select
import threading
import time
import tty
from typing import cast

import serial

from bench.harness import heading, percentile, ratio, row, rows, timings
from firmware_bridge import protocol as p
from firmware_bridge.emulator import Emulator
from firmware_bridge.events import TrayLinked
from firmware_bridge.firmware import wire
from firmware_bridge.host import BridgeSettings, Port
from firmware_bridge.tray import SerialTray
from tray.events import ButtonPressed, Fault


def open_port(path: str) -> Port:
    return cast(Port, serial.serial_for_url(path, baudrate=115200, timeout=1.0, exclusive=True))


def bare_echo(n: int, size: int) -> list[float]:
    """The peer: a thread echoes whatever arrives on the master; pyserial on the slave."""
    master, slave = os.openpty()
    tty.setraw(master)
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            if select.select([master], [], [], 0.05)[0]:
                os.write(master, os.read(master, 4096))

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    port = open_port(os.ttyname(slave))
    message = bytes(range(1, size + 1))
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        port.write(message)
        got = port.read(size)
        times.append(time.perf_counter() - t0)
        assert got == message
    stop.set()
    thread.join()
    port.close()
    os.close(master)
    os.close(slave)
    return times


def linked_port(emulator: Emulator) -> tuple[Port, p.Decoder]:
    port = open_port(emulator.start())
    decoder = p.Decoder()
    port.write(p.encode(p.Hello(1, 1, 0, 1000, 60000), 0))
    while True:
        if any(isinstance(r.msg, p.HelloReply) for r in decoder.feed(port.read(1))):
            return port, decoder


def protocol_round_trip(n: int) -> tuple[list[float], int]:
    emulator = Emulator()
    port, decoder = linked_port(emulator)
    times = []
    for i in range(n):
        token = i & 0xFFFF
        frame = p.encode(p.Heartbeat(token), i)
        t0 = time.perf_counter()
        port.write(frame)
        done = False
        while not done:
            for r in decoder.feed(port.read(port.in_waiting or 1)):
                done = done or (isinstance(r.msg, p.HeartbeatReply) and r.msg.token == token)
        times.append(time.perf_counter() - t0)
    port.close()
    emulator.unplug()
    return times, len(frame)


def burst(n: int) -> dict[str, float]:
    """Send n heartbeats back to back while a reader thread counts the replies."""
    emulator = Emulator()
    port, decoder = linked_port(emulator)
    replies = 0
    done = threading.Event()

    def reader() -> None:
        nonlocal replies
        while replies < n:
            data = port.read(port.in_waiting or 1)
            if not data and done.is_set():
                return  # nothing for a second after the last write: the rest is lost
            replies += sum(isinstance(r.msg, p.HeartbeatReply) for r in decoder.feed(data))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    t0 = time.perf_counter()
    chunk = []
    for i in range(n):
        chunk.append(p.encode(p.Heartbeat(i & 0xFFFF), i))
        if len(chunk) == 64:  # a few frames per write, as a busy host would
            port.write(b"".join(chunk))
            chunk = []
    port.write(b"".join(chunk))
    done.set()
    thread.join()
    elapsed = time.perf_counter() - t0
    fw = emulator.firmware
    assert fw is not None
    result = {
        "sent": n,
        "replies": replies,
        "seconds": elapsed,
        "device_rx_bad": sum(fw.deframer.dropped.values()),
        "host_dropped": decoder.counters.dropped,
        "host_seq_gaps": decoder.counters.seq_gaps,
        "emulator_dropped_output": emulator.dropped_output,
    }
    port.close()
    emulator.unplug()
    return result


def replug(rounds: int) -> tuple[list[float], list[float]]:
    """Real SerialTray with default settings; unplug, replug, tap as soon as the tray is linked."""
    emulator = Emulator()
    emulator.start()
    events: list = []
    cond = threading.Condition()

    def deliver(event) -> None:
        with cond:
            events.append(event)
            cond.notify_all()

    def wait(kind, count, fault_kind=None) -> None:
        def enough() -> bool:
            return (
                sum(
                    isinstance(e, kind) and (fault_kind is None or e.kind == fault_kind)
                    for e in events
                )
                >= count
            )

        with cond:
            assert cond.wait_for(enough, 10), f"no {kind.__name__} #{count}: {events[-5:]}"

    tray = SerialTray("bench", settings=BridgeSettings(), resolve=lambda: emulator.path)
    tray.open(deliver)
    wait(TrayLinked, 1)
    to_link, to_press = [], []
    for i in range(rounds):
        emulator.unplug()
        wait(Fault, i + 1, "serial_lost")
        t0 = time.perf_counter()
        emulator.start()
        while emulator.firmware is None or emulator.firmware.mode != wire.MODE_LINKED:
            time.sleep(0.0005)
        to_link.append(time.perf_counter() - t0)
        emulator.tap(0.03)
        wait(ButtonPressed, i + 1)
        to_press.append(time.perf_counter() - t0)
    tray.close()
    emulator.unplug()
    return to_link, to_press


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--burst", type=int, default=100_000)
    ap.add_argument("--replugs", type=int, default=10)
    args = ap.parse_args()
    logging.getLogger("firmware_bridge").setLevel(logging.ERROR)  # the replugs' faults

    rt, size = protocol_round_trip(args.messages)
    echo = bare_echo(args.messages, size)
    heading(f"1. round trip over a pty, {args.messages} messages of {size} bytes each way")
    row("bare pyserial echo (the peer)", timings(echo))
    row("host → emulated firmware → host", timings(rt, echo))
    row("p99, protocol over bare", ratio(percentile(rt, 0.99), percentile(echo, 0.99)))

    b = burst(args.burst)
    heading(f"2. a burst of {b['sent']} heartbeats")
    rows(
        [
            ("replies", f"{b['replies']} in {b['seconds']:.2f} s"),
            ("round-trip messages/s sustained", f"{b['replies'] / b['seconds']:,.0f}"),
            ("frames lost", f"{b['sent'] - b['replies']}"),
            ("  device rx dropped", f"{b['device_rx_bad']}"),
            ("  host dropped", f"{b['host_dropped']}"),
            ("  host seq gaps", f"{b['host_seq_gaps']}"),
            ("  device output dropped", f"{b['emulator_dropped_output']}"),
        ]
    )

    link, press = replug(args.replugs)
    heading(f"3. {args.replugs} replugs (rescan 0.1 s; a press: 30 ms, debounced 20 ms)")
    row("replug → linked", timings(link))
    row("replug → first press delivered", timings(press))


if __name__ == "__main__":
    main()
