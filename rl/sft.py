"""Supervised fine-tuning with trl's `SFTTrainer` on chat examples (assistant-only loss).

    final, losses = train_sft("runs/x/base", examples, "runs/x/sft", steps=600)

The examples are `{"messages": [...]}` rows (`rl.data`). Checkpoints go to
`out/checkpoint-N` every `save_steps`; with `resume=True` training continues from the
latest one, with its optimizer, scheduler, data order and RNG state, so no step is lost
or repeated. The final model and tokenizer are saved in `out/final`.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rl.ground import token_pieces
from rl.model import load_policy
from rl.pieces import IGNORED


def sft_args(out: Path, steps: int, *, lr: float = 2e-3, batch: int = 16,
             max_length: int = 768, seed: int = 0, save_steps: int = 100,
             progress: bool = True, weight_decay: float = 0.0, all_used: bool = False,
             tokenize_procs: int = 1) -> Any:
    """An `SFTConfig` with the settings that work on a CPU (and on GPUs, with accelerate).

    The learning rate warms up over the first 5% of the steps, then follows a cosine. In
    `benchmarks/learn.py` with 7,000 steps at 3e-3, three seeds of the tiny model scored
    60%, 40% and 17% of held-out instances with 10 steps of warmup, and 42%, 38% and 37%
    with 5%: the same mean (39%), far less spread.

    `tokenize_procs` > 1 tokenizes the examples in that many forked processes (datasets'
    `num_proc`: the same rows in the same order)."""
    import torch
    from trl import SFTConfig

    cpu = not torch.cuda.is_available()
    bf16 = not cpu and torch.cuda.is_bf16_supported()  # GPUs: half the memory, same recipe
    return SFTConfig(
        output_dir=str(out), max_steps=steps, per_device_train_batch_size=batch,
        learning_rate=lr, lr_scheduler_type="cosine", warmup_steps=steps // 20,
        assistant_only_loss=True, max_length=max_length, bf16=bf16, fp16=False,
        activation_checkpointing=False, use_cpu=cpu, report_to="none", seed=seed,
        data_seed=seed, save_strategy="steps", save_steps=max(1, save_steps),
        save_total_limit=1, logging_steps=max(1, min(10, steps // 10)),
        disable_tqdm=not progress, dataloader_num_workers=0, weight_decay=weight_decay,
        # Batches of like lengths: about 30% less padding on the apps' prompts.
        train_sampling_strategy="group_by_length",
        # Processes of a spread run (`rl.spread`) of a model all of whose parameters take
        # part in every loss (`all_used`: the tiny models) and whose only buffers (the
        # rotary frequencies) never change: DDP need not walk the autograd graph each
        # step for unused parameters (it warned so), nor broadcast the buffers before
        # each forward (one meeting of the processes a step fewer). The same gradients,
        # bit for bit; other models keep transformers' defaults.
        ddp_find_unused_parameters=False if all_used else None,
        ddp_broadcast_buffers=False if all_used else None,
        dataset_num_proc=tokenize_procs if tokenize_procs > 1 else None,
    )


def _all_used(model: Any) -> bool:
    """Whether every parameter of `model` takes part in each SFT loss and its buffers
    never change: a dense Qwen3 causal LM (the tiny models built here), whose only
    buffers are its rotary frequencies."""
    return type(model).__name__ == "Qwen3ForCausalLM"


def reply_loss_trainer(base: type, prompt_weight: float = 0.0,
                       task_line: TaskLine | None = None) -> type:
    """trl's `SFTTrainer` whose loss projects only the reply positions onto the vocabulary.

    trl's own loss goes through its fused, tiled LM-head kernel, which on a CPU takes
    about 40% of a step for the few reply tokens it scores; this does the same sum of
    negative log-likelihoods over the unmasked next tokens with one plain projection (and
    logs the same token accuracy, of the logged steps' batches). Models it cannot see
    through (wrapped for several processes, or with scaled or capped logits) keep trl's
    loss.

    `prompt_weight` > 0 adds that weight times the mean next-token loss of a random
    `PROMPT_SHARE` of the prompt's positions (the screen, the steps), fading linearly to
    nothing by the last step: a model built from scratch then also learns the screens'
    words and the steps' forms from ten times as many tokens, and ends fitting the replies
    alone. The task line (`task_line`) is left out: nothing above it tells which task
    was drawn, so predicting it taught guessing (its loss stayed the largest share of the
    prompt's), and without it the replies fitted twice as fast and held-out success rose
    on two bases (benchmarks/LEARN.md, 2026-12-06 afternoon).
    """

    class ReplyLossSFT(base):  # type: ignore[misc, valid-type]
        def compute_loss(self, model: Any, inputs: dict[str, Any], return_outputs: bool = False,
                         num_items_in_batch: Any = None) -> Any:
            plain = self.accelerator.unwrap_model(model)
            if return_outputs or not _plain(plain, model):
                return super().compute_loss(model, inputs, return_outputs, num_items_in_batch)
            import torch
            import torch.nn.functional as F

            labels = inputs["labels"][:, 1:]
            keep = labels != IGNORED
            # through the model's own forward (DDP syncs gradients only from there), its
            # vocabulary projection cut to one position: the last hidden state is the one
            # kept before the projection
            hidden = model(input_ids=inputs["input_ids"],
                           attention_mask=_needed_mask(inputs.get("attention_mask")),
                           use_cache=False, logits_to_keep=1,
                           output_hidden_states=True).hidden_states[-1][:, :-1]
            head = plain.get_output_embeddings()
            logits = head(hidden[keep]).float()
            target = labels[keep]
            total = F.cross_entropy(logits, target, reduction="sum")
            count = num_items_in_batch if num_items_in_batch is not None else keep.sum()
            loss = total / torch.as_tensor(count).clamp(min=1)
            if num_items_in_batch is not None and self.args.average_tokens_across_devices:
                # `count` is every rank's tokens and DDP averages the ranks' gradients:
                # scaled back, the step is the one a single process of the whole batch takes
                loss = loss * self.accelerator.num_processes
            mode = "train" if model.training else "eval"
            logged = mode == "eval" or (self.state.global_step + 1) % self.args.logging_steps == 0
            if prompt_weight > 0 and model.training:
                aside = _prompt_loss(head, hidden, inputs, labels, task_line)
                if logged:
                    self._metrics["train"]["reply_loss"].append(loss.item())
                    self._metrics["train"]["prompt_loss"].append(aside.item())
                fade = 1 - self.state.global_step / max(1, self.state.max_steps)
                loss = loss + prompt_weight * fade * aside
            if logged:
                # on the steps that are logged only: the argmax over the vocabulary took
                # 7 ms of a 150 ms step
                with torch.no_grad():
                    right = (logits.argmax(-1) == target).sum() / keep.sum().clamp(min=1)
                self._metrics[mode]["mean_token_accuracy"].append(right.item())
            return loss

    return ReplyLossSFT


PROMPT_SHARE = 0.25
"""The share of prompt positions the prompt loss scores (all of them cost about as much as
the rest of a micro model's step)."""


@dataclass(frozen=True, eq=False)
class TaskLine:
    """How a tokenizer writes the prompt's task line: the id of the token that opens it
    (`Task` of "\nTask: …", `rl.policy.messages`) and, per token id, whether its text
    holds a line break (where the line ends; a bool tensor, built once for every step)."""

    opens: int
    breaks: Any


def task_line(tok: Any) -> TaskLine | None:
    """`tok`'s `TaskLine`; None where no token of "\nTask: x" starts with "Task"."""
    import torch

    pieces = token_pieces(tok)[0]
    ids = tok("\nTask: x", add_special_tokens=False)["input_ids"]
    opens = next((i for i in ids if pieces[i].strip().startswith("Task")), None)
    if opens is None:
        return None
    return TaskLine(opens, torch.tensor(["\n" in p for p in pieces]))


def _prompt_loss(head: Any, hidden: Any, inputs: dict[str, Any], labels: Any,
                 line: TaskLine | None = None) -> Any:
    """Mean next-token loss on a random `PROMPT_SHARE` of the positions `_prompt_at`."""
    import torch
    import torch.nn.functional as F

    take = _prompt_at(inputs, labels, line)
    take &= torch.rand(take.shape, device=take.device) < PROMPT_SHARE
    if not bool(take.any()):
        return hidden.sum() * 0.0
    logits = head(hidden[take]).float()
    return F.cross_entropy(logits, inputs["input_ids"][:, 1:][take])


def _prompt_at(inputs: dict[str, Any], labels: Any, line: TaskLine | None = None) -> Any:
    """Where the prompt loss may score a next token: each row's real positions before its
    reply, the task line left out (from the last `line.opens` token that starts a line
    before the reply, to the next line break)."""
    import torch

    reply = labels != IGNORED
    pos = torch.arange(labels.shape[1], device=labels.device)[None]
    start = reply.int().argmax(dim=1, keepdim=True)
    before = pos < start  # the tokens before each row's reply
    take = before & ~reply
    real = inputs.get("attention_mask")
    if real is not None:
        take &= real[:, 1:].bool()
    if line is None:
        return take
    ids = inputs["input_ids"][:, :labels.shape[1]]
    breaks = line.breaks.to(ids.device)[ids.clamp(max=len(line.breaks) - 1)]
    opens = (ids == line.opens) & before  # at a line's start: not a word of the task
    if not bool(line.breaks[line.opens]):
        opens[:, 1:] &= breaks[:, :-1]
        opens[:, 0] = False
    task = torch.where(opens, pos, torch.full_like(ids, -1)).max(dim=1, keepdim=True).values
    after = breaks & (pos > task)
    end = torch.where(after, pos.expand_as(after), start.expand_as(after)).min(
        dim=1, keepdim=True).values
    return take & ((pos < task) | (pos >= end) | (task < 0))


def _needed_mask(mask: Any) -> Any:
    """`mask`, or None where it changes nothing: padding only after each row's tokens.

    A causal model's token never looks at a later position, so padding on the right is
    invisible to every real token and its positions carry no loss; without the mask,
    attention takes its causal path instead of a built (batch, 1, L, L) mask: the same
    loss and gradients (to float rounding), about 14% less CPU per step of the micro
    model (165 -> 143 ms for a forward and backward of 16, 1 thread)."""
    if mask is None or bool((mask[:, 1:] <= mask[:, :-1]).all()):
        return None
    return mask


def _plain(unwrapped: Any, model: Any) -> bool:
    """Whether the reply-only loss applies: a model, alone or in DDP's wrapper
    (`rl.spread`), whose logits are just the output embedding of its last hidden state."""
    cfg = unwrapped.config.get_text_config()
    scaled = any(getattr(cfg, k, None) not in (None, 1.0) for k in (
        "final_logit_softcapping", "logit_scale", "output_multiplier", "lm_head_multiplier",
        "logits_scaling"))
    alone = unwrapped is model or _ddp(model) and model.module is unwrapped
    return alone and not scaled and unwrapped.get_output_embeddings() is not None


def _ddp(model: Any) -> bool:
    from torch.nn.parallel import DistributedDataParallel

    return isinstance(model, DistributedDataParallel)


def latest_checkpoint(out: Path) -> Path | None:
    """The newest `checkpoint-N` folder in `out`, if any."""
    found = sorted(Path(out).glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[-1]))
    return found[-1] if found else None


def train_sft(model_dir: str | Path, examples: Sequence[dict[str, Any]], out: str | Path, *,
              steps: int, lr: float = 2e-3, batch: int = 16, max_length: int = 768,
              seed: int = 0, save_steps: int = 100, resume: bool = False,
              progress: bool = True, callbacks: list[Any] | None = None,
              weight_decay: float = 0.0, prompt_weight: float = 0.0,
              cut_tokens: float = 0.0, processes: int = 1,
              threads: int = 1) -> tuple[Path, list[float]]:
    """Fine-tune the model in `model_dir` on `examples`; (final folder, logged reply losses).

    `cut_tokens` of the tokenized examples' tokens are cut into their BPE pieces
    (`rl.pieces`, seeded with `seed`).

    `processes` > 1 splits each batch of `batch` among that many processes (`rl.spread`),
    `threads` torch threads shared among them; `batch` must divide evenly. The caller's
    script must guard its start with `if __name__ == "__main__":` (the processes are
    spawned). The examples are tokenized in as many processes as the run takes cores
    (`threads` or `processes`, the more; `tokenize_procs`).

    `callbacks` are `transformers.TrainerCallback`s (a test stops a run midway with one).
    """
    final = Path(out) / "final"
    if resume and (final / "config.json").is_file():
        return final, []
    if not examples:
        raise ValueError("no SFT examples: no verified demos and no traces with instructions")
    kw = {"model_dir": model_dir, "examples": examples, "out": out, "steps": steps, "lr": lr,
          "batch": batch, "max_length": max_length, "seed": seed, "save_steps": save_steps,
          "resume": resume, "progress": progress, "callbacks": callbacks,
          "weight_decay": weight_decay, "prompt_weight": prompt_weight,
          "cut_tokens": cut_tokens}
    from rl.spread import ranks, spread

    processes = ranks(processes)
    kw["cores"] = max(1, threads, processes)  # the cores the run takes, to tokenize on
    if processes == 1:
        return _train_sft(**kw)
    if batch % processes:
        raise ValueError(f"an SFT batch of {batch} does not split among {processes} processes")
    import shutil

    from datasets import Dataset

    # on disk, the examples' tokenized form is cached beside them: trl tokenizes them
    # in rank 0 first, and the other ranks read its cache
    kept = Path(out) / "examples.arrow"
    shutil.rmtree(kept, ignore_errors=True)
    Dataset.from_list(list(examples)).save_to_disk(str(kept))
    try:
        return spread(_train_sft, processes,
                      {**kw, "examples": kept, "batch": batch // processes},
                      threads=max(1, threads // processes))
    finally:
        shutil.rmtree(kept, ignore_errors=True)


TOKENIZE_SPLIT = 2000
"""Examples from which tokenizing is split among processes: each forked pass costs a few
tenths of a second, the chat template about 0.9 ms a row (14,422 rows: 13 s alone)."""


def tokenize_procs(rows: int, cores: int) -> int:
    """Processes to tokenize `rows` examples on `cores` cores: 1 for few rows."""
    return max(1, cores) if rows >= TOKENIZE_SPLIT else 1


def _train_sft(model_dir: str | Path, examples: Sequence[dict[str, Any]] | Path,
               out: str | Path, *,
               steps: int, lr: float, batch: int, max_length: int, seed: int,
               save_steps: int, resume: bool, progress: bool, callbacks: list[Any] | None,
               weight_decay: float, prompt_weight: float, cut_tokens: float, cores: int = 1
               ) -> tuple[Path, list[float]]:
    """`train_sft` in this process (one rank of several where `rl.spread` started it;
    `examples` then is the folder of a saved dataset). The examples are tokenized on
    `cores` cores (`tokenize_procs`): in a spread run rank 0 tokenizes while the others
    wait for it, then read its cache."""
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    from datasets import Dataset, load_from_disk
    from transformers import set_seed
    from trl import SFTTrainer

    out = Path(out)
    final = out / "final"
    set_seed(seed)
    model, tok = load_policy(model_dir)
    tok.padding_side = "right"  # training pads on the right; generation on the left
    rows = load_from_disk(str(examples)) if isinstance(examples, Path) else Dataset.from_list(
        list(examples))
    args = sft_args(out, steps, lr=lr, batch=batch, max_length=max_length, seed=seed,
                    save_steps=save_steps, progress=progress, weight_decay=weight_decay,
                    all_used=_all_used(model), tokenize_procs=tokenize_procs(len(rows), cores))
    trainer = reply_loss_trainer(SFTTrainer, prompt_weight, task_line(tok))(
        model=model, args=args, train_dataset=rows, processing_class=tok, callbacks=callbacks)
    if cut_tokens > 0:
        from rl.pieces import cut_dataset

        trainer.train_dataset = cut_dataset(trainer.train_dataset, tok, cut_tokens, seed,
                                            max_length)
    ckpt = latest_checkpoint(out) if resume else None
    with contextlib.redirect_stdout(sys.stderr):  # trl's loss lines are progress: stdout
        trainer.train(resume_from_checkpoint=str(ckpt) if ckpt else None)  # holds results
    if trainer.state.global_step < steps:  # stopped early: no final model
        return out, _reply_losses(trainer.state.log_history)
    tok.padding_side = "left"
    trainer.save_model(str(final))  # every rank: rank 0 writes
    if trainer.is_world_process_zero():
        tok.save_pretrained(str(final))
    return final, _reply_losses(trainer.state.log_history)


def _reply_losses(history: list[dict[str, Any]]) -> list[float]:
    """The logged losses of the reply (with a prompt loss, the reply's part of the logged
    step: the sum would not compare with a run without one)."""
    return [float(r.get("reply_loss", r["loss"])) for r in history if "loss" in r]
