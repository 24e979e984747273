"""Training data: task instances, their verified demos and recorded traces as chat examples.

    specs = load_specs(["generated"])
    tasks = sample(specs, 200, seed=0)                       # phoneworld.tasks
    convs = demo_examples(specs, tasks, fmt="androidworld")  # one example per demo step
      -> [{"messages": [system, user(task + screen + last actions), assistant(action)]}]

A demo is replayed on the mock app here, so every example's screen is exactly the one the
policy will see, and a demo whose replay does not pass the task's checker is dropped. What
a demo types or answers that its task does not say (a value it read) is noted in the reply
of the first step whose screen shows it (`Note: "..."`, see `rl.policy`).
Traces with an instruction give one example per step, a tap becoming a click on the
smallest element under it.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Collection, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rl.policy import HISTORY, Shown, carry_places, messages, read_action, reply, step_line, under


def load_specs(apps: Sequence[str | Path]) -> list[Any]:
    """The specs of generated app folders (or folders of them), in a stable order."""
    from phoneworld.apps import find_apps, load_app

    specs = {}
    for a in apps:
        for folder in find_apps(Path(a)):
            spec = load_app(folder).spec
            specs[spec.name] = spec
    return [specs[k] for k in sorted(specs)]


def sample(specs: Sequence[Any], n: int, seed: int,
           kinds: Sequence[str] | None = None) -> list[Any]:
    """`n` task instances drawn with `seed` (phoneworld.tasks.sample_tasks), of `kinds`
    only when given."""
    from phoneworld.tasks import sample_tasks

    if not kinds:
        return list(sample_tasks(list(specs), n, seed))
    drawn = sample_tasks(list(specs), 6 * n, seed)
    return [t for t in drawn if str(getattr(t, "kind", "")) in kinds][:n]


HELD_OUT_SHARE = 0.2
"""The share of every template's instances that training never draws (`held_out_ids`)."""


def _bucket(task_id: str) -> int:
    """A stable pseudo-random number of an instance id (the same under any hash seed)."""
    return zlib.crc32(task_id.encode("utf-8"))


def held_out_ids(specs: Sequence[Any]) -> frozenset[str]:
    """The single-app instances kept out of training on these apps, whatever the seed:
    `HELD_OUT_SHARE` of each template's instances (rounded; those of the lowest
    `_bucket`), never a template's last one. So held-out instances are new parameters of
    templates a model has trained on, and `phoneworld eval` on any app finds them."""
    from phoneworld.tasks import templates
    from phoneworld.tasks.instances import draw

    out: set[str] = set()
    for spec in specs:
        for template in templates(spec):
            ids = sorted((i.id for i in draw(spec, template)), key=lambda i: (_bucket(i), i))
            out.update(ids[:min(len(ids) - 1, round(len(ids) * HELD_OUT_SHARE))])
    return frozenset(out)


def is_held_out(task: Any, held: Collection[str]) -> bool:
    """Whether training leaves `task` out: a single-app instance in `held`
    (`held_out_ids`), a cross-app one by its `_bucket` (`HELD_OUT_SHARE` of them)."""
    if len(getattr(task, "apps", ())) > 1:
        return _bucket(task.id) % 1000 < 1000 * HELD_OUT_SHARE
    return task.id in held


def split(specs: Sequence[Any], n: int, held: int, seed: int,
          kinds: Sequence[str] | None = None) -> tuple[list[Any], list[Any]]:
    """(`n` training instances, `held` held-out ones), in the order one draw with `seed`
    gives them (kinds take turns): held-out ones are those `is_held_out` names, the same
    for every seed and every run on these apps, so no seed trains on what another is
    judged on, and an evaluation that leaves out a run's training instances plays
    held-out ones.

    The draw is of `n + held` instances, or of more (`_wants`) until there are enough of
    both. A draw of more gives the smaller one's first (kinds take turns the same way), so
    one draw, of the size that held-out instances (`HELD_OUT_SHARE`) will likely take, is
    cut to each size in turn; only a draw that comes back short (the apps have no more)
    is done again at each size, as it would be drawn."""
    reserve = held_out_ids(specs)
    likely = next(w for w in _wants(n + held)
                  if w * (1 - HELD_OUT_SHARE) >= 1.1 * (n + held))
    big = sample(specs, likely, seed, kinds)
    for want in _wants(n + held):
        if want <= likely and len(big) == likely:
            pool = big[:want]
        else:
            pool = sample(specs, want, seed, kinds)
        train = [t for t in pool if not is_held_out(t, reserve)]
        test = [t for t in pool if is_held_out(t, reserve)]
        if (len(train) >= n and len(test) >= held) or len(pool) < want:
            return train[:n], test[:held]
    raise AssertionError("unreachable: `_wants` does not end")


def _wants(first: int) -> Iterator[int]:
    """The sizes `split` draws, in turn: `first`, then half as many again (and 10)."""
    want = first
    while True:
        yield want
        want = want * 3 // 2 + 10


