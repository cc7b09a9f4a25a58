"""The cube display: digits and owner LEDs for every value and owner, blinking, on fake buses."""
from __future__ import annotations

from typing import Any, Optional

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from hardware import config as C
from referee.table.config import EXAMPLE, load, loads
from hardware import segments
from hardware.cube import CubeDisplay, CubeState, LedRowOutput, SegmentOutput, cube_frame
from hardware.devices import build_cube_display
from hardware.errors import DeviceError, DisplayTextError
from hardware.fakes import FakeI2CBus, FakeSPI
from hardware.ht16k33 import HT16K33
from hardware.max7219 import MAX7219, from_chip, to_chip
from referee.view import TableView

VALUES = [1 << k for k in range(0, 17)]  # 1 (middle) .. 65536
OWNERS: list[Optional[str]] = [None, "dark", "light"]


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def expected_text(value: int, digits: int) -> str:
    face = 64 if value == 1 else value
    if len(str(face)) <= digits:
        return str(face)
    return f"2^{face.bit_length() - 1}"


def led_index(colour: Optional[str], left: str) -> int:
    return {None: 1, left: 0}.get(colour, 2)


def owner_states(factory: MockFactory, pins: tuple[int, ...]) -> list[bool]:
    return [bool(factory.pin(p).state) for p in pins]


@pytest.fixture
def factory() -> Any:
    f = MockFactory()
    yield f
    f.reset()


def test_segment_font_round_trips_every_character() -> None:
    for ch in segments.FONT:
        if ch != " ":
            assert segments.decode(segments.encode(ch, 1)) == ch
    assert segments.encode("64", 4) == (0, 0, segments.FONT["6"], segments.FONT["4"])
    assert segments.decode(segments.encode("1.5", 4)) == "  1.5"
    with pytest.raises(DisplayTextError, match="12345"):
        segments.encode("12345", 4)
    with pytest.raises(DisplayTextError, match="'Q'"):
        segments.encode("Q", 4)


def test_max7219_bit_mapping_is_a_bijection() -> None:
    assert sorted(to_chip(b) for b in range(256)) == list(range(256))
    assert all(from_chip(to_chip(b)) == b for b in range(256))
    assert to_chip(segments.A) == 0x40 and to_chip(segments.G) == 0x01 and to_chip(segments.DP) == 0x80


@pytest.mark.parametrize("left", ["dark", "light"])
@pytest.mark.parametrize("chip", ["ht16k33", "max7219"])
def test_every_value_and_owner_on_the_fake_bus_and_mock_leds(chip: str, left: str, factory: MockFactory) -> None:
    pins = (16, 20, 21)
    leds = [LED(p, pin_factory=factory) for p in pins]
    if chip == "ht16k33":
        bus = FakeI2CBus()
        module: Any = HT16K33(bus, 0x71, digits=4)
        shown = lambda: bus.text(0x71)  # noqa: E731
        digits = 4
    else:
        spi = FakeSPI()
        module = MAX7219(spi, digits=8)
        shown = lambda: spi.text(8)  # noqa: E731
        digits = 8
    cube = CubeDisplay(SegmentOutput(module), leds, left=left, clock=Clock())
    for value in VALUES:
        for owner in OWNERS:
            if value == 1 and owner is not None:
                continue  # an owned cube is at least 2
            cube.show(TableView(cube_value=value, cube_owner=owner))
            assert shown() == expected_text(value, digits), (value, owner)
            want = [False] * 3
            want[led_index(owner, left)] = True
            assert owner_states(factory, pins) == want, (value, owner)


def test_values_beyond_the_display_use_powers_of_two() -> None:
    assert segments.cube_text(1, 4) == "64"
    assert segments.cube_text(8192, 4) == "8192"
    assert segments.cube_text(16384, 4) == "2^14"
    assert segments.cube_text(16384, 8) == "16384"
    assert segments.cube_text(128, 2) == "^7"


