"""The cube, resignations and the end of games and matches: doubling guards, take, pass,
beaver, Crawford, Jacoby, automatic doubles, limits, values beyond 64, money totals."""
from __future__ import annotations

import pytest

from referee.rules.cube import Cube, double_refusal
from referee.rules.match import Score
from referee.rules.position import Position
from referee.turn.referee import Referee
from referee.settings import Settings
from referee.table.streams import Table


def started(**kw) -> Table:
    t = Table(Referee(Settings(**kw)))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    return t  # Light on turn


def bearoff_table(**kw) -> Table:
    """Dark to throw with one checker left on its 1 point; Light has borne off none."""
    t = Table(Referee(Settings(**kw)))
    pos = Position.from_points({1: 1}, {13: 7, 8: 3, 6: 5})
    t.ref.setup(pos, "dark")
    return t


def test_double_take_and_redouble() -> None:
    t = started()
    [d] = t.press("light", "double")
    assert d.kind == "double" and d.reason == "Light doubles to 2: Dark takes or passes"
    assert d.choices == ("take", "pass")
    v = t.ref.view()
    assert v.state == "double_offered" and v.cube_offered_by == "light" and v.cube_offered_value == 2
    [d] = t.press("light", "take")
    assert d.kind == "refused" and d.reason == "the double is Dark's to answer"
    [d] = t.press("dark", "take")
    assert d.reason == "Dark takes: the cube is at 2, Dark owns it; Light throws"
    v = t.ref.view()
    assert (v.cube_value, v.cube_owner, v.state) == (2, "dark", "waiting_for_roll")
    t.play((6, 4), "24/14")
    [d] = t.press("dark", "double")
    assert d.reason == "Dark doubles to 4: Light takes or passes"
    t.press("light", "take")
    [d] = t.press("dark", "double")  # Dark is still to throw, but Light owns the cube now
    assert d.kind == "refused" and d.reason == "Dark cannot double: Light owns the cube"
    assert t.ref.state == "waiting_for_roll"


def test_double_only_before_ones_own_roll() -> None:
    t = started()
    [d] = t.press("dark", "double")
    assert d.kind == "refused" and d.reason == "Dark cannot double: it is Light's turn"
    t.throw((6, 4))
    [d] = t.press("light", "double")
    assert d.reason == "Light cannot double after rolling: a double comes before the throw"
    [d] = t.press("dark", "double")
    assert d.reason == "Dark may double only at the start of their own turn, after Light lifts the dice"


def test_pass_ends_the_game_at_the_value_before_the_double() -> None:
    t = started(match_to=0)
    t.press("light", "double")
    t.press("dark", "take")
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    ds = t.press("light", "pass")
    assert [d.kind for d in ds] == ["pass", "game_over"]
    assert ds[0].reason == "Light passes: Dark wins 2 points"
    assert ds[1].reason == "Dark wins on a pass: 2 points. Score: Dark +2, Light -2"
    assert t.ref.view().state == "game_over" and t.ref.score.points == (2, 0)
    g = t.record().games[0]
    assert [a.TYPE for a in g.actions][-2:] == ["pass", "game_end"] and g.result.points == 2


def test_next_game_starts_with_an_opening_throw() -> None:
    t = started()
    t.press("light", "double")
    t.press("dark", "pass")
    ds = t.opening(2, 5)
    assert ds[0].kind == "opening_won" and t.ref.game == 2
    v = t.ref.view()
    assert v.cube_value == 1 and v.game == 2 and v.turn == "light" and v.last_plays == ()
    rec = t.record()
    assert [g.number for g in rec.games] == [1, 2] and rec.games[1].score_before == (0, 1)