def demo_actions(demo: Any) -> list[dict[str, Any]]:
    """The AndroidWorld action dicts of a demo's steps (dicts, `Action`s or objects with an
    `.action`)."""
    out = []
    for s in getattr(demo, "steps", demo):
        a = getattr(s, "action", s) if not isinstance(s, Mapping) else s.get("action", s)
        if hasattr(a, "as_dict"):
            a = a.as_dict()
        out.append({k: v for k, v in dict(a).items() if v is not None})
    return out


def by_label(actions: Sequence[Mapping[str, Any]], specs: Sequence[Any]
             ) -> list[dict[str, Any]]:
    """The actions with `open_app` naming the app as the launcher and the task's words
    do ("Settings", not "settings"), as AndroidWorld's `open_app` takes an app's label:
    the policy copies the name it read."""
    labels = {s.name: s.label for s in specs}
    return [{**a, "app_name": labels.get(a["app_name"], a["app_name"])}
            if a.get("action_type") == "open_app" and a.get("app_name") else dict(a)
            for a in actions]


def target(specs: Sequence[Any]) -> Any:
    """The in-process backend every episode on these apps runs on."""
    from phoneworld.env.backends.local import LocalBackend

    return LocalBackend(list(specs))


def stage(specs: Sequence[Any], task: Any, alone: bool = True) -> tuple[list[Any], Any]:
    """(the apps an episode of `task` runs on, the task as asked there). With `alone`,
    every other single-app instance of a phone of several apps (by `_bucket`) is played
    in its app by itself, as `phoneworld eval --apps generated/APP` asks it: no launcher,
    no "In Shopping, ..."; the rest as drawn."""
    if not alone or len(specs) < 2 or len(task.apps) != 1 or _bucket(task.id) % 2:
        return list(specs), task
    from phoneworld.tasks import find_task

    one = [s for s in specs if s.name == task.apps[0]]
    return one, find_task(one, task.id)


def replay_examples(backend: Any, task: Any, actions: Sequence[Mapping[str, Any]],
                    fmt: str = "androidworld", k: int = HISTORY, reason: bool = False,
                    task_last: bool = False) -> list[dict[str, Any]] | None:
    """Chat examples of one demo replayed on `backend`, or None when it fails the check."""
    from phoneworld.runtime.actions import Action

    view = backend.reset(None, task)
    history: list[str] = []
    noted: list[str] = []
    found = found_values(task.instruction, actions)
    out = []
    w, h = backend.width, backend.height
    shown: Shown | None = None  # what the lists showed, where the step before scrolled
    for a in actions:
        els, now = carry_places(view.elements, shown)
        shown = now if a.get("action_type") == "scroll" else None
        text = reply(a, fmt, elements=els, width=w, height=h)
        msgs = messages(task.instruction, els, history, fmt, k=k, width=w, height=h,
                        noted=noted, task_last=task_last)
        now = [v for v in found if v not in noted and _shows(els, v, task.instruction)]
        said = reply(a, fmt, elements=els, width=w, height=h, reason=reason,
                     note=[_anchored(els, v, task.instruction) for v in now])
        out.append({"messages": [*msgs, {"role": "assistant", "content": said}]})
        history.append(step_line(read_action(text, fmt, w, h), els, text))
        noted += now
        try:
            view = backend.step(Action.parse(dict(a)))
        except Exception:
            return None
    ok, _ = backend.check(task)
    return out if ok else None


def found_values(instruction: str, actions: Sequence[Mapping[str, Any]]) -> list[str]:
    """What a demo answers or types that the task does not say (whole: the place "1" is
    not said by "Order #10483"): values it read in an app, which its examples note on the
    first screen that shows them."""
    from rl.policy import whole_word

    out: list[str] = []
    for a in actions:
        v = str(a.get("text") or "")
        if a.get("action_type") in ("answer", "input_text") and v and v not in out \
                and not whole_word(v).search(instruction):
            out.append(v)
    return out


def _anchored(elements: Sequence[Mapping[str, Any]], value: str, task: str
              ) -> str | tuple[str, str]:
    """A demo's note of `value`: anchored to its line (`rl.policy.anchor`) when
    `rl.policy.ANCHORED` is on and a line shows it."""
    from rl import policy

    where = policy.anchor(elements, value, task) if policy.ANCHORED else None
    return (where, value) if where else value


def _shows(elements: Sequence[Mapping[str, Any]], value: str, task: str = "") -> bool:
    """Whether an element's words hold `value` whole (not "1" inside "12 oz"). A number
    asked by `task` counts only on a line the task names (`rl.policy.reads`, its place
    in its list included: "at which position is Bakery?" is noted where Bakery's row
    shows `#3`, not where a badge shows "3"); a name asked by the place the task names,
    only on the row at that place ("which entry is number 11 on Contacts?": beside
    `#11`, not where Chats shows that name third)."""
    from rl.policy import element_words, named_places, reads, screen_lines, whole_word

    if task and value.isdigit():
        return reads(elements, task, value)
    whole = whole_word(value)
    places = named_places(task)
    if places:
        return any(ln.row in places and any(whole.search(json.loads(w)) for w in ln.words)
                   for ln in screen_lines(elements))
    return any(whole.search(w) for e in elements for w in element_words(e))


