"""`phoneworld train --dry-run`: the GPU recipe's configuration checked on a CPU."""

from __future__ import annotations

import json
import shutil

import pytest

from rl.commands import main
from tests.rl_fixtures import APP

pytestmark = pytest.mark.usefixtures("one_thread")


def _args(model, *more: str) -> list[str]:  # noqa: ANN001
    return ["train", "--model", str(model), "--apps", str(APP), "--dry-run",
            "--sft-lr", "1e-5", "--rl-lr", "1e-6", "--sft-batch", "4", *more]


def test_a_pretrained_model_folder_is_checked_without_training(
        micro, tmp_path, capsys) -> None:
    pytest.importorskip("trl")
    folder, *_ = micro
    assert main([*_args(folder), "--out", str(tmp_path / "run")]) == 0
    plan = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert plan["params"] > 0 and plan["chat_template"] == "own"
    assert plan["processes"] == 2 and plan["sft"]["batch_per_process"] == 2  # rl.spread
    assert plan["sft"]["examples_per_step"] == 4 and plan["rl"]["lr"] == 1e-6
    assert 0 < plan["tokens_per_step"]["mean"] <= plan["tokens_per_step"]["max"] <= 768
    assert plan["demo_steps_checked"] > 0 and "warning" not in plan
    assert not (tmp_path / "run").exists()  # nothing trained, nothing written


def test_what_would_fail_on_the_gpus_fails_here_with_one_line(
        micro, tmp_path, capsys) -> None:
    pytest.importorskip("trl")
    folder, *_ = micro
    assert main(_args(tmp_path)) == 7  # not a model folder
    assert "not a local model folder" in capsys.readouterr().err
    assert main([*_args(folder), "--max-length", "16"]) == 7
    assert "--max-length 16" in capsys.readouterr().err
    assert main([*_args(folder), "--sft-batch", "5"]) == 7
    assert "--sft-batch 5 does not split among --sft-processes 2" in capsys.readouterr().err
    odd = tmp_path / "odd"
    shutil.copytree(folder, odd)
    (odd / "chat_template.jinja").write_text(
        "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}")
    assert main(_args(odd)) == 7  # no reply marks, and a template trl does not know
    err = capsys.readouterr().err
    assert "assistant-only loss" in err and "{% generation %}" in err
    assert "Traceback" not in err
