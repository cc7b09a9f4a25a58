"""The live journal: fsync before acting, exact rebuild, torn last writes dropped at every
byte offset, nothing earlier lost, export at any time; every line checked (a flipped byte
anywhere ends the trusted part at its line), the damaged rest backed up on reopening,
short and failing writes, the lock, older journals without checks, ``bgtable journal``."""
from __future__ import annotations

import errno
import json
import random

import pytest

from referee import cli
from referee.errors import RecordError
from referee.records.builder import journal_lines
from referee.records.damage import parse_journal
from referee.records.journal import Journal, JournalLocked, JournalWriteError, read_journal
from referee.records.matfile import load_mat, read_mat
from referee.records.actions import Move, Roll
from referee.records.replay import replay_match
from referee.records.sgf import read_sgf

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


def _short(record, n=6):
    """The first ``n`` events of ``record``'s journal, as bytes."""
    return b"".join(_lines(record)[:n])


def _lines(record):
    from referee.records.lines import encode_line
    return [encode_line({"seq": i, **e}) for i, e in enumerate(journal_lines(record), 1)]


def test_every_line_carries_its_crc_and_old_lines_without_one_still_load(tmp_path, record):
    path = tmp_path / "j.jsonl"
    _write(path, record)
    raw = path.read_bytes().splitlines()
    assert all(json.loads(line)["crc"] for line in raw)
    # an older journal: the same events without checks
    legacy = b"".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "crc"}, ensure_ascii=False,
                                 separators=(",", ":")).encode() + b"\n"
                      for line in raw)
    read = parse_journal(legacy)
    assert read.record == record and read.damage is None and not read.checked
    # appending to it goes on with checked lines; a line without a check after one is damage
    (tmp_path / "old.jsonl").write_bytes(legacy)
    with Journal(tmp_path / "old.jsonl", fsync=lambda fd: None) as j:
        j.input({"kind": "dice_lifted", "roll_id": 1})
    mixed = (tmp_path / "old.jsonl").read_bytes()
    assert parse_journal(mixed).damage is None and len(parse_journal(mixed).events) == len(raw) + 1
    bad = parse_journal(mixed + b'{"seq": %d, "event": "note"}\n' % (len(raw) + 2))
    assert bad.damage is not None and "no check" in bad.damage.reason and len(bad.events) == len(raw) + 1


def test_a_changed_byte_anywhere_ends_the_trusted_journal_at_its_line(record):
    data = _short(record)
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    whole = parse_journal(data)
    assert whole.damage is None and len(whole.events) == 6
    rng = random.Random(17)
    for pos in range(len(data)):
        bad = bytearray(data)
        bad[pos] ^= rng.randrange(1, 256)
        read = parse_journal(bytes(bad))
        line = max(i for i, s in enumerate(starts) if s <= pos) + 1  # 1-based line holding the byte
        assert read.damage is not None, pos
        # a newline changed into another byte joins two lines: the damage is still that line
        assert read.damage.line == line and len(read.events) == line - 1, (pos, read.damage)
        assert read.events == whole.events[:line - 1]
        assert read.intact_bytes == starts[line - 1]


def test_a_deleted_or_repeated_line_breaks_the_sequence(record):
    lines = _lines(record)[:8]
    for drop in range(1, 7):
        read = parse_journal(b"".join(lines[:drop] + lines[drop + 1:]))
        assert read.damage is not None and read.damage.line == drop + 1 and "sequence number" in read.damage.reason
        assert len(read.events) == drop
    read = parse_journal(b"".join(lines[:4] + lines[3:]))
    assert read.damage is not None and read.damage.line == 5


def test_reopening_a_damaged_journal_backs_up_the_rest_and_goes_on(tmp_path, record):
    path = tmp_path / "current.jsonl"
    lines = _lines(record)[:10]
    damaged = bytearray(b"".join(lines))
    cut = sum(map(len, lines[:6]))
    damaged[cut + 20] ^= 0x01
    path.write_bytes(bytes(damaged))
    with Journal(path, fsync=lambda fd: None) as j:
        assert j.repair is not None and j.repair.damage.line == 7
        assert "line 7" in j.warnings[0] and "lines 1-6" in j.warnings[0] and str(j.repair.backup) in j.warnings[0]
        assert path.read_bytes() == b"".join(lines[:6])
        assert j.repair.backup.read_bytes() == bytes(damaged[cut:])  # nothing thrown away
        assert j.repair.backup.name.startswith("current.jsonl.damaged-")
        assert j.input({"kind": "dice_lifted", "roll_id": 1}) == 7
    after = read_journal(path)
    assert after.damage is None and len(after.events) == 7
    # a second damage the same second gets its own backup file
    path.write_bytes(path.read_bytes() + b"garbage\n")
    with Journal(path, fsync=lambda fd: None) as j2:
        assert j2.repair is not None and j2.repair.backup != j.repair.backup
        assert j2.repair.backup.read_bytes() == b"garbage\n"


