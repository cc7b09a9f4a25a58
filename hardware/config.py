"""The whole table's configuration: one TOML file, read and validated here only.

:func:`load` (a path) and :func:`loads` (TOML text) return a frozen
:class:`TableConfig`; every other package takes its section as a value
(``config.camera``, ``config.dice``, ``config.rules`` ...) and never re-reads the
file.  Every error is a :class:`~hardware.errors.ConfigError` naming the dotted
key and the bad value (``cube_display.i2c_address = 300: ...``).  Unknown keys
are errors too, so a typo is never silently ignored.  Every section is optional
and has the defaults shown in ``hardware/table.example.toml``.

Pins are BCM GPIO numbers (0..27), as gpiozero takes them.
"""
from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, TypeVar

from referee.colour import COLOURS, other
from referee.events import PLAYER_ACTIONS

from .errors import ConfigError

T = TypeVar("T")
CAMERA_SOURCES = ("opencv", "picamera2", "replay", "render")
HOMES = ("bottom-right", "bottom-left", "top-right", "top-left", "auto")  # where Dark's home board is seen
CUBE_DISPLAY_TYPES = ("ht16k33", "max7219", "leds", "none")
HT16K33_LAYOUTS = ("adafruit", "linear")
SCREEN_DRIVERS = ("auto", "kmsdrm", "x11", "wayland", "dummy")
EARLY_ROLL = ("stands", "void")
DIE_ON_CHECKER = ("reroll", "stands")
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
        return other(self.left)


@dataclass(frozen=True)
class CameraConfig:
    """Where board images come from (read by ``vision``)."""

    source: str = "opencv"
    device: int = 0
    path: str = ""  # replay: a directory or video of frames
    resolution: tuple[int, int] = (1280, 720)
    fps: int = 15
    corners: tuple[tuple[float, float], ...] = ()  # 4 board corners in pixels, or () to find markers
    # the board as built, in widths of a point at its base (vision.layout.BoardShape): real boards'
    # bars are often narrower than a checker, their playing areas taller than the layout's 11
    bar_width: float = 1.0
    board_height: float = 11.0
    checker: float = 0.0          # the checkers' diameter in point widths; 0: measured on the board
    dark_home: str = "bottom-right"  # the corner of the picture holding Dark's home board, or "auto"


@dataclass(frozen=True)
class DiceConfig:
    """How to reach the dice reader (read by ``firmware_bridge``): a port URL or a USB id."""

    port: Optional[str] = None  # "/dev/ttyACM0", "loop://", a pty path, a simulator URL
    usb_vid: Optional[int] = None
    usb_pid: Optional[int] = None
    usb_serial: Optional[str] = None
    baudrate: int = 115200


@dataclass(frozen=True)
class RulesConfig:
    """The rule settings (RULES.md section 8 and 9); read by the referee."""

    match_to: int = 0  # 0 = money play
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0  # the cap per game; 0 = off
    cube_limit: int = 0  # 0 = no limit, else a power of two
    early_roll: str = "stands"
    die_on_checker: str = "reroll"


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

    def of(self, colour: str) -> tuple[ButtonSpec, ...]:
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
class JournalConfig:
    directory: str = "journal"


