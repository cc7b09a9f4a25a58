"""Whole games through the referee as event streams: real match files, random legal games,
and random games with injected faults (cocked dice, early rolls, illegal moves accepted and
corrected, unreadable and impossible readings).

The real-match test drives every game of every file (about 20 s on one core); set
``BGTABLE_MATCH_SAMPLE=N`` to drive a seeded sample of N files instead.
"""
from __future__ import annotations

import os
import random
from typing import Any

import pytest

from referee.events import BoardEvidence, DiceLifted, HandOverBoard, PointReading
from referee.rules.moves import legal_plays, results
from referee.rules.position import Position
from referee.turn.referee import Referee
from referee.records.builder import RecordBuilder, build_record
from referee.records.replay import replay_match
from referee.settings import Settings
from referee.table.streams import Table, as_dark, other, random_game, reading, real_match_streams

SAMPLE = int(os.environ.get("BGTABLE_MATCH_SAMPLE", "0") or 0)


# ------------------------------------------------------------------ real matches


CHUNKS = 4


def _file_names(path) -> list[str]:
    import gzip
    import json
    with gzip.open(path, "rt") as fh:
        names = sorted({json.loads(line)["file"] for line in fh})
    if SAMPLE:
        names = sorted(random.Random(20260101).sample(names, min(SAMPLE, len(names))))
    return names


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_real_matches_end_with_the_recorded_results(chunk: int, matches_dir) -> None:
    path = matches_dir / "plays.jsonl.gz"
    names = _file_names(path)
    mine = set(names[chunk::CHUNKS])
    match_streams = real_match_streams(path, mine)
    assert len(match_streams) == len(mine)
    games_seen = 0
    for name, games in match_streams.items():
        ref = Referee(Settings(match_to=games[0].match_length), score=games[0].score_before)
        builder = RecordBuilder()
        for g in games:
            assert ref.score.points == g.score_before, (name, g.game)
            assert ref.score.crawford_game == g.crawford, (name, g.game)
            checks = dict(g.checks)
            for i, ev in enumerate(g.events):
                for d in ref.handle(ev):
                    assert d.kind not in ("refused", "not_accepted", "illegal_move", "wait_board", "ambiguous",
                                          "reroll"), (name, g.game, i, str(d))
                if i in checks:
                    assert ref.mover_position().position_id() == checks[i], (name, g.game, i)
            last_game = builder.take(ref.new_record_actions()).record().games[-1]
            result = last_game.result
            assert last_game.number == ref.game and result is not None
            assert (("dark", "light")[result.winner], result.points) == (g.winner, g.points), (name, g.game)
            games_seen += 1
        replay = replay_match(builder.record())
        assert replay.problems == [], (name, replay.problems[:3])
        last = games[-1]
        exp = list(last.score_before)
        exp[("dark", "light").index(last.winner)] += last.points
        assert ref.score.points == tuple(exp)
    assert games_seen >= len(mine)


# ------------------------------------------------------------------ random legal games


@pytest.mark.parametrize("seed", range(12))
def test_random_games_give_the_same_record(seed: int) -> None:
    game = random_game(random.Random(seed))
    ref = Referee(Settings())
    for ev in game.events:
        for d in ref.handle(ev):
            assert d.kind not in ("refused", "not_accepted", "illegal_move", "wait_board", "reroll"), str(d)
    rec = build_record(ref.new_record_actions())
    moves = [(("dark", "light")[a.player], tuple(a.dice), a.play) for a in rec.games[0].actions if a.TYPE == "move"]
    assert [(p, tuple(sorted(d, reverse=True)), s) for p, d, s in moves] == \
        [(p, tuple(sorted(d, reverse=True)), s) for p, d, s in game.moves]
    end = rec.games[0].result
    assert ("dark", "light")[end.winner] == game.winner and end.kind == game.kind
    assert ref.pos == game.final
    assert replay_match(rec).problems == []


# ------------------------------------------------------------------ random games with faults


def _partial(pos: Position, dice: tuple[int, int], rng: random.Random) -> Any:
    """An incomplete play (only its first step), when that is not itself a legal result."""
    plays = [lp for lp in legal_plays(pos, *dice) if len(lp.play) >= 2]
    if not plays:
        return None
    lp = rng.choice(plays)
    st = lp.play.steps[0]
    me, opp = list(pos.me), list(pos.opp)
    me[24 if st.src == 25 else st.src - 1] -= 1
    if st.dst:
        me[st.dst - 1] += 1
        if opp[24 - st.dst] == 1:
            opp[24 - st.dst] = 0
            opp[24] += 1
    after = Position(opp, me)  # opponent on roll
    if after in results(pos, *dice):
        return None
    return after


