"""Hostile inputs, measured: compile time and peak memory on pathological dumps, and the
app swap under `kill -9`.

    python benchmarks/hostile.py [--kills 30] [--skip-big]

Each dump runs through `phoneworld compile` (and `inspect`) in a child process, timed
with its peak RSS (wait4). The cases are the security probe's: 4,000 same-id siblings
(54 s before), a 10.9 MB dump nested 100,000 deep (killed at 23 GB before), a 200 MB dump
of 542,545 siblings (unfinished after 8 min before), a DroidBot view list 600 deep, plus
the largest inputs within the limits. Then `--kills` times: `phoneworld compile traces/`
killed with SIGKILL while it writes (the writer sleeps 2 ms per file so that every kill
lands in the write phase), checking after each that every visible app folder is whole and
that no hidden folder survives the next run. Figures vary with the machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from phoneworld import limits  # noqa: E402
from phoneworld.apps import find_apps  # noqa: E402
from tests.hostile import (  # noqa: E402
    deep_view_list,
    deep_xml,
    droidbot_trace,
    native_trace,
    node,
    wide_xml,
)

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
GIB = 1 << 30


_PEAK = """
import atexit, sys
def peak():  # the child's own high-water mark: wait4's ru_maxrss counts the forked parent
    with open("/proc/self/status") as f:
        kb = next((ln.split()[1] for ln in f if ln.startswith("VmHWM:")), None)
    sys.stderr.write(f"\\n@@peak {kb}\\n")
atexit.register(peak)
from phoneworld.cli import main
sys.exit(main(sys.argv[1:]))
"""


def run(argv: list[str], timeout: float = 600) -> tuple[int, float, float, str]:
    """(exit code, seconds, peak RSS in MiB, last line of stderr) of one command."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _PEAK, *argv], env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.01)
    seconds = time.perf_counter() - start
    lines = proc.stderr.read().decode(errors="replace").strip().splitlines()
    peak = [ln.split()[1] for ln in lines if ln.startswith("@@peak ")]
    err = [ln for ln in lines if ln.strip() and not ln.startswith("@@peak ")]
    code = os.waitstatus_to_exitcode(status)
    mib = int(peak[0]) / 1024 if peak and peak[0].isdigit() else usage.ru_maxrss / 1024
    return code, seconds, mib, (err[-1] if err else "")


