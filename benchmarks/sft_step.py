"""CPU milliseconds per SFT step of a run's model on its real demos, with a per-op profile.

    python benchmarks/sft_step.py RUN [--steps 40] [--skip 10] [--profile 10] [--processes 2]

RUN is a `phoneworld train` folder holding `demos.json.gz` and `base` (make one with
`phoneworld train --mix 1 --seed 0 --sft-steps 0 --rl-steps 0 --eval-tasks 0 --out RUN`).
The steps are the trainer's own (`rl.sft.train_sft`: trl's collator, the reply and prompt
losses, clipping, AdamW, the schedule of a `--schedule`-step run), in one process of one
torch thread or spread over `--processes` (`rl.spread`, one thread each, the batch split
among them). Each step's CPU time is split by the trainer's callbacks:

- `data`: from one step's end to the next one's start (the batch fetched and collated,
  logging, trl's bookkeeping);
- `forward`: the model's forward (its hooks); `backward`: the rest up to the optimizer
  (the losses, backward, DDP's gradient averaging, clipping);
- `optim`: AdamW; `after`: the scheduler and zeroing the gradients.

`--kernels` instead times the choices a step could make, alone, on the default model's
shapes (a batch of 16 of 270 tokens, 4 query heads and 2 key/value heads of 16; the
vocabulary projection of 1,300 positions): attention kernels and layouts (torch's CPU
flash attention with grouped heads or with the key/value heads repeated, its math kernel,
batched products by hand, all heads of a group against their shared keys at once, flash
in bfloat16) and float32 against bfloat16 matrix products.

`wall` is each step's wall seconds, end to end. `--profile N` runs torch's profiler over N
more steps (of rank 0) and prints its table by self time (the profiler's times are wall
times: on a loaded machine, read its shares, not its milliseconds). Figures are CPU
seconds of each process (`time.process_time`): another process's load changes them less
than wall time, though not to nothing (caches, the other hyperthread): quote `uptime`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PARTS = ("data", "forward", "backward", "optim", "after")


class StepTimer(TrainerCallback):
    """Each step's CPU seconds per part (`PARTS`) and wall seconds, written to
    `dest/timing-RANK.json` when training ends (each process of a spread run its own)."""

    def __init__(self, dest: str) -> None:
        self.dest = dest
        self.rows: list[dict[str, float]] = []
        self.marks: dict[str, float] = {}
        self.ended: tuple[float, float] | None = None

    def on_train_begin(self, args: Any, state: Any, control: Any, model: Any = None,
                       **kw: Any) -> None:
        model.register_forward_pre_hook(lambda *a: self._mark("fwd0"))
        model.register_forward_hook(lambda *a: self._mark("fwd1"))

    def _mark(self, name: str) -> None:
        self.marks[name] = time.process_time()

    def on_step_begin(self, *a: Any, **kw: Any) -> None:
        self._mark("begin")

    def on_pre_optimizer_step(self, *a: Any, **kw: Any) -> None:
        self._mark("pre")

    def on_optimizer_step(self, *a: Any, **kw: Any) -> None:
        self._mark("opt")

    def on_step_end(self, *a: Any, **kw: Any) -> None:
        now, wall = time.process_time(), time.perf_counter()
        m = self.marks
        fwd = m["fwd1"] - m["fwd0"]
        self.rows.append({
            "data": m["begin"] - self.ended[0] if self.ended else float("nan"),
            "forward": fwd, "backward": m["pre"] - m["begin"] - fwd,
            "optim": m["opt"] - m["pre"], "after": now - m["opt"],
            "wall": wall - self.ended[1] if self.ended else float("nan")})
        self.ended = (now, wall)

    def on_train_end(self, *a: Any, **kw: Any) -> None:
        rank = os.environ.get("RANK", "0")
        Path(self.dest, f"timing-{rank}.json").write_text(json.dumps(self.rows))


class LossLog(TrainerCallback):
    """Appends each logged step's reply loss (full precision) to `path` as it comes, one
    `step loss` line each (rank 0 only), so a long run can be read before it ends."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def on_log(self, args: Any, state: Any, control: Any, logs: Any = None, **kw: Any) -> None:
        if logs and "loss" in logs and os.environ.get("RANK", "0") == "0":
            with open(self.path, "a") as f:
                f.write(f"{state.global_step} {logs.get('reply_loss', logs['loss'])!r}\n")


