"""The two sides of the table, Dark and Light: one type for live play and for records.

Live play names a colour (``"dark"``/``"light"``: journals, scripts, JSON and screens keep
that text); a match record numbers its players 0/1 (player 0 = the left column of a .mat
file = SGF ``W`` = **dark**, player 1 = **light**).  :class:`Colour` is both: a ``str``
(``Colour.DARK == "dark"``, so text forms are unchanged) with :attr:`~Colour.number` and
:meth:`~Colour.from_number` for the record's numbering.
"""
from __future__ import annotations

from enum import Enum

from referee.errors import RefereeError


class ColourError(RefereeError, ValueError):
    """A colour (or a player number) is neither Dark nor Light; the message names the value."""


class Colour(str, Enum):
    """Dark or Light.  ``str(c)`` and ``format(c)`` give the canonical text, ``"dark"``/``"light"``."""

    DARK = "dark"
    LIGHT = "light"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        # its text's repr ('dark'): a colour stands wherever its text did, and messages
        # that quote a colour read as they always have
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    @property
    def other(self) -> "Colour":
        """The opponent's colour."""
        return Colour.LIGHT if self is Colour.DARK else Colour.DARK

    @property
    def number(self) -> int:
        """The record's player number: 0 for Dark, 1 for Light."""
        return 0 if self is Colour.DARK else 1

    @classmethod
    def from_number(cls, number: int) -> "Colour":
        """The colour of record player ``number`` (0 = Dark, 1 = Light)."""
        if number == 0 and not isinstance(number, bool):
            return cls.DARK
        if number == 1 and not isinstance(number, bool):
            return cls.LIGHT
        raise ColourError(f"player {number!r} must be 0 (dark) or 1 (light)")

    @classmethod
    def parse(cls, text: object) -> "Colour":
        """The colour named ``text`` (``"dark"`` or ``"light"``, as journals write it)."""
        try:
            return cls(text)
        except ValueError:
            raise ColourError(f"colour {text!r} must be \"dark\" or \"light\"") from None


#: Both colours, Dark first: the order of every (dark, light) pair.
COLOURS: tuple[Colour, Colour] = (Colour.DARK, Colour.LIGHT)
DARK, LIGHT = COLOURS


def other(colour: str) -> Colour:
    """The opponent of ``colour`` (a :class:`Colour` or its text)."""
    return Colour.parse(colour).other


def number_of(colour: str) -> int:
    """The record's player number of ``colour`` (a :class:`Colour` or its text): 0 or 1."""
    return Colour.parse(colour).number
