"""benchmarks/halves.py's cut of a recording into parts: the proxy for a short recording."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.halves import half, part
from phoneworld.traces.discover import find_traces, read_trace_folder

REAL = Path(__file__).resolve().parents[2] / "shared" / "traces"


def _traces(folder: str):
    where = REAL / folder
    if not where.is_dir():
        pytest.skip(f"{where} is missing")
    return [t for fmt, loc in find_traces(where, []) for t in read_trace_folder(fmt, loc)]


@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_the_parts_of_a_recording_hold_each_step_once_on_its_own_observations(n):
    (trace,) = _traces("droidbot/activitylauncher")
    parts = [part(trace, k, n) for k in range(n)]
    assert [len(p.steps) for p in parts] == sorted((len(p.steps) for p in parts), reverse=True)
    assert max(len(p.steps) for p in parts) - min(len(p.steps) for p in parts) <= 1
    steps = [s for p in parts for s in p.steps]
    assert [s.action for s in steps] == [s.action for s in trace.steps]
    at = 0
    for p in parts:  # each step still points at the observations it was taken on and led to
        for s, old in zip(p.steps, trace.steps[at:at + len(p.steps)], strict=True):
            assert p.observations[s.before] == trace.observations[old.before]
            if old.after is not None:
                assert p.observations[s.after] == trace.observations[old.after]
        at += len(p.steps)
    assert parts[0].instruction == trace.instruction
    assert all(p.instruction is None and p.answer is None for p in parts[1:])


def test_halves_are_the_parts_of_two_and_a_recording_without_steps_is_cut_by_its_dumps():
    (trace,) = _traces("droidbot/activitylauncher")
    assert half(trace, False) == part(trace, 0, 2) and half(trace, True) == part(trace, 1, 2)
    (dumps,) = _traces("appium/spoon_live")
    assert not dumps.steps and len(dumps.observations) == 2
    assert [len(part(dumps, k, 3).observations) for k in range(3)] == [1, 1, 0]
