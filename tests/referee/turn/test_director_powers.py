"""The director's powers (issue 15): undo, set-up, score correction, verdict override, end of
the match; each refused without the director's key, journaled as an input with who and why,
and decided alike when the journal is replayed on resume."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.events import EventError, from_json, to_json
from referee.officials import DirectorAction
from referee.records import actions as rec
from referee.records.journal import read_journal
from referee.records.matfile import write_mat
from referee.records.replay import replay_match
from referee.records.sgf import write_sgf
from referee.rules.match_id import MatchState, parse_match_id, xgid_match
from referee.rules.position import Position
from referee.settings import Settings
from referee.table.process import TableCore
from referee.table.streams import Table
from referee.turn.referee import Referee
from referee.turn.states import State

# a middle-game position (Dark on roll, Dark to throw) for the set-ups
MIDGAME = Position.from_points({6: 5, 8: 3, 13: 4, 24: 2, 5: 1}, {6: 4, 8: 3, 13: 5, 24: 2, 3: 1})


def D(action: str, key: str = "pin", **kw: object) -> DirectorAction:
    return DirectorAction(action, by=str(kw.pop("by", "Ann")), why=str(kw.pop("why", "test")), key=key,
                          **kw)  # type: ignore[arg-type]


def started(match_to: int = 5) -> Table:
    """Dark won the opening with 3-1 and played 8/5 6/5; Light on turn."""
    t = Table(Referee(Settings(match_to=match_to)))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    return t


def kinds(ds: list) -> list[str]:
    return [d.kind for d in ds]


# ------------------------------------------------------------------ the event and the key


def test_the_director_action_has_a_one_line_text_form_and_checks_its_fields() -> None:
    e = D("score", score=[3, 2], by="Ann", why="scoresheet says 3-2")
    assert from_json(to_json(e)) == e and e.score == (3, 2)
    with pytest.raises(EventError, match="'redo' is not one of undo"):
        DirectorAction("redo")
    with pytest.raises(EventError, match="director key 'master'"):
        DirectorAction("undo", key="master")
    with pytest.raises(EventError, match="director score"):
        DirectorAction("score", score=(3, -1))


@pytest.mark.parametrize("action,extra", [("undo", {}), ("reject_move", {}), ("score", {"score": (1, 0)}),
                                          ("setup", {"position": MIDGAME.position_id()}), ("end_match", {}),
                                          ("accept_move", {}), ("learn_board", {})])
def test_every_power_is_refused_without_the_key(action: str, extra: dict) -> None:
    t = started()
    before = (t.ref.state, t.ref.pos, t.ref.score, list(t.ref.actions))
    [d] = t.send(D(action, key="", **extra))
    assert d.kind == "refused" and "no director's key" in d.reason and dict(d.data)["guard"] == "has_key"
    assert (t.ref.state, t.ref.pos, t.ref.score, list(t.ref.actions)) == before


# ------------------------------------------------------------------ undo


def test_undo_takes_the_move_back_and_the_mover_plays_the_roll_again() -> None:
    t = started()
    t.ref.new_record_actions()
    [d] = t.send(D("undo", why="the camera missed a checker"))
    assert d.kind == "director" and "8/5 6/5 undone" in d.reason and "the camera missed" in d.reason
    r = t.ref
    assert r.state == State.MOVING and r.turn == "dark" and r.t.dice == (3, 1) and r.pos == Position.start()
    assert [a.TYPE for a in r.actions] == ["roll"]  # the opening roll stands
    assert [a.TYPE for a in r.new_record_actions()] == ["undo"]
    t.move("24/21 6/5")
    assert kinds(t.lift()) == ["move_accepted"]
    assert [a.to_dict().get("play") for a in r.actions] == [None, "24/21 6/5"]


def test_undo_of_a_roll_lets_the_player_throw_again_and_several_go_back_further() -> None:
    t = started()
    t.throw((6, 5))
    r = t.ref
    assert r.state == State.MOVING and r.turn == "light"
    t.send(D("undo"))
    assert r.state == State.WAITING_FOR_ROLL and r.turn == "light" and r.t.dice is None
    assert [a.TYPE for a in r.actions] == ["roll", "move"]
    t.send(D("undo"))
    assert r.state == State.MOVING and r.turn == "dark" and r.pos == Position.start()
    t.send(D("undo"))  # the opening roll itself: thrown again
    assert r.state == State.OPENING_ROLL and r.actions == [] and r.turn is None
    [d] = t.send(D("undo"))
    assert d.kind == "refused" and d.reason == "nothing to undo in this game"


def test_undo_of_a_double_and_a_take() -> None:
    t = started()
    t.press("light", "double")
    t.press("dark", "take")
    r = t.ref
    assert r.cube.value == 2 and r.cube.owner == "dark"
    t.send(D("undo"))
    assert r.state == State.DOUBLE_OFFERED and r.cube.pending
    t.send(D("undo"))
    assert r.state == State.WAITING_FOR_ROLL and r.cube.value == 1 and not r.cube.pending
    assert [a.TYPE for a in r.actions] == ["roll", "move"]


def test_a_finished_game_is_not_undone() -> None:
    t = started(match_to=3)
    t.press("light", "double")
    t.press("dark", "pass")
    assert t.ref.state == State.GAME_OVER
    [d] = t.send(D("undo"))
    assert d.kind == "refused" and "correct the score instead" in d.reason


# ------------------------------------------------------------------ verdicts


def test_reject_move_takes_back_the_accepted_move() -> None:
    t = started()
    t.play((6, 5), "24/18 13/8")
    [d] = t.send(D("reject_move", by="Bob"))
    assert "24/18 13/8 is rejected; Light plays 6-5 again" in d.reason
    r = t.ref
    assert r.state == State.MOVING and r.turn == "light" and r.t.dice == (6, 5)
    assert [a.TYPE for a in r.actions] == ["roll", "move", "roll"]
    t.throw((6, 5))  # not a move: a throw while the dice are down
    [d] = Table(Referee()).send(D("reject_move"))
    assert d.kind == "refused"


def test_reject_move_needs_a_move_last() -> None:
    t = started()
    t.throw((6, 5))
    [d] = t.send(D("reject_move"))
    assert d.kind == "refused" and "not a move" in d.reason


def test_accept_move_overrides_an_illegal_verdict() -> None:
    t = started()
    t.throw((6, 4))
    t.place((24, 18))  # does not play all of 6-4: illegal
    t.lift()
    assert t.ref.state == State.ILLEGAL_MOVE
    ds = t.send(D("accept_move", why="the players agreed"))
    assert kinds(ds) == ["director", "illegal_accepted"] and "Light's move stands as played" in ds[0].reason
    assert t.ref.state == State.WAITING_FOR_ROLL and t.ref.turn == "dark"
    assert t.ref.actions[-1].TYPE == "illegal_accepted"
    [d] = t.send(D("accept_move"))
    assert d.kind == "refused" and "no move is called illegal" in d.reason


# ------------------------------------------------------------------ set-up, score, end


def test_setup_by_position_id_mid_game_goes_on_from_it() -> None:
    t = started()
    [d] = t.send(D("setup", position=MIDGAME.position_id(), colour="light"))
    r = t.ref
    assert d.kind == "director" and "Light throws" in d.reason
    assert r.state == State.WAITING_FOR_ROLL and r.turn == "light" and r.pos == MIDGAME.swap()
    assert r.actions[-1] == rec.SetUp(1, MIDGAME.position_id())
    t.play((6, 5), "24/13")
    assert replay_match(t.record()).problems == []
    assert r.actions[-1].to_dict()["play"] == "24/13"


def test_setup_with_a_match_id_sets_cube_turn_and_score_and_starts_the_next_game() -> None:
    t = started(match_to=7)
    t.press("light", "double")
    t.press("dark", "pass")
    assert t.ref.state == State.GAME_OVER and t.ref.score.points == (0, 1)
    mid = MatchState(cube=2, owner=0, on_roll=1, match_length=7, score=(3, 4)).match_id()
    [d] = t.send(D("setup", position=f"{MIDGAME.position_id()}:{mid}"))
    r = t.ref
    assert "the cube at 2, Dark's; Light throws" in d.reason
    assert r.game == 2 and r.turn == "light" and r.cube.value == 2 and r.cube.owner == "dark"
    assert r.score.points == (3, 4) and r.pos == MIDGAME.swap()
    game2 = t.record().games[1]
    assert game2.score_before == (3, 4)
    # the score the Match ID gave is a correction the record keeps (so the replay accepts it)
    assert game2.actions == (rec.ScoreCorrection(0, (3, 4)), rec.SetUp(1, MIDGAME.position_id(), 2, 0))
    assert replay_match(t.record()).problems == []
    sgf = write_sgf(t.record())
    assert "C[set up by the director]" in sgf and "AE[a:y]" in sgf


def test_setup_refuses_a_bad_id_and_another_match_length() -> None:
    t = started()
    [d] = t.send(D("setup", position="not-an-id"))
    assert d.kind == "refused" and "not-an-id" in d.reason
    [d] = t.send(D("setup", position=MIDGAME.position_id(), match_id="cAgAAAAAAAAA"))  # money
    assert d.kind == "refused" and "match length 0 is not this match's 5" in d.reason


def test_setup_by_xgid() -> None:
    t = started()
    xgid = f"XGID={MIDGAME.xgid()}:0:0:1:00:2:1:0:5:10"
    t.send(D("setup", position=xgid))
    r = t.ref
    assert r.turn == "dark" and r.pos == MIDGAME and r.score.points == (2, 1)
    assert xgid_match(xgid) == MatchState(1, None, 0, 5, (2, 1), False)


def test_match_id_codec_reads_gnubgs_example() -> None:
    # gnubg's manual: cube 2 owned by player 0, player 1 on roll, 9-point match at 2-4
    assert parse_match_id("QYkqASAAIAAA") == MatchState(2, 0, 1, 9, (2, 4), False)
    s = MatchState(4, None, 0, 11, (5, 9), True)
    assert parse_match_id(s.match_id()) == s


def test_score_correction_mid_game_and_between_games() -> None:
    t = started()
    [d] = t.send(D("score", score=(2, 1)))
    r = t.ref
    assert "from 0-0 to" in d.reason and r.score.points == (2, 1)
    emitted = r.new_record_actions()
    assert [a.TYPE for a in emitted][-1] == "score"
    assert t.builder.take(emitted).record().games[0].score_before == (2, 1)
    [d] = t.send(D("score", score=(5, 1)))
    assert d.kind == "refused" and "end the match instead" in d.reason


def test_score_correction_between_games_sets_up_the_crawford_game() -> None:
    t = started(match_to=5)
    t.press("light", "double")
    t.press("dark", "pass")
    t.send(D("score", score=(1, 4)))
    assert t.ref.score.points == (1, 4) and t.ref.score.crawford_game


def test_end_match_awarded_and_then_nothing_more() -> None:
    t = started()
    ds = t.send(D("end_match", colour="light", why="Dark left the club"))
    assert kinds(ds) == ["director", "match_over"] and "awarded to Light" in ds[0].reason
    assert t.ref.state == State.MATCH_OVER
    [d] = t.send(D("score", score=(1, 1)))
    assert d.kind == "refused" and "the match is over" in d.reason


# ------------------------------------------------------------------ learn the board as it stands


def test_learn_board_orders_the_camera_and_changes_nothing_of_the_game() -> None:
    # between turns (Light to throw) the checkers stand as the referee's position: the order is
    # counted for the table's camera, said with the position, and the game goes on as it stood
    t = started()
    before = (t.ref.state, t.ref.pos, t.ref.turn, t.ref.score, list(t.ref.actions), t.ref.choices)
    [d] = t.send(D("learn_board", by="Carol", why="pearl checkers"))
    assert d.kind == "director" and d.get("action") == "learn_board" and d.get("position") == t.ref.pos.position_id()
    assert d.reason.startswith("The director (Carol) (pearl checkers): the camera learns the board as it stands")
    assert t.ref.board_lessons == 1
    assert (t.ref.state, t.ref.pos, t.ref.turn, t.ref.score, list(t.ref.actions), t.ref.choices) == before
    t.throw((6, 5))                                   # play goes on as before
    assert t.ref.state == State.MOVING


@pytest.mark.parametrize("where", ["opening", "paused"])
def test_learn_board_is_taken_before_the_opening_roll_and_with_play_paused(where: str) -> None:
    t = Table(Referee(Settings(match_to=5)))
    if where == "paused":
        t.opening(3, 1)
        t.press("dark", "call_director")   # the table said it reads the board poorly: the director is called
        assert t.ref.state == State.DIRECTOR
    state = t.ref.state
    [d] = t.send(D("learn_board"))
    assert d.kind == "director" and t.ref.board_lessons == 1 and t.ref.state == state


def test_learn_board_is_refused_while_checkers_may_be_on_their_way() -> None:
    # the dice thrown (the mover may be moving), or a move waiting to be judged: the board may not
    # show the referee's position, so it is not learned as it
    t = started()
    t.throw((6, 5))
    [d] = t.send(D("learn_board"))
    assert d.kind == "refused" and d.get("guard") == "board_at_rest"
    assert "the checkers may be on their way now (the roll counts; the mover moves" in d.reason
    assert t.ref.board_lessons == 0 and t.ref.state == State.MOVING


# ------------------------------------------------------------------ journal and resume


def _journal_round(tmp_path: Path, steps: list) -> tuple[TableCore, Path]:
    path = tmp_path / "journal.jsonl"
    core = TableCore.open(path, Settings(match_to=5))
    t = Table(core.referee)
    t.send = lambda *evs: [d for e in evs for d in core.handle(e)]  # type: ignore[method-assign]
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    for step in steps:
        step(t)
    return core, path


POWERS = {
    "undo": [lambda t: t.throw((6, 5)), lambda t: t.send(D("undo", by="Ann", why="cocked die not seen"))],
    "reject": [lambda t: t.play((6, 5), "24/18 13/8"), lambda t: t.send(D("reject_move"))],
    "setup": [lambda t: t.send(D("setup", position=MIDGAME.position_id(), colour="light")),
              lambda t: t.play((6, 5), "24/13")],
    "score": [lambda t: t.send(D("score", score=(2, 1)))],
    "end": [lambda t: t.send(D("end_match"))],
    "learn": [lambda t: t.send(D("learn_board", why="the pearl checkers read poorly; set-up checked"))],
    "refused": [lambda t: t.send(D("undo", key=""))],
}


@pytest.mark.parametrize("name", sorted(POWERS))
def test_each_power_is_journaled_with_who_and_why_and_resumes_alike(tmp_path: Path, name: str) -> None:
    core, path = _journal_round(tmp_path, POWERS[name])
    state, pos, score, turn = core.referee.state, core.referee.pos, core.referee.score, core.referee.turn
    record = core.record()
    core.close()
    read = read_journal(path)
    inputs = [e["data"] for e in read.events if e.get("event") == "input" and e["data"]["kind"] == "director"]
    assert inputs and all(e["by"] and e["why"] for e in inputs)
    assert read.record == record
    assert replay_match(record).problems == []  # a corrected score is in the record: no break in the score
    again = TableCore.open(path, Settings(match_to=5))
    try:
        r = again.referee
        assert (r.state, r.pos, r.score, r.turn) == (state, pos, score, turn)
        assert again.record() == record
    finally:
        again.close()


def test_an_undone_move_is_not_in_the_mat(tmp_path: Path) -> None:
    core, path = _journal_round(tmp_path, [lambda t: t.play((6, 5), "24/18 13/8"),
                                           lambda t: t.send(D("undo")),
                                           lambda t: t.place((24, 13)), lambda t: t.lift()])
    record = core.record()
    core.close()
    mat = write_mat(record)
    assert "24/18 13/8" not in mat and "65: 24/18 18/13" in mat
    lines = [e for e in read_journal(path).events if e.get("event") == "action"]
    assert [e["action"]["type"] for e in lines][-3:] == ["move", "undo", "move"]


def test_undo_in_a_chouette_restores_the_members_cubes_in_place() -> None:
    t = Table(Referee(Settings(chouette=("Box", "Cap", "Ann", "Bob"))))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    ch = t.ref.chouette
    t.press("light", "take", 0)
    t.press("light", "pass", 1)
    assert ch.scores["Ann"] == -1 and ch.cubes["Cap"].value == 2
    [d] = t.send(D("undo"))  # Ann's pass taken back: she answers again (the record never held it)
    assert d.kind == "director" and d.get("undone") == ()
    assert t.ref.chouette is ch and ch.scores["Ann"] == 0 and "Ann" in ch.pending
    assert ch.cubes["Cap"].value == 2 and t.ref.state == State.DOUBLE_OFFERED
    t.send(D("undo"))
    assert ch.cubes["Cap"].value == 1 and set(ch.pending) == {"Cap", "Ann", "Bob"}
    t.send(D("undo"))  # the box's double
    assert t.ref.state == State.WAITING_FOR_ROLL and not ch.pending and t.ref.turn == "dark"
