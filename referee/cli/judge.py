"""``bgtable judge``: what does a camera frame show was played, given the position before and the roll?

``bgtable judge IMAGE --before FILE --mover dark|light --dice A-B [--corners "x,y x,y x,y x,y"]
[--dark-home bottom-right|bottom-left|top-right|top-left] [--reference IMAGE
--reference-position FILE [--reference-corners "..."]] [--json]``

FILE holds the position before the move in the ``bgtable read --json`` form (``top`` and
``bottom``: 12 ``[count, colour]`` each as seen in the image, ``bar``: ``{"dark", "light"}``;
``off`` optional).  ``--dark-home`` is the quadrant of the image holding Dark's home board.
``--reference`` is a frame of the same table with its known position (FILE in the same form):
the table learns its board's look from it, as it does from the starting position.  Without
one, the frame teaches itself: each point is read with the looks the other points show under
the position before the move (:mod:`vision.self_reference`).  The
verdict is the referee's own (:func:`referee.turn.matching.match_reading`, by likelihood:
:mod:`referee.turn.likelihood`).  ``--json`` prints one line: ``{"verdict": "legal" | "illegal" |
"wait" | "ambiguous", "play": "24/18 13/9" or null, "after": {"top", "bottom", "bar"} or null,
"candidates": [{"play", "p"}...], "reason": "..."}``.  Bad input: one line naming it, exit 2.
"""
from __future__ import annotations

import json
import math
import os
from typing import TYPE_CHECKING, Any, Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.colour import COLOURS

if TYPE_CHECKING:  # the events load when a command needs them
    from referee.events import BoardEvidence, PointReading

HOMES = ("bottom-right", "bottom-left", "top-right", "top-left")


class JudgeInputError(ValueError):
    """A file, a position or a roll given to ``bgtable judge`` is unusable; the message names it."""


def parse_dice(text: str) -> tuple[int, int]:
    """``"6-4"``, ``"64"`` or ``"6,4"`` -> (6, 4); each die 1..6."""
    t = text.replace("-", "").replace(",", "").replace(" ", "")
    if len(t) != 2 or not (t.isascii() and t.isdigit()) or not all("1" <= c <= "6" for c in t):
        raise JudgeInputError(f"dice {text!r}: expected two dice 1-6 like 6-4")
    return int(t[0]), int(t[1])


def load_rows(path: str, what: str) -> dict[str, Any]:
    """A position file in the ``bgtable read --json`` form, checked."""
    if not os.path.isfile(path):
        raise JudgeInputError(f"{what} file {path!r} does not exist")
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise JudgeInputError(f"{what} file {path!r} is not JSON ({exc}); "
                              "expected the 'bgtable read --json' form") from None
    if not isinstance(d, dict):
        raise JudgeInputError(f"{what} file {path!r}: expected a JSON object with top, bottom and bar")
    for row in ("top", "bottom"):
        pts = d.get(row)
        if not isinstance(pts, list) or len(pts) != 12:
            raise JudgeInputError(f"{what} file {path!r}: {row!r} must be a list of 12 [count, colour] points")
        for k, p in enumerate(pts):
            ok = isinstance(p, list) and len(p) >= 2 and isinstance(p[0], int) and not isinstance(p[0], bool) \
                and 0 <= p[0] <= 15 and (p[1] in COLOURS if p[0] else p[1] is None or p[1] in COLOURS)
            if not ok:
                raise JudgeInputError(f"{what} file {path!r}: {row} point {k + 1} is {p!r}; expected [count 0-15, "
                                      f"\"dark\" or \"light\"] or [0, null]")
    bar = d.get("bar", {"dark": 0, "light": 0})
    if not isinstance(bar, dict) or not all(isinstance(bar.get(c, 0), int) and 0 <= bar.get(c, 0) <= 15
                                            for c in COLOURS):
        raise JudgeInputError(f"{what} file {path!r}: bar {bar!r} must be {{\"dark\": n, \"light\": n}}")
    for c in COLOURS:
        total = sum(p[0] for r in ("top", "bottom") for p in d[r] if p[0] and p[1] == c) + bar.get(c, 0)
        if total > 15:
            raise JudgeInputError(f"{what} file {path!r}: {total} {c} checkers on the board; a side has 15")
    return d


