"""Checked reading of one TOML table of the table's config: the field validators every package shares.

The table process (:mod:`referee.table.config`) reads the file once; each package reads its
own section into its own dataclass with a :class:`Section` and the validators here
(``section.get("fps", 15, integer(1, 240))``), so every package's errors read alike: a
:class:`ConfigError` naming the dotted key and the bad value
(``cube_display.i2c_address = 300: must be 112..119``).  A key the section did not ask
for is an error with a "did you mean" hint, so a typo is never silently ignored.
"""
from __future__ import annotations

import difflib
import re
from typing import Any, Callable, Optional, Sequence, TypeVar, cast

from referee.errors import RefereeError

T = TypeVar("T")
Check = Callable[[str, Any], T]


class ConfigError(RefereeError, ValueError):
    """The table config is malformed; the message names the dotted key and the bad value."""

    def __init__(self, key: str, value: object, why: str) -> None:
        self.key, self.value, self.why = key, value, why
        super().__init__(f"{key} = {value!r}: {why}")


class Section:
    """Reads one TOML table, recording which keys were used so leftovers are reported."""

    def __init__(self, name: str, table: Any) -> None:
        if not isinstance(table, dict):
            raise ConfigError(name, table, "must be a table ([" + name + "])")
        self.name, self.table, self.used = name, table, set()  # type: ignore[var-annotated]

    def key(self, k: str) -> str:
        """The dotted key of ``k`` in this section (``camera.fps``)."""
        return f"{self.name}.{k}"

    def get(self, k: str, default: T, check: Check[T]) -> T:
        """The checked value of ``k``, or ``default`` when the section does not set it."""
        self.used.add(k)
        if k not in self.table:
            return default
        return check(self.key(k), self.table[k])

    def finish(self, known: Sequence[str]) -> None:
        """Refuse any key of the table not read, with the closest known key as a hint."""
        for k in self.table:
            if k not in self.used:
                close = difflib.get_close_matches(k, known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else f"; known keys: {', '.join(known)}"
                raise ConfigError(self.key(k), self.table[k], "unknown key" + hint)


def integer(lo: int, hi: Optional[int] = None) -> Check[int]:
    """A whole number in lo..hi (hex text such as "0x70" allowed)."""
    def check(key: str, v: Any) -> int:
        if isinstance(v, str) and re.fullmatch(r"0[xX][0-9a-fA-F]+", v):
            v = int(v, 16)
        if not isinstance(v, int) or isinstance(v, bool):
            raise ConfigError(key, v, "must be a whole number")
        if v < lo or (hi is not None and v > hi):
            raise ConfigError(key, v, f"must be {lo}..{hi}" if hi is not None else f"must be >= {lo}")
        return v
    return check


def number(lo: float, hi: float, what: str) -> Check[float]:
    """A number in lo..hi; ``what`` says what it measures, for the message."""
    def check(key: str, v: Any) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ConfigError(key, v, f"must be a number ({what})")
        if not lo <= v <= hi:
            raise ConfigError(key, v, f"must be {lo:g}..{hi:g} ({what})")
        return float(v)
    return check


def boolean(key: str, v: Any) -> bool:
    """true or false."""
    if not isinstance(v, bool):
        raise ConfigError(key, v, "must be true or false")
    return v


def string(key: str, v: Any) -> str:
    """Any string."""
    if not isinstance(v, str):
        raise ConfigError(key, v, "must be a string")
    return v


def choice(options: Sequence[str]) -> Check[str]:
    """One of ``options``."""
    def check(key: str, v: Any) -> str:
        if v not in options:
            raise ConfigError(key, v, "must be one of " + ", ".join(repr(o) for o in options))
        return cast(str, v)
    return check


def pair(lo: int, hi: int) -> Check[tuple[int, int]]:
    """[width, height], each a whole number in lo..hi."""
    def check(key: str, v: Any) -> tuple[int, int]:
        if not isinstance(v, list) or len(v) != 2:
            raise ConfigError(key, v, "must be a pair [width, height]")
        a, b = (integer(lo, hi)(key, x) for x in v)
        return a, b
    return check
