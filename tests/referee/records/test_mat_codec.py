"""The .mat reader's variants and problem collection, and the writer's round trips."""
from __future__ import annotations

import pytest

from referee.records.matfile import load_mat, read_mat, write_mat
from referee.records.actions import AcceptResign, Double, GameEnd, Move, Pass, Resign, Roll, Take
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.records.replay import replay_match

IPE = "bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt"

SMALL = """\ufeff; [Event "Club night"]
; [Crawford "On"]
; [CubeLimit "64"]

 3 point match

 Game 1
 Ann : 0                        Bob : 0
  1)                             31: 8/5 6/5
  2) 42: 8/4 6/4                  Doubles => 2
  3)  Drops
                                  Wins 1 point

 Game 2
 Ann : 0                        Bob : 1
  1) 64: 24/18 13/9               Doubles => 2
  2)  Takes                      66: 24/18(2) 13/7(2)
  3) 66: Cannot Move             52: 13/11 13/8
  4) 11: Concedes
                                  Wins 4 points and the match
"""


def test_small_match_every_kind_of_line():
    read = read_mat(SMALL)
    assert read.problems == []
    rec = read.record
    assert rec.players == ("Ann", "Bob") and rec.match_length == 3
    assert rec.rules == RuleSettings(crawford=True, cube_limit=64)
    assert rec.meta_value("Event") == "Club night"
    g1, g2 = rec.games
    assert g1.actions == (Move(1, (3, 1), "8/5 6/5"), Move(0, (4, 2), "8/4 6/4"), Double(1, 2), Pass(0),
                          GameEnd(1, 1, 1, "pass"))
    assert g2.score_before == (0, 1)
    assert g2.actions[1:4] == (Double(1, 2), Take(0), Move(1, (6, 6), "24/18(2) 13/7(2)"))
    assert Move(0, (6, 6), "Cannot Move") in g2.actions
    # "11: Concedes": rolled, then resigned a gammon (4 points with the cube at 2)
    assert g2.actions[-4:] == (Roll(0, (1, 1)), Resign(0, 2), AcceptResign(1), GameEnd(1, 4, 2, "resign"))
    rep = replay_match(rec)
    assert [str(p) for p in rep.problems] == [] and rep.score == (0, 5)


def test_reader_collects_problems_with_game_and_move_and_goes_on():
    bad = SMALL.replace("  4) 11: Concedes", "  what is this line\n  4) 11: Concedes", 1)
    bad = bad.replace("  2) 42: 8/4 6/4", "  2) 72: 8/4 6/4", 1)
    read = read_mat(bad)
    assert [(p.game, p.move, p.text) for p in read.problems] == [(1, 2, "72: 8/4 6/4"), (2, 3, "what is this line")]
    assert "1-6" in read.problems[0].reason and "unreadable" in read.problems[1].reason
    assert len(read.record.games) == 2 and read.record.games[1].result is not None


def test_notation_variants_read_the_same(matches_dir):
    text = (matches_dir / IPE).read_bytes().decode("utf-8-sig")
    variant = text.replace("Bar/", "25/").replace("/Off", "/0")
    assert variant != text
    a, b = read_mat(text).record, read_mat(variant).record
    assert replay_match(b).problems == []
    assert write_mat(a) == write_mat(b)


def test_latin1_and_bom_files_decode(matches_dir):
    rec = load_mat(matches_dir / "bgc_Aref91777_-_sahlen_13pt_Backgammon_Studio_2022_04_12_19_15_15_1649883001.txt").record
    assert rec.games and all("\ufffd" not in p for p in rec.players)
    rec = load_mat(matches_dir / IPE).record
    assert rec.players == ("ipe", "sam") and rec.meta[0] == ("Event", "28th Bansei")


def test_write_read_write_is_stable_on_every_file(matches_dir):
    for path in sorted(matches_dir.glob("*.txt")):
        if path.name == "SOURCES.txt":
            continue
        rec = load_mat(path).record
        text = write_mat(rec)
        again = read_mat(text)
        assert again.problems == [], path.name
        assert write_mat(again.record) == text, path.name
        assert [g.result for g in again.record.games] == [g.result for g in rec.games], path.name
        assert [g.crawford for g in again.record.games] == [g.crawford for g in rec.games], path.name


