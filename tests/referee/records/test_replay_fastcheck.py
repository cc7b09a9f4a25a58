"""The fast die-by-die path agrees with the full matcher on every real play, and never
accepts a play the matcher rejects."""
from __future__ import annotations

import gzip
import json
import random

import pytest

from referee.errors import IllegalPlay, NotationError
from referee.rules.fastcheck import fast_play
from referee.rules.moves import legal_plays, match_play
from referee.rules.notation import parse_play, steps_from_pairs
from referee.rules.position import Position


@pytest.fixture(scope="module")
def real_plays(matches_dir):
    with gzip.open(matches_dir / "plays.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if '"action": "move"' in line]


def test_fast_path_agrees_with_match_play_on_all_real_plays(real_plays):
    assert len(real_plays) > 45000
    fast = 0
    for d in real_plays:
        pos = Position.from_position_id(d["position_id"])
        d1, d2 = d["dice"]
        written = steps_from_pairs(d["played"])
        slow = match_play(pos, d1, d2, written)
        lp = fast_play(pos, d1, d2, written)
        assert slow.result.swap().position_id() == d["played_position_id"]
        if lp is not None:
            fast += 1
            assert lp.result == slow.result, d
            # the steps it returns use the whole roll, or none when no checker can move
            if d["played"]:
                assert len(lp.play.steps) == (4 if d1 == d2 else 2)
            else:
                assert not legal_plays(pos, d1, d2) and lp.play == slow.play
    assert fast > 0.8 * len(real_plays)  # most plays never need the generator


def test_fast_path_never_accepts_an_illegal_play(real_plays):
    rng = random.Random(7)
    sample = rng.sample(real_plays, 1500)
    checked = 0
    for d in sample:
        pos = Position.from_position_id(d["position_id"])
        d1, d2 = d["dice"]
        # perturb one step of the real play: another source point or distance
        pairs = [list(p) for p in d["played"]]
        if not pairs:
            continue
        k = rng.randrange(len(pairs))
        src, dst = pairs[k]
        delta = rng.choice([-2, -1, 1, 2])
        pairs[k] = [src, max(0, min(24, dst + delta))] if rng.random() < 0.5 else [max(1, min(25, src + delta)), dst]
        if pairs[k][0] <= pairs[k][1]:
            continue
        written = steps_from_pairs(pairs)
        lp = fast_play(pos, d1, d2, written)
        if lp is None:
            continue
        checked += 1
        assert lp.result in {x.result for x in legal_plays(pos, d1, d2)}, (d, pairs)
        assert match_play(pos, d1, d2, written).result == lp.result
    assert checked > 50


@pytest.mark.parametrize("text, dice, pid", [
    ("24/13", (6, 5), None),          # one checker, both dice
    ("13/5(2)", (4, 4), None),        # doubles with repeats
    ("24/18*/13", (6, 5), None),
    ("bar/22 6/off", (3, 6), "/38AAADg/wcAQA"),
])
def test_notation_variants(text, dice, pid):
    pos = Position.from_position_id(pid) if pid else Position.start()
    written = parse_play(text)
    try:
        slow = match_play(pos, dice[0], dice[1], written)
    except (IllegalPlay, NotationError):
        assert fast_play(pos, dice[0], dice[1], written) is None
        return
    lp = fast_play(pos, dice[0], dice[1], written)
    assert lp is None or lp.result == slow.result


def test_an_empty_play_is_settled_only_when_no_checker_can_move():
    closed = Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    lp = fast_play(closed, 6, 5, parse_play("Cannot Move"))
    assert lp is not None and lp.play.steps == () and lp.result == closed.swap()
    assert fast_play(Position.start(), 6, 5, parse_play("Cannot Move")) is None


def test_one_die_segments_agree_with_the_search_with_hits_and_the_bar():
    pos = Position.from_points({25: 1, 13: 5, 8: 3, 6: 5, 24: 1}, {18: 1, 6: 4, 8: 3, 13: 5, 23: 2})
    lp = fast_play(pos, 4, 1, parse_play("bar/21 8/7*"))
    assert lp is not None and [tuple(s) for s in lp.play.steps] == [(25, 21, False), (8, 7, True)]
    assert lp.result == match_play(pos, 4, 1, parse_play("bar/21 8/7*")).result
    assert fast_play(pos, 4, 1, parse_play("8/7* bar/21")) is None  # the bar first


@pytest.mark.parametrize("text, dice", [("6/off 5/off", (6, 5)), ("5/off 4/off", (6, 5)), ("4/off 4/2", (4, 2))])
def test_bear_offs_one_die_each_agree_with_the_matcher(text, dice):
    pos = Position.from_points({6: 1, 5: 2, 4: 3, 2: 2}, {24: 2, 13: 5, 8: 3, 6: 5})
    if text.startswith("5/off"):
        pos = Position.from_points({5: 1, 4: 3, 2: 2}, {24: 2, 13: 5, 8: 3, 6: 5})  # 4/off needs the 6 or the 5
    lp = fast_play(pos, dice[0], dice[1], parse_play(text))
    slow = match_play(pos, dice[0], dice[1], parse_play(text))
    assert lp is not None and lp.result == slow.result and sorted(lp.play.steps) == sorted(slow.play.steps)


def test_intermediate_hit_is_left_to_the_matcher():
    # 6-5 from 24 with an opposing blot on the 18 point: '24/13' must not silently hit
    pos = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {7: 1, 6: 4, 8: 3, 13: 5, 24: 2})
    written = parse_play("24/13")
    lp = fast_play(pos, 6, 5, written)
    assert lp is None or not any(st.hit for st in lp.play.steps)


def test_a_route_by_roll_gives_what_the_search_gives(real_plays):
    # the plays whose segments are not one die each (24/13, 13/7(2) with 3-3, 6/off with a 4...):
    # the route fixed by the dice alone gives the search's steps, or leaves the play to it
    from referee.rules import fastcheck

    routed = 0
    for d in real_plays:
        if not d["played"]:
            continue
        pos = Position.from_position_id(d["position_id"])
        written = steps_from_pairs(d["played"])
        segs, dists = fastcheck._plan(written)[:2]
        for d1, d2 in (d["dice"], d["dice"][::-1]):
            if dists == fastcheck._DICE[d1][d2]:
                continue
            orders = ((d1,) * 4,) if d1 == d2 else ((d1, d2), (d2, d1))
            assert fast_play(pos, d1, d2, written) == fastcheck._search(pos, segs, orders), d
            routed += 1
    assert routed > 5000


def test_a_route_through_a_blot_the_text_does_not_name_is_left_to_the_search():
    # 3-3: 13/7(2) passes the 10 point; an opposing blot there is hit only if the text says so
    pos = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {15: 1, 6: 4, 8: 3, 13: 4, 24: 2})
    lp = fast_play(pos, 3, 3, parse_play("13/7(2)"))
    assert lp is None or not any(st.hit for st in lp.play.steps)
    hit = fast_play(pos, 3, 3, parse_play("13/10*/7 13/7"))
    assert hit is not None and hit.result == match_play(pos, 3, 3, parse_play("13/10*/7 13/7")).result
    assert [tuple(s) for s in hit.play.steps if s.hit] == [(13, 10, True)]
