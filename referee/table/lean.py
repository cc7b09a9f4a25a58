"""The table process's start-up: what it never uses kept out, what it keeps set aside.

``bgtable run`` calls :func:`lean_start` first (``referee.cli`` does, before it imports
:mod:`referee.table.run`).  NumPy's random module imports ``secrets``, hence ``hmac`` and
``hashlib``, and ``hashlib`` loads OpenSSL's ``libcrypto`` (3.4 MB of the table process)
though nothing of the table hashes anything on its main path.  Without ``_hashlib`` Python's
``hashlib`` and ``hmac`` use their built-in MD5, SHA-1, SHA-2, SHA-3 and BLAKE2: the same
digests.  A process that already loaded ``_hashlib`` (a test run, a script that imported
NumPy first) keeps it; :mod:`ssl` (the club's TLS) loads its own OpenSSL as before.

:func:`settle_heap`, once the table is set up (libraries, devices, the journal replayed), moves
every object there is into the collector's permanent generation (:func:`gc.freeze`): they live
as long as the process, and a full collection no longer walks them all while a player waits for
a verdict (one such collection was 90-100 ms of a simulated match; ``bench/verdict_latency.py``).
Freed by their reference counts as before; only a cycle among them is left for good, so
:func:`settle_heap` is called again between matches (it unfreezes and collects first).
"""
from __future__ import annotations

import gc
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


def settle_heap() -> int:
    """Collect, then freeze what is left (see the module doc); the number of objects frozen."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
