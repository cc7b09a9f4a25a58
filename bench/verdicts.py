"""Verdicts on rendered real-looking tables: right plays, questions, wrong verdicts.

A simulated table per seed: a board drawn with :meth:`vision.render.RenderParams.real_table`
(hinges, logos, dice lying on points, six in a row, pearl/carved/marbled faces, a narrow bar
on every other board, a frame lip, a clock and a score board), the camera fixed.  The table
learns the board from the starting position, then the players alternate: a random roll, a
random legal play (or, at ``--illegal`` rate, an illegal one: a legal play of another roll; at
``--unmoved`` rate, none: the mover lifts the dice without moving, where a legal play exists),
a frame of the new board read by the real reader (:class:`vision.reader.BoardReader`, with
what it learned) and judged by the referee's own rule (:func:`referee.turn.matching.match_reading`
over the roll's legal successors).  After each move the table is told the position (as the
referee does when it accepts a move, or when the opponent accepts or corrects an illegal one)
and learns from the frame.

Counted against the simulated truth:
* **right**: the true legal play accepted, or an illegal move called illegal;
* **asked**: the referee waits or asks (ambiguous, uncertain);
* **WRONG**: another play accepted, a legal move called illegal, or an illegal one accepted.

As at the table, the frame judged first is the still board with the dice still lying in it (the
referee judges when they are lifted); when that asks, the still board once the dice are lifted is
judged again (the table's referee judges every new still reading while it waits or asks), and
when it finds the move illegal, the referee says so only from that board without the dice
(:func:`referee.turn.judging.judge`).  Both are printed: as judged, and at the first look.

``python3 bench/verdicts.py [MOVES] [--seed-base N] [--illegal 0.05] [--unmoved 0] [--plain]`` (``--plain``:
default rendering, for comparison).  Target (issue 14): 0 wrong in 1,000 moves, at most 5 %
questions.

Random plays from the start never reach a bear-off in 20 moves, and stack checkers as players do
not.  ``--real-games N`` judges instead N whole games of the real matches (``tests/data/matches/
plays.jsonl.gz``: the 114 match files' plays), every move as a player made it, with its dice,
through the bear-off, one board per game (Dark is the match file's X); the table learns the start,
then each position told.  The figures are given per part of the game too (the opening's eight
plies, the middle game, a race without contact, the bear-off).  With ``--one-board`` the games are
played one after the other on one board, as a club match is at one table: what the table learned
is kept from game to game, and the corners' distance from where they were set is printed after
each game (a still camera's must stay put).
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
import time
from pathlib import Path
from typing import Optional

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.turn.likelihood import judge_without_the_dice  # noqa: E402
from referee.turn.matching import layout_of, layout_to_evidence, match_reading  # noqa: E402
from referee.rules.moves import legal_plays  # noqa: E402
from referee.rules.position import Position  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.dice import find_dice_in_frame  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402

MOVES_PER_BOARD = 20
MATCHES = Path(__file__).resolve().parents[1] / "tests" / "data" / "matches" / "plays.jsonl.gz"


def _ev(pos: Position):
    return layout_to_evidence(layout_of(pos))


def params_for(seed: int, plain: bool, mirror: float = 0.0) -> RenderParams:
    """Every other board a narrow bar (the reader is told, as a club sets its table up); ``mirror``: the
    chance a board's halves' triangles mirror each other about the bar."""
    if plain:
        return RenderParams(mirror_prob=mirror)
    return RenderParams.real_table(bar=0.75 if seed % 2 else 1.0, mirror_prob=mirror)


def new_tally() -> dict:
    """The counts a run keeps (:func:`judge_move` adds to them)."""
    return {"moves": 0, "right": 0, "asked": 0, "wrong": 0, "illegal_moves": 0, "read_ms": [], "render_ms": []}


def new_table(seed: int, params: RenderParams, pos: Position) -> BoardReader:
    """A table's reader on board ``seed``'s fixed camera (the corners and set-up as a club gives
    them), its board learned from a frame of ``pos``."""
    r0 = render_scene(_ev(pos), params, seed=seed)
    reader = BoardReader(VisionConfig(markers=False, bar_width=params.shape.bar, board_height=params.shape.height),
                         corners=r0.corners)
    reader.setup = r0.setup
    reader.inspect(r0.image, read_occluded=True)
    reader.learn(_ev(pos))
    return reader


def play_board(seed: int, moves: int, illegal: float, plain: bool, tally: dict, detail: list[str],
               unmoved: float = 0.0, mirror: float = 0.0) -> None:
    """One board: learn the start, then ``moves`` moves judged and counted (``unmoved``: the share of
    turns where the mover lifts the dice without moving, though a legal play exists: an illegal move;
    ``mirror``: the chance the board's triangles mirror each other about the bar)."""
    rng = random.Random(seed)
    params = params_for(seed, plain, mirror)
    pos = Position.start()
    reader = new_table(seed, params, pos)
    mover = "dark"
    for k in range(moves):
        before_m = pos if mover == "dark" else pos.swap()
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(before_m, *dice)
        cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays] or [pos]
        bad = rng.random() < illegal
        after: Optional[Position] = None
        if unmoved and not bad and pos not in cands and rng.random() < unmoved:
            after, bad = pos, True   # the dice lifted, nothing moved
            tally["unmoved"] = tally.get("unmoved", 0) + 1
        elif bad:  # a legal play of another roll that this roll does not allow
            for _ in range(20):
                other = (rng.randint(1, 6), rng.randint(1, 6))
                alt = [lp.result.swap() if mover == "dark" else lp.result for lp in legal_plays(before_m, *other)]
                alt = [a for a in alt if a not in cands and a != pos]
                if alt:
                    after = rng.choice(alt)
                    break
            bad = after is not None
        if after is None:
            after = rng.choice(cands)
        if after.is_game_over():
            break
        judge_move(reader, params, seed, k, pos, after, mover, dice, plays, cands, bad, tally, detail)
        pos = after
        mover = "light" if mover == "dark" else "dark"


