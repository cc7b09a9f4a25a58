"""The ``bgtable`` console command: a thin dispatcher to one module per subcommand.

:func:`run_command` imports the module a command runs only when it runs (so ``bgtable
moves`` never loads OpenCV or pygame), by a plain ``import`` a reader and static tools can
follow.  The referee's own commands (here and in :mod:`referee.table`) expose
``main(argv) -> int`` with a :class:`referee.cli.parsing.Parser`; the edges' commands
(``vision``, ``firmware_bridge``, ``hardware``) expose ``add_*_arguments(parser)`` and
``run_*(args, parser) -> int``: the dispatcher builds their parser, so a bad argument or a
``parser.error`` is one line on stderr and exit 2 without the edges knowing this package
(:func:`main` returns the exit code, also to a test calling it in process).
An unexpected exception (a bug) is one line too, exit 70, and ``BGTABLE_TRACEBACK=1``
shows its traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from referee.cli.parsing import Parser

EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug (bad input is exit 2)

# name -> one-line description (the module each runs: run_command)
COMMANDS: dict[str, str] = {
    "moves": "list the legal plays for a position and a roll",
    "replay": "replay match files through the rules and report problems",
    "convert": "convert a match between .mat and .sgf",
    "referee": "run a JSON-lines event script through the referee",
    "dice-sim": "start a simulated dice reader on a pseudo-terminal",
    "dice": "print the events of a dice reader as they arrive",
    "read": "read the checkers from a photo of a board",
    "judge": "say what a camera frame shows was played, given the position before and the roll",
    "markers": "write a printable sheet of the board's ArUco corner markers",
    "firmware-sim": "run the real dice-reader firmware in simavr on a pseudo-terminal",
    "screen": "show the table screen (--demo cycles sample states)",
    "run": "run the table: camera, dice reader, buttons, referee, screen",
    "demo": "run a whole simulated table (the main job without hardware)",
    "journal": "check a table journal's lines, or repair a damaged one",
    "club": "the club: the director's page, the broker's files, a table's publisher",
}

Add = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace, argparse.ArgumentParser], int]


def _usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: bgtable COMMAND [options]   (bgtable COMMAND --help for each)", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {desc}" for name, desc in COMMANDS.items()]
    return "\n".join(lines)


def _parsed(name: str, add: Add, argv: Sequence[str]) -> tuple[argparse.Namespace, Parser]:
    """An edge command's arguments, parsed by a parser whose errors are one line, exit 2."""
    parser = Parser(prog=f"bgtable {name}")
    add(parser)
    return parser.parse_args(list(argv)), parser


def _edge(name: str, add: Add, run: Run, argv: Sequence[str]) -> int:
    args, parser = _parsed(name, add, argv)
    return run(args, parser)


def _screen(argv: Sequence[str]) -> int:
    """``bgtable screen``: the table's config (``--config``) read by the table's loader, then shown."""
    from hardware import cli as screen  # noqa: PLC0415
    args, parser = _parsed("screen", screen.add_screen_arguments, argv)
    config: Any = None
    if args.config:
        from referee.table.config import load  # noqa: PLC0415
        try:
            config = load(args.config)
        except ValueError as exc:  # names the key and the bad value, or the file
            parser.error(str(exc))
    return screen.run_screen(args, parser, config)


def run_command(name: str, argv: Sequence[str]) -> int:
    """Run one ``bgtable`` command (a name of :data:`COMMANDS`) on its arguments; its exit code."""
    # each command's module is imported only when it runs
    if name == "moves":
        from referee.cli import moves  # noqa: PLC0415
        return moves.main(argv)
    if name == "replay":
        from referee.cli import records  # noqa: PLC0415
        return records.main_replay(argv)
    if name == "convert":
        from referee.cli import records  # noqa: PLC0415
        return records.main_convert(argv)
    if name == "referee":
        from referee.cli import referee  # noqa: PLC0415
        return referee.main(argv)
    if name == "judge":
        from referee.cli import judge  # noqa: PLC0415
        return judge.main(argv)
    if name == "journal":
        from referee.cli import journal  # noqa: PLC0415
        return journal.main(argv)
    if name == "run":
        from referee.table.lean import lean_start  # noqa: PLC0415
        lean_start()  # before the libraries load: OpenSSL's hashes are never used at the table
        from referee.table import run  # noqa: PLC0415
        return run.main(argv)
    if name == "demo":
        from referee.table import demo  # noqa: PLC0415
        return demo.main(argv)
    if name in ("dice-sim", "dice"):
        from firmware_bridge import cli as dice  # noqa: PLC0415
        if name == "dice":
            return _edge(name, dice.add_dice_arguments, dice.run_dice, argv)
        return _edge(name, dice.add_dice_sim_arguments, dice.run_dice_sim, argv)
    if name in ("read", "markers"):
        from vision import cli as vision  # noqa: PLC0415
        if name == "read":
            return _edge(name, vision.add_read_arguments, vision.run_read, argv)
        return _edge(name, vision.add_markers_arguments, vision.run_markers, argv)
    if name == "firmware-sim":
        from hardware.firmware import cli as firmware  # noqa: PLC0415
        return _edge(name, firmware.add_arguments, firmware.run, argv)
    if name == "screen":
        return _screen(argv)
    if name == "club":
        from referee.table.club import cli as club  # noqa: PLC0415
        return club.main(argv)
    raise KeyError(f"bgtable: no module runs the command {name!r}")  # a COMMANDS entry without its import


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``bgtable`` with ``argv`` (default: the command line); the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"bgtable: unknown command {name!r}; expected one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    try:
        return int(run_command(name, rest) or 0)
    except SystemExit as exc:  # --help, or a bad argument (parser.error has printed its one line)
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
    except KeyboardInterrupt:
        print(f"bgtable {name}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`bgtable moves ... | head`): stop quietly, as Unix tools do;
        # stdout goes to devnull so the interpreter's final flush cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as exc:  # a bug, not bad input: one line, not a traceback (BGTABLE_TRACEBACK=1 shows it)
        if os.environ.get("BGTABLE_TRACEBACK"):
            raise
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        at = f" at {Path(where.tb_frame.f_code.co_filename).name}:{where.tb_lineno}" if where else ""
        print(f"bgtable {name}: internal error{at}: {type(exc).__name__}: {exc} (please report it with the command; "
              "BGTABLE_TRACEBACK=1 shows the traceback)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
