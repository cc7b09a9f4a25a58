"""A time-out on the table's clock applied as the tournament's rules say (referee.turn.timeout):
the match lost, or a point penalty; journaled, replayed, in the records.  Injected clock."""
from __future__ import annotations

import pytest

from referee import events as ev
from referee import officials as off
from referee.clock import ClockConfig
from referee.records.builder import build_record
from referee.records.replay import replay_match
from referee.settings import Settings
from referee.turn.referee import Referee

OPENING = ev.RollSettled(dice=(ev.DieReading(5, zone="right"), ev.DieReading(2, zone="left")), t=1.0)


def _moving(match_to: int = 5) -> Referee:
    ref = Referee(Settings(match_to=match_to))
    ref.handle(OPENING)  # dark won the opening roll (5 against 2) and moves
    assert ref.state == "moving" and ref.turn == "dark"
    return ref


def test_a_time_out_that_loses_the_match_ends_it_with_the_opponent_winning() -> None:
    ref = _moving()
    out = ref.handle(off.ClockTimeOut("dark", "lose_match", t=50.0))
    kinds = [d.kind for d in out]
    assert kinds == ["time_out", "game_over", "match_over"]
    assert "ran out of time and loses the match" in out[0].reason
    assert ref.state == "match_over" and ref.score.points == (0, 5)
    record = build_record(ref.new_record_actions())
    end = record.games[-1].result
    assert end is not None and (end.winner, end.points, end.reason) == (1, 5, "timeout")
    assert replay_match(record).problems == []  # the records accept a time-out's result


def test_a_time_out_loses_the_match_from_any_score_and_replays_the_same() -> None:
    ref = Referee(Settings(match_to=7), score=(2, 4))
    ref.handle(OPENING)
    ref.handle(off.ClockTimeOut("light", "lose_match", t=9.0))
    assert ref.score.points == (7, 4) and ref.state == "match_over"
    again = Referee.replay(Settings(match_to=7), ref.inputs, score=(2, 4))
    assert again.score.points == (7, 4) and again.state == "match_over"


def test_a_penalty_time_out_changes_the_score_and_play_goes_on() -> None:
    ref = _moving()
    out = ref.handle(off.ClockTimeOut("dark", "penalty", points=1, t=50.0))
    assert [d.kind for d in out] == ["time_out"]
    assert "Dark ran out of time: 1 penalty point to Light" in out[0].reason
    assert ref.score.points == (0, 1)
    assert ref.state == "moving" and ref.turn == "dark"  # the game goes on


def test_a_penalty_that_reaches_the_match_length_wins_the_match() -> None:
    ref = Referee(Settings(match_to=3), score=(0, 2))
    ref.handle(OPENING)
    ref.handle(off.ClockTimeOut("dark", "penalty", points=2, t=5.0))
    assert ref.state == "match_over" and ref.score.points[1] >= 3


def test_a_time_out_after_the_match_is_ignored() -> None:
    ref = _moving(1)
    ref.handle(off.ClockTimeOut("dark", "lose_match", t=5.0))
    assert ref.handle(off.ClockTimeOut("light", "lose_match", t=6.0)) == []
    assert ref.score.points == (0, 1)


def test_bad_time_out_events_are_refused_naming_the_value() -> None:
    with pytest.raises(ev.EventError, match="'blue'"):
        off.ClockTimeOut("blue")
    with pytest.raises(ev.EventError, match="'sudden'"):
        off.ClockTimeOut("dark", "sudden")
    with pytest.raises(ev.EventError, match="points 0"):
        off.ClockTimeOut("dark", "penalty", 0)
    assert ev.from_json(ev.to_json(off.ClockTimeOut("dark", "penalty", 2, t=3.0))) == \
        off.ClockTimeOut("dark", "penalty", 2, t=3.0)


def test_the_table_applies_a_time_out_from_its_clock_and_the_records_carry_it(tmp_path) -> None:
    from referee.records.journal import Journal, read_journal
    from referee.table.clock_sink import ClockSink, timeout_event
    from referee.table.process import TableCore

    t = [0.0]
    flags: list = []
    fast = lambda p: Journal(p, fsync=lambda fd: None)  # noqa: E731
    core = TableCore.open(tmp_path / "j.jsonl", Settings(match_to=3), journal_factory=fast)
    core.sinks.append(ClockSink(core.journal, ClockConfig(reserve=30, delay=5), lambda: t[0],
                                on_timeout=flags.append))
    t[0] = 1.0
    core.handle(OPENING)
    t[0] = 100.0  # dark thinks for 99 s: out of time at 1 + 5 + 30
    core.handle(ev.HandOverBoard(t=100.0))
    assert len(flags) == 1 and flags[0].player == "dark" and flags[0].at == 36.0
    core.handle(timeout_event(flags[0]))  # as bgtable run does, through its event queue
    assert core.referee.state == "match_over" and core.referee.score.points == (0, 3)
    files = core.export(tmp_path / "out", stem="m")
    core.close()
    mat = (tmp_path / "out" / "m.mat").read_text()
    assert "Wins 3 points" in mat
    sgf = (tmp_path / "out" / "m.sgf").read_text()
    assert "RE[B+3]" in sgf and "GC[" in sgf and "ran out of time" in sgf
    lines = read_journal(tmp_path / "j.jsonl").events
    assert any(e.get("event") == "input" and e["data"].get("kind") == "time_out" for e in lines)
    ends = [e["action"] for e in lines if e.get("event") == "action" and e["action"].get("type") == "game_end"]
    assert ends and ends[-1]["reason"] == "timeout"
    again = TableCore.open(tmp_path / "j.jsonl", Settings(match_to=3), journal_factory=fast)
    assert again.referee.state == "match_over" and again.referee.score.points == (0, 3)  # replayed
    again.close()
    assert files


def test_bgtable_run_hands_a_time_out_to_the_referee_through_its_event_queue(tmp_path) -> None:
    import queue

    from referee.clock import TimeOut
    from referee.table.clock_sink import ClockSink
    from referee.table.config import loads
    from referee.table.process import TableCore
    from referee.table.run import club_outputs

    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3))
    try:
        events: "queue.Queue[object]" = queue.Queue()
        club_outputs(core, loads('[clock]\nreserve = 60\ntimeout = "penalty"\npenalty_points = 2\n'), [], events)
        sink = next(s for s in core.sinks if isinstance(s, ClockSink))
        sink.on_timeout(TimeOut("light", 12.5, "penalty", 2))
        assert events.get_nowait() == off.ClockTimeOut("light", "penalty", 2, t=12.5)
    finally:
        core.close()


def test_in_a_chouette_the_side_out_of_time_loses_the_game_on_every_cube() -> None:
    ref = Referee(Settings(chouette=("Box", "Cap", "Ann")))
    ref.handle(OPENING)
    out = ref.handle(off.ClockTimeOut(ref.turn or "dark", "lose_match", t=9.0))
    assert [d.kind for d in out][:2] == ["time_out", "game_over"]
    assert ref.state == "game_over"
    end = build_record(ref.new_record_actions()).games[-1].result
    assert end is not None and end.reason == "timeout"
