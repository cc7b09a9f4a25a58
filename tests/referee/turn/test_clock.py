"""The table's tournament clock (referee.clock) on an injected clock: reserve, delay, pause, time-out."""
from __future__ import annotations

import pytest

from referee.clock import Clock, ClockConfig, ClockError
from referee.view import TableView


def clock(reserve: float = 60, delay: float = 10, **kw: object) -> Clock:
    return Clock.start(ClockConfig(reserve=reserve, delay=delay, **kw))  # type: ignore[arg-type]


def test_the_delay_is_free_and_the_rest_comes_off_the_reserve() -> None:
    c = clock().switch("dark", 100.0)
    assert c.remaining("dark", 105.0) == 60
    assert c.delay_left(105.0) == 5
    assert c.remaining("dark", 125.0) == 45
    assert c.remaining("light", 125.0) == 60  # the opponent's clock does not run
    c = c.lifted("dark", 125.0)
    assert c.running == "light" and c.reserve == (45.0, 60.0)
    assert c.moves == (("dark", 25.0),)  # the move's time, for the record


def test_unused_delay_is_not_banked() -> None:
    c = clock().switch("dark", 0.0).lifted("dark", 3.0)
    assert c.reserve == (60.0, 60.0)


def test_a_director_call_pauses_the_running_clock() -> None:
    c = clock().switch("light", 0.0)
    c = c.pause(20.0)  # light used 10 s of reserve
    assert c.remaining("light", 500.0) == 50
    c = c.resume(500.0)
    assert c.remaining("light", 505.0) == 45
    assert c.lifted("light", 505.0).reserve == (60.0, 45.0)


def test_resume_before_the_pause_is_refused() -> None:
    with pytest.raises(ClockError, match="backwards"):
        clock().switch("dark", 0).pause(10).resume(5)


def test_a_time_out_loses_the_match_by_default_at_the_exact_moment() -> None:
    c = clock(reserve=30, delay=5).switch("dark", 0.0).check(34.0)
    assert c.flagged is None
    c = c.check(99.0)
    assert c.flagged is not None
    assert (c.flagged.player, c.flagged.at, c.flagged.outcome) == ("dark", 35.0, "lose_match")
    assert "loses the match" in str(c.flagged)
    assert c.remaining("dark", 99.0) == 0


def test_a_penalty_time_out_gives_points_and_a_new_reserve() -> None:
    c = clock(reserve=30, delay=5, timeout="penalty", penalty_points=2).switch("dark", 0.0)
    c = c.check(40.0)  # out at 35: 5 s into the new reserve
    assert c.flagged is not None and c.flagged.points == 2 and c.flagged.at == 35.0
    assert c.remaining("dark", 40.0) == 25
    c = c.clear_flag().lifted("dark", 40.0)
    assert c.reserve == (25.0, 30.0)


def test_the_clock_follows_the_table_view() -> None:
    c = clock()
    c = c.follow(TableView(state="waiting_for_roll", turn="dark"), 0.0)
    assert c.running == "dark"
    c = c.follow(TableView(state="moving", turn="dark"), 4.0)
    assert c.running == "dark"
    c = c.follow(TableView(state="double_offered", turn="light", cube_offered_by="light"), 20.0)
    assert c.running == "dark"  # dark must take or pass
    c = c.follow(TableView(state="director", turn="light"), 25.0)
    assert c.paused_at == 25.0
    c = c.follow(TableView(state="moving", turn="light"), 100.0)  # resumed, and the turn passed
    assert c.running == "light" and c.paused_at is None
    assert c.moves[-1] == ("dark", 25.0)
    c = c.follow(TableView(state="game_over", turn="light"), 130.0)
    assert c.running is None and c.reserve[1] == 40.0


@pytest.mark.parametrize("section, word", [
    ({"reserve": -1}, "reserve"), ({"delay": "ten"}, "delay"), ({"timeout": "forfeit"}, "timeout"),
    ({"penalty_points": 0}, "penalty_points"), ({"reserv": 60}, "reserv"),
])
def test_bad_clock_settings_name_the_key(section: dict, word: str) -> None:
    with pytest.raises(ClockError, match=word):
        ClockConfig.from_toml(section)


