"""Build the firmware with make, and run its simulators as subprocesses (see ``__init__``)."""
from __future__ import annotations

import os
import queue
import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Optional, Sequence

from hardware.firmware.errors import BuildError, SceneCommandError, SimulatorError

FIRMWARE_DIR = Path(__file__).resolve().parent
TARGETS = ("firmware", "sim", "host")

# tool -> the Debian package that provides it
_NEEDS = {"firmware": {"avr-gcc": "gcc-avr", "avr-objcopy": "binutils-avr", "avr-size": "binutils-avr", "make": "make"},
          "sim": {"gcc": "gcc", "make": "make"},
          "host": {"gcc": "gcc", "make": "make"}}


@dataclass(frozen=True)
class Build:
    """Where one build's products are."""

    dir: Path
    size_report: str = ""

    @property
    def elf(self) -> Path:
        """The firmware image as an ELF file (for simavr)."""
        return self.dir / "dice_reader.elf"

    @property
    def hex(self) -> Path:
        """The firmware image as Intel HEX (for flashing)."""
        return self.dir / "dice_reader.hex"

    @property
    def harness(self) -> Path:
        """The simavr harness that runs the firmware with its UART on a pseudo-terminal."""
        return self.dir / "harness"

    @property
    def proto_tool(self) -> Path:
        """The firmware's codec built for the host (:class:`ProtoTool`)."""
        return self.dir / "proto_tool"

    @property
    def logic_tool(self) -> Path:
        """The firmware's logic built for the host on a virtual clock (:class:`LogicTool`)."""
        return self.dir / "logic_tool"

    def usage(self) -> tuple[int, int]:
        """(flash bytes, static RAM bytes) from the build's size report."""
        m = re.search(r"firmware: flash (\d+) of \d+ bytes .*RAM (\d+) of", self.size_report)
        if not m:
            raise BuildError(f"no 'firmware: flash ... RAM ...' line in the size report:\n{self.size_report}")
        return int(m.group(1)), int(m.group(2))


def build(build_dir: Path | str, targets: Sequence[str] = TARGETS) -> Build:
    """Run ``make`` for ``targets`` into ``build_dir``; the source tree gets no build products."""
    unknown = set(targets) - set(TARGETS)
    if unknown:
        raise BuildError(f"unknown build target(s) {sorted(unknown)}; expected some of {TARGETS}")
    for target in targets:
        for tool, package in _NEEDS[target].items():
            if shutil.which(tool) is None:
                raise BuildError(f"{tool} is not installed (needed for the {target} build); "
                                 f"install the Debian package {package}")
    if "sim" in targets and not Path("/usr/include/simavr/sim_avr.h").exists() and \
            subprocess.run(["pkg-config", "--exists", "simavr"], capture_output=True).returncode != 0:
        raise BuildError("simavr's headers are missing (needed for the sim build); "
                         "install the Debian packages simavr libsimavr-dev libelf-dev pkg-config")
    out = Path(build_dir).resolve()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create the build directory {str(out)!r} ({exc.strerror}); "
                         "give a directory you can write to") from None
    proc = subprocess.run(["make", "--no-print-directory", "-C", str(FIRMWARE_DIR), f"BUILD={out}", *targets],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"make {' '.join(targets)} failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    report = "\n".join(line for line in proc.stdout.splitlines() if "firmware:" in line or "Program:" in line
                       or "Data:" in line)
    return Build(out, report)


