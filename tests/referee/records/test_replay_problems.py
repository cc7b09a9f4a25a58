"""Records with deliberate faults: each reported with the right game, move, text and reason."""
from __future__ import annotations

import dataclasses
import json

import pytest

from referee.cli.records import main_replay
from referee.records.matfile import read_mat, write_mat
from referee.records.actions import AcceptResign, Double, GameEnd, Move, Pass, Resign, Take
from referee.records.problems import layout
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.records.replay import replay_match

IPE = "bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt"


@pytest.fixture(scope="module")
def ipe_text(matches_dir):
    return (matches_dir / IPE).read_bytes().decode("utf-8-sig")


@pytest.fixture(scope="module")
def ipe(ipe_text):
    return read_mat(ipe_text).record


def _replace_game(record: MatchRecord, number: int, actions) -> MatchRecord:
    games = [g.with_actions(actions) if g.number == number else g for g in record.games]
    return record.replace_games(games)


def test_clean_before_corruption(ipe):
    assert replay_match(ipe).problems == []


def test_corrupted_play_names_game_move_and_alternatives(ipe_text):
    bad = ipe_text.replace("  4) 52: 13/11 13/8 ", "  4) 52: 13/11 13/6 ", 1)
    assert bad != ipe_text
    problems = replay_match(read_mat(bad).record).problems
    assert problems, "an illegal play must be reported"
    p = problems[0]
    assert (p.game, p.move, p.text) == (1, 4, "52: 13/11 13/6")
    assert p.reason.startswith("illegal play:") and "legal plays: '" in p.reason


def test_take_by_the_wrong_player(ipe):
    g1 = ipe.games[0]
    acts = list(g1.actions)
    i = next(k for k, a in enumerate(acts) if isinstance(a, Take))
    doubler = acts[i - 1].player
    acts[i] = Take(doubler)
    problems = replay_match(_replace_game(ipe, 1, acts)).problems
    assert problems
    p = problems[0]
    assert (p.game, p.move, p.text) == (1, layout(acts)[i][0], "Takes")
    assert "must answer" in p.reason


def test_double_in_the_crawford_game(ipe):
    craw = next(g for g in ipe.games if g.crawford)
    acts = list(craw.actions)
    moves = [k for k, a in enumerate(acts) if isinstance(a, Move)]
    k = moves[4]
    p_ = acts[k].player
    acts[k:k] = [Double(p_, 2), Take(1 - p_)]
    problems = replay_match(_replace_game(ipe, craw.number, acts)).problems
    assert [(p.game, p.move, p.text) for p in problems][:1] == [(craw.number, layout(acts)[k][0], "Doubles => 2")]
    assert "Crawford" in problems[0].reason


def test_wrong_result_points_and_winner(ipe):
    g2 = ipe.games[1]
    end = g2.result
    assert end is not None and end.reason == "bearoff"
    acts = list(g2.actions[:-1]) + [dataclasses.replace(end, points=end.points + 1)]
    problems = replay_match(_replace_game(ipe, 2, acts)).problems
    first = problems[0]
    assert (first.game, first.text) == (2, f"Wins {end.points + 1} points")
    assert f"worth {end.points} point" in first.reason
    # the following game's recorded score no longer adds up either
    assert any(p.game == 3 and p.move == 0 and "score before" in p.reason for p in problems)
    acts = list(g2.actions[:-1]) + [dataclasses.replace(end, player=1 - end.winner)]
    problems = replay_match(_replace_game(ipe, 2, acts)).problems
    assert problems[0].game == 2 and "cannot be the winner" in problems[0].reason


def _game(*actions, number=1, score=(0, 0), crawford=False):
    return GameRecord(number, score, crawford, tuple(actions))


def test_small_faults():
    rules = RuleSettings()
    cases = [
        (_game(Move(0, (3, 3), "8/5(2) 6/3(2)")), 1, "opening roll cannot be a double"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Move(0, (4, 2), "8/4 6/4")), 2, "turn"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Double(0, 2)), 2, "own turn"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Double(1, 4)), 1, "offers 2, not 4"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Double(1, 2), Pass(0), Move(1, (6, 5), "24/13")), 2, "passed"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Double(1, 2), Pass(0), GameEnd(1, 2, 1, "pass")), 2, "gives 1 point"),
        (_game(Move(0, (3, 1), "8/5 6/5"), GameEnd(0, 1, 1, "bearoff")), 1, "not over"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Resign(1, 2), AcceptResign(1)), 1, "own resignation"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Resign(1, 2), AcceptResign(0), GameEnd(0, 1, 2, "resign")), 1,
         "gives 2 point"),
        (_game(Move(0, (3, 1), "8/5 6/5"), Take(1)), 1, "no double"),
        (_game(Move(0, (3, 1), "8/5 6/55")), 1, "destination point 55"),
    ]
    for game, move, words in cases:
        problems = replay_match(MatchRecord(("a", "b"), 5, rules, (game,))).problems
        assert problems, (game, words)
        assert problems[0].game == 1 and problems[0].move == move, (words, [str(p) for p in problems])
        assert words in problems[0].reason, (words, problems[0].reason)


