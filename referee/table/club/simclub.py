"""Simulated tables of a club (the demo's fast path), each publishing its journal.

:class:`ClubTable` is one ``bgtable demo`` table (perfect camera, direct dice: the fast
path) with the club link wired as the table process would wire it: after every step the
director actions that arrived are journaled (:class:`.director.DirectorInbox`) and the
publisher pumps the new journal lines (:class:`.publisher.Publisher`); when something waits
(a dispute, a director call) the simulated camera's last frame is published
(:class:`.frames.FrameSink`).  The end-to-end test and ``bench/club.py`` run several of them
against one broker.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable, Optional

from referee.table.club.broker import Broker
from referee.table.club.director import DirectorInbox
from referee.table.club.publisher import Publisher
from referee.table.club.translate import Translator


def demo_args(seed: int, match_to: int = 3) -> argparse.Namespace:
    """``bgtable demo``'s arguments for a fast headless table."""
    from referee.table import demo  # noqa: PLC0415

    return demo._parser().parse_args(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet",
                                      "--seed", str(seed), "--match-to", str(match_to)])


class ClubTable:
    """One simulated table with its publisher and director inbox (see the module docstring)."""

    def __init__(self, club: str, name: str, out: Path, broker: Broker, seed: int, match_to: int = 3,
                 after_step: Optional[Callable[["ClubTable"], None]] = None, fsync: bool = True) -> None:
        """``fsync=False`` (tests and benches on a shared disk): the journal skips its fsync."""
        from referee.records.journal import Journal  # noqa: PLC0415
        from referee.table import demo  # noqa: PLC0415

        self.name = name
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        factory = Journal if fsync else (lambda p: Journal(p, fsync=lambda fd: None))
        self.core, self.table, self.closers = demo.build(demo_args(seed, match_to), self.out,
                                                         printer=lambda s: None, journal_factory=factory)
        self.broker = broker
        self.inbox = DirectorInbox(broker, club, name, DirectorInbox.seen_in(self.core.journal.read.events))
        self.publisher = Publisher(self.core.journal.path, broker, Translator(club, name))
        from referee.table.club.frames import FrameSink, frame_source  # noqa: PLC0415
        self.frames = FrameSink(broker, club, name, frame_source(self.table.camera), self.core.journal)
        self.core.sinks.append(self.frames)
        self.after_step = after_step
        self.steps = 0
        self.director_lines: list[dict[str, Any]] = []

    def pump(self) -> None:
        """Journal what the director sent (a pause or resume goes to the referee, as the table
        process does), publish what the journal gained."""
        from referee.table.club.link import director_input  # noqa: PLC0415

        for entry in self.inbox.journal(self.core.journal):
            self.director_lines.append(entry)
            event = director_input(entry, self.core.referee.view())
            if event is not None:
                self.core.handle(event)
        self.publisher.pump()

    def play(self, max_steps: int = 20000) -> None:
        """Play the match to its end, pumping the club link after every step."""
        t = self.table
        t.look()
        self.pump()
        while not self.core.match_over and self.steps < max_steps:
            t.step()
            self.steps += 1
            t.stats.steps += 1
            self.pump()
            if self.after_step:
                self.after_step(self)
        self.pump()

    def close(self) -> None:
        """Close every part of the simulated club table, last opened first, ignoring errors."""
        for c in reversed(self.closers):
            try:
                c.close()
            except Exception:
                pass


__all__ = ["ClubTable", "demo_args"]