def real_games(path: Path, n: int, seed: int) -> list[list[dict]]:
    """``n`` whole games of the real matches (``plays.jsonl.gz``: the play records of the 114 match
    files), drawn at random (``seed``) among those played from the starting position without a
    position set by hand: each game's records in order."""
    games: dict[tuple[str, int], list[dict]] = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            games.setdefault((r["file"], r["game"]), []).append(r)
    ok = [g for g in games.values() if not any(r["action"] == "set" for r in g)
          and next((r for r in g if r["action"] == "move"), None) is not None]
    ok = [g for g in ok if Position.from_position_id(next(r for r in g if r["action"] == "move")["position_id"])
          in (Position.start(), Position.start().swap())]
    return random.Random(seed).sample(ok, min(n, len(ok)))


def phase_of(before: Position, after: Position, ply: int) -> str:
    """The part of a game a move belongs to: "opening" (the first eight plies), "bear-off" (a
    checker of either side off, or the mover bearing off), "race" (no contact left), else "middle"."""
    if sum(after.off) or sum(before.off):
        return "bear-off"
    if ply <= 8:
        return "opening"
    if not after.is_contact():
        return "race"
    return "middle"


def play_real_game(seed: int, records: list[dict], tally: dict, detail: list[str], from_move: int = 0,
                   reader: Optional[BoardReader] = None, frame0: int = 0) -> tuple[Optional[BoardReader], int]:
    """One board (``seed``): the table learns the position before the game's move ``from_move``
    (counted from 0; by default the starting position), then every move of a real game from there is
    judged as played (its dice and play; Dark is the match file's X), and the position told after each.
    ``reader``: a table that has played on this board before (a match's earlier games: what it learned
    is kept), shown the frames numbered from ``frame0`` on.  The reader and the next frame's number."""
    params = params_for(seed, False)
    moves = [r for r in records if r["action"] == "move"]
    if not moves or from_move >= len(moves):
        return reader, frame0
    first = moves[from_move]
    first_m = Position.from_position_id(first["position_id"])
    pos = first_m if first["player"] == "X" else first_m.swap()
    if reader is None:
        reader = new_table(seed, params, pos)
    else:   # the next game of the match: the table is told the start, and learns it from a still frame
        reading = reader.inspect(render_scene(_ev(pos), params, seed=seed, frame=frame0, dice=[]).image,
                                 read_occluded=True)
        reader.learn(_ev(pos), reading.view)
    k = from_move
    for k, r in enumerate(moves[from_move:], start=from_move + 1):
        mover = "dark" if r["player"] == "X" else "light"
        before_m = Position.from_position_id(r["position_id"])
        if before_m != (pos if mover == "dark" else pos.swap()):
            detail.append(f"seed {seed}: game {r['file']} {r['game']} left at play {r['n']} (its position is not the "
                          f"one the plays before led to)")
            break
        dice = (int(r["dice"][0]), int(r["dice"][1]))
        plays = legal_plays(before_m, *dice)
        cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays] or [pos]
        after_m = Position.from_position_id(r["played_position_id"])   # the mover's view
        after = after_m if mover == "dark" else after_m.swap()
        if after.is_game_over():
            break
        judge_move(reader, params, seed, frame0 + k, pos, after, mover, dice, plays, cands, after not in cands, tally,
                   detail, phase_of(before_m, after_m, k))
        pos = after
    return reader, frame0 + k + 2