def test_cli_exit_codes_and_problem_lines(tmp_path, ipe_text, capsys):
    good = tmp_path / "good.mat"
    bad = tmp_path / "bad.mat"
    good.write_text(ipe_text, encoding="utf-8")
    bad.write_text(ipe_text.replace("  4) 52: 13/11 13/8 ", "  4) 52: 13/11 13/6 ", 1), encoding="utf-8")
    assert main_replay([str(good)]) == 0
    capsys.readouterr()
    assert main_replay([str(bad), str(good), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    line = 1 + next(i for i, ln in enumerate(ipe_text.splitlines()) if ln.startswith("  4) 52: 13/11 13/8"))
    assert out["files"][0]["problems"][0] == {"game": 1, "move": 4, "text": "52: 13/11 13/6", "line": line,
                                              "reason": out["files"][0]["problems"][0]["reason"]}
    assert out["files"][1]["problems"] == [] and out["files"][1]["score"] == [7, 12]
    assert main_replay([str(bad)]) == 1
    text = capsys.readouterr().out
    assert f"{bad}: line {line}: game 1, move 4: '52: 13/11 13/6': illegal play" in text


def test_written_record_of_a_faulty_game_keeps_the_fault(ipe_text):
    bad = read_mat(ipe_text.replace("  4) 52: 13/11 13/8 ", "  4) 52: 13/11 13/6 ", 1)).record
    again = read_mat(write_mat(bad)).record
    assert [(p.game, p.move) for p in replay_match(again).problems][:1] == [(1, 4)]


def test_money_rules_automatic_double_beaver_and_jacoby():
    from referee.records.actions import Beaver, Reroll
    money = RuleSettings(crawford=False, jacoby=True, beavers=True, automatic_doubles=1)
    g = _game(Reroll(0, "opening_tie", (4, 4)), Move(0, (3, 1), "8/5 6/5"), Move(1, (6, 4), "24/18 13/9"),
              Double(0, 4), Beaver(1, 8), Take(0), Move(0, (2, 1), "13/11 6/5"),
              Resign(1, 1), AcceptResign(0), GameEnd(0, 8, 1, "resign"))
    rep = replay_match(MatchRecord(("a", "b"), 0, money, (g,)))
    assert rep.problems == [] and rep.score == (8, 0)
    assert rep.games[0].cube == 8
    # Jacoby: with the cube never turned a resigned gammon counts single
    g = _game(Move(0, (3, 1), "8/5 6/5"), Resign(1, 2), AcceptResign(0), GameEnd(0, 1, 2, "resign"))
    assert replay_match(MatchRecord(("a", "b"), 0, money, (g,))).problems == []
    # beavers are refused in match play, and redoubling by the non-owner is caught
    g = _game(Move(0, (3, 1), "8/5 6/5"), Double(1, 2), Beaver(0, 4))
    assert "beavers are allowed only" in replay_match(MatchRecord(("a", "b"), 5, RuleSettings(), (g,))).problems[0].reason
    g = _game(Move(0, (3, 1), "8/5 6/5"), Double(1, 2), Take(0), Move(1, (6, 4), "24/18 13/9"), Double(0, 4),
              Take(1), Move(0, (2, 1), "13/11 6/5"), Double(0, 8))
    p = replay_match(MatchRecord(("a", "b"), 0, money, (g,))).problems
    assert len(p) == 2 and "owns the cube" in p[1].reason and p[1].move == 5


def test_move_numbers_of_a_growing_list_are_the_layouts():
    # MoveNumbers (the SGF reader's) gives layout(actions)[-1][0] at every append, with the rolls,
    # re-rolls, corrections, penalties and resignations that make the numbering look ahead
    import random

    from referee.records.actions import Correction, Penalty, Reroll, Roll
    from referee.records.problems import MoveNumbers

    rng = random.Random(5)
    makers = [lambda p: Roll(p, (3, 1)), lambda p: Move(p, (3, 1), "8/5 6/5"), lambda p: Reroll(p, "cocked"),
              lambda p: Correction(p, (3, 1), "8/4"), lambda p: Penalty(p, 1, "timeout"), lambda p: Double(p, 2),
              lambda p: Take(p), lambda p: Resign(p, 1), lambda p: AcceptResign(p)]
    for _ in range(300):
        acts: list = []
        numbers = MoveNumbers()
        for _ in range(rng.randint(1, 30)):
            acts.append(rng.choice(makers)(rng.randint(0, 1)))
            assert numbers.last(acts) == layout(acts)[-1][0], acts
