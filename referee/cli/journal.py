"""``bgtable journal check|repair FILE``: show where a table journal stops being trusted, and mend it.

``check`` reads only: every line's CRC-32 and sequence number, and whether the events fit
the record; it prints what is trusted and exits 0 when the whole file is, 1 when it is not.
``repair`` does what resuming the table does: the untrusted rest goes to a dated backup
beside the file (``FILE.damaged-YYYYMMDD-HHMMSS``) and the journal is cut after its last
trusted line, so the table continues from there.  It refuses a journal that a running
table holds (exit 2).
"""
from __future__ import annotations

from typing import Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.records.journal import Journal, JournalError, read_journal

PROG = "bgtable journal"


def _parser() -> Parser:
    p = Parser(prog=PROG, description="Check a table journal's lines, or repair a damaged one.")
    p.add_argument("action", choices=("check", "repair"),
                   help="check: say what is trusted (read only); repair: keep it, back up the rest")
    p.add_argument("file", help="the journal (e.g. journal/current.jsonl)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``bgtable journal``; the exit status."""
    args = _parser().parse_args(argv)
    path = args.file
    try:
        read = read_journal(path)
    except JournalError as exc:
        return fail(PROG, str(exc))
    checks = ("every line checked by CRC-32" if read.checked
              else "an older journal: some lines carry no check, sequence numbers only")
    if read.damage is None:
        print(f"{path}: {len(read.events)} line(s), intact ({checks}); {read.kept()}")
        return 0
    if args.action == "check":
        print(f"{path}: {read.damage}; trusted: {read.kept()}. 'bgtable journal repair {path}' keeps the "
              "trusted lines and moves the rest to a dated backup beside it")
        return 1
    try:
        with Journal(path) as j:
            repair = j.repair
    except JournalError as exc:
        return fail(PROG, str(exc))
    if repair is None:
        print(f"{path}: {read.damage}; only padding, cut off; kept {read.kept()}")
    else:
        print(f"{path}: {repair}")
    return 0