def test_crawford_and_post_crawford() -> None:
    t = started(match_to=3)
    t.press("light", "double")
    [_, over] = t.press("dark", "pass")
    assert over.reason == "Light wins on a pass: 1 point. Score: Dark 0, Light 1 (match to 3)"
    t.opening(4, 2)  # game 2, Dark starts
    t.move("13/9 13/11")
    t.lift()
    t.press("light", "double")
    ds = t.press("dark", "pass")  # Light 2: the next game is Crawford
    assert ds[-1].reason == "The next game is the Crawford game: no doubling"
    assert t.ref.score.points == (0, 2) and t.ref.score.crawford_game
    t.opening(6, 1)
    assert t.ref.view().crawford
    t.move("13/7 8/7")
    t.lift()
    [d] = t.press("light", "double")
    assert d.kind == "refused" and d.reason == "Light cannot double: this is the Crawford game"
    t.throw((5, 2))
    [d] = t.press("dark", "resign_single")  # Dark resigns the Crawford game: Light reaches 3
    assert d.kind == "resign_offered"
    ds = t.press("light", "accept_resignation")
    assert [d.kind for d in ds] == ["resign_accepted", "game_over", "match_over"]
    assert ds[2].reason == "Light wins the match 3-0"
    [d] = t.opening(3, 1)
    assert d.kind == "not_accepted" and "the match is over" in d.reason


def test_post_crawford_doubling_is_allowed() -> None:
    s = Score(3, (0, 0), True)
    s = s.after_game("light", 2)
    assert s.crawford_game
    s = s.after_game("dark", 1)  # the Crawford game played
    assert not s.crawford_game and s.crawford_done
    assert double_refusal(Cube(), "dark", money=False, crawford_game=s.crawford_game, cube_limit=0,
                          names={"dark": "D", "light": "L"}) is None
    s2 = Score(5, (0, 0), False).after_game("dark", 4)
    assert not s2.crawford_game  # the Crawford rule off


def test_beaver_and_its_answer() -> None:
    t = started(beavers=True)
    [d] = t.press("light", "double")
    assert d.choices == ("take", "pass", "beaver")
    [d] = t.press("dark", "beaver")
    assert d.kind == "beaver" and d.reason == "Dark beavers: the cube is at 4, Dark keeps it; Light takes or passes"
    v = t.ref.view()
    assert (v.cube_value, v.cube_owner, v.cube_offered_by, v.cube_offered_value) == (2, "dark", "dark", 4)
    [d] = t.press("dark", "take")
    assert d.kind == "refused" and "Light's to answer" in d.reason
    [d] = t.press("light", "take")
    assert d.reason == "Light takes: the cube is at 4, Dark owns it (beaver); Light throws"
    assert t.ref.state == "waiting_for_roll" and t.ref.turn == "light"


def test_beaver_passed_scores_the_beavered_value() -> None:
    t = started(beavers=True)
    t.press("light", "double")
    t.press("dark", "beaver")
    ds = t.press("light", "pass")
    assert ds[0].reason == "Light passes: Dark wins 2 points"


def test_beaver_refused_when_off_or_in_a_match() -> None:
    t = started()
    t.press("light", "double")
    [d] = t.press("dark", "beaver")
    assert d.kind == "refused" and "beavers are not played here" in d.reason
    t = started(match_to=5)
    t.press("light", "double")
    [d] = t.press("dark", "beaver")
    assert d.reason == "beavers are a money-play rule; this is a match"


def test_jacoby_gammon_counts_single_with_a_centred_cube() -> None:
    t = bearoff_table(jacoby=True)
    ds = t.play((2, 1), "1/off")
    assert [d.kind for d in ds] == ["roll_accepted", "move_accepted", "game_over"]
    assert ds[-1].reason == "Dark wins a gammon: 1 point. Score: Dark +1, Light -1"
    t = bearoff_table(jacoby=False)
    ds = t.play((2, 1), "1/off")
    assert ds[-1].reason == "Dark wins a gammon: 2 points. Score: Dark +2, Light -2"


def test_jacoby_with_the_cube_turned_counts_the_gammon() -> None:
    t = bearoff_table(jacoby=True)
    t.press("dark", "double")
    t.press("light", "take")
    ds = t.play((2, 1), "1/off")
    assert ds[-1].reason == "Dark wins a gammon: 4 points. Score: Dark +4, Light -4"


def test_backgammon_in_a_match_ignores_jacoby() -> None:
    t = Table(Referee(Settings(match_to=7)))
    t.ref.setup(Position.from_points({1: 1}, {1: 1, 24: 1, 13: 5, 8: 3, 6: 5}), "dark")
    ds = t.play((2, 1), "1/off")
    assert ds[-1].reason == "Dark wins a backgammon: 3 points. Score: Dark 3, Light 0 (match to 7)"


