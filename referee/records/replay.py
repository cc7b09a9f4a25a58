"""Replaying a match record through the rules: every play, cube action and result checked.

:func:`replay_match` walks a :class:`~referee.records.record.MatchRecord` game by game and
returns a :class:`MatchReplay`: the problems found (each with game, .mat move
number, the recorded text and why), the number of plays checked, the final score,
and per game the resolved plays (gnubg steps) and final position the writers use.
:class:`GameReplayer` is the incremental core: feed it one action at a time (the
.mat reader does, to tell a bear-off from a resignation).

Checks: each play legal for its dice (a fast die-by-die path,
:mod:`referee.rules.fastcheck`, falling back to :func:`referee.rules.moves.match_play`, with
the legal alternatives named when it is illegal); players alternating; cube actions
legal (turn, owner, value, no double in the Crawford game, cube limit, beavers only
in money play with beavers on, the right player answering, the game ending after a
pass); resignations answered by the opponent; each result consistent with the final
position, the cube and the Jacoby rule; scores and the Crawford flag consistent.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional, Sequence, Union

from referee.colour import Colour
from referee.errors import IllegalPlay, NotationError
from referee.rules.cube import Cube
from referee.rules.fastcheck import fast_play
from referee.rules.moves import legal_plays, match_play
from referee.rules.notation import OFF_POINT, Play, parse_play, parse_play_cached
from referee.rules.position import Position
from referee.records.record import (AcceptResign, Action, Beaver, Correction, Double, GameEnd, GameRecord,
                                    IllegalAccepted, MatchRecord, Move, Pass, Problem, RejectResign, Reroll, Resign,
                                    Roll, RuleSettings, Take, action_text, layout)
from referee.rules.match import add_points, crawford_flags
from referee.rules.scoring import loser_kind, points_won

_KIND_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}
_parse = parse_play_cached
_new = tuple.__new__


def _pname(p: int) -> str:
    return f"player {p} ({'left/W' if p == 0 else 'right/B'})"


@dataclass
class GameReplay:
    """What replaying one game found."""

    number: int
    plays: int = 0
    problems: list[Problem] = field(default_factory=list)
    resolved: dict[int, Play] = field(default_factory=dict)  # action index -> legal play (gnubg steps)
    final: Position = field(default_factory=Position.start)  # player 0 on roll
    cube: int = 1
    crawford: bool = False


@dataclass
class MatchReplay:
    """What replaying a whole record found."""

    games: list[GameReplay] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)

    @property
    def plays(self) -> int:
        """The number of plays replayed, over all games."""
        return sum(g.plays for g in self.games)

    @property
    def clean(self) -> bool:
        """Whether the replay found no problem."""
        return not self.problems


@dataclass(frozen=True)
class KnownReplay:
    """A game a reader already replayed while reading it, with what it was replayed under.

    :func:`replay_match` takes it instead of replaying the game again when it
    :meth:`fits` the game: the same actions, match length, rules and Crawford flag,
    and no problem found (a reader feeds its file's move numbers, which problems
    name; the validator numbers moves by :func:`~referee.records.record.layout`)."""

    actions: tuple[Action, ...]
    match_length: int
    rules: RuleSettings
    crawford: bool
    replay: "GameReplay"

    def fits(self, game: GameRecord, match_length: int, rules: RuleSettings, crawford: bool) -> bool:
        """Whether this replay is what replaying ``game`` under these settings gives."""
        return (not self.replay.problems and self.match_length == match_length and self.crawford == crawford
                and self.replay.number == game.number and self.rules == rules
                and (self.actions is game.actions or self.actions == game.actions))

    def copy(self) -> "GameReplay":
        """A fresh copy of the replay (the caller may add problems to it)."""
        return replace(self.replay, problems=[], resolved=dict(self.replay.resolved))


class GameReplayer:
    """The state of one game while its actions are fed in order.

    ``pos0`` is the position with player 0 on roll (player 0's side is ``me``).
    """

    def __init__(self, number: int, match_length: int = 0, rules: RuleSettings = RuleSettings(),
                 crawford: bool = False) -> None:
        self.number = number
        self.match_length = match_length
        self.rules = rules
        self.crawford = crawford
        self.pos0 = Position.start()
        # the cube (referee.rules.cube); while a double (or a beaver) is pending, ``standing``
        # is the cube as it was before the offer: what the game is played for if the offer
        # is never answered (a record that goes on, or ends, without the answer)
        self.cube_state = Cube()
        self.standing: Optional[Cube] = None
        self.resign: Optional[tuple[int, int]] = None  # (player, kind)
        self.resign_accepted = False
        self.to_act: Optional[int] = None  # None before the opening roll
        self.rolled: Optional[tuple[int, tuple[int, int]]] = None
        self.correction: Optional[tuple[int, tuple[int, int]]] = None
        self.passed: Optional[tuple[int, int]] = None  # (passer, points)
        self.autodoubles = 0
        self.moved = False
        self.over = False
        self.broken = False  # a play could not be applied: later positions are unknown
        self.ended: Optional[GameEnd] = None
        self.out = GameReplay(number, crawford=crawford)

    # ----------------------------------------------------------------- helpers

    def problem(self, move: int, a: Optional[Action], reason: str) -> None:
        """Note a problem at ``move`` of this game (with the action's text)."""
        self.out.problems.append(Problem(self.number, move, action_text(a) if a is not None else "", reason))

    def mover_position(self, p: int) -> Position:
        """The position now, seen by player ``p`` (0 Dark, 1 Light)."""
        return self.pos0 if p == 0 else self.pos0.swap()  # referee.board.for_side, without its import

    def legal_exists(self, p: int, dice: tuple[int, int]) -> bool:
        """Whether ``p`` has a legal play for ``dice`` now (False once positions are unknown)."""
        return not self.broken and bool(legal_plays(self.mover_position(p), dice[0], dice[1]))

    def _set_after(self, p: int, result: Position) -> None:
        self.pos0 = result if p == 1 else result.swap()  # ``result`` has the opponent on roll
        self.over = result.is_game_over()

    def _check_turn(self, move: int, a: Action) -> None:
        if self.to_act is not None and a.player != self.to_act:
            self.problem(move, a, f"it is {_pname(self.to_act)}'s turn, not {_pname(a.player)}'s")

    @property
    def _stake(self) -> Cube:
        """The cube the game is played for now: an unanswered offer counts for nothing."""
        return self.standing if self.standing is not None else self.cube_state

    @property
    def cube(self) -> int:
        """The cube's value now (an unanswered offer not counted)."""
        return self._stake.value

    @property
    def owner(self) -> Optional[int]:
        """The cube's owner now (record player 0/1), None when centred."""
        owner = self._stake.owner
        return None if owner is None else Colour(owner).number

    @property
    def pending(self) -> Optional[tuple[int, int, bool]]:
        """The unanswered offer: (offered by, the value if taken, whether it is a beaver)."""
        c = self.cube_state
        if not c.pending:
            return None
        assert c.offered_by is not None and c.offered_value is not None
        return Colour(c.offered_by).number, c.offered_value, c.beavered

    def _drop_offer(self) -> None:
        """Forget an unanswered offer: the cube stands as it was before it."""
        if self.standing is not None:
            self.cube_state, self.standing = self.standing, None

    def _kind_points(self, kind: int) -> int:
        return points_won(kind, self.cube, jacoby=self.match_length == 0 and self.rules.jacoby,  # type: ignore[arg-type]
                          cube_turned=self._stake.turned)

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
        pos0 = self.pos0
        pos = pos0 if p == 0 else _new(Position, (pos0[1], pos0[0]))  # mover_position(p)
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
        self.pos0 = result if p == 1 else _new(Position, (result[1], result[0]))
        self.over = sum(result[0]) == 0 or sum(result[1]) == 0

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


def replay_game(game: GameRecord, match_length: int = 0, rules: RuleSettings = RuleSettings(),
                crawford: Optional[bool] = None) -> GameReplay:
    """Replay one game; ``crawford`` overrides the game's own flag (the match computes it)."""
    r = GameReplayer(game.number, match_length, rules, game.crawford if crawford is None else crawford)
    for i, (a, (move, _col)) in enumerate(zip(game.actions, layout(game.actions))):
        r.feed(a, move, i)
    return r.finish()


def replay_match(record: MatchRecord, known: Sequence[Optional[KnownReplay]] = ()) -> MatchReplay:
    """Replay every game of a record; never stops at the first problem.  ``known[i]``,
    when given, is game ``i`` as a reader already replayed it: it is used instead of
    replaying the game again whenever it :meth:`~KnownReplay.fits`."""
    out = MatchReplay()
    score = (0, 0)
    L = record.match_length
    expected_scores: list[tuple[int, int]] = []
    score = tuple(record.games[0].score_before) if record.games else (0, 0)  # type: ignore[assignment]
    for g in record.games:
        expected_scores.append(score)
        if g.finished:
            r = g.result
            assert r is not None
            score = add_points(score, r.winner, r.points)
    flags = crawford_flags(L, expected_scores, record.rules.crawford)
    # a record may start at a score other than 0-0 (a partial match): take the first game's
    score = tuple(record.games[0].score_before) if record.games else (0, 0)  # type: ignore[assignment]
    match_over = False
    for idx, (g, craw) in enumerate(zip(record.games, flags)):
        gp: list[Problem] = []
        if match_over:
            gp.append(Problem(g.number, 0, "", f"the match was already won ({score[0]}-{score[1]} "
                                                f"in a {L}-point match)"))
        if g.number != idx + 1:
            gp.append(Problem(g.number, 0, "", f"game number {g.number} out of order (expected {idx + 1})"))
        if tuple(g.score_before) != score:
            gp.append(Problem(g.number, 0, f"{g.score_before[0]}-{g.score_before[1]}",
                              f"the score before this game is {score[0]}-{score[1]}"))
        if g.crawford != craw and L > 0:
            gp.append(Problem(g.number, 0, "", "this is the Crawford game" if craw else
                              "this is not the Crawford game"))
        k = known[idx] if idx < len(known) else None
        rep = k.copy() if k is not None and k.fits(g, L, record.rules, craw) else replay_game(g, L, record.rules, craw)
        rep.problems[:0] = gp
        if not g.finished and idx != len(record.games) - 1:
            rep.problems.append(Problem(g.number, 0, "", "the game has no result but another game follows"))
        out.games.append(rep)
        out.problems.extend(rep.problems)
        if g.finished:
            r = g.result
            assert r is not None
            score = add_points(score, r.winner, r.points)
        if L > 0 and max(score) >= L:
            match_over = True
    out.score = score
    return out
