"""``bgtable read`` and ``bgtable markers``: the vision package's command line.

``bgtable read IMAGE [--corners "x,y x,y x,y x,y"] [--json]`` reads one photo: the
corners from ``--corners``, else the ArUco markers, else found automatically
(:func:`vision.locate.auto_corners`; ``"corner_source"`` says which).  ``top`` runs from the
first corner to the second, ``bottom`` from the fourth to the third; with the board found
automatically the rows read left to right as seen (a board whose rows run up and down the
picture: ``top`` is the right-hand row read downwards, ``bottom`` the left-hand one).  A
picture with no board gives ``{"board_found": false, "reason": {...}}`` and exit 0.
``"reason"`` (:mod:`vision.reasons`): why the table would take no reading from this picture,
``{"kind", "text", ...facts}`` (``no_board``; ``occluded`` with ``where``, the frame's edges
crossed; ``impossible`` with ``over`` and ``totals``, the colours over 15 and by how much;
``not_set_up``; ``unsure`` with ``confidence``, ``minimum`` and ``points``), else null; the
text form prints it as one ``no reading:`` line.  Beyond the issue's
fields: ``"off"`` (the bear-off trays: ``{"dark", "light", "sure", "sides"}``, or null when
no tray is beside the playing area in the picture), ``"corners"``, ``"corner_source"``,
``"occluded"``, ``"out_of_picture"`` (the points the picture leaves out in part, a camera or a photo cut
at the playing area: ``["top 1"]``, named as the occluded reason names points; their ``"p"`` is flat,
they are not read), ``"px_per_point"`` (how many of the picture's pixels a point width spans; the text
form says when it is under 35, where a single picture is read less surely: ``bench/vision_scale.py``),
``"on_bar"`` (what lies on the bar and is no checker, the doubling cube or a die:
a list of ``{"what", "y"}``, ``y`` in point widths down from the playing area's top edge), ``"p"``
(the probability of each reported count and colour: ``top`` and ``bottom`` lists, ``bar`` per colour),
``"dice"`` (the dice found on the board, as dice:
``image``, ``board``, ``half``, ``on_checker``, ``off_board``, ``value`` when sure,
``confidence``), ``"checker"`` (the checkers' diameter in point widths it counted with:
``--checker``, or measured on the board, else the layout's 0.9);
``--bar-width`` and ``--board-height`` (point widths) read boards built otherwise than the
layout (bar 1, height 11) with the corners given or from the markers;
``bgtable read --batch`` reads JSON lines ``{"image": PATH, "corners": "...", "checker": D,
"bar_width": W, "board_height": H}`` (all but the image optional) on stdin
and writes one JSON result per line, in input order (each line's picture is decoded while the line
before it is read, :mod:`vision.batch`; when the line gives the corners, its dice are found in a
child process while its checkers are read, :mod:`vision.dice_ahead`).
``bgtable read IMAGE --show OUT.png`` also writes the photo with the board drawn over it as the reader
lays it out, and its reading (:mod:`vision.show`): to check a table's corners, bar width and board height.
``bgtable markers OUT.png`` writes the corner
marker sheet.  Errors are one line on stderr and exit 2 (``parser.error``; the ``bgtable``
dispatcher builds the parser, :func:`add_read_arguments` and :func:`run_read` fill and run it).
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
from typing import Any, Callable, Optional

import cv2
import numpy as np

from .compare_readings import FEW_PIXELS_ALONE
from .config import VisionConfig
from .errors import BoardNotFound, VisionError
from .layout import BAR_WIDTH, CHECKER, HEIGHT, POINT_NAMES, parse_corners
from .reasons import no_board
from .rectify import pixels_per_point, points_out_of_picture


def read_image(path: str, corners: Optional[str] = None, checker: Optional[float] = None,
               bar_width: float = BAR_WIDTH, board_height: float = HEIGHT,
               readers: Optional[dict[tuple, Any]] = None, dice: bool = True,
               image: Optional[Any] = None,
               found_dice: Optional[Callable[[], Optional[list[Any]]]] = None) -> dict[str, Any]:
    """The ``--json`` result for one image file (raises FileNotFoundError / VisionError).

    ``readers``: kept between calls (``--batch``), one reader per camera (the same corners and
    settings): pictures of one camera are read as its frames are, what was learned (the
    checkers' colours and size) carrying over; with no corners given, the markers are looked
    for in every picture.  ``image``: the file's picture, already decoded (:func:`load_image`);
    ``found_dice``: gives its ``"dice"`` as found elsewhere for the corners given, meanwhile
    (:mod:`vision.dice_ahead`), asked once the checkers are read (None: find them here)."""
    from .reader import BoardReader
    img = load_image(path) if image is None else image
    key, cs = camera_of(img, corners, checker, bar_width, board_height)
    reader = None if readers is None else readers.get(key)
    if reader is None:
        reader = BoardReader(reader_config(cs, checker, bar_width, board_height, kept=readers is not None),
                             corners=cs)
        if readers is not None:
            readers[key] = reader
    try:
        r = reader.inspect(img, read_occluded=True)
    except BoardNotFound as exc:
        return {"board_found": False, "reason": no_board(str(exc)).to_json_dict()}
    assert r.rows is not None
    out = r.rows.to_json_dict()
    # why the table would get no reading (the reader's own reason), else null
    out["reason"] = None if r.reason is None else r.reason.to_json_dict()
    out["occluded"] = r.occluded  # something across the board's frame: confidence 0
    # the points the picture leaves out in part (a camera or a photo cut at the playing area): not seen
    out["out_of_picture"] = [name for name, cut in zip(POINT_NAMES, points_out_of_picture(r.view)) if cut]
    px = pixels_per_point(r.view)   # how much of the board's detail the picture gives (bench/vision_scale.py)
    out["px_per_point"] = None if px is None else round(px, 1)
    out["on_bar"] = r.rows.things_on_bar()  # the cube or a die lying on the bar (no checker)
    out["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in r.corners]
    out["corner_source"] = reader.corner_source
    out["checker"] = round(reader.checker_size, 3)
    t = r.trays  # the bear-off trays, when beside the playing area in the picture
    out["off"] = None if t is None else {"dark": t.dark, "light": t.light, "sure": t.sure, "sides": list(t.sides)}
    out["p"] = reported_odds(r.rows, r.odds)
    found = found_dice() if found_dice is not None and cs is not None and np.array_equal(r.corners, cs) else None
    if found is not None:  # found meanwhile (vision.dice_ahead), for the corners the reader kept
        out["dice"] = found
    elif dice:  # the dice as dice (vision.dice): the slowest part of a read on real photos
        out["dice"] = dice_found(img, r.corners, reader.config.shape, None if readers is None else reader)
    return out


def load_image(path: str) -> Any:
    """The picture in the file ``path``, decoded (FileNotFoundError / VisionError naming it).

    The file's bytes are read whole and decoded from memory: the same decoder and the same
    pixels as ``cv2.imread`` (its EXIF turn too), about 7 % fewer instructions than its reading
    from the file (callgrind, a 1280x720 JPEG: 18.7 -> 17.3 M)."""
    import os
    if os.path.isdir(path):
        raise VisionError(f"image {path!r} is a directory; name a photo file (JPEG, PNG...)")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"image {path!r} does not exist")
    try:
        data = np.fromfile(path, np.uint8)
        img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except (OSError, cv2.error):
        img = None
    if img is None:
        raise VisionError(f"image {path!r} is not a readable picture (expected JPEG, PNG...)")
    return img


def dice_found(img: Any, corners: Any, shape: Any, camera: Any = None) -> list[dict[str, Any]]:
    """``"dice"``: the dice found on the board (vision.dice), as dice, not checkers: where each
    lies (image px and board pw), which half, on a checker or off the board, its value when sure.
    ``camera``: what stands for the camera (``--batch``: its kept reader): what was found where
    nothing changed since its last picture is kept (:func:`vision.dice_carry.carry_for`)."""
    from .dice import find_dice_in_frame
    from .dice_carry import carry_for
    return dice_json(find_dice_in_frame(img, corners, shape) if camera is None
                     else carry_for(camera).find(img, corners, shape))


def job_camera(job: dict[str, Any]) -> tuple[Any, Any, Any, Any]:
    """A ``--batch`` job's camera settings: corners, checker, bar_width, board_height (defaults filled)."""
    return (job.get("corners"), job.get("checker"), job.get("bar_width", BAR_WIDTH),
            job.get("board_height", HEIGHT))


def camera_of(img: Any, corners: Optional[str], checker: Optional[float], bar_width: float,
              board_height: float) -> tuple[tuple, Optional[np.ndarray]]:
    """A picture's camera: the key its reader and its dice are kept under, and its corners (None:
    find them); VisionError naming a bad value (corners outside the picture, a checker size or
    board shape out of range)."""
    if corners is not None and not isinstance(corners, str):
        raise VisionError(f"corners {corners!r}: expected a string of four 'x,y' pairs")
    cs = given_corners(corners, img.shape[1], img.shape[0]) if corners else None
    for name, value, low in (("checker", checker, 0.0), ("bar_width", bar_width, 0.0),
                             ("board_height", board_height, 1.0)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not low < value < 100):
            raise VisionError(f"{name} {value!r}: expected a number above {low:g} (point widths), e.g. "
                              f"{ {'checker': 0.9, 'bar_width': 1, 'board_height': 11}[name] }")
    return (None if cs is None else cs.tobytes(), checker, bar_width, board_height), cs


def reader_config(cs: Optional[np.ndarray], checker: Optional[float], bar_width: float, board_height: float,
                  kept: bool = True) -> VisionConfig:
    """The reader's settings for a camera (:func:`camera_of`); ``kept``: a reader kept for the
    camera's pictures looks for the markers (or the board) in every one, never waiting."""
    return VisionConfig(markers=cs is None, checker=checker, bar_width=bar_width, board_height=board_height,
                        relocate_every=int(kept), auto_every=1)


def dice_json(found: list[Any]) -> list[dict[str, Any]]:
    """``"dice"``: the dice found (:class:`vision.dice.DieSeen`), as dice."""
    return [{"image": None if d.image is None else [round(d.image[0], 1), round(d.image[1], 1)],
             "board": [round(d.board[0], 2), round(d.board[1], 2)], "half": d.half,
             "on_checker": d.on_checker, "off_board": d.off_board,
             "value": d.value if d.sure() else None, "confidence": round(d.confidence, 3)} for d in found]


def reported_odds(rows: Any, odds: Optional[list[Any]] = None) -> dict[str, Any]:
    """``"p"``: the probability of each reported (count, colour), per point by row and for the
    bar's two counts (vision.odds: the reading's confidence spread over its neighbours).
    ``odds``: those odds by rows, when the reader built them for its evidence (:attr:`vision.reader.Reading.odds`):
    taken from there, not built again."""
    if odds is not None:
        def at(alts: Any, key: tuple) -> float:
            return round(next((q for n, c, q in alts if (n, c if n else None) == key), 0.0), 3)
        cells = list(rows.top) + list(rows.bottom)
        got = [at(odds[i], (pt.count, pt.colour if pt.count else None)) for i, pt in enumerate(cells)]
        return {"top": got[:12], "bottom": got[12:],
                "bar": {c: round(next((q for n, _, q in odds[24 + k] if n == rows.bar[k]), 0.0), 3)
                        for k, c in enumerate(("dark", "light"))}}
    from .odds import bar_odds, point_odds
    # (rounded first to the 6 places the reader's odds keep, so both paths report the same figure)
    p = lambda pt: round(round(point_odds(pt).get((pt.count, pt.colour if pt.count else None), 0.0), 6), 3)  # noqa: E731
    return {"top": [p(pt) for pt in rows.top], "bottom": [p(pt) for pt in rows.bottom],
            "bar": {c: round(bar_odds(rows.bar[k], rows.confidence).get(rows.bar[k], 0.0), 3)
                    for k, c in enumerate(("dark", "light"))}}


def given_corners(text: str, width: int, height: int) -> Any:
    """``--corners`` ``text`` as a 4x2 array, checked against a ``width`` x ``height`` picture
    (VisionError when malformed or outside it); a camera's lines give the same corners, parsed
    and checked once (a fresh copy each time)."""
    return np.frombuffer(_given_corners(text, width, height), np.float32).reshape(4, 2).copy()


@functools.lru_cache(maxsize=64)
def _given_corners(text: str, width: int, height: int) -> bytes:
    cs = parse_corners(text)
    check_corners(cs, width, height, text)
    return cs.tobytes()


def check_corners(cs: Any, width: int, height: int, text: str) -> None:
    """VisionError when the given corners lie outside the picture or enclose no area."""
    margin = 0.05 * max(width, height)  # a corner just off the frame (cropped board edge) is fine
    for x, y in cs:
        if not (np.isfinite(x) and np.isfinite(y)) or not (-margin <= x <= width + margin
                                                            and -margin <= y <= height + margin):
            raise VisionError(f"corners {text!r}: corner {x:g},{y:g} lies outside the {width}x{height} picture; "
                              "give pixel positions inside it (top-left, top-right, bottom-right, bottom-left)")
    xs, ys = cs[:, 0].astype(float), cs[:, 1].astype(float)
    area = 0.5 * abs(float(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1))))
    if area < 0.01 * width * height:
        raise VisionError(f"corners {text!r} enclose (almost) no area; give the playing area's four corners "
                          "in order: top-left, top-right, bottom-right, bottom-left")