def test_money_session_and_unfinished_game_round_trip():
    g1 = GameRecord(1, (0, 0), False, (Move(0, (3, 1), "8/5 6/5"), Move(1, (6, 4), "24/18 13/9"), Double(0, 2),
                                       Pass(1), GameEnd(0, 1, 1, "pass")))
    g2 = GameRecord(2, (1, 0), False, (Move(1, (5, 2), "13/8 13/11"), Move(0, (4, 4), "24/20(2) 13/9(2)")))
    rec = MatchRecord(("Ann", "Bob"), 0, RuleSettings(crawford=False), (g1, g2))
    text = write_mat(rec)
    assert " 0 point match" in text
    back = read_mat(text).record
    assert back.match_length == 0 and len(back.games) == 2 and back.games[1].result is None
    assert [type(a) for a in back.games[1].actions] == [Move, Move]
    assert replay_match(back).problems == [] and replay_match(back).score == (1, 0)


@pytest.mark.parametrize("line, player", [
    ("  7)                                63: 24/18 13/10", 1),
    ("  7) 63: 24/18 13/10", 0),
])
def test_single_cell_column_comes_from_its_offset(line, player):
    text = " 5 point match\n\n Game 1\n A : 0                          B : 0\n" + line + "\n"
    rec = read_mat(text).record
    assert rec.games[0].actions[0].player == player


def test_cli_convert_round_trip(matches_dir, tmp_path, capsys):
    from referee.cli.records import main_convert
    src = matches_dir / IPE
    sgf, mat, js = tmp_path / "a.sgf", tmp_path / "b.mat", tmp_path / "c.json"
    assert main_convert([str(src), str(sgf)]) == 0
    assert main_convert([str(sgf), str(mat)]) == 0
    assert main_convert([str(mat), str(js)]) == 0
    direct = write_mat(load_mat(src).record)
    # SGF carries no Round/Site headers beyond its own properties; the games are identical
    assert mat.read_text().split(" Game 1", 1)[1] == direct.split(" Game 1", 1)[1]
    from referee.records.record import MatchRecord
    assert MatchRecord.from_json(js.read_text()).games == load_mat(mat).record.games
    with pytest.raises(SystemExit) as e:
        main_convert([str(src)])
    assert e.value.code == 2
    assert main_convert([str(src), str(tmp_path / "x.pdf")]) == 2
    assert "unknown extension '.pdf'" in capsys.readouterr().err


def test_the_two_rolls_pattern_reads_what_the_cells_test_reads(matches_dir):
    # the reader's one-match common line (_TWO_ROLLS) takes only lines the cells' test takes,
    # with the same move number and the same two cells
    import random

    from referee.records.matfile import _MOVELINE, _TWO_ROLLS

    def cells_test(line):
        m = _MOVELINE.match(line)
        if not m:
            return None
        rest = m.group(2)
        c1 = rest.find(":")
        c2 = rest.find(":", c1 + 1)
        if not (c1 >= 2 and c2 > 0 and rest.find(":", c2 + 1) < 0 and rest[c1 - 2:c1].isdigit()
                and rest[c2 - 2:c2].isdigit() and "s" not in rest and "S" not in rest and "=" not in rest
                and rest.isascii()):
            return None
        return int(m.group(1)), rest[c1 - 2:c2 - 2].strip(), rest[c2 - 2:].strip()

    lines = [raw.rstrip() for p in sorted(matches_dir.glob("*.txt"))[:20]
             for raw in p.read_text(encoding="utf-8", errors="replace").splitlines()]
    rng = random.Random(3)
    alphabet = list("0123456789  :)/*sS=abWins?\t") + ["\xa0", "é", "１", "\x1c", "13/8", "52:", " 1)", "Takes"]
    lines += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))).rstrip() for _ in range(20000)]
    lines += [f" {rng.randint(0, 99)}) {rng.randint(10, 66)}: 13/8 {rng.choice(alphabet)}   "
              f"{rng.randint(0, 99)}:{rng.choice(alphabet)}".rstrip() for _ in range(20000)]
    taken = 0
    for line in lines:
        m = _TWO_ROLLS.match(line)
        want = cells_test(line)
        if m is None:
            continue
        taken += 1
        num, left, right = m.groups()
        assert want == (int(num), left.strip(), right), line
    assert taken > 5000
