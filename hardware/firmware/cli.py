"""``bgtable firmware-sim``: build the dice-reader firmware and run it in simavr on a pty.

Prints ``PTY <path>`` (give it to ``bgtable dice`` or to the table config as the dice port),
then passes scene commands from stdin to the simulated sensors (``die 0 top 3``,
``tumble 300``, ``die 0 empty`` ...; see hardware/design/simulation.md) until EOF or ``quit``.
The ``bgtable`` dispatcher builds the parser (:func:`add_arguments`)
and calls :func:`run`; bad input is ``parser.error`` (one line, exit 2).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

from hardware.firmware.errors import FirmwareError
from hardware.firmware.tools import SimavrReader, build, default_build_dir


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``bgtable firmware-sim``'s options."""
    p.description = "Run the real dice-reader firmware in simavr, its serial port on a pseudo-terminal."
    p.add_argument("--build-dir", type=Path, default=None, help="where to build (default: ~/.cache/bgtable/firmware)")
    p.add_argument("--eeprom", type=Path, default=None,
                   help="EEPROM image file kept between runs (boot counter); default: in the build dir")
    p.add_argument("--link", type=Path, default=None, help="also make this symlink to the pty (a stable name)")
    p.add_argument("--speed", type=float, default=1.0, help="simulated time per wall-clock time (default 1)")
    p.add_argument("--seed", type=int, default=None, help="sensor-noise seed (default: random)")


def run(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``bgtable firmware-sim``: build, run in simavr, pass scene commands from stdin."""
    if not args.speed > 0:
        p.error(f"--speed {args.speed:g} must be positive")
    build_dir = args.build_dir or default_build_dir()
    problem = writable_dir_problem(build_dir, "--build-dir" if args.build_dir else "the build directory")
    if problem:
        p.error(problem)
    if args.eeprom is not None:
        problem = writable_file_problem(args.eeprom)
        if problem:
            p.error(problem)
    try:
        fw = build(build_dir, targets=("firmware", "sim"))
        print(fw.size_report.splitlines()[-1] if fw.size_report else "", file=sys.stderr)
        with SimavrReader(fw, eeprom=args.eeprom or build_dir / "eeprom.bin", seed=args.seed,
                          speed=args.speed, link=args.link) as reader:
            print(f"PTY {args.link or reader.port}", flush=True)
            done = threading.Event()

            def pump() -> None:
                for line in sys.stdin:
                    line = line.strip()
                    if line in ("quit", "exit"):
                        break
                    if not line or line.startswith("#"):
                        continue
                    try:
                        print(f"ok {reader.command(line)}", flush=True)
                    except FirmwareError as exc:
                        print(f"error: {exc}", flush=True)
                done.set()

            threading.Thread(target=pump, daemon=True).start()
            done.wait()
    except FirmwareError as exc:
        p.error(str(exc))
    except KeyboardInterrupt:
        pass
    return 0


def writable_dir_problem(path: Path, what: str) -> str:
    """Why ``path`` cannot be created and written as a directory ("" when it can); tries it."""
    if path.exists() and not path.is_dir():
        return f"{what} {str(path)!r} is a file, not a directory; give a directory (it is created if missing)"
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        return (f"{what} {str(path)!r} cannot be written ({why}); give a directory you can write to, "
                "e.g. --build-dir /tmp/bgtable-firmware")
    return ""


def writable_file_problem(path: Path) -> str:
    """Why ``--eeprom`` cannot be written ("" when it can); tries it without changing the file."""
    try:
        if path.exists():
            with open(path, "ab"):
                pass
        else:
            with open(path, "xb"):
                pass
            path.unlink()  # the harness starts an absent image as erased EEPROM
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        return f"--eeprom {str(path)!r} cannot be written ({why}); give a file in a directory you can write to"
    return ""
