"""Filtered self-imitation (`--rl-loss wins`): SFT steps on the policy's own solved episodes."""

from __future__ import annotations

import pytest

from rl.imitate import imitation_rows
from rl.rollout import Episode

pytestmark = pytest.mark.usefixtures("one_thread")


def _ep(group: int, reward: float, steps: int = 2) -> Episode:
    return Episode(f"t{group}", "mock", group, reward=reward,
                   steps=[([1, 2, 3], [4 + k, 5]) for k in range(steps)])


def test_only_wins_teach_and_every_solved_task_counts_once() -> None:
    eps = [_ep(0, 1.0), _ep(0, 0.0), _ep(0, 1.0), _ep(1, 1.0, steps=3), _ep(2, 0.0)]
    rows = imitation_rows(eps)
    assert len(rows) == 2 + 2 + 3  # the three solved episodes' steps, no failed one's
    assert [w for *_, w in rows] == [0.5] * 4 + [1.0] * 3
    assert sum(w for *_, w in rows[:4]) / 2 == sum(w for *_, w in rows[4:]) / 3  # per task
    assert imitation_rows([_ep(0, 0.0), _ep(1, 0.0)]) == []


def test_imitation_raises_the_solved_episode_and_nothing_else(micro) -> None:
    torch = pytest.importorskip("torch")
    from rl.data import target
    from rl.grpo import limited_at, step_batch, token_logps
    from rl.imitate import imitate
    from rl.model import load_policy
    from rl.rollout import Slot, play

    folder, specs, tasks, _ = micro
    model, tok = load_policy(folder)
    torch.manual_seed(0)
    eps = play(model, tok, [Slot(target(specs), tasks[0], "mock", g) for g in range(2)],
               max_steps=2, max_new_tokens=8)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    before = [p.detach().clone() for p in model.parameters()]
    assert imitate(model, opt, eps, pad=tok.pad_token_id)["updates"] == 0  # nothing solved
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))

    def chosen_logp(e: Episode) -> float:
        ids, att, act = step_batch(e.steps, tok.pad_token_id, e.free)
        with torch.no_grad():
            lp = token_logps(model, ids, att, limited_at(e.steps, e.allowed))
        return float((lp * act[:, 1:]).sum())

    eps[0].reward = 1.0
    start = chosen_logp(eps[0])
    for i in range(3):
        stats = imitate(model, opt, eps, pad=tok.pad_token_id, seed=i)
    assert stats["used_steps"] == eps[0].n and stats["updates"] >= 1
    assert chosen_logp(eps[0]) > start  # the solved episode's choices became likelier


def test_a_wins_run_imitates_instead_of_the_group_update(micro, tmp_path) -> None:
    pytest.importorskip("torch")
    from rl.config import TrainConfig
    from rl.online import train_rl
    from tests.rl_fixtures import ROOT

    folder, specs, tasks, _ = micro
    cfg = TrainConfig(apps=[str(ROOT / "generated" / "shopping")], out=str(tmp_path),
                      rl_steps=1, group=2, groups=2, max_steps=2, max_new_tokens=8,
                      probe=0, demo_workers=0, rl_loss="wins")
    _, log = train_rl(cfg, folder, specs, tasks)
    assert "updates" in log[0] and "kl" not in log[0]  # rl.imitate's record, no reference

