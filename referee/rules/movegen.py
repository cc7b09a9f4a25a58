"""The legal-move generator's inner loop: raw results for a position and a roll.

:func:`generate` returns two parallel lists (the result's key, the steps
played), one entry per distinct resulting position, already filtered by the
maximum-usage rule (RULES.md sections 3-5).  A result key is the position after
the play packed in one int, a byte per count (:func:`key_of`: the mover's 25
counts, then the opponent's; :func:`sides_of` unpacks it): a step changes it by
one precomputed addition, so a result costs an add and two appends, and nothing
is built until asked.  :mod:`referee.rules.moves` turns them into ``LegalPlay`` values
(and compares keys where it only needs to find a result); nothing here is public.
Which step sequence stands for a result (and so its notation) is the first one
a search of the larger die first, sources highest first, meets.

Why it is fast enough in pure Python:

* Doubles need no deduplication: moving checkers in non-increasing order of
  source point visits every multiset of (source, die) steps exactly once, and
  distinct multisets give distinct results (the net change of a side,
  read from the highest point down, recovers the multiset), so every leaf of
  the search is a new result.  The common cases (nothing on the bar after the
  entries, and no bear-off possible; or every checker home) run as four
  unrolled loops over the few points that can be sources this turn
  (:func:`_doubles_free`, :func:`_doubles_home`); the rest use a recursion.
* Two different dice with nothing on the bar and no bear-off possible
  (:func:`_two_dice_no_bar`): every order of legal steps stays legal, so the
  only duplicates (one checker moving a+b, reached four ways) are skipped by
  rule.  Other two-dice positions (bar, bear-off) walk only occupied sources
  and deduplicate by the result keys, from precomputed per-step deltas.
* Steps are interned: one ``Step`` per (source, die, hit), built at import.
"""
from __future__ import annotations

from itertools import compress
from typing import Sequence, Union

from referee.rules.notation import OFF_POINT, Step

Path = tuple[Step, ...]  # the steps of one play
Results = tuple[list[int], list[Path]]  # (keys, paths), parallel

_W = tuple(1 << (8 * i) for i in range(25))            # my side's key fields (a byte each)
_WO = tuple(1 << (200 + 8 * i) for i in range(25))     # the opponent's key fields
_DESC = tuple(range(23, -1, -1))
_OPEN = bytes(1 if n < 2 else 0 for n in range(256))  # opponent count -> landing open
_BLOT = bytes(1 if n == 1 else 0 for n in range(256))  # opponent count -> a blot to hit
_HIT = tuple(_WO[24] - _WO[23 - t] for t in range(24))  # key delta of hitting on my point t


def key_of(me: Sequence[int], opp: Sequence[int]) -> int:
    """The result key of a position: byte i is ``me[i]``, byte 25 + i is ``opp[i]``."""
    return int.from_bytes(bytes(me) + bytes(opp), "little")


