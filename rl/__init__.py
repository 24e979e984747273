"""The trainer: SFT on verified demos, then online group-relative RL on mock apps and phones.

    phoneworld train --mix 1                      # tiny local model, example apps, CPU
    phoneworld train --mix 0.5 --device SERIAL --predicates device_tasks.json
    phoneworld eval --model runs/default --apps generated --json

Modules, one concept each: `config` (the `TrainConfig` dataclass and its flags), `policy`
(per-step prompts and the tolerant reading of a model's output), `ground` (decoding
grounded in what the agent saw), `model` (the tiny local model and tokenizer; loading a
local model folder), `data` (task instances, demos and recorded traces as chat examples),
`sft` (trl's `SFTTrainer`), `rollout` (episodes on mock apps and devices, in worker
processes or on Ray), `grpo` (advantages, the update, bookkeeping), `train` (SFT then RL,
with resume), `evaluate` (success rates), `report` (progress, tables and plots) and
`commands` (`phoneworld train`, `eval`).
Nothing here imports torch at import time; the functions that need it import it.

Scaling out:
- Rollouts: `--workers N` plays the mock groups in N spawned processes; `--ray` plays
  them as Ray tasks on a local cluster bound to 127.0.0.1, `--ray ADDRESS` on an existing
  cluster (the run folder must then be on a disk the workers share: they load the current
  policy from `OUT/rl/rollout_policy`). Device groups always run in the trainer's process.
- SFT on several GPUs: `accelerate launch --num_processes N -m rl.commands train
  --rl-steps 0 ...` (trl's trainer runs data-parallel); then RL with `--resume`. The RL
  update runs on one device (CUDA when there is one); its cost is dominated by rollouts,
  which scale out as above.
"""
