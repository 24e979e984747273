"""SFT spread over two processes (`rl.spread`): the same steps as one process takes."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")

pytestmark = pytest.mark.usefixtures("one_thread")


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
    for k in a:
        assert torch.allclose(a[k], b[k], atol=1e-5), k
    assert two_losses == pytest.approx(one_losses, rel=1e-4)


def test_a_batch_that_does_not_split_is_refused(micro, tmp_path) -> None:
    from rl.sft import train_sft

    folder, _, _, examples = micro
    with pytest.raises(ValueError, match="batch of 5 does not split among 2"):
        train_sft(folder, examples, tmp_path, steps=1, batch=5, processes=2)