class Stop(TrainerCallback):
    """Stops training after `last` steps."""

    def __init__(self, last: int) -> None:
        self.last = last

    def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
        if state.global_step >= self.last:
            control.should_training_stop = True


class Profile(TrainerCallback):
    """Profiles steps `start` .. `start + steps - 1` of rank 0 and prints the table."""

    def __init__(self, start: int, steps: int, top: int) -> None:
        self.start, self.steps, self.top = start, steps, top
        self.prof: Any = None

    def on_step_begin(self, args: Any, state: Any, *a: Any, **kw: Any) -> None:
        if state.global_step == self.start and os.environ.get("RANK", "0") == "0":
            import torch

            self.prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU])
            self.prof.__enter__()

    def on_step_end(self, args: Any, state: Any, *a: Any, **kw: Any) -> None:
        if self.prof is not None and state.global_step == self.start + self.steps:
            self.prof.__exit__(None, None, None)
            table = self.prof.key_averages().table(sort_by="self_cpu_time_total",
                                                   row_limit=self.top, max_name_column_width=48)
            print(f"\nprofile of {self.steps} steps (self time):\n{table}", file=sys.__stdout__,
                  flush=True)
            self.prof = None


def summary(rows: list[dict[str, float]]) -> list[str]:
    """Lines of mean and median milliseconds per part, CPU then wall."""
    rows = [r for r in rows if r["data"] == r["data"]]  # the first step has no "before"
    total = [sum(r[p] for p in PARTS) for r in rows]
    lines = [f"CPU ms a step: mean {1000 * statistics.fmean(total):.1f}, "
             f"median {1000 * statistics.median(total):.1f}"]
    for part in (*PARTS, "wall"):
        ms = [1000 * r[part] for r in rows]
        lines.append(f"  {part:9s} mean {statistics.fmean(ms):6.1f}  "
                     f"median {statistics.median(ms):6.1f}")
    return lines


def _cpu_ms(fn: Any, n: int = 5) -> float:
    """Mean CPU milliseconds of `fn()` over `n` calls, after two."""
    for _ in range(2):
        fn()
    t = time.process_time()
    for _ in range(n):
        fn()
    return 1000 * (time.process_time() - t) / n


