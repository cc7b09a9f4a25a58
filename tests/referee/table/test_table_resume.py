"""Resuming a journal whose last input's record lines were lost: the record is kept once, in
the journal, and the lines a replay emits past those it holds are written on resume."""
from __future__ import annotations

import random

from referee.records.lines import decode_line
from referee.settings import Settings
from referee.table.process import TableCore
from referee.table.streams import random_game


def _fast(path):
    from referee.records.journal import Journal
    return Journal(path, fsync=lambda fd: None)


def test_a_crash_between_an_input_and_its_record_lines_is_made_good_on_resume(tmp_path) -> None:
    path = tmp_path / "journal.jsonl"
    events = random_game(random.Random(5)).events
    core = TableCore.open(path, Settings(match_to=3), journal_factory=_fast, sync="each")
    for e in events:
        core.handle(e)
    whole, record = path.read_bytes(), core.record()
    core.close()
    lines = whole.splitlines(keepends=True)
    kinds = [decode_line(raw.rstrip(b"\n"), False)[0]["event"] for raw in lines]
    last_input = max(i for i, k in enumerate(kinds) if k == "input")
    assert kinds[last_input + 1:] and set(kinds[last_input + 1:]) <= {"game", "action"}
    for cut in range(last_input + 1, len(lines)):  # the crash came after line `cut`
        path.write_bytes(b"".join(lines[:cut]))
        again = TableCore.open(path, Settings(match_to=3), journal_factory=_fast, sync="each")
        try:
            assert again.record() == record and again.events == len(events)
        finally:
            again.close()
        assert path.read_bytes() == whole, cut
