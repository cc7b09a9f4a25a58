"""The reader's working arrays (:mod:`vision.buffers`): one flat buffer per name, small ones kept, large ones fresh."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from vision import buffers as B


@pytest.fixture(autouse=True)
def _fresh_set() -> None:
    B._LOCAL.__dict__.clear()   # this thread's set starts empty in every test


def test_the_views_of_one_name_share_its_one_buffer_as_large_as_the_largest() -> None:
    small = B.scratch("w", (10, 20), np.uint8)
    large = B.scratch("w", (30, 20), np.int16)
    again = B.scratch("w", (10, 20), np.uint8)
    assert small.shape == (10, 20) and large.shape == (30, 20) and large.dtype == np.int16
    assert np.shares_memory(again, large) and again.flags.c_contiguous
    assert B.kept_bytes() == 30 * 20 * 2   # the largest request, not one buffer per shape
    z = B.scratch("w", (5, 8), np.complex64)
    assert np.shares_memory(z, large) and B.kept_bytes() == 1200


def test_different_names_and_threads_never_share_memory() -> None:
    a = B.scratch("a", (16, 16), np.int16)
    b = B.scratch("b", (16, 16), np.int16)
    assert not np.shares_memory(a, b)
    other: list[np.ndarray] = []
    th = threading.Thread(target=lambda: other.append(B.scratch("a", (16, 16), np.int16)))
    th.start()
    th.join()
    assert not np.shares_memory(other[0], a)


def test_a_request_larger_than_the_cap_is_fresh_every_time_and_not_kept() -> None:
    shape = (B.LARGEST // 2 + 1,)   # int16: one byte past LARGEST
    first = B.scratch("big", shape, np.int16)
    second = B.scratch("big", shape, np.int16)
    assert first.shape == shape and not np.shares_memory(first, second)
    assert B.kept_bytes() == 0


def test_past_the_kept_bytes_the_set_starts_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(B, "KEPT_BYTES", 1000)
    a = B.scratch("a", (600,), np.uint8)
    assert B.scratch("a", (600,), np.uint8) is a and B.kept_bytes() == 600
    b = B.scratch("b", (600,), np.uint8)   # 1200 bytes: the set starts again with this one
    assert B.kept_bytes() == 600 and B.scratch("b", (600,), np.uint8) is b
    assert B.scratch("a", (600,), np.uint8) is not a   # made again (and the set again)
