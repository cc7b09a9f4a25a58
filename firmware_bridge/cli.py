"""``bgtable dice-sim`` (a simulated reader on a pty) and ``bgtable dice`` (watch a reader's events).

The ``bgtable`` dispatcher builds each command's parser, fills it with ``add_*_arguments``
and calls ``run_*(args, parser)``; bad input is ``parser.error`` (one line, exit 2).
"""
from __future__ import annotations

import argparse
import os
import queue
import signal
import sys
import threading
import time
from typing import Any

from referee.events import DiceLifted, ReaderFault, RollSettled, RollStarted, to_json

from firmware_bridge.errors import BadPortUrl, BridgeError
from firmware_bridge.link import DiceLink
from firmware_bridge.script import parse_script, run_action
from firmware_bridge.sim import SimulatedReader


def add_dice_sim_arguments(p: argparse.ArgumentParser) -> None:
    """``bgtable dice-sim``'s options."""
    p.description = ("Start a simulated dice reader on a pseudo-terminal and print its port path. "
                     "It runs until Ctrl-C (or an \"exit\" action in the script).")
    p.add_argument("--script", metavar="FILE", help="JSON-lines actions to run (see firmware_bridge/script.py)")
    p.add_argument("--seed", type=int, default=None, help="seed for boot ids, positions and noise")
    p.add_argument("--link-dir", metavar="DIR", help="directory for the stable port symlink (default: a new /tmp dir)")


def run_dice_sim(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``bgtable dice-sim``: the simulated reader until Ctrl-C or the script's ``exit``."""
    if args.link_dir is not None:
        problem = _link_dir_problem(args.link_dir)
        if problem:
            p.error(problem)
    actions = []
    if args.script:
        try:
            with open(args.script, encoding="utf-8") as fh:
                actions = parse_script(fh)
        except OSError as exc:
            p.error(f"cannot read script {args.script!r}: {exc.strerror}")
        except BridgeError as exc:
            p.error(f"{args.script}: {exc}")
    # Ctrl-C stops it even when started in the background (a shell's "&", nohup, a CI script):
    # those start it with SIGINT ignored, and Python then leaves it ignored
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
    sim = SimulatedReader(seed=args.seed, link_dir=args.link_dir).start()
    try:
        print(sim.port_path, flush=True)
        print(f"simulated dice reader {sim.source} on {sim.port_path} -> {sim.pty_path}; Ctrl-C stops it",
              file=sys.stderr, flush=True)
        for action in actions:
            if not run_action(sim, action):
                return 0
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        sim.stop()


def _link_dir_problem(path: str) -> str:
    """Why ``--link-dir`` cannot hold the port symlink ("" when it can)."""
    if not os.path.exists(path):
        return f"--link-dir {path!r} does not exist; create it (mkdir -p {path}) or leave --link-dir out"
    if not os.path.isdir(path):
        return f"--link-dir {path!r} is not a directory; give a directory for the port symlink"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"--link-dir {path!r} is not writable; give a directory you can write to, or leave --link-dir out"
    return ""


def describe(ev: Any) -> str:
    """A one-line human reading of a dice event."""
    if isinstance(ev, RollSettled):
        dice = "  ".join(
            f"{d.value if d.value is not None else '?'}"
            f"{' COCKED' if not d.flat else ''}{' ON-CHECKER' if d.on_checker else ''}"
            f" ({d.zone}, {d.x:+.0f},{d.y:+.0f} mm, conf {d.confidence:.2f})" for d in ev.dice)
        return f"{ev.t:10.3f}  roll {ev.roll_id} settled [{ev.source}]: {dice}"
    if isinstance(ev, RollStarted):
        return f"{ev.t:10.3f}  roll {ev.roll_id} started"
    if isinstance(ev, DiceLifted):
        return f"{ev.t:10.3f}  roll {ev.roll_id} lifted"
    if isinstance(ev, ReaderFault):
        return f"{ev.t:10.3f}  FAULT {ev.message}"
    return repr(ev)


def add_dice_arguments(p: argparse.ArgumentParser) -> None:
    """``bgtable dice``'s options."""
    p.description = "Connect to a dice reader and print its events as they arrive."
    p.add_argument("--port", required=True, metavar="URL",
                   help="/dev/ttyACM0, a pty path, loop://, or usb:VID:PID[:SERIAL] (hex)")
    p.add_argument("--json", action="store_true", help="print each event as its JSON line (referee.events)")
    p.add_argument("--count", type=int, default=None, help="exit after this many events")
    p.add_argument("--timeout", type=float, default=None, help="exit after this many seconds")


def run_dice(args: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``bgtable dice``: print the reader's events (exit 1 when no reader answered)."""
    if args.count is not None and args.count < 1:
        p.error(f"--count {args.count} must be at least 1")

    def status(text: str) -> None:
        print(f"# {text}", file=sys.stderr, flush=True)

    if args.timeout is not None and not args.timeout > 0:
        p.error(f"--timeout {args.timeout:g} must be a positive number of seconds")
    events: "queue.Queue[Any]" = queue.Queue()
    try:
        link = DiceLink(args.port, events, on_status=status)
    except BadPortUrl as exc:
        p.error(f"--port: {exc}")
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    if threading.current_thread() is threading.main_thread():  # Ctrl-C stops it, even in the background
        signal.signal(signal.SIGINT, signal.default_int_handler)
    n = 0
    try:
        link.start()
        while args.count is None or n < args.count:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            try:
                ev = events.get(timeout=0.2 if left is None else min(0.2, left))
            except queue.Empty:
                continue
            print(to_json(ev) if args.json else describe(ev), flush=True)
            n += 1
    except KeyboardInterrupt:
        pass
    finally:
        link.stop()
        st = link.stats
        status(f"{n} events; connects {st.connects}, losses {st.losses}, duplicates dropped {st.duplicates}, "
               f"frames {link.session.decoder.stats.frames}, bad frames {link.session.decoder.stats.errors}")
    if st.connects == 0:
        print(f"bgtable dice: error: no dice reader answered on {args.port}", file=sys.stderr)
        return 1
    return 0
