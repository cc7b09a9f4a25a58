"""The one fold that builds a record: from the referee's entries or from the journal's lines, alike."""
from __future__ import annotations

import random

import pytest

from referee.errors import RecordError
from referee.records.actions import GameEnd, Move
from referee.records.builder import (GameStart, MatchStart, RecordBuilder, build_record, entry_event, journal_lines,
                                     record_entries)
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.settings import Settings
from referee.table.streams import random_game
from referee.turn.referee import Referee

RECORD = MatchRecord(("Ann", "Bob"), 3, RuleSettings(jacoby=False), (
    GameRecord(1, (0, 0), False, (Move(0, (3, 1), "8/5 6/5"), GameEnd(0, 2, 2, "bearoff"))),
    GameRecord(2, (2, 0), True, (Move(1, (6, 5), "24/13"),)),
), (("Event", "Club night"),))


def test_entries_and_their_journal_lines_fold_to_the_same_record() -> None:
    entries = record_entries(RECORD)
    assert build_record(entries) == RECORD
    lines = RecordBuilder()
    for i, ev in enumerate(journal_lines(RECORD), 1):
        lines.apply({"seq": i, **ev})
    assert lines.record() == RECORD and lines.entries == len(entries) == 6


def test_a_referees_entries_are_its_match_and_games_start_then_the_actions() -> None:
    ref = Referee(Settings(match_to=5, names=("Ann", "Bob")))
    for ev in random_game(random.Random(3)).events:
        ref.handle(ev)
    entries = ref.new_record_actions()
    assert entries[0] == MatchStart(("Ann", "Bob"), 5, RuleSettings())
    assert entries[1] == GameStart(1, (0, 0), False)
    assert isinstance(entries[-1], GameEnd) and ref.new_record_actions() == []
    record = build_record(entries)
    assert record.games[0].result == entries[-1] and record.players == ("Ann", "Bob")


def test_an_action_before_any_game_is_refused_naming_it() -> None:
    b = RecordBuilder().take([MatchStart(("A", "B"))])
    with pytest.raises(RecordError, match='action .*"type":"move".* comes before any game started'):
        b.add(Move(0, (3, 1), "8/5 6/5"))


def test_a_journal_line_that_does_not_fit_the_record_names_its_event() -> None:
    b = RecordBuilder()
    b.apply({"seq": 1, **entry_event(MatchStart(("A", "B")), 0)})
    b.apply({"seq": 2, **entry_event(GameStart(1), 1)})
    with pytest.raises(RecordError, match="event 3: game 3 does not follow game 1"):
        b.check({"seq": 3, **entry_event(GameStart(3), 3)})
    with pytest.raises(RecordError, match="event 3: an action for game 2, but the current game is 1"):
        b.check({"seq": 3, **entry_event(Move(0, (3, 1)), 2)})
    assert b.entries == 2 and b.record().games[0].actions == ()
