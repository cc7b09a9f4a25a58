"""``bgtable referee --script FILE``: run a JSON-lines event script through the referee.

A director replays a disputed sequence from the table's journal (or a hand-written
script) and reads every decision the referee takes, with its line number::

    bgtable referee --script game.jsonl            # "12: reroll [dark]: Re-roll: ..."
    bgtable referee --script game.jsonl --json     # one JSON object per decision
    bgtable referee --script game.jsonl --set match_to=7 --set early_roll=void

Script lines are the events' JSON text forms (``referee.events``).  A table journal
(``journal.jsonl``: lines with ``seq`` and ``event``) is read directly: its ``input``
events are the script (numbered by their ``seq``), its ``match`` event gives the match
length, names and rules (``--set`` still overrides them), and the record's own lines are
skipped.  Blank lines and
lines starting with ``#`` are skipped.  A line ``{"kind": "settings", ...}`` (before
the first event) sets the referee's settings (``referee.settings.Settings`` keys).
A line ``{"kind": "setup", "id": "4HPwATDgc/ABMA", "match_id": "cAgAAAAAAAAA"}`` (or
``"xgid": "XGID=..."``; ``"turn": "light"`` says who is on roll when no Match ID does) sets
up a position, as the director's set-up at the table (``referee.turn.director``): the
script then plays on from it.
A bad line is reported on stderr with its line number and skipped; the exit status is
then 1.  An unreadable file exits 2.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.events import EventError, from_dict
from referee.officials import DirectorAction
from referee.turn.referee import Referee
from referee.settings import Settings, SettingsError

PROG = "bgtable referee"


def _parse_set(items: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise SettingsError(f"--set {item!r}: expected KEY=VALUE, e.g. match_to=7")
        k, v = item.split("=", 1)
        try:
            out[k.strip()] = json.loads(v)
        except json.JSONDecodeError:
            out[k.strip()] = v
        if k.strip() in ("names", "chouette") and isinstance(out[k.strip()], str):
            names = [n.strip() for n in out[k.strip()].split(",")]
            if k.strip() == "names" and len(names) != 2:
                raise SettingsError(f"--set {item!r}: expected two names, dark then light, e.g. names=Ann,Bob")
            out[k.strip()] = names
    return out


def _is_journal(text: str) -> bool:
    """Whether the script is a table journal (its lines carry ``seq`` and ``event``)."""
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#"):
            try:
                d = json.loads(s)
            except json.JSONDecodeError:
                return False
            return isinstance(d, dict) and "seq" in d and "event" in d
    return False


def _journal_lines(text: str) -> tuple[list[tuple[int, str]], list[str], Optional[dict[str, Any]]]:
    """A journal's input events as ``(line, event JSON)`` (the line is the event's ``seq``),
    the journal's own problems, and the settings its ``match`` event gives."""
    from referee.records.damage import parse_journal
    read = parse_journal(text.encode("utf-8"))
    problems = [f"journal: {w}" for w in read.warnings] + [f"journal: {p}" for p in read.problems]
    out: list[tuple[int, str]] = []
    settings: Optional[dict[str, Any]] = None
    for i, ev in enumerate(read.events, 1):
        n = ev["seq"] if isinstance(ev.get("seq"), int) else i
        if ev.get("event") == "input":
            out.append((n, json.dumps(ev.get("data"))))
        elif ev.get("event") == "match" and settings is None and not out:
            players = ev.get("players") or ("Dark", "Light")
            settings = {"match_to": ev.get("match_length", 0), "names": list(players), **(ev.get("rules") or {})}
    return out, problems, settings


SETUP_KEYS = ("kind", "id", "match_id", "xgid", "turn", "by", "why", "t")


def setup_event(d: dict[str, Any]) -> DirectorAction:
    """A script's ``{"kind": "setup", ...}`` line as the director's set-up (EventError naming a bad field)."""
    unknown = set(d) - set(SETUP_KEYS)
    if unknown:
        raise EventError(f"unknown field(s) {', '.join(sorted(unknown))} for a set-up; expected "
                         f"{', '.join(SETUP_KEYS[1:])}")
    position = d.get("xgid") or d.get("id") or ""
    if not isinstance(position, str) or not position or d.get("xgid") and d.get("id"):
        raise EventError(f"a set-up needs one position: \"id\" (a gnubg Position ID) or \"xgid\", not {d!r}")
    return DirectorAction("setup", by=str(d.get("by", "script")), why=str(d.get("why", "the script's set-up")),
                          key="script", position=position, match_id=str(d.get("match_id") or ""),
                          colour=str(d.get("turn") or ""), t=d.get("t", 0.0))


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``bgtable referee``; the exit status."""
    parser = Parser(prog=PROG, description="Run a JSON-lines event script through the referee and print "
                    "each decision.")
    parser.add_argument("--script", required=True, help="the JSON-lines event script (- for stdin)")
    parser.add_argument("--json", action="store_true", help="print each decision as one JSON object")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a referee setting, e.g. match_to=7 or early_roll=void (repeatable)")
    parser.add_argument("--view", action="store_true", help="print the final table view (JSON) at the end")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    try:
        if args.script == "-":
            text = sys.stdin.read()
        else:
            with open(args.script, encoding="utf-8") as fh:
                text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        return fail(PROG, f"cannot read script {args.script!r}: {exc}")
    try:
        overrides = _parse_set(args.set)
        settings = Settings.from_dict(overrides)
    except (SettingsError, TypeError) as exc:
        return fail(PROG, str(exc))
    ref: Optional[Referee] = None
    bad = 0
    if _is_journal(text):
        lines, problems, settings_d = _journal_lines(text)
        for msg in problems:
            print(f"{PROG}: {msg}", file=sys.stderr)
            bad += 1
        if settings_d is not None:
            try:
                settings = Settings.from_dict({**settings_d, **overrides})
            except (SettingsError, TypeError) as exc:
                return fail(PROG, f"the journal's match settings: {exc}")
    else:
        lines = list(enumerate(text.splitlines(), 1))
    for n, line in lines:
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        try:
            d = json.loads(s)
        except json.JSONDecodeError as exc:
            print(f"{PROG}: line {n}: not JSON ({exc.msg}): {s[:60]!r}", file=sys.stderr)
            bad += 1
            continue
        if isinstance(d, dict) and d.get("kind") == "settings":
            if ref is not None:
                print(f"{PROG}: line {n}: settings must come before the first event; ignored", file=sys.stderr)
                bad += 1
                continue
            try:
                settings = Settings.from_dict({**{k: v for k, v in d.items() if k != "kind"}, **overrides})
            except (SettingsError, TypeError) as exc:
                print(f"{PROG}: line {n}: {exc}", file=sys.stderr)
                bad += 1
            continue
        try:
            event = setup_event(d) if isinstance(d, dict) and d.get("kind") == "setup" else from_dict(d)
        except (EventError, ValueError, TypeError) as exc:
            print(f"{PROG}: line {n}: {exc}", file=sys.stderr)
            bad += 1
            continue
        if ref is None:
            ref = Referee(settings)
        for dec in ref.handle(event):
            if args.json:
                print(json.dumps({"line": n, **dec.to_dict()}, separators=(",", ":")))
            else:
                print(f"{n}: {dec}")
    if ref is None:
        ref = Referee(settings)
    if args.view:
        print(ref.view().to_json())
    return 1 if bad else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
