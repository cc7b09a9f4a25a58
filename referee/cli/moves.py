"""``bgtable moves``: the legal plays for a position and a roll (a contract other tools rely on).

    bgtable moves POSITION_ID DICE [--json]
    bgtable moves --batch            # JSON lines {"position": ID, "dice": [a, b]} on stdin

``result`` is the gnubg Position ID after the play with the opponent on roll.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.errors import RefereeError
from referee.rules.moves import _raw, legal_plays, parse_dice
from referee.rules.notation import path_text
from referee.rules.position import Position, counts_to_id


def _answer(position: Position, dice: tuple[int, int], pid: str) -> dict[str, Any]:
    plays = legal_plays(position, *dice)
    return {"position": pid, "dice": list(dice),
            "plays": [{"play": str(lp.play), "result": lp.result.position_id()} for lp in plays]}


def _answer_json(position: Position, dice: tuple[int, int], pid: str) -> str:
    """``json.dumps(_answer(...))``, the same bytes, written directly: each play's text kept
    per step path (:func:`referee.rules.notation.path_text`) and its result's Position ID straight
    from the generator's result key (:func:`referee.rules.position.counts_to_id`: the key's 50
    counts are the mover's side then the other's, as the result's ID writes them)."""
    keys, paths = _raw(position, *dice)
    plays = ", ".join([f'{{"play": "{path_text(path)}", "result": "{counts_to_id(key)}"}}'
                       for key, path in zip(keys, paths)])
    return f'{{"position": {json.dumps(pid)}, "dice": [{dice[0]}, {dice[1]}], "plays": [{plays}]}}'


def _read_position(text: str) -> Position:
    position = Position.from_position_id(text)
    problems = position.validate()
    if problems:
        raise RefereeError(f"position {text!r} is impossible: {problems[0]}")
    return position


def _dice_field(value: Any) -> Any:
    """The "dice" of a batch line as :func:`parse_dice` takes it: a string or two integers."""
    if isinstance(value, str):
        return value
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) for d in value)):
        return value
    raise RefereeError(f'dice {json.dumps(value)}: expected two dice 1-6, e.g. "dice": [3, 1] or "dice": "31"')


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run ``bgtable moves``; the exit status."""
    parser = Parser(prog="bgtable moves", description="List the legal plays for a position and a roll.")
    parser.add_argument("position", nargs="?", help="gnubg Position ID (14 characters), player NOT on roll first")
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 31 or 3-1")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--batch", action="store_true",
                        help='read JSON lines {"position": ID, "dice": [a, b]} from stdin, write one result per line')
    args = parser.parse_args(argv)
    prog = parser.prog
    if args.batch:
        if args.position or args.dice:
            return fail(prog, "--batch reads positions from standard input; give no POSITION_ID or DICE")
        try:
            return _batch(prog)
        except UnicodeDecodeError as exc:
            return fail(prog, f"standard input is not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); "
                              'expected JSON lines {"position": ID, "dice": [a, b]}')
    if not args.position or not args.dice:
        return fail(prog, "expected POSITION_ID and DICE, e.g. 'bgtable moves 4HPwATDgc/ABMA 31'")
    try:
        position = _read_position(args.position)
        dice = parse_dice(args.dice)
    except RefereeError as exc:
        return fail(prog, str(exc))
    if args.json:
        print(_answer_json(position, dice, args.position))
        return 0
    answer = _answer(position, dice, args.position)
    if not answer["plays"]:
        print(f"no legal play for {dice[0]}-{dice[1]}: the turn is lost")
        return 0
    width = max(len(p["play"]) for p in answer["plays"])
    for p in answer["plays"]:
        print(f"{p['play'].ljust(width)}  {p['result']}")
    return 0


def _batch(prog: str) -> int:
    out = sys.stdout
    for lineno, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict) or "position" not in req or "dice" not in req:
                raise RefereeError('expected an object {"position": ID, "dice": [a, b]}')
            pid = req["position"]
            if not isinstance(pid, str):
                raise RefereeError(f"position {pid!r} must be a Position ID string")
            position = _read_position(pid)
            dice = parse_dice(_dice_field(req["dice"]))
        except (json.JSONDecodeError, RefereeError) as exc:
            return fail(prog, f"line {lineno}: {exc}")
        out.write(_answer_json(position, dice, pid) + "\n")
    out.flush()
    return 0