def _misread(ev: BoardEvidence, rng: random.Random) -> BoardEvidence:
    """The same reading with one checker missing (a hand, a shadow): no real position."""
    pts = list(ev.points)
    k = rng.choice([i for i, p in enumerate(pts) if p.count])
    pts[k] = PointReading(pts[k].count - 1, pts[k].colour if pts[k].count > 1 else None)
    return BoardEvidence(tuple(pts), ev.bar, ev.off, ev.confidence)


def _kinds(ds: list) -> list[str]:
    return [d.kind for d in ds]


def play_faulty_game(seed: int, early_roll: str) -> tuple[Table, list[tuple[str, Any]], list[str]]:
    rng = random.Random(seed)
    t = Table(Referee(Settings(early_roll=early_roll)))
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if _kinds(t.opening(a, b))[0] == "opening_won":
            break
    expected: list[tuple[str, Any]] = []
    faults: list[str] = []
    for _ in range(600):
        ref = t.ref
        mover, dice = ref.turn, ref.t.dice
        pos = ref.mover_position()
        plays = legal_plays(pos, *dice)
        lp = rng.choice(plays) if plays else None
        after = lp.result if lp else pos.swap()
        good = reading(as_dark(after, other(mover)))
        fault = rng.choice(["none", "none", "misread", "unreadable", "illegal_corrected", "illegal_accepted",
                            "early", "cocked"])
        next_dice = (rng.randint(1, 6), rng.randint(1, 6))
        partial = _partial(pos, dice, rng) if fault.startswith("illegal") else None
        if fault.startswith("illegal") and partial is None:
            fault = "none"
        faults.append(fault)
        if fault == "misread":
            assert _kinds(t.send(HandOverBoard(), _misread(good, rng), DiceLifted())) == ["wait_board"]
            assert _kinds(t.send(good))[0] == "move_accepted"
        elif fault == "unreadable":
            low = BoardEvidence(good.points, good.bar, good.off, 0.2)
            assert _kinds(t.send(HandOverBoard(), low, DiceLifted())) == ["wait_board"]
            assert _kinds(t.send(HandOverBoard(), good))[0] == "move_accepted"
        elif fault == "illegal_corrected":
            assert _kinds(t.board(as_dark(partial, other(mover))) + t.lift()) == ["illegal_move"]
            assert _kinds(t.press(other(mover), "demand_legal_move")) == ["correction_demanded"]
            assert _kinds(t.send(HandOverBoard(), good))[0] == "move_accepted"
        elif fault == "illegal_accepted":
            assert _kinds(t.board(as_dark(partial, other(mover))) + t.lift()) == ["illegal_move"]
            ds = t.press(other(mover), "accept_move")
            assert ds[0].kind == "illegal_accepted"
            after = partial
        elif fault == "early":
            t.board(as_dark(after, other(mover)))
            [d] = t.throw(next_dice, thrower=other(mover))
            assert d.kind == "early_roll" and d.get("rule") == early_roll
            ds = t.lift()
            assert ds[0].kind == "move_accepted"
        else:
            assert _kinds(t.board(as_dark(after, other(mover))) + t.lift())[0] == "move_accepted"
        if lp is not None and fault != "illegal_accepted":
            expected.append(("move", str(lp.play)))
        elif fault == "illegal_accepted":
            expected.append(("illegal_accepted", None))
        else:
            expected.append(("move", ""))
        if t.ref.state in ("game_over", "match_over"):
            return t, expected, faults
        if t.ref.state == "moving":  # the early roll was played
            continue
        if fault == "cocked" or rng.random() < 0.1:
            [d] = t.throw(next_dice, cocked=rng.randint(0, 1))
            assert d.kind == "reroll" and d.get("cause") == "cocked"
        assert _kinds(t.throw(next_dice)) == ["roll_accepted"]
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("seed,early_roll", [(s, "stands") for s in range(6)] + [(s, "void") for s in range(6, 10)])
def test_random_games_with_faults(seed: int, early_roll: str) -> None:
    t, expected, faults = play_faulty_game(seed, early_roll)
    rec = t.record()
    plays = [(a.TYPE, a.play if a.TYPE == "move" else None) for a in rec.games[0].actions
             if a.TYPE in ("move", "illegal_accepted")]
    assert plays == expected
    actions = rec.games[0].actions
    assert sum(1 for a in actions if a.TYPE == "correction") == faults.count("illegal_corrected")
    if early_roll == "void":
        assert sum(1 for a in actions if a.TYPE == "reroll" and a.cause == "early_roll") == faults.count("early")
    replay = replay_match(rec)
    assert replay.problems == [], replay.problems[:3]
    assert replay.games[0].final in (t.ref.pos, t.ref.pos.swap())
    # the journal's crash recovery: replaying the input events rebuilds the same referee
    clone = Referee.replay(t.ref.settings, t.events)
    assert build_record(clone.new_record_actions()) == rec and clone.view() == t.ref.view()
