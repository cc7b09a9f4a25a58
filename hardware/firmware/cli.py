"""``bgtable firmware-sim``: build the dice-reader firmware and run it in simavr on a pty.

Prints ``PTY <path>`` (give it to ``bgtable dice`` or to the table config as the dice port),
then passes scene commands from stdin to the simulated sensors (``die 0 top 3``,
``tumble 300``, ``die 0 empty`` ...; see hardware/design/simulation.md) until EOF or ``quit``.
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Optional, Sequence

from referee.cliutil import Parser, fail

from hardware.firmware.errors import FirmwareError
from hardware.firmware.tools import SimavrReader, build, default_build_dir


def main_firmware_sim(argv: Optional[Sequence[str]] = None) -> int:
    p = Parser(prog="bgtable firmware-sim",
               description="Run the real dice-reader firmware in simavr, its serial port on a pseudo-terminal.")
    p.add_argument("--build-dir", type=Path, default=None, help="where to build (default: ~/.cache/bgtable/firmware)")
    p.add_argument("--eeprom", type=Path, default=None,
                   help="EEPROM image file kept between runs (boot counter); default: in the build dir")
    p.add_argument("--link", type=Path, default=None, help="also make this symlink to the pty (a stable name)")
    p.add_argument("--speed", type=float, default=1.0, help="simulated time per wall-clock time (default 1)")
    p.add_argument("--seed", type=int, default=None, help="sensor-noise seed (default: random)")
    args = p.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.speed <= 0:
        return fail(p.prog, f"--speed {args.speed:g} must be positive")
    build_dir = args.build_dir or default_build_dir()
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
        return fail(p.prog, str(exc))
    except KeyboardInterrupt:
        pass
    return 0


main = main_firmware_sim


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main_firmware_sim())
