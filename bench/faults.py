"""Fault injection on the table's journal: kill -9, damaged bytes, a full disk, read-only, two processes.

    python3 bench/faults.py [--seed 54] [--match-to 1] [--every 1] [--random-kills 20]
                            [--rendered-kills 100] [--rendered-budget SECONDS] [--damage 60]
                            [--disk 10] [--two 5] [--only lines,random,rendered,...]

A seeded demo on the fast path (perfect camera, direct dice) is the reference.  Then:

* ``kill -9 at line k``: the demo process SIGKILLs itself from inside its journal writer
  just after line k is on disk, for every k (``--every``), then ``demo --resume`` finishes it;
* ``kill -9 at random time``: the same, killed from outside after a random delay;
* ``kill -9 rendered``: the same on a rendered demo (``--camera render``, the dice over a
  pty), against an uninterrupted rendered run; its pty dice stamp events with the reader's
  clock, so the journals are compared but for those times (the .mat byte for byte);
* ``byte flip`` / ``truncation`` / ``line deletion``: a journal cut at a random line, then
  damaged, then ``demo --resume`` (a damage in line 1 leaves nothing to trust: the demo must
  refuse with exit 2, counted as ``refused``);
* ``disk full (ENOSPC)`` / ``read-only (EROFS)``: the table in process with a journal writer
  that fails for a while at random events (play must pause and go on);
* ``disk full (tmpfs)``: a real full disk (needs root): ``--out`` on a 256 KiB tmpfs that a
  filler file leaves a few pages of; the demo must pause with the message on its screen,
  then finish identically once space is freed (the filler deleted, or the tmpfs remounted
  bigger, in turn);
* ``read-only remount (tmpfs)``: ``mount -o remount,ro`` mid-run.  Linux refuses it while a
  file is open for writing, and the journal always is, so the bench says so and instead
* ``read-only (ext4 error)``: ext4 on a loop device mounted ``errors=remount-ro``, an error
  triggered mid-run, the kernel remounts it read-only under the table: the demo must pause
  with the message; ext4 will not go back to rw after an error, so the table is stopped
  (SIGTERM), the card unmounted, checked (e2fsck) and mounted again, and ``demo --resume``
  must finish identically;
* ``two processes``: a second ``demo --resume`` while a first holds the journal.

For the real mounts the demo's players wait while the screen says play is paused (the
simulated table itself does not: a wrapper, ``WAIT_WHILE_PAUSED``, makes them, and echoes
the screen's pause message on stderr).  A mount the machine refuses is reported as a
skipped fault and fails the bench.  Everything mounted is unmounted.

Per fault it prints runs / resumed / identical (the .mat and the journal of the reference) /
refused / lost events (lines on disk before the fault found neither in the final journal nor
in the dated backups) / tracebacks / same .mat.  Target: 100 % resumed and identical where the
damage left the event intact, 0 lost, 0 tracebacks.
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.records.journal import Journal, read_journal  # noqa: E402

FAST = ("--headless", "--camera", "perfect", "--dice", "direct", "--quiet")
RENDERED = ("--headless", "--camera", "render", "--quiet")  # the vision pipeline, the dice over a pty
KILL_AT = """
import os, signal, sys
from referee.records import journal
from referee.table import demo
limit = int(sys.argv[1])
real = journal.Journal.append
def append(self, event):
    seq = real(self, event)
    if seq >= limit:
        os.kill(os.getpid(), signal.SIGKILL)
    return seq
journal.Journal.append = append
sys.exit(demo.main(sys.argv[2:]))
"""


@dataclass
class Tally:
    """The figures of one kind of fault."""

    name: str
    runs: int = 0
    resumed: int = 0
    identical: int = 0
    refused: int = 0  # nothing left to trust: the demo said so (exit 2) instead of starting afresh
    lost: int = 0
    tracebacks: int = 0
    same_mat: int = 0  # the final match.mat is the uninterrupted run's (whatever the journal)

    def row(self) -> str:
        return (f"{self.name:<24} {self.runs:>5} {self.resumed:>8} {self.identical:>10} {self.refused:>8} "
                f"{self.lost:>5} {self.tracebacks:>10} {self.same_mat:>9}")


def demo_cmd(out: Path, seed: int, match_to: int, resume: bool, flags: Sequence[str] = FAST) -> list[str]:
    """The demo's arguments for a run in ``out``."""
    return [*flags, "--seed", str(seed), "--match-to", str(match_to), "--out", str(out)] + (
        ["--resume"] if resume else [])