LIFTED = 10_000   # frame numbers of the still frames after the dice were lifted (fresh sensor noise)


def judge_move(reader: BoardReader, params: RenderParams, seed: int, k: int, pos: Position, after: Position,
               mover: str, dice: tuple[int, int], plays: list, cands: list[Position], bad: bool, tally: dict,
               detail: list[str], phase: str = "") -> None:
    """Frame ``k`` of board ``seed`` shows ``after`` (Dark's view) played from ``pos`` by ``mover`` with
    ``dice`` (``cands``: the roll's legal results, Dark's view; ``bad``: an illegal move): read, judged
    and counted in ``tally`` (and under ``phase`` when given), then learned as the referee's position.

    The referee judges the last still frame when the dice are lifted, the dice still lying in it
    (:func:`referee.turn.judging.lift`); when it waits or asks (the players are shown the choices), a
    still board read after the dice were lifted is judged again (:func:`referee.turn.judging.judge_reading`).
    So an asked frame with dice in it is judged once more without them: counted as ``lifted`` (the
    first look's outcome stays in ``first``: what the table says before the dice are lifted).  An
    illegal verdict at the first look is only held: the board without the dice is judged and decides."""
    t0 = time.process_time()
    rr = render_scene(_ev(after), params, seed=seed, frame=k + 1)
    t1 = time.process_time()
    _dice_told(reader, rr.image)
    reading = reader.inspect(rr.image)
    v = match_reading(reading.evidence, pos, cands, mover) if reading.evidence is not None else None
    tally["read_ms"].append(1000 * (time.process_time() - t1))
    tally["render_ms"].append(1000 * (t1 - t0))
    tally["moves"] += 1
    tally["illegal_moves"] += bad
    at = f"seed {seed} move {k}{' ' + phase if phase else ''} {mover} {dice}"
    outcome, why = _outcome(v, bad, cands, after, plays)
    first = outcome
    tally.setdefault("first", {"right": 0, "asked": 0, "wrong": 0})[first] += 1
    held = v.position if v is not None and v.kind == "illegal" else None   # said only from the board without the dice
    if (outcome == "asked" and rr.dice) or held is not None:  # the dice lifted, the board still: judged again
        rl = render_scene(_ev(after), params, seed=seed, frame=LIFTED + k + 1, dice=[])
        _dice_told(reader, rl.image)
        reading = reader.inspect(rl.image)
        if reading.evidence is None:
            v = None
        elif held is not None:   # as the referee judges the board once the dice are off it (referee.turn.judging.judge)
            v = judge_without_the_dice(reading.evidence, pos, cands, mover, held)
        else:
            v = match_reading(reading.evidence, pos, cands, mover)
        outcome, later = _outcome(v, bad, cands, after, plays)
        tally["lifted"] = tally.get("lifted", 0) + (outcome == "right" and first != "right")
        why = f"{why}; with the dice lifted: {later or 'right'}"
    tally[outcome] += 1
    if bad and after == pos:   # nothing moved (--unmoved): counted apart too
        tally.setdefault("unmoved_outcomes", {"right": 0, "asked": 0, "wrong": 0})[outcome] += 1
    if outcome != "right" or first != "right":
        said = outcome.upper() if outcome == "wrong" else outcome
        detail.append(f"{at}{' (illegal)' if bad else ''}: {said} ({why})")
    # the referee's position is now the board's (accepted, or the opponent accepted it)
    reader.learn(_ev(after), reading.view)
    if phase:
        tally.setdefault("phases", {}).setdefault(phase, {"moves": 0, "right": 0, "asked": 0, "wrong": 0})
        tally["phases"][phase]["moves"] += 1
        tally["phases"][phase][outcome] += 1


