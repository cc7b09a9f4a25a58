"""The turn: the referee's declared state machine, one module per phase of a turn.

* :mod:`~referee.turn.referee` -- the ``Referee`` facade (``handle``, ``view``, records, snapshots);
* :mod:`~referee.turn.states` -- the ``State`` enum; :mod:`~referee.turn.transitions` -- the
  declaration (which event, in which state, runs which handler); :mod:`~referee.turn.machine`
  -- how a declaration is checked and fired; :mod:`~referee.turn.table_state` -- what the
  referee remembers;
* the phases: :mod:`~referee.turn.opening` (the opening roll), :mod:`~referee.turn.rolling`
  (a throw, early rolls, checkers moved before a roll) with :mod:`~referee.turn.landing` (the
  landing rules), :mod:`~referee.turn.judging` (the dice lifted: the move judged),
  :mod:`~referee.turn.correcting` (an illegal move accepted or corrected),
  :mod:`~referee.turn.camera_only` (no dice reader), :mod:`~referee.turn.crosscheck` (the camera's
  view of the dice against the dice reader's throw), :mod:`~referee.turn.cube` (doubles; heads-up)
  and :mod:`~referee.turn.chouette`, :mod:`~referee.turn.ending` (resignations, the game's end),
  :mod:`~referee.turn.quiet` (hands, readings kept, the director's pause),
  :mod:`~referee.turn.director` (the director's powers: undo, set-up, score, verdicts, the
  match's end); guards in :mod:`~referee.turn.guards`;
* how a board reading is judged: :mod:`~referee.turn.matching`, :mod:`~referee.turn.likelihood`.

Pure: no threads, no devices, time from an injected clock.
"""