def demo_examples(specs: Sequence[Any], tasks: Sequence[Any], fmt: str = "androidworld",
                  k: int = HISTORY, reason: bool = False, *, workers: int = 0,
                  alone: bool = False, task_last: bool = False, anchored: bool = False
                  ) -> list[dict[str, Any]]:
    """One chat example per step of every task's verified demo, played where `stage`
    says (`alone`), its notes anchored to their lines with `anchored` (`rl.policy.
    anchoring`). With `workers` > 1 the demos are planned in that many processes, a
    run of tasks each: the same examples in the same order, sooner (planning is most of
    the time). Tasks are staged here, before the processes start: finding a task again
    in its app alone draws its template, which this process has mostly done already
    (the trainer's split draws them all) and a fresh process would do again."""
    staged = [(tuple(s.name for s in apps), t)
              for apps, t in (stage(specs, t, alone) for t in tasks)]
    if workers > 1 and len(tasks) > 1:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        size = -(-len(staged) // min(workers, len(staged)))
        runs = [staged[i:i + size] for i in range(0, len(staged), size)]
        with ProcessPoolExecutor(max_workers=len(runs),
                                 mp_context=mp.get_context("spawn")) as pool:
            done = pool.map(partial(_staged_examples, fmt=fmt, k=k, reason=reason,
                                    task_last=task_last, anchored=anchored),
                            [list(specs)] * len(runs), runs)
            return [e for part in done for e in part]
    return _staged_examples(specs, staged, fmt, k, reason, task_last=task_last,
                            anchored=anchored)


def _staged_examples(specs: Sequence[Any], staged: Sequence[tuple[tuple[str, ...], Any]],
                     fmt: str = "androidworld", k: int = HISTORY, reason: bool = False, *,
                     task_last: bool = False, anchored: bool = False
                     ) -> list[dict[str, Any]]:
    """`demo_examples` of tasks staged already: (the names of the apps it runs on, the
    task as asked there), in this process."""
    from phoneworld.tasks import make_demo
    from rl.policy import anchoring

    by_name = {s.name: s for s in specs}
    backends: dict[tuple[str, ...], Any] = {}
    out: list[dict[str, Any]] = []
    with anchoring(anchored):
        for key, t in staged:
            apps = [by_name[n] for n in key]
            backend = backends.get(key) or backends.setdefault(key, target(apps))
            demo = make_demo(apps, t, described=False)
            if demo is None or not getattr(demo, "verified", True):
                continue
            out.extend(replay_examples(backend, t, by_label(demo_actions(demo), apps), fmt, k,
                                       reason, task_last) or [])
    return out


def trace_examples(folders: Sequence[str | Path], fmt: str = "androidworld",
                   k: int = HISTORY, reason: bool = False, task_last: bool = False
                   ) -> list[dict[str, Any]]:
    """One chat example per step of every recorded trace that carries an instruction."""
    from phoneworld.device.bridge import elements
    from phoneworld.device.double import replay_actions
    from phoneworld.traces import read_traces

    out: list[dict[str, Any]] = []
    for folder in folders:
        for trace in read_traces(Path(folder)):
            if not trace.instruction:
                continue
            history: list[str] = []
            shown: Shown | None = None
            for step in trace.steps:
                obs = trace.observations[step.before]
                acts = replay_actions(trace.model_copy(update={"steps": (step,)}))
                if not acts or obs.root is None:
                    shown = None
                    continue
                els, now = carry_places(elements(obs.root), shown)
                a = acts[0]
                shown = now if a.get("action_type") == "scroll" else None
                if a.get("action_type") in ("click", "long_press") and a.get("x") is not None:
                    i = under(els, a["x"], a["y"])  # a tap: the smallest element under it
                    a = a if i is None else {"action_type": a["action_type"], "index": i}
                text = reply(a, fmt, elements=els, width=obs.width, height=obs.height)
                msgs = messages(trace.instruction, els, history, fmt, k=k, width=obs.width,
                                height=obs.height, task_last=task_last)
                said = reply(a, fmt, elements=els, width=obs.width, height=obs.height,
                             reason=True) if reason else text
                out.append({"messages": [*msgs, {"role": "assistant", "content": said}]})
                history.append(step_line(read_action(text, fmt, obs.width, obs.height),
                                         els, text))
    return out


def corpus(specs: Sequence[Any], examples: Sequence[Mapping[str, Any]]) -> list[str]:
    """Texts to train the tiny tokenizer on: every screen of the apps and every example."""
    from phoneworld.runtime import Machine
    from rl.policy import screen_text

    texts = []
    for spec in specs:
        m = Machine(spec)
        m.reset(0)
        for screen in spec.screens:
            try:
                els = m.preview(screen.name, "elements")
            except Exception:  # a screen that needs a parameter to render
                continue
            texts.append(screen_text(els))
    for ex in examples:
        texts.extend(m["content"] for m in ex["messages"])
    texts += [f'{{"action_type": "click", "index": {i}}}' for i in range(200)]
    return texts