def _dice_told(reader: BoardReader, image: np.ndarray) -> None:
    """As at the table (:meth:`referee.table.devices.CameraThread._watch_dice`): the dice the dice
    finder sees surely on the still frame are told to the board's learned look, whose slots under a
    die are then a die's, not an arm's or a checker's (:meth:`vision.memory.BoardMemory.dice_lying`)."""
    if reader.memory is None or reader.corners is None:
        return
    found = find_dice_in_frame(image, np.asarray(reader.corners, np.float32), reader.config.shape)
    reader.memory.dice_lying([d for d in found if d.sure()])


def _outcome(v, bad: bool, cands: list[Position], after: Position, plays: list) -> tuple[str, str]:
    """A verdict (None: no reading) against the truth: "right", "asked" or "wrong", and what it said."""
    if v is None or v.kind in ("uncertain", "ambiguous", "misread", "unreadable"):
        return "asked", "no reading" if v is None else f"asked, {v.kind}: {v.reason}"
    if v.kind == "illegal":
        return ("right", "") if bad else ("wrong", f"a legal move called illegal: {v.reason}")
    if not bad and cands[v.indices[0]] == after:
        return "right", ""
    return "wrong", (f"accepted {plays[v.indices[0]].play if plays else 'no move'}"
                     f"{' for an illegal move' if bad else ''}")


def _report(tally: dict, detail: list[str], verbose: bool) -> None:
    """The counts (:func:`_summary`), per part of the game when counted so, the time a frame took,
    and with ``verbose`` every question and wrong verdict."""
    _summary(tally)
    for phase in ("opening", "middle", "race", "bear-off"):
        t = tally.get("phases", {}).get(phase)
        if t:
            print(f"    {phase:9s} {t['moves']:4d} moves: right {t['right']} ({100 * t['right'] / t['moves']:.1f} %), "
                  f"asked {t['asked']}, WRONG {t['wrong']}")
    print(f"  read + judge: median {np.median(tally['read_ms']):.1f} ms CPU a frame (render "
          f"{np.median(tally['render_ms']):.1f} ms, not counted)")
    if verbose:
        for line in detail:
            print("   ", line)


