"""Episodes: the policy plays tasks on mock apps or phones, many episodes in lock-step.

    eps = play(model, tok, [Slot(backend, task, "mock", group=0) for ...], max_steps=6)
    eps[0].reward, eps[0].valid, eps[0].steps   # steps: (prompt ids, action ids) pairs

Each step every running episode gets its own prompt (`rl.policy.messages`: the task, the
notes, the screen and what the last steps did, `rl.policy.step_line`); the prompts
are generated as one left-padded batch and each reply is read with `read_action`; what a
reply notes (`Note: "..."`) is shown in every later prompt of its episode. A reply
that names no valid action, or one the app rejects, is an invalid step: nothing happens,
it still counts. What a reply types, answers or notes is grounded in the task, the notes
and the screen (`rl.ground`; `grounded=False` turns that off). An episode ends with
`status` or `answer`, or after `max_steps`; then the task's checker (mock) or the
device's predicate or judge gives the reward, 1 or 0.
The generated ids are kept as they are (never decoded and re-encoded) for the update.

`run_groups` plays groups in this process, in worker processes, or as Ray tasks; device
groups always run here, one device at a time, G episodes back to back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rl.ground import Grounded, seen_at
from rl.model import prompt_ids
from rl.policy import HISTORY, Shown, carry_places, messages, notes, read_action, step_line


@dataclass
class Slot:
    """One episode to play: where (a backend), what (a task), and its bookkeeping."""

    backend: Any
    task: Any
    source: str = "mock"
    group: int = 0


@dataclass
class Episode:
    """A played episode: the token ids of its steps, and how it went."""

    task_id: str
    source: str
    group: int
    app: str = ""
    kind: str = ""
    steps: list[tuple[list[int], list[int]]] = field(default_factory=list)
    # Per step, which action tokens the policy chose (False: grounding forced it); no
    # entry for a step means every token was chosen.
    free: list[list[bool]] = field(default_factory=list)
    # Per step, the tokens grounding allowed at each limited reply position (none: the
    # model's whole distribution), so the update scores what the rollout sampled from.
    allowed: list[dict[int, list[int]]] = field(default_factory=list)
    reward: float = 0.0
    valid: int = 0
    reason: str = ""

    @property
    def n(self) -> int:
        return len(self.steps)


def generate(model: Any, tok: Any, prompts: list[list[int]], *, max_new_tokens: int = 64,
             temperature: float = 1.0, greedy: bool = False,
             sources: list[Any] | None = None,
             free: list[list[bool]] | None = None,
             allowed: list[dict[int, list[int]]] | None = None) -> list[list[int]]:
    """Replies to a batch of prompt ids, each cut after its first end-of-turn (kept).

    With `sources` (one `rl.ground.Seen` or list of strings per prompt), a reply is
    grounded in what its prompt's step saw (`rl.ground`); a `free` list then receives,
    per reply, which of its tokens the model chose (False where grounding allowed one),
    and an `allowed` list which tokens each limited position allowed (`Grounded.limits`)."""
    import torch

    enc = tok.pad({"input_ids": prompts}, return_tensors="pt", padding_side="left")
    enc = {k: v.to(model.device) for k, v in enc.items()}
    kw: dict[str, Any] = {"do_sample": False} if greedy else {
        "do_sample": True, "temperature": temperature, "top_k": 0, "top_p": 1.0}
    if sources is not None:
        from transformers import LogitsProcessorList

        grounded = Grounded(tok, enc["input_ids"].shape[1], sources)
        kw["logits_processor"] = LogitsProcessorList([grounded.mask])
    with torch.no_grad():
        out = model.generate(**enc, max_new_tokens=max_new_tokens, pad_token_id=tok.pad_token_id,
                             eos_token_id=tok.eos_token_id, **kw)
    replies = []
    for row in out[:, enc["input_ids"].shape[1]:].tolist():
        cut = row.index(tok.eos_token_id) + 1 if tok.eos_token_id in row else len(row)
        replies.append(row[:cut])
    if free is not None:
        forced = grounded.forced if sources is not None else [set() for _ in replies]
        free += [[j not in f for j in range(len(r))] for r, f in zip(replies, forced,
                                                                      strict=True)]
    if allowed is not None:
        allowed += [{j: a for j, a in g.items() if j < len(r)} for r, g in zip(
            replies, grounded.limits if sources is not None else [{} for _ in replies],
            strict=True)]
    return replies


def play(model: Any, tok: Any, slots: Sequence[Slot], *, fmt: str = "androidworld",
         k: int = HISTORY, max_steps: int = 6, max_new_tokens: int = 64, temperature: float = 1.0,
         greedy: bool = False, grounded: bool = True, task_last: bool = False,
         anchored: bool = False) -> list[Episode]:
    """Play every slot's episode to its end, in lock-step (see the module docstring); with
    `anchored`, a note names its line and copies that line's words (`rl.policy.anchoring`)."""
    from rl.policy import anchoring

    with anchoring(anchored):
        return _play(model, tok, slots, fmt=fmt, k=k, max_steps=max_steps,
                     max_new_tokens=max_new_tokens, temperature=temperature, greedy=greedy,
                     grounded=grounded, task_last=task_last)


