"""Which public functions, classes and methods have no docstring (issue 18), read from the code's AST.

Counted: every public module-level function and class of a public module, and every public method
of a public class (also one nested in a public class). Not counted: names starting with ``_``
(dunders too), ``@overload`` stubs, and property setters and deleters (the getter's docstring
covers them). ``python3 tests/docstrings.py referee vision`` prints the missing ones.
"""
from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _public(name: str) -> bool:
    """True for a name that does not start with an underscore."""
    return not name.startswith("_")


def _decorator_names(node: Def) -> Iterator[str]:
    """The dotted names of ``node``'s decorators (``overload``, ``typing.overload``, ``x.setter``)."""
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        parts = []
        while isinstance(target, ast.Attribute):
            parts.append(target.attr)
            target = target.value
        if isinstance(target, ast.Name):
            parts.append(target.id)
        yield ".".join(reversed(parts))


def _exempt(node: Def) -> bool:
    """True for an overload stub or a property setter or deleter."""
    for name in _decorator_names(node):
        if name.split(".")[-1] == "overload" or name.endswith((".setter", ".deleter")):
            return True
    return False


def _walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, int]]:
    """``(qualified name, line)`` of every public definition in ``body`` that has no docstring."""
    for node in body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if not _public(node.name) or _exempt(node):
            continue
        name = f"{prefix}{node.name}"
        if ast.get_docstring(node) is None:
            yield name, node.lineno
        if isinstance(node, ast.ClassDef):
            yield from _walk(node.body, f"{name}.")


def missing_in_source(source: str, filename: str = "<source>") -> list[tuple[str, int]]:
    """``(qualified name, line)`` of every public definition in ``source`` without a docstring."""
    return list(_walk(ast.parse(source, filename).body, ""))


def public_module(path: Path) -> bool:
    """True when no part of ``path`` (folder or file) starts with an underscore, ``__init__.py`` aside."""
    parts = list(path.parts[:-1]) + ([] if path.name == "__init__.py" else [path.stem])
    return all(_public(part) for part in parts)


def missing(root: Path, packages: list[str]) -> list[str]:
    """``path:line: name`` for every undocumented public definition in the packages under ``root``."""
    out = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root)
            if not public_module(rel):
                continue
            for name, line in missing_in_source(path.read_text(encoding="utf-8"), str(rel)):
                out.append(f"{rel}:{line}: {name}")
    return out


if __name__ == "__main__":
    found = missing(Path.cwd(), sys.argv[1:] or ["referee", "vision", "firmware_bridge", "hardware"])
    print("\n".join(found))
    print(f"{len(found)} missing", file=sys.stderr)
    sys.exit(1 if found else 0)