@dataclass(frozen=True)
class TableConfig:
    """The whole table: one value per section."""

    players: PlayersConfig = field(default_factory=PlayersConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    cube_display: CubeDisplayConfig = field(default_factory=CubeDisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    screen: ScreenConfig = field(default_factory=ScreenConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    source: str = ""  # the file it came from, for messages


# --------------------------------------------------------------------------- checked reading


class _Section:
    """Reads one TOML table, recording which keys were used so leftovers are reported."""

    def __init__(self, name: str, table: Any) -> None:
        if not isinstance(table, dict):
            raise ConfigError(name, table, "must be a table ([" + name + "])")
        self.name, self.table, self.used = name, table, set()  # type: ignore[var-annotated]

    def key(self, k: str) -> str:
        return f"{self.name}.{k}"

    def get(self, k: str, default: T, check: Callable[[str, Any], T]) -> T:
        self.used.add(k)
        if k not in self.table:
            return default
        return check(self.key(k), self.table[k])

    def finish(self, known: Sequence[str]) -> None:
        for k in self.table:
            if k not in self.used:
                close = difflib.get_close_matches(k, known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(known)}"
                raise ConfigError(self.key(k), self.table[k], "unknown key" + hint)


def _int(lo: int, hi: Optional[int] = None) -> Callable[[str, Any], int]:
    def check(key: str, v: Any) -> int:
        if isinstance(v, str) and re.fullmatch(r"0[xX][0-9a-fA-F]+", v):
            v = int(v, 16)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ConfigError(key, v, "must be a whole number")
        if v < lo or (hi is not None and v > hi):
            raise ConfigError(key, v, f"must be {lo}..{hi}" if hi is not None else f"must be >= {lo}")
        return v
    return check


def _number(lo: float, hi: float, what: str) -> Callable[[str, Any], float]:
    def check(key: str, v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(key, v, f"must be a number ({what})")
        if not lo <= v <= hi:
            raise ConfigError(key, v, f"must be {lo:g}..{hi:g} ({what})")
        return float(v)
    return check


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        raise ConfigError(key, v, "must be true or false")
    return v


def _str(key: str, v: Any) -> str:
    if not isinstance(v, str):
        raise ConfigError(key, v, "must be a string")
    return v


def _name(key: str, v: Any) -> str:
    v = _str(key, v).strip()
    if not v or len(v) > 24:
        raise ConfigError(key, v, "a player name must be 1..24 characters")
    return v


def _choice(options: Sequence[str]) -> Callable[[str, Any], str]:
    def check(key: str, v: Any) -> str:
        if v not in options:
            raise ConfigError(key, v, "must be one of " + ", ".join(repr(o) for o in options))
        return v
    return check


def _pair(lo: int, hi: int) -> Callable[[str, Any], tuple[int, int]]:
    def check(key: str, v: Any) -> tuple[int, int]:
        if not isinstance(v, list) or len(v) != 2:
            raise ConfigError(key, v, "must be a pair [width, height]")
        a, b = (_int(lo, hi)(key, x) for x in v)
        return a, b
    return check


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
        return tuple(_int(GPIO_PINS.start, GPIO_PINS.stop - 1)(f"{key}[{i}]", p) for i, p in enumerate(v))
    return check


def _corners(key: str, v: Any) -> tuple[tuple[float, float], ...]:
    ok = isinstance(v, list) and len(v) in (0, 4) and all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in c)
        for c in v)
    if not ok:
        raise ConfigError(key, v, "must be [] or four [x, y] pixel positions")
    return tuple((float(c[0]), float(c[1])) for c in v)


def _action(key: str, v: Any) -> str:
    if v not in PLAYER_ACTIONS:
        raise ConfigError(key, v, "must be a player action: " + ", ".join(PLAYER_ACTIONS))
    return v


def _buttons(key: str, v: Any) -> tuple[ButtonSpec, ...]:
    if not isinstance(v, list):
        raise ConfigError(key, v, "must be a list of {pin = N, press = \"action\", long = \"action\"}")
    out = []
    for i, item in enumerate(v):
        s = _Section(f"{key}[{i}]", item)
        if "pin" not in item or "press" not in item:
            raise ConfigError(s.name, item, "a button needs a pin and a press action")
        spec = ButtonSpec(pin=s.get("pin", 0, _int(0, 27)), press=s.get("press", "", _action),
                          long=s.get("long", None, _action))
        s.finish(("pin", "press", "long"))
        out.append(spec)
    return tuple(out)


# --------------------------------------------------------------------------- sections


def _players(s: _Section) -> PlayersConfig:
    d = PlayersConfig()
    c = PlayersConfig(
        dark=s.get("dark", d.dark, _name), light=s.get("light", d.light, _name),
        left=s.get("left", d.left, _choice(COLOURS)),
        dark_colour=s.get("dark_colour", d.dark_colour, _rgb),
        light_colour=s.get("light_colour", d.light_colour, _rgb))
    s.finish(("dark", "light", "left", "dark_colour", "light_colour"))
    return c


def _camera(s: _Section) -> CameraConfig:
    d = CameraConfig()
    c = CameraConfig(
        source=s.get("source", d.source, _choice(CAMERA_SOURCES)), device=s.get("device", d.device, _int(0, 63)),
        path=s.get("path", d.path, _str), resolution=s.get("resolution", d.resolution, _pair(16, 8192)),
        fps=s.get("fps", d.fps, _int(1, 240)), corners=s.get("corners", d.corners, _corners),
        bar_width=s.get("bar_width", d.bar_width, _number(0.5, 3.0, "point widths: the bar's width / a point's at its base")),
        board_height=s.get("board_height", d.board_height,
                           _number(10.2, 14.0, "point widths: the playing area's height, edge to edge / a point's width")),
        checker=s.get("checker", d.checker, _number(0.0, 1.0, "the checkers' diameter / a point's width (0: measured)")),
        dark_home=s.get("dark_home", d.dark_home, _choice(HOMES)))
    s.finish(("source", "device", "path", "resolution", "fps", "corners", "bar_width", "board_height", "checker",
              "dark_home"))
    if c.checker and c.checker < 0.7:
        raise ConfigError(s.key("checker"), c.checker, "must be 0 (measured) or 0.7..1.0 (most sets: 0.85-0.95)")
    if c.source == "replay" and not c.path:
        raise ConfigError(s.key("path"), c.path, 'camera.source = "replay" needs a path to the recorded frames')
    return c


def _dice(s: _Section) -> DiceConfig:
    d = DiceConfig()
    c = DiceConfig(
        port=s.get("port", d.port, _str), usb_vid=s.get("usb_vid", d.usb_vid, _int(0, 0xFFFF)),
        usb_pid=s.get("usb_pid", d.usb_pid, _int(0, 0xFFFF)), usb_serial=s.get("usb_serial", d.usb_serial, _str),
        baudrate=s.get("baudrate", d.baudrate, _int(300, 4_000_000)))
    s.finish(("port", "usb_vid", "usb_pid", "usb_serial", "baudrate"))
    if (c.usb_vid is None) != (c.usb_pid is None):
        missing = "usb_pid" if c.usb_pid is None else "usb_vid"
        raise ConfigError(s.key(missing), None, "give both dice.usb_vid and dice.usb_pid, or neither")
    if c.port is not None and c.usb_vid is not None:
        raise ConfigError(s.key("port"), c.port, "give dice.port or dice.usb_vid/usb_pid, not both")
    return c


def _rules(s: _Section) -> RulesConfig:
    d = RulesConfig()
    c = RulesConfig(
        match_to=s.get("match_to", d.match_to, _int(0, 99)), crawford=s.get("crawford", d.crawford, _bool),
        jacoby=s.get("jacoby", d.jacoby, _bool), beavers=s.get("beavers", d.beavers, _bool),
        automatic_doubles=s.get("automatic_doubles", d.automatic_doubles, _int(0, 10)),
        cube_limit=s.get("cube_limit", d.cube_limit, _int(0)),
        early_roll=s.get("early_roll", d.early_roll, _choice(EARLY_ROLL)),
        die_on_checker=s.get("die_on_checker", d.die_on_checker, _choice(DIE_ON_CHECKER)))
    s.finish(("match_to", "crawford", "jacoby", "beavers", "automatic_doubles", "cube_limit",
              "early_roll", "die_on_checker"))
    if c.cube_limit and (c.cube_limit < 2 or c.cube_limit & (c.cube_limit - 1)):
        raise ConfigError(s.key("cube_limit"), c.cube_limit, "must be 0 (no limit) or a power of two >= 2")
    if c.match_to:
        for k in ("jacoby", "beavers", "automatic_doubles"):
            if getattr(c, k):
                raise ConfigError(s.key(k), getattr(c, k),
                                  "is a money-play rule; turn it off or set rules.match_to = 0")
    return c


def _cube_display(s: _Section) -> CubeDisplayConfig:
    d = CubeDisplayConfig()
    c = CubeDisplayConfig(
        type=s.get("type", d.type, _choice(CUBE_DISPLAY_TYPES)), digits=s.get("digits", d.digits, _int(2, 8)),
        brightness=s.get("brightness", d.brightness, _int(0, 15)), i2c_bus=s.get("i2c_bus", d.i2c_bus, _int(0, 31)),
        i2c_address=s.get("i2c_address", d.i2c_address, _int(0x70, 0x77)),
        layout=s.get("layout", d.layout, _choice(HT16K33_LAYOUTS)),
        spi_port=s.get("spi_port", d.spi_port, _int(0, 6)), spi_device=s.get("spi_device", d.spi_device, _int(0, 3)),
        owner_pins=s.get("owner_pins", d.owner_pins, _pins(3)), value_pins=s.get("value_pins", d.value_pins, _pins()),
        blink_ms=s.get("blink_ms", d.blink_ms, _int(50, 5000)))
    s.finish(("type", "digits", "brightness", "i2c_bus", "i2c_address", "layout", "spi_port", "spi_device",
              "owner_pins", "value_pins", "blink_ms"))
    if c.type == "leds" and not c.value_pins:
        raise ConfigError(s.key("value_pins"), list(c.value_pins),
                          'cube_display.type = "leds" needs value_pins (one LED per face 2, 4, 8 ...)')
    if c.type == "ht16k33" and c.layout == "adafruit" and c.digits != 4:
        raise ConfigError(s.key("digits"), c.digits, 'the "adafruit" HT16K33 backpack has 4 digits; use layout = "linear"')
    return c


def _buttons_section(s: _Section) -> ButtonsConfig:
    d = ButtonsConfig()
    c = ButtonsConfig(
        debounce_ms=s.get("debounce_ms", d.debounce_ms, _int(0, 500)),
        long_press_ms=s.get("long_press_ms", d.long_press_ms, _int(100, 10000)),
        active_low=s.get("active_low", d.active_low, _bool),
        dark=s.get("dark", d.dark, _buttons), light=s.get("light", d.light, _buttons))
    s.finish(("debounce_ms", "long_press_ms", "active_low", "dark", "light"))
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


def _screen(s: _Section) -> ScreenConfig:
    d = ScreenConfig()
    c = ScreenConfig(
        size=s.get("size", d.size, _pair(160, 8192)), fullscreen=s.get("fullscreen", d.fullscreen, _bool),
        driver=s.get("driver", d.driver, _choice(SCREEN_DRIVERS)),
        bottom=s.get("bottom", d.bottom, _choice(COLOURS)), fps=s.get("fps", d.fps, _int(1, 120)))
    s.finish(("size", "fullscreen", "driver", "bottom", "fps"))
    return c


def _journal(s: _Section) -> JournalConfig:
    c = JournalConfig(directory=s.get("directory", JournalConfig().directory, _str))
    s.finish(("directory",))
    if not c.directory:
        raise ConfigError(s.key("directory"), c.directory, "must name a directory for the journal")
    return c


_SECTIONS: dict[str, Callable[[_Section], Any]] = {
    "players": _players, "camera": _camera, "dice": _dice, "rules": _rules,
    "cube_display": _cube_display, "buttons": _buttons_section, "screen": _screen, "journal": _journal,
}


def _check_pins(c: TableConfig) -> None:
    """No GPIO pin may be used twice (buttons, owner LEDs, value LEDs)."""
    users: dict[int, str] = {}
    named: list[tuple[str, int]] = []
    named += [(f"cube_display.owner_pins[{i}]", p) for i, p in enumerate(c.cube_display.owner_pins)]
    if c.cube_display.type == "leds":
        named += [(f"cube_display.value_pins[{i}]", p) for i, p in enumerate(c.cube_display.value_pins)]
    for colour in COLOURS:
        named += [(f"buttons.{colour}[{i}].pin", b.pin) for i, b in enumerate(c.buttons.of(colour))]
    for key, pin in named:
        if pin in users:
            raise ConfigError(key, pin, f"GPIO pin already used by {users[pin]}")
        users[pin] = key


def from_dict(data: dict[str, Any], source: str = "") -> TableConfig:
    """Validate parsed TOML data into a :class:`TableConfig`."""
    for k in data:
        if k not in _SECTIONS:
            close = difflib.get_close_matches(k, list(_SECTIONS), n=1)
            hint = f"; did you mean [{close[0]}]?" if close else f"; sections: {', '.join(_SECTIONS)}"
            raise ConfigError(k, data[k] if not isinstance(data[k], dict) else "[...]", "unknown section" + hint)
    parts = {name: build(_Section(name, data.get(name, {}))) for name, build in _SECTIONS.items()}
    config = TableConfig(**parts, source=source)
    _check_pins(config)
    return config


def loads(text: str, source: str = "<string>") -> TableConfig:
    """Parse and validate TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, "<toml>", f"not valid TOML: {exc}") from None
    return from_dict(data, source)


def load(path: str | Path) -> TableConfig:
    """Read and validate a table config file."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError("config file", str(p), "is a directory; name the TOML file (e.g. table.toml)")
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("config file", str(p), f"cannot be read ({exc.strerror}); copy hardware/table.example.toml") from None
    except UnicodeDecodeError as exc:
        raise ConfigError("config file", str(p), f"is not a UTF-8 text file (byte {exc.start} is 0x{exc.object[exc.start]:02x});"
                          " a config is TOML text: copy hardware/table.example.toml") from None
    return loads(text, str(p))


EXAMPLE = Path(__file__).with_name("table.example.toml")
