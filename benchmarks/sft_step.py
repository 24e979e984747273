"""CPU milliseconds per SFT step of a run's model on its real demos, with a per-op profile.

    python benchmarks/sft_step.py RUN [--steps 40] [--skip 10] [--profile 10] [--processes 2]
    python benchmarks/sft_step.py RUN --splits      # how evenly two ranks share the batches

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

Beside each part's CPU its wall; in a spread run, `gather` is the wall in the Trainer's
gather of every rank's reply-token count (in `data`) and `reduce` the wall from this
rank's last gradient bucket to its average (in `backward`): the waits for the other rank.
`balance` compares the ranks' padded tokens and compute step by step. `--splits` prices
the two ranks' halves of a whole schedule's batches, as split now and split to even them.

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
    """Each step's CPU and wall seconds per part (`PARTS`), the waits of a spread run's
    meetings and the tokens the rank's forward saw, written to `dest/timing-RANK.json`
    when training ends (each process of a spread run its own).

    A spread run's processes meet twice a step: the Trainer gathers every rank's count of
    reply tokens (`torch.distributed.all_gather`, before the step begins: in `data`), and
    DDP averages the gradients at the end of the backward (a comm hook of plain averaging,
    DDP's own, timed: `reduce` is the wall from the last bucket's launch, when this rank's
    backward is done, to its average being ready; the part of `backward` spent waiting
    for the other rank and the exchange itself). `gather` is the wall inside the gather."""

    def __init__(self, dest: str) -> None:
        self.dest = dest
        self.rows: list[dict[str, float]] = []
        self.marks: dict[str, tuple[float, float]] = {}
        self.ended: tuple[float, float] | None = None
        self.gather = 0.0
        self.reduce: list[tuple[float, float]] = []  # (launched, done) of each bucket
        self.shape = (0, 0, 0)  # rows, padded length, real tokens of the last forward
        self.pad: int | None = None
        self.hooked = False

    def on_train_begin(self, args: Any, state: Any, control: Any, model: Any = None,
                       processing_class: Any = None, **kw: Any) -> None:
        import torch.distributed as dist

        self.pad = getattr(processing_class, "pad_token_id", None)
        model.register_forward_pre_hook(self._inputs, with_kwargs=True)
        model.register_forward_hook(lambda *a: self._mark("fwd1"))
        gather = dist.all_gather

        def timed_gather(*a: Any, **k: Any) -> Any:
            t = time.perf_counter()
            try:
                return gather(*a, **k)
            finally:
                self.gather += time.perf_counter() - t

        dist.all_gather = timed_gather

    def _inputs(self, module: Any, args: Any, kwargs: dict[str, Any]) -> None:
        self._mark("fwd0")
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is not None:
            real = int((ids != self.pad).sum()) if self.pad is not None else ids.numel()
            self.shape = (ids.shape[0], ids.shape[1], real)

    def _hook_ddp(self) -> None:
        """Time DDP's gradient averaging: its default allreduce, as a comm hook."""
        import gc

        import torch.distributed as dist
        from torch.nn.parallel import DistributedDataParallel

        self.hooked = True
        ddp = [o for o in gc.get_objects() if isinstance(o, DistributedDataParallel)]
        if len(ddp) != 1:
            return

        def hook(state, bucket):  # type: ignore[no-untyped-def]  # DDP checks annotations
            slot = [time.perf_counter(), float("nan")]
            self.reduce.append(slot)  # type: ignore[arg-type]
            buf = bucket.buffer()
            fut = dist.all_reduce(buf.div_(dist.get_world_size()), async_op=True).get_future()

            def done(f):  # type: ignore[no-untyped-def]
                slot[1] = time.perf_counter()
                return f.value()[0]

            return fut.then(done)

        ddp[0].register_comm_hook(None, hook)

    def _mark(self, name: str) -> None:
        self.marks[name] = (time.process_time(), time.perf_counter())

    def on_step_begin(self, *a: Any, **kw: Any) -> None:
        if not self.hooked:
            self._hook_ddp()
        self._mark("begin")

    def on_pre_optimizer_step(self, *a: Any, **kw: Any) -> None:
        self._mark("pre")

    def on_optimizer_step(self, *a: Any, **kw: Any) -> None:
        self._mark("opt")

    def on_step_end(self, *a: Any, **kw: Any) -> None:
        now = (time.process_time(), time.perf_counter())
        m = self.marks
        nan = float("nan")
        row: dict[str, float] = {}
        for i, unit in ((0, ""), (1, "wall_")):
            fwd = m["fwd1"][i] - m["fwd0"][i]
            row |= {
                f"{unit}data": m["begin"][i] - self.ended[i] if self.ended else nan,
                f"{unit}forward": fwd, f"{unit}backward": m["pre"][i] - m["begin"][i] - fwd,
                f"{unit}optim": m["opt"][i] - m["pre"][i], f"{unit}after": now[i] - m["opt"][i]}
        row["wall"] = now[1] - self.ended[1] if self.ended else nan
        row["gather"] = self.gather
        last = self.reduce[-1] if self.reduce else (nan, nan)
        row["reduce"] = last[1] - last[0]
        row["buckets"] = len(self.reduce)
        row["rows"], row["length"], row["tokens"] = self.shape
        row["end"] = now[1]
        self.rows.append(row)
        self.gather, self.reduce = 0.0, []
        self.ended = now

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
    """Lines of mean and median milliseconds per part, CPU then wall, and the meetings."""
    rows = [r for r in rows if r["data"] == r["data"]]  # the first step has no "before"
    total = [sum(r[p] for p in PARTS) for r in rows]
    lines = [f"CPU ms a step: mean {1000 * statistics.fmean(total):.1f}, "
             f"median {1000 * statistics.median(total):.1f}",
             "            CPU mean median   wall mean median"]
    for part in PARTS:
        cpu, wall = ([1000 * r[f"{u}{part}"] for r in rows] for u in ("", "wall_"))
        lines.append(f"  {part:9s} {statistics.fmean(cpu):6.1f} {statistics.median(cpu):6.1f}"
                     f"      {statistics.fmean(wall):6.1f} {statistics.median(wall):6.1f}")
    for part in ("gather", "reduce", "wall"):
        ms = [1000 * r[part] for r in rows if r[part] == r[part]]
        if ms:
            lines.append(f"  {part:9s} {'':13s}      {statistics.fmean(ms):6.1f} "
                         f"{statistics.median(ms):6.1f}")
    lines.append(f"  batch: {statistics.fmean(r['rows'] for r in rows):.1f} rows of "
                 f"{statistics.fmean(r['length'] for r in rows):.1f} tokens padded, "
                 f"{statistics.fmean(r['tokens'] for r in rows):.0f} real")
    return lines


