"""The ``bgtable`` console command: a thin dispatcher to one module per subcommand.

Each subcommand lives in its own module exposing ``main(argv: list[str]) -> int``
(with its own :class:`referee.cli.parsing.Parser`).  Modules are imported only when
their subcommand runs, so ``bgtable moves`` never loads OpenCV or pygame.  Bad input is
one line on stderr and exit 2 (each command checks its own); an unexpected exception (a
bug) is one line too, exit 70, and ``BGTABLE_TRACEBACK=1`` shows its traceback.
"""
from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

EXIT_INTERNAL = 70  # EX_SOFTWARE: a bug (bad input is exit 2)

# name -> (module, one-line description)
COMMANDS: dict[str, tuple[str, str]] = {
    "moves": ("referee.cli.moves", "list the legal plays for a position and a roll"),
    "replay": ("referee.cli.records", "replay match files through the rules and report problems"),
    "convert": ("referee.cli.records", "convert a match between .mat and .sgf"),
    "referee": ("referee.cli.referee", "run a JSON-lines event script through the referee"),
    "dice-sim": ("firmware_bridge.cli", "start a simulated dice reader on a pseudo-terminal"),
    "dice": ("firmware_bridge.cli", "print the events of a dice reader as they arrive"),
    "read": ("vision.cli", "read the checkers from a photo of a board"),
    "judge": ("referee.cli.judge", "say what a camera frame shows was played, given the position before and the roll"),
    "markers": ("vision.cli", "write a printable sheet of the board's ArUco corner markers"),
    "firmware-sim": ("hardware.firmware.cli", "run the real dice-reader firmware in simavr on a pseudo-terminal"),
    "screen": ("hardware.cli", "show the table screen (--demo cycles sample states)"),
    "run": ("referee.table.run", "run the table: camera, dice reader, buttons, referee, screen"),
    "demo": ("referee.table.demo", "run a whole simulated table (the main job without hardware)"),
    "journal": ("referee.cli.journal", "check a table journal's lines, or repair a damaged one"),
    "club": ("referee.table.club.cli", "the club: the director's page, the broker's files, a table's publisher"),
}


def _usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: bgtable COMMAND [options]   (bgtable COMMAND --help for each)", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {desc}" for name, (_, desc) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"bgtable: unknown command {name!r}; expected one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    entry = getattr(module, "main_" + name.replace("-", "_"), None) or getattr(module, "main")
    try:
        return int(entry(rest) or 0)
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
