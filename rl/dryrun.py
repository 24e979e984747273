"""`phoneworld train --dry-run`: check a run's configuration without training, on any machine.

    accelerate launch --num_processes 8 -m rl.commands train --model /models/Qwen2.5-1.5B-
        Instruct --sft-lr 1e-5 --rl-lr 1e-6 --sft-batch 4 --dry-run     # on the GPU box
    python -m rl.commands train --model /models/Qwen2.5-1.5B-Instruct ... --dry-run
                                                                         # the same, on CPU

What the GPU recipe needs, checked before any GPU hour is spent: the model folder holds
a config and a tokenizer (no hub: nothing is downloaded), its chat template renders the
policy's prompts and can mark the reply for trl's assistant-only loss (a template without
`{% generation %}` marks is one trl must know), a few real demo steps fit `--max-length`,
the SFT and RL settings make a valid `SFTConfig` for the processes `accelerate launch`
starts, and the weights with AdamW fit the memory of a GPU. The model is built on torch's
meta device, so a 7B model is checked in seconds without its memory. Prints a JSON plan;
a problem is a `TrainError` naming the flag or file to fix.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rl.config import TrainConfig

BYTES_PER_PARAM = 16  # full fine-tuning with AdamW: bf16 weights and grads, fp32 master + 2


def dry_run(cfg: TrainConfig, examples: int = 4) -> dict[str, Any]:
    """The plan of `cfg`'s run (see the module docstring), or a `TrainError`."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    from rl import data
    from rl.model import load_tokenizer
    from rl.sft import sft_args
    from rl.train import TrainError, sft_ranks

    plan: dict[str, Any] = {"model": cfg.model or f"built here: tiny {cfg.tiny_size}"}
    specs = data.load_specs(cfg.apps)
    tasks, held = data.split(specs, min(cfg.tasks, examples), cfg.eval_tasks, cfg.seed,
                             cfg.kinds)
    demos = data.demo_examples(specs, tasks, cfg.format, cfg.history, cfg.reason,
                               alone=cfg.alone, task_last=cfg.task_last,
                               anchored=cfg.anchored)
    if not demos:
        raise TrainError("no verified demo among the first task instances: check --apps")
    if cfg.model is not None:
        folder = Path(cfg.model)
        try:
            config = AutoConfig.from_pretrained(folder, local_files_only=True)
            tok = load_tokenizer(folder)
        except (OSError, ValueError) as err:
            raise TrainError(f"--model {folder}: not a local model folder with a config "
                             f"and a tokenizer ({err})") from err
        with torch.device("meta"):  # the shapes, not the memory
            model = AutoModelForCausalLM.from_config(config)
        params = sum(p.numel() for p in model.parameters())
        lengths = [_tokens(tok, ex, cfg.model) for ex in demos]
        plan.update(params=params, memory_gb=round(params * BYTES_PER_PARAM / 2**30, 2),
                    chat_template="own" if tok.chat_template else "none")
        if max(lengths) > cfg.max_length:
            raise TrainError(f"--max-length {cfg.max_length}: demo steps of the apps take "
                             f"up to {max(lengths)} tokens with this tokenizer; raise it")
        plan["tokens_per_step"] = {"max": max(lengths), "mean": round(sum(lengths) /
                                                                        len(lengths))}
    args = sft_args(Path(cfg.out) / "sft", max(1, cfg.sft_steps), lr=cfg.sft_lr,
                    batch=cfg.sft_batch, max_length=cfg.max_length, seed=cfg.seed,
                    progress=False, weight_decay=cfg.sft_weight_decay)
    world = int(os.environ.get("WORLD_SIZE", "1"))  # set by `accelerate launch`
    gpus = torch.cuda.device_count()
    spread = sft_ranks(cfg)  # processes of this run's own (rl.spread)
    plan.update(
        processes=world * spread, gpus=gpus, bf16=args.bf16,
        sft={"steps": cfg.sft_steps, "lr": cfg.sft_lr,
             "batch_per_process": cfg.sft_batch // spread,
             "examples_per_step": cfg.sft_batch * world * args.gradient_accumulation_steps,
             "warmup_steps": args.warmup_steps, "max_length": cfg.max_length,
             "cut_tokens": cfg.cut_tokens},
        rl={"iterations": cfg.rl_steps, "lr": cfg.rl_lr, "groups": cfg.groups,
            "group": cfg.group, "mix": cfg.mix, "devices": cfg.device,
            "update_on": "cuda" if gpus else "cpu"},
        held_out=len(held), demo_steps_checked=len(demos))
    if gpus and "memory_gb" in plan:
        free = min(torch.cuda.get_device_properties(i).total_memory for i in range(gpus))
        if plan["memory_gb"] * 2**30 > free:
            raise TrainError(f"--model {cfg.model}: full fine-tuning needs about "
                             f"{plan['memory_gb']} GB per GPU, more than the "
                             f"{free / 2**30:.0f} GB there; pick a smaller model")
    if cfg.model is not None and cfg.sft_lr > 1e-4:
        plan["warning"] = (f"--sft-lr {cfg.sft_lr} is the tiny model's; a pretrained model "
                           f"wants about 1e-5 (and --rl-lr about 1e-6)")
    return plan


def _tokens(tok: Any, example: dict[str, Any], model: str) -> int:
    """Tokens of one chat example, checking that the template can mark the reply."""
    from rl.train import TrainError

    try:
        out = tok.apply_chat_template(example["messages"], tokenize=True, return_dict=True,
                                      return_assistant_tokens_mask=True)
    except Exception as err:  # a template that cannot render the policy's messages
        raise TrainError(f"--model {model}: its chat template cannot render a demo step "
                         f"({err})") from err
    if not any(out.get("assistant_masks") or []):
        from trl.chat_template_utils import get_training_chat_template

        try:  # trl swaps in a training template for the families it knows
            get_training_chat_template(tok)
        except Exception as err:
            raise TrainError(f"--model {model}: its chat template marks no reply for "
                             f"assistant-only loss and trl knows no training template "
                             f"for it ({err}); add {{% generation %}} marks around the "
                             f"assistant's content") from err
    return len(out["input_ids"])
