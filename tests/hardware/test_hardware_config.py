"""The table config: the example loads, defaults apply, and every bad value is named."""
from __future__ import annotations

from pathlib import Path

import pytest

from hardware import config as HC
from referee.errors import RefereeError
from referee.sections import ConfigError
from referee.settings import Settings
from referee.table import config as C
from vision.config import SURE, VisionConfig


def test_example_config_loads_with_its_values() -> None:
    cfg = C.load(C.EXAMPLE)
    assert cfg.players.dark == "Ann" and cfg.players.right == "light"
    assert cfg.cube_display.type == "ht16k33" and cfg.cube_display.i2c_address == 0x70
    assert cfg.cube_display.owner_pins == (16, 20, 21)
    assert cfg.rules.match_to == 7 and cfg.rules.early_roll == "stands"
    assert [b.press for b in cfg.buttons.dark] == ["double", "take", "accept_move", "next", "confirm"]
    assert cfg.buttons.light[1] == HC.ButtonSpec(27, "take", "pass")
    assert (cfg.match.event, cfg.match.table) == ("Club championship", "3")
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
    ('[camera]\ncorners = []', "camera.corners", []),
    ('[camera]\nzoom = 0.5', "camera.zoom", 0.5),
    ('[camera]\nzoom = 1.5', "camera.zoom", 1.5),
    ('[vision]\ncorners = [[1, 2]]', "vision.corners", [[1, 2]]),
    ('[vision]\nsure = 1.5', "vision.sure", 1.5),
    ('[vision]\nmarker = true', "vision.marker", True),
    ('[rules]\nlanding = "floor"', "rules.landing", "floor"),
    ('[rules]\nlandng = "tray"', "rules.landng", "tray"),
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
    assert isinstance(info.value, ValueError) and isinstance(info.value, RefereeError)


def test_the_pi_cameras_zoom_is_read_and_other_cameras_are_told_to_move() -> None:
    assert C.loads('[camera]\nsource = "picamera2"\nzoom = 1.5').camera.zoom == 1.5
    assert C.loads("").camera.zoom == 1.0
    with pytest.raises(ConfigError, match=r'camera\.zoom = 1\.5: zooms the Raspberry Pi camera only .*nearer the board'):
        C.loads('[camera]\nsource = "opencv"\nzoom = 1.5')


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


def test_the_board_as_built_is_visions_section_and_reaches_the_reader_as_values() -> None:
    cfg = C.loads('[vision]\nbar_width = 0.75\nboard_height = 12.0\nchecker = 0.95\ndark_home = "top-left"\n'
                  'corners = [[10, 20], [600, 22], [610, 400], [8, 398]]')
    v = cfg.vision
    assert isinstance(v, VisionConfig)
    assert (v.bar_width, v.board_height, v.checker, v.dark_home) == (0.75, 12.0, 0.95, "top-left")
    assert v.corners == ((10.0, 20.0), (600.0, 22.0), (610.0, 400.0), (8.0, 398.0))
    assert v.corner_array.tolist() == [[10, 20], [600, 22], [610, 400], [8, 398]]
    assert v.read.checker == 0.95  # the reader counts stacks by it
    assert C.loads("").vision.checker is None and C.loads("").vision.corners is None  # measured; markers found
    for text, key in (('[vision]\nbar_width = 5', "vision.bar_width"), ('[vision]\nboard_height = "tall"', "vision.board_height"),
                      ('[vision]\nchecker = 0.5', "vision.checker"), ('[vision]\ndark_home = "left"', "vision.dark_home")):
        with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
            C.loads(text)


def test_first_misfits_lets_a_director_have_a_poorly_read_board_learned_as_set_up() -> None:
    assert C.loads("").vision.first_misfits == 8
    assert C.loads("[vision]\nfirst_misfits = 25").vision.first_misfits == 25
    for bad in ("26", "-1", '"all"'):
        with pytest.raises(ConfigError, match=r"vision\.first_misfits"):
            C.loads(f"[vision]\nfirst_misfits = {bad}")


def test_a_camera_key_that_moved_to_vision_says_where() -> None:
    with pytest.raises(ConfigError, match=r"camera\.bar_width = 0\.75: .*move it to \[vision\] as bar_width"):
        C.loads("[camera]\nbar_width = 0.75")


def test_the_rules_section_is_the_referees_settings() -> None:
    cfg = C.loads('[players]\ndark = "Ann"\nlight = "Bob"\n[rules]\nmatch_to = 5\nlanding = "tray"\n'
                  'die_on_checker = "stands"\n[vision]\nsure = 0.7')
    assert isinstance(cfg.rules, Settings)
    assert cfg.rules == Settings(match_to=5, landing="tray", die_on_checker="stands", names=("Ann", "Bob"),
                                 min_confidence=0.7)
    assert C.loads("").rules == Settings(min_confidence=SURE)
    assert C.loads("").rules.landing == "board"


def test_the_example_config_documents_every_rules_key() -> None:
    text = C.EXAMPLE.read_text()
    for key in C.RULES:
        assert f"\n{key} = " in text, key
    assert "\n[vision]" in text and 'landing = "board"' in text and '"tray"' in text


def test_the_dice_section_gives_the_readers_url() -> None:
    assert C.loads('[dice]\nport = "loop://"').dice.url == "loop://"
    assert C.loads('[dice]\nusb_vid = "0x2341"\nusb_pid = 67\nusb_serial = "A1"').dice.url == "usb:2341:0043:A1"
    assert C.loads("").dice.url is None
