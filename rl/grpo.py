"""Online RL with group-relative advantages (GRPO-style), as a plain torch loop.

Each iteration draws `groups` tasks; each group is G episodes of the same task from the
same source, mock (probability `mix`) or a real device. The reward is the checker's 1 or
0; an episode's advantage is its reward minus its group's mean, over the group's std.
Every step of an episode shares that advantage and one weight, 1 / (action tokens in the
episode), so each episode counts once whatever its length (token-level normalisation
lets long failures erode the output format). Only the tokens the policy chose count: one
that grounded decoding forced (the only token allowed, `Episode.free`) was no choice, and
leaving the many forced ones out (an action its reason names, the end of a quoted label)
puts the update on the few that decide. A token sampled where grounding limited the
choice is scored under the distribution it was drawn from: the model's, renormalised over
the tokens grounding allowed there (`Episode.allowed`), not over the whole vocabulary,
whose forbidden mass would otherwise pull on every step. Groups whose rewards are all equal carry no
signal and are skipped. Optional: a k3 KL penalty to the SFT reference (`beta`), a
PPO-style ratio clip when an iteration makes several passes (`epochs`), gradient norm
clipping and a linear warmup.

    loss = -(1/E) * sum_episodes A_e * W_e * sum_{chosen tokens} logp  (+ beta * KL)

Iteration i draws its tasks and sources from `Random(seed, i)` and seeds sampling with
(seed, i), so a resumed run plays exactly what an uninterrupted one would.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rl.rollout import Episode


@dataclass
class Plan:
    """Which task each group of an iteration plays, and where."""

    groups: list[tuple[Any, str]]

    def count(self, source: str) -> int:
        return sum(1 for _, s in self.groups if s == source)


def plan_groups(mock_tasks: Sequence[Any], device_tasks: Sequence[Any], n: int, mix: float,
                seed: int, iteration: int, weight: Callable[[Any], float] | None = None
                ) -> Plan:
    """`n` groups, each mock with probability `mix` (else device), and its task: drawn
    with probability in proportion to `weight(task)` (a `Curriculum`), no task twice in
    one iteration while a source has tasks left; with no `weight`, uniformly, as a walk
    through seeded shuffles of each source's tasks (`walk`): every task once before any
    twice, across iterations too."""
    rng = random.Random(f"{seed}/{iteration}")
    sources = ["mock" if (rng.random() < mix or not device_tasks) else "device"
               for _ in range(n)]
    out: list[tuple[Any, str]] = []
    for src, pool in (("mock", mock_tasks), ("device", device_tasks)):
        want = sources.count(src)
        if not want:
            continue
        if weight is None:
            out += [(t, src) for t in walk(pool, f"{seed}/{src}", iteration * n, want)]
            continue
        # Weighted sampling without replacement (Efraimidis-Spirakis keys u ** (1 / w)).
        keys = [rng.random() ** (1.0 / max(weight(t), 1e-9)) for t in pool]
        order = sorted(range(len(pool)), key=lambda i: -keys[i])
        picks = [pool[order[j % len(order)]] for j in range(want)]
        out += [(t, src) for t in picks]
    by_src = {src: iter([t for t, s in out if s == src]) for src in ("mock", "device")}
    return Plan([(next(by_src[s]), s) for s in sources])


def walk(pool: Sequence[Any], seed: str, start: int, count: int) -> list[Any]:
    """Items `start` .. `start + count - 1` of an endless walk through `pool`: its pass k
    is the pool shuffled with (`seed`, k), so every item comes once before any twice."""
    out: list[Any] = []
    passes: dict[int, list[Any]] = {}
    for i in range(start, start + count) if pool else ():
        k = i // len(pool)
        if k not in passes:
            passes[k] = list(pool)
            random.Random(f"walk/{seed}/{k}").shuffle(passes[k])
        out.append(passes[k][i % len(pool)])
    return out


def template_of(task: Any) -> str:
    """What a `Curriculum` pools a task's results under: its template (instances of one
    template are alike in difficulty), else its id."""
    return str(getattr(task, "template", "") or getattr(task, "id", task))


@dataclass
class Curriculum:
    """Which tasks RL groups play: those the policy half-solves.

    A group carries a signal only when its episodes disagree, so a task is drawn in
    proportion to p * (1 - p), p being its template's success in recent rollouts
    (Beta(1, 1) prior: a template not played yet weighs the most, 1/4; one always or
    never solved falls to `floor`). Older results count `decay` times less after each
    iteration, since the policy they measured has moved on.
    """

    stats: dict[str, list[float]] = field(default_factory=dict)  # template: [wins, plays]
    decay: float = 0.7
    floor: float = 0.01

    def weight(self, task: Any) -> float:
        wins, plays = self.stats.get(template_of(task), (0.0, 0.0))
        p = (wins + 1.0) / (plays + 2.0)
        return max(self.floor, p * (1.0 - p))

    def record(self, tasks: Sequence[Any], episodes: Sequence[Episode]) -> None:
        """Fold an iteration's episodes in (`tasks[e.group]` is episode e's task)."""
        for v in self.stats.values():
            v[0] *= self.decay
            v[1] *= self.decay
        for e in episodes:
            v = self.stats.setdefault(template_of(tasks[e.group]), [0.0, 0.0])
            v[0] += e.reward
            v[1] += 1.0


def advantages(rewards: Sequence[float], group_of: Sequence[int]) -> list[float]:
    """(r - mean of its group) / (std of its group + 1e-4), per episode."""
    by: dict[int, list[float]] = {}
    for r, g in zip(rewards, group_of, strict=True):
        by.setdefault(g, []).append(r)
    stats = {}
    for g, rs in by.items():
        m = sum(rs) / len(rs)
        sd = (sum((r - m) ** 2 for r in rs) / max(1, len(rs) - 1)) ** 0.5
        stats[g] = (m, sd)
    return [(r - stats[g][0]) / (stats[g][1] + 1e-4) for r, g in zip(rewards, group_of,
                                                                      strict=True)]


def step_batch(rows: list[tuple[list[int], list[int]]], pad: int,
           free: Sequence[Sequence[bool] | None] = ()) -> tuple[Any, Any, Any]:
    """Right-padded ids, attention mask and action-token mask of (prompt, action) rows;
    a row's `free` flags leave its forced action tokens out of the mask."""
    import torch

    width = max(len(p) + len(a) for p, a in rows)
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    att = torch.zeros((len(rows), width), dtype=torch.long)
    act = torch.zeros((len(rows), width), dtype=torch.bool)
    for i, (p, a) in enumerate(rows):
        seq = p + a
        ids[i, :len(seq)] = torch.tensor(seq)
        att[i, :len(seq)] = 1
        chosen = free[i] if i < len(free) else None
        act[i, len(p):len(seq)] = (torch.tensor(chosen, dtype=torch.bool)
                                   if chosen is not None and len(chosen) == len(a) else True)
    return ids, att, act