def _summary(tally: dict) -> None:
    """The counts: as judged (the dice lifted where the first look asked), and at the first look."""
    n = max(1, tally["moves"])
    print(f"  right {tally['right']} ({100 * tally['right'] / n:.1f} %; {tally.get('lifted', 0)} of them once the dice "
          f"were lifted), asked {tally['asked']} ({100 * tally['asked'] / n:.1f} %), WRONG {tally['wrong']}")
    f = tally.get("first", {"right": 0, "asked": 0, "wrong": 0})
    print(f"  at the first look (the dice still lying): right {f['right']} ({100 * f['right'] / n:.1f} %), asked "
          f"{f['asked']} ({100 * f['asked'] / n:.1f} %), WRONG {f['wrong']}")


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("moves", nargs="?", type=int, default=1000, help="moves to judge (default 1000)")
    p.add_argument("--seed-base", type=int, default=910000, help="first board's seed (default 910000)")
    p.add_argument("--illegal", type=float, default=0.05, help="share of illegal moves (default 0.05)")
    p.add_argument("--unmoved", type=float, default=0.0,
                   help="share of turns where the mover lifts the dice without moving (an illegal move; default 0)")
    p.add_argument("--plain", action="store_true", help="the default renderer instead of real tables")
    p.add_argument("--mirror", type=float, default=0.0, metavar="P",
                   help="the chance a board's halves' triangles mirror each other about the bar (default 0)")
    p.add_argument("--verbose", action="store_true", help="list every question and wrong verdict")
    p.add_argument("--real-games", type=int, default=0, metavar="N",
                   help="N whole games of the real matches instead, every move as played, through the bear-off "
                        "(MOVES and --illegal then unused)")
    p.add_argument("--matches", default=str(MATCHES), help="the real matches' play records (default: %(default)s)")
    p.add_argument("--one-board", action="store_true",
                   help="with --real-games: every game on one board, one after the other, as a club match is "
                        "played at one table (what the table learned kept from game to game)")
    a = p.parse_args(argv)
    if a.real_games:
        return main_real_games(a)
    tally = new_tally()
    detail: list[str] = []
    seed = a.seed_base
    t0 = time.monotonic()
    while tally["moves"] < a.moves:
        play_board(seed, min(MOVES_PER_BOARD, a.moves - tally["moves"]), a.illegal, a.plain, tally, detail,
                   a.unmoved, a.mirror)
        seed += 1
        print(f"\r{tally['moves']}/{a.moves} moves, {seed - a.seed_base} boards, {time.monotonic() - t0:.0f} s",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    mirrored = f" (triangles mirrored: {a.mirror:g})" if a.mirror else ""
    print(f"{'default' if a.plain else 'real-table'} rendering{mirrored}, {tally['moves']} moves on "
          f"{seed - a.seed_base} boards "
          f"({tally['illegal_moves']} illegal" + (f", {tally['unmoved']} of them nothing moved" if tally.get("unmoved")
                                                  else "") + "):")
    u = tally.get("unmoved_outcomes")
    if u:
        print(f"  nothing moved (the dice lifted without moving): {sum(u.values())}, called illegal {u['right']}, "
              f"asked {u['asked']}, WRONG (a play accepted) {u['wrong']}")
    _report(tally, detail, a.verbose)
    return 0


def main_real_games(a: argparse.Namespace) -> int:
    """``--real-games N``: the real games' moves judged, counted per part of the game."""
    path = Path(a.matches)
    if not path.is_file():
        print(f"verdicts: --matches {str(path)!r} does not exist (the real matches' play records, plays.jsonl.gz)",
              file=sys.stderr)
        return 2
    tally = new_tally()
    detail: list[str] = []
    games = real_games(path, a.real_games, a.seed_base)
    t0 = time.monotonic()
    reader: Optional[BoardReader] = None
    frame = 0
    set_at = render_scene(_ev(Position.start()), params_for(a.seed_base, False), seed=a.seed_base).corners
    for i, g in enumerate(games):
        if a.one_board:
            reader, frame = play_real_game(a.seed_base, g, tally, detail, reader=reader, frame0=frame)
            off = 0.0 if reader is None or reader.corners is None else float(np.abs(reader.corners - set_at).max())
            print(f"\r    game {i + 1}: {tally['moves']} moves so far, asked {tally['asked']}, WRONG {tally['wrong']}, "
                  f"the corners {off:.2f} px from where they were set", file=sys.stderr, flush=True)
            continue
        play_real_game(a.seed_base + i, g, tally, detail)
        print(f"\r{i + 1}/{len(games)} games, {tally['moves']} moves, {time.monotonic() - t0:.0f} s",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"real-table rendering, {len(games)} real games ({tally['moves']} moves, {tally['illegal_moves']} of them "
          f"illegal as recorded), " + (f"one after the other on one board (seed {a.seed_base}):" if a.one_board
                                       else f"boards from seed {a.seed_base}:"))
    _report(tally, detail, a.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