def rows_evidence(d: dict[str, Any], dark_home: str) -> BoardEvidence:
    """A position file's rows as table-numbered evidence."""
    from referee.events import PointReading
    from vision.layout import RowReading, SetUp
    def row(ps: Any) -> tuple[PointReading, ...]:
        return tuple(PointReading(int(p[0]), p[1] if p[0] else None) for p in ps)
    bar = d.get("bar", {})
    rows = RowReading(row(d["top"]), row(d["bottom"]), (int(bar.get("dark", 0)), int(bar.get("light", 0))))
    return SetUp(dark_home).to_evidence(rows)


def position_rows(pos: Any, dark_home: str) -> dict[str, Any]:
    """A position (Dark on roll) in the ``read --json`` rows form."""
    from referee.board import reading_of
    from vision.layout import SetUp
    ev = reading_of(pos)
    top, bottom = SetUp(dark_home).to_rows(ev)
    def cell(p: PointReading) -> list[Any]:
        return [p.count, p.colour]
    return {"top": [cell(p) for p in top], "bottom": [cell(p) for p in bottom],
            "bar": {"dark": ev.bar[0], "light": ev.bar[1]}}


def _tell_dice(reader: Any, img: Any, cfg: Any) -> None:
    """The dice lying on the judged frame, found as the table finds them, told to the board's look
    (learned or the frame's own): a die is no arm over the board, nor a checker."""
    from vision.dice import find_dice_in_frame
    if reader.memory is not None:
        found = find_dice_in_frame(img, reader.locate(img), cfg.shape)
        reader.memory.dice_lying([d for d in found if d.sure()])


def judge_image(image: str, before: dict[str, Any], mover: str, dice: tuple[int, int], *,
                corners: Optional[str] = None, dark_home: str = "bottom-right",
                reference: Optional[str] = None, reference_position: Optional[dict[str, Any]] = None,
                reference_corners: Optional[str] = None, checker: Optional[float] = None,
                bar_width: float = 1.0, board_height: float = 11.0) -> dict[str, Any]:
    """The ``--json`` result (raises JudgeInputError / vision errors for bad input)."""
    from referee.turn.likelihood import cells_of, log_likelihood, odds_table
    from referee.board import for_side, position_of_reading
    from referee.colour import other
    from referee.turn.matching import match_reading
    from referee.rules.moves import legal_plays
    from vision.config import VisionConfig
    from vision.dice import find_dice_in_frame
    from vision.cli import load_image
    from vision.errors import BoardNotFound, VisionError
    from vision.layout import parse_corners
    from vision.compare_readings import differences
    from vision.reader import BoardReader
    from vision.setup_check import unlike_told

    def frame(path: str) -> Any:
        try:
            return load_image(path)
        except (FileNotFoundError, VisionError) as exc:
            raise JudgeInputError(str(exc)) from None

    pos = position_of_reading(rows_evidence(before, dark_home))
    before_m = for_side(pos, mover)
    plays = legal_plays(before_m, *dice)
    cands = [for_side(lp.result, other(mover)) for lp in plays] or [pos]
    texts = [str(lp.play) for lp in plays] or [""]

    cs = parse_corners(corners) if corners else None
    cfg = VisionConfig(markers=cs is None, dark_home=dark_home, checker=checker, bar_width=bar_width,
                       board_height=board_height)
    reader = BoardReader(cfg, corners=cs)
    out: dict[str, Any] = {"verdict": "wait", "play": None, "after": None, "candidates": [], "reason": ""}
    try:
        if reference is not None:
            assert reference_position is not None
            rc = parse_corners(reference_corners) if reference_corners else cs
            ref_reader = BoardReader(cfg, corners=rc)
            ref_img = frame(reference)
            ref_reader.inspect(ref_img, read_occluded=True)
            ref_ev = rows_evidence(reference_position, dark_home)
            # a reference frame of another position than the one given would teach a wrong look
            # (as the table's first lesson is asked: vision.setup_check)
            ref_dice = [d for d in find_dice_in_frame(ref_img, ref_reader.locate(ref_img), cfg.shape) if d.sure()]
            unlike = unlike_told(ref_reader, ref_img, ref_ev, ref_dice)
            if unlike is not None:
                out["reason"] = ("the reference frame does not look like the reference position: "
                                 f"{differences(unlike, ref_ev)}; check --reference-position (and that "
                                 "--reference is a frame of that position)")
                return out
            ref_reader.learn(ref_ev)
            reader.memory = ref_reader.memory
            reader.colours = ref_reader.colours
            img = frame(image)
            _tell_dice(reader, img, cfg)
            reading = reader.inspect(img)
        else:  # no reference: the frame teaches itself, under the position before the move
            img = frame(image)
            reader.inspect(img, read_occluded=True)
            reader.assume(rows_evidence(before, dark_home), dice=dice)
            _tell_dice(reader, img, cfg)
            reading = reader.inspect(img)
    except BoardNotFound as exc:
        out["reason"] = f"no board found in the picture ({exc})"
        return out
    ev = reading.evidence
    if ev is None:
        out["reason"] = reading.reason.text if reading.reason is not None else "no reading"
        return out
    v = match_reading(ev, pos, cands, mover)
    table = odds_table(ev)
    scores: dict[Any, tuple[float, str]] = {}
    for c, t in zip(cands, texts):
        if c not in scores:
            scores[c] = (log_likelihood(table, cells_of(c)), t)
    top = max(s for s, _ in scores.values())
    z = sum(math.exp(s - top) for s, _ in scores.values())
    ranked = sorted(scores.items(), key=lambda kv: -kv[1][0])
    out["candidates"] = [{"play": t or "no move", "p": round(math.exp(s - top) / z, 4)} for _, (s, t) in ranked[:8]]
    out["reason"] = v.reason
    if v.kind == "match":
        k = v.indices[0]
        out.update(verdict="legal", play=texts[k] or "no move", after=position_rows(cands[k], dark_home))
    elif v.kind == "illegal":
        out.update(verdict="illegal", after=position_rows(v.position, dark_home) if v.position is not None else None)
    elif v.kind == "ambiguous":
        out.update(verdict="ambiguous")
        out["candidates"] = [{"play": texts[k] or "no move", "p": c["p"]}
                             for k, c in zip(v.indices, out["candidates"])] + out["candidates"][len(v.indices):]
    return out


