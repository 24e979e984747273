from __future__ import annotations

import json

import pytest

from phoneworld import __version__
from phoneworld.cli import main
from tests.conftest import DATA


def test_help_and_version(capsys):
    assert main([]) == 0
    assert "inspect" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_inspect_json(capsys):
    assert main(["inspect", str(DATA / "phoneworld"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (row,) = out["traces"]
    assert row["format"] == "phoneworld" and row["observations"] == 2 and row["steps"] == 1
    assert row["actions"] == {"tap": 1} and row["unresolved_taps"] == 0


def test_inspect_text(capsys):
    assert main(["inspect", str(DATA / "phoneworld")]) == 0
    assert "1 traces, 2 observations, 1 steps" in capsys.readouterr().out


@pytest.mark.parametrize("make, needle", [
    (lambda p: p / "missing", "no such file or folder"),
    (lambda p: p, "no traces found"),
])
def test_inspect_errors_are_one_line_and_nonzero(tmp_path, capsys, make, needle):
    code = main(["inspect", str(make(tmp_path))])
    err = capsys.readouterr().err
    assert code == 2
    assert needle in err and "Traceback" not in err and err.count("\n") == 1


def test_inspect_reads_every_shared_folder_with_expected_counts(shared_traces, capsys):
    assert main(["inspect", str(shared_traces), "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["traces"]}
    folders = {p.name: p.parent.name for p in shared_traces.glob("*/*") if p.is_dir()}
    assert set(rows) == set(folders)
    for name, fmt in folders.items():  # every folder, read in the format it lies under
        assert rows[name]["format"] == fmt
        assert rows[name]["steps"] > 0 or fmt == "appium"
    assert (rows["ajsha"]["format"], rows["ajsha"]["steps"]) == ("droidbot", 500)
    assert rows["ajsha"]["app"] == "org.ligi.ajsha"
    assert (rows["qqmusic"]["steps"], rows["qqmusic"]["app"]) == (46, "com.tencent.qqmusic")
    duo = rows["duolingo"]
    assert (duo["format"], duo["observations"], duo["steps"], duo["unresolved_taps"]) == (
        "llamatouch", 5, 4, 0)
    assert duo["app"] == "com.duolingo" and duo["instruction"]
    assert (rows["spoon_live"]["format"], rows["spoon_live"]["observations"]) == ("appium", 2)
    skype = rows["skype"]
    assert skype["format"] == "rico" and skype["missing_hierarchies"] == 28
    assert any("hierarch" in w for w in skype["warnings"])


def test_compile_bad_trace_fails_cleanly_and_writes_nothing(tmp_path, capsys):
    bad = tmp_path / "traces" / "app" / "t1"
    bad.mkdir(parents=True)
    (bad / "trace.json").write_text('{"format": "phoneworld-trace", "steps": [{"observation"'
                                    ': "000.xml"}]}')
    (bad / "000.xml").write_text("<hierarchy><node bounds='[0,0][1,1]'")
    out = tmp_path / "out"
    code = main(["compile", str(tmp_path / "traces"), "-o", str(out), "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "000.xml: not well-formed XML" in err and "Traceback" not in err
    assert not out.exists()


def test_check_reports_spec_errors_with_position(tmp_path, capsys):
    spec = tmp_path / "bad.pw"
    spec.write_text('app x {\n  package "p"\n  start nowhere\n}\n')
    code = main(["check", str(spec)])
    err = capsys.readouterr().err
    assert code == 3 and "bad.pw:" in err and "nowhere" in err


_WITHOUT = '''
import sys

for name in {blocked!r}:  # as if not installed: importing it fails, find_spec finds nothing
    sys.modules[name] = None
{body}
'''


@pytest.mark.parametrize("argv, blocked, extra", [
    (["serve", "generated/shopping", "--port", "0"], {"flask", "waitress"}, "serve"),
    (["serve", "generated/shopping", "--port", "0"], {"waitress"}, "serve"),
    (["record", "--serial", "emulator-5554", "-o", "{tmp}/rec"],
     {"uiautomator2", "adbutils"}, "device"),
])
def test_a_command_without_its_extra_says_which_in_one_line(tmp_path, argv, blocked, extra):
    import subprocess
    import sys

    from phoneworld.errors import MissingExtra
    from tests.conftest import ROOT

    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    body = f"from phoneworld.cli import main\nsys.exit(main({argv!r}))"
    out = subprocess.run([sys.executable, "-c", _WITHOUT.format(blocked=blocked, body=body)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == MissingExtra.exit_code, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and f"pip install 'phoneworld[{extra}]'" in lines[0], lines


def test_an_env_without_gymnasium_says_which_extra(tmp_path):
    import subprocess
    import sys

    from tests.conftest import ROOT

    body = ("import phoneworld\ntry:\n    phoneworld.make('shopping')\n"
            "except phoneworld.PhoneworldError as err:\n    print(err)\n")
    out = subprocess.run([sys.executable, "-c", _WITHOUT.format(blocked={"gymnasium"},
                                                                  body=body)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip().endswith("pip install 'phoneworld[env]'"), out.stderr


def test_the_readme_documents_every_exit_code():
    import re

    import phoneworld.errors as errors
    import rl.train  # noqa: F401 - its TrainError is an error of the CLI too
    from tests.conftest import ROOT

    documented = {int(c) for c in re.findall(r"^\| (\d+) \|", (ROOT / "README.md").read_text(
        encoding="utf-8"), re.M)}
    codes, todo = set(), [errors.PhoneworldError]
    while todo:
        cls = todo.pop()
        codes.add(cls.exit_code)
        todo.extend(cls.__subclasses__())
    assert codes >= {1, 2, 3, 4, 5, 6, 7, 8}
    assert codes | {0, 130, 141} == documented


def test_train_and_eval_come_by_entry_point(capsys):
    from importlib.metadata import entry_points

    from phoneworld.cli import COMMANDS

    found = {e.name: e.value for e in entry_points(group=COMMANDS)}
    assert found.get("train") == "rl.commands:register", (
        f"no {COMMANDS} entry point for rl: the installed metadata is older than "
        f"pyproject.toml; reinstall with pip install -e .")
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "train" in out and "eval" in out


def test_a_closed_pipe_ends_quietly():
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # `true` reads nothing and is gone long before phoneworld has started: its first
    # write meets a closed pipe.
    proc = subprocess.run(f"'{sys.executable}' -m phoneworld inspect '{ROOT / 'traces'}' "
                          f"| true; exit ${{PIPESTATUS[0]}}", shell=True, env=env,
                          executable="/bin/bash", capture_output=True, text=True, timeout=120)
    assert proc.stderr == "" and proc.returncode in (0, 141)


def test_a_closed_pipe_met_by_a_command_is_exit_141(monkeypatch, capsys):
    import sys

    class Closed:
        def write(self, _):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            raise BrokenPipeError(32, "Broken pipe")

    with monkeypatch.context() as m:
        m.setattr(sys, "stdout", Closed())
        code = main(["inspect", str(DATA / "phoneworld")])
    assert code == 141 and capsys.readouterr().err == ""


@pytest.mark.parametrize("argv, needle", [
    (["tasks", "generated", "--n", "-5"], "argument --n: -5 is not 0..1000000"),
    (["tasks", "generated", "--n", "x"], "argument --n: 'x' is not a whole number"),
    (["demos", "generated", "--seed", "-1", "-o", "x"], "argument --seed: -1 is not 0 or more"),
    (["record", "-o", "x", "--max-steps", "0"], "argument --max-steps: 0 is not 1 or more"),
    (["record", "-o", "x", "--timeout", "nan"], "argument --timeout: nan is not a positive"),
])
def test_bad_numbers_are_usage_errors_naming_the_option(argv, needle, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and needle in capsys.readouterr().err
