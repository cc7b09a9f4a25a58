"""Simulator scripts: one JSON object per line, each an action for :class:`SimulatedReader`.

    {"action": "roll", "values": [3, 5], "cocked": [false, true], "zone": "right", "on_checker": false}
    {"action": "start_roll"}   {"action": "settle", "values": [6, 6]}   {"action": "lift"}
    {"action": "wait", "seconds": 0.5}     {"action": "wait_acked", "seconds": 5}
    {"action": "unplug"}  {"action": "replug"}  {"action": "reboot"}
    {"action": "garbage", "bytes": 32}  {"action": "drop", "frames": 2}  {"action": "corrupt", "frames": 1}
    {"action": "drop_incoming", "frames": 1}  {"action": "rate", "bytes_per_second": 2000}
    {"action": "loss", "drop_rate": 0.1, "corrupt_rate": 0.05}
    {"action": "fault", "sensor": 3, "failed": true}   {"action": "exit"}

Blank lines and lines starting with ``#`` are ignored.  The whole script is checked
before anything runs; a bad line raises :class:`ScriptError` quoting it.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Iterable

from firmware_bridge.errors import ScriptError

# action -> allowed keys (besides "action")
ACTIONS: dict[str, set[str]] = {
    "roll": {"values", "cocked", "zone", "on_checker", "positions", "confidence"},
    "start_roll": set(),
    "settle": {"values", "cocked", "zone", "on_checker", "positions", "confidence"},
    "lift": set(),
    "wait": {"seconds"},
    "wait_acked": {"seconds"},
    "unplug": set(),
    "replug": set(),
    "reboot": {"boot_id"},
    "garbage": {"bytes"},
    "drop": {"frames"},
    "corrupt": {"frames"},
    "drop_incoming": {"frames"},
    "rate": {"bytes_per_second"},
    "loss": {"drop_rate", "corrupt_rate"},
    "fault": {"sensor", "failed"},
    "exit": set(),
}


@dataclass(frozen=True)
class Action:
    """One script line: the action's name and its arguments."""

    name: str
    args: tuple[tuple[str, Any], ...]
    line: int

    @property
    def kwargs(self) -> dict[str, Any]:
        """The action's arguments as keyword arguments."""
        return dict(self.args)


def parse_script(lines: Iterable[str]) -> list[Action]:
    """Parse a whole script (JSON lines); raise ScriptError quoting the first bad line."""
    out = []
    for n, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            d = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScriptError(f"line {n}: not JSON ({exc.msg}): {text[:80]!r}") from None
        if not isinstance(d, dict) or d.get("action") not in ACTIONS:
            raise ScriptError(f"line {n}: needs \"action\" one of {', '.join(ACTIONS)}: {text[:80]!r}")
        name = d.pop("action")
        unknown = set(d) - ACTIONS[name]
        if unknown:
            raise ScriptError(f"line {n}: unknown key(s) {', '.join(sorted(unknown))} for {name!r}: {text[:80]!r}")
        if name in ("roll", "settle"):
            vals = d.get("values")
            if not isinstance(vals, list) or not 1 <= len(vals) <= 2 or not all(
                    v is None or (isinstance(v, int) and 0 <= v <= 6) for v in vals):
                raise ScriptError(f"line {n}: \"values\" must be 1 or 2 dice, each 1..6 or 0/null: {text[:80]!r}")
        out.append(Action(name, tuple(sorted(d.items(), key=lambda kv: kv[0])), n))
    return out


def run_action(sim: Any, action: Action) -> bool:
    """Apply one action to a simulator; False for ``exit``."""
    a, k = action.name, action.kwargs
    if a == "exit":
        return False
    if a == "roll":
        sim.roll(**k)
    elif a == "settle":
        sim.settle(**k)
    elif a == "start_roll":
        sim.start_roll()
    elif a == "lift":
        sim.lift()
    elif a == "wait":
        time.sleep(float(k.get("seconds", 1.0)))
    elif a == "wait_acked":
        sim.wait_idle(float(k.get("seconds", 5.0)))
    elif a == "unplug":
        sim.unplug()
    elif a == "replug":
        sim.replug()
    elif a == "reboot":
        sim.reboot(k.get("boot_id"))
    elif a == "garbage":
        sim.inject_garbage(int(k.get("bytes", 32)))
    elif a == "drop":
        sim.drop_next(int(k.get("frames", 1)))
    elif a == "corrupt":
        sim.corrupt_next(int(k.get("frames", 1)))
    elif a == "drop_incoming":
        sim.drop_incoming(int(k.get("frames", 1)))
    elif a == "rate":
        sim.set_rate(k.get("bytes_per_second"))
    elif a == "loss":
        sim.set_loss(float(k.get("drop_rate", 0.0)), float(k.get("corrupt_rate", 0.0)))
    elif a == "fault":
        sim.sensor_fault(int(k.get("sensor", 0)), bool(k.get("failed", True)))
    return True
