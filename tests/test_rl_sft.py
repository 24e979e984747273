"""SFT with trl's SFTTrainer on toy demos: the loss goes down; resume loses no step."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")

pytestmark = pytest.mark.usefixtures("one_thread")


def test_sft_lowers_the_loss(micro, tmp_path) -> None:
    from rl.sft import train_sft

    folder, _, _, examples = micro
    final, losses = train_sft(folder, examples, tmp_path, steps=12, lr=3e-3, batch=4,
                              max_length=512, save_steps=100, progress=False,
                              weight_decay=0.1)
    assert (final / "config.json").is_file() and (final / "chat_template.jinja").is_file()
    assert losses[-1] < losses[0] - 0.5


def test_weight_decay_reaches_the_optimizer(tmp_path) -> None:
    from rl.config import TrainConfig
    from rl.sft import sft_args

    assert sft_args(tmp_path, 1, weight_decay=0.1).weight_decay == 0.1
    assert sft_args(tmp_path, 1).weight_decay == 0.0
    assert TrainConfig(sft_weight_decay=0.1).sft_weight_decay == 0.1


def test_an_older_run_s_config_loads_without_the_settings_since_dropped(tmp_path) -> None:
    import json

    from rl.config import TrainConfig

    kept = json.loads(TrainConfig(seed=3).to_json())
    (tmp_path / "config.json").write_text(json.dumps({**kept, "sft_compile": False}))
    assert TrainConfig.load(tmp_path / "config.json") == TrainConfig(seed=3)


def test_sft_resume_continues_from_the_checkpoint(micro, tmp_path) -> None:
    import json

    from transformers import TrainerCallback

    from rl.sft import latest_checkpoint, train_sft

    class StopAt2(TrainerCallback):
        def on_step_end(self, args, state, control, **kw):  # noqa: ANN001, ANN003
            if state.global_step == 2:
                control.should_save = control.should_training_stop = True

    folder, _, _, examples = micro
    kw = {"steps": 4, "batch": 2, "save_steps": 2, "progress": False}
    train_sft(folder, examples, tmp_path / "a", **kw)
    run = tmp_path / "b"
    train_sft(folder, examples, run, callbacks=[StopAt2()], **kw)  # interrupted at step 2
    assert not (run / "final").exists()
    assert latest_checkpoint(run).name == "checkpoint-2"
    final, _ = train_sft(folder, examples, run, resume=True, **kw)
    assert final == run / "final" and (final / "config.json").is_file()

    def losses(d):
        state = json.loads((latest_checkpoint(d) / "trainer_state.json").read_text())
        return state["global_step"], [r["loss"] for r in state["log_history"] if "loss" in r]

    steps, got = losses(run)
    assert steps == 4 and got == pytest.approx(losses(tmp_path / "a")[1], rel=1e-4)


def test_the_reply_only_loss_is_trl_s_loss(micro, tmp_path) -> None:
    """The lean loss (one projection of the reply positions) gives trl's fused-head loss
    and gradients on the same batch."""
    import torch
    from datasets import Dataset
    from trl import SFTTrainer

    from rl.model import load_policy
    from rl.sft import reply_loss_trainer, sft_args

    folder, _, _, examples = micro
    model, tok = load_policy(folder)
    tok.padding_side = "right"
    trainer = reply_loss_trainer(SFTTrainer)(
        model=model, args=sft_args(tmp_path, 1, batch=4, progress=False),
        train_dataset=Dataset.from_list(list(examples[:8])), processing_class=tok)
    batch = trainer._prepare_inputs(next(iter(trainer.get_train_dataloader())))
    assert (batch["labels"] != -100).sum() < batch["attention_mask"].sum() / 2
    assert not batch["attention_mask"].all()  # padded rows: the lean loss drops the mask

    def loss_and_grad(fn) -> tuple[float, torch.Tensor]:  # noqa: ANN001
        model.zero_grad()
        loss = fn(trainer, model, dict(batch))
        loss.backward()
        return loss.item(), model.get_output_embeddings().weight.grad.clone()

    mine, g_mine = loss_and_grad(type(trainer).compute_loss)
    theirs, g_theirs = loss_and_grad(SFTTrainer.compute_loss)
    assert mine == pytest.approx(theirs, rel=1e-5)
    assert torch.allclose(g_mine, g_theirs, atol=1e-6)


def test_only_padding_on_the_right_goes_without_a_mask() -> None:
    import torch

    from rl.sft import _needed_mask

    right = torch.tensor([[1, 1, 1], [1, 1, 0], [1, 0, 0]])
    left = torch.tensor([[1, 1, 1], [0, 1, 1]])
    holes = torch.tensor([[1, 0, 1]])
    assert _needed_mask(right) is None and _needed_mask(None) is None
    assert _needed_mask(left) is left and _needed_mask(holes) is holes


def test_the_prompt_loss_scores_the_prompt_alone(micro, tmp_path, monkeypatch) -> None:
    """`--sft-prompt-loss`: the next-token loss of the prompt's real positions (not the
    reply's, not the padding's), added with its weight, fading to nothing by the end."""
    import torch
    from datasets import Dataset
    from trl import SFTTrainer

    import rl.sft
    from rl.model import load_policy
    from rl.sft import reply_loss_trainer, sft_args

    monkeypatch.setattr(rl.sft, "PROMPT_SHARE", 1.0)
    folder, _, _, examples = micro
    model, tok = load_policy(folder)
    tok.padding_side = "right"
    args = sft_args(tmp_path, 4, batch=4, progress=False)
    data = Dataset.from_list(list(examples[:8]))
    plain = reply_loss_trainer(SFTTrainer)(model=model, args=args, train_dataset=data,
                                          processing_class=tok)
    weighted = reply_loss_trainer(SFTTrainer, 0.5)(model=model, args=args,
                                                   train_dataset=data, processing_class=tok)
    batch = plain._prepare_inputs(next(iter(plain.get_train_dataloader())))
    weighted.state.max_steps = 4
    model.train()  # the prompt loss is a training loss: evaluation scores the reply alone

    def prompt_loss(b: dict) -> float:
        hidden = model.model(input_ids=b["input_ids"]).last_hidden_state[:, :-1]
        return rl.sft._prompt_loss(model.lm_head, hidden, b, b["labels"][:, 1:]).item()

    with torch.no_grad():
        reply = plain.compute_loss(model, dict(batch)).item()
        both = weighted.compute_loss(model, dict(batch)).item()
        base = prompt_loss(batch)
        assert both == pytest.approx(reply + 0.5 * base, rel=1e-5)
        weighted.state.global_step = 2  # halfway: half the weight
        assert weighted.compute_loss(model, dict(batch)).item() == pytest.approx(
            reply + 0.25 * base, rel=1e-5)
        reply_at = batch["labels"] != -100
        pad_at = batch["attention_mask"] == 0
        other = dict(batch, input_ids=batch["input_ids"].clone())
        other["input_ids"][reply_at | pad_at] = tok.pad_token_id  # the reply's, the padding's
        assert prompt_loss(other) == pytest.approx(base, rel=1e-6)
        prompt_at = torch.nonzero(~reply_at & ~pad_at)[5]
        other["input_ids"][tuple(prompt_at)] = (other["input_ids"][tuple(prompt_at)] + 7) % 100
        assert prompt_loss(other) != pytest.approx(base, rel=1e-6)


@pytest.mark.parametrize("task_last", [False, True])
def test_the_prompt_loss_leaves_the_task_line_out(micro, tmp_path, task_last) -> None:
    """Nothing above the task line tells which task was drawn: the prompt loss scores
    every real prompt position but those predicting the task line's words, whether the
    line opens the prompt or closes it (`--task-last`), and only that one run of them."""
    import re

    from datasets import Dataset
    from trl import SFTTrainer

    from rl.model import load_policy
    from rl.sft import _prompt_at, reply_loss_trainer, sft_args, task_line

    folder, _, _, examples = micro
    model, tok = load_policy(folder)
    tok.padding_side = "right"
    rows = []
    for ex in examples[:8]:
        msgs = [dict(m) for m in ex["messages"]]
        user = next(m for m in msgs if m["role"] == "user")
        first, rest = user["content"].split("\n", 1)
        assert first.startswith("Task: ")
        if task_last:
            user["content"] = f"{rest}\n{first}"
        rows.append({"messages": msgs})
    trainer = reply_loss_trainer(SFTTrainer)(
        model=model, args=sft_args(tmp_path, 4, batch=8, progress=False),
        train_dataset=Dataset.from_list(rows), processing_class=tok)
    batch = trainer._prepare_inputs(next(iter(trainer.get_train_dataloader())))
    labels = batch["labels"][:, 1:]
    line = task_line(tok)
    assert line is not None
    every, take = _prompt_at(batch, labels, None), _prompt_at(batch, labels, line)
    assert not (take & ~every).any()
    for r in range(len(rows)):
        ids = batch["input_ids"][r].tolist()
        gone = (every[r] & ~take[r]).nonzero().flatten().tolist()
        assert gone and gone == list(range(gone[0], gone[-1] + 1))  # one run
        said = tok.decode(ids[gone[0] + 1:gone[-1] + 2])  # the tokens they predict
        start = int((labels[r] != -100).int().argmax())
        task = re.findall(r"^Task: (.*)$", tok.decode(ids[:start + 1]), re.M)[-1]
        assert said.startswith(":") and task.strip() in said, (said, task)


def test_spread_runs_of_the_tiny_models_tell_ddp_what_they_need(micro) -> None:
    """No search for unused parameters, no buffers broadcast each step (`rl.spread`),
    where every parameter takes part in the loss (the tiny models); transformers'
    defaults for any other model."""
    from pathlib import Path

    from rl.model import load_policy
    from rl.sft import _all_used, sft_args

    folder, *_ = micro
    model, _ = load_policy(folder)
    assert _all_used(model)
    args = sft_args(Path("unused"), 10, all_used=True)
    assert args.ddp_find_unused_parameters is False and args.ddp_broadcast_buffers is False
    assert not _all_used(model.model)  # not a whole Qwen3 causal LM
    args = sft_args(Path("unused"), 10)
    assert args.ddp_find_unused_parameters is None and args.ddp_broadcast_buffers is None


def test_tokenizing_split_among_processes_gives_the_same_rows(micro, tmp_path) -> None:
    """`tokenize_procs` > 1 (datasets' `num_proc`) hands the trainer the same tokens and
    labels in the same order as one process; few examples stay in one."""
    from datasets import Dataset
    from trl import SFTTrainer

    from rl.model import load_policy
    from rl.sft import TOKENIZE_SPLIT, reply_loss_trainer, sft_args, tokenize_procs

    folder, _, _, examples = micro
    rows = {}
    for procs in (1, 2):
        model, tok = load_policy(folder)
        tok.padding_side = "right"
        args = sft_args(tmp_path / str(procs), 1, batch=2, progress=False,
                        tokenize_procs=procs)
        assert args.dataset_num_proc == (procs if procs > 1 else None)
        data = reply_loss_trainer(SFTTrainer)(model=model, args=args, processing_class=tok,
                                              train_dataset=Dataset.from_list(examples)
                                              ).train_dataset
        rows[procs] = (data["input_ids"], data["labels"] if "labels" in data.column_names
                       else data["assistant_masks"])
    assert len(rows[1][0]) == len(examples) > 1
    assert rows[1] == rows[2]
    assert tokenize_procs(TOKENIZE_SPLIT, 2) == 2 and tokenize_procs(TOKENIZE_SPLIT - 1, 2) == 1
    assert tokenize_procs(10**5, 1) == 1
