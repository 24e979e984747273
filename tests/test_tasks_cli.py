"""`phoneworld tasks` and `phoneworld demos` (through `register`, as the CLI will add them)."""

from __future__ import annotations

import argparse
import json

import pytest

from phoneworld.build import build_app
from phoneworld.codegen.files import write_tree
from phoneworld.tasks.commands import register
from tests.tasks_fixtures import GENERATED, tiny_shop

REQUIRED = {"id", "kind", "instruction", "apps", "params"}


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="phoneworld")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_tasks_json_lines_are_stable(capsys):
    assert run(["tasks", str(GENERATED / "shopping"), "--n", "25", "--seed", "0",
                "--json"]) == 0
    first = capsys.readouterr()
    lines = [json.loads(line) for line in first.out.splitlines()]
    assert len(lines) == 25 and all(REQUIRED <= set(t) for t in lines)
    assert len({t["kind"] for t in lines}) >= 3
    state = next(t for t in lines if t["kind"] == "state")
    assert state["checks"] and state["checks"][0]["sql"].startswith("SELECT (")
    assert "25 tasks:" in first.err
    run(["tasks", str(GENERATED / "shopping"), "--n", "25", "--seed", "0", "--json"])
    assert capsys.readouterr().out == first.out


def test_tasks_on_a_folder_of_apps_include_cross_app_ones(capsys):
    assert run(["tasks", str(GENERATED), "--n", "30", "--seed", "1", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(t["kind"] == "cross_app" and len(t["apps"]) == 2 for t in lines)


def test_tasks_as_text(capsys):
    assert run(["tasks", str(GENERATED / "settings"), "--n", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 6 and out[0].split()[1].startswith("settings/")


def test_demos_writes_verified_lines_and_sft(tmp_path, capsys):
    files = build_app(tiny_shop())
    write_tree(tmp_path / "tiny", files)
    out = tmp_path / "demos.jsonl"
    assert run(["demos", str(tmp_path / "tiny"), "--n", "5", "--seed", "0", "-o", str(out),
                "--sft", "phonebuddy"]) == 0
    demos = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(demos) == 5
    for d in demos:
        assert d["verified"] is True and REQUIRED <= set(d["task"])
        assert all({"observation", "action"} <= set(s) for s in d["steps"])
    sft = (tmp_path / "demos.sft.jsonl").read_text().splitlines()
    assert len(sft) == sum(len(d["steps"]) for d in demos)
    assert "5 verified demos" in capsys.readouterr().err


def test_a_path_without_apps_is_an_error():
    from phoneworld.errors import PhoneworldError

    with pytest.raises(PhoneworldError, match="no generated app"):
        run(["tasks", str(GENERATED / "nope"), "--n", "1"])
