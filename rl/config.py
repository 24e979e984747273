"""`TrainConfig`: every knob of `phoneworld train`, with its help text, in one dataclass.

The command line is made from the fields (`add_arguments`), so a flag and its field never
drift apart; `TrainConfig.from_args(namespace)` reads them back.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any


def _f(default: Any, help: str, **kw: Any) -> Any:
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata={"help": help, **kw})
    return field(default=default, metadata={"help": help, **kw})


RUN_TASKS = "tasks.json"
"""A run's record of its task instances: `{"train": [ids], "held_out": [ids]}`."""
RUN_RESULT = "result.json"
"""What a finished run reports (its last file: a run folder without it did not finish)."""


@dataclass
class TrainConfig:
    """What `phoneworld train` does; the defaults run end to end on a CPU in minutes."""

    apps: list[str] = _f(["generated"], "generated app folders (or a folder of them)",
                         nargs="+")
    model: str | None = _f(None, "a local Hugging Face causal LM folder; default: build a "
                                 "tiny model and tokenizer from the apps' own text")
    out: str = _f("runs/default", "run folder: checkpoints, logs, the final model")
    resume: bool = _f(False, "continue the run in --out where it stopped")
    seed: int = _f(0, "seed for task sampling, the model and the rollouts")
    format: str = _f("androidworld", "action format the policy speaks",
                     choices=["androidworld", "phonebuddy"])
    history: int = _f(6, "how many previous steps a step's prompt lists")
    reason: bool = _f(True, "train the policy to write a one-line reason naming its target "
                            "before each action (M3A's `Reason: ... Action: ...`)")
    max_steps: int = _f(10, "steps before an episode is cut off")
    task_last: bool = _f(True, "end each step's prompt with the task line, next to the "
                               "reply, instead of opening it with it (seed 1: held-out "
                               "30.0% -> 47.5% after SFT, Shopping 24% -> 38%, same CPU; "
                               "`phoneworld eval` reads it from the run)")
    anchored: bool = _f(False, "a note names the line it read the value on (`Note: \"BBQ "
                               "Potato Chips\" [9] \"8 oz\"`) and copies only that line's "
                               "words (rl.policy.anchor; seed 0: held-out 67.5% -> 50.0% "
                               "after SFT, so off); `phoneworld eval` reads it from the run")
    # SFT
    tasks: int = _f(2400, "training task instances (SFT demos; RL draws from them too)")
    kinds: list[str] = _f([], "task kinds to train on (default: all)", nargs="*")
    alone: bool = _f(True, "on several apps, play every other single-app task in its app "
                           "alone (as `eval --apps generated/APP` asks it), not on the phone")
    traces: list[str] = _f([], "recorded trace folders whose instructions add SFT examples",
                           nargs="*")
    rename: float = _f(0.0, "share of SFT examples whose names and values are renamed, "
                            "consistently and anew every epoch (rl.augment): memorising a "
                            "name no longer pays, copying it from the screen does; paired "
                            "on seeds 1 and 2 at 0.5, Shopping after SFT 58 -> 32% and "
                            "56 -> 10%, so off (0: off)")
    cut_tokens: float = _f(0.0, "share of the SFT examples' tokens cut into the two pieces "
                                "their BPE merge joined, pieces again alike (BPE-dropout, "
                                "rl.pieces): the words of an app never trained on come in "
                                "those pieces; at 0.2 on shopping and messages, seed 0: "
                                "Settings, never trained on, 0 -> 2.5-5% (valid actions "
                                "0 -> 96%), but Shopping 82 -> 2-6%, so off (0: off)")
    sft_steps: int = _f(9000, "SFT optimizer steps (0: skip SFT)")
    sft_lr: float = _f(3e-3, "SFT learning rate (the tiny model's; about 1e-5 for a "
                               "pretrained one)")
    sft_weight_decay: float = _f(0.0, "SFT weight decay (AdamW; 0.1 made the tiny model fit "
                                      "its demos worse and generalise no better)")
    sft_prompt_loss: float = _f(0.5, "weight of a next-token loss on a quarter of the prompt's "
                                     "tokens beside the reply's, the task line left out, "
                                     "fading to 0 by the last step (rl.sft.PROMPT_SHARE): the "
                                     "model also learns to predict the screen and the steps "
                                     "(two bases: Shopping 10 -> 50% and 26 -> 58%, 200 "
                                     "held-out 36 -> 48.5% and 46 -> 39.5%; the task line "
                                     "left out: 200 held-out +9.5 and +14.5 more; 0: the "
                                     "reply alone)")
    sft_batch: int = _f(16, "SFT batch size (16 passes about 2x as many examples per CPU "
                            "second through the tiny model as 2)")
    max_length: int = _f(768, "longest SFT example in tokens (longer ones are cut)")
    sft_processes: int = _f(2, "SFT processes, each with its share of every batch and "
                               "--threads / this many torch threads, their gradients "
                               "averaged over 127.0.0.1 (rl.spread; 1: in this process)")
    # RL
    rl_steps: int = _f(10, "RL iterations (0: skip RL)")
    group: int = _f(8, "episodes per group: G runs of the same task from the same source")
    groups: int = _f(4, "groups per RL iteration")
    mix: float = _f(1.0, "fraction of groups run on mock apps; the rest run on --device")
    device: list[str] = _f([], "adb serial of a real device (repeatable)", action="append",
                           flag_default=None)
    predicates: str | None = _f(None, "JSON file of device tasks: [{id, instruction, app, "
                                      "predicate}] judged on the final screen")
    rl_lr: float = _f(3e-4, "RL learning rate (the tiny model's; with the probe and "
                            "--beta 0.04 its rollouts rose from 47% to 81% in 10 "
                            "iterations, where 1e-4 from every task showed no trend)")
    rl_loss: str = _f("group", "what an RL iteration learns from: 'group', the group-"
                               "relative policy gradient (rl.grpo.update); 'wins', SFT steps "
                               "on the episodes the checker passed (filtered self-imitation, "
                               "rl.imitate; --beta and --rl-epochs unused)",
                      choices=["group", "wins"])
    beta: float = _f(0.04, "KL weight to the SFT reference, the anchor that keeps RL near "
                           "what SFT taught (0: no reference kept)")
    rl_epochs: int = _f(1, "passes over each iteration's episodes (more than 1: PPO's "
                           "ratio clip keeps the later passes near the policy that played)")
    clip: float = _f(1.0, "gradient norm clip")
    warmup: int = _f(3, "RL warmup iterations (linear; --rl-loss group only)")
    temperature: float = _f(1.0, "sampling temperature of RL rollouts")
    curriculum: bool = _f(True, "draw RL groups from the task templates the policy half-"
                                "solves, every task kind the same share (rl.grpo.Curriculum, "
                                "rl.probe.balanced); off: uniformly, every task once before "
                                "any twice (kinds in proportion to their tasks)")
    probe: int = _f(48, "before RL, play this many training tasks (a template at a time) "
                        "--probe-samples times each and draw mock groups from those the SFT "
                        "policy half-solves (rl.probe; 0: from every training task)")
    probe_samples: int = _f(4, "episodes per probed task")
    grounded: bool = _f(True, "ground replies in what the agent saw: reasons in the "
                        "screen's lines, actions in their reasons, text in the task, "
                        "notes and screen (rl.ground)")
    max_new_tokens: int = _f(64, "longest reply (reason and action) the policy may write")
    threads: int = _f(1, "torch threads of the trainer's own process (its evaluations "
                         "and RL: one thread plays the same rollouts for 12-18% less CPU "
                         "than two; SFT runs --sft-processes of their own; "
                         "OMP_NUM_THREADS wins when set)")
    workers: int = _f(0, "rollout worker processes (0: in this process)")
    demo_workers: int = _f(2, "processes that plan the SFT demos (0: in this process)")
    ray: str | None = _f(None, "run rollouts on Ray: an address, or 'local' for a local "
                               "cluster bound to 127.0.0.1", nargs="?", const="local")
    save_every: int = _f(5, "checkpoint every this many RL iterations (and SFT steps x20, "
                            "at least a tenth of the SFT steps)")
    eval_tasks: int = _f(40, "held-out task instances played before training, after SFT "
                             "and after RL (0: none)")
    eval_every: int = _f(0, "also play them every this many RL iterations (0: only after "
                            "the last)")
    holdout_apps: list[str] = _f([], "apps (by name) to leave out of training and play "
                                     "--eval-tasks instances of at the end: transfer to "
                                     "apps the policy never saw", nargs="*")
    tiny_size: str = _f("micro4", "size of the built tiny model (micro4: 64 wide, 2 "
                                  "layers, 4 attention heads of 16; micro: the same with 2 "
                                  "heads of 32; Shopping after SFT on seeds 0, 1, 2: 70, 66, "
                                  "72% against micro's 78, 58, 56%)",
                        choices=["micro", "micro4", "tiny", "small"])
    dry_run: bool = _f(False, "check the configuration (model folder, chat template, SFT and "
                              "RL settings, processes, memory) and print the plan; no "
                              "training (rl.dryrun)")

    @classmethod
    def from_args(cls, ns: argparse.Namespace) -> TrainConfig:
        """The config a parsed command line names (unknown attributes are ignored)."""
        kw = {f.name: getattr(ns, f.name) for f in fields(cls) if hasattr(ns, f.name)}
        if kw.get("device") is None:
            kw["device"] = []
        return cls(**kw)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1, sort_keys=True)

    @classmethod
    def load(cls, path: Path) -> TrainConfig:
        """The config a run recorded; settings a later version dropped are left out, so
        `eval` still plays an older run's model (its `sft_compile`, say)."""
        known = {f.name for f in fields(cls)}
        kept = json.loads(Path(path).read_text())
        return cls(**{k: v for k, v in kept.items() if k in known})


def add_arguments(parser: argparse.ArgumentParser, cls: type = TrainConfig) -> None:
    """One `--flag` per field of `cls`, with its help text and default."""
    for f in fields(cls):
        meta = dict(f.metadata)
        help_text = meta.pop("help", "").replace("%", "%%")  # argparse formats help
        flag = "--" + f.name.replace("_", "-")
        default = f.default if f.default is not MISSING else f.default_factory()  # type: ignore
        default = meta.pop("flag_default", default)
        if isinstance(default, bool):  # --flag / --no-flag
            parser.add_argument(flag, dest=f.name, default=default,
                                action=argparse.BooleanOptionalAction,
                                help=f"{help_text} (default: {'on' if default else 'off'})")
            continue
        kind = {int: int, float: float}.get(type(default), str)
        if "action" not in meta:
            meta.setdefault("type", kind)
        parser.add_argument(flag, dest=f.name, default=default,
                            help=f"{help_text} (default: {default})", **meta)