def test_cube_values_beyond_64() -> None:
    t = started()
    who = "light"
    for value in (2, 4, 8, 16, 32, 64, 128, 256):
        [d] = t.press(who, "double")
        assert d.get("value") == value
        t.press("dark" if who == "light" else "light", "take")
        assert t.ref.view().cube_value == value
        # the doubler plays a turn, then the taker (now owner) is on turn
        t.throw((1, 2))
        t.board(t.ref.pos)
        t.lift()
        if t.ref.state == "illegal_move":
            t.press("dark" if who == "light" else "light", "accept_move")
        who = t.ref.turn
    assert t.ref.cube.value == 256 and t.ref.view().cube_value == 256


def test_cube_limit() -> None:
    t = started(cube_limit=2)
    t.press("light", "double")
    t.press("dark", "take")
    t.play((6, 4), "24/14")
    [d] = t.press("dark", "double")
    assert d.kind == "refused" and d.reason == "Dark cannot double: the cube limit is 2"


def test_resignations_accepted_and_rejected() -> None:
    t = started(match_to=5)
    t.throw((6, 4))
    [d] = t.press("light", "resign_gammon")
    assert d.reason == "Light offers to resign gammon: Dark accepts or rejects"
    assert t.ref.view().state == "resignation_offered"
    [d] = t.press("light", "accept_resignation")
    assert d.kind == "refused" and "Dark's to answer" in d.reason
    [d] = t.press("dark", "reject_resignation")
    assert d.reason == "Dark rejects the resignation: play on" and t.ref.state == "moving"
    t.move("24/14")
    t.lift()
    t.press("dark", "double")
    t.press("light", "take")
    t.press("dark", "resign_backgammon")
    ds = t.press("light", "accept_resignation")
    assert ds[1].reason == "Light wins by resignation (backgammon): 6 points. Score: Dark 0, Light 6 (match to 5)"
    assert ds[2].kind == "match_over"
    types = [a.TYPE for a in t.record().games[0].actions]
    assert types.count("resign") == 2 and "reject_resign" in types and types[-2:] == ["accept_resign", "game_end"]


def test_money_session_totals() -> None:
    t = started()
    t.press("light", "double")
    t.press("dark", "pass")
    t.opening(5, 2)
    t.move("13/8 13/11")
    t.lift()
    t.press("light", "double")
    t.press("dark", "take")
    t.throw((3, 3))
    t.press("light", "resign_single")
    [_, over] = t.press("dark", "accept_resignation")
    assert over.reason == "Dark wins by resignation (single): 2 points. Score: Dark +1, Light -1"
    assert t.ref.view().score == (2, 1)


def test_settings_errors_name_key_and_value() -> None:
    with pytest.raises(ValueError, match=r"setting early_roll = 'sometimes': must be one of 'stands', 'void'"):
        Settings(early_roll="sometimes")
    with pytest.raises(ValueError, match=r"cube_limit = 3"):
        Settings(cube_limit=3)
    with pytest.raises(ValueError, match=r"jacoby = True: is a money-play rule"):
        Settings(match_to=7, jacoby=True)
    with pytest.raises(ValueError, match=r"unknown referee setting\(s\) colour"):
        Settings.from_dict({"colour": "red"})
    with pytest.raises(ValueError, match=r"chouette = \('a', 'b'\): needs three"):
        Settings(chouette=("a", "b"))
    s = Settings.from_dict({"match_to": 7, "names": ["A", "B"]})
    assert Settings.from_dict(s.to_dict()) == s


def test_resumed_match_in_the_crawford_game() -> None:
    ref = Referee(Settings(match_to=5), score=(4, 2), crawford_game=True)
    t = Table(ref)
    t.opening(5, 2)
    t.move("13/8 13/11")
    t.lift()
    [d] = t.press("light", "double")
    assert d.reason == "Light cannot double: this is the Crawford game"
    t.press("light", "resign_single")
    t.press("dark", "accept_resignation")
    assert ref.state == "match_over"
    ref2 = Referee(Settings(match_to=5), score=(2, 4))  # post-Crawford by default
    t2 = Table(ref2)
    t2.opening(5, 2)
    t2.move("13/8 13/11")
    t2.lift()
    assert t2.press("light", "double")[0].kind == "double"
