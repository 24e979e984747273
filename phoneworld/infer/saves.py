"""Saves: text typed on one screen that a list on another screen shows later in the trace.

    edit_default: type "Hello World" into the file name, tap OK (back to the editor);
    later LOAD lists a row "Hello World" that no earlier look at that list showed
      ->  saves{(edit_default, button1, tap): (load screen, list key, field 0, name, 16)}
          on edit_default.button1 tap -> edit_ajsh_a
              { insert load_list(text1 = input.default) }

A row is new when no earlier look at its list in the trace showed it, nor any look in
any trace before it first typed; the looks a recorder took after its last action (no
step reaches them) count as the trace's last. It belongs to the last tap before it that
left a screen whose field then held the row's text, typed there (the mock's field starts
empty: the typed value is what it inserts). A tap that does not save (CANCEL with the
same text in the field; SAVE, with it in the code, that only opens the name dialog) is
told apart by what came next: the first look after it at that list, at the rows the new
one sits among, without the text. Rows that only exist after such a save are not part of
the initial state (`created`); rows saved with the field's own text ("default") are.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from phoneworld.infer.edits import insert_effect
from phoneworld.infer.facts import Facts
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import Const
from phoneworld.ui.widgets import widget_ref


def find_saves(f: Facts) -> Facts:
    """Typed texts that a tap leaving their screen saved into a list shown elsewhere (see
    the module docstring)."""
    good: dict[tuple, list[tuple]] = defaultdict(list)  # (table, row id) -> candidates
    bad: set[tuple] = set()  # (key, table, ctx): looked at after the tap, without the text
    traces = _by_trace(f)
    before = _before_typing(f, traces)
    for steps in traces:
        typed: set[str] = set()
        pending: list[_Pending] = []
        seen = {k: set(v) for k, v in before.items()}  # table -> rows looked at
        for sf in steps:
            a, b = sf.before, sf.after
            src = f.where.get(a)
            _look(f, a, pending, seen, good, bad)
            if src is None:
                continue
            act = sf.step.action
            if act.kind == "type" and act.text and act.text.strip():
                typed.add(act.text.strip())
                continue
            if act.kind != "tap" or b is None or f.where.get(b) in (None, src):
                continue
            fields = _held(f, a, typed)
            if fields:
                pending.append(_Pending((src, sf.widget, sf.action), fields, set()))
        for ref in _after_all(f, steps):
            _look(f, ref, pending, seen, good, bad)
    out: dict[tuple, tuple] = {}
    for (table, rid), found in sorted(good.items()):
        # The last tap before the row showed up whose field held its text, of those
        # never seen to save nothing there (SAVE, tapped with the text in the code, only
        # opens the file name dialog whose OK saves).
        ctx = f.lists[found[0][1][0]][found[0][1][1]].rows[rid - 1][1]
        owner = next(((k, v) for k, v in reversed(found) if (k, table, ctx) not in bad),
                     None)
        if owner is not None:
            out.setdefault(*owner)
    created: dict[str, set[int]] = defaultdict(set)
    for k, v in f.created.items():
        created[k] |= v
    for screen, lkey, _, _, rid in out.values():
        created[f.lists[screen][lkey].table].add(rid)
    return f.with_(saves=out, created={k: frozenset(v) for k, v in created.items()})


@dataclass
class _Pending:
    key: tuple
    """(screen, widget, action) of the tap."""
    fields: dict[str, str]
    """Field key -> the typed text it held when tapped."""
    judged: set[str]
    """The tables looked at since (the first look at each is what tells)."""


def save_effects(f: Facts) -> Facts:
    """The insert of each save, beside the row effects (a save's own screen has none)."""
    effects = dict(f.effects)
    notes: dict[str, tuple[str, ...]] = {}
    for (src, widget, action), (screen, lkey, column, field_key, rid) in f.saves.items():
        lc = f.lists[screen][lkey]
        eff = insert_effect(f.screens[src], None, lc, column, field_key, rid)
        if eff is None or (src, widget, action) in effects:
            continue
        ctx = lc.rows[rid - 1][1]
        if ctx is not None:  # the new row sits under the row it was listed with
            eff = replace(eff, values=(("ctx", Const(ctx)), *eff.values))
        effects[(src, widget, action)] = eff
        notes[f"{src}.{widget}"] = (f"typed text appeared later as a new row of "
                                    f"{lc.table} on {screen} (row {rid})",)
    return f.with_(effects=effects).noted(effects=notes)


def _by_trace(f: Facts) -> list[list]:
    out: dict[int, list] = defaultdict(list)
    for sf in f.steps:
        out[sf.trace].append(sf)
    return [out[t] for t in sorted(out)]


def _before_typing(f: Facts, traces: list[list]) -> dict[str, set[tuple]]:
    """Per table, the rows any trace showed before it first typed: there from the start,
    whatever a later trace saves."""
    out: dict[str, set[tuple]] = defaultdict(set)
    for steps in traces:
        for sf in steps:
            if sf.step.action.kind == "type":
                break
            screen = f.where.get(sf.before)
            for lkey, rids in f.row_ids.get(sf.before, {}).items() if screen else ():
                lc = f.lists[screen][lkey]
                out[lc.table].update(tuple(lc.rows[r - 1][2:]) for r in rids)
    return out


def _after_all(f: Facts, steps: list) -> list[ObsRef]:
    """The last step's end, then the trace's observations that no step starts or ends at,
    in order: a recorder's looks taken after its last action (ajsha's LOAD list with the
    file saved just before)."""
    if not steps:
        return []
    t = steps[0].trace
    used = {r.index for sf in steps for r in (sf.before, sf.after) if r is not None}
    out = [steps[-1].after] if steps[-1].after is not None else []
    return out + [ObsRef(trace=t, index=i) for i in range(len(f.traces[t].observations))
                  if i not in used]


def _held(f: Facts, ref, typed: set[str]) -> dict[str, str]:
    """Field key -> the typed text an editable field holds in observation `ref`."""
    root = f.obs[ref].root
    if root is None:
        return {}
    out = {}
    for path, node in root.walk():
        if node.editable and node.text and node.text.strip() in typed:
            out[widget_ref(root, path).key] = node.text.strip()
    return out


def _look(f: Facts, ref, pending: list[_Pending], seen: dict, good: dict,
          bad: set) -> None:
    """Judge each pending save by the first look after it at each list (a new row with
    its text: the last such tap made it; none: that tap saved nothing there), then note
    the rows observation `ref` shows."""
    screen = f.where.get(ref)
    if screen is None:
        return
    for lkey, rids in sorted(f.row_ids.get(ref, {}).items()):
        lc = f.lists[screen][lkey]
        rows = {rid: tuple(lc.rows[rid - 1][2:]) for rid in rids}
        texts = {v.strip() for r in rows.values() for v in r if isinstance(v, str)}
        ctxs = {lc.rows[rid - 1][1] for rid in rids}
        open_ = [p for p in pending if p.key[0] != screen and lc.table not in p.judged]
        for p in open_:
            for field_key, text in p.fields.items():
                new = [rid for rid, r in rows.items() if r not in seen.get(lc.table, ()) and
                       any(isinstance(v, str) and v.strip() == text for v in r)]
                if new:
                    column = next(i for i, v in enumerate(rows[new[0]])
                                  if isinstance(v, str) and v.strip() == text)
                    good[(lc.table, new[0])].append(
                        (p.key, (screen, lkey, column, field_key, new[0])))
                elif text not in texts:
                    bad.update((p.key, lc.table, c) for c in ctxs)
        for p in open_:
            p.judged.add(lc.table)
        seen.setdefault(lc.table, set()).update(rows.values())
