"""phoneworld as users get it: a wheel built from this checkout, installed into a fresh
venv with its core dependencies only, runs `check`, `build` and `compile` from anywhere,
and gives the same bytes as the checkout does."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # about a minute: a wheel, a venv, five packages


def _run(cmd: list, cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    out = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, f"{cmd}\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()
            and "__pycache__" not in p.parts and ".hypothesis" not in p.parts}


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"  # a copy, so the build leaves nothing in the checkout
    for name in ("phoneworld", "rl"):
        shutil.copytree(ROOT / name, src / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    dist = tmp / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
          "-w", dist, src], cwd=tmp)
    wheel = next(dist.glob("phoneworld-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "phoneworld/grammars/phoneworld.lark" in names
    core = [m.group(1).strip() for m in re.finditer(r"^Requires-Dist: ([^;\n]+)$", meta, re.M)]
    assert core and not any("torch" in c or "flask" in c for c in core), core
    env = tmp / "venv"
    _run([sys.executable, "-m", "venv", env], cwd=tmp)
    py = env / "bin" / "python"
    _run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel], cwd=tmp)
    _run([py, "-m", "pip", "install", "-q", *core], cwd=tmp)
    return env


def test_the_wheel_checks_builds_and_compiles_in_a_fresh_venv(venv, tmp_path):
    exe = venv / "bin" / "phoneworld"
    where = _run([venv / "bin" / "python", "-c", "import phoneworld; print(phoneworld.__file__)"],
                 cwd=tmp_path)
    assert where.stdout.startswith(str(venv)), where.stdout[:300]
    assert _run([venv / "bin" / "python", "-m", "pip", "list"], cwd=tmp_path).stdout.count(
        "\n") < 20  # the core dependencies, not the dev venv's extras

    out = _run([exe, "check", ROOT / "app_specs" / "shopping.pw"], cwd=tmp_path)
    assert "ok — app shopping" in out.stdout

    _run([exe, "build", ROOT / "app_specs" / "settings.pw", "-o", tmp_path / "settings"],
         cwd=tmp_path)
    built = _files(tmp_path / "settings")
    want = _files(ROOT / "generated" / "settings")
    built.pop("compile_report.json")
    want.pop("compile_report.json")
    assert built == want

    _run([exe, "compile", ROOT / "traces", "-o", tmp_path / "generated", "-q"], cwd=tmp_path)
    assert _files(tmp_path / "generated") == _files(ROOT / "generated")
