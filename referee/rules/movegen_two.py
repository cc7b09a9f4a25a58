"""The move generator for two different dice (see :mod:`referee.rules.movegen`).

:func:`_two_dice` walks the occupied sources, the larger die first; with nothing on the bar
and no bear-off possible :func:`_two_dice_no_bar` skips the only duplicates by rule (one
checker moving a+b, reached four ways); with a checker on the bar :func:`_two_dice_bar`.
"""
from __future__ import annotations

from itertools import compress
from typing import Sequence, Union

from referee.rules.movekeys import _BLOT, _DESC, _HIT, _MK, _OPEN, _ST, Path, Results, key_of

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
