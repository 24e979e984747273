"""The runtime: a `Machine` runs an `AppSpec` — reset, step, observe, check, snapshot.

    from phoneworld.runtime import Machine
    m = Machine(spec); m.reset(); m.step({"action_type": "click", "index": 0})

Modules, one concept each: `state` (SQLite data, exact reset, content versions), `expr`
(evaluating spec expressions), `effects` (what transitions do to the data), `layout`
(what of a screen's views is fixed, worked out once), `render` (screen -> boxes ->
`Node`/XML/elements; `ui.hits` finds the box a touch lands on), `cache` (rendered screens
kept by what they show), `page` (HTML), `actions` (AndroidWorld JSON actions,
validated), `gestures` (what each action does), `machine` (the back stack, transitions,
lazy observations, snapshots), `phone` (several apps behind a launcher, with app
switching). A spec is checked (`spec.check.check_once`) before a machine runs it.
"""

from __future__ import annotations

from phoneworld.runtime.actions import Action
from phoneworld.runtime.machine import Machine, Outcome, Snapshot
from phoneworld.runtime.phone import Phone

__all__ = ["Action", "Machine", "Outcome", "Phone", "Snapshot"]
