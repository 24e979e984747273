"""Rollouts in worker processes and on Ray play exactly what this process would."""

from __future__ import annotations

import pytest

from tests.rl_fixtures import APP, _one_thread, micro  # noqa: F401


def _jobs(folder, tasks) -> list:  # noqa: ANN001
    from rl.rollout import Job, split

    settings = {"max_steps": 2, "max_new_tokens": 8}
    groups = [(t, g) for g, t in enumerate(tasks[:4])]
    return [Job(str(folder), [str(APP)], part, 2, 100 + j, settings)
            for j, part in enumerate(split(groups, 2))]


def _key(eps) -> list:  # noqa: ANN001
    return sorted((e.group, e.task_id, e.reward, [s[1] for s in e.steps]) for e in eps)


@pytest.mark.slow
def test_worker_processes_match_in_process(micro) -> None:  # noqa: F811
    pytest.importorskip("torch")
    from rl.rollout import run_groups

    folder, _, tasks, _ = micro
    here = run_groups(_jobs(folder, tasks), workers=0)
    there = run_groups(_jobs(folder, tasks), workers=2)
    assert len(here) == 8 and {e.group for e in here} == {0, 1, 2, 3}
    assert _key(here) == _key(there)


@pytest.mark.slow
def test_ray_matches_in_process(micro) -> None:  # noqa: F811
    pytest.importorskip("torch")
    ray = pytest.importorskip("ray")
    from rl.rollout import run_groups

    folder, _, tasks, _ = micro
    try:
        there = run_groups(_jobs(folder, tasks), ray="local")
    finally:
        ray.shutdown()
    assert _key(run_groups(_jobs(folder, tasks))) == _key(there)