def _text(res: dict[str, Any]) -> str:
    if not res.get("board_found"):
        reason = res.get("reason")
        return reason["text"] if reason else "no board found"
    cell = lambda p: "." if not p[0] else f"{p[0]}{'D' if p[1] == 'dark' else 'L'}"  # noqa: E731
    cut = set(res.get("out_of_picture") or ())
    row = lambda name: " ".join(("?" if f"{name} {i + 1}" in cut else cell(p)).rjust(3)  # noqa: E731
                                for i, p in enumerate(res[name]))
    lines = ["top:    " + row("top"),
             "bottom: " + row("bottom"),
             f"bar: dark {res['bar']['dark']}, light {res['bar']['light']}   confidence {res['confidence']:.2f}"
             f"   corners from {res.get('corner_source', '?')}"
             + ("   (something lies across the board's frame: not to be trusted)" if res.get("occluded") else "")]
    if res.get("out_of_picture"):
        lines.append("not in the picture whole: " + ", ".join(res["out_of_picture"])
                     + " (not read: set the camera, or take the photo, with the whole board in view)")
    px = res.get("px_per_point")
    if px is not None and px < FEW_PIXELS_ALONE:
        lines.append(f"the picture shows a point's width in {px:.0f} pixels: below about {FEW_PIXELS_ALONE:.0f} a "
                     "single picture is read less surely (bring the camera nearer, or take the photo closer)")
    if res.get("checker") not in (None, CHECKER):
        lines.append(f"checkers: {res['checker']:.2f} of a point's width across")
    off = res.get("off")
    lines.append("off:    not in view" if off is None else
                 f"off:    dark {off['dark']}, light {off['light']}" + ("" if off["sure"] else "   (unsure)"))
    if res.get("reason"):
        lines.append(f"no reading: {res['reason']['text']}")
    return "\n".join(lines)