class _LineProcess:
    """A subprocess spoken to in lines; a thread moves its stdout into a queue."""

    def __init__(self, argv: Sequence[str], name: str) -> None:
        self.name = name
        try:
            self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as exc:
            raise SimulatorError(f"cannot start {name} ({argv[0]}): {exc}; "
                                 "build it with hardware.firmware.tools.build") from None
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()
        self._reader = threading.Thread(target=self._pump, args=(self.proc.stdout,), daemon=True)
        self._reader.start()

    def _pump(self, stream: Optional[IO[str]]) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            raise SimulatorError(f"{self.name} has stopped: {self.stderr_text()}") from None

    def next_line(self, timeout: float) -> str:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise SimulatorError(f"{self.name} did not answer within {timeout:g} s") from None
        if line is None:
            raise SimulatorError(f"{self.name} has stopped: {self.stderr_text()}")
        return line

    def stderr_text(self) -> str:
        if self.proc.poll() is None or self.proc.stderr is None:
            return "(still running)"
        return self.proc.stderr.read().strip()[-500:] or f"exit {self.proc.returncode}"

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (SimulatorError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                try:
                    stream.close()
                except BrokenPipeError:
                    pass


class SimavrReader:
    """The real firmware image in simavr, its UART on a pseudo-terminal at :attr:`port`."""

    def __init__(self, build: Build, eeprom: Optional[Path] = None, seed: Optional[int] = None,
                 speed: float = 1.0, link: Optional[Path] = None, timeout: float = 10.0) -> None:
        argv = [str(build.harness), str(build.elf), "--speed", str(speed)]
        if eeprom is not None:
            argv += ["--eeprom", str(eeprom)]
        if seed is not None:
            argv += ["--seed", str(seed)]
        if link is not None:
            argv += ["--link", str(link)]
        self.timeout = timeout
        self._p = _LineProcess(argv, "simavr harness")
        first = self._p.next_line(timeout)
        if not first.startswith("PTY "):
            self._p.close()
            raise SimulatorError(f"simavr harness printed {first!r} instead of 'PTY <path>'")
        self.port = first[4:]

    def command(self, line: str) -> int:
        """Apply a scene command; returns the simulated time in ms when it was applied."""
        self._p.send(line)
        reply = self._p.next_line(self.timeout)
        if not reply.startswith("ok"):
            raise SceneCommandError(f"scene command {line!r} rejected: {reply}")
        return int(reply.split()[1])

    def time_ms(self) -> int:
        """The simulated time in ms."""
        return self.command("time")

    def stats(self) -> dict[str, int]:
        """Simulated ms, ADC conversions, complete sensor scans and the last scan's duration in us."""
        self._p.send("stats")
        reply = self._p.next_line(self.timeout).split()
        if reply[:1] != ["ok"]:
            raise SimulatorError(f"simavr harness answered {' '.join(reply)!r} to 'stats'")
        out = {"ms": int(reply[1])}
        out.update({k: int(v) for k, v in (item.split("=") for item in reply[2:])})
        return out

    def close(self) -> None:
        """Stop simavr."""
        self._p.close()

    def __enter__(self) -> "SimavrReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LogicTool:
    """The firmware logic on a virtual clock: frames out as (ms, bytes), bytes in, scene commands."""

    def __init__(self, build: Build, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self._p = _LineProcess([str(build.logic_tool)], "logic tool")
        self.pending: list[tuple[int, bytes]] = []
        self.now = 0

    def command(self, line: str) -> list[tuple[int, bytes]]:
        """Send one command; returns the frames the firmware sent while it ran."""
        self._p.send(line)
        frames: list[tuple[int, bytes]] = []
        while True:
            reply = self._p.next_line(self.timeout)
            if reply.startswith("TX "):
                _, ms, hexdata = reply.split()
                frames.append((int(ms), bytes.fromhex(hexdata)))
            elif reply.startswith("ok"):
                self.now = int(reply.split()[1])
                return frames
            else:
                raise SceneCommandError(f"logic tool rejected {line!r}: {reply}")

    def run(self, ms: int) -> list[tuple[int, bytes]]:
        """Let the firmware run ``ms`` virtual milliseconds; the frames it sent, with their times."""
        return self.command(f"run {int(ms)}")

    def rx(self, data: bytes) -> None:
        """Feed ``data`` to the firmware's UART receiver (nothing when empty)."""
        if data:
            self.command("rx " + data.hex())

    def leds(self) -> tuple[int, int]:
        """(panel LED bits as lit now, board status LED) of the simulated board."""
        self._p.send("leds?")
        reply = self._p.next_line(self.timeout).split()
        if reply[:1] != ["LEDS"] or not self._p.next_line(self.timeout).startswith("ok"):
            raise SimulatorError(f"logic tool answered {' '.join(reply)!r} to 'leds?'")
        return int(reply[1]), int(reply[3])

    def close(self) -> None:
        """Stop the logic tool."""
        self._p.close()

    def __enter__(self) -> "LogicTool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ProtoTool:
    """The firmware's codec compiled for the host (host/proto_tool.c)."""

    def __init__(self, build: Build, timeout: float = 10.0) -> None:
        self.timeout = timeout
        self._p = _LineProcess([str(build.proto_tool)], "proto tool")

    def call(self, line: str) -> list[str]:
        """One request; returns the answer lines (a stream request answers several, then END)."""
        self._p.send(line)
        if not line.startswith("S"):
            return [self._p.next_line(self.timeout)]
        out = []
        while (answer := self._p.next_line(self.timeout)) != "END":
            out.append(answer)
        return out

    def encode(self, seq: int, mtype: int, fields: Sequence[int]) -> Optional[bytes]:
        """The on-wire frame for a message given as its numeric fields, or None if refused."""
        answer = self.call(" ".join(["E", str(seq), str(mtype), *map(str, fields)]))[0]
        return None if answer == "ERR" else bytes.fromhex(answer)

    def decode(self, encoded: bytes) -> tuple[str, list[int] | list[str]]:
        """("OK", [seq, type, fields...]) or ("DROP", [reason]) for a frame without its 0x00."""
        answer = self.call("D " + encoded.hex())[0].split()
        if answer[0] == "OK":
            return "OK", [int(x) for x in answer[1:]]
        return answer[0], answer[1:]

    def stream(self, data: bytes) -> list[str]:
        """Decode ``data`` as a byte stream with the firmware's codec; one answer line per frame."""
        return self.call("S " + data.hex())

    def close(self) -> None:
        """Stop the codec tool."""
        self._p.close()

    def __enter__(self) -> "ProtoTool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def default_build_dir() -> Path:
    """A per-user cache for ``bgtable firmware-sim`` builds."""
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "bgtable" / "firmware"
