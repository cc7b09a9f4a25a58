"""Events that do not move the turn on: a throw starting, hands over the board, a board
reading kept for later, a dice reader fault, a camera's report; and the director, who pauses play
(``call_director``) until ``confirm`` or ``call_director`` resumes it where it was.
"""
from __future__ import annotations

from typing import Any

from referee.events import BoardEvidence, CameraReport, HandOverBoard, PlayerInput, ReaderFault
from referee.turn.states import STATES, State
from referee.turn.table_state import TableState


def ignore(t: TableState, ev: Any) -> None:
    """Nothing to do."""


def hands(t: TableState, ev: HandOverBoard) -> None:
    """A hand over the board: the last reading no longer shows the board as it is."""
    t.fresh = False


def note_board(t: TableState, ev: BoardEvidence) -> None:
    """A stable reading, kept for when it is needed."""
    t.reading, t.fresh = ev, True


def reader_fault(t: TableState, ev: ReaderFault) -> None:
    """The dice reader reports a fault."""
    t.decide("reader_fault", None, f"The dice reader reports a fault: {ev.message}. "
             "Call the director if it persists")


def camera_report(t: TableState, ev: CameraReport) -> None:
    """The camera reports: shown as it says (the turn goes on)."""
    t.decide("camera", None, f"The camera: {ev.message}")


def call_director(t: TableState, ev: PlayerInput) -> None:
    """A player calls the director: play pauses."""
    t.resume_state = t.state
    t.enter(State.DIRECTOR)
    t.decide("director", ev.player, f"{t.n(ev.player)} called the director: play is paused",
             choices=("confirm",))


def resume(t: TableState, ev: PlayerInput) -> None:
    """Play resumes where it was paused."""
    t.enter(t.resume_state)
    t.decide("director", ev.player, f"Play resumes: {STATES[t.state]}")