def _text(res: dict[str, Any]) -> str:
    head = {"legal": f"legal: {res['play']}", "illegal": "illegal", "ambiguous": "ambiguous",
            "wait": "wait"}[res["verdict"]]
    lines = [f"{head}   ({res['reason']})" if res["reason"] else head]
    for c in res["candidates"][:4]:
        lines.append(f"  {c['p']:.3f}  {c['play']}")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """Run ``bgtable judge``; the exit status."""
    p = Parser(prog="bgtable judge", description="say what a camera frame shows was played, given the position "
               "before the move and the roll")
    p.add_argument("image", help="the frame after the move (JPEG, PNG...)")
    p.add_argument("--before", required=True, help="the position before the move (the 'bgtable read --json' form)")
    p.add_argument("--mover", required=True, choices=COLOURS, help="the colour that moved")
    p.add_argument("--dice", required=True, help="the roll, e.g. 6-4")
    p.add_argument("--corners",
                   help='playing-area corners "x,y x,y x,y x,y": top-left, top-right, bottom-right, bottom-left')
    p.add_argument("--dark-home", default="bottom-right", choices=HOMES,
                   help="the quadrant of the image holding Dark's home board (default bottom-right)")
    p.add_argument("--reference", help="a frame of the same table whose position is known, to learn the board from")
    p.add_argument("--reference-position", help="the position the reference frame shows (same form as --before)")
    p.add_argument("--reference-corners", help="the reference frame's corners (default: --corners)")
    p.add_argument("--checker", type=float, help="the checkers' diameter in point widths (default: measured)")
    p.add_argument("--bar-width", type=float, default=1.0, help="the bar's width in point widths (default 1)")
    p.add_argument("--board-height", type=float, default=11.0,
                   help="the playing area's height in point widths (default 11)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON line")
    a = p.parse_args(list(argv))
    if (a.reference is None) != (a.reference_position is None):
        return fail(p.prog, "--reference and --reference-position go together: give both or neither")
    from vision.errors import VisionError
    try:
        dice = parse_dice(a.dice)
        before = load_rows(a.before, "--before")
        ref_pos = load_rows(a.reference_position, "--reference-position") if a.reference_position else None
        res = judge_image(a.image, before, a.mover, dice, corners=a.corners, dark_home=a.dark_home,
                          reference=a.reference, reference_position=ref_pos, reference_corners=a.reference_corners,
                          checker=a.checker, bar_width=a.bar_width, board_height=a.board_height)
    except (JudgeInputError, VisionError, ValueError) as exc:
        return fail(p.prog, str(exc))
    print(json.dumps(res) if a.json else _text(res))
    return 0