def add_read_arguments(p: argparse.ArgumentParser) -> None:
    """``bgtable read``'s options."""
    p.description = "read the checkers from a photo of a board"
    p.add_argument("image", nargs="?", help="photo of the board (JPEG, PNG...)")
    p.add_argument("--corners",
                   help='playing-area corners "x,y x,y x,y x,y": top-left, top-right, bottom-right, bottom-left')
    p.add_argument("--checker", type=float, help="the checkers' diameter as a share of a point's width at its base"
                   " (default: measured on the board when it shows enough stacks, else 0.9)")
    p.add_argument("--bar-width", type=float, default=BAR_WIDTH,
                   help="the bar's width in widths of a point at its base (default 1)")
    p.add_argument("--board-height", type=float, default=HEIGHT,
                   help="the playing area's height, edge to edge, in widths of a point at its base (default 11)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--batch", action="store_true", help='read JSON lines {"image": PATH, "corners": "..."} from stdin')
    p.add_argument("--no-dice", action="store_true", help='leave out "dice" (finding the dice is the slowest part '
                   "of a read on real photos: up to a second and more)")
    p.add_argument("--show", metavar="OUT",
                   help="also draw the board as the reader lays it out, and its reading, over the photo into OUT "
                        "(PNG or JPEG): to check the corners, --bar-width and --board-height by eye")


