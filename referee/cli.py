"""The ``bgtable`` console command: a thin dispatcher to one module per subcommand.

Each subcommand lives in its own module exposing ``main(argv: list[str]) -> int``
(with its own :class:`referee.cliutil.Parser`).  Modules are imported only when
their subcommand runs, so ``bgtable moves`` never loads OpenCV or pygame.
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import Optional, Sequence

# name -> (module, one-line description)
COMMANDS: dict[str, tuple[str, str]] = {
    "moves": ("referee.cli_moves", "list the legal plays for a position and a roll"),
    "replay": ("referee.cli_records", "replay match files through the rules and report problems"),
    "convert": ("referee.cli_records", "convert a match between .mat and .sgf"),
    "referee": ("referee.cli_referee", "run a JSON-lines event script through the referee"),
    "dice-sim": ("firmware_bridge.cli", "start a simulated dice reader on a pseudo-terminal"),
    "dice": ("firmware_bridge.cli", "print the events of a dice reader as they arrive"),
    "read": ("vision.cli", "read the checkers from a photo of a board"),
    "markers": ("vision.cli", "write a printable sheet of the board's ArUco corner markers"),
    "firmware-sim": ("hardware.firmware.cli", "run the real dice-reader firmware in simavr on a pseudo-terminal"),
    "screen": ("hardware.cli", "show the table screen (--demo cycles sample states)"),
    "run": ("referee.table.run", "run the table: camera, dice reader, buttons, referee, screen"),
    "demo": ("referee.table.demo", "run a whole simulated table (the main job without hardware)"),
    "journal": ("referee.cli_journal", "check a table journal's lines, or repair a damaged one"),
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
    except BrokenPipeError:
        # the reader went away (`bgtable moves ... | head`): stop quietly, as Unix tools do;
        # stdout goes to devnull so the interpreter's final flush cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
