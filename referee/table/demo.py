"""``bgtable demo``: a whole simulated table, the main job on a machine without our hardware.

    bgtable demo [--match-to 3] [--seed 1] [--headless] [--out DIR] [--resume]
    bgtable demo --match-to 0 [--games 5] [--jacoby] [--beavers] [--automatic-doubles N]
    bgtable demo --chouette Ann,Bob,Cid [--games 5]
    bgtable demo --no-dice-reader

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

Every table kind: a match (``--match-to N``), a money session (``--match-to 0``, or any
money option), which ends after ``--games`` games (default 5), with ``--jacoby``,
``--beavers`` and ``--automatic-doubles N``; a chouette (``--chouette NAME,NAME,NAME``: the
first name is the first box), whose scoresheet is written beside the records; and a
camera-only table (``--no-dice-reader``), where the camera reads the dice when it can and
the roll is inferred from the move when it cannot (the mover confirms the move, and the
players confirm the roll when several explain it), as ``bgtable run`` has it without a
dice reader.
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
from referee.table.process import ReplayMismatch, TableCore
from referee.table.sinks import CubeSink, LogSink, ScreenSink
from referee.table.simdevices import SimError
from referee.table.simtable import Rates, SimulatedTable

# the simulated buttons and cube display are wired as in the shipped example config
DEFAULT_BUTTONS = (Path(hardware.__file__).parent / "table.example.toml").read_text()
DEFAULT_GAMES = 5  # a money or chouette session's length when --games is not given


def chouette_names(text: str) -> tuple[str, ...]:
    """The players of ``--chouette A,B,C``; ValueError naming the list when it is not three or
    more different names."""
    if not text:
        return ()
    names = tuple(n.strip() for n in text.split(","))
    if len(names) < 3 or not all(names):
        raise ValueError(f"--chouette {text!r}: expected three or more names separated by commas, "
                         "e.g. --chouette Ann,Bob,Cid (the first is the first box)")
    if len(set(names)) != len(names):
        raise ValueError(f"--chouette {text!r}: every player needs a different name")
    return names


def money_options(args: Any) -> list[str]:
    """The options given that only money play has."""
    given = [("--jacoby", args.jacoby), ("--beavers", args.beavers),
             ("--automatic-doubles", args.automatic_doubles), ("--chouette", args.chouette)]
    return [name for name, v in given if v]


def session(args: Any) -> tuple[int, Optional[int]]:
    """(match length, games) from the arguments: 0 and the session's games for money play
    (a money option without --match-to is money play), else the match length and None.
    ValueError names a contradiction."""
    money = money_options(args)
    match_to = args.match_to if args.match_to is not None else (0 if money else 3)
    if match_to < 0:
        raise ValueError(f"--match-to {match_to}: expected 0 (money) or a match length of 1 or more")
    if match_to and money:
        raise ValueError(f"{', '.join(money)}: money play only; drop --match-to {match_to} (or give --match-to 0)")
    if args.games is not None and args.games < 1:
        raise ValueError(f"--games {args.games}: expected a number of games of 1 or more")
    if match_to and args.games is not None:
        raise ValueError(f"--games {args.games}: only a money or chouette session ends after a number of games; "
                         f"a {match_to}-point match ends when a player reaches {match_to} (give --match-to 0)")
    if args.automatic_doubles < 0:
        raise ValueError(f"--automatic-doubles {args.automatic_doubles}: expected 0 (off) or more")
    return match_to, (None if match_to else (args.games or DEFAULT_GAMES))


def settings_of(args: Any, sure: float) -> Settings:
    """The referee's settings for the demo's table (``sure``: vision's confidence gate)."""
    match_to, _ = session(args)
    players = chouette_names(args.chouette)
    return Settings(match_to=match_to, early_roll=args.early_roll,
                    names=(players[0], players[1]) if players else ("Dark", "Light"),
                    min_confidence=sure, jacoby=args.jacoby, beavers=args.beavers,
                    automatic_doubles=args.automatic_doubles, chouette=players,
                    dice_reader=not args.no_dice_reader)


def _parser() -> Parser:
    p = Parser(prog="bgtable demo", description="Run a whole simulated table (no hardware needed).")
    p.add_argument("--match-to", type=int, default=None,
                   help="match length in points, 0 = a money session (default 3; 0 with a money option or --chouette)")
    p.add_argument("--games", type=int, default=None,
                   help=f"a money or chouette session ends after this many games (default {DEFAULT_GAMES})")
    p.add_argument("--jacoby", action="store_true", help="money play: the Jacoby rule")
    p.add_argument("--beavers", action="store_true", help="money play: beavers allowed")
    p.add_argument("--automatic-doubles", type=int, default=0, metavar="N",
                   help="money play: at most N automatic doubles per game on opening ties (default 0, off)")
    p.add_argument("--chouette", default="", metavar="NAME,NAME,NAME[,...]",
                   help="a chouette of three or more players (money play); the first name is the first box")
    p.add_argument("--no-dice-reader", action="store_true",
                   help="a camera-only table: the camera reads the dice, else the roll is inferred from the move "
                        "(--dice is then not used)")
    p.add_argument("--camera-unsure-rate", type=float, default=0.2,
                   help="--no-dice-reader: how often the camera cannot read a throw (default 0.2)")
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

    from referee.table.simdevices import CameraDice  # noqa: PLC0415

    config = loads(DEFAULT_BUTTONS, "<demo>")
    # vision's confidence gate, as the shipped config gives it ([vision] sure)
    settings = settings_of(args, config.vision.sure)
    _, games = session(args)
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
    if args.no_dice_reader:
        dice: Any = CameraDice(seed=args.seed, unsure=args.camera_unsure_rate)
    else:
        dice = PtyDice(seed=args.seed) if args.dice == "pty" else DirectDice()
    closers.append(dice)
    camera = RenderedCamera(seed=args.seed) if args.camera == "render" else PerfectCamera()
    buttons = MockButtons(config.buttons)
    closers.append(buttons)
    rates = Rates(**{k: getattr(args, f"rate_{k}") for k in vars(Rates())})
    table = SimulatedTable(core, dice, camera, buttons, seed=args.seed, rates=rates,
                           progress=lambda s: print(f"# {s}", file=sys.stderr, flush=True),
                           director_camera=PerfectCamera() if args.camera == "render" else None, games=games)
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
    """``bgtable demo``: play a simulated match (or money session, or chouette); returns the exit status."""
    args = _parser().parse_args(argv)
    prog = "bgtable demo"
    try:
        session(args)
        chouette_names(args.chouette)
    except ValueError as exc:
        return fail(prog, str(exc))
    if not 0.0 <= args.camera_unsure_rate <= 1.0:
        return fail(prog, f"--camera-unsure-rate {args.camera_unsure_rate}: expected a rate between 0 and 1")
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
        return fail(prog, f"--resume: {exc}; resume with the --seed, --match-to, table options and rates of "
                          "the run that wrote the journal")
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
    dt = time.monotonic() - t0
    print(f"# {summary(core)} ({core.referee.score.games} games, {table.stats.steps} steps, {dt:.1f} s"
          + (f", the director read the board {table.stats.director_readings} time(s)"
             if table.stats.director_readings else "") + ")", file=sys.stderr)
    return 0


def summary(core: TableCore) -> str:
    """The result line: the match's score, a money session's totals, a chouette's scores."""
    ref = core.referee
    if ref.chouette is not None:
        return "chouette over: " + ", ".join(f"{n} {p:+d}" for n, p in ref.chouette.scores.items())
    a, b = ref.score.points
    dark, light = ref.settings.names
    if ref.settings.money:
        return f"session over: {dark} {a - b:+d}, {light} {b - a:+d}"
    return f"match over: {dark} {a} - {b} {light}"
