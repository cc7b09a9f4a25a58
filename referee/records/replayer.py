"""The replayer of one game: :class:`GameReplayer` checks and applies one action at a time.

The plays are checked here (a fast die-by-die path, :mod:`referee.rules.fastcheck`, falling
back to :func:`referee.rules.moves.match_play`, with the legal alternatives named when a play
is illegal), with the turn, the roll and re-rolls; the cube, resignations and the result
are checked by :class:`~referee.records.replay_cube.CubeAndResult`.
"""
from __future__ import annotations

from typing import Union

from referee.errors import IllegalPlay, NotationError
from referee.rules.fastcheck import fast_play
from referee.rules.moves import legal_plays, match_play
from referee.rules.notation import OFF_POINT, parse_play, parse_play_cached
from referee.rules.position import Position
from referee.records.actions import (SCORE_NOTES, AcceptResign, Action, Beaver, Correction, GameEnd, IllegalAccepted,
                                     Move, Pass, RejectResign, Reroll, Roll, Take)
from referee.records.replay_cube import CubeAndResult
from referee.records.replay_state import GameReplay, KnownReplay, _pname

_parse = parse_play_cached
_new = tuple.__new__


class GameReplayer(CubeAndResult):
    """The state of one game while its actions are fed in order (:meth:`feed`).

    ``pos0`` is the position with player 0 on roll (player 0's side is ``me``).
    """

    # ----------------------------------------------------------------- feeding

    def feed(self, a: Action, move: int, index: int = -1) -> None:
        """Check and apply one action; ``move`` is its .mat move number, ``index`` its
        position in the game (for :attr:`GameReplay.resolved`)."""
        if (self.ended is None and self.passed is None and not self.over and self.resign is None
                and self.cube_state.offered_by is None):  # nothing pending: the common case
            if type(a) is Move:
                self._on_move(a, move, index)
            else:
                getattr(self, "_on_" + a.TYPE)(a, move, index)
            return
        if self.ended is not None:
            self.problem(move, a, "the game is already over; nothing may follow its result")
            return
        if a.TYPE in SCORE_NOTES:  # a penalty, a score correction: the board, the cube and the turn stand
            return
        if self.passed is not None and not isinstance(a, GameEnd):
            self.problem(move, a, f"{_pname(self.passed[0])} passed the double, so the game ends there")
            return
        if self.over and not isinstance(a, GameEnd):
            self.problem(move, a, "the game is over (a player has borne off all checkers); expected the result")
            return
        if self.resign is not None and not self.resign_accepted and not isinstance(
                a, (AcceptResign, RejectResign, GameEnd)):
            self.problem(move, a, f"{_pname(self.resign[0])}'s resignation offer must be accepted or rejected first")
            self.resign = None
        if self.pending is not None and not isinstance(a, (Take, Pass, Beaver, GameEnd)):
            self.problem(move, a, f"the double to {self.pending[1]} by {_pname(self.pending[0])} was never answered")
            self._drop_offer()
        handler = getattr(self, "_on_" + a.TYPE)
        handler(a, move, index)

    def _on_roll(self, a: Roll, move: int, index: int) -> None:
        self._check_turn(move, a)
        if self.rolled is not None:
            self.problem(move, a, f"{_pname(self.rolled[0])} already rolled {self.rolled[1][0]}-{self.rolled[1][1]}"
                                  " and did not play it (a void roll is recorded as a re-roll)")
        self.rolled = (a.player, a.dice)

    def _dice_check(self, a: Action, move: int, dice: tuple[int, int]) -> None:
        if self.rolled is not None:
            if self.rolled[0] == a.player and sorted(self.rolled[1]) != sorted(dice):
                self.problem(move, a, f"the roll was {self.rolled[1][0]}-{self.rolled[1][1]}, not {dice[0]}-{dice[1]}")
            self.rolled = None
        if self.correction is not None:
            if self.correction[0] == a.player and sorted(self.correction[1]) != sorted(dice):
                self.problem(move, a, f"the corrected play must use the same roll "
                                      f"{self.correction[1][0]}-{self.correction[1][1]}")
            self.correction = None
        if not self.moved and dice[0] == dice[1] and self.autodoubles == 0 and self.to_act is None:
            self.problem(move, a, "the opening roll cannot be a double (equal dice are rolled again)")

    def _played(self, a: Union[Move, IllegalAccepted], move: int) -> None:
        """What every play does: its turn and roll checked, the turn passed, counted."""
        self._check_turn(move, a)
        self._dice_check(a, move, a.dice)
        self.to_act = 1 - a.player
        self.moved = True
        self.out.plays += 1

    def _on_move(self, a: Move, move: int, index: int) -> None:
        p = a.player
        if self.to_act is not None and p != self.to_act:
            self._check_turn(move, a)
        if self.rolled is not None or self.correction is not None or not self.moved:
            self._dice_check(a, move, a.dice)
        self.to_act = 1 - p
        self.moved = True
        self.out.plays += 1  # the bookkeeping of _played, inline: the replay's inner loop
        if self.broken:
            return
        pos = self._pos  # mover_position(p), inline: the last play left the mover on roll
        if self._on != p:
            pos = _new(Position, (pos[1], pos[0]))
        d1, d2 = a.dice
        try:
            written = _parse(a.play)
        except NotationError as exc:
            self.problem(move, a, f"{exc}")
            self.broken = True
            return
        lp = fast_play(pos, d1, d2, written)
        if lp is None:
            try:
                lp = match_play(pos, d1, d2, written)
            except IllegalPlay as exc:
                alts = legal_plays(pos, d1, d2)
                shown = ", ".join(repr(str(x.play)) for x in alts[:12]) + (" ..." if len(alts) > 12 else "")
                legal = f"; legal plays: {shown}" if alts else "; no legal play (Cannot Move)"
                self.problem(move, a, f"illegal play: {_reason(exc)}{legal}")
                self._force(a.player, a.play, move, a)
                return
        self.out.resolved[index] = lp.play
        result = lp.result  # the opponent on roll: _set_after, inline
        self._pos, self._on = result, 1 - p
        # over when a side has no checker left (counts are never negative: any() stops at the first)
        self.over = not any(result[1]) or not any(result[0])

    def _force(self, p: int, text: str, move: int, a: Action) -> None:
        """Apply a play as written, legal or not; mark the game broken when it cannot be."""
        try:
            written = parse_play(text)
        except NotationError:
            self.broken = True
            return
        me = list(self.mover_position(p).me)
        opp = list(self.mover_position(p).opp)
        for mv in written.moves:
            for _ in range(mv.count):
                for src, dst in zip(mv.points, mv.points[1:]):
                    s = 24 if src == 25 else src - 1
                    if me[s] <= 0:
                        self.broken = True
                        return
                    me[s] -= 1
                    if dst != OFF_POINT:
                        t = dst - 1
                        if opp[23 - t] >= 2:
                            self.broken = True
                            return
                        if opp[23 - t] == 1:
                            opp[23 - t] = 0
                            opp[24] += 1
                        me[t] += 1
        self._set_after(p, Position._raw(tuple(opp), tuple(me)))

    def _on_illegal_accepted(self, a: IllegalAccepted, move: int, index: int) -> None:
        self._played(a, move)
        if a.position:
            try:
                stood = Position.from_position_id(a.position)
            except ValueError as exc:
                self.problem(move, a, f"the position after the accepted play is unreadable: {exc}")
                self.broken = True
                return
            self.pos0 = stood if a.player == 1 else stood.swap()  # the next player is on roll in the ID
            self.over = stood.is_game_over()
            self.broken = False
        elif not self.broken:
            self._force(a.player, a.play, move, a)
            if self.broken:
                self.problem(move, a, "the accepted play cannot be made on the board "
                                      "(no checker there, or it lands on a held point)")

    def _on_setup(self, a: Action, move: int, index: int) -> None:
        """The director's set-up (actions.SetUp): play goes on from its position and cube."""
        from referee.board import for_side  # noqa: PLC0415 (rare: kept off the replay's import)
        from referee.colour import COLOURS  # noqa: PLC0415
        from referee.rules.cube import Cube  # noqa: PLC0415

        stood = Position.from_position_id(getattr(a, "position"))
        self.pos0 = for_side(stood, COLOURS[a.player])  # the ID is seen by the player on roll
        owner = getattr(a, "owner")
        self.cube_state, self.standing = Cube(getattr(a, "cube"), None if owner is None else COLOURS[owner]), None
        self.to_act, self.rolled, self.correction = a.player, None, None
        self.over, self.broken, self.moved = stood.is_game_over(), False, True

    def _on_penalty(self, a: Action, move: int, index: int) -> None:
        """A penalty (actions.Penalty): the score changes (replay_match adds it), not the game."""

    def _on_score(self, a: Action, move: int, index: int) -> None:
        """The director's score correction (actions.ScoreCorrection): the score, not the game."""

    def _on_correction(self, a: Correction, move: int, index: int) -> None:
        self._check_turn(move, a)
        self.correction = (a.player, a.dice)

    def _on_reroll(self, a: Reroll, move: int, index: int) -> None:
        self.rolled = None
        if a.cause == "opening_tie":
            if self.moved:
                self.problem(move, a, "an opening tie can only happen before the first play")
            elif self.match_length == 0 and self.autodoubles < self.rules.automatic_doubles:
                if not self.rules.cube_limit or self.cube * 2 <= self.rules.cube_limit:
                    self.cube_state = self.cube_state.automatic()
                    self.autodoubles += 1

    def finish(self) -> GameReplay:
        """What the game's replay found, with its final position and cube."""
        self.out.final = self.pos0
        self.out.cube = self.cube
        return self.out

    def known(self, actions: tuple[Action, ...]) -> KnownReplay:
        """This replay, once ``actions`` (everything fed, in order) are all in, for :func:`replay_match`."""
        return KnownReplay(actions, self.match_length, self.rules, self.crawford, self.finish())


def _reason(exc: Exception) -> str:
    text = str(exc)
    return text.split(" is illegal: ", 1)[1] if " is illegal: " in text else text
