"""gnubg's Match ID (12 characters: the cube, who is on roll, the score, the match length)
and the match part of an XGID, for the director's set-up of a position.

A Match ID is 66 bits, least significant first, base64 without padding: the cube's log2
(4 bits), its owner (2: player 0, 1, or 3 centred), the player on roll (1), Crawford (1),
the game state (3), whose turn (1), a double offered (1), a resignation (2), the two dice
(3 each), the match length (15) and the two scores (15 each).  Player 0 is Dark.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Optional

from referee.errors import PositionError

_B64 = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_FIELDS = (("cube", 4), ("owner", 2), ("on_roll", 1), ("crawford", 1), ("state", 3), ("turn", 1),
           ("doubled", 1), ("resigned", 2), ("die1", 3), ("die2", 3), ("length", 15), ("score0", 15),
           ("score1", 15))


@dataclass(frozen=True)
class MatchState:
    """What a Match ID (or an XGID's match fields) says: the cube's value and owner (player
    0/1, None centred), the player on roll (0/1), the match length (0 money), the score
    (player 0, player 1) and whether this is the Crawford game."""

    cube: int = 1
    owner: Optional[int] = None
    on_roll: int = 0
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False

    def match_id(self) -> str:
        """The gnubg Match ID of this state (dice not rolled, no double or resignation pending)."""
        vals = {"cube": self.cube.bit_length() - 1, "owner": 3 if self.owner is None else self.owner,
                "on_roll": self.on_roll, "crawford": int(self.crawford), "state": 1, "turn": self.on_roll,
                "doubled": 0, "resigned": 0, "die1": 0, "die2": 0, "length": self.match_length,
                "score0": self.score[0], "score1": self.score[1]}
        bits, shift = 0, 0
        for name, width in _FIELDS:
            bits |= vals[name] << shift
            shift += width
        return base64.b64encode(bits.to_bytes(9, "little")).decode("ascii")


def parse_match_id(text: str) -> MatchState:
    """The state a gnubg Match ID gives (``Match ID: `` may lead); PositionError quoting it when malformed."""
    t = text.strip()
    if t.startswith("Match ID:"):
        t = t.split(":", 1)[1].strip()
    if len(t) != 12 or any(c not in _B64 for c in t):
        raise PositionError(f"match ID {text!r} is malformed: expected 12 characters of A-Z a-z 0-9 + /")
    bits = int.from_bytes(base64.b64decode(t), "little")
    f: dict[str, int] = {}
    for name, width in _FIELDS:
        f[name], bits = bits & ((1 << width) - 1), bits >> width
    if f["owner"] == 2:
        raise PositionError(f"match ID {text!r}: cube owner 2 is not player 0, player 1 or centred")
    if f["cube"] > 12:
        raise PositionError(f"match ID {text!r}: cube 2^{f['cube']} is beyond any cube")
    return MatchState(1 << f["cube"], None if f["owner"] == 3 else f["owner"], f["on_roll"], f["length"],
                      (f["score0"], f["score1"]), bool(f["crawford"]))


def xgid_match(xgid: str, bottom: int = 0) -> Optional[MatchState]:
    """The match fields of an XGID (cube, its owner, who is on roll, the score, the length), with
    the bottom player as player ``bottom``; None when the XGID has only its position part."""
    t = xgid.strip()
    if t.upper().startswith("XGID="):
        t = t[5:]
    parts = t.split(":")
    if len(parts) < 4:
        return None
    try:
        cube_log = int(parts[1] or 0)
        owner_side = int(parts[2] or 0)
        turn = int(parts[3] or 1)
        scores = (int(parts[5]), int(parts[6])) if len(parts) > 6 else (0, 0)
        crawford = len(parts) > 7 and parts[7].strip() == "1"
        length = int(parts[8]) if len(parts) > 8 and parts[8].strip() else 0
    except ValueError:
        raise PositionError(f"XGID {xgid!r}: its cube, turn, score and length fields must be numbers") from None
    top = 1 - bottom
    owner = None if owner_side == 0 else bottom if owner_side == 1 else top
    on_roll = bottom if turn == 1 else top
    score = (scores[0], scores[1]) if bottom == 0 else (scores[1], scores[0])
    return MatchState(1 << cube_log, owner, on_roll, length, score, crawford)


__all__ = ["MatchState", "parse_match_id", "xgid_match"]
