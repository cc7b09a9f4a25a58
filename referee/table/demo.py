"""``bgtable demo``: a whole simulated table, the main job on a machine without our hardware.

    bgtable demo [--match-to 3] [--seed 1] [--headless] [--out DIR] [--resume]

Simulated players (mostly legal moves, with configurable rates of illegal moves,
cocked dice, dice off the zone or on a checker, early rolls, doubles, takes and
passes) play a match at a table of simulated devices: the rendered camera read by
the real vision pipeline, the simulated dice reader on a pseudo-terminal read by
the real dice link, the real button code on mock GPIO, the cube display on a fake
I2C bus, and the pygame screen in a window (``--headless``: none).  The referee's
decisions are printed as they happen; the journal, ``match.mat`` and ``match.sgf``
are written to ``--out``.  The same seed gives the same match; ``--resume``
continues a killed run from its journal and ends with the same record: the
simulated players play again from the start, every event they make checked against
the journal and decided without being written again, so the table's physical state
(dice, board, the players' next choice) is the crashed run's at whatever line it
stopped.  ``--resume`` on a missing journal, one with no readable event, or a journal
another process holds is refused (exit 2); a damaged one continues from its last good
line, the rest kept in a dated backup beside it.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

import hardware

from referee.cli.parsing import Parser, fail
from referee.records.journal import Journal, JournalError, read_journal
from referee.settings import Settings, SettingsError
from referee.table.process import CubeSink, LogSink, ReplayMismatch, ScreenSink, TableCore
from referee.table.simdevices import SimError
from referee.table.simtable import Rates, SimulatedTable

# the simulated buttons and cube display are wired as in the shipped example config
DEFAULT_BUTTONS = (Path(hardware.__file__).parent / "table.example.toml").read_text()


def _parser() -> Parser:
    p = Parser(prog="bgtable demo", description="Run a whole simulated table (no hardware needed).")
    p.add_argument("--match-to", type=int, default=3, help="match length in points (0 = money session; default 3)")
    p.add_argument("--seed", type=int, default=1, help="the same seed gives the same match (default 1)")
    p.add_argument("--headless", action="store_true", help="no screen window")
    p.add_argument("--out", default="bgtable-demo", help="directory for the journal and the .mat/.sgf files")
    p.add_argument("--resume", action="store_true", help="continue the match in --out from its journal")
    p.add_argument("--camera", choices=("render", "perfect"), default="render",
                   help="render: synthetic frames read by the vision pipeline (default); perfect: exact readings")
    p.add_argument("--dice", choices=("pty", "direct"), default="pty",
                   help="pty: the simulated reader over a pseudo-terminal (default); direct: no serial link")
    p.add_argument("--early-roll", choices=("stands", "void"), default="stands")
    p.add_argument("--quiet", action="store_true", help="print progress, not every decision")
    p.add_argument("--delay", type=float, default=0.0, help="seconds to pause after each step (to watch it)")
    for name, default in vars(Rates()).items():
        p.add_argument(f"--{name.replace('_', '-')}-rate", type=float, default=default, dest=f"rate_{name}",
                       help=f"rate of {name.replace('_', ' ')} (default {default})")
    return p


def build(args: Any, out: Path, printer: Any = print,
          journal_factory: Callable[[Path], Journal] = Journal) -> tuple[TableCore, SimulatedTable, list[Any]]:
    """The core, the simulated table and the things to close, from parsed arguments
    (``journal_factory`` opens the journal: tests and fault benches pass their own)."""
    from referee.table.config import loads  # noqa: PLC0415
    from hardware.devices import build_cube_display  # noqa: PLC0415
    from hardware.fakes import FakeI2CBus  # noqa: PLC0415
    from gpiozero.pins.mock import MockFactory  # noqa: PLC0415

    from referee.table.simdevices import DirectDice, MockButtons, PerfectCamera, PtyDice, RenderedCamera  # noqa: PLC0415

    config = loads(DEFAULT_BUTTONS, "<demo>")
    # vision's confidence gate, as the shipped config gives it ([vision] sure)
    settings = Settings(match_to=args.match_to, early_roll=args.early_roll, names=("Dark", "Light"),
                        min_confidence=config.vision.sure)
    closers: list[Any] = []
    sinks: list[Any] = [LogSink(printer=(lambda s: None) if args.quiet else printer)]
    cube_factory = MockFactory()
    cube = build_cube_display(config, pin_factory=cube_factory, i2c_bus=FakeI2CBus())
    sinks.append(CubeSink(cube))
    closers.append(cube)
    if not args.headless:
        try:
            from hardware.runner import ScreenRunner  # noqa: PLC0415
            from hardware.config import ScreenConfig  # noqa: PLC0415
            runner = ScreenRunner(ScreenConfig(size=(1280, 720), fullscreen=False, driver="window"))
            sinks.append(ScreenSink(runner))
            closers.append(runner)
        except Exception as exc:  # no display: say so and go on without the screen
            print(f"bgtable demo: no screen ({exc}); continuing headless (use --headless to skip the screen)",
                  file=sys.stderr)
    journal = out / "journal.jsonl"
    try:
        # resuming, the simulated players play again from the start and the journal checks
        # every event they make, so their own state (the dice and board on the table, their
        # choices) is the crashed run's at every cut, not just the referee's
        core = TableCore.open(journal, settings, sinks, journal_factory=journal_factory, resimulate=True,
                              on_warning=lambda w: print(f"bgtable demo: warning: {w}", file=sys.stderr))
    except BaseException:
        for c in reversed(closers):
            c.close()
        raise
    closers.append(core)
    dice = PtyDice(seed=args.seed) if args.dice == "pty" else DirectDice()
    closers.append(dice)
    camera = RenderedCamera(seed=args.seed) if args.camera == "render" else PerfectCamera()
    buttons = MockButtons(config.buttons)
    closers.append(buttons)
    rates = Rates(**{k: getattr(args, f"rate_{k}") for k in vars(Rates())})
    table = SimulatedTable(core, dice, camera, buttons, seed=args.seed, rates=rates,
                           progress=lambda s: print(f"# {s}", file=sys.stderr, flush=True),
                           director_camera=PerfectCamera() if args.camera == "render" else None)
    return core, table, closers


def check_out(out: Path, journal: Path, resume: bool) -> str:
    """Why ``--out`` cannot be used as asked ("" when it can); creates the directory for a new run."""
    if out.exists() and not out.is_dir():
        return f"--out {str(out)!r} is a file; name a directory for the journal and the match files"
    if resume:
        if not journal.is_file():
            return (f"--resume: there is no journal to resume at {str(journal)!r}; "
                    "check --out, or drop --resume to start a new match")
        try:
            read = read_journal(journal)
        except JournalError as exc:
            return f"--resume: {exc}"
        if not read.events:
            why = f" ({read.damage})" if read.damage else ""
            return (f"--resume: {str(journal)!r} holds no readable event{why}; see 'bgtable journal check "
                    f"{journal}', or choose another --out")
        return ""
    if journal.exists() and journal.stat().st_size:
        return f"{journal} already holds a match; add --resume to continue it, or choose another --out"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"--out {str(out)!r} cannot be created: {exc.strerror or exc}; choose another directory"
    return ""


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    prog = "bgtable demo"
    if args.match_to < 0:
        return fail(prog, f"--match-to {args.match_to}: expected 0 (money) or a match length of 1 or more")
    for k in vars(Rates()):
        v = getattr(args, f"rate_{k}")
        if not 0.0 <= v <= 1.0:
            return fail(prog, f"--{k.replace('_', '-')}-rate {v}: expected a rate between 0 and 1")
    if not args.delay >= 0:
        return fail(prog, f"--delay {args.delay}: expected seconds of 0 or more")
    out = Path(args.out)
    journal = out / "journal.jsonl"
    problem = check_out(out, journal, args.resume)
    if problem:
        return fail(prog, problem)
    try:
        core, table, closers = build(args, out)
    except (SettingsError, JournalError) as exc:
        return fail(prog, str(exc))
    t0 = time.monotonic()
    try:
        if args.delay:
            inner = table.step

            def slow_step() -> None:
                inner()
                time.sleep(args.delay)
            table.step = slow_step  # type: ignore[method-assign]
        table.run()
    except KeyboardInterrupt:
        print("bgtable demo: interrupted; the journal keeps the match (--resume continues it)", file=sys.stderr)
        return 130
    except SimError as exc:
        print(f"bgtable demo: error: {exc}", file=sys.stderr)
        return 1
    except ReplayMismatch as exc:
        return fail(prog, f"--resume: {exc}; resume with the --seed, --match-to and rates of the run that "
                          "wrote the journal")
    finally:
        try:
            paths = core.export(out)
            print(f"# wrote {journal}, " + ", ".join(str(p) for p in paths), file=sys.stderr)
        finally:
            for c in reversed(closers):
                try:
                    c.close()
                except Exception:
                    pass
    v = core.referee.view()
    dt = time.monotonic() - t0
    print(f"# match over: {v.names[0]} {v.score[0]} - {v.score[1]} {v.names[1]} "
          f"({len(core.referee.games)} games, {table.stats.steps} steps, {dt:.1f} s"
          + (f", the director read the board {table.stats.director_readings} time(s)"
             if table.stats.director_readings else "") + ")", file=sys.stderr)
    return 0
