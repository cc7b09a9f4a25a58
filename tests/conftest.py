"""Shared test fixtures: where the real data lives."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
MATCHES = DATA / "matches"
PHOTOS = DATA / "vision" / "photos-yolo"

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


@pytest.fixture(scope="session")
def matches_dir() -> Path:
    return MATCHES


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    return PHOTOS
