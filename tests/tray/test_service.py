"""The service end to end on MockFactory pins: button edge -> pick on the bus -> show on pins."""

from __future__ import annotations

import dataclasses
import os
import signal
import socket
import threading
import time

import pytest

from tray import show
from tray.backend import COLOURS, DARK
from tray.events import ButtonHeld, ButtonPressed, Event, Fault, Pick, PickSettled
from tray.gpio_tray import GpioTray
from tray.pick import Picker
from tray.service import TrayService


def tap(pin):
    pin.drive_low()
    threading.Event().wait(0.05)
    pin.drive_high()


@pytest.fixture
def service(mock_factory, quick_config, bus):
    service = TrayService(GpioTray(quick_config), bus, Picker(seed=5), quick_config)
    service.start()
    yield service
    service.stop()


def wait_idle(service):
    """Until the show has landed (no sleeping on a guess: poll the service's own state)."""
    done = threading.Event()
    while service.spinning:
        done.wait(0.01)


def test_a_tap_publishes_the_press_then_the_pick(service, recorder):
    tap(service.tray.devices.button.pin)
    [pick] = recorder.wait_for(Pick)
    kinds = [type(e) for e in recorder.events]
    assert kinds == [ButtonPressed, Pick]
    assert pick.seq == 1 and pick.source == "gpio" and pick.colour in COLOURS
    assert service.history[-1] == pick


def test_the_show_lands_on_the_pick_on_the_pins(service, recorder):
    tray = service.tray
    seen: list[tuple] = []
    original = tray.devices.set_levels
    tray.player._show = lambda levels: (seen.append(levels), original(levels))
    service.press()
    [pick] = recorder.wait_for(Pick)
    wait_idle(service)
    assert tray.scheduler.alive()
    expected = show.frames(pick.colour, service.settings.show, pick.lead)
    settings = service.settings.show
    n = settings.steps + show.extra_steps(pick.colour, pick.lead, settings) + 2 * settings.blinks
    while seen and seen[0] == DARK:  # the lights-off of start() may or may not be recorded
        seen.pop(0)
    eventually(lambda: len(seen) > n)  # the settled frame may land just after the spin ends
    assert seen[: n + 1] == [f.levels for f in expected[: n + 1]]


def test_the_pick_is_made_before_the_show_starts(mock_factory, quick_config, bus, mocker):
    order: list[str] = []
    picker = Picker(seed=1)
    real_pick = picker.pick
    mocker.patch.object(
        picker, "pick", side_effect=lambda **kw: (order.append("pick"), real_pick(**kw))[1]
    )
    tray = GpioTray(quick_config)
    real_play = tray.play
    mocker.patch.object(tray, "play", side_effect=lambda f: (order.append("play"), real_play(f)))
    bus.subscribe(lambda e: order.append(e.type))
    service = TrayService(tray, bus, picker, quick_config)
    service.start()
    try:
        service.press()
        while "pick" not in order[-1:]:
            threading.Event().wait(0.01)
        assert order[:4] == ["pick", "play", "button_pressed", "pick"]
    finally:
        service.stop()


def test_virtual_and_hardware_presses_share_one_sequence(service, recorder):
    service.press()
    recorder.wait_for(Pick)
    wait_idle(service)
    tap(service.tray.devices.button.pin)
    picks = recorder.wait_for(Pick, 2)
    assert [(p.seq, p.source) for p in picks] == [(1, "virtual"), (2, "gpio")]


def test_presses_during_the_show_are_ignored(mock_factory, quick_config, bus, recorder):
    slow = dataclasses.replace(
        quick_config, show=dataclasses.replace(quick_config.show, last_step_s=1.0)
    )
    service = TrayService(GpioTray(slow), bus, Picker(), slow)
    service.start()
    try:
        service.press()
        recorder.wait_for(Pick)
        for _ in range(3):
            service.press()
        assert service._loop.alive()
        assert len(recorder.of(Pick)) == 1 and service.ignored == 3
        assert len(recorder.of(ButtonPressed)) == 1
    finally:
        service.stop()


def test_a_raising_subscriber_does_not_silence_later_presses(service, bus, recorder):
    def bad(event: Event) -> None:
        raise RuntimeError("subscriber bug")

    bus.subscribe(bad, Pick)
    tap(service.tray.devices.button.pin)
    recorder.wait_for(Pick)
    wait_idle(service)
    tap(service.tray.devices.button.pin)
    recorder.wait_for(Pick, 2)


