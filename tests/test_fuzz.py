"""The fuzz corpus (`tests/fuzz_corpus.py`, over 1,000 hostile inputs) through the CLI and
the server: no traceback, no partial output, no hang.

Each command runs in-process through `phoneworld.cli.main`, under an alarm; a failure
lists every case that broke a rule, by name.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import signal
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from phoneworld.cli import main
from tests.fuzz_corpus import Case, argv_cases, request_cases, spec_cases, trace_cases

DEADLINE_S = 30
"""Per command; far above what any case takes (a hang, not a slow machine, trips it)."""


class Hang(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: int = DEADLINE_S):
    def ring(*_):
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run(argv: list[str]) -> tuple[int, str]:
    """(exit code, stderr) of one command; a traceback or a hang raises."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _deadline():
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's usage errors
            code = e.code if isinstance(e.code, int) else 2
    return code, err.getvalue()


def _clean_refusal(code: int, err: str) -> str | None:
    """What is wrong with how a command ended (None: nothing)."""
    if "Traceback" in err:
        return "a traceback"
    if code == 0:
        return None
    lines = [ln for ln in err.splitlines() if not ln.startswith("warning: ")]
    if not lines or not (lines[0].startswith("error: ") or lines[0].startswith("usage: ")):
        return f"exit {code} without an error message: {err[-300:]!r}"
    return None


def _complete_app(folder: Path) -> str | None:
    """None when `folder` holds every file its manifest lists, with those bytes, and the
    app loads, runs and gives a well-formed XML observation."""
    from lxml import etree

    from phoneworld.apps import load_app
    from phoneworld.runtime import Machine

    try:
        manifest = json.loads((folder / "manifest.json").read_bytes())
        for rel, digest in manifest["files"].items():
            if hashlib.sha256((folder / rel).read_bytes()).hexdigest() != digest:
                return f"{rel} does not match the manifest"
        machine = Machine(load_app(folder).spec)
        machine.reset(0)
        etree.fromstring(machine.observe("xml").encode())
        machine.observe("html").encode("utf-8")
    except Exception as err:  # any failure here is the finding
        return f"the written app does not load and run: {type(err).__name__}: {err}"
    return None


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) \
        if folder.is_dir() else []


def _each(cases: list[Case], tmp: Path, check: Callable[[Path, Path], str | None]
          ) -> list[str]:
    problems = []
    for i, case in enumerate(cases):
        where = tmp / f"c{i}"
        where.mkdir()
        try:
            with _deadline():
                path = case.make(where)
            why = check(path, where)
        except Hang as err:
            why = str(err)
        except Exception:
            why = "a traceback:\n" + traceback.format_exc(limit=-3)
        if why:
            problems.append(f"{case.name}: {why}")
    return problems


def _trace_case(path: Path, where: Path) -> str | None:
    code, err = run(["inspect", str(path), "--json"])
    why = _clean_refusal(code, err) or (None if code in (0, 2) else f"inspect exit {code}")
    if why:
        return f"inspect: {why}"
    out = where / "out"
    code, err = run(["compile", str(path), "-o", str(out), "-q"])
    why = _clean_refusal(code, err) or (None if code in (0, 2, 4) else f"compile exit {code}")
    if why:
        return f"compile: {why}"
    if code != 0:
        return f"compile failed (exit {code}) but wrote {out}" if out.exists() else None
    if _hidden(out):
        return f"compile left {_hidden(out)}"
    for app in sorted(out.iterdir()):
        why = _complete_app(app)
        if why:
            return f"compile wrote {app.name}/ but {why}"
    return None


def _spec_case(path: Path, where: Path) -> str | None:
    code, err = run(["check", str(path)])
    why = _clean_refusal(code, err) or (None if code in (0, 3) else f"check exit {code}")
    if why or code != 0:
        return f"check: {why}" if why else None
    out = where / "app"
    code, err = run(["build", str(path), "-o", str(out)])
    why = _clean_refusal(code, err)
    if why:
        return f"build after check passed: {why}"
    if code != 0:
        return f"check passed but build failed: {err.strip()[:300]}"
    return _complete_app(out) or (f"build left {_hidden(where)}" if _hidden(where) else None)


def test_the_corpus_holds_over_a_thousand_cases(tmp_path):
    counts = {"traces": len(trace_cases()), "specs": len(spec_cases()),
              "requests": sum(1 for _ in request_cases()),
              "command lines": len(argv_cases(tmp_path))}
    assert sum(counts.values()) >= 1000, counts
    assert min(counts.values()) >= 30, counts


def test_hostile_traces_are_read_and_compiled_or_refused_cleanly(tmp_path):
    problems = _each(trace_cases(), tmp_path, _trace_case)
    assert not problems, f"{len(problems)} cases:\n" + "\n".join(problems)


def test_hostile_specs_check_and_build_or_are_refused_cleanly(tmp_path):
    problems = _each(spec_cases(), tmp_path, _spec_case)
    assert not problems, f"{len(problems)} cases:\n" + "\n".join(problems)


def test_odd_command_lines_end_with_a_message(tmp_path):
    problems = []
    for argv in argv_cases(tmp_path):
        try:
            code, err = run(argv)
            why = _clean_refusal(code, err) or (None if code != 0 or argv[0] == "tasks"
                                                else "exit 0")
        except Exception as err:
            why = f"{type(err).__name__}: {err}"
        if why:
            problems.append(f"{argv}: {why}")
    assert not problems, "\n".join(problems)


def test_hostile_requests_get_json_4xx_and_leave_the_app_well_formed():
    pytest.importorskip("flask")
    from lxml import etree

    from phoneworld.serve.app import create_app
    from tests.test_runtime import shop_spec

    app = create_app([shop_spec()], chromium="/nonexistent/chromium", max_sessions=50)
    client = app.test_client()
    problems = []
    sid = ""
    try:
        for k, req in enumerate(request_cases()):
            if k % 20 == 0:
                sid = client.post("/api/sessions", json={}).json["session"]
            with _deadline():
                r = client.open(req.path.replace("{sid}", sid), method=req.method,
                                data=req.body, headers=dict(req.headers))
            kind = r.mimetype
            if r.status_code >= 500:
                problems.append(f"{req.name}: {r.status_code} {r.data[:200]!r}")
            elif r.status_code >= 400 and kind != "application/json":
                problems.append(f"{req.name}: a {r.status_code} as {kind}")
            xml = client.get(f"/api/sessions/{sid}/observation?format=xml")
            if xml.status_code == 200:
                try:
                    etree.fromstring(xml.json["xml"].encode())
                except etree.XMLSyntaxError as err:
                    problems.append(f"{req.name}: the XML observation is ill-formed: {err}")
    finally:
        app.extensions["phoneworld"].close()
    assert not problems, "\n".join(problems)
