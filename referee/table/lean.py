"""The table process's start-up, before its libraries load: what it never uses is kept out.

``bgtable run`` calls :func:`lean_start` first (``referee.cli`` does, before it imports
:mod:`referee.table.run`).  NumPy's random module imports ``secrets``, hence ``hmac`` and
``hashlib``, and ``hashlib`` loads OpenSSL's ``libcrypto`` (3.4 MB of the table process)
though nothing of the table hashes anything on its main path.  Without ``_hashlib`` Python's
``hashlib`` and ``hmac`` use their built-in MD5, SHA-1, SHA-2, SHA-3 and BLAKE2: the same
digests.  A process that already loaded ``_hashlib`` (a test run, a script that imported
NumPy first) keeps it; :mod:`ssl` (the club's TLS) loads its own OpenSSL as before.
"""
from __future__ import annotations

import sys

#: the modules a table process is better without, when nothing has loaded them yet
KEPT_OUT = ("_hashlib",)


def lean_start() -> list[str]:
    """Keep :data:`KEPT_OUT` from loading in this process (those not loaded yet); the names kept out."""
    out = []
    for name in KEPT_OUT:
        if name not in sys.modules:
            sys.modules[name] = None  # type: ignore[assignment]  # an ImportError: the built-in fallback
            out.append(name)
    return out