def run_read(a: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``bgtable read``: one photo (or ``--batch`` from stdin); bad input is ``p.error`` (one line, exit 2)."""
    if a.batch:
        if a.show:
            p.error("--show draws one photo: give an IMAGE, not --batch")
        return _batch(dice=not a.no_dice)
    if not a.image:
        p.error("give an IMAGE to read, or --batch")
    try:
        img = load_image(a.image)
        res = read_image(a.image, a.corners, a.checker, a.bar_width, a.board_height, dice=not a.no_dice, image=img)
    except (FileNotFoundError, VisionError) as exc:
        p.error(str(exc))
    if a.show:
        show(a.show, img, res, a.bar_width, a.board_height, p)
    print(json.dumps(res) if a.json else _text(res))
    return 0


def show(out: str, img: Any, res: dict[str, Any], bar_width: float, board_height: float,
         p: argparse.ArgumentParser) -> None:
    """``--show OUT``: the photo ``img`` (read once, as :func:`read_image` read it) with the board laid out
    over it as read (:mod:`vision.show`); a photo with no board found is written with the reason over it."""
    from .layout import BoardShape
    from .show import draw_layout, note
    if res.get("corners"):
        drawn = draw_layout(img, np.asarray(res["corners"], np.float32), BoardShape(bar=bar_width, height=board_height),
                            res)
    else:
        drawn = note(img, "no board found: " + str((res.get("reason") or {}).get("text", "")))
    try:
        ok = cv2.imwrite(out, drawn)
    except cv2.error:
        ok = False
    if not ok:
        p.error(f"--show {out!r}: cannot write a picture there (give a .png or .jpg path in a folder that exists)")


def _batch(dice: bool = True, ahead: int = 2, child: bool = True) -> int:
    """``--batch``: a JSON result per line of stdin, in order (a bad line: its error, and on);
    each line's picture decoded while the lines before are read, up to ``ahead`` lines ahead
    (:mod:`vision.batch`), and with ``dice``, when the line gives the corners, its dice found
    meanwhile in a child process (:mod:`vision.dice_ahead`; ``child`` False: found after the
    checkers, in this process).  Two lines ahead: the child's searches vary from line to line
    (a move's line about three times a lifted one's), and with a second line in hand it works
    through a long one while the checkers of the next are read, not leaving a core idle."""
    from .batch import read_ahead
    from .dice_ahead import DiceAhead
    rc = 0
    readers: dict[tuple, Any] = {}   # one reader per camera (corners and settings)
    finder = DiceAhead() if dice and child else None

    def loaded(line: Any) -> None:
        if finder is not None and line.job is not None and line.failed is None:
            finder.send(line.n, line.image, line.job)
    try:
        for line in read_ahead(sys.stdin, load_image, ahead, loaded):
            msg = line.error
            res = None
            if line.job is not None:
                job = line.job
                try:
                    res = read_image(str(job["image"]), *job_camera(job), readers, dice, image=line.picture(),
                                     found_dice=None if finder is None else functools.partial(finder.take, line.n))
                except (FileNotFoundError, VisionError) as exc:
                    msg = f"line {line.n}: {exc}"
            if res is None:
                print(f"bgtable read: error: {msg}", file=sys.stderr)
                res = {"board_found": False, "error": msg}
                rc = 2
            print(json.dumps(res), flush=True)
    finally:
        if finder is not None:
            finder.close()
    return rc


def add_markers_arguments(p: argparse.ArgumentParser) -> None:
    """``bgtable markers``'s options."""
    p.description = "write a printable sheet of the board's ArUco corner markers"
    p.add_argument("out", help="output image file (PNG)")
    p.add_argument("--side-mm", type=float, default=30.0, help="printed marker side in millimetres (default 30)")
    p.add_argument("--dpi", type=int, default=300, help="print resolution (default 300)")


def run_markers(a: argparse.Namespace, p: argparse.ArgumentParser) -> int:
    """``bgtable markers``: write the sheet; bad input is ``p.error`` (one line, exit 2)."""
    from .markers import marker_sheet
    if not 5 <= a.side_mm <= 200 or not 72 <= a.dpi <= 1200:
        p.error(f"--side-mm {a.side_mm} must be 5..200 and --dpi {a.dpi} 72..1200")
    if not a.out.lower().endswith((".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")):
        p.error(f"{a.out!r}: the sheet is an image; name it .png (or .jpg)")
    try:
        ok = cv2.imwrite(a.out, marker_sheet(a.side_mm, a.dpi))
    except cv2.error:
        ok = False
    if not ok:
        p.error(f"cannot write {a.out!r} (use a .png or .jpg name in a writable folder)")
    print(f"wrote {a.out}: ArUco DICT_4X4_50 ids 0-3 (top-left, top-right, bottom-right, bottom-left), "
          f"side {a.side_mm:g} mm")
    return 0
