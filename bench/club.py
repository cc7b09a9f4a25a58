"""Benchmark: many simulated tables publishing to one Mosquitto, one club server reading.

    python3 bench/club.py [--tables 100] [--procs 2] [--match-to 1] [--pace 0.01]

Starts Mosquitto on the loopback with the club's ACL and passwords (``mosquitto`` must be
installed), a club server in its own process (the subscriber and the page server, as
``bgtable club serve`` runs them), and ``--tables`` simulated tables (the demo's fast path:
perfect camera, direct dice, journals without fsync) spread over ``--procs`` processes, each
table pausing ``--pace`` seconds between steps.  Every table publishes through its own
login.  Prints the messages per second the server took in, the end-to-end latency p50/p99/max
from the moment a table's publisher sends a decision or state (right after it is journaled)
to the moment the server holds it, the server's memory (VmRSS, VmHWM), and checks that every
message arrived exactly once in the server's state.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from referee.table.club.config import SERVER_USER, Club  # noqa: E402


def club_of(n: int) -> Club:
    return Club.from_toml({"club": {"name": "bench", "director": "dir", "director_password": "dpw",
                                    "server_password": "spw"},
                           "tables": [{"name": f"t{i:03d}", "password": f"pw{i}"} for i in range(1, n + 1)]})


def _rss() -> dict[str, int]:
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            out[k] = int(v.split()[0])  # kB
    return out


def server_proc(port: int, tables: tuple[str, ...], ready: Any, stop: Any, results: Any) -> None:
    """The club server: subscribes, serves the page, records when each message arrived."""
    from referee.table.club.broker import PahoBroker  # noqa: PLC0415
    from referee.table.club.server import ClubServer, ClubState, subscribe  # noqa: PLC0415

    state = ClubState("bench", tables, clock=time.time)
    state.keep_arrivals = True
    broker = PahoBroker("127.0.0.1", port, SERVER_USER, "spw", client_id="bench-server")
    broker.wait_connected(10)
    subscribe(state, broker)
    http = ClubServer(club_of(len(tables)), state, broker, ("127.0.0.1", 0))
    http.start()
    time.sleep(0.5)
    ready.set()
    stop.wait()
    snap = state.snapshot()
    results.put({"arrivals": state.arrivals, "received": state.received, "frames": state.frames_received,
                 "duplicates": state.duplicates,
                 "refused": len(state.refused), "mem": _rss(), "standings": len(state.standings),
                 "scores": {t["name"]: (t["view"] or {}).get("score") for t in snap["tables"]}})
    http.close()
    broker.close()


def tables_proc(port: int, names: list[tuple[str, str, int]], out: str, pace: float, match_to: int,
                results: Any) -> None:
    """Some simulated tables, one thread each; records when each message was sent."""
    from referee.table.club.broker import PahoBroker  # noqa: PLC0415
    from referee.table.club.simclub import ClubTable  # noqa: PLC0415

    sent: dict[tuple[str, int, int], float] = {}
    lock = threading.Lock()

    class Timed(PahoBroker):
        def publish(self, message: Any) -> Any:  # type: ignore[override]
            if not message.retain or message.topic.endswith("/state"):
                with lock:
                    sent.setdefault(message.key, time.time())
            return super().publish(message)

    finals: dict[str, Any] = {}
    errors: list[str] = []

    def run(name: str, pw: str, seed: int) -> None:
        try:
            b = Timed("127.0.0.1", port, name, pw, client_id=f"bench-{name}")
            b.wait_connected(20)
            t = ClubTable("bench", name, Path(out) / name, b, seed=seed, match_to=match_to, fsync=False,
                          after_step=(lambda _t: time.sleep(pace)) if pace else None)
            t.play()
            end = time.monotonic() + 60
            while t.publisher.lag and time.monotonic() < end:
                t.publisher.pump()
                time.sleep(0.05)
            finals[name] = list(t.core.referee.view().score)
            t.close()
            b.close()
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{name}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=run, args=n) for n in names]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    results.put({"sent": sent, "finals": finals, "errors": errors})


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--procs", type=int, default=2, help="processes the tables are spread over")
    ap.add_argument("--match-to", type=int, default=1)
    ap.add_argument("--pace", type=float, default=0.01, help="seconds each table waits between steps")
    args = ap.parse_args()
    from referee.table.club.mosquitto import LocalBroker  # noqa: PLC0415

    club = club_of(args.tables)
    with tempfile.TemporaryDirectory(prefix="bench-club-") as tmp:
        broker = LocalBroker(club, Path(tmp) / "broker")
        broker.start()
        port = broker.club.port
        ctx = mp.get_context("spawn")
        ready, stop, sres, tres = ctx.Event(), ctx.Event(), ctx.Queue(), ctx.Queue()
        names = tuple(t.name for t in club.tables)
        srv = ctx.Process(target=server_proc, args=(port, names, ready, stop, sres))
        srv.start()
        ready.wait(30)
        t0 = time.time()
        groups = [[(t.name, t.password, i + 1) for i, t in enumerate(club.tables) if i % args.procs == k]
                  for k in range(args.procs)]
        procs = [ctx.Process(target=tables_proc, args=(port, g, tmp, args.pace, args.match_to, tres))
                 for g in groups]
        for p in procs:
            p.start()
        parts = [tres.get() for _ in procs]
        for p in procs:
            p.join()
        t1 = time.time()
        time.sleep(1.0)
        stop.set()
        s = sres.get()
        srv.join()
        broker.stop()
    sent: dict[Any, float] = {}
    finals: dict[str, Any] = {}
    errors: list[str] = []
    for part in parts:
        sent.update(part["sent"])
        finals.update(part["finals"])
        errors += part["errors"]
    arrived = {(a[0], a[1], a[2]): a[3] for a in s["arrivals"]}
    lat = [(arrived[k] - t) * 1000 for k, t in sent.items() if k in arrived]
    lost = [k for k in sent if k not in arrived]
    wrong = [n for n, sc in finals.items() if s["scores"].get(n) != sc]
    dt = t1 - t0
    print(f"tables {args.tables} over {args.procs} process(es), match to {args.match_to}, pace {args.pace} s/step")
    print(f"  wall {dt:.1f} s; messages sent {len(sent)}, received by the server {s['received']} "
          f"({s['received'] / dt:.0f} msg/s), duplicates dropped {s['duplicates']}, refused {s['refused']}; "
          f"camera frames (a dispute's last frame) {s['frames']}")
    print(f"  latency table -> server: p50 {pct(lat, 50):.1f} ms, p99 {pct(lat, 99):.1f} ms, max {max(lat or [0]):.1f} ms")
    print(f"  server memory: VmRSS {s['mem'].get('VmRSS', 0) / 1024:.1f} MB, peak VmHWM {s['mem'].get('VmHWM', 0) / 1024:.1f} MB")
    print(f"  lost {len(lost)}, tables whose final score differs on the page {len(wrong)}, standings {s['standings']}, "
          f"table errors {len(errors)}")
    for e in errors[:5]:
        print("   ", e)
    return 0 if not lost and not wrong and not errors and len(finals) == args.tables else 1


if __name__ == "__main__":
    sys.exit(main())
