"""A reading's odds: what may lie at each location, with a probability each.

Two sources, combined by multiplying (they look at the board in different ways):

* the absolute reading (:mod:`vision.read`: counts, colours and a confidence per point):
  :func:`reading_odds` spreads each point's confidence over the neighbouring counts and the
  other colour.  Its probabilities are capped at :data:`ABSOLUTE_MAX`: on real boards the
  reader reports wrong points as sure (hinges, logos, pearl faces), so alone it never makes
  a point certain;
* the table's learned look of its own board (:mod:`vision.memory`), once it has seen a known
  position.

The odds are given by image rows (``top`` 0..11, ``bottom`` 0..11, then the bar's dark and
light counts) and mapped to table numbering by :func:`to_table`.
"""
from __future__ import annotations

import functools
from typing import Optional, Sequence

from referee.events import PointReading

from . import layout as L

ABSOLUTE_MAX = 0.9   # the most the absolute reading alone gives one (count, colour)
# a point's reading with confidence c is right with probability SURE[0] + SURE[1] c (at most ABSOLUTE_MAX):
# measured on the tuned real boards (377 points, bench/vision_real.py's sets), readings below 0.6 were right
# 89 % (0-0.2), 92 % (0.2-0.4), 78 % (0.4-0.5, 9 points), 94 % (0.5-0.6), every one above 0.6 (297); on
# rendered real tables 90 % below 0.6.  The earlier 0.35 + 0.6 c said 37-71 % there: too unsure by half
SURE = (0.6, 0.3)
READING_SCALE = (0.35, 0.6)  # the reader's own scale, which ranks its points against each other (vision.totals)
MIN_P = 1e-6
FULL_ROW = 0.35      # a row the learned look sees full: the share kept for exactly that many
TILT = 0.2           # with a learned look, the absolute reading only tilts it: its least weight for any (count, colour)
SELF_TILT = 0.1      # ... with a look the frame taught itself (vision.self_reference): the absolute reading weighs more
BAR_SHARE = 0.85     # a learned look's share of the bar's odds (the absolute reading's the rest: vision.memory)
Alts = list[tuple[int, Optional[str], float]]


def colour_doubt(margin: float) -> float:
    """The chance a point's colour is the other one, from its least sure checker's colour margin
    (:meth:`vision.colours.ColourModel.classify`, 0 at the midpoint of the two colours, 1 at its
    own): ``0.5 (1 - margin) ** 1.5``.

    Measured on every labelled real board (756 checkers, ``bench/vision_real.py``'s sets): the
    colour was wrong for 9 of 18 checkers at a margin of 0.3-0.4, 4 of 48 at 0.4-0.6, 13 of 118 at
    0.6-0.8, 2 of 170 at 0.8-0.9 and 1 of 376 above (pearl and marbled faces, glare washing a red
    checker pink, wood on wood); the reading's own confidence counted a margin over about 0.3 as
    certain.  On a rendered board the margins lie near 1 and this is about nothing."""
    m = max(0.0, min(1.0, float(margin)))
    return 0.5 * (1.0 - m) ** 1.5


def point_odds(p: PointReading, cap: float = ABSOLUTE_MAX, doubt: Optional[float] = None,
               scale: tuple[float, float] = SURE) -> dict[tuple[int, Optional[str]], float]:
    """One point's (count, colour) -> probability from its reading and confidence; ``doubt``:
    the chance its colour is the other one (:func:`colour_doubt`), when the reader measured it,
    moves that share of the count's weight to the same count of the other colour."""
    sure = min(cap, scale[0] + scale[1] * max(0.0, min(1.0, p.confidence)))
    rest = 1.0 - sure
    colour = p.colour
    out: dict[tuple[int, Optional[str]], float] = {}

    def add(n: int, c: Optional[str], w: float) -> None:
        if n < 0 or n > L.MAX_STACK:
            return
        key = (n, c if n else None)
        out[key] = out.get(key, 0.0) + w

    n = p.count
    q = min(0.5, doubt) if doubt is not None and n else 0.0
    add(p.count, colour, sure * (1.0 - q))
    if n:
        other = "light" if colour == "dark" else "dark"
        add(n, other, sure * q)
        add(n - 1, colour, rest * 0.3)
        add(n + 1, colour, rest * 0.25)
        add(n, other, rest * 0.15)
        add(n - 2, colour, rest * 0.08)
        add(n + 2, colour, rest * 0.07)
        add(0, None, rest * 0.05)
        add(n - 1, other, rest * 0.05)
        add(n + 1, other, rest * 0.05)
    else:
        for c in ("dark", "light"):
            add(1, c, rest * 0.35)
            add(2, c, rest * 0.1)
            add(3, c, rest * 0.05)
    z = sum(out.values())
    return {k: v / z for k, v in out.items()}