def test_pending_double_blinks_value_and_takers_led(factory: MockFactory) -> None:
    clock = Clock()
    bus = FakeI2CBus()
    pins = (16, 20, 21)
    cube = CubeDisplay(SegmentOutput(HT16K33(bus)), [LED(p, pin_factory=factory) for p in pins],
                       left="dark", clock=clock, blink=0.5)
    clock.t = 10.0
    cube.show(TableView(cube_value=2, cube_owner="dark", cube_offered_by="dark", state="double_offered"))
    seen = []
    for step in range(8):  # 0.0, 0.25, ... 1.75 s after the offer
        clock.t = 10.0 + step * 0.25
        cube.tick()
        seen.append((bus.text(), owner_states(factory, pins)))
    on = ("4", [True, False, True])  # owner (dark, left) steady, taker (light, right) blinks
    off = ("", [True, False, False])
    assert seen == [on, on, off, off, on, on, off, off]
    # taken: steady again, light owns 4
    cube.show(TableView(cube_value=4, cube_owner="light"))
    clock.t += 0.5
    cube.tick()
    assert (bus.text(), owner_states(factory, pins)) == ("4", [False, False, True])


def test_initial_double_blinks_from_the_middle() -> None:
    frames = [cube_frame(CubeState(1, None, "light"), left="dark", blink_on=b) for b in (True, False)]
    assert frames[0].text == "2" and frames[0].leds == (True, True, False)
    assert frames[1].text == "" and frames[1].leds == (False, True, False)


def test_beaver_shows_the_offered_value() -> None:
    f = cube_frame(CubeState(2, "light", "light", offered_value=8), left="light")
    assert f.text == "8" and f.leds == (True, False, True)


def test_crawford_game_is_shown(factory: MockFactory) -> None:
    spi = FakeSPI()
    pins = (16, 20, 21)
    cube = CubeDisplay(SegmentOutput(MAX7219(spi, digits=4)), [LED(p, pin_factory=factory) for p in pins],
                       clock=Clock())
    cube.show(TableView(crawford=True, match_length=5, score=(4, 2)))
    assert spi.text(4) == "CrAF"
    assert owner_states(factory, pins) == [False, True, False]


def test_writes_only_on_change() -> None:
    bus = FakeI2CBus()
    clock = Clock()
    cube = CubeDisplay(SegmentOutput(HT16K33(bus)), clock=clock)
    cube.show(TableView(cube_value=8, cube_owner="dark"))
    n = len(bus.writes)
    for i in range(10):
        clock.t = i
        cube.tick()
    assert len(bus.writes) == n


def test_led_row_alternative(factory: MockFactory) -> None:
    pins = (2, 3, 4, 17, 27, 22)  # faces 2, 4, 8, 16, 32, 64
    row = LedRowOutput([LED(p, pin_factory=factory) for p in pins])
    cube = CubeDisplay(row, clock=Clock())
    for k in range(0, 9):
        cube.show(TableView(cube_value=1 << k, cube_owner=None if k == 0 else "dark"))
        face_k = 6 if k == 0 else k
        want = [True] * 6 if face_k > 6 else [i == face_k - 1 for i in range(6)]
        assert owner_states(factory, pins) == want, k
    cube.show(TableView(crawford=True))
    assert owner_states(factory, pins) == [False] * 6


def test_build_from_config_with_fakes(factory: MockFactory) -> None:
    cfg = load(EXAMPLE)
    bus = FakeI2CBus()
    cube = build_cube_display(cfg, pin_factory=factory, i2c_bus=bus, clock=Clock())
    cube.show(TableView(cube_value=16, cube_owner="light"))
    assert bus.text(cfg.cube_display.i2c_address) == "16"
    assert bus.brightness[0x70] == cfg.cube_display.brightness and bus.oscillator[0x70]
    assert owner_states(factory, cfg.cube_display.owner_pins) == [False, False, True]  # Ann (dark) sits left
    cube.close()
    assert bus.text() == ""


def test_build_max7219_and_leds_types(factory: MockFactory) -> None:
    cfg = loads('[cube_display]\ntype = "max7219"\ndigits = 8\n')
    spi = FakeSPI()
    build_cube_display(cfg, pin_factory=factory, spi=spi, clock=Clock()).show(TableView(cube_value=128, cube_owner="dark"))
    assert spi.text(8) == "128"
    cfg = loads('[cube_display]\ntype = "leds"\nvalue_pins = [2, 3, 4]\nowner_pins = [5, 6, 7]\n')
    cube = build_cube_display(cfg, pin_factory=factory, clock=Clock())  # kept: a closed LED releases its pin
    cube.show(TableView(cube_value=4, cube_owner="light"))
    assert owner_states(factory, (2, 3, 4, 5, 6, 7)) == [False, True, False, False, False, True]


def test_a_missing_chip_is_a_device_error_naming_the_address() -> None:
    with pytest.raises(DeviceError, match="0x70"):
        HT16K33(FakeI2CBus(fail_address=0x70))
    assert issubclass(DeviceError, OSError)