def _play(model: Any, tok: Any, slots: Sequence[Slot], *, fmt: str, k: int, max_steps: int,
          max_new_tokens: int, temperature: float, greedy: bool, grounded: bool,
          task_last: bool) -> list[Episode]:
    from phoneworld.runtime.actions import Action

    eps, views, hist, noted = [], [], [], []
    shown: list[Shown | None] = [None] * len(slots)  # where the step before scrolled
    apps = [[sp.label for sp in getattr(s.backend, "specs", ())] for s in slots]
    for s in slots:
        eps.append(Episode(str(s.task.id), s.source, s.group, ",".join(getattr(
            s.task, "apps", ()) or ()), str(getattr(s.task, "kind", ""))))
        views.append(s.backend.reset(None, s.task))
        hist.append([])
        noted.append([])
    live = list(range(len(slots)))
    for _ in range(max_steps):
        if not live:
            break
        prompts, sources, screens, lists = [], [], {}, {}
        for i in live:
            b = slots[i].backend
            screens[i], lists[i] = carry_places(views[i].elements, shown[i])
            msgs = messages(slots[i].task.instruction, screens[i], hist[i], fmt, k=k,
                            width=b.width, height=b.height, noted=noted[i],
                            task_last=task_last)
            prompts.append(prompt_ids(tok, msgs))
            if grounded:
                sources.append(seen_at(slots[i].task.instruction, screens[i],
                                       noted[i], apps[i], fmt))
        chosen: list[list[bool]] = []
        limits: list[dict[int, list[int]]] = []
        outs = generate(model, tok, prompts, max_new_tokens=max_new_tokens,
                        temperature=temperature, greedy=greedy,
                        sources=sources if grounded else None, free=chosen, allowed=limits)
        if len(chosen) != len(outs):  # not grounded: every token was chosen
            chosen = [[True] * len(o) for o in outs]
        if len(limits) != len(outs):
            limits = [{} for _ in outs]
        still = []
        for i, p, ids, ch, lim in zip(live, prompts, outs, chosen, limits, strict=True):
            b = slots[i].backend
            eps[i].steps.append((p, ids))
            eps[i].free.append(ch)
            eps[i].allowed.append(lim)
            text = tok.decode(ids, skip_special_tokens=True)
            noted[i] += [n for n in notes(text) if n not in noted[i]]
            a = read_action(text, fmt, b.width, b.height)
            hist[i].append(step_line(a, screens[i], text))
            shown[i] = lists[i] if a is not None and a["action_type"] == "scroll" else None
            over = False
            if a is not None:
                try:
                    views[i] = b.step(Action.parse(a))
                    eps[i].valid += 1
                    over = a["action_type"] in ("status", "answer")
                except Exception:  # the app rejected it: an invalid step
                    hist[i][-1] = step_line(None, (), text)
            if not over:
                still.append(i)
        live = still
    for i, s in enumerate(slots):
        try:
            ok, why = s.backend.check(s.task)
        except Exception as err:  # a checker that fails is a failed episode, not a crash
            ok, why = False, f"the checker failed: {err}"
        eps[i].reward, eps[i].reason = (1.0 if ok else 0.0), why
    return eps


