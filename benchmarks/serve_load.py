"""Load on `phoneworld serve`: N sessions x M random actions from concurrent clients.

    python benchmarks/serve_load.py [--apps generated] [--sessions 1000] [--steps 100]
                                    [--clients 32] [--threads 8] [--max-seconds 300]
    python benchmarks/serve_load.py --url http://127.0.0.1:8000 ...   (a running server)

Starts a server on 127.0.0.1 (a free port) in a subprocess unless `--url` is given,
creates the sessions (all live at once), then plays random AndroidWorld actions drawn
from each observation (taps by index and by coordinates, typing, scrolling, back, home,
open_app, long presses, and a few malformed actions that must come back as 400s), the
sessions interleaved across keep-alive connections. It stops at N x M steps or at
`--max-seconds`, whichever comes first, deletes the sessions and stops the server.

Prints steps/s, p50/p99 step latency, 4xx and 5xx counts, and the server's resident
memory: at rest, with every session live and idle, and at the end. Targets (issue:
serve): 1,000 sessions x 100 steps with 0 5xx; >= 1,000 steps/s on 2 cores; memory
per idle session small enough for 1,000 sessions under 2 GB. The clients run in this
process, so on a 2-core machine they share the cores with the server.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, deque
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]


class Client:
    """One keep-alive connection; `call` returns (status, decoded JSON or None, seconds)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.conn = http.client.HTTPConnection(host, port, timeout=30)

    def call(self, method: str, path: str, body: object = None
             ) -> tuple[int, object, float]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        for attempt in (0, 1):
            t0 = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                took = time.perf_counter() - t0
                ctype = resp.getheader("Content-Type", "")
                return resp.status, json.loads(raw) if "json" in ctype and raw else None, took
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt:
                    raise
        raise AssertionError("unreachable")


