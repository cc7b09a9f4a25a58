"""What shows the referee's decisions at the table: the log, the table screen, the cube display.

Each sink gets the new :class:`~referee.view.TableView` and the decisions that led to it,
only once the journal has them on disk (:class:`referee.table.process.TableCore`).  A sink
that can (:class:`ScreenSink`) draws its frame while the journal syncs (``prepare``) and
only flips it on ``show``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Protocol, Sequence

from referee.decisions import Decision
from referee.view import TableView


class Sink(Protocol):
    """Something that shows the referee's output: the log, the screen, the cube display."""

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        """Show the referee's new view and the decisions that led to it."""
        ...


@dataclass
class LogSink:
    """Decisions to the log (standard output under systemd: journald keeps it)."""

    printer: Callable[[str], None] = print
    lines: list[str] = field(default_factory=list)

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        """Print each decision as a line (and keep the lines)."""
        for d in decisions:
            line = str(d)
            self.lines.append(line)
            self.printer(line)


class ScreenSink:
    """The pygame table screen (a ``hardware.runner.ScreenRunner``) as an output.

    :meth:`prepare` draws the next frame off-screen while the journal syncs; :meth:`show`
    then only flips it onto the screen (nothing is visible before the flip)."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.open = True
        self._drawn: Optional[TableView] = None  # the view drawn but not yet flipped

    def frame(self, view: TableView, decisions: Sequence[Decision]) -> tuple[Optional[TableView], Optional[int]]:
        """What to draw for ``view``: the view itself and no highlighted choice."""
        return view, None

    def prepare(self, view: TableView, decisions: Sequence[Decision]) -> None:
        """Draw ``view`` into the screen's back buffer, not shown yet (a runner that can)."""
        self._drawn = None
        if self.open and hasattr(self.runner, "render"):
            shown, highlight = self.frame(view, decisions)
            if shown is not None:
                self.runner.render(shown, highlight)
                self._drawn = view

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        """Draw ``view`` (with its choices) on the table screen, or just present the frame already drawn."""
        if self.open:
            if self._drawn is view:
                self.runner.present()
            else:
                shown, highlight = self.frame(view, decisions)
                if shown is not None and highlight is not None:
                    self.runner.show(shown, highlight)
                elif shown is not None:
                    self.runner.show(shown)
            self._drawn = None
            self.open = self.runner.pump()


class CubeSink:
    """The cube display (a ``hardware.cube.CubeDisplay``) as an output."""

    def __init__(self, display: Any) -> None:
        self.display = display

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        """Show the cube's value and owner on the cube display."""
        self.display.show(view)
