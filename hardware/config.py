"""The hardware's sections of the table's config: players' seats, cube display, buttons, screen.

The table process (:mod:`referee.table.config`) reads the one TOML file and hands each
section here (:func:`players_section`, :func:`cube_display_section`, :func:`buttons_section`,
:func:`screen_section`); :func:`check_pins` then refuses a GPIO pin used twice.  Errors are
:class:`referee.sections.ConfigError` naming the dotted key and the bad value.

Pins are BCM GPIO numbers (0..27), as gpiozero takes them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from referee.colour import COLOURS, other
from referee.events import PLAYER_ACTIONS
from referee.sections import ConfigError, Section, boolean, choice, integer, pair, string

from .chooser import BUTTON_ACTIONS

CUBE_DISPLAY_TYPES = ("ht16k33", "max7219", "leds", "none")
HT16K33_LAYOUTS = ("adafruit", "linear")
SCREEN_DRIVERS = ("auto", "kmsdrm", "x11", "wayland", "dummy")
GPIO_PINS = range(0, 28)


# --------------------------------------------------------------------------- sections


@dataclass(frozen=True)
class PlayersConfig:
    """Who plays which colour, where they sit, and the colours the screen draws."""

    dark: str = "Dark"
    light: str = "Light"
    left: str = "dark"  # the colour seated on the left, facing the screen and cube display
    dark_colour: tuple[int, int, int] = (40, 36, 34)
    light_colour: tuple[int, int, int] = (236, 226, 204)

    @property
    def right(self) -> str:
        """The colour of the player sitting on the right."""
        return other(self.left)


@dataclass(frozen=True)
class CubeDisplayConfig:
    """The cube's value display and its three owner LEDs (left, centre, right)."""

    type: str = "none"
    digits: int = 4
    brightness: int = 8  # 0..15
    i2c_bus: int = 1
    i2c_address: int = 0x70
    layout: str = "adafruit"  # HT16K33 RAM layout: Adafruit backpack (colon at 2) or linear
    spi_port: int = 0
    spi_device: int = 0
    owner_pins: tuple[int, ...] = ()  # (left, centre, right) or () for no owner LEDs
    value_pins: tuple[int, ...] = ()  # type "leds": one LED per cube face 2, 4, 8 ...
    blink_ms: int = 500  # half period of the pending-double blink


@dataclass(frozen=True)
class ButtonSpec:
    """One physical button: its pin, the action of a press and of a long press (optional)."""

    pin: int
    press: str
    long: Optional[str] = None


@dataclass(frozen=True)
class ButtonsConfig:
    """The players' buttons; debounce and long press are done in ``hardware.buttons``."""

    debounce_ms: int = 30
    long_press_ms: int = 1000
    active_low: bool = True  # button connects the pin to ground; internal pull-up
    dark: tuple[ButtonSpec, ...] = ()
    light: tuple[ButtonSpec, ...] = ()
    #: the director's key (issue 15): the GPIO pin of a button (or key switch) the director
    #: holds down while acting, and/or a PIN entered on the buttons (digits); neither: the
    #: table's director actions are refused
    director: Optional[int] = None
    pin: str = ""

    def of(self, colour: str) -> tuple[ButtonSpec, ...]:
        """The buttons of the ``colour`` player (``"dark"`` or ``"light"``)."""
        return self.dark if colour == "dark" else self.light


@dataclass(frozen=True)
class ScreenConfig:
    """The pygame table screen."""

    size: tuple[int, int] = (1280, 720)
    fullscreen: bool = False
    driver: str = "auto"  # auto: KMS/DRM when there is no desktop, a window otherwise
    bottom: str = "dark"  # whose home board is drawn at the bottom
    fps: int = 20


@dataclass(frozen=True)
class HardwareConfig:
    """The hardware's sections of the table's config (the table's whole config extends it)."""

    players: PlayersConfig = field(default_factory=PlayersConfig)
    cube_display: CubeDisplayConfig = field(default_factory=CubeDisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)


