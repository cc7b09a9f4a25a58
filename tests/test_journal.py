"""The live journal: fsync before acting, exact rebuild, torn last writes dropped at every
byte offset, nothing earlier lost, export at any time."""
from __future__ import annotations

import json

import pytest

from referee.errors import RecordError
from referee.journal import Journal, journal_lines, parse_journal, read_journal
from referee.matfile import load_mat, read_mat
from referee.record import Move, Roll
from referee.replay import replay_match
from referee.sgf import read_sgf

LHM = "lhm_match1486073.txt"


@pytest.fixture(scope="module")
def record(matches_dir):
    return load_mat(matches_dir / LHM).record


def _write(path, record, fsync=lambda fd: None):
    with Journal(path, fsync=fsync) as j:
        for ev in journal_lines(record):
            j.append(ev)
        return j.record()


def test_rebuild_equals_the_original(tmp_path, record):
    live = _write(tmp_path / "j.jsonl", record)
    assert live == record
    read = read_journal(tmp_path / "j.jsonl")
    assert read.record == record and read.problems == [] and read.warnings == []
    assert [e["seq"] for e in read.events] == list(range(1, len(read.events) + 1))


def test_each_event_is_on_disk_before_append_returns(tmp_path, record):
    path = tmp_path / "j.jsonl"
    seen = []

    def fsync(fd):  # at fsync time the whole line must already be written
        seen.append(path.read_bytes())

    with Journal(path, fsync=fsync) as j:
        j.start_match(record.players, record.match_length, record.rules)
        j.start_game(1, (0, 0))
        seq = j.action(1, Move(1, (5, 3), "24/16"))
    # the directory entry of the new file first, then one fsync per event
    assert len(seen) == 4 and seen[0] == b"" and seq == 3
    assert [len(x.splitlines()) for x in seen[1:]] == [1, 2, 3]
    assert seen[-1].endswith(b"\n") and json.loads(seen[-1].splitlines()[-1])["seq"] == 3


def test_torn_last_event_at_every_byte_offset(tmp_path, record):
    path = tmp_path / "j.jsonl"
    _write(path, record)
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    head, last = b"".join(lines[:-1]), lines[-1]
    before = parse_journal(head).record
    assert before != record
    for k in range(len(last)):
        read = parse_journal(head + last[:k])
        assert read.record == before, k
        assert read.problems == []
        assert bool(read.warnings) == (k > 0), k
    assert parse_journal(head + last).record == record
    # and after each such crash the table reopens the journal, re-logs the event, and
    # the rebuilt record equals the original
    ev = json.loads(last)
    del ev["seq"]
    for k in range(0, len(last), 7):
        path.write_bytes(head + last[:k])
        with Journal(path, fsync=lambda fd: None) as j:
            assert path.read_bytes() == head
            assert j.record() == before
            j.append(ev)
            assert j.record() == record
        assert path.read_bytes() == data


def test_reopening_drops_only_the_torn_tail_and_goes_on(tmp_path, record):
    path = tmp_path / "j.jsonl"
    _write(path, record)
    intact = path.read_bytes()
    path.write_bytes(intact + b'{"seq": 999, "event": "act')
    j = Journal(path, fsync=lambda fd: None)
    assert j.warnings and "torn" in j.warnings[0]
    assert path.read_bytes() == intact  # earlier events untouched
    n = len(read_journal(path).events)
    j.input({"kind": "roll_settled", "dice": [3, 1]})
    j.close()
    after = read_journal(path)
    assert after.warnings == [] and after.problems == [] and after.record == record
    assert after.events[-1]["seq"] == n + 1 and after.events[-1]["event"] == "input"
    assert path.read_bytes().startswith(intact)


def test_corrupt_middle_line_is_reported_and_later_events_kept(tmp_path, record):
    path = tmp_path / "j.jsonl"
    _write(path, record)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[5] = b"\x00\x00garbage\n"
    read = parse_journal(b"".join(lines))
    assert len(read.problems) >= 1 and "byte" in read.problems[0].reason
    assert len(read.events) == len(lines) - 1


def test_invalid_events_are_refused_before_writing(tmp_path, record):
    path = tmp_path / "j.jsonl"
    with Journal(path, fsync=lambda fd: None) as j:
        j.start_match(record.players, 5)
        with pytest.raises(RecordError, match="current game"):
            j.action(1, Move(0, (3, 1), "8/5 6/5"))
        j.start_game(1, (0, 0))
        with pytest.raises(RecordError, match="player"):
            j.append({"event": "action", "game": 1, "action": {"type": "take", "player": 7}})
    assert len(read_journal(path).events) == 2


def test_export_an_unfinished_match_at_any_time(tmp_path, record):
    path = tmp_path / "j.jsonl"
    evs = journal_lines(record)
    cut = next(i for i, e in enumerate(evs) if e["event"] == "game" and e["game"] == 2) + 9
    with Journal(path, fsync=lambda fd: None) as j:
        for ev in evs[:cut]:
            j.append(ev)
        j.action(2, Roll(j.record().games[-1].actions[-1].player ^ 1, (6, 5)))
        partial = j.record()
        j.export(tmp_path / "p.mat")
        j.export(tmp_path / "p.sgf")
    assert partial.games[-1].result is None
    for rec in (read_mat((tmp_path / "p.mat").read_text()).record, read_sgf((tmp_path / "p.sgf").read_text()).record):
        assert len(rec.games) == 2 and rec.games[-1].result is None
        assert replay_match(rec).problems == []
        assert [a.TYPE for a in rec.games[-1].actions] == [a.TYPE for a in partial.games[-1].actions]