def bar_odds(count: int, confidence: float, cap: float = ABSOLUTE_MAX) -> dict[int, float]:
    """One bar colour's count -> probability from the absolute reading."""
    sure = min(cap, 0.35 + 0.6 * max(0.0, min(1.0, confidence)))
    rest = 1.0 - sure
    out = {count: sure}
    for n, w in ((count - 1, 0.45), (count + 1, 0.4), (count - 2, 0.08), (count + 2, 0.07)):
        if 0 <= n <= L.PER_SIDE:
            out[n] = out.get(n, 0.0) + rest * w
    z = sum(out.values())
    return {k: v / z for k, v in out.items()}


def tray_odds(dark: int, light: int) -> tuple[Alts, Alts]:
    """The borne-off checkers of each colour as the trays were read surely (:mod:`vision.trays`):
    the count at :data:`ABSOLUTE_MAX`, the rest spread over the counts one and two away as a bar's
    (:func:`bar_odds`).  Given only for a tray the table's known positions taught it to trust
    (:mod:`vision.tray_trust`)."""
    return tuple([(int(n), colour, round(float(p), 6)) for n, p in sorted(bar_odds(count, 1.0).items(),
                                                                          key=lambda kv: -kv[1])]
                 for count, colour in ((dark, "dark"), (light, "light")))  # type: ignore[return-value]


def combine(absolute: dict, learned: Optional[dict], per_point: int, tilt: float = TILT) -> dict:
    """Multiply a point's absolute odds by the learned ones (normalised).

    The absolute reading only tilts the learned odds: each (count, colour) keeps at least
    ``tilt`` of its weight (:data:`TILT` for a look learned from known frames), since on real
    boards the absolute reading is often sure and wrong (a die read as a checker, a logo as a
    stack) while the learned look is this board's.  A look the frame taught itself, from other
    points' slots, is this board's less surely (light checkers on light wood look like the bare
    wood there): :data:`SELF_TILT`, the absolute reading tilting it twice as far.  The learned
    look sees at most ``per_point`` checkers in a row: its mass on a full row is shared out over
    the taller stacks by the absolute reading."""
    if learned is None:
        return absolute
    # a learned look that tells nothing here (a point under a hand, a frame's own look misread there)
    # lists every count of either colour alike: the absolute reading tilts them all, a full row as any
    # other (its fixed share would otherwise outweigh the reading: a dark five read six, or light)
    flat = len(learned) > 1 and max(learned.values()) <= min(learned.values()) * (1 + 1e-6)
    out: dict = {}
    for key, p in learned.items():
        n, c = key
        if n == per_point and c is not None and not flat:  # a full row: the absolute reading tells how tall ...
            if max(absolute, key=absolute.__getitem__)[0] < per_point - 1:
                # ... when it saw the row: one that missed it (read it two or more short) says nothing of how
                # far past the row the stack goes, and a stack of one more is about half as likely each time
                # (the real image041, a row of five slots: a light six read five at 0.998, the absolute reading
                # saying none there, and a legal move was called illegal: bench/vision_game.py seed 6).  One
                # checker short is a row it saw: so taken, the made mode keeps 11 more true plays on unseen6 dev
                # (seeds 1-5) than when any short reading was, with the same wrong verdicts mended (session 43)
                out[key] = out.get(key, 0.0) + p * FULL_ROW
                more = {(k, c): 0.5 ** (k - per_point) for k in range(per_point + 1, L.PER_SIDE + 1)}
                zm = sum(more.values())
                for k, v in more.items():
                    out[k] = out.get(k, 0.0) + p * (1 - FULL_ROW) * v / zm
                continue
            tall = {k: v for k, v in absolute.items() if k[1] == c and k[0] >= per_point}
            zt = sum(tall.values())
            if zt > 0:
                # ... though players line up a whole row, which it may read as a taller stack
                out[key] = out.get(key, 0.0) + p * FULL_ROW
                for k, v in tall.items():
                    out[k] = out.get(k, 0.0) + p * (1 - FULL_ROW) * v / zt * min(1.0, zt * 4)
                continue
        out[key] = out.get(key, 0.0) + p * max(absolute.get(key, 0.0), tilt)
    z = sum(out.values())
    if z <= 0:
        return absolute
    return {k: v / z for k, v in out.items() if v / z > MIN_P}


def _alts(d: dict, limit: int = 6) -> Alts:
    """The ``limit`` likeliest (count, colour, probability) of odds ``d``, the likeliest first."""
    items = sorted(d.items(), key=lambda kv: -kv[1])[:limit]
    return [(int(k[0]), k[1], round(float(v), 6)) for k, v in items]


@functools.lru_cache(maxsize=4096)
def _absolute_alts(count: int, colour: Optional[str], confidence: float,
                   kind: str, doubt: Optional[float] = None) -> tuple[tuple[int, Optional[str], float], ...]:
    """:func:`_alts` of a point's absolute odds alone (kept: a still board's points read the
    same every frame; ``kind``, the confidence's type name, keeps a numpy float's arithmetic apart)."""
    return tuple(_alts(point_odds(PointReading(count, colour, confidence), doubt=doubt)))


