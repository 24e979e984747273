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
