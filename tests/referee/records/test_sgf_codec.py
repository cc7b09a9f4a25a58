"""gnubg SGF: the real gnubg files read as their .mat twins; write/read round trips."""
from __future__ import annotations

from referee.records.matfile import load_mat
from referee.records.actions import Move
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.records.replay import replay_match
from referee.records.sgf import load_sgf, read_sgf, write_sgf


def _shape(rec: MatchRecord):
    return [(g.number, g.score_before, g.crawford, g.result,
             [(a.TYPE, a.player, tuple(sorted(getattr(a, "dice", ())))) for a in g.actions]) for g in rec.games]


def test_gnubg_sgf_files_read_as_their_mat_twins(matches_dir):
    for stem in ("lhm_match1484923", "lhm_match1486073"):
        s = load_sgf(matches_dir / f"{stem}_analyzed.sgf")
        m = load_mat(matches_dir / f"{stem}.txt")
        assert s.problems == []
        assert s.record.players == m.record.players and s.record.match_length == m.record.match_length
        assert _shape(s.record) == _shape(m.record)
        rs, rm = replay_match(s.record), replay_match(m.record)
        assert rs.problems == [] and rs.score == rm.score
        # the same plays: every game ends in the same position
        assert [g.final for g in rs.games] == [g.final for g in rm.games]


def test_write_then_read_keeps_every_game(matches_dir):
    paths = sorted(p for p in matches_dir.glob("*.txt") if p.name != "SOURCES.txt")[::4]
    for path in paths:
        rec = load_mat(path).record
        text = write_sgf(rec)
        assert text.startswith("(;FF[4]GM[6]")
        back = read_sgf(text)
        assert back.problems == [], path.name
        assert _shape(back.record) == _shape(rec), path.name
        a, b = replay_match(rec), replay_match(back.record)
        assert b.problems == [] and [g.final for g in a.games] == [g.final for g in b.games], path.name


def test_letters_and_escapes():
    g = GameRecord(1, (0, 0), False, (Move(1, (4, 1), "24/23 13/9"), Move(0, (6, 2), "24/18 13/11")))
    rec = MatchRecord(("Ann ]x[", "Bob\\"), 0, RuleSettings(crawford=False), (g,))
    text = write_sgf(rec)
    assert ";B[41abl" in text or ";B[41lpab]" in text  # B's 24/23 = a->b, 13/9 = l->p
    assert ";W[62" in text and "xr" in text and "mk" in text  # W's 24/18 = x->r, 13/11 = m->k
    back = read_sgf(text).record
    assert back.players == ("Ann ]x[", "Bob\\")
    assert replay_match(back).problems == []


def test_reader_reports_unreadable_nodes():
    text = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+1R];W[31hefe];B[zz9])"
    read = read_sgf(text)
    assert [(p.game, p.text) for p in read.problems] == [(1, "zz9")]
    assert read.record.games[0].result.points == 1