def test_no_reserve_means_no_clock_and_no_time_out() -> None:
    c = Clock.start(ClockConfig()).switch("dark", 0.0).check(1e6)
    assert not c.config.enabled and c.flagged is None
    assert ClockConfig.from_toml({"reserve": 600, "delay": 12}).enabled


def test_the_text_forms() -> None:
    c = clock(reserve=600).switch("dark", 0.0)
    assert str(c) == "Dark 10:00 Light 10:00, dark to act"
    assert c.to_dict(70.0)["remaining"] == [540.0, 600.0]
    assert c.texts(70.0) == ("9:00", "10:00")
    assert c.pause(70.0).texts(99.0) == ("9:00 paused", "10:00")



class FakeJournal:
    def __init__(self) -> None:
        self.lines: list[dict] = []

    def append(self, e: dict) -> int:
        self.lines.append(e)
        return len(self.lines)


def test_the_clock_sink_journals_each_turns_time_and_a_time_out() -> None:
    from referee.table.clock_sink import ClockSink

    now = [0.0]
    j = FakeJournal()
    outs: list = []
    sink = ClockSink(j, ClockConfig(reserve=30, delay=5), lambda: now[0], on_timeout=outs.append)
    sink.show(TableView(state="waiting_for_roll", turn="dark"), [])
    now[0] = 12.0
    sink.show(TableView(state="waiting_for_roll", turn="light"), [])
    assert j.lines == [{"event": "clock", "player": "dark", "seconds": 12.0, "remaining": [23.0, 30.0]}]
    now[0] = 100.0
    sink.show(TableView(state="moving", turn="light"), [])
    assert j.lines[-1]["timeout"] == {"player": "light", "at": 47.0, "outcome": "lose_match", "points": 0}
    assert outs[0].player == "light"
    sink.show(TableView(state="moving", turn="dark"), [])  # reported once
    assert sum("timeout" in x for x in j.lines) == 1


def test_the_clock_sink_takes_up_the_reserves_from_the_journal() -> None:
    from referee.table.clock_sink import ClockSink

    class Read:
        events = [{"event": "clock", "player": "dark", "seconds": 50.0, "remaining": [550.0, 600.0]}]

    j = FakeJournal()
    j.read = Read()  # type: ignore[attr-defined]
    sink = ClockSink(j, ClockConfig(reserve=600), lambda: 0.0)
    assert sink.clock.reserve == (550.0, 600.0)
    off = ClockSink(FakeJournal(), ClockConfig(), lambda: 0.0)
    off.show(TableView(state="moving", turn="dark"), [])
    assert off.journal.lines == []


def test_clock_lines_in_a_table_journal_keep_it_resumable(tmp_path) -> None:
    from referee import events as ev
    from referee.records.journal import Journal, read_journal
    from referee.settings import Settings
    from referee.table.clock_sink import ClockSink
    from referee.table.process import TableCore

    t = [0.0]
    fast = lambda p: Journal(p, fsync=lambda fd: None)  # noqa: E731
    core = TableCore.open(tmp_path / "j.jsonl", Settings(match_to=3), journal_factory=fast)
    core.sinks.append(ClockSink(core.journal, ClockConfig(reserve=600, delay=10), lambda: t[0]))
    t[0] = 1.0
    core.handle(ev.RollSettled(dice=(ev.DieReading(5, zone="right"), ev.DieReading(2, zone="left")), t=1.0))
    t[0] = 31.0
    core.handle(ev.PlayerInput("dark", "call_director", t=31.0))
    t[0] = 40.0
    core.handle(ev.PlayerInput("dark", "call_director", t=40.0))
    core.close()
    read = read_journal(tmp_path / "j.jsonl")
    assert read.damage is None
    again = TableCore.open(tmp_path / "j.jsonl", Settings(match_to=3), journal_factory=fast)
    assert again.referee.state == core.referee.state
    again.close()
