"""The table process starts lean (issue 19): ``bgtable run`` keeps OpenSSL's hashes, the club's
link and pygame's sound modules out of the process, and what it uses still works."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import sys
from referee.cli import main
code = main(["run", "--config", sys.argv[1]])
import hashlib, hmac
loaded = [m for m in ("_hashlib", "ssl", "referee.table.club.link", "pygame.mixer", "numpy", "referee.table.run")
          if sys.modules.get(m) is not None]
print(code, " ".join(loaded), hashlib.sha256(b"abc").hexdigest()[:12], hmac.new(b"k", b"m", "sha1").hexdigest()[:8])
"""


def test_bgtable_run_loads_neither_openssl_hashes_nor_the_club(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "no-such.toml")], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    code, *rest = out.stdout.split()
    assert code == "2" and "cannot be read" in out.stderr  # the missing config, told as before
    *loaded, sha, mac = rest
    assert loaded == ["numpy", "referee.table.run"]
    assert sha == "ba7816bf8f01" and mac == "772b71c8"  # the built-in SHA-256 and HMAC-SHA1: the same digests


def test_lean_start_keeps_what_is_loaded() -> None:
    from referee.table.lean import lean_start
    import hashlib  # noqa: F401  (loads _hashlib in this process, as a test run does)
    assert "_hashlib" in sys.modules
    before = sys.modules["_hashlib"]
    assert lean_start() == [] and sys.modules["_hashlib"] is before


def test_the_screen_s_pygame_has_no_sound_but_can_load_it() -> None:
    code = ("import sys; from hardware.screen._pygame import pygame; "
            "print(bool(pygame.mixer), 'pygame.mixer' in sys.modules, 'pkg_resources' in sys.modules); "
            "import pygame.mixer; print(bool(pygame.mixer))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "False", "False", "True"], out.stderr


def test_settle_heap_freezes_what_is_set_up_and_thaws_it_again() -> None:
    import gc
    from referee.table.lean import settle_heap
    try:
        kept = [[i] for i in range(1000)]
        n = settle_heap()
        # frozen objects leave the count only when freed (a thread another test left running may
        # free a few meanwhile); nothing joins it without another freeze
        assert n >= 1000 and n - 100 <= gc.get_freeze_count() <= n
        cycle: list = []
        cycle.append(cycle)  # made after the freeze: still collected
        del cycle
        assert gc.collect() >= 1
        assert settle_heap() >= len(kept)  # again between matches: thawed, collected, frozen
    finally:
        gc.unfreeze()


def test_bgtable_runs_fixed_mmap_threshold_is_told_to_the_reader() -> None:
    """``bgtable run`` fixes glibc's mmap threshold (its peak memory); the reader is told, and then
    remaps a colour frame without the large BGRA copy each read would map afresh (vision.rectify.remap)."""
    probe = ("from referee.table.run import steady_malloc\nfrom vision import buffers\n"
             "print(buffers.FIXED_MMAP, buffers.mapped_afresh(1 << 20))\nsteady_malloc()\n"
             "print(buffers.FIXED_MMAP, buffers.mapped_afresh(1 << 20), buffers.mapped_afresh(64 << 10))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.stdout.split("\n")[:2] == ["0 False", "262144 True False"], out.stderr
