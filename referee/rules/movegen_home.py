"""The move generator for doubles with every checker home: bearing off, as four unrolled
loops (see :mod:`referee.rules.movegen` and :mod:`referee.rules.movegen_doubles`)."""
from __future__ import annotations

from referee.rules.movekeys import _HIT, _MK, _ST, Path, Results

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
