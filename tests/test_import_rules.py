"""Which package may import which (ARCHITECTURE.md), checked from the code's own imports.

* The edges (``vision``, ``firmware_bridge``, ``hardware``) never import each other, nor the
  table process (``referee.table``); of the referee they use only its domain types.
* The referee's pure core (everything in ``referee/`` but ``referee/table/`` and the command
  line modules beside it) imports no edge and nothing of the table process.

Every import counts, a lazy one inside a function too.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDGES = ("vision", "firmware_bridge", "hardware")
# the referee's domain types the edges may use
DOMAIN = {"referee.colour", "referee.board", "referee.events", "referee.officials", "referee.decisions", "referee.view", "referee.settings", "referee.errors",
          "referee.rules.position", "referee.sections"}
# known exceptions to the rule (none: the edges' command lines are built by the dispatcher, referee.cli)
KNOWN: set[str] = set()


def _imports(path: Path, package: str) -> set[str]:
    """Every module name ``path`` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    parts = path.relative_to(ROOT).with_suffix("").parts
    here = list(parts[:-1]) if parts[-1] != "__init__" else list(parts[:-1])  # this module's package
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                out.add(".".join(base + ([node.module] if node.module else [])))
            else:
                out.add(node.module or "")
    return out


def _modules(package: str):
    for p in sorted((ROOT / package).rglob("*.py")):
        yield p


def _top(name: str) -> str:
    return name.split(".")[0]


def test_edges_import_no_other_edge_and_only_the_referees_domain_types() -> None:
    bad = []
    for edge in EDGES:
        for path in _modules(edge):
            for name in _imports(path, edge):
                top = _top(name)
                if top in EDGES and top != edge:
                    bad.append(f"{path.relative_to(ROOT)} imports {name} (another edge)")
                if top == "referee":
                    if name.startswith("referee.table") or name == "referee":
                        bad.append(f"{path.relative_to(ROOT)} imports {name} (the table process)")
                    elif not any(name == d or name.startswith(d + ".") for d in DOMAIN | KNOWN):
                        bad.append(f"{path.relative_to(ROOT)} imports {name} (not a domain type)")
    assert not bad, "\n".join(bad)


def test_the_referees_pure_core_imports_no_edge_and_not_the_table_process() -> None:
    bad = []
    for path in _modules("referee"):
        rel = path.relative_to(ROOT)
        if rel.parts[1] in ("table", "cli"):
            continue  # the table process and the command line: the only places that import every package
        for name in _imports(path, "referee"):
            if _top(name) in EDGES or name.startswith("referee.table"):
                bad.append(f"{rel} imports {name}")
    assert not bad, "\n".join(bad)


# which subpackage of the pure core may import which: the rules engine stands alone, the
# records know the rules, the turn machine knows both; the package's domain types
# (events, decisions, view, settings, errors) are shared by all
CORE_LAYERS = {"rules": {"rules"}, "records": {"rules", "records"}, "turn": {"rules", "records", "turn"}}


def test_the_rules_engine_stands_alone_and_the_records_do_not_know_the_turn() -> None:
    bad = []
    for layer, allowed in CORE_LAYERS.items():
        for path in _modules(f"referee/{layer}"):
            for name in _imports(path, "referee"):
                parts = name.split(".")
                if parts[0] == "referee" and len(parts) > 1 and parts[1] in ("rules", "records", "turn", "table", "cli") \
                        and parts[1] not in allowed:
                    bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


def test_relative_imports_are_resolved() -> None:
    assert "vision.memory" in _imports(ROOT / "vision" / "reader.py", "vision")
    assert "referee.events" in _imports(ROOT / "referee" / "table" / "devices.py", "referee")


def test_the_rule_can_fail() -> None:
    # the checker itself: a module that imports an edge is caught
    import tempfile
    with tempfile.TemporaryDirectory(dir=ROOT / "referee") as d:
        p = Path(d) / "leak.py"
        p.write_text("def f():\n    from vision.reader import BoardReader\n", encoding="utf-8")
        assert "vision.reader" in _imports(p, "referee")