# -- where groups run ------------------------------------------------------------------------

@dataclass
class Job:
    """Groups for one worker: the policy folder, the apps, and (task, group) pairs."""

    policy: str
    apps: list[str]
    groups: list[tuple[Any, int]]
    size: int
    seed: int
    settings: dict[str, Any]
    alone: bool = False  # play single-app tasks in their app alone, every other one


def run_job(job: Job) -> list[Episode]:
    """Play a job's mock groups (G episodes each) with the policy saved in `job.policy`."""
    import torch
    from transformers import set_seed

    from rl.data import load_specs, stage, target
    from rl.model import load_policy

    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "1") or 1))
    set_seed(job.seed)
    model, tok = load_policy(job.policy)
    model.eval()
    specs = load_specs(job.apps)
    slots = []
    for task, g in job.groups:
        apps, asked = stage(specs, task, job.alone)
        slots += [Slot(target(apps), asked, "mock", g) for _ in range(job.size)]
    return play(model, tok, slots, **job.settings)


def run_groups(jobs: list[Job], *, workers: int = 0, ray: str | None = None) -> list[Episode]:
    """Run mock jobs here (`workers=0`), in worker processes, or on a Ray cluster."""
    if ray is not None:
        return _on_ray(jobs, ray)
    if workers <= 0 or len(jobs) <= 1:
        return [e for j in jobs for e in run_job(j)]
    import multiprocessing as mp

    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as pool:
        return [e for eps in pool.map(run_job, jobs) for e in eps]


def split(groups: list[tuple[Any, int]], parts: int) -> list[list[tuple[Any, int]]]:
    """`groups` dealt round-robin into at most `parts` non-empty lists."""
    parts = max(1, min(parts, len(groups)))
    return [groups[i::parts] for i in range(parts) if groups[i::parts]]


def start_ray(address: str) -> Any:
    """Connect to Ray at `address`, or start a local cluster on loopback ('local')."""
    for k, v in (("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0"), ("RAY_AUTH_MODE", "disabled"),
                 ("RAY_USAGE_STATS_ENABLED", "0")):
        os.environ.setdefault(k, v)
    import ray

    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, object_store_memory=512 * 2**20,
                     _temp_dir="/tmp/pw-ray",
                     log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray


def _on_ray(jobs: list[Job], address: str) -> list[Episode]:
    ray = start_ray(address)
    remote = ray.remote(num_cpus=1)(run_job)
    # The policy folder must be readable by the workers: on a cluster, a shared disk.
    return [e for eps in ray.get([remote.remote(j) for j in jobs]) for e in eps]


def device_backends(serials: Sequence[str], tasks: Sequence[Any],
                    judge: Any = None) -> list[Any]:
    """A `DeviceBackend` per adb serial (connecting now, failing fast and clearly).

    Success is each task's screen predicate, or `judge(task, target)` when given (a
    vision-language model, a person: see `phoneworld.device.predicates.Judge`).
    """
    from phoneworld.device.adb import AdbDevice
    from phoneworld.env.backends.device import DeviceBackend

    return [DeviceBackend(AdbDevice.connect(s), tasks=tasks, judge=judge, owns_device=True)
            for s in serials]


def policy_dir(out: Path) -> Path:
    return Path(out) / "rollout_policy"
