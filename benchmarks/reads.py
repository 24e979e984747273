"""Whether a policy reads an app: how much the task moves its first step, before any success.

    python benchmarks/reads.py MODEL APP [APP ...] [--tasks 40] [--seed 5]

For `--tasks` instances of each app (`rl.data.sample`) whose verified demo starts with a click,
the first step's prompt is given to MODEL twice, with the task and with the task "Do it."
(`NULL`), each followed by `Reason: click "`. Printed per app:

- `note first`: the instances whose first reply token is `Note` (argmax, ungrounded); 7% of
  the demos' first steps are notes;
- `pull`: how many nats the task raises the first token of the clicked line's label (mean,
  median): a policy that copies the task onto its line raises it, one that picks by the
  screen alone (or by labels it memorised) does not;
- `top`: the clicks whose label's first token is the most likely of those grounding allows
  there (`rl.ground`).

h0 (twelve apps, Settings left out; benchmarks/LEARN.md 2026-12-08): Settings note first 32 of
40, pull 0.03 / -0.39, top 5 of 25; Shopping 1, 2.29 / 2.58, 34 of 38. Seconds per app on CPU.
"""

from __future__ import annotations

import argparse
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

NULL = "Do it."
CLICK = 'Reason: click "'


def reads(model_dir: str | Path, app: str | Path, n: int = 40, seed: int = 5,
          null: str | None = NULL) -> dict[str, Any]:
    """The figures above for one app (`null` None: the task itself, every pull 0)."""
    import torch

    from rl.data import demo_examples, load_specs, sample, target
    from rl.ground import Grounded, seen_at
    from rl.model import load_policy, prompt_ids
    from rl.policy import messages

    model, tok = load_policy(model_dir)
    model.eval()
    specs = load_specs([app])
    labels = [s.label for s in specs]
    note = tok.convert_tokens_to_ids("Note")
    click = tok.encode(CLICK, add_special_tokens=False)

    def last(ids: Sequence[int]) -> Any:
        with torch.no_grad():
            return torch.log_softmax(model(torch.tensor([list(ids)])).logits[0, -1], -1)

    played = notes = 0
    pulls: list[float] = []
    tops = 0
    for t in sample(specs, n, seed)[:n]:
        demo = demo_examples(specs, [t], reason=True, task_last=True)
        if not demo:
            continue
        els = target(specs).reset(None, t).elements
        prompt = prompt_ids(tok, messages(t.instruction, els, [], task_last=True))
        played += 1
        notes += int(last(prompt).argmax()) == note
        m = re.match(r'Reason: click "(.*?)" \[', demo[0]["messages"][-1]["content"])
        if not m:
            continue
        allowed = Grounded(tok, len(prompt), [seen_at(t.instruction, els, [], labels)]).limit(
            0, torch.tensor(prompt + click))
        first = tok.encode(m.group(1), add_special_tokens=False)[0]
        if not allowed or first not in allowed:
            continue
        with_task = last(prompt + click)
        without = last(prompt_ids(tok, messages(null if null is not None else t.instruction,
                                                els, [], task_last=True)) + click)
        pulls.append(float(with_task[first] - without[first]))
        tops += max(allowed, key=lambda i: (float(with_task[i]), -i)) == first
    return {"app": Path(app).name, "instances": played, "note_first": notes,
            "clicks": len(pulls), "pull_mean": statistics.mean(pulls) if pulls else 0.0,
            "pull_median": statistics.median(pulls) if pulls else 0.0, "top": tops}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("apps", nargs="+")
    ap.add_argument("--tasks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    a = ap.parse_args(argv)
    for app in a.apps:
        r = reads(a.model, app, a.tasks, a.seed)
        print(f"{r['app']}: note first {r['note_first']} of {r['instances']}; pull "
              f"{r['pull_mean']:.2f} / {r['pull_median']:.2f} nats over {r['clicks']} clicks; "
              f"top {r['top']} of {r['clicks']}")


if __name__ == "__main__":
    main()
