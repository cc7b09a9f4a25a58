"""The table trusts its tray reading only as far as the positions it knows bear it out (vision.tray_trust)."""
from __future__ import annotations

import pytest

from vision.tray_trust import AGREE, TrayTrust
from vision.trays import TrayReading


def _read(dark: int, light: int, sure: bool = True, sides: tuple[str, ...] = ("left", "right")) -> TrayReading:
    return TrayReading(dark, light, sure, sides)


def test_a_tray_is_trusted_after_agreeing_with_known_positions_one_of_them_with_checkers_off() -> None:
    trust = TrayTrust()
    for _ in range(AGREE):
        trust.check(_read(0, 0), (0, 0))
    assert not trust.trusted("dark") and trust.odds(_read(1, 0)) is None   # nothing off yet: not earned
    trust.check(_read(0, 0), (0, 0))
    assert not trust.trusted("dark")
    trust.check(_read(2, 0), (2, 0))
    assert trust.trusted("dark") and not trust.trusted("light")
    odds = trust.odds(_read(3, 0))
    assert odds is not None
    dark, light = odds
    assert dark[0][:2] == (3, "dark") and dark[0][2] >= 0.85
    assert len(light) == 16 and len({p for _, _, p in light}) == 1   # untrusted: flat, tells no board apart


def test_a_disagreement_takes_the_trust_away_until_the_tray_agrees_again() -> None:
    trust = TrayTrust()
    for _ in range(AGREE):
        trust.check(_read(1, 1), (1, 1))
    assert trust.trusted("dark") and trust.trusted("light")
    trust.check(_read(1, 0), (1, 1))    # light's one checker off read as none (the commonest misread)
    assert trust.trusted("dark") and not trust.trusted("light")
    for _ in range(AGREE - 1):
        trust.check(_read(1, 1), (1, 1))
    assert not trust.trusted("light")
    trust.check(_read(1, 1), (1, 1))
    assert trust.trusted("light") and trust.missed["light"] == 1


def test_trays_out_of_view_or_unsure_teach_nothing() -> None:
    trust = TrayTrust()
    for _ in range(2 * AGREE):
        trust.check(_read(1, 1, sure=False), (1, 1))
        trust.check(_read(1, 1, sides=("right",)), (1, 1))
    assert trust.agreed == {"dark": 0, "light": 0} and not trust.trusted("dark")
    for _ in range(AGREE):
        trust.check(_read(1, 1), (1, 1))
    assert trust.odds(_read(1, 1, sure=False)) is None and trust.odds(_read(1, 1)) is not None



def test_a_tray_reading_steadily_too_many_is_trusted_less_its_offset_once_the_count_changed() -> None:
    # something lying in Light's tray read as three checkers, position after position (rendered real
    # tables: a tray read 7 for 4, 10 for 7, 13 for 10 through a whole bear-off)
    trust = TrayTrust()
    for _ in range(AGREE):
        trust.check(_read(0, 4), (0, 1))
    assert not trust.trusted("light")       # one count only: the offset never followed a checker borne off
    trust.check(_read(0, 5), (0, 2))
    assert trust.trusted("light") and trust.offset["light"] == 3 and trust.missed["light"] == AGREE + 1
    odds = trust.odds(_read(0, 7))
    assert odds is not None
    assert odds[1][0][:2] == (4, "light") and odds[1][0][2] >= 0.85      # 7 read, 3 of them the thing lying there
    trust.check(_read(0, 6), (0, 4))       # the offset changed: the trust is gone
    assert not trust.trusted("light") and trust.odds(_read(0, 6)) is None


def test_a_tray_reading_too_few_is_trusted_so_only_while_it_never_reads_empty() -> None:
    trust = TrayTrust()
    for want in (1, 1, 2, 2):              # the first checkers borne off read as none: no count to go by
        trust.check(_read(0, 0), (want, 0))
    assert not trust.trusted("dark")
    trust = TrayTrust()
    for want in (3, 4, 4):                 # one checker hidden steadily, the rest counted
        trust.check(_read(want - 1, 0), (want, 0))
    assert trust.trusted("dark") and trust.offset["dark"] == -1
    odds = trust.odds(_read(5, 0))
    assert odds is not None and odds[0][0][:2] == (6, "dark")

@pytest.mark.parametrize("seed, trusted", [(3, True), (5, False)])
def test_the_reader_gives_the_trays_odds_once_the_known_positions_bore_them_out(seed: int, trusted: bool) -> None:
    # a bear-off on a rendered table: the reader learns each position the referee accepts, the trays read
    # on its frame checked against its checkers off.  Seed 3: Dark's tray right three times (checkers off
    # in two), then in the reading's odds (28 places); Light's, never seen with checkers off, flat.  Seed 5:
    # the tray reads one checker lying in it as none, surely: Dark's tray is not trusted after it
    from referee.board import layout_of, layout_to_evidence
    from referee.rules.position import Position
    from vision.config import VisionConfig
    from vision.reader import BoardReader
    from vision.render import RenderParams, render_scene

    light = {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}   # Light's checkers on their home board (Dark's numbering: 19-23)
    boards = [Position.from_points({1: 3, 2: 3, 3: 3, 4: 3, 5: 3 - k}, {25 - p: n for p, n in light.items()})
              for k in range(4)]   # Dark bears off one checker a move: 0, 1, 2, 3 off
    evs = [layout_to_evidence(layout_of(b)) for b in boards]
    assert [ev.off for ev in evs] == [(0, 0), (1, 0), (2, 0), (3, 0)]
    first = render_scene(evs[0], RenderParams(), seed=seed)
    reader = BoardReader(VisionConfig(markers=False), corners=first.corners)
    for k, ev in enumerate(evs):
        reading = reader.inspect(render_scene(ev, RenderParams(), seed=seed, frame=k).image)
        assert reading.evidence is not None and reading.trays is not None and reading.trays.sure
        if k < 3:
            assert len(reading.evidence.odds) == 26, k    # not trusted yet
            assert reader.learn(ev)
    assert reader.tray_trust.trusted("dark") is trusted and not reader.tray_trust.trusted("light")
    odds = reading.evidence.odds
    if trusted:
        assert len(odds) == 28 and odds[26][0][:2] == (3, "dark") and len(odds[27]) == 16
    else:
        assert reader.tray_trust.missed["dark"] >= 1 and len(odds) == 26
