"""The table builds the other rolls' boards for the next judgement as soon as it knows the position
(referee.table.ahead): every move a game's judgement accepts was prepared before its dice were lifted."""
from __future__ import annotations

import random

from referee.colour import DARK, LIGHT
from referee.rules.position import Position
from referee.settings import Settings
from referee.table.ahead import BoardsAhead, wanted
from referee.table.process import TableCore
from referee.table.streams import random_game


def _fast(path):
    from referee.records.journal import Journal
    return Journal(path, fsync=lambda fd: None)


def test_every_accepted_move_was_prepared_before_its_judgement(tmp_path) -> None:
    prepared: list[tuple[Position, str]] = []
    core = TableCore.open(tmp_path / "journal.jsonl", Settings(match_to=3), journal_factory=_fast, sync="each")
    core.ahead = BoardsAhead(prepare=lambda pos, mover: prepared.append((pos, mover)), start=lambda work: work())
    moves = changes = 0
    try:
        for event in random_game(random.Random(11)).events:
            before, turn, ready = core.referee.pos, core.referee.turn, list(prepared)
            core.handle(event)
            changes += (core.referee.pos, core.referee.turn) != (before, turn)
            if core.referee.pos != before and turn is not None:
                assert (before, turn) in ready, (before.position_id(), turn)
                moves += 1
    finally:
        core.close()
    assert moves >= 10
    # asked once a position and mover, not once an event (a roll, a lift, a reading)
    assert all(a != b for a, b in zip(prepared, prepared[1:])), prepared
    assert len(prepared) <= changes + 1, (len(prepared), changes)


def test_before_the_opening_roll_both_players_boards_are_wanted() -> None:
    class Table:
        pos, turn = Position.start(), None
    assert wanted(Table()) == ((Position.start(), DARK), (Position.start(), LIGHT))
    Table.turn = LIGHT
    assert wanted(Table()) == ((Position.start(), LIGHT),)


def test_a_failed_build_is_logged_and_does_not_stop_the_table(caplog) -> None:
    def broken(pos: Position, mover: str) -> None:
        raise RuntimeError("no memory")

    class Table:
        pos, turn = Position.start(), DARK
    ahead = BoardsAhead(prepare=broken, start=lambda work: work())
    ahead.after(Table())
    assert "no memory" in caplog.text and ahead.last == ((Position.start(), DARK),)