def chosen_flags(e: Episode) -> list[list[bool] | None]:
    """Per step of `e`, which action tokens the policy chose (None: all of them)."""
    return [e.free[i] if i < len(e.free) else None for i in range(len(e.steps))]


def step_limits(e: Episode) -> list[dict[int, list[int]]]:
    """Per step of `e`, the tokens grounding allowed at each limited reply position."""
    return [e.allowed[i] if i < len(e.allowed) else {} for i in range(len(e.steps))]


def limited_at(rows: Sequence[tuple[list[int], list[int]]],
               limits: Sequence[dict[int, list[int]]]) -> list[tuple[int, int, list[int]]]:
    """(row, column of `token_logps`, allowed ids) of every limited reply position: reply
    token j of a row whose prompt is p tokens long is column p + j - 1."""
    return [(r, len(rows[r][0]) + j - 1, ids) for r, lim in enumerate(limits)
            for j, ids in sorted(lim.items()) if ids]


def token_logps(model: Any, ids: Any, att: Any,
                limited: Sequence[tuple[int, int, list[int]]] = ()) -> Any:
    """log p(token t | tokens < t) for t >= 1 (shape: batch x (len - 1)); at the
    `limited` positions (`limited_at`) p is renormalised over the allowed tokens."""
    import torch

    ids, att = ids.to(model.device), att.to(model.device)
    logits = model(input_ids=ids, attention_mask=att).logits[:, :-1].float()
    lp = torch.log_softmax(logits, -1).gather(-1, ids[:, 1:, None]).squeeze(-1)
    if not limited:
        return lp
    # Only the limited positions are renormalised (a vocabulary-wide mask would cost
    # batch x length x vocabulary, gigabytes for a pretrained model's vocabulary).
    r = torch.tensor([x[0] for x in limited], device=logits.device)
    c = torch.tensor([x[1] for x in limited], device=logits.device)
    table = torch.zeros((len(limited), max(len(x[2]) for x in limited)), dtype=torch.long)
    shut = torch.ones(table.shape, dtype=torch.bool)
    for k, (_, _, allowed) in enumerate(limited):
        table[k, :len(allowed)] = torch.tensor(allowed)
        shut[k, :len(allowed)] = False
    picked = logits[r, c].gather(-1, table.to(logits.device))
    norm = torch.logsumexp(picked.masked_fill(shut.to(logits.device), float("-inf")), -1)
    return lp.index_put((r, c), logits[r, c, ids[r, c + 1]] - norm)


