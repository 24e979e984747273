"""Checkable views: flags, and the steps that flipped them.

    Switch#wifi (checked in the first observation)  ->  flag settings_wifi = true
    tap on the row, after which wifi is unchecked     ->  toggles{(settings, row, tap):
                                                            (("flag", "settings_wifi"),)}
    Switch "Dimming ON" when checked, "Dimming OFF"   ->  text choose(settings_dim,
      when not, in every recording                          "Dimming ON", "Dimming OFF")
"""

from __future__ import annotations

from phoneworld.infer.facts import Facts
from phoneworld.infer.keys import last_part
from phoneworld.infer.layout import identifier, unique
from phoneworld.spec.ast import Call, Const, Flag, Ref
from phoneworld.ui.node import Node
from phoneworld.ui.widgets import widget_ref


def find_flags(f: Facts) -> Facts:
    """Every checkable view outside lists of an app screen's representative is a flag,
    initially as first recorded (a checkable view inside a list item is a column of the
    list's table instead, see `content.collect`)."""
    flags: list[Flag] = []
    flag_of: dict[tuple[str, str], str] = {}
    taken: set[str] = set()
    for name, info in f.screens.items():
        if info.root is None or info.screen.foreign:
            continue
        for key, path in sorted(info.keys.items()):
            node = info.root.at(path)
            if node.checkable and "[item]" not in key:
                fname = unique(identifier(f"{name}_{last_part(key)}"), taken)
                flags.append(Flag(name=fname, type="bool", initial=_first_checked(f, name, key)))
                flag_of[(name, key)] = fname
    return f.with_(flags=tuple(flags), flag_of=flag_of)


def _first_checked(f: Facts, screen: str, key: str) -> bool:
    for ref in sorted(f.screens[screen].screen.observations, key=lambda r: (r.trace, r.index)):
        root = f.obs[ref].root
        if root is None:
            continue
        for path, node in root.walk():
            if node.checkable and widget_ref(root, path).key == key:
                return node.checked
    return False


def find_toggles(f: Facts) -> Facts:
    """(screen, widget, action) -> the flags (or list items' `checked`) that flipped
    after it, on the same screen."""
    out: dict[tuple, list] = {}
    notes: dict[str, tuple[str, ...]] = {}
    memo: dict = {}

    def checked(ref):  # each observation's check states, worked out once
        if ref not in memo:
            memo[ref] = _checked_states(f.obs[ref].root)
        return memo[ref]

    for sf in f.steps:
        a, b = sf.before, sf.after
        if b is None or a not in f.where or f.where[a] != f.where.get(b):
            continue
        src = f.where[a]
        before, after = checked(a), checked(b)
        for key, was in before.items():
            if key in after and after[key] != was:
                if "[item]" in key:
                    eff = ("item", "checked")
                elif (src, key) in f.flag_of:
                    eff = ("flag", f.flag_of[(src, key)])
                else:
                    continue
                slot = out.setdefault((src, sf.widget, sf.action), [])
                if eff not in slot:
                    slot.append(eff)
                    trace = f.traces[sf.trace]
                    notes[f"{src}.{sf.widget}"] = (
                        f"{trace.source}: {sf.step.source or f'step {sf.index}'} flipped {key}",)
    return f.with_(toggles={k: tuple(v) for k, v in out.items()}).noted(effects=notes)


def _checked_states(root: Node) -> dict[str, bool]:
    return {widget_ref(root, p).key: n.checked for p, n in root.walk() if n.checkable}


def switch_texts(f: Facts) -> Facts:
    """A flag's switch whose text says its state ("Dimming ON" / "Dimming OFF": one text
    whenever it was checked, another whenever not, both recorded) shows the text of the
    flag's state: `choose(flag, on, off)`."""
    kept = {x.name for x in f.flags} - set(f.member)
    texts: dict[tuple[str, str], dict[bool, set[str]]] = {}
    for ref in sorted(f.where, key=lambda r: (r.trace, r.index)):
        screen, root = f.where[ref], f.obs[ref].root
        if root is None:
            continue
        for path, node in root.walk():
            if node.checkable:
                key = (screen, widget_ref(root, path).key)
                if f.flag_of.get(key) in kept:
                    texts.setdefault(key, {}).setdefault(node.checked, set()).add(node.text)
    details = {k: dict(v) for k, v in f.details.items()}
    notes = {}
    for (screen, key), by in sorted(texts.items()):
        pair = state_pair(by)
        if pair is not None:
            flag = f.flag_of[(screen, key)]
            details.setdefault(screen, {})[key] = Call(
                "choose", args=(Ref((flag,)), Const(pair[0]), Const(pair[1])))
            notes[f"{screen}: {key}"] = (f"a text that says the state of {flag}",)
    return f.with_(details=details).noted(effects=notes)


def state_pair(by: dict[bool, set[str]]) -> tuple[str, str] | None:
    """(text when checked, text when not) where a switch showed one text whenever it was
    checked and another whenever not, both recorded and neither empty; else None."""
    on, off = by.get(True, set()), by.get(False, set())
    if len(on) == 1 and len(off) == 1 and on != off and "" not in on | off:
        return next(iter(on)), next(iter(off))
    return None
