"""Env speed: in-process steps/s and reset time, and steps/s over HTTP.

    python benchmarks/env.py [--app shopping] [--seconds 2]

In-process, on the example app, through `gymnasium.make` (its checker wrappers
included) and on the bare env:
- scripted: the recorded sessions' own actions replayed (valid, screen-changing steps),
  observations not read, or with the element list / the XML read after every step,
  beside `Machine.step` alone on the same actions (what the runtime itself costs);
- random: `action_space.sample()` every step (which reads the element list to aim), and
  the same with the machine's render cache off (every screen rendered afresh: what a
  screen never met before costs; with the cache, screens met again, in the same data,
  in this episode or an earlier one, are not rendered again);
- overhead: a `wait` step, beside `Machine.step` of the same, to show what the env adds.
Reset: with a fixed task and with none. HTTP: the same scripted steps against
`phoneworld serve` (waitress in a thread), observations dropped (one request a step) and
held (the XML is fetched too).

Targets (issue: env): >= 10,000 steps/s in-process; reset <= 1 ms. A step costs what the
machine costs to render the screen the action aims at; the env's own share is the
overhead line. Single process, so figures are per core.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import gymnasium  # noqa: E402

from phoneworld.device.double import replay_actions  # noqa: E402
from phoneworld.env import make, register_envs  # noqa: E402
from phoneworld.runtime import Action, Machine  # noqa: E402
from phoneworld.runtime.cache import RenderCache  # noqa: E402
from phoneworld.traces import read_traces  # noqa: E402


def _rate(fn, seconds: float) -> float:
    """Calls of fn per second (fn returns how many steps it made)."""
    n, start = 0, time.perf_counter()
    while True:
        n += fn()
        took = time.perf_counter() - start
        if took >= seconds:
            return n / took


def scripted_sessions(app: str, env) -> list[list[Action]]:
    """The recorded sessions whose actions the compiled app takes without complaint."""
    out: list[list[Action]] = []
    for folder in sorted((ROOT / "traces" / app).iterdir()):
        acts = [Action.parse(a) for a in replay_actions(read_traces(folder)[0])
                if a["action_type"] != "answer"]
        env.reset()
        ok = True
        for a in acts:
            *_, info = env.step(a)
            ok = ok and "error" not in info
        if ok:
            out.append(acts)
    return out


def bench_local(app: str, seconds: float) -> None:
    env = gymnasium.make(f"phoneworld/{app}-v0", max_steps=10**9, task=None)
    bare = env.unwrapped
    sessions = scripted_sessions(app, bare)
    steps = sum(map(len, sessions))
    print(f"in-process, {app}: {steps} actions of {len(sessions)} recorded sessions, "
          f"a reset before each session")

    def loop(e, read: str | None):
        def run() -> int:
            for script in sessions:
                e.reset()
                for a in script:
                    obs, _, _, _, info = e.step(a)
                    if read:
                        obs[read]  # noqa: B018
            return steps
        return run

    machine = Machine(bare.backend.specs[0])

    def machine_only() -> int:
        for script in sessions:
            out = machine.reset()
            for a in script:
                out = machine.step(a)  # held, as an RL loop holds its observation
        del out
        return steps
    print(f"  steps/s, scripted, Machine.step alone (the ceiling)       "
          f"{_rate(machine_only, seconds):10,.0f}")
    for label, e in (("gymnasium.make", env), ("bare env", bare)):
        for read in (None, "elements", "xml"):
            what = f"obs[{read!r}] read" if read else "obs not read"
            print(f"  steps/s, scripted, {what:20s} {label:15s} "
                  f"{_rate(loop(e, read), seconds):10,.0f}")

    def random_steps() -> int:
        bare.reset()
        for n in range(1, 51):
            *_, terminated, truncated, _ = bare.step(bare.action_space.sample())
            if terminated or truncated:  # an answer or a status
                return n
        return 50
    bare.action_space.seed(0)
    print(f"  steps/s, random actions (sampled)   bare env        "
          f"{_rate(random_steps, seconds):10,.0f}")
    target = bare.backend.target
    if isinstance(target, Machine):  # what a screen never met before costs
        kept, target.cache = target.cache, RenderCache(size=0)
        bare.action_space.seed(0)
        print(f"  steps/s, random, no render cache    bare env        "
              f"{_rate(random_steps, seconds):10,.0f}")
        target.cache = kept

    wait = Action(action_type="wait")
    bare.reset()

    def env_wait() -> int:
        bare._steps = 0
        for _ in range(100):
            bare.step(wait)
        return 100
    m = Machine(bare.backend.specs[0])
    m.reset()

    def machine_wait() -> int:
        for _ in range(100):
            m.step(wait)
        return 100
    print(f"  steps/s, overhead (wait)            bare env        {_rate(env_wait, seconds):10,.0f}"
          f"   (Machine.step alone {_rate(machine_wait, seconds):,.0f})")

    class Task:
        id, instruction = "bench", "do nothing"

        def check(self, target):
            return True

    for label, task in (("no task", None), ("fixed task", Task())):
        e = make(app, task=task)
        e.reset(seed=0)
        for a in sessions[0][:5]:
            e.step(a)

        def resets(e=e) -> int:
            for _ in range(100):
                e.reset()
            return 100
        print(f"  reset, {label:10s}                                "
              f"{1e3 / _rate(resets, seconds):10.4f} ms")


def bench_http(app: str, seconds: float) -> None:
    from waitress.server import create_server

    folder = ROOT / "generated" / app
    from phoneworld.serve import create_app

    wsgi = create_app(folder)
    server = create_server(wsgi, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.effective_port}"
    env = make(url, app=app, max_steps=10**9)
    sessions = scripted_sessions(app, env)
    steps = sum(map(len, sessions))
    print(f"HTTP, {app} on phoneworld serve (waitress, 4 threads, same process)")

    def dropped() -> int:
        for script in sessions:
            env.reset()
            for a in script:
                env.step(a)
        return steps

    def held() -> int:
        for script in sessions:
            obs, _ = env.reset()
            for a in script:
                obs, *_ = env.step(a)  # alive during the step: its XML is read first
        return steps
    print(f"  steps/s, obs not read (1 request/step)          {_rate(dropped, seconds):10,.0f}")
    print(f"  steps/s, obs held, XML fetched too              {_rate(held, seconds):10,.0f}")
    env.close()
    server.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--app", default="shopping")
    p.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    args = p.parse_args(argv)
    register_envs()
    bench_local(args.app, args.seconds)
    bench_http(args.app, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
