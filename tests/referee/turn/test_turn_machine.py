"""The turn package's shape (issue 18): no import cycle among its modules, the state changed in
one place only, no string-dispatched handlers, small modules; and the one landing judgement."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from referee.events import DieReading, RollSettled
from referee.turn.landing import LandingFault, early_thrower, fault_words, first_fault, landing_faults, roll_owner

TURN = Path(__file__).resolve().parents[3] / "referee" / "turn"


def _runtime_imports(path: Path) -> set[str]:
    """The referee.turn modules ``path`` imports when it runs (not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
            and getattr(node.test, "id", "") == "TYPE_CHECKING" for n in ast.walk(node)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.ImportFrom) or not node.module:
            continue
        if node.module == "referee.turn":
            out.update(a.name for a in node.names)
        elif node.module.startswith("referee.turn."):
            out.add(node.module.split(".")[2])
    return out


# the reading's judgement imports its likelihood model lazily and back (not the machine's concern)
READING = {"matching", "likelihood"}


def test_no_import_cycle_in_the_turn_machine() -> None:
    graph = {p.stem: _runtime_imports(p) - READING for p in TURN.glob("*.py")
             if p.stem not in READING | {"__init__"}}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, " -> ".join(path + (m,))
        if m in done:
            return
        for n in graph.get(m, ()):
            visit(n, path + (m,))
        done.add(m)

    for m in graph:
        visit(m, ())
    assert "referee" not in graph["chouette"] and "table_state" not in graph["chouette"]


def test_the_state_changes_in_one_place_and_handlers_are_not_found_by_name() -> None:
    for p in TURN.glob("*.py"):
        src = p.read_text(encoding="utf-8")
        sets = re.findall(r"\.(_?state)\s*=[^=]", src)
        assert len(sets) == (2 if p.stem == "table_state" else 0), (p.name, sets)  # the start, and enter()
        assert "getattr(self, f\"_h_" not in src and "_decide(" not in src, p.name
        assert "if self.chouette" not in src and "if t.chouette" not in src, p.name
        assert len(src.splitlines()) <= 400, p.name
    assert "self._state = st" in (TURN / "table_state.py").read_text(encoding="utf-8")


def die(value=3, zone="right", flat=True, on_checker=False, x=0.0) -> DieReading:
    return DieReading(value, flat=flat, zone=zone, on_checker=on_checker, x=x)


def test_landing_faults_die_by_die_in_order() -> None:
    dice = [die(zone="outside", flat=False), die(None, zone="left", on_checker=True)]
    assert landing_faults(dice, "right", "reroll", "Ann") == [
        LandingFault(0, "outside", "landed outside the landing area"), LandingFault(0, "cocked", "is cocked"),
        LandingFault(1, "outside", "is not on Ann's right-hand half"),
        LandingFault(1, "on_checker", "rests on a checker"), LandingFault(1, "unread", "cannot be read")]
    assert landing_faults(dice, "tray", "stands")[2].words == "is not in the tray"
    assert landing_faults([die(), die(5)], "right", "reroll") == []


@pytest.mark.parametrize("reading, expected", [
    (die(zone="outside"), ("outside", "landed outside the landing area")),
    (die(flat=False, value=None), ("cocked", "is cocked")),
    (die(on_checker=True, value=None), ("on_checker", "rests on a checker")),
    (die(value=None), ("unread", "cannot be read")),
])
def test_the_opening_die_takes_the_first_fault(reading: DieReading, expected: tuple[str, str]) -> None:
    f = first_fault(reading, "reroll")
    assert f is not None and (f.cause, f.words) == expected
    assert first_fault(die(zone="left"), "reroll") is None  # any landing area will do for one die


def test_fault_words_name_the_dice_as_the_thrower_sees_them() -> None:
    roll = RollSettled((die(flat=False, x=-10.0), die(x=10.0)))
    faults = landing_faults(roll.dice, "right", "reroll")
    assert fault_words(roll, faults, "dark") == "the left die is cocked"
    assert fault_words(roll, faults, "light") == "the right die is cocked"


def test_whose_throw_by_where_the_dice_lie() -> None:
    theirs = RollSettled((die(zone="left"), die(zone="left")))
    assert roll_owner(theirs, "dark", "board") == "light" and roll_owner(theirs, "dark", "tray") == "dark"
    assert early_thrower(RollSettled((die(), die())), "dark", "board") == "dark"
    assert early_thrower(RollSettled((die(zone="outside"), die(zone="outside"))), "dark", "board") is None
    assert early_thrower(RollSettled((die(zone="left"), die())), "dark", "board") == "light"
