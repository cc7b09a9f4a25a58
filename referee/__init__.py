"""bgtable's referee: the rules engine, the turn protocol, match records and the CLI.

The rules engine depends on nothing else of ours:

* :class:`referee.rules.position.Position` — immutable position with the player on roll
  (``Position.start()``, ``from_position_id``, ``from_xgid``, ``from_points``,
  ``from_board``; ``position_id()``, ``xgid()``, ``validate()``, ``swap()``, ``str()``).
* :func:`referee.rules.moves.legal_plays(pos, d1, d2)` -> :class:`LegalPlays`, a lazy list-like view
  of ``LegalPlay(play, result)``, one per distinct result, ``result`` with the opponent on
  roll; empty = no legal play.  ``.results()``, ``.producing(result)`` without building the rest.
* :func:`referee.rules.moves.match_play(pos, d1, d2, text)` -> the LegalPlay the text describes,
  or :class:`IllegalPlay` / :class:`NotationError` naming the play, dice, position and why.
* :func:`referee.rules.moves.plays_to(pos, d1, d2, result)` -> the legal plays producing ``result``.
* :func:`referee.rules.moves.results(pos, d1, d2)` -> the set of positions the roll allows.
* :mod:`referee.rules.notation` — :class:`Step`, :class:`Play` (``str()`` = gnubg notation),
  :func:`parse_play`.
* :func:`referee.rules.scoring.game_result(pos)` -> (``"on_roll"``/``"opponent"``, GameKind).

Input types shared with the device packages live in :mod:`referee.events`; the
exception tree in :mod:`referee.errors`; the two colours in :mod:`referee.colour`
(:class:`Colour`: ``"dark"``/``"light"`` as text, record players 0/1); a board reading to and
from a position, from either colour's side, in :mod:`referee.board`.

The referee (its interface and conventions are in :mod:`referee.turn.referee`'s docstring, its
declared state machine in :mod:`referee.turn.transitions`):
``Referee(settings, clock).handle(event) -> [Decision]``, ``view() -> TableView``
(:mod:`referee.view`), ``new_record_actions()`` (the record entries: the referee keeps no
record); settings in :mod:`referee.settings`, decisions in :mod:`referee.decisions`.

Match records: the model in :mod:`referee.records.record` (its actions in
:mod:`referee.records.actions`), built by one fold, :mod:`referee.records.builder`;
:mod:`referee.records.matfile` (.mat),
:mod:`referee.records.sgf` (gnubg SGF), :mod:`referee.records.replay` (the validator behind
``bgtable replay``), :mod:`referee.records.journal` (the crash-safe journal).

The table process (the only part that imports the device packages): :mod:`referee.table`.
"""
from referee.errors import DiceError, IllegalPlay, NotationError, PositionError, RefereeError
from referee.rules.moves import LegalPlay, LegalPlays, legal_plays, match_play, parse_dice, plays_to, results
from referee.rules.notation import Play, Step, parse_play
from referee.rules.position import Position
from referee.rules.scoring import GameKind, game_result, points_won

__all__ = [
    "DiceError", "IllegalPlay", "NotationError", "PositionError", "RefereeError",
    "LegalPlay", "LegalPlays", "legal_plays", "match_play", "parse_dice", "plays_to", "results",
    "Play", "Step", "parse_play", "Position", "GameKind", "game_result", "points_won",
]