def kernels(batch: int = 16, length: int = 270) -> None:
    """Print CPU ms of attention forward+backward per layer and of matrix products."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    torch.manual_seed(0)
    b, h, kv, n, d = batch, 4, 2, length, 16
    q = torch.randn(b, h, n, d, requires_grad=True)
    k, v = (torch.randn(b, kv, n, d, requires_grad=True) for _ in range(2))
    grad = torch.randn(b, h, n, d)
    causal = torch.zeros(n, n).masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(),
                                           float("-inf"))

    def rep(x: Any) -> Any:
        return x[:, :, None].expand(b, kv, h // kv, n, d).reshape(b, h, n, d)

    def by_hand(x: Any, keys: Any, vals: Any, rows: int, mask: Any) -> Any:
        s = torch.baddbmm(mask.expand(keys.shape[0], rows, n), x,
                          keys.transpose(1, 2), alpha=d ** -0.5)
        return torch.bmm(s.softmax(-1), vals)

    def math() -> Any:
        with sdpa_kernel(SDPBackend.MATH):
            return F.scaled_dot_product_attention(q, rep(k), rep(v), is_causal=True)

    ways = {
        "flash, grouped heads (the default)": lambda: F.scaled_dot_product_attention(
            q, k, v, is_causal=True, enable_gqa=True),
        "flash, key/value heads repeated": lambda: F.scaled_dot_product_attention(
            q, rep(k), rep(v), is_causal=True),
        "math kernel": math,
        "batched products by hand": lambda: by_hand(
            q.reshape(b * h, n, d), rep(k).reshape(b * h, n, d), rep(v).reshape(b * h, n, d),
            n, causal).view(b, h, n, d),
        "by hand, a group's heads at once": lambda: by_hand(
            q.reshape(b * kv, (h // kv) * n, d), k.reshape(b * kv, n, d),
            v.reshape(b * kv, n, d), (h // kv) * n, causal.repeat(h // kv, 1)).view(b, h, n, d),
        "flash in bfloat16": lambda: F.scaled_dot_product_attention(
            q.bfloat16(), rep(k).bfloat16(), rep(v).bfloat16(), is_causal=True).float(),
    }
    print(f"attention of {b} x {n} tokens, {h} heads ({kv} key/value) of {d}, one layer:")
    for name, fn in ways.items():
        print(f"  {name:36s} forward {_cpu_ms(fn):6.1f}  forward+backward "
              f"{_cpu_ms(lambda fn=fn: fn().backward(grad)):6.1f} CPU ms")
    print("matrix products (CPU ms): float32, bfloat16, bfloat16 with the casts")
    for m, kk, nn in [(1300, 64, 4096), (b * n, 64, 128), (b * n, 128, 64), (b * n, 64, 64)]:
        print(f"  {m} x {kk} @ {kk} x {nn}:", *(f"{ms:6.2f}" for ms in _products(m, kk, nn)))


def _products(m: int, k: int, n: int) -> list[float]:
    """CPU ms of an (m, k) @ (k, n) product: float32, bfloat16, bfloat16 cast from and to
    float32."""
    import torch

    x, w = torch.randn(m, k), torch.randn(k, n)
    xb, wb = x.bfloat16(), w.bfloat16()
    return [_cpu_ms(lambda: x @ w, 20), _cpu_ms(lambda: xb @ wb, 20),
            _cpu_ms(lambda: (x.bfloat16() @ w.bfloat16()).float(), 20)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, nargs="?",
                    help="a run folder with demos.json.gz and base/")
    ap.add_argument("--kernels", action="store_true",
                    help="time attention kernels and matrix products alone instead")
    ap.add_argument("--steps", type=int, default=40, help="steps timed")
    ap.add_argument("--skip", type=int, default=10, help="steps run first, not timed")
    ap.add_argument("--profile", type=int, default=0, help="steps profiled after the timed")
    ap.add_argument("--top", type=int, default=30, help="rows of the profile's table")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--schedule", type=int, default=9000,
                    help="the run length whose learning-rate schedule the steps follow")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--losses", type=Path,
                    help="append each logged step's reply loss here as it is logged")
    ap.add_argument("--prompt-loss", type=float, default=0.5,
                    help="the prompt loss weight (TrainConfig.sft_prompt_loss's default)")
    ns = ap.parse_args()

    import torch

    torch.set_num_threads(1)
    if ns.kernels:
        kernels(ns.batch)
        return
    if ns.run is None:
        ap.error("a run folder is needed (or --kernels)")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from rl.sft import train_sft

    examples = json.loads(gzip.decompress((ns.run / "demos.json.gz").read_bytes()))["examples"]
    last = ns.skip + ns.steps + ns.profile
    with tempfile.TemporaryDirectory(prefix="sft-step-") as out:
        callbacks: list[Any] = [StepTimer(out), Stop(last)]
        if ns.losses:
            ns.losses.write_text("")
            callbacks.append(LossLog(ns.losses))
        if ns.profile:
            callbacks.insert(0, Profile(ns.skip + ns.steps, ns.profile, ns.top))
        t0, w0 = time.process_time(), time.perf_counter()
        _, losses = train_sft(ns.run / "base", examples, Path(out) / "run", steps=ns.schedule,
                              lr=3e-3, batch=ns.batch, seed=ns.seed, save_steps=10**9,
                              progress=False, callbacks=callbacks,
                              prompt_weight=ns.prompt_loss, processes=ns.processes,
                              threads=ns.processes)
        cpu, wall = time.process_time() - t0, time.perf_counter() - w0
        timings = {p.stem.split("-")[1]: json.loads(p.read_text())
                   for p in sorted(Path(out).glob("timing-*.json"))}
    print(f"{len(examples)} examples, batch {ns.batch} over {ns.processes} process(es) of "
          f"1 thread; steps {ns.skip + 1}-{ns.skip + ns.steps} of a {ns.schedule}-step run")
    for rank, rows in timings.items():
        print(f"rank {rank}:" if len(timings) > 1 else "", *summary(
            rows[ns.skip:ns.skip + ns.steps]), sep="\n")
    print(f"logged reply losses: {' '.join(f'{x:.6g}' for x in losses[:8])}"
          f"{' ...' if len(losses) > 8 else ''}")
    print(f"whole call: {cpu:.1f} CPU s of this process, {wall:.1f} s wall ({last} steps, "
          f"loading and tokenizing included)")


if __name__ == "__main__":
    main()
