"""Rollouts in worker processes and on Ray play exactly what this process would."""

from __future__ import annotations

import pytest

from tests.rl_fixtures import APP

pytestmark = pytest.mark.usefixtures("one_thread")


def _jobs(folder, tasks) -> list:  # noqa: ANN001
    from rl.rollout import Job, split

    settings = {"max_steps": 2, "max_new_tokens": 8}
    groups = [(t, g) for g, t in enumerate(tasks[:4])]
    return [Job(str(folder), [str(APP)], part, 2, 100 + j, settings)
            for j, part in enumerate(split(groups, 2))]


def _key(eps) -> list:  # noqa: ANN001
    return sorted((e.group, e.task_id, e.reward, [s[1] for s in e.steps]) for e in eps)


@pytest.mark.slow
def test_worker_processes_match_in_process(micro) -> None:
    pytest.importorskip("torch")
    from rl.rollout import run_groups

    folder, _, tasks, _ = micro
    here = run_groups(_jobs(folder, tasks), workers=0)
    there = run_groups(_jobs(folder, tasks), workers=2)
    assert len(here) == 8 and {e.group for e in here} == {0, 1, 2, 3}
    assert _key(here) == _key(there)


@pytest.mark.slow
def test_ray_matches_in_process(micro) -> None:
    pytest.importorskip("torch")
    ray = pytest.importorskip("ray")
    from rl.rollout import run_groups

    folder, _, tasks, _ = micro
    try:
        there = run_groups(_jobs(folder, tasks), ray="local")
    finally:
        ray.shutdown()
    assert _key(run_groups(_jobs(folder, tasks))) == _key(there)


def test_what_a_reply_notes_is_in_the_later_prompts_of_its_episode(micro, monkeypatch) -> None:  # noqa: E501
    pytest.importorskip("torch")
    from rl import rollout
    from rl.data import target

    folder, specs, tasks, _ = micro
    from rl.model import load_policy

    model, tok = load_policy(folder)
    said = iter(['Note: "12 oz"\nAction: {"action_type": "navigate_back"}',
                 '{"action_type": "navigate_back"}', '{"action_type": "navigate_back"}'])
    seen: list[str] = []

    def scripted(model, tok, prompts, **kw):  # noqa: ANN001, ANN003, ANN202
        seen.extend(tok.decode(p) for p in prompts)
        return [tok(next(said) + "<|im_end|>")["input_ids"] for _ in prompts]

    monkeypatch.setattr(rollout, "generate", scripted)
    (ep,) = rollout.play(model, tok, [rollout.Slot(target(specs), tasks[0])], max_steps=3)
    assert ep.n == 3 and ep.valid == 3
    assert "Notes:" not in seen[0]
    assert all('Notes: "12 oz"' in p for p in seen[1:])