def colour_blind(odds: dict) -> dict:
    """Odds that tell a point's count only: each count's weight shared equally by the two colours."""
    out: dict = {}
    for (n, c), p in odds.items():
        if n and c is not None:
            for cc in ("dark", "light"):
                out[(n, cc)] = out.get((n, cc), 0.0) + p / 2
        else:
            out[(n, c)] = out.get((n, c), 0.0) + p
    return out


#: a point the picture does not show: every count of either colour alike (the most a point holds: 15)
UNSEEN: Alts = [(0, None, round(1 / 31, 6))] + [(n, c, round(1 / 31, 6))
                                                for c in ("dark", "light") for n in range(1, L.PER_SIDE + 1)]


def row_odds(rows: L.RowReading, learned: Optional[tuple[list[Alts], list[list[float]], float]] = None,
             per_point: int = 6, tilt: float = TILT, doubts: Optional[Sequence[Optional[float]]] = None,
             blind: Optional[Sequence[bool]] = None, bar_share: float = BAR_SHARE,
             bar_confidence: Optional[float] = None, unseen: Optional[Sequence[bool]] = None) -> list[Alts]:
    """The 26 locations' odds by image rows (24 points top then bottom, bar dark, bar light);
    ``tilt``: how far the absolute reading tilts the learned odds (:func:`combine`); ``doubts``:
    per point (image rows) the chance its colour is the other one (:func:`colour_doubt`), None
    where not measured; ``blind``: per point whether the learned look tells its count only (its
    odds for the two colours of each count made equal, :func:`colour_blind`); ``bar_share``: the
    learned look's share of the bar's odds; ``bar_confidence``: the bar count's own confidence
    (:attr:`vision.assemble.Assembled.bar_confidence`), else the board's; ``unseen``: per point whether
    the picture leaves out part of it (:func:`vision.rectify.points_out_of_picture`): such a point's odds
    tell nothing (every count of either colour alike).  The bar is read apart
    from the points, and a board made unsure by one point (a die, a pearl face) says nothing of
    it: on every labelled real board (37 bars) the bar's own confidence was 1.0 on 27, 26 of them
    right (test12's three light bar checkers read one), and the board's below 0.2 on 17, all right."""
    out: list[Alts] = []
    for i, p in enumerate(list(rows.top) + list(rows.bottom)):
        if unseen is not None and unseen[i]:
            out.append(list(UNSEEN))
            continue
        doubt = doubts[i] if doubts is not None else None
        doubt = None if doubt is None else round(float(doubt), 4)
        if learned is None:
            out.append(list(_absolute_alts(p.count, p.colour, p.confidence, type(p.confidence).__name__, doubt)))
            continue
        le = {(n, c): pr for n, c, pr in learned[0][i]}
        if blind is not None and blind[i]:
            le = colour_blind(le)
        # as many alternatives as the learned look lists (a self-taught point that tells nothing
        # lists every count of either colour: the absolute reading must not cut it to its six)
        out.append(_alts(combine(point_odds(p, doubt=doubt), le, per_point, tilt), max(6, len(le))))
    for k, colour in enumerate(("dark", "light")):
        ab_bar = bar_odds(rows.bar[k], rows.confidence if bar_confidence is None else bar_confidence)
        if learned is not None:
            # the learned look tells whether the bar changed from its empty look (hinges and
            # fittings included) and how much of it a colour covers; the reader adds a little
            lb = learned[1][k]
            mixed = {n: bar_share * lb[n] + (1 - bar_share) * ab_bar.get(n, 0.0) for n in range(len(lb))}
            mixed.update({n: (1 - bar_share) * v for n, v in ab_bar.items() if n >= len(lb)})
            z = sum(mixed.values())
            ab_bar = {n: v / z for n, v in mixed.items() if v / z > MIN_P}
        out.append([(int(n), colour, round(float(v), 6)) for n, v in sorted(ab_bar.items(), key=lambda kv: -kv[1])[:6]])
    return out


def to_table(odds: Sequence[Alts], setup: L.SetUp) -> tuple[tuple[tuple[int, Optional[str], float], ...], ...]:
    """Odds by image rows to table numbering (points 1..24, bar dark, bar light)."""
    pts = []
    for point in range(1, 25):
        row, col = setup.slot(point)
        pts.append(tuple(odds[(0 if row == "top" else 12) + col]))
    return tuple(pts) + (tuple(odds[24]), tuple(odds[25]))


def most_likely(odds: Sequence[Alts]) -> tuple[list[PointReading], tuple[int, int]]:
    """The most likely reading of row odds: 24 points (rows) and the bar."""
    pts = []
    for alts in odds[:24]:
        n, c, p = alts[0]
        pts.append(PointReading(n, c, p))
    return pts, (odds[24][0][0], odds[25][0][0])