def run_demo(out: Path, seed: int, match_to: int, resume: bool,
             flags: Sequence[str] = FAST) -> subprocess.CompletedProcess:
    """Run the demo to its end (or its refusal)."""
    return subprocess.run([sys.executable, "-m", "referee.cli", "demo",
                           *demo_cmd(out, seed, match_to, resume, flags)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def lost_lines(before: bytes, out: Path) -> int:
    """Lines on disk before the fault found neither in the final journal nor in a backup."""
    final = (out / "journal.jsonl").read_bytes() if (out / "journal.jsonl").exists() else b""
    kept = set(final.splitlines())
    for b in out.glob("journal.jsonl.damaged-*"):
        kept |= set(b.read_bytes().splitlines())
    return sum(1 for line in before.splitlines() if line.strip(b"\0 \r\t") and line not in kept)


def same_mat(out: Path, ref: tuple[bytes, str]) -> bool:
    """The .mat in ``out`` is the reference's."""
    mat = out / "match.mat"
    return mat.exists() and mat.read_text() == ref[1]


def untimed(journal: bytes) -> list[object]:
    """A journal's events without their device times (and so without their checks): a
    rendered demo's pty dice stamp each event with the reader's clock, different every run."""
    out: list[object] = []
    for line in journal.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            out.append(line)
            continue
        ev.pop("crc", None)
        if isinstance(ev.get("data"), dict):
            ev["data"].pop("t", None)
        out.append(ev)
    return out


def same(out: Path, ref: tuple[bytes, str], times: bool = True) -> bool:
    """The journal and the .mat in ``out`` are the reference's, byte for byte (``times``
    False: the journal's events but for their device times)."""
    got = (out / "journal.jsonl").read_bytes()
    return (got == ref[0] if times else untimed(got) == untimed(ref[0])) and same_mat(out, ref)


def finish(t: Tally, out: Path, before: bytes, ref: tuple[bytes, str], seed: int, match_to: int,
           expect_refusal: bool = False, flags: Sequence[str] = FAST, times: bool = True) -> None:
    """Resume the demo in ``out`` and count what came of it."""
    t.runs += 1
    r = run_demo(out, seed, match_to, resume=True, flags=flags)
    t.tracebacks += "Traceback" in r.stderr
    if r.returncode == 0:
        t.resumed += 1
        t.identical += same(out, ref, times)
        t.same_mat += same_mat(out, ref)
    elif expect_refusal and r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1:
        t.refused += 1
    else:
        print(f"  {t.name}: exit {r.returncode}: {r.stderr.strip()[-300:]}", file=sys.stderr)
    t.lost += lost_lines(before, out)


def kill_at_lines(ref: tuple[bytes, str], seed: int, match_to: int, every: int, tmp: Path) -> Tally:
    t = Tally("kill -9 at line k")
    n = ref[0].count(b"\n")
    for k in range(1, n, every):
        out = tmp / f"k{k}"
        r = subprocess.run([sys.executable, "-c", KILL_AT, str(k), *demo_cmd(out, seed, match_to, False)],
                           capture_output=True, text=True, cwd=ROOT, timeout=600)
        t.tracebacks += "Traceback" in r.stderr
        before = (out / "journal.jsonl").read_bytes()
        assert r.returncode == -signal.SIGKILL and before.count(b"\n") == k, (k, r.returncode, r.stderr[-500:])
        finish(t, out, before, ref, seed, match_to)
        shutil.rmtree(out)
    return t


def kill_at_random(ref: tuple[bytes, str], seed: int, match_to: int, count: int, full: float, rng: random.Random,
                   tmp: Path, flags: Sequence[str] = FAST, name: str = "kill -9 at random time",
                   budget: Optional[float] = None, times: bool = True) -> Tally:
    """Kill the demo (run with ``flags``) from outside after a random delay, then resume it;
    ``budget`` (seconds): start no new run after that long (the tally says how many ran);
    ``times`` False: the journal is compared but for its device times."""
    t = Tally(name)
    t0 = time.monotonic()
    finished_first = 0
    for i in range(count):
        if budget is not None and time.monotonic() - t0 >= budget:
            print(f"  {name}: time budget of {budget:.0f} s spent after {i} of {count} run(s)", file=sys.stderr)
            break
        out = tmp / f"r{i}"
        p = subprocess.Popen([sys.executable, "-m", "referee.cli", "demo",
                              *demo_cmd(out, seed, match_to, False, flags)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
        try:
            p.wait(timeout=rng.uniform(0.05, 1.0) * full)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGKILL)
            p.wait()
        err = p.stderr.read().decode() if p.stderr else ""
        t.tracebacks += "Traceback" in err
        journal = out / "journal.jsonl"
        before = journal.read_bytes() if journal.exists() else b""
        if not before:  # killed before the first line: nothing to resume, a fresh start is right
            t.runs += 1
            r = run_demo(out, seed, match_to, resume=False, flags=flags)
            t.resumed += r.returncode == 0
            t.identical += r.returncode == 0 and same(out, ref, times)
            t.same_mat += r.returncode == 0 and same_mat(out, ref)
        elif p.returncode == 0:  # finished before the kill
            finished_first += 1
            t.runs += 1
            t.resumed += 1
            t.identical += same(out, ref, times)
            t.same_mat += same_mat(out, ref)
        else:
            finish(t, out, before, ref, seed, match_to, flags=flags, times=times)
        shutil.rmtree(out, ignore_errors=True)
    if finished_first:
        print(f"# {name}: {finished_first} of {t.runs} run(s) finished before their kill", flush=True)
    return t


def damaged(ref: tuple[bytes, str], seed: int, match_to: int, count: int, rng: random.Random, tmp: Path) -> list[Tally]:
    lines = ref[0].splitlines(keepends=True)
    out_tallies = []
    for kind in ("byte flip", "truncation", "line deletion"):
        t = Tally(kind)
        for i in range(count):
            k = rng.randrange(2, len(lines))
            data = bytearray(b"".join(lines[:k]))
            starts = [0]
            for line in lines[:k]:
                starts.append(starts[-1] + len(line))
            if kind == "byte flip":
                pos = rng.randrange(len(data))
                data[pos] ^= 1 << rng.randrange(8)
                first_bad = max(j for j, s in enumerate(starts) if s <= pos)
            elif kind == "truncation":
                pos = rng.randrange(starts[1] // 2, len(data))  # sometimes inside line 1 too
                del data[pos:]
                first_bad = max(j for j, s in enumerate(starts) if s <= pos)
            else:
                d = rng.randrange(k)
                del data[starts[d]:starts[d + 1]]
                first_bad = d
            out = tmp / f"d{i}"
            out.mkdir()
            (out / "journal.jsonl").write_bytes(bytes(data))
            finish(t, out, bytes(data), ref, seed, match_to, expect_refusal=first_bad == 0)
            shutil.rmtree(out)
        out_tallies.append(t)
    return out_tallies


class FailingDisk:
    """An os.write that fails with ``err`` while ``fail`` is set."""

    def __init__(self, err: int) -> None:
        self.err = err
        self.fail = False

    def __call__(self, fd: int, data: object) -> int:
        if self.fail:
            raise OSError(self.err, os.strerror(self.err))
        return os.write(fd, data)  # type: ignore[arg-type]


def full_disk(ref: tuple[bytes, str], seed: int, match_to: int, count: int, rng: random.Random,
              tmp: Path) -> list[Tally]:
    """The demo's table in process, its journal's writer failing for a while at random events."""
    from referee.table import demo  # noqa: PLC0415
    tallies = []
    for name, err in (("disk full (ENOSPC)", errno.ENOSPC), ("read-only (EROFS)", errno.EROFS)):
        t = Tally(name)
        for i in range(count):
            out = tmp / f"f{i}"
            out.mkdir()
            disk = FailingDisk(err)
            args = demo._parser().parse_args(demo_cmd(out, seed, match_to, False))
            try:
                with contextlib.redirect_stderr(io.StringIO()) as errs:
                    core, table, closers = demo.build(args, out, printer=lambda s: None,
                                                      journal_factory=lambda p: Journal(p, write=disk))
                    original = core.retry
                    at = set(rng.sample(range(5, 150), 3))
                    state = {"tries": 0, "bad": 0}

                    def retry() -> list:
                        if core.events in at and not disk.fail:
                            at.discard(core.events)
                            disk.fail = True
                            state["tries"] = rng.randrange(1, 6)
                        if disk.fail:
                            seq = core.journal.seq
                            got = original()
                            state["bad"] += bool(got) or core.journal.seq != seq or core.paused is None
                            state["tries"] -= 1
                            if state["tries"] <= 0:
                                disk.fail = False
                            return got
                        return original()

                    core.retry = retry  # type: ignore[method-assign]
                    feed = table.feed

                    def wait_while_paused(events: list) -> list:  # the players wait while the screen says paused
                        out = []
                        for e in events:
                            out += feed([e])
                            while core.paused is not None:
                                out += core.retry()
                        return out

                    table.feed = wait_while_paused  # type: ignore[method-assign,assignment]
                    table.run()
                    core.export(out)
                    for c in reversed(closers):
                        c.close()
                t.runs += 1
                t.resumed += state["bad"] == 0 and core.paused is None
                t.identical += same(out, ref)
                t.same_mat += same_mat(out, ref)
                t.tracebacks += "Traceback" in errs.getvalue()
            except Exception as exc:  # noqa: BLE001 (a figure, not a crash of the bench)
                t.runs += 1
                t.tracebacks += 1
                print(f"  {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            shutil.rmtree(out)
        tallies.append(t)
    return tallies


WAIT_WHILE_PAUSED = """
import sys, time
from referee.table import demo, simtable
from referee.table.process import PAUSED
real_feed = simtable.SimulatedTable.feed
def feed(self, events):
    out = []
    for e in events:
        out += real_feed(self, [e])
        while self.core.paused is not None:  # the players wait while the screen says paused
            time.sleep(0.05)
            ds = self.core.retry()
            self.stats.count(ds)
            out += ds
            self._tell_camera()
    return out
simtable.SimulatedTable.feed = feed
class Screen:  # the screen's message, on stderr, when play pauses and when it goes on
    last = ""
    def show(self, view, decisions):
        m = view.message or ""
        if m != self.last and (m.startswith(PAUSED) or self.last.startswith(PAUSED)):
            print("screen: " + m, file=sys.stderr, flush=True)
        self.last = m
real_build = demo.build
def build(*a, **k):
    core, table, closers = real_build(*a, **k)
    core.sinks.append(Screen())
    return core, table, closers
demo.build = build
sys.exit(demo.main(sys.argv[1:]))
"""
PAUSE_LINE = "screen: the journal cannot be written"


def sh(*cmd: str) -> str:
    """Run a mount-like command: "" when it worked, else its first line of complaint."""
    try:
        r = subprocess.run(list(cmd), capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{cmd[0]}: {exc}"
    if r.returncode == 0:
        return ""
    return ((r.stderr.strip() or r.stdout.strip()).splitlines() or [f"exit {r.returncode}"])[0]


class Watched:
    """The demo (players who wait while play is paused) in a subprocess, its stderr read as it comes."""

    def __init__(self, out: Path, seed: int, match_to: int, resume: bool = False) -> None:
        self.lines: list[str] = []
        self.paused = threading.Event()
        self.p = subprocess.Popen([sys.executable, "-c", WAIT_WHILE_PAUSED,
                                   *demo_cmd(out, seed, match_to, resume)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.p.stderr is not None
        for line in self.p.stderr:
            self.lines.append(line)
            if line.startswith(PAUSE_LINE):
                self.paused.set()

    def wait_paused(self, timeout: float) -> bool:
        """True once the screen says play is paused (False: the demo ended or the time ran out)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.paused.wait(0.05):
                return True
            if self.p.poll() is not None:
                self._reader.join(5)
                return self.paused.is_set()
        return False

    def wait(self, timeout: float = 300) -> int:
        try:
            rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = self.p.wait()
        self._reader.join(5)
        return rc

    @property
    def stderr(self) -> str:
        return "".join(self.lines)


def journal_lines(out: Path) -> int:
    j = out / "journal.jsonl"
    try:
        return j.read_bytes().count(b"\n")
    except OSError:
        return 0


def tmpfs_full(ref: tuple[bytes, str], seed: int, match_to: int, count: int, rng: random.Random,
               tmp: Path) -> Optional[Tally]:
    """A real full disk: ``--out`` on a small tmpfs that a filler file leaves a few pages of;
    the demo must pause with the message, then, once space is freed (the filler deleted or
    the tmpfs remounted bigger), finish with the reference's journal and .mat."""
    t = Tally("disk full (tmpfs)")
    at: list[int] = []  # the journal's lines when play paused
    size = 256  # KiB, more than the journal, the .mat and the .sgf need
    for i in range(count):
        mnt = tmp / f"tmpfs{i}"
        mnt.mkdir()
        err = sh("mount", "-t", "tmpfs", "-o", f"size={size}k", "tmpfs", str(mnt))
        if err:
            print(f"# {t.name}: SKIPPED, the tmpfs could not be mounted: {err}", flush=True)
            return None
        try:
            free = rng.randrange(2, len(ref[0]) // 4096 - 1) * 4096  # runs out mid-journal
            filler = mnt / "filler"
            filler.write_bytes(b"\0" * (size * 1024 - free))
            out = mnt / "out"
            w = Watched(out, seed, match_to)
            paused = w.wait_paused(120)
            before = (out / "journal.jsonl").read_bytes() if (out / "journal.jsonl").exists() else b""
            if paused:
                at.append(before.count(b"\n"))
                time.sleep(0.3)  # a few failed retries while the players wait
                if i % 2 == 0:
                    filler.unlink()
                else:
                    problem = sh("mount", "-o", f"remount,size={4 * size}k", str(mnt))
                    if problem:
                        print(f"  {t.name}: the tmpfs could not be made bigger: {problem}", file=sys.stderr)
            rc = w.wait()
            t.runs += 1
            t.tracebacks += "Traceback" in w.stderr
            said = any(line.startswith(PAUSE_LINE) and "disk full" in line for line in w.lines)
            if paused and said and rc == 0:
                t.resumed += 1
                t.identical += same(out, ref)
                t.same_mat += same_mat(out, ref)
            else:
                print(f"  {t.name}: paused {paused}, said disk full {said}, exit {rc}: {w.stderr[-300:]}",
                      file=sys.stderr)
            t.lost += lost_lines(before, out)
        finally:
            problem = sh("umount", str(mnt))
            if problem:
                print(f"  {t.name}: umount {mnt}: {problem}", file=sys.stderr)
    if at:
        print(f"# {t.name}: play paused at journal line(s) {', '.join(map(str, sorted(at)))} of "
              f"{len(ref[0].splitlines())}", flush=True)
    return t


def tmpfs_readonly(ref: tuple[bytes, str], seed: int, match_to: int, count: int, rng: random.Random,
                   tmp: Path) -> list[Tally]:
    """A real read-only filesystem under the running demo.

    First as asked, ``mount -o remount,ro`` of a tmpfs mid-run (Linux refuses it while a file
    is open for writing, as the journal always is: the row then says so).  Then as a card that
    fails does it: ext4 on a loop device mounted ``errors=remount-ro``, an error triggered
    mid-run (``/sys/fs/ext4/DEV/trigger_fs_error``) makes the kernel remount it read-only under
    the table.  The demo must pause with the message; ext4 will not go back to rw after an
    error, so the operator stops the table (SIGTERM, as systemd does), unmounts, runs e2fsck,
    mounts again and ``demo --resume`` must finish with the reference's journal and .mat."""
    n = ref[0].count(b"\n")
    live = Tally("read-only remount (tmpfs)")
    refused: list[str] = []
    for i in range(count):
        mnt = tmp / f"ro{i}"
        mnt.mkdir()
        err = sh("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt))
        if err:
            print(f"# {live.name}: SKIPPED, the tmpfs could not be mounted: {err}", flush=True)
            return []
        try:
            out = mnt / "out"
            k = rng.randrange(5, n - 5)
            w = Watched(out, seed, match_to)
            while journal_lines(out) < k and w.p.poll() is None:
                time.sleep(0.005)
            problem = sh("mount", "-o", "remount,ro", str(mnt))
            before = (out / "journal.jsonl").read_bytes()
            if problem:
                refused.append(problem)
                w.wait()
                continue
            paused = w.wait_paused(60)
            time.sleep(0.3)
            back = sh("mount", "-o", "remount,rw", str(mnt))
            rc = w.wait()
            live.runs += 1
            live.tracebacks += "Traceback" in w.stderr
            if paused and not back and rc == 0:
                live.resumed += 1
                live.identical += same(out, ref)
                live.same_mat += same_mat(out, ref)
            live.lost += lost_lines(before, out)
        finally:
            sh("umount", str(mnt))
    if refused:
        print(f"# {live.name}: the kernel refused {len(refused)} of {count} remount(s) mid-run: {refused[0]} "
              "(Linux refuses remount,ro while a file is open for writing, and the journal always is)",
              flush=True)
    forced = Tally("read-only (ext4 error)")
    for i in range(count):
        img, mnt = tmp / f"ext4-{i}.img", tmp / f"ext4-{i}"
        mnt.mkdir()
        with open(img, "wb") as fh:
            fh.truncate(16 << 20)
        err = sh("mkfs.ext4", "-q", "-F", str(img)) or sh("mount", "-o", "loop,errors=remount-ro", str(img), str(mnt))
        if err:
            print(f"# {forced.name}: SKIPPED, no ext4 on a loop device: {err}", flush=True)
            return [live]
        try:
            dev = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(mnt)], capture_output=True,
                                 text=True).stdout.strip()
            trigger = Path("/sys/fs/ext4") / Path(dev).name / "trigger_fs_error"
            if not trigger.exists():
                print(f"# {forced.name}: SKIPPED, this kernel has no {trigger}", flush=True)
                return [live]
            out = mnt / "out"
            k = rng.randrange(5, n - 5)
            w = Watched(out, seed, match_to)
            while journal_lines(out) < k and w.p.poll() is None:
                time.sleep(0.005)
            trigger.write_text("bgtable bench: a failing card\n")
            paused = w.wait_paused(60)
            time.sleep(1.0)  # the players wait; the table retries (the line in flight got EIO, then EROFS)
            says = [line.strip() for line in w.lines if line.startswith(PAUSE_LINE)]
            if i == 0:
                print(f"# {forced.name}: the screen said, in turn: " + " / ".join(s[len("screen: "):] for s in says),
                      flush=True)
            said = any("read-only" in line for line in says)
            before = (out / "journal.jsonl").read_bytes()  # what the table had (page cache)
            w.p.terminate()  # the operator stops the table, as systemd does
            w.wait(60)
            forced.runs += 1
            forced.tracebacks += "Traceback" in w.stderr
            problem = sh("umount", str(mnt))
            if not problem:
                sh("e2fsck", "-f", "-y", str(img))  # exit 1: errors corrected, as expected after the error
                problem = sh("mount", "-o", "loop", str(img), str(mnt))
            if problem:
                print(f"  {forced.name}: could not bring the card back: {problem}", file=sys.stderr)
                continue
            r = run_demo(out, seed, match_to, resume=True)
            forced.tracebacks += "Traceback" in r.stderr
            if paused and said and r.returncode == 0:
                forced.resumed += 1
                forced.identical += same(out, ref)
                forced.same_mat += same_mat(out, ref)
            else:
                print(f"  {forced.name}: paused {paused}, the screen said {says[:1]}, resume exit "
                      f"{r.returncode}: {r.stderr[-300:]}", file=sys.stderr)
            forced.lost += lost_lines(before, out)
        finally:
            if os.path.ismount(mnt):
                problem = sh("umount", str(mnt))
                if problem:
                    print(f"  {forced.name}: umount {mnt}: {problem}", file=sys.stderr)
    return [live, forced]


def two_processes(ref: tuple[bytes, str], seed: int, match_to: int, count: int, tmp: Path) -> Tally:
    """A second ``demo --resume`` while the journal is held: refused; then the first's resume finishes."""
    t = Tally("two processes")
    lines = ref[0].splitlines(keepends=True)
    for i in range(count):
        out = tmp / f"t{i}"
        out.mkdir()
        before = b"".join(lines[:len(lines) * (i + 1) // (count + 1)])
        (out / "journal.jsonl").write_bytes(before)
        with Journal(out / "journal.jsonl"):  # the first process, holding it
            second = run_demo(out, seed, match_to, resume=True)
        t.tracebacks += "Traceback" in second.stderr
        ok = second.returncode == 2 and "in use by another process" in second.stderr
        if not ok:
            print(f"  two processes: the second got exit {second.returncode}: {second.stderr[-300:]}",
                  file=sys.stderr)
        if ok and (out / "journal.jsonl").read_bytes() == before:
            finish(t, out, before, ref, seed, match_to)
        else:
            t.runs += 1
        shutil.rmtree(out)
    return t


FAULTS = ("lines", "random", "rendered", "damage", "disk", "tmpfs", "readonly", "two")


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=54)
    ap.add_argument("--match-to", type=int, default=1)
    ap.add_argument("--every", type=int, default=1, help="kill at every N-th journal line (default every line)")
    ap.add_argument("--random-kills", type=int, default=20, help="kills at random moments of the fast demo")
    ap.add_argument("--rendered-kills", type=int, default=100,
                    help="kills at random moments of a rendered demo (--camera render, pty dice; default 100)")
    ap.add_argument("--rendered-budget", type=float, default=None, metavar="SECONDS",
                    help="start no rendered kill after this many seconds (the row says how many ran)")
    ap.add_argument("--damage", type=int, default=60, help="runs per kind of damage")
    ap.add_argument("--disk", type=int, default=10, help="runs per kind of disk failure (in process, and on a tmpfs)")
    ap.add_argument("--two", type=int, default=5, help="runs with two processes")
    ap.add_argument("--only", default=",".join(FAULTS),
                    help=f"comma-separated faults to run, of {', '.join(FAULTS)} (default all)")
    a = ap.parse_args(argv)
    only = set(a.only.split(","))
    if not only <= set(FAULTS):
        ap.error(f"--only {a.only!r}: unknown fault(s) {', '.join(sorted(only - set(FAULTS)))}; "
                 f"choose from {', '.join(FAULTS)}")
    rng = random.Random(a.seed)
    tallies: list[Tally] = []

    skipped: list[str] = []

    def show(t: Optional[Tally], name: str = "") -> None:
        if t is None:
            skipped.append(name)
        else:
            tallies.append(t)
            print(t.row(), flush=True)

    with tempfile.TemporaryDirectory(prefix="bgtable-faults-") as d:
        tmp = Path(d)
        t0 = time.monotonic()
        r = run_demo(tmp / "ref", a.seed, a.match_to, resume=False)
        full = time.monotonic() - t0
        if r.returncode != 0:
            print(r.stderr, file=sys.stderr)
            return 1
        ref = ((tmp / "ref" / "journal.jsonl").read_bytes(), (tmp / "ref" / "match.mat").read_text())
        n = ref[0].count(b"\n")
        print(f"# reference: seed {a.seed}, match to {a.match_to}, {n} journal lines, {full:.1f} s")
        print(f"{'fault':<24} {'runs':>5} {'resumed':>8} {'identical':>10} {'refused':>8} {'lost':>5} "
              f"{'tracebacks':>10} {'same .mat':>9}")
        if "lines" in only:
            show(kill_at_lines(ref, a.seed, a.match_to, a.every, tmp))
        if "random" in only:
            show(kill_at_random(ref, a.seed, a.match_to, a.random_kills, full, rng, tmp))
        if "rendered" in only and a.rendered_kills:
            t1 = time.monotonic()
            r = run_demo(tmp / "ref-rendered", a.seed, a.match_to, resume=False, flags=RENDERED)
            rfull = time.monotonic() - t1
            if r.returncode != 0:
                print(r.stderr, file=sys.stderr)
                return 1
            rref = ((tmp / "ref-rendered" / "journal.jsonl").read_bytes(),
                    (tmp / "ref-rendered" / "match.mat").read_text())
            rn = rref[0].count(b"\n")
            print(f"# rendered reference: {rn} journal lines, {rfull:.1f} s", flush=True)
            show(kill_at_random(rref, a.seed, a.match_to, a.rendered_kills, rfull, rng, tmp, flags=RENDERED,
                                name="kill -9 rendered", budget=a.rendered_budget, times=False))
        if "damage" in only:
            for t in damaged(ref, a.seed, a.match_to, a.damage, rng, tmp):
                show(t)
        if "disk" in only:
            for t in full_disk(ref, a.seed, a.match_to, a.disk, rng, tmp):
                show(t)
        if "tmpfs" in only:
            show(tmpfs_full(ref, a.seed, a.match_to, a.disk, rng, tmp), "disk full (tmpfs)")
        if "readonly" in only:
            ro = tmpfs_readonly(ref, a.seed, a.match_to, a.disk, rng, tmp)
            for t in ro:
                show(t)
            if len(ro) < 2:
                show(None, "read-only")
        if "two" in only:
            show(two_processes(ref, a.seed, a.match_to, a.two, tmp))
    bad = sum(t.runs - t.identical - t.refused + t.lost + t.tracebacks for t in tallies)
    verdict = "all targets met" if bad == 0 else f"{bad} run(s) off target"
    if skipped:
        verdict = (f"{'targets met by what ran' if bad == 0 else verdict}; "
                   f"SKIPPED (not measured): {', '.join(skipped)}")
    print(f"# {verdict} ({time.monotonic() - t0:.0f} s)")
    return 0 if bad == 0 and not skipped else 1


if __name__ == "__main__":
    sys.exit(main())
