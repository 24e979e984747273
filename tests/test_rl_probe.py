"""Which tasks RL plays: the probe of the SFT policy, half-solved tasks, kinds in balance."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace as T

import pytest

from rl.grpo import plan_groups
from rl.probe import balanced, probe, spread
from rl.rollout import Episode


def _tasks() -> list[T]:
    return [T(id=f"{tpl}#{i}", template=tpl, kind=kind)
            for tpl, kind, n in (("nav_a", "navigation", 6), ("nav_b", "navigation", 6),
                                 ("ask", "information", 3), ("set", "state", 1))
            for i in range(n)]


def test_spread_takes_a_template_at_a_time_kinds_taking_turns() -> None:
    tasks = _tasks()
    first = spread(tasks, 4, seed=0)
    assert {t.template for t in first} == {"nav_a", "nav_b", "ask", "set"}
    assert [t.kind for t in first[:3]] == sorted({"navigation", "information", "state"})
    assert len(spread(tasks, 100, 0)) == len(tasks)  # no task twice, none lost
    assert len({t.id for t in spread(tasks, 100, 0)}) == len(tasks)
    assert spread(tasks, 7, 3) == spread(tasks, 7, 3)


def _play(wins: dict[str, float]):  # noqa: ANN202
    def play(groups, size, seed):  # noqa: ANN001, ANN202
        return [Episode(t.id, "mock", g, reward=float(j < round(wins[t.template] * size)))
                for t, g in groups for j in range(size)]
    return play


def test_the_pool_is_what_the_policy_half_solves() -> None:
    tasks = _tasks()
    found = probe(tasks, n=8, samples=4, seed=0,
                  play=_play({"nav_a": 1.0, "nav_b": 0.5, "ask": 0.25, "set": 0.0}))
    assert {t.template for t in found.pool} == {"nav_b", "ask"}
    assert all(0 < found.success[t.id] < 1 for t in found.pool)
    assert len(found.success) == 8 and len(found.episodes) == 32
    assert [e.task_id for e in found.episodes[::4]] == [t.id for t in found.chosen]


def test_with_too_few_half_solved_tasks_the_pool_falls_back() -> None:
    tasks = _tasks()
    solved = probe(tasks, n=8, samples=2, seed=0,
                   play=_play({"nav_a": 1.0, "nav_b": 1.0, "ask": 0.0, "set": 0.0}), least=2)
    assert {t.template for t in solved.pool} == {"nav_a", "nav_b"}  # solved at least once
    nothing = probe(tasks, n=8, samples=2, seed=0,
                    play=_play(dict.fromkeys(("nav_a", "nav_b", "ask", "set"), 0.0)))
    assert nothing.pool == tasks
    assert probe(tasks, n=8, samples=0, seed=0, play=_play({})).pool == tasks


def test_every_kind_draws_the_same_share_of_groups() -> None:
    tasks = _tasks()  # 12 navigation, 3 information, 1 state
    counts = Counter(t.kind for it in range(300)
                     for t, _ in plan_groups(tasks, [], 1, 1.0, 0, it,
                                             balanced(None, tasks)).groups)
    assert all(80 < counts[k] < 120 for k in ("navigation", "information", "state"))
    plain = Counter(t.kind for it in range(300)
                    for t, _ in plan_groups(tasks, [], 1, 1.0, 0, it).groups)
    assert plain["navigation"] > 180


def test_with_no_weight_every_task_comes_once_before_any_twice() -> None:
    tasks = _tasks()  # 16 tasks, kinds in proportion to their tasks
    drawn = [t.id for it in range(8) for t, _ in plan_groups(tasks, [], 6, 1.0, 3, it).groups]
    assert sorted(drawn[:16]) == sorted(t.id for t in tasks)  # one pass: each task once
    assert sorted(drawn[16:32]) == sorted(t.id for t in tasks)  # the next: a new shuffle
    assert drawn[:16] != drawn[16:32]
    assert drawn == [t.id for it in range(8)  # a resumed run draws what it would have
                     for t, _ in plan_groups(tasks, [], 6, 1.0, 3, it).groups]


@pytest.mark.usefixtures("one_thread")
def test_a_run_without_the_curriculum_draws_uniformly(micro, tmp_path, monkeypatch) -> None:
    pytest.importorskip("torch")
    import rl.grpo
    from rl.config import TrainConfig
    from rl.online import train_rl
    from tests.rl_fixtures import ROOT

    weights = []

    def plan(*a, weight=None, **kw):  # noqa: ANN002, ANN003, ANN202
        weights.append(weight)
        return plan_groups(*a, weight=weight, **kw)

    monkeypatch.setattr(rl.grpo, "plan_groups", plan)
    folder, specs, tasks, _ = micro
    cfg = TrainConfig(apps=[str(ROOT / "generated" / "shopping")], out=str(tmp_path),
                      rl_steps=1, group=2, groups=2, max_steps=2, max_new_tokens=4,
                      probe=0, demo_workers=0, rl_loss="wins", curriculum=False)
    train_rl(cfg, folder, specs, tasks)
    assert weights == [None]  # not kinds in equal shares: the walk, kinds as they come
