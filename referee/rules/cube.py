"""The doubling cube (RULES.md 7, 8.1-8.4): a value, an owner, a pending offer; pure rules.

:class:`Cube` is immutable: ``offer``/``take``/``beaver`` return a new cube.
:func:`double_refusal` is the guard for a double: ``None`` when allowed, else the
reason a club player understands.  Values beyond 64 are ordinary integers.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

from referee.colour import other


@dataclass(frozen=True)
class Cube:
    """``value`` is the stake (1 = centred, showing 64); ``owner`` None = centred.

    While a double is pending, ``offered_by`` is the doubler (or the beaverer) and
    ``offered_value`` the value if it is taken.  ``turned`` records whether a double
    was taken this game (for the Jacoby rule; automatic doubles do not turn it).
    """

    value: int = 1
    owner: Optional[str] = None
    offered_by: Optional[str] = None
    offered_value: Optional[int] = None
    beavered: bool = False
    turned: bool = False

    @property
    def pending(self) -> bool:
        """Whether a double is offered and not yet answered."""
        return self.offered_by is not None

    @property
    def responder(self) -> Optional[str]:
        """Who must answer the pending double (None when none is pending)."""
        return other(self.offered_by) if self.offered_by else None

    def offer(self, doubler: str) -> "Cube":
        """The cube after ``doubler`` offers a double (at twice its value)."""
        return replace(self, offered_by=doubler, offered_value=2 * self.value)

    def take(self) -> "Cube":
        """The responder takes: the cube turns to the offered value.  After a beaver the
        beaverer keeps the cube; otherwise the taker owns it."""
        assert self.offered_by and self.offered_value
        owner = self.offered_by if self.beavered else other(self.offered_by)
        return Cube(self.offered_value, owner, None, None, False, True)

    def beaver(self) -> "Cube":
        """The doubled player takes at twice the value and redoubles at once, keeping the
        cube; the original doubler must take or pass."""
        assert self.offered_by and self.offered_value
        beaverer = other(self.offered_by)
        return Cube(self.offered_value, beaverer, beaverer, 2 * self.offered_value, True, True)

    def automatic(self) -> "Cube":
        """An automatic double (money play, an opening tie): the value doubles, the cube
        stays centred and is not turned (the Jacoby rule still applies)."""
        return replace(self, value=2 * self.value)

    def pass_value(self) -> int:
        """Points the doubler wins when the double is passed: the value before it."""
        assert self.offered_value
        return self.offered_value // 2


def double_refusal(cube: Cube, player: str, *, money: bool, crawford_game: bool,
                   cube_limit: int, names: dict[str, str]) -> Optional[str]:
    """Why ``player`` may not double now, or None when the double is allowed."""
    if cube.pending:
        return "a double is already pending"
    if cube.owner is not None and cube.owner != player:
        return f"{names[player]} cannot double: {names[cube.owner]} owns the cube"
    if not money and crawford_game:
        return f"{names[player]} cannot double: this is the Crawford game"
    if cube_limit and 2 * cube.value > cube_limit:
        return f"{names[player]} cannot double: the cube limit is {cube_limit}"
    return None


def beaver_refusal(cube: Cube, player: str, *, money: bool, beavers: bool, cube_limit: int,
                   names: dict[str, str]) -> Optional[str]:
    """Why ``player`` may not beaver now, or None."""
    if not money or not beavers:
        return "beavers are not played here (a money-play option, off in this session)" if money else \
            "beavers are a money-play rule; this is a match"
    if cube.beavered:
        return "a beaver has already been made on this double"
    if cube_limit and cube.offered_value and 2 * cube.offered_value > cube_limit:
        return f"{names[player]} cannot beaver: the cube limit is {cube_limit}"
    return None
