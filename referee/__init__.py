"""bgtable's referee: the rules engine, the turn protocol, match records and the CLI.

The rules engine depends on nothing else of ours:

* :class:`referee.position.Position` — immutable position with the player on roll
  (``Position.start()``, ``from_position_id``, ``from_xgid``, ``from_points``,
  ``from_board``; ``position_id()``, ``xgid()``, ``validate()``, ``swap()``, ``str()``).
* :func:`referee.moves.legal_plays(pos, d1, d2)` -> :class:`LegalPlays`, a lazy list-like view
  of ``LegalPlay(play, result)``, one per distinct result, ``result`` with the opponent on
  roll; empty = no legal play.  ``.results()``, ``.producing(result)`` without building the rest.
* :func:`referee.moves.match_play(pos, d1, d2, text)` -> the LegalPlay the text describes,
  or :class:`IllegalPlay` / :class:`NotationError` naming the play, dice, position and why.
* :func:`referee.moves.plays_to(pos, d1, d2, result)` -> the legal plays producing ``result``.
* :func:`referee.moves.results(pos, d1, d2)` -> the set of positions the roll allows.
* :mod:`referee.notation` — :class:`Step`, :class:`Play` (``str()`` = gnubg notation),
  :func:`parse_play`.
* :func:`referee.scoring.game_result(pos)` -> (``"on_roll"``/``"opponent"``, GameKind).

Input types shared with the device packages live in :mod:`referee.events`; the
exception tree in :mod:`referee.errors`.

The referee (its interface and conventions are in :mod:`referee.protocol`'s docstring):
``Referee(settings, clock).handle(event) -> [Decision]``, ``view() -> TableView``
(:mod:`referee.view`), ``new_record_actions()``, ``match_record()``; settings in
:mod:`referee.settings`, decisions in :mod:`referee.decisions`.

Match records: the model in :mod:`referee.record`; :mod:`referee.matfile` (.mat),
:mod:`referee.sgf` (gnubg SGF), :mod:`referee.replay` (the validator behind
``bgtable replay``), :mod:`referee.journal` (the crash-safe journal).

The table process (the only part that imports the device packages): :mod:`referee.table`.
"""
from .errors import DiceError, IllegalPlay, NotationError, PositionError, RefereeError
from .moves import LegalPlay, LegalPlays, legal_plays, match_play, parse_dice, plays_to, results
from .notation import Play, Step, parse_play
from .position import Position
from .scoring import GameKind, game_result, points_won

__all__ = [
    "DiceError", "IllegalPlay", "NotationError", "PositionError", "RefereeError",
    "LegalPlay", "LegalPlays", "legal_plays", "match_play", "parse_dice", "plays_to", "results",
    "Play", "Step", "parse_play", "Position", "GameKind", "game_result", "points_won",
]
