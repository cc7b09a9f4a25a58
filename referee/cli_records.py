"""``bgtable replay`` and ``bgtable convert``: check match files, convert between formats.

``bgtable replay FILE... [--json]`` reads each file (.mat/.txt, .sgf, a journal
.jsonl, or a record .json), replays every game through the rules and reports every
problem as file, game, move, the recorded text and why.  Exit 0 when every file is
clean, 1 otherwise; it never stops at the first bad file.

``bgtable convert IN OUT`` converts by extension: .mat/.txt, .sgf and .json
(the record's JSON form) out; those and a journal (.jsonl) in.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional, Sequence

from .cliutil import Parser, fail
from .record import MatchRecord, Problem

READ_EXTS = (".mat", ".txt", ".sgf", ".jsonl", ".json")
WRITE_EXTS = (".mat", ".txt", ".sgf", ".json")


def load_record(path: Path) -> tuple[MatchRecord, list[Problem]]:
    """Read a record from any supported file; problems met while reading come back too.
    Raises OSError when the file cannot be read and ValueError for an unknown extension."""
    ext = path.suffix.lower()
    if ext == ".sgf":
        from .sgf import load_sgf
        s = load_sgf(path)
        return s.record, s.problems
    if ext == ".jsonl":
        from .journal import read_journal
        j = read_journal(path)
        return j.record, j.problems
    if ext == ".json":
        return MatchRecord.from_json(path.read_text(encoding="utf-8")), []
    if ext in (".mat", ".txt") or not ext:
        from .matfile import load_mat
        m = load_mat(path)
        return m.record, m.problems
    raise ValueError(f"{path}: unknown extension {ext!r}; expected one of {', '.join(READ_EXTS)}")


def check_file(path: Path) -> dict:
    """Replay one file: ``{"file", "games", "plays", "problems", "score"}``."""
    from .replay import replay_match
    try:
        record, problems = load_record(path)
    except (OSError, ValueError) as exc:
        return {"file": str(path), "games": 0, "plays": 0, "score": [0, 0],
                "problems": [Problem(0, 0, "", f"cannot read the file: {exc}").to_dict()]}
    rep = replay_match(record)
    allp = sorted(problems + rep.problems, key=lambda p: (p.game, p.move))
    return {"file": str(path), "games": len(record.games), "plays": rep.plays,
            "problems": [p.to_dict() for p in allp], "score": list(rep.score)}


def main_replay(argv: Optional[Sequence[str]] = None) -> int:
    ap = Parser(prog="bgtable replay", description="Replay match files through the rules and report problems.")
    ap.add_argument("files", nargs="+", metavar="FILE", help=".mat/.txt, .sgf, journal .jsonl or record .json")
    ap.add_argument("--json", action="store_true", help="print one JSON report")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    reports = [check_file(Path(f)) for f in args.files]
    if args.json:
        print(json.dumps({"files": reports}, ensure_ascii=False))
    else:
        for r in reports:
            for p in r["problems"]:
                where = f"game {p['game']}" + (f", move {p['move']}" if p["move"] else "")
                text = f" {p['text']!r}:" if p["text"] else ""
                print(f"{r['file']}: {where}:{text} {p['reason']}")
            status = "clean" if not r["problems"] else f"{len(r['problems'])} problem(s)"
            print(f"{r['file']}: {r['games']} games, {r['plays']} plays, final score "
                  f"{r['score'][0]}-{r['score'][1]}: {status}")
    return 0 if all(not r["problems"] for r in reports) else 1


def main_convert(argv: Optional[Sequence[str]] = None) -> int:
    ap = Parser(prog="bgtable convert", description="Convert a match between .mat and .sgf (by extension).")
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
    try:
        record, problems = load_record(src)
    except OSError as exc:
        return fail(ap.prog, f"cannot read {str(src)!r}: {exc.strerror or exc}")
    for p in problems:
        print(f"{src}: warning: {p}", file=sys.stderr)
    if out_ext == ".sgf":
        from .sgf import write_sgf
        text = write_sgf(record)
    elif out_ext == ".json":
        text = record.to_json() + "\n"
    else:
        from .matfile import write_mat
        text = write_mat(record)
    try:
        dst.write_text(text, encoding="utf-8")
    except OSError as exc:
        return fail(ap.prog, f"cannot write {str(dst)!r}: {exc.strerror or exc}")
    return 0


main = main_replay
