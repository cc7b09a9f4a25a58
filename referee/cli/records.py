"""``bgtable replay`` and ``bgtable convert``: check match files, convert between formats.

``bgtable replay FILE... [--json]`` reads each file (.mat/.txt, .sgf, a journal
.jsonl, or a record .json), replays every game through the rules and reports every
problem as file, game, move, the recorded text and why.  Exit 0 when every file is
clean, 1 otherwise; it never stops at the first bad file.

``bgtable replay`` calls a file clean only when it holds a finished record that replays
without a problem: an empty or unreadable file, an empty journal, an unfinished game or
match are problems too.

``bgtable convert IN OUT`` converts by extension: .mat/.txt, .sgf and .json
(the record's JSON form) out; those and a journal (.jsonl) in.  Input that does not read
or replay cleanly (empty, binary, an unreadable or illegal move) is refused with exit 2,
naming the file and line; OUT may not be IN.  Header tags, players' names, cube actions,
results and step order survive every conversion.
"""
from __future__ import annotations

import gc
import json
import sys
from contextlib import contextmanager
from pathlib import Path
from dataclasses import replace
from typing import Any, Iterator, NamedTuple, Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.errors import RecordError
from referee.records.problems import Problem
from referee.records.record import MatchRecord
from referee.records.replay import KnownReplay

READ_EXTS = (".mat", ".txt", ".sgf", ".jsonl", ".json")
WRITE_EXTS = (".mat", ".txt", ".sgf", ".json")


class FileRead(NamedTuple):
    """A file read: the record, the problems met reading it, ``(game, move number) -> line``
    where the format has lines, and the games the reader already replayed (for
    :func:`referee.records.replay.replay_match`, so that each game is walked once)."""

    record: MatchRecord
    problems: list[Problem]
    lines: dict[tuple[int, int], int]
    known: tuple[Optional[KnownReplay], ...] = ()


def read_any(path: Path) -> FileRead:
    """Read a record from any supported file (see :func:`read_file`), with the readers' replays."""
    ext = path.suffix.lower()
    if ext == ".sgf":
        from referee.records.sgf import load_sgf
        s = load_sgf(path)
        return FileRead(s.record, s.problems, s.lines, s.known)
    if ext == ".jsonl":
        from referee.records.journal import read_journal
        j = read_journal(path)
        problems = list(j.problems)
        if not j.events:
            problems.append(Problem(0, 0, "", "an empty journal", 1))
        return FileRead(j.record, problems, {})
    if ext == ".json":
        try:
            return FileRead(MatchRecord.from_json(path.read_text(encoding="utf-8")), [], {})
        except (RecordError, UnicodeDecodeError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}: not a bgtable record (JSON): {exc}") from None
    if ext in (".mat", ".txt") or not ext:
        from referee.records.matfile import load_mat
        m = load_mat(path)
        return FileRead(m.record, m.problems, m.lines, m.known)
    raise ValueError(f"{path}: unknown extension {ext!r}; expected one of {', '.join(READ_EXTS)}")


def read_file(path: Path) -> tuple[MatchRecord, list[Problem], dict[tuple[int, int], int]]:
    """Read a record from any supported file: the record, the problems met reading it and,
    where the format has lines, ``(game, move number) -> line``.  Raises OSError when the
    file cannot be read and ValueError for an unknown extension or an unreadable record."""
    record, problems, lines, _ = read_any(path)
    return record, problems, lines


def load_record(path: Path) -> tuple[MatchRecord, list[Problem]]:
    """Read a record from any supported file; problems met while reading come back too.
    Raises OSError when the file cannot be read and ValueError for an unknown extension."""
    record, problems, _ = read_file(path)
    return record, problems


def with_lines(problems: list[Problem], lines: dict[tuple[int, int], int]) -> list[Problem]:
    """The problems, each given the file line of its game and move when known."""
    out = []
    for p in problems:
        if not p.line and (p.game, p.move) in lines:
            p = replace(p, line=lines[(p.game, p.move)])
        out.append(p)
    return out


def completeness(record: MatchRecord) -> list[Problem]:
    """What an unfinished record lacks: no games, a game without a result, a match not played out."""
    if not record.games:
        return [Problem(0, 0, "", "no games: an empty or unreadable record")]
    out = []
    last = record.games[-1]
    if not last.finished:
        out.append(Problem(last.number, 0, "", "the game is unfinished (no result)"))
    a, b = record.final_score()
    if record.match_length and record.winner() is None:
        out.append(Problem(0, 0, "", f"the match is unfinished: {a}-{b} in a {record.match_length}-point match"))
    return out


