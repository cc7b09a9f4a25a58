"""The referee package's exception tree.  Every leaf also inherits the matching builtin,
and every message names the bad value (and, for plays, the dice and the position)."""
from __future__ import annotations


class RefereeError(Exception):
    """Root of all errors raised by the referee package."""


class PositionError(RefereeError, ValueError):
    """A position's text form (Position ID, XGID, point list) is malformed."""


class DiceError(RefereeError, ValueError):
    """A roll is malformed or out of range (each die 1-6)."""


class NotationError(RefereeError, ValueError):
    """A play's text is malformed; the message quotes the text."""


class IllegalPlay(RefereeError, ValueError):
    """A well-formed play is not legal for its dice and position; the message says why."""


class RecordError(RefereeError, ValueError):
    """A match record is malformed beyond what the forgiving reader can skip."""


class ProtocolError(RefereeError, RuntimeError):
    """An event arrived in a state of the turn protocol that cannot accept it."""