# --------------------------------------------------------------------------- checked reading


def _name(key: str, v: Any) -> str:
    v = string(key, v).strip()
    if not v or len(v) > 24:
        raise ConfigError(key, v, "a player name must be 1..24 characters")
    return v


def _rgb(key: str, v: Any) -> tuple[int, int, int]:
    if isinstance(v, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", v):
        return int(v[1:3], 16), int(v[3:5], 16), int(v[5:7], 16)
    if isinstance(v, list) and len(v) == 3 and all(isinstance(x, int) and 0 <= x <= 255 for x in v):
        return v[0], v[1], v[2]
    raise ConfigError(key, v, 'must be "#RRGGBB" or [r, g, b] with 0..255')


def _pins(count: Optional[int] = None) -> Callable[[str, Any], tuple[int, ...]]:
    def check(key: str, v: Any) -> tuple[int, ...]:
        if not isinstance(v, list):
            raise ConfigError(key, v, "must be a list of GPIO pin numbers")
        if count is not None and v and len(v) != count:
            raise ConfigError(key, v, f"must list {count} pins (left, centre, right) or none")
        return tuple(integer(GPIO_PINS.start, GPIO_PINS.stop - 1)(f"{key}[{i}]", p) for i, p in enumerate(v))
    return check


def _action(key: str, v: Any) -> str:
    if v not in PLAYER_ACTIONS and v not in BUTTON_ACTIONS:
        raise ConfigError(key, v, "must be a player action: " + ", ".join(PLAYER_ACTIONS + BUTTON_ACTIONS))
    return v


def _pin(key: str, v: Any) -> str:
    if not isinstance(v, str) or not (v.isascii() and v.isdigit()) or not 3 <= len(v) <= 8:
        raise ConfigError(key, v, 'must be the director\'s PIN: 3 to 8 digits in quotes, e.g. pin = "1234"')
    return str(v)


def _buttons(key: str, v: Any) -> tuple[ButtonSpec, ...]:
    if not isinstance(v, list):
        raise ConfigError(key, v, "must be a list of {pin = N, press = \"action\", long = \"action\"}")
    out = []
    for i, item in enumerate(v):
        s = Section(f"{key}[{i}]", item)
        if "pin" not in item or "press" not in item:
            raise ConfigError(s.name, item, "a button needs a pin and a press action")
        spec = ButtonSpec(pin=s.get("pin", 0, integer(0, 27)), press=s.get("press", "", _action),
                          long=s.get("long", None, _action))
        s.finish(("pin", "press", "long"))
        out.append(spec)
    return tuple(out)


# --------------------------------------------------------------------------- the sections


def players_section(s: Section) -> PlayersConfig:
    """Check the ``[players]`` section into a PlayersConfig; the error names the key and the bad value."""
    d = PlayersConfig()
    c = PlayersConfig(
        dark=s.get("dark", d.dark, _name), light=s.get("light", d.light, _name),
        left=s.get("left", d.left, choice(COLOURS)),
        dark_colour=s.get("dark_colour", d.dark_colour, _rgb),
        light_colour=s.get("light_colour", d.light_colour, _rgb))
    s.finish(("dark", "light", "left", "dark_colour", "light_colour"))
    return c


def cube_display_section(s: Section) -> CubeDisplayConfig:
    """Check the ``[cube_display]`` section into a CubeDisplayConfig; the error names the key and the bad value."""
    d = CubeDisplayConfig()
    c = CubeDisplayConfig(
        type=s.get("type", d.type, choice(CUBE_DISPLAY_TYPES)), digits=s.get("digits", d.digits, integer(2, 8)),
        brightness=s.get("brightness", d.brightness, integer(0, 15)),
        i2c_bus=s.get("i2c_bus", d.i2c_bus, integer(0, 31)),
        i2c_address=s.get("i2c_address", d.i2c_address, integer(0x70, 0x77)),
        layout=s.get("layout", d.layout, choice(HT16K33_LAYOUTS)),
        spi_port=s.get("spi_port", d.spi_port, integer(0, 6)),
        spi_device=s.get("spi_device", d.spi_device, integer(0, 3)),
        owner_pins=s.get("owner_pins", d.owner_pins, _pins(3)), value_pins=s.get("value_pins", d.value_pins, _pins()),
        blink_ms=s.get("blink_ms", d.blink_ms, integer(50, 5000)))
    s.finish(("type", "digits", "brightness", "i2c_bus", "i2c_address", "layout", "spi_port", "spi_device",
              "owner_pins", "value_pins", "blink_ms"))
    if c.type == "leds" and not c.value_pins:
        raise ConfigError(s.key("value_pins"), list(c.value_pins),
                          'cube_display.type = "leds" needs value_pins (one LED per face 2, 4, 8 ...)')
    if c.type == "ht16k33" and c.layout == "adafruit" and c.digits != 4:
        raise ConfigError(s.key("digits"), c.digits,
                          'the "adafruit" HT16K33 backpack has 4 digits; use layout = "linear"')
    return c


def buttons_section(s: Section) -> ButtonsConfig:
    """Check the ``[buttons]`` section into a ButtonsConfig; the error names the key and the bad value."""
    d = ButtonsConfig()
    c = ButtonsConfig(
        debounce_ms=s.get("debounce_ms", d.debounce_ms, integer(0, 500)),
        long_press_ms=s.get("long_press_ms", d.long_press_ms, integer(100, 10000)),
        active_low=s.get("active_low", d.active_low, boolean),
        dark=s.get("dark", d.dark, _buttons), light=s.get("light", d.light, _buttons),
        director=s.get("director", d.director, integer(0, 27)), pin=s.get("pin", d.pin, _pin))
    s.finish(("debounce_ms", "long_press_ms", "active_low", "dark", "light", "director", "pin"))
    if c.long_press_ms <= c.debounce_ms:
        raise ConfigError(s.key("long_press_ms"), c.long_press_ms, "must be longer than buttons.debounce_ms")
    for colour in COLOURS:
        seen: dict[str, int] = {}
        for i, b in enumerate(c.of(colour)):
            for a in (b.press, b.long):
                if a is None:
                    continue
                if a in seen:
                    raise ConfigError(f"buttons.{colour}[{i}]", a,
                                      f"action already on buttons.{colour}[{seen[a]}]; give each action one button")
                seen[a] = i
    return c


def screen_section(s: Section) -> ScreenConfig:
    """Check the ``[screen]`` section into a ScreenConfig; the error names the key and the bad value."""
    d = ScreenConfig()
    c = ScreenConfig(
        size=s.get("size", d.size, pair(160, 8192)), fullscreen=s.get("fullscreen", d.fullscreen, boolean),
        driver=s.get("driver", d.driver, choice(SCREEN_DRIVERS)),
        bottom=s.get("bottom", d.bottom, choice(COLOURS)), fps=s.get("fps", d.fps, integer(1, 120)))
    s.finish(("size", "fullscreen", "driver", "bottom", "fps"))
    return c


def check_pins(c: HardwareConfig) -> None:
    """Refuse a GPIO pin used twice (buttons, owner LEDs, value LEDs)."""
    users: dict[int, str] = {}
    named: list[tuple[str, int]] = []
    named += [(f"cube_display.owner_pins[{i}]", p) for i, p in enumerate(c.cube_display.owner_pins)]
    if c.cube_display.type == "leds":
        named += [(f"cube_display.value_pins[{i}]", p) for i, p in enumerate(c.cube_display.value_pins)]
    for colour in COLOURS:
        named += [(f"buttons.{colour}[{i}].pin", b.pin) for i, b in enumerate(c.buttons.of(colour))]
    if c.buttons.director is not None:
        named.append(("buttons.director", c.buttons.director))
    for key, pin in named:
        if pin in users:
            raise ConfigError(key, pin, f"GPIO pin already used by {users[pin]}")
        users[pin] = key
