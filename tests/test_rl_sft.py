"""SFT with trl's SFTTrainer on toy demos: the loss goes down; resume loses no step."""

from __future__ import annotations

import pytest

from tests.rl_fixtures import _one_thread, micro  # noqa: F401

pytest.importorskip("torch")
pytest.importorskip("trl")


def test_sft_lowers_the_loss(micro, tmp_path) -> None:  # noqa: F811
    from rl.sft import train_sft

    folder, _, _, examples = micro
    final, losses = train_sft(folder, examples, tmp_path, steps=12, lr=3e-3, batch=4,
                              max_length=512, save_steps=100, progress=False)
    assert (final / "config.json").is_file() and (final / "chat_template.jinja").is_file()
    assert losses[-1] < losses[0] - 0.5


def test_sft_resume_continues_from_the_checkpoint(micro, tmp_path) -> None:  # noqa: F811
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