def check_file(path: Path) -> dict[str, Any]:
    """Replay one file: ``{"file", "games", "plays", "problems", "score"}``; an unreadable
    file, an empty one and an unfinished match are problems too."""
    from referee.records.replay import replay_match
    try:
        record, problems, lines, known = read_any(path)
    except (OSError, ValueError) as exc:
        return {"file": str(path), "games": 0, "plays": 0, "score": [0, 0],
                "problems": [Problem(0, 0, "", f"cannot read the file: {exc}").to_dict()]}
    rep = replay_match(record, known)
    found = with_lines(problems + rep.problems, lines)
    if not problems or record.games:
        found += completeness(record)
    allp = sorted(found, key=lambda p: (p.game, p.move))
    return {"file": str(path), "games": len(record.games), "plays": rep.plays,
            "problems": [p.to_dict() for p in allp], "score": list(rep.score)}


def _where(p: dict[str, Any], line: bool = True) -> str:
    where = f"game {p['game']}" + (f", move {p['move']}" if p["move"] else "") if p["game"] else "the match"
    return (f"line {p['line']}: " if line and p.get("line") else "") + where


@contextmanager
def _no_cycle_collections() -> Iterator[None]:
    """The cyclic garbage collector off while the files are replayed: a replay makes many
    small objects and almost no cycles (the 114 real files' replay leaves 6,812 objects in
    cycles), and the collector's passes over the records kept so far were 3-4 % of the
    command's instructions (a tenth before it ran rarely).  After it, what is left (the
    readers' caches: 170,000 objects) goes to the collector's permanent generation
    (``gc.freeze``), so that no later collection walks it again: the collections at the
    process's exit took 0.4-0.8 s of the command's 2.3 s."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was:
            gc.enable()


def main_replay(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``bgtable replay``; the exit status."""
    ap = Parser(prog="bgtable replay", description="Replay match files through the rules and report problems.")
    ap.add_argument("files", nargs="+", metavar="FILE", help=".mat/.txt, .sgf, journal .jsonl or record .json")
    ap.add_argument("--json", action="store_true", help="print one JSON report")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    with _no_cycle_collections():
        reports = [check_file(Path(f)) for f in args.files]
    if args.json:
        print(json.dumps({"files": reports}, ensure_ascii=False))
    else:
        for r in reports:
            for p in r["problems"]:
                text = f" {p['text']!r}:" if p["text"] else ""
                print(f"{r['file']}: {_where(p)}:{text} {p['reason']}")
            status = "clean" if not r["problems"] else f"{len(r['problems'])} problem(s)"
            print(f"{r['file']}: {r['games']} games, {r['plays']} plays, final score "
                  f"{r['score'][0]}-{r['score'][1]}: {status}")
    return 0 if all(not r["problems"] for r in reports) else 1


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and a.exists() and a.samefile(b))
    except OSError:
        return False


def main_convert(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``bgtable convert``; the exit status."""
    ap = Parser(prog="bgtable convert", description="Convert a match between .mat, .sgf and .json (by extension); "
                "input that does not read or replay cleanly is refused (exit 2), and so is OUT = IN.")
    ap.add_argument("input", metavar="IN")
    ap.add_argument("output", metavar="OUT")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    src, dst = Path(args.input), Path(args.output)
    out_ext = dst.suffix.lower()
    if out_ext not in WRITE_EXTS:
        return fail(ap.prog, f"output {str(dst)!r}: unknown extension {out_ext!r}; expected one of "
                             f"{', '.join(WRITE_EXTS)}")
    if src.suffix.lower() not in READ_EXTS:
        return fail(ap.prog, f"input {str(src)!r}: unknown extension {src.suffix!r}; expected one of "
                             f"{', '.join(READ_EXTS)}")
    if _same_file(src, dst):
        return fail(ap.prog, f"output {str(dst)!r} is the input file; choose another name (the input is "
                             "never overwritten)")
    try:
        record, problems, lines, known = read_any(src)
    except OSError as exc:
        return fail(ap.prog, f"cannot read {str(src)!r}: {exc.strerror or exc}")
    except ValueError as exc:
        return fail(ap.prog, str(exc))
    from referee.records.replay import replay_match
    bad = with_lines(problems or replay_match(record, known).problems, lines)
    if not bad and not record.games:
        bad = [Problem(0, 0, "", "no games to convert", 1)]
    if bad:
        for p in bad[1:]:
            print(f"{src}:{p.line or 1}: {_where(p.to_dict(), False)}: {p.text + ': ' if p.text else ''}{p.reason}",
                  file=sys.stderr)
        p = bad[0]
        more = f" (and {len(bad) - 1} more problem(s) above)" if len(bad) > 1 else ""
        return fail(ap.prog, f"{src}:{p.line or 1}: {_where(p.to_dict(), False)}: {p.text + ': ' if p.text else ''}"
                             f"{p.reason}{more}; nothing written")
    if out_ext == ".sgf":
        from referee.records.sgf import write_sgf
        text = write_sgf(record)
    elif out_ext == ".json":
        text = record.to_json() + "\n"
    else:
        from referee.records.matfile import write_mat
        text = write_mat(record)
    try:
        dst.write_text(text, encoding="utf-8")
    except OSError as exc:
        return fail(ap.prog, f"cannot write {str(dst)!r}: {exc.strerror or exc}")
    return 0


main = main_replay
