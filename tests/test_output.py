"""Where `compile`/`build` may write, the atomic app swap, leftovers of killed runs."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from phoneworld.apps import find_apps
from phoneworld.cli import main
from phoneworld.codegen import files as files_mod
from phoneworld.codegen import swap as swap_mod
from phoneworld.codegen.files import clean_leftovers, is_generated_app, write_tree
from phoneworld.errors import CodegenError, OutputError, PhoneworldError
from tests.conftest import ROOT

SPEC = ROOT / "generated" / "shopping" / "spec.pw"
TRACES = ROOT / "traces" / "messages"


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _app_files(tag: str) -> dict[str, bytes]:
    files = {"spec.pw": f"# {tag}\n".encode(), "screens/a.html": tag.encode()}
    files["manifest.json"] = json.dumps({"app": "shop", "phoneworld": "0", "files": {
        k: hashlib.sha256(v).hexdigest() for k, v in files.items()}}).encode()
    return files


def _refused(argv: list[str], capsys) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_compile_onto_its_input_or_a_file_refuses_and_deletes_nothing(tmp_path, capsys):
    traces = tmp_path / "T"
    shutil.copytree(TRACES, traces / "messages")
    before = _snapshot(traces)
    assert "is the input" in _refused(["compile", str(traces), "-o", str(traces)], capsys)
    assert "inside the input" in _refused(
        ["compile", str(traces), "-o", str(traces / "messages" / "out")], capsys)
    file = tmp_path / "notes.txt"
    file.write_text("mine")
    assert "is a file" in _refused(["compile", str(traces), "-o", str(file)], capsys)
    assert "is a file" in _refused(
        ["compile", str(traces), "-o", str(tmp_path / "o"), "--specs", str(file)], capsys)
    assert _snapshot(traces) == before and file.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["T", "notes.txt"]


def test_compile_refuses_to_replace_a_folder_it_did_not_write(tmp_path, capsys):
    out = tmp_path / "out"
    (out / "messages").mkdir(parents=True)
    (out / "messages" / "mine.txt").write_text("keep")
    assert "phoneworld did not write it" in _refused(
        ["compile", str(TRACES), "-o", str(out), "-q"], capsys)
    assert [p.name for p in (out / "messages").iterdir()] == ["mine.txt"]


def test_build_into_the_folder_of_its_spec_or_foreign_files_refuses(tmp_path, capsys):
    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(SPEC, specs / "shop.pw")
    (specs / "other.pw").write_text("app other {}\n")
    (specs / "NOTES.txt").write_text("notes")
    before = _snapshot(specs)
    assert "holds the input" in _refused(["build", str(specs / "shop.pw"), "-o", str(specs)],
                                         capsys)
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "x").write_text("x")
    assert "did not write" in _refused(["build", str(specs / "shop.pw"), "-o",
                                        str(tmp_path / "gen")], capsys)
    assert "is a file" in _refused(["build", str(specs / "shop.pw"), "-o",
                                    str(specs / "NOTES.txt")], capsys)
    assert _snapshot(specs) == before
    # A generated app folder holding the spec being built is refused too (its edits
    # would be replaced by the re-emitted spec).
    app = tmp_path / "app"
    assert main(["build", str(SPEC), "-o", str(app)]) == 0
    assert "holds the input" in _refused(["build", str(app / "spec.pw"), "-o", str(app)],
                                         capsys)


def test_build_replaces_a_generated_or_empty_folder_leaving_nothing_hidden(tmp_path, capsys):
    (tmp_path / "app").mkdir()
    for _ in range(2):
        assert main(["build", str(SPEC), "-o", str(tmp_path / "app")]) == 0
    assert is_generated_app(tmp_path / "app")
    assert [p.name for p in tmp_path.iterdir()] == ["app"]


def test_write_tree_without_atomic_exchange_restores_the_old_app_on_failure(tmp_path,
                                                                            monkeypatch):
    monkeypatch.setattr(swap_mod, "_exchange", lambda a, b: False)
    app = tmp_path / "shop"
    write_tree(app, _app_files("one"))
    write_tree(app, _app_files("two"))
    assert (app / "spec.pw").read_text() == "# two\n"
    real_rename = os.rename

    def failing(src, dst):
        if Path(dst) == app and ".pw-tmp-" in Path(src).name:
            raise OSError(5, "Input/output error")
        return real_rename(src, dst)

    monkeypatch.setattr(swap_mod.os, "rename", failing)
    with pytest.raises(CodegenError, match="cannot write"):
        write_tree(app, _app_files("three"))
    assert (app / "spec.pw").read_text() == "# two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["shop"]


def test_leftovers_are_cleaned_restored_or_kept_while_locked(tmp_path):
    write_tree(tmp_path / "kept", _app_files("kept"))
    (tmp_path / ".shop.pw-tmp-abc123").mkdir()  # a killed build
    (tmp_path / ".shop.pw-old-def456").mkdir()  # an old app moved aside, never put back
    (tmp_path / ".shop.pw-old-def456" / "spec.pw").write_text("# old\n")
    (tmp_path / ".cache.tmp-x").mkdir()  # not ours: left alone
    live = tmp_path / ".kept.pw-tmp-live00"
    live.mkdir()
    with swap_mod._locked(live):
        cleaned = clean_leftovers(tmp_path)
    assert sorted(cleaned) == [".shop.pw-old-def456", ".shop.pw-tmp-abc123"]
    assert (tmp_path / "shop" / "spec.pw").read_text() == "# old\n"
    assert live.is_dir() and (tmp_path / ".cache.tmp-x").is_dir()
    assert clean_leftovers(tmp_path) == [".kept.pw-tmp-live00"]


def test_find_apps_skips_hidden_folders_and_refuses_two_apps_of_one_name(tmp_path):
    write_tree(tmp_path / "shop", _app_files("a"))
    shutil.copytree(tmp_path / "shop", tmp_path / ".shop.pw-tmp-zz")
    assert find_apps(tmp_path) == [tmp_path / "shop"]
    shutil.copytree(tmp_path / "shop", tmp_path / "shop_copy")
    with pytest.raises(PhoneworldError, match="both the app 'shop'"):
        find_apps(tmp_path)


def test_a_phone_refuses_two_apps_of_one_name():
    from phoneworld.apps import load_app
    from phoneworld.runtime.phone import Phone

    spec = load_app(SPEC.parent).spec
    with pytest.raises(PhoneworldError, match="both named shopping"):
        Phone([spec, spec])


def test_check_app_folder_refuses_a_symlink(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(OutputError, match="symbolic link"):
        write_tree(tmp_path / "link", _app_files("x"))


_SLOW_WRITER = """
import sys, time
from pathlib import Path
import phoneworld.codegen.files as f
real = Path.write_bytes
def slow(self, data):
    time.sleep(0.002)
    return real(self, data)