def sides_of(key: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(me, opp) back from a result key (the inverse of :func:`key_of`)."""
    b = key.to_bytes(50, "little")
    return tuple(b[:25]), tuple(b[25:])


def _move_key(s: int, d: int) -> int:
    t = s - d
    return (_W[t] if t >= 0 else 0) - _W[s]


# _MK[d][s]: key delta of moving a checker from index s by d (without the hit)
_MK = tuple(tuple(_move_key(s, d) for s in range(25)) if d else () for d in range(7))
# _ST[d][2*s + hit]: the interned Step for moving from index s by d
_ST = tuple(
    tuple(Step(s + 1, s - d + 1 if s - d >= 0 else OFF_POINT, bool(h) and s - d >= 0)
          for s in range(25) for h in (0, 1)) if d else ()
    for d in range(7))


def generate(me0: tuple[int, ...], opp0: tuple[int, ...], d1: int, d2: int) -> Results:
    """(keys, paths) for every distinct result of playing ``d1-d2`` (d1 >= d2):
    the result's key (:func:`key_of`, the mover's side still first) and the steps.

    Both lists are empty when no checker can move.
    """
    if d1 == d2:
        return _doubles(me0, opp0, d1)
    return _two_dice(me0, opp0, d1, d2)


# ---------------------------------------------------------------------------- two different dice


def _two_dice(me0: tuple[int, ...], opp0: tuple[int, ...], a: int, b: int) -> Results:
    # open_[t]: my point index t is not held by the opponent (blocking never changes in a turn)
    open_ = bytes(opp0[23::-1]).translate(_OPEN)
    key0 = key_of(me0, opp0)
    if me0[24] >= 2:
        return _two_dice_bar(me0, opp0, a, b, open_, key0)
    occupied = list(compress(_DESC, me0[23::-1]))
    outside0 = sum(me0[6:25])
    if outside0 >= 2 and not me0[24]:
        found = _two_dice_no_bar(me0, opp0, a, b, open_, occupied, key0)
        if found[0]:
            return found
    me = list(me0)
    opp = list(opp0)
    keys: list[int] = []
    paths: list[Path] = []
    # occupied sources whose landing point is open (or off the board), per die
    occ = {}
    for d in (a, b):
        occ[d] = [s for s in occupied if s < d or open_[s - d]]
    seen: set[int] = set()
    add = seen.add
    single_a: list[tuple[int, int, int]] = []  # (s, t, hit) first moves with no second move, per die
    single_b: list[tuple[int, int, int]] = []
    two = False
    MK, HIT = _MK, _HIT
    for x, y in ((a, b), (b, a)):
        MKx, MKy, STx, STy = MK[x], MK[y], _ST[x], _ST[y]
        occ_y = occ[y]
        first = (24,) if me0[24] else occ[x]
        for s1 in first:
            t1 = s1 - x
            if s1 == 24:
                if not open_[t1]:
                    continue
            elif t1 < 0 and (outside0 or (t1 < -1 and any(me[s1 + 1:6]))):
                continue
            # play the first step in place
            me[s1] -= 1
            key1 = key0 + MKx[s1]
            hit1 = False
            if t1 >= 0:
                me[t1] += 1
                if opp[23 - t1] == 1:
                    hit1 = True
                    opp[23 - t1] = 0
                    opp[24] += 1
                    key1 += HIT[t1]
            outside = outside0 - (s1 >= 6 and t1 < 6)
            step1 = STx[2 * s1 + hit1]
            moved = False
            second: Sequence[int]
            if me[24]:
                second = (24,)
            elif t1 >= 0 and not me0[t1] and (t1 < y or open_[t1 - y]):
                second = occ_y + [t1]
            else:
                second = occ_y
            for s2 in second:
                if not me[s2]:
                    continue
                t2 = s2 - y
                if t2 < 0:
                    if outside or (t2 < -1 and any(me[s2 + 1:6])):
                        continue
                    key = key1 + MKy[s2]
                    hit2 = False
                elif s2 == 24 and not open_[t2]:
                    continue
                elif opp[23 - t2] == 1:
                    key = key1 + MKy[s2] + HIT[t2]
                    hit2 = True
                else:
                    key = key1 + MKy[s2]
                    hit2 = False
                moved = True
                if key in seen:
                    continue
                add(key)
                keys.append(key)
                paths.append((step1, STy[2 * s2 + hit2]))
            if moved:
                two = True
            elif not two:
                (single_a if x == a else single_b).append((s1, t1, hit1))
            # undo the first step
            me[s1] += 1
            if t1 >= 0:
                me[t1] -= 1
                if hit1:
                    opp[23 - t1] = 1
                    opp[24] -= 1
    if two:
        return keys, paths
    # only one die can be played: the larger one if it can
    singles, d = (single_a, a) if single_a else (single_b, b)
    ST, MKd = _ST[d], MK[d]
    for s, t, hit in singles:
        keys.append(key0 + MKd[s] + HIT[t] if hit else key0 + MKd[s])
        paths.append((ST[2 * s + hit],))
    return keys, paths


def _two_dice_no_bar(me0: tuple[int, ...], opp0: tuple[int, ...], a: int, b: int,
                     open_: bytes, occupied: list[int], key0: int) -> Results:
    """Two dice, nothing on the bar and no bear-off possible (two or more checkers
    outside): every order of legal steps stays legal, so duplicates are known in
    advance and need no keys.  A result ``s -> s-a-b`` can be reached four ways
    (one checker via s-a or via s-b, or two checkers when s-a or s-b is mine);
    the representative kept is the first the a-then-b search meets, as before.
    Returns empty lists when both dice cannot be played together."""
    keys: list[int] = []
    paths: list[Path] = []
    STa, STb = _ST[a], _ST[b]
    STbn, STbh = STb[0::2], STb[1::2]  # by source: without and with a hit
    MKa, MKb, HIT = _MK[a], _MK[b], _HIT
    blot = bytes(opp0[23::-1]).translate(_BLOT)  # blot[t]: an opponent blot on my point t
    A = [s for s in occupied if s >= a and open_[s - a]]
    B = [s for s in occupied if s >= b and open_[s - b]]
    if not A or not B:
        return keys, paths
    for s1 in A:
        t1 = s1 - a
        h1 = blot[t1]
        k1 = key0 + MKa[s1] + HIT[t1] if h1 else key0 + MKa[s1]
        step1 = STa[2 * s1 + h1]
        second = B
        if not me0[t1] and t1 >= b and open_[t1 - b]:
            second = B + [t1]
        gone = s1 if me0[s1] == 1 else -1  # the only checker there has moved
        # s1+b -> s1 (then s1 -> t1) is the same as s1+b -> s1+b-a -> t1, met
        # earlier, when no opponent checker is on s1+b-a
        same = s1 + b if not opp0[23 - (s1 + b - a)] else -1
        blot1: Union[bytes, bytearray] = blot
        if h1:
            blot1 = bytearray(blot)
            blot1[t1] = 0
        for s2 in second:
            if s2 == gone or s2 == same:
                continue
            t2 = s2 - b
            if blot1[t2]:
                keys.append(k1 + MKb[s2] + HIT[t2])
                paths.append((step1, STbh[s2]))
            else:
                keys.append(k1 + MKb[s2])
                paths.append((step1, STbn[s2]))
    # one checker moved b first through a point that is not mine
    for s in B:
        t = s - b
        if me0[t] or t < a or not open_[t - a]:
            continue
        u = t - a
        if open_[s - a] and opp0[23 - (s - a)] == 0 and opp0[23 - t] == 0:
            continue  # the same as s -> s-a -> u, met earlier
        h, hu = blot[t], blot[u]
        k = key0 + MKb[s] + MKa[t]
        if h:
            k += HIT[t]
        if hu:
            k += HIT[u]
        keys.append(k)
        paths.append((STb[2 * s + h], STa[2 * t + hu]))
    return keys, paths


def _two_dice_bar(me0: tuple[int, ...], opp0: tuple[int, ...], a: int, b: int, open_: bytes,
                  key0: int) -> Results:
    """Two or more checkers on the bar: each die can only enter one."""
    steps = []
    key = key0
    for d in (a, b):  # two different entry points: one entry cannot change the other
        t = 24 - d
        if not open_[t]:
            continue
        key += _MK[d][24]
        hit = opp0[23 - t] == 1
        if hit:
            key += _HIT[t]
        steps.append(_ST[d][48 + hit])
    if not steps:
        return [], []
    return [key], [tuple(steps)]


# ---------------------------------------------------------------------------- doubles


def _doubles(me0: tuple[int, ...], opp0: tuple[int, ...], d: int) -> Results:
    me = list(me0)
    opp = list(opp0)
    ST = _ST[d]
    MKd = _MK[d]
    HIT = _HIT
    prefix: Path = ()
    left = 4
    # checkers on the bar enter first; each entry is the same forced step
    if me[24]:
        t = 24 - d
        if opp[23 - t] >= 2:
            return [], []
        while me[24] and left:
            me[24] -= 1
            me[t] += 1
            hit = opp[23 - t] == 1
            if hit:
                opp[23 - t] = 0
                opp[24] += 1
            prefix += (ST[48 + hit],)
            left -= 1
        if me[24] or not left:
            return [key_of(me, opp)], [prefix]
    key0 = key_of(me, opp)
    open_ = bytes(opp[23::-1]).translate(_OPEN)
    outside = sum(me[6:25])
    # the points that can be sources this turn (occupied now, or reached on the
    # way), highest first, with their landing index; bearing off is only
    # possible when enough checkers can come home first
    can_bear_off = outside < left
    reach = bytearray(24)
    for s in compress(_DESC, me[23::-1]):
        for _ in range(left):
            if s >= d:
                if not open_[s - d]:
                    break
            elif not can_bear_off:
                break
            reach[s] = 1
            s -= d
            if s < 0:
                break
    pts = list(compress(_DESC, reach[::-1]))
    if left >= 2 and not can_bear_off:
        found = _doubles_free(me, opp, d, pts, left, prefix, key0)
        if found[0]:
            return found
    elif left == 4 and not outside:
        found = _doubles_home(me, opp, d, pts, key0)
        if found[0]:
            return found
    n = len(pts)
    keys: list[int] = []
    paths: list[Path] = []
    best = [0]      # the most steps of a dead end found so far
    dead: list[tuple[int, Path]] = []  # (key, path) of sequences that stop early

    def last(i0: int, path: Path, key: int) -> bool:
        """The last step from pts[i0:]: every legal one is a new result."""
        moved = False
        for i in range(i0, n):
            s = pts[i]
            if not me[s]:
                continue
            t = s - d
            if t < 0 and (outside or (t < -1 and any(me[s + 1:6]))):
                continue
            moved = True
            if t >= 0 and opp[23 - t] == 1:
                keys.append(key + MKd[s] + HIT[t])
                paths.append(path + (ST[2 * s + 1],))
            else:
                keys.append(key + MKd[s])
                paths.append(path + (ST[2 * s],))
        return moved

    def rec(left: int, i0: int, path: Path, key: int) -> None:
        """Play ``left`` (>= 2) more steps from pts[i0:]; leaves are new results."""
        nonlocal outside
        moved = False
        for i in range(i0, n):
            s = pts[i]
            if not me[s]:
                continue
            t = s - d
            if t < 0:
                if outside or (t < -1 and any(me[s + 1:6])):
                    continue
                moved = True
                me[s] -= 1
                k = key + MKd[s]
                if left == 2:
                    if not last(i, path + (ST[2 * s],), k):
                        dead_end(path + (ST[2 * s],))
                else:
                    rec(left - 1, i, path + (ST[2 * s],), k)
                me[s] += 1
                continue
            moved = True
            me[s] -= 1
            me[t] += 1
            crossed = s >= 6 and t < 6
            if crossed:
                outside -= 1
            o = 23 - t
            hit = opp[o] == 1
            if hit:
                opp[o] = 0
                opp[24] += 1
                k = key + MKd[s] + HIT[t]
            else:
                k = key + MKd[s]
            step_path = path + (ST[2 * s + hit],)
            if left != 2:
                rec(left - 1, i, step_path, k)
            else:
                # the last step, inlined: this loop makes most of the results
                moved2 = False
                for j in range(i, n):
                    s2 = pts[j]
                    if not me[s2]:
                        continue
                    t2 = s2 - d
                    if t2 < 0:
                        if outside or (t2 < -1 and any(me[s2 + 1:6])):
                            continue
                    elif opp[23 - t2] == 1:
                        moved2 = True
                        keys.append(k + MKd[s2] + HIT[t2])
                        paths.append(step_path + (ST[2 * s2 + 1],))
                        continue
                    moved2 = True
                    keys.append(k + MKd[s2])
                    paths.append(step_path + (ST[2 * s2],))
                if not moved2:
                    dead_end(step_path)
            if hit:
                opp[o] = 1
                opp[24] -= 1
            me[s] += 1
            me[t] -= 1
            if crossed:
                outside += 1
        if not moved:
            dead_end(path)

    def dead_end(path: Path) -> None:
        """No step possible here: a shorter play, kept only if nothing longer exists."""
        if not keys:
            depth = len(path)
            if depth > best[0]:
                best[0] = depth
                dead.clear()
            if depth == best[0]:
                dead.append((key_of(me, opp), path))

    if left == 1:
        if not last(0, prefix, key0):
            dead_end(prefix)
    else:
        rec(left, 0, prefix, key0)
    if keys:
        return keys, paths
    if not dead or not dead[0][1]:
        return [], []
    return [x[0] for x in dead], [x[1] for x in dead]


def _doubles_free(me: list[int], opp: list[int], d: int, pts: list[int], left: int, prefix: Path,
                  key0: int) -> Results:
    """``left`` (2-4) steps of ``d`` after the bar entries ``prefix``, nothing left
    on the bar and no bear-off possible: the search of :func:`_doubles` unrolled
    into four loops over ``pts`` (source points with an open landing, highest
    first); the outer loops make one pass without a step when fewer than four
    steps are left.  Empty lists when no such play exists (the caller then looks
    for shorter ones).  ``me`` and ``opp`` are changed in place and restored;
    ``key0`` is their key."""
    keys: list[int] = []
    paths: list[Path] = []
    STn = _ST[d][0::2]  # by source: the step without a hit
    STh = _ST[d][1::2]  # and with one
    MKd, HIT = _MK[d], _HIT
    MKh = tuple(MKd[s] + HIT[s - d] if s >= d else 0 for s in range(25))  # a step that hits
    n = len(pts)
    skip = (-1,)  # one pass of a loop that plays no step
    for i1 in range(n) if left == 4 else skip:
        if i1 < 0:
            i1, p1, k1 = 0, prefix, key0
        else:
            s1 = pts[i1]
            if not me[s1]:
                continue
            t1 = s1 - d
            o1 = 23 - t1
            me[s1] -= 1
            me[t1] += 1
            h1 = opp[o1] == 1
            if h1:
                opp[o1] = 0
                opp[24] += 1
                p1 = prefix + (STh[s1],)
                k1 = key0 + MKh[s1]
            else:
                p1 = prefix + (STn[s1],)
                k1 = key0 + MKd[s1]
        for i2 in range(i1, n) if left >= 3 else skip:
            if i2 < 0:
                i2, p2, k2 = i1, p1, k1
            else:
                s2 = pts[i2]
                if not me[s2]:
                    continue
                t2 = s2 - d
                o2 = 23 - t2
                me[s2] -= 1
                me[t2] += 1
                h2 = opp[o2] == 1
                if h2:
                    opp[o2] = 0
                    opp[24] += 1
                    p2 = p1 + (STh[s2],)
                    k2 = k1 + MKh[s2]
                else:
                    p2 = p1 + (STn[s2],)
                    k2 = k1 + MKd[s2]
            for i3 in range(i2, n):
                s3 = pts[i3]
                if not me[s3]:
                    continue
                t3 = s3 - d
                o3 = 23 - t3
                me[s3] -= 1
                me[t3] += 1
                h3 = opp[o3] == 1
                if h3:
                    opp[o3] = 0
                    opp[24] += 1
                    p3 = p2 + (STh[s3],)
                    k3 = k2 + MKh[s3]
                else:
                    p3 = p2 + (STn[s3],)
                    k3 = k2 + MKd[s3]
                for s4 in pts[i3:]:
                    if not me[s4]:
                        continue
                    if opp[23 - s4 + d] == 1:
                        keys.append(k3 + MKh[s4])
                        paths.append(p3 + (STh[s4],))
                    else:
                        keys.append(k3 + MKd[s4])
                        paths.append(p3 + (STn[s4],))
                me[s3] += 1
                me[t3] -= 1
                if h3:
                    opp[o3] = 1
                    opp[24] -= 1
            if left >= 3:
                me[s2] += 1
                me[t2] -= 1
                if h2:
                    opp[o2] = 1
                    opp[24] -= 1
        if left == 4:
            me[s1] += 1
            me[t1] -= 1
            if h1:
                opp[o1] = 1
                opp[24] -= 1
    return keys, paths


def _doubles_home(me: list[int], opp: list[int], d: int, pts: list[int], key0: int) -> Results:
    """Four steps of ``d`` with every checker in the home board (bearing off
    allowed throughout): :func:`_doubles_free` with the bear-off branch.  Empty
    lists when no four-step play exists.  ``me`` and ``opp`` are restored."""
    keys: list[int] = []
    paths: list[Path] = []
    STn = _ST[d][0::2]
    STh = _ST[d][1::2]
    MKd, HIT = _MK[d], _HIT
    n = len(pts)
    for i1 in range(n):
        s1 = pts[i1]
        if not me[s1]:
            continue
        t1 = s1 - d
        h1 = False
        if t1 < 0:
            if t1 < -1 and any(me[s1 + 1:6]):
                continue
            me[s1] -= 1
            p1 = (STn[s1],)
            k1 = key0 + MKd[s1]
        else:
            o1 = 23 - t1
            me[s1] -= 1
            me[t1] += 1
            h1 = opp[o1] == 1
            if h1:
                opp[o1] = 0
                opp[24] += 1
                p1 = (STh[s1],)
                k1 = key0 + MKd[s1] + HIT[t1]
            else:
                p1 = (STn[s1],)
                k1 = key0 + MKd[s1]
        for i2 in range(i1, n):
            s2 = pts[i2]
            if not me[s2]:
                continue
            t2 = s2 - d
            h2 = False
            if t2 < 0:
                if t2 < -1 and any(me[s2 + 1:6]):
                    continue
                me[s2] -= 1
                p2 = p1 + (STn[s2],)
                k2 = k1 + MKd[s2]
            else:
                o2 = 23 - t2
                me[s2] -= 1
                me[t2] += 1
                h2 = opp[o2] == 1
                if h2:
                    opp[o2] = 0
                    opp[24] += 1
                    p2 = p1 + (STh[s2],)
                    k2 = k1 + MKd[s2] + HIT[t2]
                else:
                    p2 = p1 + (STn[s2],)
                    k2 = k1 + MKd[s2]
            for i3 in range(i2, n):
                s3 = pts[i3]
                if not me[s3]:
                    continue
                t3 = s3 - d
                h3 = False
                if t3 < 0:
                    if t3 < -1 and any(me[s3 + 1:6]):
                        continue
                    me[s3] -= 1
                    p3 = p2 + (STn[s3],)
                    k3 = k2 + MKd[s3]
                else:
                    o3 = 23 - t3
                    me[s3] -= 1
                    me[t3] += 1
                    h3 = opp[o3] == 1
                    if h3:
                        opp[o3] = 0
                        opp[24] += 1
                        p3 = p2 + (STh[s3],)
                        k3 = k2 + MKd[s3] + HIT[t3]
                    else:
                        p3 = p2 + (STn[s3],)
                        k3 = k2 + MKd[s3]
                for s4 in pts[i3:]:
                    if not me[s4]:
                        continue
                    t4 = s4 - d
                    if t4 < 0:
                        if t4 < -1 and any(me[s4 + 1:6]):
                            continue
                    elif opp[23 - t4] == 1:
                        keys.append(k3 + MKd[s4] + HIT[t4])
                        paths.append(p3 + (STh[s4],))
                        continue
                    keys.append(k3 + MKd[s4])
                    paths.append(p3 + (STn[s4],))
                me[s3] += 1
                if t3 >= 0:
                    me[t3] -= 1
                    if h3:
                        opp[o3] = 1
                        opp[24] -= 1
            me[s2] += 1
            if t2 >= 0:
                me[t2] -= 1
                if h2:
                    opp[o2] = 1
                    opp[24] -= 1
        me[s1] += 1
        if t1 >= 0:
            me[t1] -= 1
            if h1:
                opp[o1] = 1
                opp[24] -= 1
    return keys, paths
