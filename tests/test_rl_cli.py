"""`phoneworld train` and `phoneworld eval` (through `rl.commands.main`)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rl.commands import main
from tests.rl_fixtures import APP, ROOT

pytestmark = pytest.mark.usefixtures("one_thread")


def test_mix_below_one_without_a_device_fails_at_once() -> None:
    # At once: refused before torch, transformers or trl are even imported.
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "rl.commands", "train",
                        "--mix", "0.5"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0]
                for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "rl" in imported and not imported & {"torch", "transformers", "trl"}
    assert r.returncode == 7
    assert "--device SERIAL" in r.stderr and "--mix 1" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("command", ["train", "eval"])
def test_help_lists_every_flag(command: str, capsys: pytest.CaptureFixture) -> None:
    # A "%" in a help text ("47% to 81%") once broke argparse's formatting of --help.
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--model" in out and (command == "eval" or "--rename" in out and "81%" in out)


def test_bad_mix_is_refused(capsys: pytest.CaptureFixture) -> None:
    assert main(["train", "--mix", "1.5"]) == 7
    assert "between 0 and 1" in capsys.readouterr().err


def test_a_batch_that_does_not_split_among_the_sft_processes_is_refused_at_once(
        tmp_path, capsys: pytest.CaptureFixture) -> None:
    """Before any task or demo is drawn, not when SFT starts minutes later."""
    pytest.importorskip("torch")
    run = tmp_path / "run"
    assert main(["train", "--apps", str(APP), "--sft-batch", "5", "--out", str(run)]) == 7
    err = capsys.readouterr().err
    assert "--sft-batch 5 does not split among --sft-processes 2" in err
    assert "Traceback" not in err and not run.exists()


def test_eval_prints_one_json_object(micro, tmp_path, capsys) -> None:
    folder, *_ = micro
    plot = tmp_path / "eval.png"
    rc = main(["eval", "--model", str(folder), "--apps", str(APP), "--tasks", "3",
               "--max-steps", "2", "--plot", str(plot), "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert 0.0 <= out["success_rate"] <= 1.0 and out["episodes"] == 3
    assert set(out) >= {"per_app", "per_kind", "valid_rate"}
    assert sum(r["episodes"] for r in out["per_kind"].values()) == 3
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_eval_leaves_out_what_its_run_trained_on(micro, tmp_path, capsys) -> None:
    from rl import data
    from rl.config import RUN_TASKS

    folder, *_ = micro
    drawn = [t.id for t in data.sample(data.load_specs([APP]), 4, 1)]
    run = tmp_path / "run"
    model = run / "sft" / "final"
    model.mkdir(parents=True)
    for f in folder.iterdir():
        (model / f.name).write_bytes(f.read_bytes())
    (run / RUN_TASKS).write_text(json.dumps({"train": drawn[:2], "held_out": []}))
    args = ["eval", "--model", str(model), "--apps", str(APP), "--tasks", "2",
            "--max-steps", "1", "--plot", str(tmp_path / "e.png"), "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["left_out"] == 2 and out["episodes"] == 2
    assert main([*args, "--include-trained"]) == 0
    assert json.loads(capsys.readouterr().out)["left_out"] == 0
    (run / RUN_TASKS).write_text("{not json")
    assert main(args) == 7
    err = capsys.readouterr().err
    assert RUN_TASKS in err and "--include-trained" in err and "Traceback" not in err


def test_eval_plays_with_the_prompt_and_notes_its_run_trained_with(micro, tmp_path,
                                                                   monkeypatch) -> None:
    from rl import evaluate
    from rl.config import RUN_TASKS

    folder, *_ = micro
    run = tmp_path / "run"
    model = run / "final"
    model.mkdir(parents=True)
    for f in folder.iterdir():
        (model / f.name).write_bytes(f.read_bytes())
    (run / RUN_TASKS).write_text(json.dumps({"train": [], "held_out": []}))
    asked: list[tuple[bool, bool]] = []

    def fake(*args, **kw):
        asked.append((kw["task_last"], kw["anchored"]))
        return {"success_rate": 0.0, "episodes": 0, "valid_rate": 0.0, "left_out": 0,
                "per_app": {}, "per_kind": {}}

    monkeypatch.setattr(evaluate, "evaluate", fake)
    args = ["eval", "--model", str(model), "--apps", str(APP), "--json"]
    for cfg, want in (({}, (False, False)), ({"task_last": True}, (True, False)),
                      ({"task_last": True, "anchored": True}, (True, True))):
        (run / "config.json").write_text(json.dumps(cfg))  # older runs: task first, plain
        assert main(args) == 0
        assert asked[-1] == want


@pytest.mark.slow
def test_train_runs_end_to_end_and_resumes(tmp_path, capsys) -> None:
    pytest.importorskip("trl")
    args = ["train", "--apps", str(APP), "--tasks", "4", "--sft-steps", "4",
            "--sft-batch", "2", "--rl-steps", "1", "--group", "2", "--groups", "1",
            "--tiny-size", "micro", "--max-steps", "2", "--max-new-tokens", "8",
            "--eval-tasks", "2", "--demo-workers", "0",
            "--out", str(tmp_path / "run")]
    assert main(args) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    out = json.loads(lines[-1])
    assert lines[0].startswith("held-out success after training") and "curve.png" in lines[-2]
    assert any(ln.strip().startswith("kind ") for ln in lines)  # success per task kind
    assert (tmp_path / "run" / "final" / "config.json").is_file()
    assert out["rl_iterations"] == 1 and 0.0 <= out["success_rate"] <= 1.0
    assert set(out["seconds"]) == set(out["cpu_seconds"]) == {"tasks", "demos", "sft",
                                                               "eval", "rl"}
    assert all(v >= 0 for v in [*out["seconds"].values(), *out["cpu_seconds"].values()])
    assert (tmp_path / "run" / "eval.png").is_file()
    record = json.loads((tmp_path / "run" / "tasks.json").read_text())
    assert len(record["train"]) == 4 and len(record["held_out"]) == 2
    assert not set(record["train"]) & set(record["held_out"])
    assert main(args) == 7  # the folder holds a finished run: refuse to overwrite it
    assert "finished run" in capsys.readouterr().err
    assert main([*args, "--resume"]) == 0  # everything done: nothing is repeated
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["rl_iterations"] == 0


def test_switches_go_both_ways() -> None:
    import argparse

    from rl.config import TrainConfig, add_arguments

    p = argparse.ArgumentParser()
    add_arguments(p)
    assert TrainConfig.from_args(p.parse_args([])).reason is True
    assert TrainConfig.from_args(p.parse_args(["--no-reason"])).reason is False
    assert TrainConfig.from_args(p.parse_args(["--resume"])).resume is True
    assert TrainConfig.from_args(p.parse_args([])).resume is False


@pytest.mark.parametrize("command", ["train", "eval"])
def test_without_the_train_extra_one_line_names_it(command, monkeypatch, tmp_path,
                                                   capsys) -> None:
    monkeypatch.setitem(sys.modules, "tokenizers", None)  # as if it were not installed
    args = ["--out", str(tmp_path / "run")] if command == "train" else [
        "--model", str(tmp_path)]
    assert main([command, *args]) == 7
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "train extra" in err and "tokenizers" in err and "phoneworld[train]" in err
    assert not (tmp_path / "run").exists()


def test_an_unfinished_run_does_not_block_the_next(tmp_path, capsys) -> None:
    from rl.config import RUN_RESULT, TrainConfig
    from rl.train import TrainError, run_folder

    out = tmp_path / "run"
    (out / "sft").mkdir(parents=True)
    (out / "config.json").write_text("{}")  # a run that stopped before it finished
    assert run_folder(TrainConfig(out=str(out))) == out
    assert list(out.iterdir()) == []
    assert "unfinished run" in capsys.readouterr().err
    (out / "config.json").write_text("{}")
    (out / RUN_RESULT).write_text("{}")  # a finished one is kept
    with pytest.raises(TrainError, match="finished run"):
        run_folder(TrainConfig(out=str(out)))
    assert run_folder(TrainConfig(out=str(out), resume=True)) == out
    assert (out / RUN_RESULT).is_file()
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("not a run")  # never cleared
    with pytest.raises(TrainError, match="holds no run"):
        run_folder(TrainConfig(out=str(other)))
    assert (other / "notes.txt").is_file()


def test_eval_takes_a_run_folder_or_a_model_folder(micro, tmp_path) -> None:
    from rl.config import RUN_TASKS
    from rl.evaluate import model_folder, run_config
    from rl.train import TrainError

    folder, *_ = micro
    assert model_folder(folder) == folder
    run = tmp_path / "run"
    with pytest.raises(TrainError, match="not a model folder"):
        model_folder(run)
    (run / "sft" / "final").mkdir(parents=True)
    (run / RUN_TASKS).write_text(json.dumps({"train": [], "held_out": []}))
    (run / "config.json").write_text(json.dumps({"max_steps": 7, "format": "phonebuddy"}))
    with pytest.raises(TrainError, match="no model yet"):
        model_folder(run)
    for f in folder.iterdir():
        (run / "sft" / "final" / f.name).write_bytes(f.read_bytes())
    assert model_folder(run) == run / "sft" / "final"  # RL has not finished: the SFT model
    (run / "final").mkdir()
    for f in folder.iterdir():
        (run / "final" / f.name).write_bytes(f.read_bytes())
    assert model_folder(run) == run / "final"
    assert run_config(run / "final")["max_steps"] == 7
    assert run_config(folder) == {}


def test_holdout_apps_must_name_apps_of_the_run(tmp_path, capsys) -> None:
    args = ["train", "--apps", str(ROOT / "generated"), "--out", str(tmp_path / "run")]
    assert main([*args, "--holdout-apps", "setings"]) == 7
    err = capsys.readouterr().err
    assert "no app setings" in err and "settings" in err and "Traceback" not in err
    assert main([*args, "--holdout-apps", "messages", "settings", "shopping"]) == 7
    assert "no app to train on" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_holdout_apps_are_never_trained_on_and_reported(tmp_path) -> None:
    pytest.importorskip("trl")
    from rl.config import TrainConfig
    from rl.train import train

    cfg = TrainConfig(apps=[str(ROOT / "generated")], out=str(tmp_path / "run"), tasks=6,
                      sft_steps=2, sft_batch=2, rl_steps=1, group=2, groups=1, max_steps=2,
                      max_new_tokens=8, eval_tasks=2, demo_workers=0, sft_processes=1,
                      holdout_apps=["settings"])
    result = train(cfg)
    record = json.loads((tmp_path / "run" / "tasks.json").read_text())
    assert record["train"] and not any("settings" in i for i in record["train"])
    assert not any("settings" in i for i in record["held_out"])
    assert set(result["eval_apps"]) == {"settings"}
    assert result["eval_apps"]["settings"]["episodes"] == 2


def test_a_resumed_run_reads_its_demos_back_instead_of_planning_them(tmp_path,
                                                                     monkeypatch) -> None:
    from rl import data
    from rl.config import TrainConfig
    from rl.train import DEMOS, sft_examples

    specs = data.load_specs([APP])
    tasks = data.sample(specs, 3, 2)
    cfg = TrainConfig(apps=[str(APP)], out=str(tmp_path), demo_workers=0)
    made = sft_examples(cfg, specs, tasks, tmp_path)
    assert made and (tmp_path / DEMOS).is_file()

    def planned(*args, **kw):
        raise AssertionError("planned again")

    monkeypatch.setattr(data, "demo_examples", planned)
    resumed = TrainConfig(apps=[str(APP)], out=str(tmp_path), demo_workers=0, resume=True)
    assert sft_examples(resumed, specs, tasks, tmp_path) == made
    with pytest.raises(AssertionError, match="planned again"):  # made of other settings
        sft_examples(TrainConfig(apps=[str(APP)], out=str(tmp_path), resume=True,
                                 anchored=True), specs, tasks, tmp_path)
    with pytest.raises(AssertionError, match="planned again"):  # not a resumed run
        sft_examples(cfg, specs, tasks, tmp_path)


def test_resume_on_another_draw_is_refused_and_changes_nothing(tmp_path) -> None:
    # `--resume` with another --eval-tasks once drew other instances and rewrote tasks.json
    # under a run whose demos, SFT and held-out figures were of the first draw.
    from rl import data
    from rl.config import RUN_TASKS, TrainConfig
    from rl.train import TrainError, same_draw, train

    cfg = TrainConfig(apps=[str(APP)], out=str(tmp_path), tasks=6, eval_tasks=2,
                      demo_workers=0)
    tasks, held = data.split(data.load_specs([APP]), cfg.tasks, cfg.eval_tasks, cfg.seed,
                             cfg.kinds)
    drawn = {"train": [t.id for t in tasks], "held_out": [t.id for t in held]}
    (tmp_path / "config.json").write_text(cfg.to_json())
    (tmp_path / RUN_TASKS).write_text(json.dumps(drawn, indent=1))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    same_draw(cfg, tmp_path, drawn)  # the same settings resume
    other = TrainConfig(apps=[str(APP)], out=str(tmp_path), tasks=6, eval_tasks=3,
                        demo_workers=0, resume=True)
    with pytest.raises(TrainError, match=r"--eval-tasks 3 \(the run's: 2\)"):
        train(other)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