Path.write_bytes = slow
files = {f"screens/s{i:03d}.html": (str(i) * 50).encode() for i in range(400)}
files["spec.pw"] = sys.argv[2].encode()
files["manifest.json"] = b'{"app": "shop", "phoneworld": "0", "files": {}}'
f.write_tree(Path(sys.argv[1]), files)
"""


def test_kill_9_during_the_write_phase_leaves_the_old_or_new_app_and_nothing_visible(
        tmp_path):
    """A few real SIGKILLs while files are written (benchmarks/hostile.py does 30)."""
    out = tmp_path / "out"
    app = out / "shop"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", _SLOW_WRITER, str(app), "v0"], env=env, check=True)
    for k in range(3):
        proc = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(app), f"v{k + 1}"],
                                env=env)
        deadline = time.monotonic() + 30
        while not any(p.name.startswith(".shop.pw-tmp-") for p in out.iterdir()):
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.005)
        time.sleep(0.1 * k)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert find_apps(out) == [app]
        assert len(list(app.glob("screens/*.html"))) == 400  # complete, old or new
        assert (app / "spec.pw").read_text() in {f"v{j}" for j in range(k + 2)}
        assert clean_leftovers(out)  # the killed run's hidden folder
        assert [p.name for p in out.iterdir()] == ["shop"]


def test_compile_and_build_clean_leftovers_when_they_start(tmp_path, capsys):
    out = tmp_path / "out"
    (out / ".messages.pw-tmp-dead01").mkdir(parents=True)
    assert main(["compile", str(tmp_path / "missing"), "-o", str(out)]) == 2
    assert list(out.iterdir()) == []
    (tmp_path / ".app.pw-tmp-dead02").mkdir()
    assert main(["build", str(tmp_path / "missing.pw"), "-o", str(tmp_path / "app")]) == 3
    assert not (tmp_path / ".app.pw-tmp-dead02").exists()


def test_an_output_behind_a_link_loop_is_refused_not_a_traceback(tmp_path, capsys):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    assert "cannot resolve it" in _refused(["build", str(SPEC), "-o", str(loop / "x")], capsys)


@pytest.mark.parametrize("exchange", [True, False])
def test_several_apps_are_written_all_or_none(tmp_path, monkeypatch, exchange):
    from phoneworld.codegen.files import write_trees

    if not exchange:
        monkeypatch.setattr(swap_mod, "_exchange", lambda a, b: False)
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    write_trees({a: _app_files("a1"), b: _app_files("b1")})
    real_swap = files_mod.swap_in
    calls = []

    def failing(new, folder):
        calls.append(folder)
        if folder == b and len(calls) == 3:  # a, c went in; b fails
            raise OSError(28, "No space left on device")
        return real_swap(new, folder)

    monkeypatch.setattr(files_mod, "swap_in", failing)
    with pytest.raises(CodegenError, match="No space left"):
        write_trees({a: _app_files("a2"), c: _app_files("c2"), b: _app_files("b2")})
    assert (a / "spec.pw").read_text() == "# a1\n" and (b / "spec.pw").read_text() == "# b1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_find_apps_does_not_wait_on_a_fifo_manifest(tmp_path):
    write_tree(tmp_path / "shop", _app_files("a"))
    (tmp_path / "odd").mkdir()
    (tmp_path / "odd" / "spec.pw").write_text("# x\n")
    os.mkfifo(tmp_path / "odd" / "manifest.json")
    assert find_apps(tmp_path) == [tmp_path / "odd", tmp_path / "shop"]
    assert not is_generated_app(tmp_path / "odd")
