"""Replaying the cube, resignations and the result: each action checked against the rules
(RULES.md 7-8: the turn, the owner, the value, the Crawford game, the cube limit, beavers in
money play only, the right player answering; a resignation answered by the opponent; the
result consistent with the final position, the cube and the Jacoby rule)."""
from __future__ import annotations

from typing import Optional

from referee.colour import Colour
from referee.rules.scoring import loser_kind
from referee.records.actions import AcceptResign, Action, Beaver, Double, GameEnd, Pass, RejectResign, Resign, Take
from referee.records.replay_state import _KIND_NAMES, ReplayState, _pname


class CubeAndResult(ReplayState):
    """The handlers of cube actions, resignations and the game's result (a part of
    :class:`referee.records.replayer.GameReplayer`)."""

    def _on_double(self, a: Double, move: int, index: int) -> None:
        p = a.player
        if self.crawford:
            self.problem(move, a, "no doubling in the Crawford game")
        if self.to_act is None:
            self.problem(move, a, "the cube cannot be turned before the opening roll")
        elif self.to_act != p:
            self.problem(move, a, f"{_pname(p)} may double only at the start of their own turn")
        if self.rolled is not None:
            self.problem(move, a, "a double must come before rolling, not after")
            self.rolled = None
        if self.owner is not None and self.owner != p:
            self.problem(move, a, f"{_pname(self.owner)} owns the cube at {self.cube}; only the owner may redouble")
        if a.value != self.cube * 2:
            self.problem(move, a, f"the cube is at {self.cube}, so a double offers {self.cube * 2}, not {a.value}")
        if self.rules.cube_limit and a.value > self.rules.cube_limit:
            self.problem(move, a, f"the cube limit is {self.rules.cube_limit}")
        self.standing = self.cube_state
        self.cube_state = self.cube_state.offer(Colour.from_number(p))

    def _answer(self, a: Action, move: int) -> bool:
        if self.pending is None:
            self.problem(move, a, "there is no double to answer")
            return False
        doubler = self.pending[0]
        if a.player == doubler:
            self.problem(move, a, f"{_pname(doubler)} made the offer; {_pname(1 - doubler)} must answer it")
            return False
        return True

    def _on_take(self, a: Take, move: int, index: int) -> None:
        if not self._answer(a, move):
            return
        self.cube_state, self.standing = self.cube_state.take(), None

    def _on_pass(self, a: Pass, move: int, index: int) -> None:
        if not self._answer(a, move):
            return
        self.passed = (a.player, self.cube_state.pass_value())
        self._drop_offer()

    def _on_beaver(self, a: Beaver, move: int, index: int) -> None:
        if self.match_length != 0 or not self.rules.beavers:
            self.problem(move, a, "beavers are allowed only in money play with the beaver rule on")
        if not self._answer(a, move):
            return
        if self.pending[2]:  # type: ignore[index]
            self.problem(move, a, "a beaver cannot be beavered again")
        value = self.pending[1] * 2  # type: ignore[index]
        if a.value != value:
            self.problem(move, a, f"a beaver of a double to {value // 2} makes the cube {value}, not {a.value}")
        self.cube_state = self.cube_state.beaver()  # ``standing`` stays: the cube before the double

    def _on_resign(self, a: Resign, move: int, index: int) -> None:
        if self.rolled is not None and self.rolled[0] == a.player:
            self.rolled = None  # rolled, then resigned instead of playing
        self.resign = (a.player, a.kind)
        self.resign_accepted = False

    def _on_accept_resign(self, a: AcceptResign, move: int, index: int) -> None:
        if self.resign is None or self.resign_accepted:
            self.problem(move, a, "there is no resignation offer to accept")
        elif self.resign[0] == a.player:
            self.problem(move, a, "a player cannot accept their own resignation")
        else:
            self.resign_accepted = True

    def _on_reject_resign(self, a: RejectResign, move: int, index: int) -> None:
        if self.resign is None or self.resign_accepted or self.resign[0] == a.player:
            self.problem(move, a, "there is no resignation offer by the opponent to reject")
        self.resign = None

    def _on_game_end(self, a: GameEnd, move: int, index: int) -> None:
        w = a.winner
        self.ended = a
        if self.passed is not None:
            passer, pts = self.passed
            if a.reason != "pass":
                self.problem(move, a, f"the game ended by {_pname(passer)} passing the double, not by {a.reason}")
            if w != 1 - passer:
                self.problem(move, a, f"{_pname(passer)} passed, so {_pname(1 - passer)} wins, not {_pname(w)}")
            if a.points != pts:
                self.problem(move, a, f"a pass of the cube at {pts * 2} gives {pts} point(s), not {a.points}")
            return
        if a.reason == "pass":
            self.problem(move, a, "the result says the double was passed, but no pass was recorded")
            return
        if a.reason == "timeout":  # the table's clock: the loser's reserve ran out (any points)
            return
        if self.broken:
            return
        side_w = self.pos0.me if w == 0 else self.pos0.opp
        side_l = self.pos0.opp if w == 0 else self.pos0.me
        if self.over:
            if sum(side_w) != 0:
                self.problem(move, a, f"{_pname(1 - w)} bore off all checkers, so {_pname(w)} cannot be the winner")
                return
            kind = int(loser_kind(side_l))
            if a.reason != "bearoff":
                self.problem(move, a,
                             f"the game was played to the end (a {_KIND_NAMES[kind]}), not ended by {a.reason}")
            if a.kind != kind:
                self.problem(move, a, f"the final position is a {_KIND_NAMES[kind]}, not a {_KIND_NAMES[a.kind]}")
            pts = self._kind_points(kind)
            if a.points != pts:
                self.problem(move, a, f"a {_KIND_NAMES[kind]} with the cube at {self.cube} is worth {pts} point(s), "
                                      f"not {a.points}")
            return
        if a.reason == "bearoff":
            self.problem(move, a, f"{_pname(w)} still has {sum(side_w)} checker(s) on the board; "
                                  "the game is not over")
            return
        # resignation
        if self.resign is None or not self.resign_accepted:
            self.problem(move, a, "the game ended by resignation but no accepted resignation was recorded")
            return
        if self.resign[0] != 1 - w:
            self.problem(move, a, f"{_pname(self.resign[0])} resigned, so {_pname(w)} cannot be the winner")
        kind = self.resign[1]
        if a.kind != kind:
            self.problem(move, a, f"the resignation was for a {_KIND_NAMES[kind]}, not a {_KIND_NAMES[a.kind]}")
        pts = self._kind_points(kind)
        if a.points != pts:
            self.problem(move, a, f"resigning a {_KIND_NAMES[kind]} with the cube at {self.cube} "
                                  f"gives {pts} point(s), not {a.points}")

    def end_actions(self, winner: int, points: int, resigned: Optional[bool] = None
                    ) -> tuple[list[Action], Optional[str]]:
        """The actions that close the game when a file only says who won how many
        points (.mat ``Wins``, SGF ``RE``): the result after a pass or a bear-off, else
        an accepted resignation worth ``cube x kind`` (kind 1..3, as gnubg imports it).
        Returns the actions to feed and a note when the points had to be normalised."""
        if self.passed is not None:
            return [GameEnd(winner, points, 1, "pass")], None
        if self.over and not self.broken and not resigned:
            loser = self.pos0.opp if winner == 0 else self.pos0.me
            return [GameEnd(winner, points, int(loser_kind(loser)) if sum(loser) else 1, "bearoff")], None
        kind = min(3, max(1, points // self.cube))
        note = None
        if points != kind * self.cube:
            note = (f"a resignation with the cube at {self.cube} is worth {kind * self.cube} point(s); "
                    "read as that (as gnubg does)")
            points = kind * self.cube
        acts: list[Action] = []
        if self.resign is not None and self.resign[0] == 1 - winner and not self.resign_accepted:
            self.resign = (1 - winner, kind)  # its kind is what was scored
        else:
            acts.append(Resign(1 - winner, kind))
        acts += [AcceptResign(winner), GameEnd(winner, points, kind, "resign")]
        return acts, note
