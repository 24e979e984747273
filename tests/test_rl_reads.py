"""benchmarks/reads.py: the task's pull on a policy's first step, paired prompt for prompt."""

from __future__ import annotations

import pytest

from tests.rl_fixtures import APP

pytestmark = pytest.mark.usefixtures("one_thread")


def test_the_pull_is_the_tasks_own_and_the_counts_add_up(micro) -> None:
    from benchmarks.reads import reads

    folder = micro[0]
    r = reads(folder, APP, n=4, seed=0)
    assert r == reads(folder, APP, n=4, seed=0)  # deterministic
    assert r["app"] == "shopping" and 0 < r["instances"] <= 4
    assert 0 <= r["top"] <= r["clicks"] <= r["instances"] and 0 <= r["note_first"] <= 4
    assert r["clicks"] > 0 and r["pull_mean"] != 0.0  # the task moves an untrained model too
    same = reads(folder, APP, n=4, seed=0, null=None)  # the task against itself: no pull
    assert same["clicks"] == r["clicks"] and same["pull_mean"] == same["pull_median"] == 0.0
