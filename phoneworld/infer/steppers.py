"""Steppers: a number a screen shows that taps step by a constant (font size, quantity).

    settings: text_size_percent "100% (Default)", "110%", ... "180%"; each tap on A+
    adds 10 (and at 180 changes nothing), the tap on A- takes 10 away
      ->  flag settings_text_size_percent: int = 100
          text choose(settings_text_size_percent == 100, "100% (Default)",
                      fixed(settings_text_size_percent, 0) + "%")
          on settings.increase tap -> stay when settings_text_size_percent + 10 <= 180
              { set settings_text_size_percent = settings_text_size_percent + 10 }
          on settings.increase tap -> stay

A text outside lists with one number in it is a stepper's when, checked against every
recorded observation of its screen: it showed at least two values; every step on the
screen that changed it is a tap (or other action) on a widget outside lists all of whose
steps there added one constant, except that at the largest (smallest) recorded value a
step that would go past it changed nothing (the bound); every other step changed
nothing; and between two observations of the screen that are not one step apart (the
app went elsewhere and came back) the value stayed. The text is bound to a number flag
with its recorded format (words around the number, its decimals), a value whose text
had another form (a "(Default)" mark) shown as recorded.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from phoneworld.infer.derived import Shown, shown
from phoneworld.infer.facts import Facts, ObsRef
from phoneworld.infer.keys import last_part, texts_by_key
from phoneworld.infer.layout import identifier, unique
from phoneworld.spec.ast import BinOp, Call, Compare, Const, Effect, Expr, Flag, Ref, Transition

_NUMBER = re.compile(r"\d+")
_EPS = 1e-9


@dataclass(frozen=True)
class Stepper:
    """One stepped number: where it is shown, how, and which widgets step it by what."""

    screen: str
    key: str
    initial: float
    template: tuple[str, str, int]  # words before, words after, decimals
    exceptions: tuple[tuple[float, str], ...]  # values recorded in another form
    steps: tuple[tuple[str, str, float], ...]  # (widget key, action, amount)
    low: float | None  # the bound a step down stopped at (None: never seen)
    high: float | None


def find_steppers(f: Facts) -> Facts:
    """Number flags for the texts that taps step, each bound to its flag, and a `set`
    effect (held at the recorded bound) on every transition of the widgets that step it."""
    values = _recorded_values(f)
    taken = {t.name for t in f.tables} | {x.name for x in f.flags}
    flags, details, notes = list(f.flags), {k: dict(v) for k, v in f.details.items()}, {}
    transitions = list(f.transitions)
    for (screen, key), seen in sorted(values.items()):
        st = _stepper(f, screen, key, seen)
        if st is None:
            continue
        named = _named_steps(f, st)
        if not named or any(t.screen == screen and t.widget == n and t.when is not None
                            for t in transitions for n, _, _ in named):
            continue  # no rule to carry the effect, or rules split already (rows)
        integral = st.template[2] == 0 and all(abs(v - round(v)) < _EPS for v in
                                               (st.initial, *(d for _, _, d in st.steps)))
        name = unique(identifier(f"{screen}_{last_part(key)}"), taken)
        flags.append(Flag(name=name, type="int" if integral else "real",
                          initial=_num(st.initial, integral)))
        details.setdefault(screen, {})[key] = _text(name, st, integral)
        transitions = _with_steps(transitions, screen, name, named, st, integral)
        notes[f"{screen}: {key}"] = (
            "a number stepped by " + ", ".join(f"{n} {a} ({d:+g})" for n, a, d in named),)
    return f.with_(flags=tuple(flags), details=details,
                   transitions=tuple(transitions)).noted(effects=notes)


def _recorded_values(f: Facts) -> dict[tuple[str, str], dict[ObsRef, tuple[float, str]]]:
    """(screen, key in its representative) -> observation -> (number, text), for texts
    with one number outside lists (a label keyed by its text is matched digits masked)."""
    out: dict[tuple[str, str], dict[ObsRef, tuple[float, str]]] = defaultdict(dict)
    reps = {name: {_NUMBER.sub("#", k): k for k in sorted(info.keys) if "[item]" not in k}
            for name, info in f.screens.items()
            if info.root is not None and not info.screen.foreign}
    for ref in sorted(f.where, key=lambda r: (r.trace, r.index)):
        rep = reps.get(f.where[ref])
        root = f.obs[ref].root
        if rep is None or root is None:
            continue
        for key, text in texts_by_key(root).items():
            s = shown(text)
            rkey = rep.get(_NUMBER.sub("#", key))
            if s is not None and rkey is not None:
                out[(f.where[ref], rkey)][ref] = (s.value, text)
    return out


def _held(f: Facts, seen: dict[ObsRef, tuple[float, str]]) -> bool:
    """Whether, in the order the steps were taken, the value only ever changed within
    one step (from its before to its after): never while the app was elsewhere."""
    last: dict[int, float] = {}
    for sf in f.steps:
        for ref in (sf.before, sf.after):
            if ref not in seen:
                continue
            value = seen[ref][0]
            was = last.get(sf.trace)
            last[sf.trace] = value
            if was is not None and abs(was - value) > _EPS and not (
                    ref == sf.after and sf.before in seen):
                return False
    return True


def _stepper(f: Facts, screen: str, key: str,
             seen: dict[ObsRef, tuple[float, str]]) -> Stepper | None:
    if len({v for v, _ in seen.values()}) < 2:
        return None
    if not _held(f, seen):
        return None
    moves: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
    for sf in f.steps:
        if sf.after in seen and sf.before in seen and f.where[sf.before] == screen:
            a, b = seen[sf.before][0], seen[sf.after][0]
            moves[(sf.widget, sf.action)].append((a, b - a))
            if sf.item and abs(b - a) > _EPS:
                return None  # a row's own control: not one number of the screen
    lo, hi = min(v for v, _ in seen.values()), max(v for v, _ in seen.values())
    steps, low, high, changed = [], None, None, 0
    for (widget, action), ms in sorted(moves.items()):
        amounts = {round(d, 9) for _, d in ms if abs(d) > _EPS}
        if not amounts:
            continue
        if len(amounts) > 1:
            return None
        d = amounts.pop()
        for a, delta in ms:
            if abs(delta) > _EPS:
                changed += 1
            elif d > 0 and abs(a - hi) < _EPS:
                high = hi
            elif d < 0 and abs(a - lo) < _EPS:
                low = lo
            else:
                return None  # it changed nothing where it could have
        steps.append((widget, action, d))
    if changed < 2:
        return None
    template, exceptions = _format(list(seen.values()))
    if template is None:
        return None
    first = min(seen, key=lambda r: (r.trace, r.index))
    return Stepper(screen=screen, key=key, initial=seen[first][0], template=template,
                   exceptions=exceptions, steps=tuple(steps), low=low, high=high)


def _format(seen: list[tuple[float, str]]) -> tuple[tuple[str, str, int] | None, tuple]:
    """The words around the number most texts show, and the values shown otherwise (each
    always one text, and fewer than a third of the values); None where there is none."""
    forms: Counter = Counter()
    for _, text in seen:
        s: Shown | None = shown(text)
        if s is not None:
            forms[(s.prefix, s.suffix, s.decimals)] += 1
    template = min(forms, key=lambda k: (-forms[k], k))
    other: dict[float, set[str]] = defaultdict(set)
    kept = set()
    for value, text in seen:
        if _render(template, value) == text:
            kept.add(value)
        else:
            other[value].add(text)
    if len(kept) < 2 or any(len(t) > 1 or v in kept for v, t in other.items()) or \
            3 * len(other) >= len(kept) + len(other):
        return None, ()
    return template, tuple(sorted((v, next(iter(t))) for v, t in other.items()))


def _render(template: tuple[str, str, int], value: float) -> str:
    prefix, suffix, decimals = template
    return f"{prefix}{value:.{decimals}f}{suffix}"


def _named_steps(f: Facts, st: Stepper) -> list[tuple[str, str, float]]:
    info = f.screens[st.screen]
    out = []
    for widget, action, d in st.steps:
        name = info.name_of(widget)
        if not name:
            return []
        out.append((name, action, d))
    return out


def _num(v: float, integral: bool) -> float | int:
    return int(round(v)) if integral else v


def _text(flag: str, st: Stepper, integral: bool) -> Expr:
    prefix, suffix, decimals = st.template
    e: Expr = Call("fixed", args=(Ref((flag,)), Const(decimals)))
    if prefix:
        e = BinOp("+", Const(prefix), e)
    if suffix:
        e = BinOp("+", e, Const(suffix))
    for value, text in reversed(st.exceptions):
        e = Call("choose", args=(Compare("==", Ref((flag,)), Const(_num(value, integral))),
                                 Const(text), e))
    return e


def _with_steps(transitions: list[Transition], screen: str, flag: str,
                named: list[tuple[str, str, float]], st: Stepper,
                integral: bool) -> list[Transition]:
    """Each stepping widget's transitions, first with the step (while it stays within the
    recorded bound), then as they were (at the bound)."""
    by = {(n, a): d for n, a, d in named}
    out = []
    for t in transitions:
        d = by.get((t.widget, t.action)) if t.screen == screen else None
        if d is None:
            out.append(t)
            continue
        op = "+" if d > 0 else "-"
        stepped = BinOp(op, Ref((flag,)), Const(_num(abs(d), integral)))
        bound = st.high if d > 0 else st.low
        when = None if bound is None else \
            Compare("<=" if d > 0 else ">=", stepped, Const(_num(bound, integral)))
        out.append(replace(t, when=when,
                           effects=(*t.effects, Effect(op="set", target=flag,
                                                       values=((flag, stepped),)))))
        if when is not None:
            out.append(t)
    return out
