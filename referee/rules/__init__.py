"""The rules engine: positions, legal plays, notation, IDs, scoring, the cube and the match score.

Pure: imports nothing of ours outside :mod:`referee.rules` but the package's errors.
"""