def random_action(rng: random.Random, obs: dict, apps: list[str]) -> dict:
    """An action an agent might send on this screen (about 2% malformed on purpose)."""
    elements = obs.get("elements") or []
    width, height = obs.get("screen_size") or (1080, 2400)
    r = rng.random()
    if r < 0.02:
        return rng.choice([{"action_type": "fly"}, {"action_type": "click"},
                           {"action_type": "scroll", "direction": "sideways"},
                           {"action_type": "click", "index": 10_000}])
    if r < 0.55 and elements:
        return {"action_type": "click", "index": rng.randrange(len(elements))}
    if r < 0.65:
        return {"action_type": "click", "x": rng.randrange(width), "y": rng.randrange(height)}
    if r < 0.72:
        editable = [e["index"] for e in elements if e.get("editable")]
        if editable:
            return {"action_type": "input_text", "text": rng.choice(["milk", "hi", "wifi"]),
                    "index": rng.choice(editable)}
        return {"action_type": "keyboard_enter"}
    if r < 0.80:
        return {"action_type": "scroll", "direction": rng.choice(["up", "down"])}
    if r < 0.88:
        return {"action_type": "navigate_back"}
    if r < 0.91:
        return {"action_type": "navigate_home"}
    if r < 0.95:
        return {"action_type": "open_app", "app_name": rng.choice(apps)}
    if r < 0.98 and elements:
        return {"action_type": "long_press", "index": rng.randrange(len(elements))}
    return {"action_type": "wait"}


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process in MiB (Linux), or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def cpu_s(pid: int) -> float | None:
    """User + system CPU seconds a process has used (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def start_server(apps: str, threads: int, max_sessions: int
                 ) -> tuple[subprocess.Popen, str, int]:
    cmd = [sys.executable, "-m", "phoneworld.serve", apps, "--port", "0", "--threads",
           str(threads), "--max-sessions", str(max_sessions), "--host", "127.0.0.1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, env=env, cwd=ROOT)
    deadline = time.monotonic() + 60
    assert proc.stderr is not None
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        m = re.search(r"on http://([\d.]+):(\d+)", line)
        if m:
            # Keep draining stderr so the server never blocks on a full pipe.
            threading.Thread(target=proc.stderr.read, daemon=True).start()
            return proc, m.group(1), int(m.group(2))
    proc.kill()
    raise SystemExit(f"the server did not start: {proc.stderr.read()}")


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def run(args: argparse.Namespace) -> int:
    proc = None
    if args.url:
        u = urlsplit(args.url)
        host, port = u.hostname or "127.0.0.1", u.port or 80
    else:
        proc, host, port = start_server(args.apps, args.threads,
                                        args.sessions + args.clients)
    pid = proc.pid if proc else None
    try:
        return _load(args, host, port, pid)
    finally:
        if proc is not None:
            stop_server(proc)


def _load(args: argparse.Namespace, host: str, port: int, pid: int | None) -> int:
    deadline = time.monotonic() + args.max_seconds
    info = Client(host, port).call("GET", "/api")[1]
    assert isinstance(info, dict)
    apps = [a["name"] for a in info["apps"]]
    print(f"server {host}:{port}: {len(apps)} app(s) {', '.join(apps)}; "
          f"{args.sessions} sessions x {args.steps} steps, {args.clients} clients")
    mem0 = rss_mb(pid) if pid else None
    codes: Counter[int] = Counter()
    lock = threading.Lock()

    # Phase 1: every session made, all live at once.
    todo = list(range(args.sessions))
    sessions: list[dict] = []

    def make() -> None:
        c = Client(host, port)
        while time.monotonic() < deadline:
            with lock:
                if not todo:
                    return
                i = todo.pop()
            status, obs, _ = c.call("POST", "/api/sessions", {"seed": i})
            with lock:
                codes[status] += 1
                if status == 201 and isinstance(obs, dict):
                    sessions.append({"id": obs["session"], "obs": obs, "left": args.steps,
                                     "rng": random.Random(args.seed * 100_003 + i)})

    t0 = time.perf_counter()
    _threads(make, args.clients)
    made = time.perf_counter() - t0
    mem1 = rss_mb(pid) if pid else None
    print(f"created {len(sessions)} sessions in {made:.2f} s "
          f"({len(sessions) / max(made, 1e-9):.0f}/s)")

    # Phase 2: random steps, sessions interleaved round-robin over the clients.
    queue = deque(sessions)
    latencies: list[float] = []
    steps = 0

    def play() -> None:
        nonlocal steps
        c = Client(host, port)
        mine: list[float] = []
        n = 0
        while time.monotonic() < deadline:
            with lock:
                if not queue:
                    break
                s = queue.popleft()
            obs = s["obs"]
            if obs.get("done"):
                action: dict = {}
                path = f"/api/sessions/{s['id']}/reset"
            else:
                action = random_action(s["rng"], obs, apps)
                path = f"/api/sessions/{s['id']}/step"
            status, got, took = c.call("POST", path, action)
            mine.append(took)
            n += 1
            if status == 200 and isinstance(got, dict):
                s["obs"] = got
            s["left"] -= 1
            with lock:
                codes[status] += 1
                if s["left"] > 0:
                    queue.append(s)
        with lock:
            latencies.extend(mine)
            steps += n

    t0 = time.perf_counter()
    cpu0, me0 = (cpu_s(pid) if pid else None), time.process_time()
    _threads(play, args.clients)
    took = time.perf_counter() - t0
    cpu1, me1 = (cpu_s(pid) if pid else None), time.process_time()
    mem2 = rss_mb(pid) if pid else None

    # Clean up.
    ids = [s["id"] for s in sessions]

    def drop() -> None:
        c = Client(host, port)
        while True:
            with lock:
                if not ids:
                    return
                sid = ids.pop()
            status, _, _ = c.call("DELETE", f"/api/sessions/{sid}")
            with lock:
                codes[status] += 1

    _threads(drop, args.clients)

    c4 = sum(v for k, v in codes.items() if 400 <= k < 500)
    c5 = sum(v for k, v in codes.items() if k >= 500)
    print(f"steps: {steps} in {took:.2f} s = {steps / max(took, 1e-9):.0f} steps/s "
          f"({'stopped at --max-seconds' if time.monotonic() >= deadline else 'all done'})")
    print(f"latency: p50 {pct(latencies, 0.5) * 1e3:.2f} ms, "
          f"p99 {pct(latencies, 0.99) * 1e3:.2f} ms, max {max(latencies) * 1e3:.1f} ms")
    if cpu0 is not None and cpu1 is not None and steps:
        print(f"cpu per step: server {(cpu1 - cpu0) / steps * 1e3:.3f} ms, "
              f"clients {(me1 - me0) / steps * 1e3:.3f} ms "
              f"({os.cpu_count()} cores on this machine)")
    print(f"status codes: {dict(sorted(codes.items()))}; 4xx {c4}, 5xx {c5}")
    if mem0 is not None and mem1 is not None and mem2 is not None:
        per = (mem1 - mem0) * 1024 / max(1, len(sessions))
        print(f"server memory: {mem0:.0f} MiB at rest, {mem1:.0f} MiB with "
              f"{len(sessions)} idle sessions ({per:.0f} KiB each; 1,000 sessions "
              f"~{mem0 + per * 1000 / 1024:.0f} MiB), {mem2:.0f} MiB after the steps")
    return 1 if c5 else 0


def _threads(fn, n: int) -> None:
    ts = [threading.Thread(target=fn, daemon=True) for _ in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--apps", default=str(ROOT / "generated"),
                   help="a generated app, or a folder of them (default generated/)")
    p.add_argument("--url", help="load a running server instead of starting one")
    p.add_argument("--sessions", type=int, default=1000)
    p.add_argument("--steps", type=int, default=100, help="steps per session")
    p.add_argument("--clients", type=int, default=32, help="concurrent connections")
    p.add_argument("--threads", type=int, default=8, help="server threads")
    p.add_argument("--max-seconds", type=float, default=300.0,
                   help="stop after this long, done or not (default 300)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    if args.url and urlsplit(args.url).hostname not in ("127.0.0.1", "localhost", "::1"):
        p.error("--url must point at this machine (127.0.0.1)")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
