"""SFT spread over two processes (`rl.spread`): the same steps as one process takes."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")

from transformers import TrainerCallback  # noqa: E402 - after the skips

pytestmark = pytest.mark.usefixtures("one_thread")


class StopAt2(TrainerCallback):  # at module level: the spawned ranks import it by name
    def on_step_end(self, args, state, control, **kw):  # noqa: ANN001, ANN003
        if state.global_step == 2:
            control.should_save = control.should_training_stop = True


def test_each_rank_is_told_its_place_on_the_loopback() -> None:
    from rl.spread import HOST, free_port, rank_environment

    port = free_port()
    env = rank_environment(1, 2, port)
    assert (env["RANK"], env["WORLD_SIZE"], env["MASTER_ADDR"]) == ("1", "2", HOST)
    assert env["MASTER_PORT"] == str(port) and env["OMP_NUM_THREADS"] == "1"
    assert HOST == "127.0.0.1"


def test_a_batch_split_between_two_processes_takes_the_step_one_process_takes(
        micro, tmp_path) -> None:
    """With one example repeated, every batch is the same whichever rank draws it: two
    ranks of 2 must end where one process of 4 ends (the loss scaled back by the ranks,
    the gradients averaged), and only rank 0 writes the model."""
    import torch
    from safetensors.torch import load_file

    from rl.sft import train_sft

    folder, _, _, examples = micro
    same = [examples[0]] * 16
    kw = {"steps": 3, "batch": 4, "lr": 3e-3, "save_steps": 100, "progress": False}
    one, one_losses = train_sft(folder, same, tmp_path / "one", **kw)
    two, two_losses = train_sft(folder, same, tmp_path / "two", processes=2, **kw)
    assert two == tmp_path / "two" / "final" and (two / "tokenizer.json").is_file()
    assert not (tmp_path / "two" / "examples.arrow").exists()
    a, b = load_file(one / "model.safetensors"), load_file(two / "model.safetensors")
    assert a.keys() == b.keys()
    # Adam turns float rounding of a near-zero gradient (summed in another order by the
    # two ranks) into a step of up to lr * |g| / (|g| + eps): 2.4e-5 apart on one weight
    # of an example that has them, where a step left out or doubled is ~lr (3e-3) apart
    for k in a:
        assert torch.allclose(a[k], b[k], atol=2e-4), k
    assert two_losses == pytest.approx(one_losses, rel=1e-4)


def test_a_batch_that_does_not_split_is_refused(micro, tmp_path) -> None:
    from rl.sft import train_sft

    folder, _, _, examples = micro
    with pytest.raises(ValueError, match="batch of 5 does not split among 2"):
        train_sft(folder, examples, tmp_path, steps=1, batch=5, processes=2)


def test_a_run_spread_over_two_processes_resumes_where_it_stopped(micro, tmp_path) -> None:
    """Stopped at step 2 and resumed, two ranks end as an unbroken run does: each rank's
    random state kept in the checkpoint, no step lost or repeated."""
    import torch
    from safetensors.torch import load_file

    from rl.sft import latest_checkpoint, train_sft

    folder, _, _, examples = micro
    kw = {"steps": 4, "batch": 2, "save_steps": 2, "progress": False, "processes": 2}
    whole, losses = train_sft(folder, examples, tmp_path / "a", **kw)
    run = tmp_path / "b"
    train_sft(folder, examples, run, callbacks=[StopAt2()], **kw)
    assert not (run / "final").exists()
    kept = {p.name for p in latest_checkpoint(run).iterdir()}
    assert {"rng_state_0.pth", "rng_state_1.pth"} <= kept
    again, resumed = train_sft(folder, examples, run, resume=True, **kw)
    assert resumed == losses  # the logged history comes back with the checkpoint
    a, b = load_file(whole / "model.safetensors"), load_file(again / "model.safetensors")
    assert all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)
