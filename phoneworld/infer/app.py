"""Screen graph + traces -> an `AppSpec`: layouts, content, state, effects, transitions.

    ScreenGraph(home, detail, cart; 14 transitions) + traces
      ->  AppSpec(tables=[home_list…], flags=[…], screens=[…], transitions=[…])

Inference is the sequence of named passes in `PASSES`, each a pure function from one
frozen `Facts` to the next (see `facts`), run in that order; per-step facts (touch
target, widget, action) are read once, before them. To add an inference, write a pass
`Facts -> Facts` that fills its own field and put it in the list where what it reads is
known. The compile report's provenance (which observations each screen, table, module
and effect came from) is filled by the passes as they go.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from phoneworld.infer import coherent
from phoneworld.infer.choices import find_choices
from phoneworld.infer.details import bind_details
from phoneworld.infer.edits import find_row_edits, find_sends, row_effects
from phoneworld.infer.eras import main_era
from phoneworld.infer.facts import Facts, Pass, Provenance, StepFacts, initial_facts
from phoneworld.infer.lists import (
    collect_rows,
    find_screen_lists,
    name_columns,
    parameterise_screens,
)
from phoneworld.infer.representatives import by_opened_row, choose_representatives
from phoneworld.infer.rules import choose_transitions
from phoneworld.infer.saves import find_saves, save_effects
from phoneworld.infer.steppers import find_steppers
from phoneworld.infer.tables import build_tables
from phoneworld.infer.templates import find_row_controls
from phoneworld.infer.timed import find_timed
from phoneworld.infer.toggles import find_flags, find_toggles, switch_texts
from phoneworld.infer.views import build_screens
from phoneworld.ir.model import ScreenGraph
from phoneworld.spec.ast import AppSpec
from phoneworld.traces.appname import app_title
from phoneworld.traces.model import Trace

PASSES: tuple[tuple[str, Pass], ...] = (
    ("eras", main_era),                            # -> one era of the app (a language)
    ("representatives", choose_representatives),  # screens -> the observation per layout
    ("lists", find_screen_lists),                  # -> a (still empty) table per list
    ("parameters", parameterise_screens),          # -> the list whose row a screen shows
    ("rows", collect_rows),                        # -> rows, ctx per observation, taps
    ("opened rows", by_opened_row),                # -> layouts of the row most opened
    ("sends", find_sends),                         # -> rows a typed text created
    ("saves", find_saves),                         # -> texts saved into a list elsewhere
    ("row edits", find_row_edits),                 # -> rows a tap deleted or stepped
    ("columns", name_columns),                     # -> column names
    ("details", bind_details),                     # -> texts bound to the parameter row
    ("flags", find_flags),                         # -> checkable views as flags
    ("toggles", find_toggles),                     # -> steps that flipped them
    ("cross adds", coherent.find_cross_adds),      # -> taps that add a row elsewhere (#21)
    ("tables", build_tables),                      # -> content and state tables
    ("row effects", row_effects),                  # -> insert / delete / update effects
    ("save effects", save_effects),                # -> the inserts of saves
    ("row controls", find_row_controls),           # -> tapped views of other row types
    ("transitions", choose_transitions),           # -> (screen, widget, action) -> target
    ("timed", find_timed),                         # -> screens that give way by themselves
    ("choices", find_choices),                     # -> options that set their row's value
    ("cross effects", coherent.cross_effects),     # -> their inserts (#21)
    ("derived", coherent.derive_numbers),          # -> numbers that follow state (#21)
    ("steppers", find_steppers),                   # -> numbers that taps step
    ("switch texts", switch_texts),                # -> texts that say a flag's state
    ("typed", coherent.keep_typed),                # -> typed values, submits (#21)
    ("unopened", coherent.unopened_params),        # -> no row for screens none opens with
    ("layouts", build_screens),                    # -> screens' view trees and modules
    ("search lists", coherent.search_lists),       # -> results filtered by query (#21)
    ("counters", coherent.typed_counters),         # -> "0 / 200" counts what is typed
    ("picked", coherent.picked_texts),             # -> texts that show what was picked
)
"""The inference passes, in the order they run."""


def run_passes(facts: Facts, passes: Sequence[tuple[str, Pass]] = PASSES) -> Facts:
    """Run `passes` in order over `facts`."""
    for _, run in passes:
        facts = run(facts)
    return facts


def infer_app(name: str, graph: ScreenGraph, traces: Sequence[Trace],
              steps: Sequence[StepFacts] | None = None) -> tuple[AppSpec, Provenance]:
    """Infer a runnable spec for one app (pure, deterministic); `steps` are the steps'
    facts when already read (`facts.step_facts`)."""
    f = run_passes(initial_facts(name, graph, traces, steps))
    title, how = app_title(traces, name)
    spec = AppSpec(name=name, package=graph.package, start=graph.start, width=graph.width,
                   height=graph.height, title=title, source="", tables=f.tables,
                   flags=f.flags, screens=f.views, transitions=f.transitions,
                   notes=(f"title {_TITLE_FROM[how]}",) if how != "folder" else ())
    return spec, _plain(f.provenance)


_TITLE_FROM = {"launcher": "from the launcher row that opened the app",
               "shown": "as the app shows it, spelling a part of its package",
               "package": "made from the package: the traces show no name of the app"}
"""How `traces.appname.app_title` found the app's title, as the spec's note says it."""


def _plain(prov: Provenance) -> Provenance:
    """Provenance as plain dicts and lists, ready for the JSON report."""
    return dataclasses.replace(
        prov, screens={k: list(v) for k, v in prov.screens.items()},
        tables={k: list(v) for k, v in prov.tables.items()},
        effects={k: list(v) for k, v in prov.effects.items()},
        modules={k: dict(v) for k, v in prov.modules.items()}, dropped=list(prov.dropped),
        eras={k: {**v, "observations": list(v["observations"])} for k, v in prov.eras.items()})
