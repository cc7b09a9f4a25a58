"""The table config: the example loads, defaults apply, and every bad value is named."""
from __future__ import annotations

from pathlib import Path

import pytest

from hardware import config as C
from hardware.errors import ConfigError, HardwareError


def test_example_config_loads_with_its_values() -> None:
    cfg = C.load(C.EXAMPLE)
    assert cfg.players.dark == "Ann" and cfg.players.right == "light"
    assert cfg.cube_display.type == "ht16k33" and cfg.cube_display.i2c_address == 0x70
    assert cfg.cube_display.owner_pins == (16, 20, 21)
    assert cfg.rules.match_to == 7 and cfg.rules.early_roll == "stands"
    assert [b.press for b in cfg.buttons.dark][:3] == ["double", "take", "pass"]
    assert cfg.buttons.light[0] == C.ButtonSpec(17, "take", "pass")
    assert cfg.screen.size == (1280, 720) and cfg.players.dark_colour == (0x2A, 0x26, 0x24)
    assert cfg.source.endswith("table.example.toml")


def test_empty_config_gives_defaults() -> None:
    cfg = C.loads("")
    assert cfg.cube_display.type == "none" and cfg.buttons.dark == () and cfg.rules.match_to == 0
    assert cfg.dice.port is None and cfg.screen.driver == "auto"


@pytest.mark.parametrize("text, key, value", [
    ('[cube_display]\ni2c_address = 300', "cube_display.i2c_address", 300),
    ('[cube_display]\ntype = "lcd"', "cube_display.type", "lcd"),
    ('[cube_display]\nowner_pins = [1, 2]', "cube_display.owner_pins", [1, 2]),
    ('[cube_display]\nowner_pins = [1, 2, 40]', "cube_display.owner_pins[2]", 40),
    ('[cube_display]\ntype = "leds"', "cube_display.value_pins", []),
    ('[camera]\nsource = "webcam"', "camera.source", "webcam"),
    ('[camera]\nsource = "replay"', "camera.path", ""),
    ('[camera]\nresolution = [640]', "camera.resolution", [640]),
    ('[rules]\nearly_roll = "maybe"', "rules.early_roll", "maybe"),
    ('[rules]\ndie_on_checker = "ignore"', "rules.die_on_checker", "ignore"),
    ('[rules]\ncube_limit = 48', "rules.cube_limit", 48),
    ('[rules]\nmatch_to = 7\njacoby = true', "rules.jacoby", True),
    ('[rules]\ncrawford = "yes"', "rules.crawford", "yes"),
    ('[players]\nleft = "north"', "players.left", "north"),
    ('[players]\ndark_colour = "red"', "players.dark_colour", "red"),
    ('[players]\nlight = ""', "players.light", ""),
    ('[dice]\nusb_vid = "0x2341"', "dice.usb_pid", None),
    ('[dice]\nport = 3', "dice.port", 3),
    ('[screen]\nsize = [100, 100]', "screen.size", 100),
    ('[screen]\nbottom = "north"', "screen.bottom", "north"),
    ('[screen]\nfulscreen = true', "screen.fulscreen", True),
    ('[buttons]\ndark = [{pin = 5, press = "dubble"}]', "buttons.dark[0].press", "dubble"),
    ('[buttons]\ndark = [{pin = 5}]', "buttons.dark[0]", {"pin": 5}),
    ('[buttons]\ndark = [{pin = 5, press = "take"}, {pin = 6, press = "pass", long = "take"}]', "buttons.dark[1]", "take"),
    ('[buttons]\ndark = [{pin = 5, press = "take"}]\nlight = [{pin = 5, press = "take"}]', "buttons.light[0].pin", 5),
    ('[buttons]\ndark = [{pin = 16, press = "take"}]\n[cube_display]\nowner_pins = [16, 20, 21]', "buttons.dark[0].pin", 16),
    ('[buttons]\nlong_press_ms = 100\ndebounce_ms = 200', "buttons.long_press_ms", 100),
    ('[cameras]\nsource = "opencv"', "cameras", "[...]"),
])
def test_errors_name_the_key_and_the_value(text: str, key: str, value: object) -> None:
    with pytest.raises(ConfigError) as info:
        C.loads(text)
    assert info.value.key == key
    assert info.value.value == value
    assert str(info.value).startswith(f"{key} = {value!r}")
    assert isinstance(info.value, ValueError) and isinstance(info.value, HardwareError)


def test_unknown_key_suggests_the_close_one() -> None:
    with pytest.raises(ConfigError, match="did you mean 'fullscreen'"):
        C.loads("[screen]\nfulscreen = true")


def test_hex_strings_and_ints_both_work_for_addresses() -> None:
    assert C.loads('[cube_display]\ni2c_address = "0x71"').cube_display.i2c_address == 0x71
    assert C.loads('[cube_display]\ni2c_address = 0x72').cube_display.i2c_address == 0x72
    assert C.loads('[dice]\nusb_vid = "0x2341"\nusb_pid = 67').dice.usb_pid == 67


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not valid TOML"):
        C.loads("[screen\n")
    with pytest.raises(ConfigError, match="cannot be read"):
        C.load(tmp_path / "nope.toml")


def test_config_values_are_frozen() -> None:
    cfg = C.loads("")
    with pytest.raises(AttributeError):
        cfg.screen.fullscreen = True  # type: ignore[misc]


def test_the_camera_is_told_the_board_as_built() -> None:
    cfg = C.loads('[camera]\nbar_width = 0.75\nboard_height = 12.0\nchecker = 0.95\ndark_home = "top-left"')
    cam = cfg.camera
    assert (cam.bar_width, cam.board_height, cam.checker, cam.dark_home) == (0.75, 12.0, 0.95, "top-left")
    for text, key in (('[camera]\nbar_width = 5', "camera.bar_width"), ('[camera]\nboard_height = "tall"', "camera.board_height"),
                      ('[camera]\nchecker = 0.5', "camera.checker"), ('[camera]\ndark_home = "left"', "camera.dark_home")):
        with pytest.raises(C.ConfigError, match=key.replace(".", r"\.")):
            C.loads(text)
