"""Choices: a dialog's option that, tapped, becomes what the row it was opened on shows.

    settings: row "Theme" / "System Default" -> dialog (param: that row) listing
    "System Default", "Light Theme", "Dark Theme"; tapping "Dark Theme" goes back to
    settings, whose "Theme" row then shows "Dark Theme"
      ->  on settings_theme.text1 tap -> settings {
            update settings_list set summary = item.text1 where id == param.id }

A transition from a screen opened on a list row (its parameter) to that row's screen,
on a tap of the screen's own list, is a choice where, at every recorded such tap after
which the row is in view, the row showed the tapped option's text in one column, always
the same column (of the row) and field (of the option), and at least two different
options were chosen or the row showed another value before: the tap writes the option
into the row. The row's list becomes state (it changes). Where the options are ticked (a
single-choice list: `CheckedTextView`s), the tap also ticks the option it chose among
those listed for that row, and unticks the others:

    update settings_theme_options set checked = id == item.id where ctx == param.id

A single-choice list whose row shows no option (aeondroid's "Planetary hours indicator
style" dialog: "Chakras" ticked, "Planets" not, the row's summary empty) still moves its
tick: where every row it is listed under was recorded with exactly one option ticked, and
a tap on an option closes the dialog, that tap ticks it (the same effect, no write).
"""

from __future__ import annotations

import dataclasses
import re

from phoneworld.infer.facts import Facts
from phoneworld.infer.keys import list_key
from phoneworld.spec.ast import Compare, Effect, Not, Ref


def find_choices(f: Facts) -> Facts:
    """`update` effects for the dialog options that set their row's value (see above)."""
    found: dict[tuple[str, str], tuple[str, str, str]] = {}  # (dialog, widget) -> write
    for dialog, (owner, okey) in sorted(f.params.items()):
        for lkey, lc in sorted(f.lists.get(dialog, {}).items()):
            write = _choice(f, dialog, owner, okey, lkey, lc)
            if write is not None:
                found[(dialog, lkey)] = write
    out, states, notes = [], set(), {}
    for t in f.transitions:
        widget = _list_of(f, t)
        write = found.get((t.screen, widget)) if widget is not None else None
        options = f.lists[t.screen][widget] if widget is not None else None
        if write is None and t.action == "tap" and t.target != t.screen and \
                t.screen in f.params and options is not None and _single_choice(options) \
                and all(_flips(e, options) for e in t.effects):
            # (a flip of the tapped option recorded once is that tick seen: a single
            # choice never unticks the option tapped)
            out.append(dataclasses.replace(t, effects=(_tick(options.table),)))
            notes[f"{t.screen}.{t.widget}"] = (f"a choice: ticks a row of {options.table}",)
            continue
        if write is None or t.action != "tap" or options is None:
            out.append(t)
            continue
        table, column, field = write
        eff = Effect(op="update", target=table, values=((column, Ref(("item", field))),),
                     where=Compare("==", Ref(("id",)), Ref(("param", "id"))))
        effects = (*t.effects, eff)
        if options.checkable is not None:
            # A single-choice list: the option tapped is the one ticked next time the
            # dialog is opened on that row, the others not.
            effects += (_tick(options.table),)
        out.append(dataclasses.replace(t, effects=effects))
        states.add(table)
        notes[f"{t.screen}.{t.widget}"] = (f"a choice: writes {field} into {table}.{column}",)
    tables = tuple(dataclasses.replace(x, kind="state") if x.name in states else x
                   for x in f.tables)
    return f.with_(transitions=tuple(out), tables=tables).noted(effects=notes)


def _tick(table: str) -> Effect:
    """Tick the option tapped among those listed under the dialog's row, untick the rest."""
    return Effect(op="update", target=table,
                  values=(("checked", Compare("==", Ref(("id",)), Ref(("item", "id")))),),
                  where=Compare("==", Ref(("ctx",)), Ref(("param", "id"))))


_SWITCH = re.compile(r"Switch|CheckBox|Toggle", re.I)


def _flips(e: Effect, lc) -> bool:
    """Whether `e` flips the tapped option's tick in `lc`'s table (the toggles' row effect),
    where the options are ticks, not switches or check boxes (rows of those may happen to
    be recorded with one of them on)."""
    return e.op == "update" and e.target == lc.table and \
        e.values == (("checked", Not(Ref(("item", "checked")))),) and \
        not _SWITCH.search(lc.checkable or "")


def _single_choice(lc) -> bool:
    """Whether a list's options are a single choice per row they are listed under: ticks
    recorded, and every such row with two options or more, exactly one of them ticked."""
    if lc.checkable is None:
        return False
    groups: dict[object, list[bool]] = {}
    for r in lc.rows:
        if r[0] in lc.checks:
            groups.setdefault(r[1], []).append(lc.checks[r[0]])
    return bool(groups) and all(ctx is not None and len(ticks) >= 2 and sum(ticks) == 1
                                for ctx, ticks in groups.items())


def _list_of(f: Facts, t) -> str | None:
    """The key of the list whose rows transition `t` taps, or None."""
    info = f.screens.get(t.screen)
    if info is None:
        return None
    for key, path in info.keys.items():
        if info.names.get(path) == t.widget and "[item]" in key:
            return list_key(key)
    return None


def _choice(f: Facts, dialog: str, owner: str, okey: str, lkey: str,
            lc) -> tuple[str, str, str] | None:
    owner_lc = f.lists.get(owner, {}).get(okey)
    if owner_lc is None or owner_lc.table == lc.table:
        return None
    pairs: set[tuple[int, int]] | None = None
    chosen, changed, seen = set(), False, 0
    for sf in f.steps:
        if sf.after is None or f.where.get(sf.before) != dialog or \
                f.where.get(sf.after) != owner or sf.action != "tap" or not sf.item or \
                sf.ref is None or sf.ref.list_key != lkey:
            continue
        row, option = f.ctx_of.get(sf.before), f.tapped.get((sf.trace, sf.index))
        ids = f.row_ids.get(sf.after, {}).get(okey, ())
        if row is None or option is None or row not in ids:
            continue  # the row is not in view (or now reads otherwise): nothing to judge
        shown = f.shown[sf.after][okey][ids.index(row)]
        values = lc.rows[option - 1][2:]
        here = {(i, j) for i, v in enumerate(shown) for j, w in enumerate(values)
                if v and v == w}
        pairs = here if pairs is None else pairs & here
        if not pairs:
            return None
        seen += 1
        chosen.add(values[min(pairs)[1]])
        before = owner_lc.rows[row - 1][2:]
        changed |= any(before[i] != values[j] for i, j in pairs)
    if pairs is None or seen < 2 or (len(chosen) < 2 and not changed):
        return None
    i, j = min(pairs)
    return owner_lc.table, owner_lc.columns[i], lc.columns[j]
