"""Shared fixtures: where the third-party traces live, skipping cleanly when absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_TRACES = ROOT.parent / "shared" / "traces"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def shared_traces() -> Path:
    if not SHARED_TRACES.is_dir():
        pytest.skip("../shared/traces is not here")
    return SHARED_TRACES


def shared(*parts: str) -> Path:
    """A path under ../shared/traces, or a skip when that folder is missing."""
    p = SHARED_TRACES.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} is not here")
    return p
