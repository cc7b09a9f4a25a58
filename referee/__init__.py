"""bgtable's referee: the rules engine, the turn protocol, match records and the CLI.

The rules engine (``referee.position``, ``referee.moves``, ``referee.notation``,
``referee.scoring``) depends on nothing else of ours.  Input types shared with
the device packages live in :mod:`referee.events`.
"""