def update(model: Any, ref: Any, optimizer: Any, scheduler: Any, episodes: list[Episode], *,
           pad: int, beta: float = 0.0, clip: float = 1.0, epochs: int = 1,
           ratio_clip: float = 0.2, chunk: int = 16) -> dict[str, float]:
    """One group-relative update from `episodes`; returns loss and what was used."""
    import torch

    adv = advantages([e.reward for e in episodes], [e.group for e in episodes])
    rows, weights, free, limits = [], [], [], []
    for e, a in zip(episodes, adv, strict=True):
        if abs(a) < 1e-6 or not e.steps:
            continue
        chosen = chosen_flags(e)
        w = a / max(1, sum(len(s[1]) if c is None else sum(c)
                           for s, c in zip(e.steps, chosen, strict=True)))
        rows += e.steps
        free += chosen
        limits += step_limits(e)
        weights += [w] * len(e.steps)
    n_eps = max(1, len(episodes))
    if not rows:
        return {"loss": 0.0, "used_steps": 0.0, "kl": 0.0}
    model.train()
    # Each chunk's tensors, and what neither epoch changes (the playing policy's and the
    # reference's log-probabilities), made once for every pass.
    chunks = []
    for i in range(0, len(rows), chunk):
        ids, att, act = step_batch(rows[i:i + chunk], pad, free[i:i + chunk])
        chunks.append((ids, att, act[:, 1:].float().to(model.device),
                       torch.tensor(weights[i:i + chunk], device=model.device)[:, None],
                       limited_at(rows[i:i + chunk], limits[i:i + chunk])))
    with torch.no_grad():
        old = [token_logps(model, ids, att, lim) for ids, att, _, _, lim in chunks] \
            if epochs > 1 else []
        refs = [token_logps(ref, ids, att, lim) for ids, att, _, _, lim in chunks] \
            if beta > 0 and ref is not None else []
    total, kl_sum = 0.0, 0.0
    for _ in range(epochs):
        optimizer.zero_grad()
        for c, (ids, att, mask, w, lim) in enumerate(chunks):
            lp = token_logps(model, ids, att, lim)
            if old:
                ratio = torch.exp(lp - old[c])
                surr = torch.minimum(ratio * w, torch.clamp(ratio, 1 - ratio_clip,
                                                            1 + ratio_clip) * w)
            else:
                surr = lp * w
            loss = -(surr * mask).sum() / n_eps
            if refs:
                d = refs[c] - lp
                kl = ((torch.exp(d) - d - 1) * mask).sum() / mask.sum().clamp(min=1)
                loss = loss + beta * kl * ids.shape[0] / len(rows)
                kl_sum += float(kl.detach()) * ids.shape[0] / len(rows)
            loss.backward()
            total += float(loss.detach())
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
    scheduler.step()
    model.eval()
    return {"loss": total / epochs, "used_steps": float(len(rows)), "kl": kl_sum / epochs}


def summarize(episodes: Sequence[Episode]) -> dict[str, Any]:
    """Success per source, valid-action rate and counts of one iteration's episodes."""
    out: dict[str, Any] = {"success": {}, "episodes": {}}
    for src in sorted({e.source for e in episodes}):
        eps = [e for e in episodes if e.source == src]
        out["success"][src] = sum(e.reward for e in eps) / len(eps)
        out["episodes"][src] = len(eps)
    steps = sum(e.n for e in episodes)
    out["valid_rate"] = sum(e.valid for e in episodes) / steps if steps else 0.0
    out["steps"] = steps
    return out


def log_line(path: Any, record: dict[str, Any]) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(record, sort_keys=True) + "\n")