def balance(ranks: list[list[dict[str, float]]]) -> list[str]:
    """How evenly a spread run's steps share the work: the padded tokens (rows x length)
    and the compute CPU (forward + backward + optimizer) of each rank, step by step."""
    steps = [s for s in zip(*ranks, strict=False) if all(r["data"] == r["data"] for r in s)]
    if len(ranks) < 2 or not steps:
        return []
    padded = [[r["rows"] * r["length"] for r in s] for s in steps]
    work = [[1000 * (r["forward"] + r["backward"] + r["optim"]) for r in s] for s in steps]
    spread = [(max(p) - min(p)) / statistics.fmean(p) for p in padded]
    gap = [max(w) - min(w) for w in work]
    first = [p[0] > max(p[1:]) for p in padded]
    return [f"balance over {len(steps)} steps: padded tokens a rank "
            + " / ".join(f"{statistics.fmean(p[i] for p in padded):.0f}"
                         for i in range(len(ranks)))
            + f"; their spread (max - min) / mean {100 * statistics.fmean(spread):.1f}% mean, "
              f"{100 * max(spread):.1f}% max; rank 0 the most in {sum(first)} steps",
            "  compute CPU ms (forward+backward+optim) a rank: "
            + " / ".join(f"{statistics.fmean(w[i] for w in work):.1f}"
                         for i in range(len(ranks)))
            + f"; the slower minus the faster, mean {statistics.fmean(gap):.1f}, "
              f"median {statistics.median(gap):.1f}"]


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


