"""The automatic pin choice: a Pi whose user may not open its GPIO gets one line naming the group
(lgpio's reason kept), never RPi.GPIO's traceback; a laptop falls back to the emulator.

The board, its device files and the backends are this module's seams (monkeypatched); the pins
themselves are gpiozero's real MockFactory."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from cli.main import main
from tray import pins

PI_4 = b"Raspberry Pi 4 Model B Rev 1.4\0"


@pytest.fixture
def pi_without_access(tmp_path, monkeypatch):
    """A board that reads as a Pi 4 whose gpiochip and gpiomem this user cannot open; lgpio
    fails as it does there, and RPi.GPIO would open (it only fails on the first pin)."""
    model = tmp_path / "model"
    model.write_bytes(PI_4)
    chip = tmp_path / "gpiochip0"
    chip.touch()
    monkeypatch.setattr(pins, "MODEL_FILES", (model,))
    monkeypatch.setattr(pins, "DEVICE_PATTERNS", (str(tmp_path / "gpio*"),))
    monkeypatch.setattr(pins, "can_open", lambda path: False)
    monkeypatch.setattr(pins, "device_group", lambda path: "gpio")
    tried = []

    def load(name):
        tried.append(name)
        if name == "lgpio":
            raise OSError("can not open gpiochip")
        return MockFactory()

    monkeypatch.setattr(pins, "load_backend", load)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    return tried


def test_a_pi_without_access_names_the_group_and_keeps_lgpios_reason(pi_without_access):
    with pytest.raises(pins.NoGpioAccess) as caught:
        pins.make_pin_factory("auto")
    message = str(caught.value)
    assert "gpio group" in message and "usermod -aG gpio" in message
    assert "lgpio: can not open gpiochip" in message
    assert "\n" not in message
    assert pi_without_access == ["lgpio"]  # RPi.GPIO was never opened


def test_naming_rpigpio_without_access_is_refused_before_it_opens(pi_without_access):
    with pytest.raises(pins.NoGpioAccess, match="gpio group"):
        pins.make_pin_factory("rpigpio")
    assert pi_without_access == []


def test_a_pi_with_no_gpio_device_at_all_says_so(pi_without_access, tmp_path, monkeypatch):
    monkeypatch.setattr(pins, "DEVICE_PATTERNS", (str(tmp_path / "nothing*"),))
    with pytest.raises(pins.NoGpioAccess, match="no GPIO device is visible"):
        pins.make_pin_factory("auto")


def test_run_on_such_a_pi_prints_one_line_and_no_traceback(pi_without_access, capsys):
    assert main(["run", "--no-web", "--presses", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err and "gpio group" in err and "emulate" in err


def test_bench_on_such_a_pi_prints_one_line(pi_without_access, capsys):
    assert main(["bench", "--answers", "yyyyyyyy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "gpio group" in err


def test_with_access_lgpio_is_used(pi_without_access, monkeypatch):
    monkeypatch.setattr(pins, "can_open", lambda path: True)
    pi_without_access.clear()
    monkeypatch.setattr(pins, "load_backend", lambda name: pi_without_access.append(name) or "ok")
    assert pins.make_pin_factory("auto") == "ok"
    assert pi_without_access == ["lgpio"]


def test_off_a_pi_no_backend_is_no_gpio_and_run_falls_back_to_the_emulator(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(pins, "MODEL_FILES", (tmp_path / "absent",))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)

    def load(name):
        raise ImportError(f"No module named {name!r}")

    monkeypatch.setattr(pins, "load_backend", load)
    with pytest.raises(pins.NoGpio) as caught:
        pins.make_pin_factory("auto")
    assert not isinstance(caught.value, pins.NoGpioAccess)
    assert "lgpio: not installed" in str(caught.value)
    assert main(["run", "--no-web", "--presses", "1"]) == 0
    assert "running the emulator instead" in capsys.readouterr().err


def test_mock_is_gpiozeros_real_mock_factory(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = pins.make_pin_factory("auto")
    try:
        assert isinstance(factory, MockFactory)
        pin = factory.pin(17)
        pin.function = "output"
        pin.state = 1
        assert pin.state == 1
    finally:
        factory.reset()


def test_the_board_model_is_read_without_its_trailing_nul(tmp_path, monkeypatch):
    model = tmp_path / "model"
    model.write_bytes(PI_4)
    monkeypatch.setattr(pins, "MODEL_FILES", (tmp_path / "absent", model))
    assert pins.board_model() == "Raspberry Pi 4 Model B Rev 1.4"


def test_pins_another_device_holds_are_one_line(monkeypatch, capsys):
    """A pin already taken (here by another device on the same MockFactory; on a Pi another
    program, lgpio's "GPIO busy") stops `run` with one line, before anything is served."""
    from gpiozero import DigitalOutputDevice
    from gpiozero.pins.mock import MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    holder = DigitalOutputDevice(26, pin_factory=factory)  # the default button pin
    monkeypatch.setattr(pins, "make_pin_factory", lambda name: factory)
    try:
        assert main(["run", "--no-web", "--presses", "1"]) == 1
    finally:
        holder.close()
        factory.reset()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the tray's pins did not open" in err
    assert "Traceback" not in err
