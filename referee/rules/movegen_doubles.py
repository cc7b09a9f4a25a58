"""The move generator for doubles (see :mod:`referee.rules.movegen`).

Moving checkers in non-increasing order of source point visits every multiset of steps
once, so no result is deduplicated.  :func:`_doubles` handles the bar and the mixed cases
by a recursion; nothing on the bar after the entries and no bear-off possible runs as
four unrolled loops (:func:`_doubles_free`); every checker home is
:func:`referee.rules.movegen_home._doubles_home`.
"""
from __future__ import annotations

from itertools import compress

from referee.rules.movekeys import _DESC, _HIT, _MK, _OPEN, _ST, Path, Results, key_of
from referee.rules.movegen_home import _doubles_home

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
