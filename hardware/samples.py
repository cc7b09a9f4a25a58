"""Sample table views, one per screen state: the demo, the screenshots and the tests use them."""
from __future__ import annotations

from typing import Mapping

from referee.view import START_DARK, START_LIGHT, ChouetteView, MemberView, TableView


def board(dark: Mapping[int, int], light: Mapping[int, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Checker counts per table point from {point: count} maps."""
    return (tuple(dark.get(p, 0) for p in range(1, 25)), tuple(light.get(p, 0) for p in range(1, 25)))


MIDGAME = board({24: 1, 13: 4, 8: 3, 6: 5, 5: 2}, {1: 2, 12: 4, 17: 2, 19: 5, 20: 2})
HIT = board({24: 1, 13: 5, 8: 2, 6: 4, 4: 2}, {1: 2, 12: 3, 17: 3, 19: 4, 20: 2, 22: 1})  # Dark has one on the bar
BEAROFF = board({1: 2, 2: 3, 3: 2, 4: 1, 5: 2, 6: 1}, {19: 1, 20: 2, 21: 3, 22: 2, 23: 1, 24: 1})
GAMMON = board({}, {13: 2, 19: 3, 20: 4, 22: 2, 24: 4})
# a chouette of five: Ann is the box (dark), Bob captains; Ann has doubled the team
CHOUETTE = ChouetteView("Ann", "dark", "Bob", (
    MemberView("Bob", 2, "member", "playing"), MemberView("Cid", 1, None, "to_answer"),
    MemberView("Dan", 1, None, "passed"), MemberView("Eve", 1, None, "to_answer")),
    scores=(("Ann", 3), ("Bob", -2), ("Cid", 0), ("Dan", 1), ("Eve", -2)))
PLAYS = ("Ann 31: 8/5 6/5", "Bob 64: 1/11", "Ann 52: 13/8 13/11", "Bob 66: 12/18(2) 17/23(2)")


def sample_views(names: tuple[str, str] = ("Ann", "Bob")) -> list[tuple[str, TableView]]:
    """(name, view) for every state the screen shows, in the order the demo cycles them."""
    a, b = names
    base = TableView(names=names, match_length=7, score=(2, 3), game=4)
    return [
        ("opening_roll", base.replace(dark=START_DARK, light=START_LIGHT, dice=(5, 3), state="opening_roll",
                                      message=f"{a} throws 5, {b} throws 3: {a} starts with 5-3")),
        ("waiting_for_roll", base.replace(dark=MIDGAME[0], light=MIDGAME[1], cube_value=2, cube_owner="light",
                                          turn="light", state="waiting_for_roll", last_plays=PLAYS[:2],
                                          message=f"{b} may double or throw the dice")),
        ("moving", base.replace(dark=MIDGAME[0], light=MIDGAME[1], dice=(6, 4), cube_value=2, cube_owner="light",
                                turn="dark", state="moving", last_plays=PLAYS[:3],
                                message="Move your checkers, then pick up your dice")),
        ("reroll", base.replace(dark=MIDGAME[0], light=MIDGAME[1], dice=(3, None), turn="dark", state="reroll",
                                message="Re-roll: the left die is cocked. Throw both dice again.")),
        ("illegal_move", base.replace(dark=HIT[0], light=HIT[1], bar=(1, 0), dice=(6, 4), turn="dark",
                                      state="illegal_move", last_plays=PLAYS,
                                      choices=("accept_move", "demand_legal_move"),
                                      message=f"{a} played 13/7 13/9 with 6-4 but must enter from the bar first. "
                                              f"{b} chooses.")),
        ("double_offered", base.replace(dark=MIDGAME[0], light=MIDGAME[1], cube_value=2, cube_owner="dark",
                                        cube_offered_by="dark", turn="dark", state="double_offered",
                                        choices=("take", "pass"), last_plays=PLAYS[:2],
                                        message=f"{b}: take (play on for 4) or pass (lose 2)")),
        ("resignation_offered", base.replace(dark=BEAROFF[0], light=BEAROFF[1], off=(4, 5), cube_value=4,
                                             cube_owner="light", turn="light", state="resignation_offered",
                                             choices=("accept_resignation", "reject_resignation"),
                                             message=f"{b} offers to resign a single game (4 points)")),
        ("game_over", base.replace(dark=GAMMON[0], light=GAMMON[1], off=(15, 0), cube_value=2, cube_owner="light",
                                   score=(6, 3), state="game_over", last_plays=PLAYS,
                                   message=f"{a} wins a gammon: 4 points. {a} 6, {b} 3")),
        ("crawford", base.replace(dark=START_DARK, light=START_LIGHT, score=(6, 3), game=5, crawford=True,
                                  turn="light", dice=(2, 1), state="moving",
                                  message="Crawford game: no doubling this game")),
        ("big_cube", base.replace(dark=BEAROFF[0], light=BEAROFF[1], off=(4, 5), cube_value=128, cube_owner="dark",
                                  match_length=0, score=(0, 0), turn="dark", dice=(5, 5), state="moving",
                                  message="Money game: the cube is at 128")),
        ("waiting_for_board", base.replace(dark=MIDGAME[0], light=MIDGAME[1], dice=(6, 4), turn="dark",
                                           state="waiting_for_board",
                                           message="Cannot read the board: point 13 is covered. "
                                                   "Take your hands away.")),
        ("director", base.replace(dark=MIDGAME[0], light=MIDGAME[1], turn="light", state="director",
                                  message=f"{b} called the director. Play is paused.")),
        ("chouette", base.replace(dark=MIDGAME[0], light=MIDGAME[1], match_length=0, score=(0, 0), game=3,
                                  cube_value=2, cube_owner="light", turn="dark", state="double_offered",
                                  choices=("take", "pass"), chouette=CHOUETTE,
                                  message="Ann doubles Cid (to 2), Eve (to 2): each takes or passes")),
        ("match_over", base.replace(dark=GAMMON[0], light=GAMMON[1], off=(15, 0), score=(7, 3), state="match_over",
                                    message=f"{a} wins the match 7-3")),
    ]