def test_a_garbage_journal_is_kept_whole_not_overwritten(tmp_path):
    path = tmp_path / "current.jsonl"
    garbage = bytes(random.Random(3).randrange(256) for _ in range(5000))
    path.write_bytes(garbage)
    with Journal(path, fsync=lambda fd: None) as j:
        assert j.repair is not None and j.repair.damage.line == 1 and j.read.events == []
        assert j.repair.backup.read_bytes() == garbage
    assert path.read_bytes() == b""


class FlakyDisk:
    """An os.write-like writer: short writes of ``chunk`` bytes, or an error while ``fail`` is set."""

    def __init__(self, chunk=7):
        self.chunk = chunk
        self.fail = None
        self.calls = 0

    def __call__(self, fd, data):
        self.calls += 1
        if self.fail is not None:
            # part of the line reaches the file before the disk refuses the rest
            if self.calls % 2:
                import os
                os.write(fd, bytes(data[:3]))
            raise OSError(self.fail, "injected")
        import os
        return os.write(fd, bytes(data[:self.chunk]))


def test_short_writes_are_completed_and_a_failing_disk_leaves_nothing_behind(tmp_path, record):
    path = tmp_path / "j.jsonl"
    disk = FlakyDisk()
    evs = journal_lines(record)[:8]
    with Journal(path, fsync=lambda fd: None, write=disk) as j:
        for e in evs[:4]:
            j.append(e)
        assert disk.calls > 40  # lines went out 7 bytes at a time, complete
        before = path.read_bytes()
        for err, reason in ((errno.ENOSPC, "disk full"), (errno.EROFS, "read-only filesystem"),
                            (errno.ENOSPC, "disk full")):
            disk.fail = err
            with pytest.raises(JournalWriteError) as info:
                j.append(evs[4])
            assert info.value.reason == reason and "cannot be written" in str(info.value)
            assert path.read_bytes() == before  # no part of the line stays
            assert j.seq == 4
        disk.fail = None
        for e in evs[4:]:
            j.append(e)
    read = read_journal(path)
    assert read.damage is None and [e["seq"] for e in read.events] == list(range(1, 9))
    assert read.events == [{"seq": i, **e} for i, e in enumerate(evs, 1)]


def test_fsync_failure_is_a_write_failure(tmp_path, record):
    path = tmp_path / "j.jsonl"
    state = {"fail": False}

    def fsync(fd):
        if state["fail"]:
            raise OSError(errno.EIO, "Input/output error")

    with Journal(path, fsync=fsync) as j:
        j.start_match(record.players, 3)
        state["fail"] = True
        with pytest.raises(JournalWriteError, match="Input/output error"):
            j.start_game(1, (0, 0))
        state["fail"] = False
        assert j.start_game(1, (0, 0)) == 2
    assert len(read_journal(path).events) == 2


def test_a_second_process_on_the_journal_is_refused(tmp_path, record):
    import subprocess
    import sys
    path = tmp_path / "j.jsonl"
    with Journal(path, fsync=lambda fd: None) as j:
        j.start_match(record.players, 3)
        with pytest.raises(JournalLocked, match="in use by another process"):
            Journal(path)
        # flock is per open file: another process is refused the same way
        proc = subprocess.run([sys.executable, "-c", "import sys; from referee.records.journal import Journal; "
                               f"Journal({str(path)!r})"], capture_output=True, text=True)
        assert proc.returncode != 0 and "JournalLocked" in proc.stderr
    with Journal(path, fsync=lambda fd: None) as again:  # released on close
        assert again.seq == 1


def test_journal_check_and_repair_commands(tmp_path, record, capsys):
    path = tmp_path / "current.jsonl"
    data = b"".join(_lines(record)[:12])
    path.write_bytes(data)
    assert cli.main(["journal", "check", str(path)]) == 0
    assert "12 line(s), intact" in capsys.readouterr().out
    path.write_bytes(data[:-40] + b"X" + data[-39:])
    assert cli.main(["journal", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "line 12" in out and "lines 1-11" in out and "repair" in out
    assert path.read_bytes() != data[:-40]  # check only reads
    assert cli.main(["journal", "repair", str(path)]) == 0
    out = capsys.readouterr().out
    backups = list(tmp_path.glob("current.jsonl.damaged-*"))
    assert len(backups) == 1 and str(backups[0]) in out
    assert cli.main(["journal", "check", str(path)]) == 0 and len(read_journal(path).events) == 11
    capsys.readouterr()
    for bad in (str(tmp_path / "missing.jsonl"), str(tmp_path)):
        assert cli.main(["journal", "check", bad]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and bad in err[0]
    with Journal(path, fsync=lambda fd: None):
        path.write_bytes(path.read_bytes() + b"torn")
        assert cli.main(["journal", "repair", str(path)]) == 2
        assert "in use" in capsys.readouterr().err


def test_a_checked_input_the_table_cannot_replay_ends_the_trusted_part(record):
    from referee.records.lines import encode_line
    lines = _lines(record)[:3]
    bad = encode_line({"seq": 4, "event": "input", "data": {"kind": "board", "points": [], "t": "now"}})
    read = parse_journal(b"".join(lines) + bad)
    assert read.damage is not None and read.damage.line == 4 and 't "now"' in read.damage.reason
    assert len(read.events) == 3