def test_a_raising_tray_is_a_fault_but_the_pick_stands(service, recorder, mocker):
    mocker.patch.object(service.tray, "play", side_effect=[OSError("pin gone"), None])
    service.press()
    [fault] = recorder.wait_for(Fault)
    assert fault.kind == "tray_error" and "could not show pick 1: pin gone" in fault.message
    service.press()  # not ignored: nothing is spinning
    picks = recorder.wait_for(Pick, 2)
    assert [p.seq for p in picks] == [1, 2]


def test_an_unexpected_error_in_a_handler_is_a_fault(service, recorder, mocker):
    mocker.patch.object(service.picker, "pick", side_effect=[RuntimeError("rng broke")])
    service.press()
    [fault] = recorder.wait_for(Fault)
    assert fault.kind == "service_error" and "rng broke" in fault.message


def test_hold_repeats_the_last_show_without_a_new_pick(service, recorder, mocker):
    service.press()
    [pick] = recorder.wait_for(Pick)
    wait_idle(service)
    play = mocker.spy(service.tray, "play")
    service.tray.devices.button.pin.drive_low()
    recorder.wait_for(ButtonHeld)
    service.tray.devices.button.pin.drive_high()
    assert service._loop.alive()
    play.assert_called_once_with(show.frames(pick.colour, service.settings.show, pick.lead))
    assert len(recorder.of(Pick)) == 1 and recorder.of(ButtonPressed)[-1].source == "virtual"


def test_hold_selftest_walks_the_lights(mock_factory, quick_config, bus, recorder, mocker):
    config = dataclasses.replace(
        quick_config, button=dataclasses.replace(quick_config.button, hold_action="selftest")
    )
    service = TrayService(GpioTray(config), bus, Picker(), config)
    service.start()
    try:
        play = mocker.spy(service.tray, "play")
        service.hold()
        recorder.wait_for(ButtonHeld)
        assert service._loop.alive()
        play.assert_called_once_with(show.walk(brightness=1.0))
        assert recorder.of(Pick) == []
    finally:
        service.stop()


def test_a_stuck_button_is_published_as_a_fault(service, recorder):
    service.tray.devices.button.pin.drive_low()
    [fault] = recorder.wait_for(Fault)
    assert fault.kind == "stuck_button"
    assert recorder.of(Pick) == []


def test_stop_turns_lights_off_and_releases_pins(mock_factory, quick_config, bus, recorder):
    service = TrayService(GpioTray(quick_config), bus, Picker(), quick_config)
    service.start()
    service.press()
    recorder.wait_for(Pick)
    red = service.tray.devices.red.pin
    service.stop()
    service.stop()
    assert red.state == 0 and not any(mock_factory._reservations.values())


def test_run_forever_stops_on_sigterm_with_lights_off(mock_factory, quick_config, bus):
    service = TrayService(GpioTray(quick_config), bus, Picker(), quick_config)
    service.start()
    service.tray.set_lights((1, 1, 1, 1))
    timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGTERM))
    before = signal.getsignal(signal.SIGTERM)
    timer.start()
    service.run_forever()
    assert service.tray.devices.closed
    assert all(p.state == 0 for p in mock_factory.pins.values() if p.function == "output")
    assert signal.getsignal(signal.SIGTERM) is before


def test_systemd_ready_watchdog_and_stopping(
    mock_factory, quick_config, bus, tmp_path, monkeypatch
):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")  # ping every 50 ms
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    service = TrayService(GpioTray(quick_config), bus, Picker(), quick_config)
    service.start()
    thread = threading.Thread(target=service.run_forever, kwargs={"signals": False})
    thread.start()
    try:
        assert sock.recv(100) == b"READY=1"
        assert sock.recv(100) == b"WATCHDOG=1"
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        service.request_stop()
        thread.join(5)
    messages = []
    sock.settimeout(0.5)
    try:
        while True:
            messages.append(sock.recv(100))
    except TimeoutError:
        pass
    assert messages[-1] == b"STOPPING=1"
    sock.close()