def splits(run: Path, steps: int, batch: int, seed: int, attention: float = 0.001) -> None:
    """Print what each of two ranks costs a step when the trainer's batches are split as
    now (the length-grouped sampler's batches of `batch` // 2 dealt to the ranks in turn:
    rank 0 the longer half of each length-sorted `batch`) and when the same `batch`
    examples are split at the row that evens the two costs best. A rank's cost is its
    padded tokens with attention's quadratic share, rows x L x (1 + `attention` L), L its
    longest row (as transformers' `BatchRebalanceSampler` prices a batch)."""
    from transformers.trainer_pt_utils import get_length_grouped_indices

    from rl.model import load_policy

    examples = json.loads(gzip.decompress((run / "demos.json.gz").read_bytes()))["examples"]
    tok = load_policy(run / "base")[1]
    lengths = [min(768, len(tok.apply_chat_template(e["messages"], tokenize=True,
                                                  return_dict=True)["input_ids"]))
               for e in examples]

    def cost(rows: list[int]) -> float:
        return len(rows) * max(rows) * (1 + attention * max(rows)) if rows else 0.0

    import torch

    half = batch // 2
    gen = torch.Generator().manual_seed(seed)
    order: list[int] = []
    while len(order) < batch * steps:
        order += get_length_grouped_indices(lengths, half, generator=gen)
    now, even, whole = [], [], []
    for s in range(steps):
        rows = sorted((lengths[i] for i in order[batch * s:batch * (s + 1)]), reverse=True)
        now.append((cost(rows[:half]), cost(rows[half:])))
        even.append(min(((cost(rows[:k]), cost(rows[k:])) for k in range(1, batch)), key=max))
        whole.append(cost(rows))
    mean = statistics.fmean
    print(f"{len(examples)} examples, {steps} steps of {batch}: token lengths mean "
          f"{mean(lengths):.1f}, {min(lengths)}-{max(lengths)}")
    for name, pairs in (("as now (rank 0 the longer half)", now),
                        ("the same rows, split to even the costs", even)):
        print(f"  {name:40s} slower rank {mean(max(p) for p in pairs):7.0f}, "
              f"faster {mean(min(p) for p in pairs):7.0f}, their mean "
              f"{mean(sum(p) / 2 for p in pairs):7.0f}")
    print(f"  {'one process, the whole batch, / 2':40s} {mean(whole) / 2:7.0f}")


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
    ap.add_argument("--examples", type=int, default=0,
                    help="train on this many of the demos (a seeded draw; 0: all), to start "
                         "sooner: the tokenizing of all of them takes 13 s quiet")
    ap.add_argument("--splits", action="store_true",
                    help="instead, price the ranks' halves of --schedule steps' batches as "
                         "split now and split to even their costs (no training)")
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
    if ns.splits:
        splits(ns.run, ns.schedule, ns.batch, ns.seed)
        return
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from rl.sft import train_sft

    examples = json.loads(gzip.decompress((ns.run / "demos.json.gz").read_bytes()))["examples"]
    if 0 < ns.examples < len(examples):
        import random

        examples = random.Random(ns.seed).sample(examples, ns.examples)
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
    timed = {rank: rows[ns.skip:ns.skip + ns.steps] for rank, rows in timings.items()}
    for rank, rows in timed.items():
        print(f"rank {rank}:" if len(timings) > 1 else "", *summary(rows), sep="\n")
    print(*balance(list(timed.values())), sep="\n")
    print(f"logged reply losses: {' '.join(f'{x:.6g}' for x in losses[:8])}"
          f"{' ...' if len(losses) > 8 else ''}")
    print(f"whole call: {cpu:.1f} CPU s of this process, {wall:.1f} s wall ({last} steps, "
          f"loading and tokenizing included)")


if __name__ == "__main__":
    main()
