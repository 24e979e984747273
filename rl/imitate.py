"""Filtered self-imitation (RAFT / ReST): the SFT loss on the policy's own solved episodes.

    stats = imitate(model, optimizer, episodes, pad=tok.pad_token_id, seed=7)

`--rl-loss wins` uses this in place of the group-relative update (`rl.grpo.update`): of
an iteration's episodes only those the checker passed teach, each step of them an SFT
example whose target is the reply the policy sampled. A group's wins share one weight
(1 / wins in the group), so every solved task counts once however often it was solved;
failures push nothing down, which is what lets a small model take many steps on its own
successes without losing the output format. As in the group-relative update, only the
tokens the policy chose count (grounded decoding forced the rest), each scored under the
distribution it was sampled from (`rl.grpo.token_logps` over the allowed tokens).
The steps are shuffled with `seed` and taken `batch` at a time, one optimizer step per
batch: the loss is the weighted mean negative log-likelihood of the chosen tokens.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rl.grpo import chosen_flags, limited_at, step_batch, step_limits, token_logps
from rl.rollout import Episode

Row = tuple[tuple[list[int], list[int]], "list[bool] | None", dict[int, list[int]], float]


def imitation_rows(episodes: Sequence[Episode]) -> list[Row]:
    """(step, chosen-token flags, allowed tokens, weight) of every step of every solved
    episode, in episode order; a group's wins weigh 1 / (its number of wins) each."""
    wins: dict[int, int] = {}
    for e in episodes:
        if e.reward > 0 and e.steps:
            wins[e.group] = wins.get(e.group, 0) + 1
    rows: list[Row] = []
    for e in episodes:
        if e.reward > 0 and e.steps:
            w = 1.0 / wins[e.group]
            rows += [(s, c, lim, w) for s, c, lim in zip(e.steps, chosen_flags(e),
                                                         step_limits(e),
                                                         strict=True)]
    return rows


def imitate(model: Any, optimizer: Any, episodes: Sequence[Episode], *, pad: int,
            batch: int = 16, seed: int = 0, clip: float = 1.0) -> dict[str, float]:
    """SFT steps on the solved episodes' chosen tokens (see the module docstring);
    returns the mean loss, the steps used and the optimizer steps taken."""
    import torch

    rows = imitation_rows(episodes)
    random.Random(f"imitate/{seed}").shuffle(rows)
    if not rows:
        return {"loss": 0.0, "used_steps": 0.0, "updates": 0.0}
    model.train()
    total, n = 0.0, 0
    for i in range(0, len(rows), batch):
        part = rows[i:i + batch]
        steps = [r[0] for r in part]
        ids, att, act = step_batch(steps, pad, [r[1] for r in part])
        lp = token_logps(model, ids, att, limited_at(steps, [r[2] for r in part]))
        mask = act[:, 1:].float().to(lp.device) * torch.tensor(
            [r[3] for r in part], device=lp.device)[:, None]
        loss = -(lp * mask).sum() / mask.sum().clamp(min=1e-6)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        total += float(loss.detach())
        n += 1
    model.eval()
    return {"loss": total / n, "used_steps": float(len(rows)), "updates": float(n)}