def test_no_watchdog_ping_when_unhealthy(mock_factory, quick_config, bus, tmp_path, monkeypatch):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.3)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "100000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    service = TrayService(GpioTray(quick_config), bus, Picker(), quick_config)
    service.start()
    service.tray.healthy = lambda: False
    thread = threading.Thread(target=service.run_forever, kwargs={"signals": False})
    thread.start()
    try:
        assert sock.recv(100) == b"READY=1"
        with pytest.raises(TimeoutError):
            sock.recv(100)
    finally:
        service.request_stop()
        thread.join(5)
        sock.close()


def test_light_levels_are_dark_after_start(service):
    assert service.tray.scheduler.alive()
    assert service.tray.devices.levels() == DARK


def test_the_pick_carries_when_its_lights_settle_and_the_landing_is_announced_once(
    service, bus, recorder
):
    landed_at: list[float] = []
    bus.subscribe(lambda e: landed_at.append(time.monotonic()), PickSettled)
    service.press()
    [pick] = recorder.wait_for(Pick)
    settings = service.settings.show
    assert pick.shown_at is not None and pick.settles_at is not None
    assert pick.settles_at - pick.shown_at == pytest.approx(
        show.spin_seconds(settings, pick.colour, pick.lead)
    )
    assert pick.hidden(pick.shown_at) and not pick.hidden(pick.settles_at)
    [settled] = recorder.wait_for(PickSettled)
    assert settled.seq == pick.seq and landed_at[0] >= pick.settles_at
    wait_idle(service)
    assert service._relay.flush(5) and recorder.of(PickSettled) == [settled]
    kinds = [type(e) for e in recorder.events]
    assert kinds == [ButtonPressed, Pick, PickSettled]


def test_subscribers_never_run_on_the_trays_thread(service, bus, recorder):
    threads: set[str] = set()
    bus.subscribe(lambda e: threads.add(threading.current_thread().name))
    tap(service.tray.devices.button.pin)
    recorder.wait_for(PickSettled)
    assert threads == {"tray-events"}


def test_a_stuck_subscriber_does_not_hold_up_the_lights_or_the_button(service, bus, recorder):
    """The journal's fsync (or any subscriber) may take its time: the tray's thread only posts."""
    release = threading.Event()
    bus.subscribe(lambda e: release.wait(10), Pick)
    seen: list[tuple] = []
    original = service.tray.player._show
    service.tray.player._show = lambda levels: (seen.append(levels), original(levels))
    starts: list[int] = []  # where each show begins in `seen`: the first one's tail may run late
    start = service.tray.player._start
    service.tray.player._start = lambda frames: (starts.append(len(seen)), start(frames))
    try:
        service.press()
        first = eventually(lambda: list(service.history)[:1])[0]
        wait_idle(service)
        tap(service.tray.devices.button.pin)  # while the subscriber still sits on pick 1
        second = eventually(lambda: list(service.history)[1:])[0]
        wait_idle(service)
        assert service.tray.scheduler.alive()
        # the recorder (subscribed first) has pick 1; pick 2 waits behind the stuck subscriber
        assert [first.seq, second.seq] == [1, 2]
        assert [p.seq for p in recorder.of(Pick)] == [1]
        settings = service.settings.show
        landed = (
            settings.steps
            + show.extra_steps(second.colour, second.lead, settings)
            + 2 * settings.blinks
            + 1
        )
        expected = show.frames(second.colour, settings, second.lead)[:landed]
        assert len(starts) == 2
        eventually(lambda: len(seen) - starts[1] >= landed)
        after = seen[starts[1] :]
        assert after[:landed] == [f.levels for f in expected]
    finally:
        release.set()
    assert [p.seq for p in recorder.wait_for(Pick, 2)] == [1, 2]


def test_the_gpio_trays_press_is_handled_on_its_thread_without_a_second_hop(service, mocker):
    """The lent scheduler's press detector delivers on the scheduler's own thread: the service
    handles it there and then, instead of queueing it behind itself."""
    call_soon = mocker.spy(service.tray.scheduler, "call_soon")
    handle = mocker.spy(service, "_handle")
    tap(service.tray.devices.button.pin)
    eventually(lambda: handle.call_count or None)
    queued = [c.args[0] for c in call_soon.call_args_list]
    assert service._handle not in queued


def eventually(probe, timeout: float = 5.0):
    done = threading.Event()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = probe()
        if value:
            return value
        done.wait(0.005)
    raise AssertionError("the condition never came true")