def _big_wide(file: Path, children: int, size: int) -> None:
    """A dump of `children` siblings, padded to about `size` bytes, written in pieces."""
    pad = max(0, size // children - len(node(text="item 0", cls="Button", click=True)))
    with file.open("wb") as fh:
        fh.write(wide_xml(0)[:-len(b"</node></hierarchy>")])
        for i in range(children):
            fh.write(node(rid="b", cls="Button", click=True, text=f"item {i} " + "x" * pad,
                          bounds=f"[0,{i % 2400}][1080,{i % 2400 + 1}]").encode())
        fh.write(b"</node></hierarchy>")


def _at_node_limit() -> bytes:
    """Nearly as many views as the limit allows: 4 lists of 4,998 look-alike rows."""
    rows = (limits.MAX_NODES - 5) // 4
    groups = (node(rid="list", cls="ListView", close=False)
              + node(rid="row", cls="TextView", click=True) * rows + "</node>") * 4
    return ("<hierarchy>" + node(rid="root", close=False) + groups + "</node></hierarchy>"
            ).encode()


def dumps(tmp: Path, skip_big: bool) -> None:
    print("-- pathological inputs: compile (inspect) in a child process --")
    cases: list[tuple[str, Path]] = []
    cases.append(("4,000 same-id siblings", native_trace(tmp / "w4k" / "app",
                                                         wide_xml(4000))))
    cases.append(("1,000 same-id siblings", native_trace(tmp / "w1k" / "app",
                                                         wide_xml(1000))))
    deep = tmp / "deep100k.xml"
    deep.write_bytes(deep_xml(100_000))
    cases.append((f"100,000 deep ({deep.stat().st_size / 1e6:.1f} MB)", deep))
    if not skip_big:
        big = tmp / "wide542k.xml"
        _big_wide(big, 542_545, 200 * 10**6)
        cases.append((f"542,545 siblings ({big.stat().st_size / 1e6:.0f} MB)", big))
    cases.append(("DroidBot view list 600 deep", droidbot_trace(tmp / "db600",
                                                                deep_view_list(600))))
    many = tmp / "many"
    many.mkdir()
    for i in range(800):  # every observation a screen of its own: grouping meets them all
        (many / f"{i}.xml").write_bytes(("<hierarchy>" + node(rid="root", close=False) + "".join(
            node(rid=f"s{i}_{k}", cls="Button", click=True, text=f"t{k}") for k in range(20))
            + "</node></hierarchy>").encode())
    cases.append(("800 distinct screens", many))
    cases.append((f"{limits.MAX_DEPTH} deep (at the limit)",
                  native_trace(tmp / "d128" / "app", deep_xml(limits.MAX_DEPTH))))
    cases.append((f"{limits.MAX_NODES:,} views (at the limit)",
                  native_trace(tmp / "n20k" / "app", _at_node_limit())))
    for label, path in cases:
        out = tmp / "out" / label.split()[0].replace(",", "")
        code, secs, rss, err = run(["compile", str(path), "-o", str(out), "-q"])
        icode, isecs, irss, _ = run(["inspect", str(path)])
        verdict = "ok" if secs < 60 and rss < 2 * 1024 else "OVER 60 s / 2 GB"
        said = f"refused: {err}" if code else f"compiled into {len(list(out.iterdir()))} app"
        print(f"{label:34s} compile exit {code} in {secs:6.2f} s, {rss:7.0f} MiB peak "
              f"[{verdict}]; inspect exit {icode} in {isecs:5.2f} s, {irss:5.0f} MiB")
        print(f"{'':34s} {said[:150]}")
    for label in ("4,000 same-id siblings", "1,000 same-id siblings"):
        wall, cpu = _in_process(dict(cases)[label])
        print(f"{label}: compile in-process {wall:.2f} s wall, {cpu:.2f} s CPU (best of 3, "
              f"imports excluded)")


def _in_process(path: Path) -> tuple[float, float]:
    from phoneworld.compiler import compile_traces

    best = (float("inf"), float("inf"))
    for _ in range(3):
        with tempfile.TemporaryDirectory() as out:
            start, cpu = time.perf_counter(), time.process_time()
            compile_traces(path, Path(out))
            best = min(best, (time.perf_counter() - start, time.process_time() - cpu))
    return best


_SLOW_COMPILE = """
import sys, time
from pathlib import Path
real = Path.write_bytes
def slow(self, data):
    time.sleep(0.002)  # stretch the write phase so that each kill lands inside it
    return real(self, data)
Path.write_bytes = slow
from phoneworld.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _whole(app: Path) -> bool:
    manifest = json.loads((app / "manifest.json").read_bytes())
    return all(hashlib.sha256((app / rel).read_bytes()).hexdigest() == digest
               for rel, digest in manifest["files"].items())


def kills(tmp: Path, n: int) -> None:
    print(f"-- {n} x kill -9 while `phoneworld compile traces/` writes --")
    out = tmp / "gen"
    subprocess.run([sys.executable, "-m", "phoneworld", "compile", str(ROOT / "traces"),
                    "-o", str(out), "-q"], env=ENV, check=True, stdout=subprocess.DEVNULL)
    apps = sorted(p.name for p in out.iterdir())
    rng = random.Random(24)
    in_write = broken = stray = left = cleaned = 0
    for _ in range(n):
        proc = subprocess.Popen([sys.executable, "-c", _SLOW_COMPILE, "compile",
                                 str(ROOT / "traces"), "-o", str(out), "-q"], env=ENV,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        while proc.poll() is None and not any(".pw-tmp-" in p.name for p in out.iterdir()):
            time.sleep(0.001)
        time.sleep(rng.uniform(0, 0.25))  # anywhere in the ~0.3 s the three apps take
        if proc.poll() is None:
            in_write += 1
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        visible = [p.name for p in find_apps(out)]
        stray += visible != apps
        broken += sum(not _whole(out / a) for a in apps if (out / a).is_dir())
        broken += sum(not (out / a).is_dir() for a in apps)
        hidden = [p.name for p in out.iterdir() if p.name.startswith(".")]
        left += bool(hidden)
    subprocess.run([sys.executable, "-m", "phoneworld", "compile", str(ROOT / "traces"),
                    "-o", str(out), "-q"], env=ENV, check=True, stdout=subprocess.DEVNULL)
    cleaned = not any(p.name.startswith(".") for p in out.iterdir())
    print(f"kills landing in the write phase: {in_write}/{n}; app folders missing or not "
          f"whole: {broken}; runs where loaders saw other than the {len(apps)} apps: {stray}; "
          f"runs that left a hidden folder: {left}; hidden folders left after the next "
          f"run: {'none' if cleaned else 'SOME'}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=30)
    parser.add_argument("--skip-big", action="store_true", help="leave out the 200 MB dump")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pw-hostile-"))
    try:
        dumps(tmp, args.skip_big)
        kills(tmp, args.kills)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
