"""Instances on a phone of several apps: each app's named, and tasks across two apps.

    on_phone(i, [shopping, settings])       -> "In Settings, turn on VPN."
    cross(a, b, specs)     a+b/ta+tb#ha.hb   -> look up a's answer, do b, then answer
    passed_on(a, b, specs) a+b/ta>tb#ha.hb   -> look up a's answer, send it with b

A question leads (`can_lead`); a state or navigation goal follows (`can_follow`); a send
of one typed text to someone named in it takes the answer on (`can_pass_on`), its check
reading the sent text as an answer is read (`~`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence

from phoneworld.runtime.expr import display
from phoneworld.spec.ast import AppSpec, Compare, Expr, Ref
from phoneworld.spec.walk import map_expr
from phoneworld.tasks import phrases as P
from phoneworld.tasks import wording as W
from phoneworld.tasks.checkers import Goal, conjuncts, goal_holds
from phoneworld.tasks.instances import TaskInstance, fresh_machine
from phoneworld.tasks.sentences import close, is_question, tidy

Join = Callable[[TaskInstance, TaskInstance, Sequence[AppSpec]], TaskInstance]


def pairs(specs: Sequence[AppSpec], by_app: dict[str, list[TaskInstance]]
          ) -> list[tuple[list[TaskInstance], list[TaskInstance], Join]]:
    """(leads, follows, how to join them) for every ordered pair of apps: a question
    with a goal (`cross`), and a fact with a send that passes it on (`passed_on`)."""
    out: list[tuple[list[TaskInstance], list[TaskInstance], Join]] = []
    for a, b in itertools.permutations([s.name for s in specs], 2):
        leads = [i for i in by_app[a] if can_lead(i)]
        follows = [i for i in by_app[b] if can_follow(i)]
        if leads and follows:
            out.append((leads, follows, cross))
        senders = one_per_target(i for i in by_app[b] if can_pass_on(i))
        facts = [i for i in leads if len(answer_params(i.goals[0])) == 1]
        if facts and senders:
            out.append((facts, senders, passed_on))
    return out


def on_phone(inst: TaskInstance, specs: Sequence[AppSpec]) -> TaskInstance:
    """A single-app instance as asked on a phone of several apps: the app is named."""
    if len(specs) < 2 or len(inst.apps) != 1:
        return inst
    app = next(s for s in specs if s.name == inst.apps[0])
    title = app.label
    # (a change of “Dark Theme?” is no question: its "?" is the app's)
    question = inst.kind == "information" and is_question(inst.instruction)
    t = close(W.lower_first(inst.instruction), "?" if question else ".")
    patterns = P.IN_APP_ASK if question else P.IN_APP
    pattern = W.pick(W.join([p for p in patterns if _joins(p, t)] or patterns),
                     "app:" + inst.id)
    if "and {t}" in pattern:
        t = W.unplease(t)  # "Open X and tell me ...", not "... and please tell me"
    text = pattern.replace("{app}", title).replace("{T}", W.upper_first(t)).replace("{t}", t)
    return dataclasses.replace(inst, instruction=text)


def _joins(pattern: str, t: str) -> bool:
    """Whether an instruction reads well after "Open {app} and": it starts with another
    verb ("Open Aeondroid and open Settings" stutters) and has no "and" of its own
    ("Open Ajsha and tap “SAVE” and ...")."""
    if "and {t}" not in pattern:
        return True
    return t.split(" ", 1)[0].lower() != pattern.split(" ", 1)[0].lower() and \
        " and " not in t


def cross(a: TaskInstance, b: TaskInstance, specs: Sequence[AppSpec]) -> TaskInstance:
    """A question in one app with a goal in another: look it up, do the other thing,
    then answer."""
    titles = {s.name: s.label for s in specs}
    app_a, app_b = a.apps[0], b.apps[0]
    ha, hb = a.id.rsplit("#", 1)[1], b.id.rsplit("#", 1)[1]
    iid = f"{app_a}+{app_b}/{a.template}+{b.template}#{ha}.{hb}"
    pattern = W.pick(W.join(P.ACROSS), iid)
    text = tidy(pattern.replace("{app_a}", titles[app_a]).replace("{app_b}", titles[app_b])
                .replace("{qa}", a.instruction)
                .replace("{b}", W.unplease(W.lower_first(b.instruction))))
    params = {f"{app_a}.{k}": v for k, v in a.params.items()}
    params.update({f"{app_b}.{k}": v for k, v in b.params.items()})
    return TaskInstance(id=iid, kind="cross_app", instruction=text, apps=(app_a, app_b),
                        params=params, template=f"{app_a}.{a.template}+{app_b}.{b.template}",
                        goals=a.goals + b.goals, show=a.show + b.show,
                        typed=a.typed + b.typed)


def passed_on(a: TaskInstance, b: TaskInstance, specs: Sequence[AppSpec]) -> TaskInstance:
    """A fact found in one app, used in another: look up `a`'s answer, then do `b` with
    that answer as the text it types (send it as a message). `b`'s check compares the
    typed text with `~`, so "4.29" passes for "$4.29"."""
    titles = {s.name: s.label for s in specs}
    app_a, app_b = a.apps[0], b.apps[0]
    found = [v for g in a.goals for v in answer_params(g) if v in a.params]
    if len(found) != 1 or not can_pass_on(b):
        raise LookupError(f"{a.id} has no single answer to pass on to {b.id}")
    typed = _typed_param(b)
    value = a.params[found[0]]
    bindings = {**b.params, typed: value}
    ha, hb = a.id.rsplit("#", 1)[1], b.id.rsplit("#", 1)[1]
    iid = f"{app_a}+{app_b}/{a.template}>{b.template}#{ha}.{hb}"
    pattern = W.pick(W.join(P.PASS_ON), iid)
    name = next((v for k, v in b.params.items() if k != typed and isinstance(v, str)), "")
    text = tidy(pattern.replace("{app_a}", titles[app_a]).replace("{app_b}", titles[app_b])
                .replace("{qa}", a.instruction).replace("{n}", display(name)))
    (goal,) = b.goals
    goal = Goal(goal.app, _loosen(goal.condition, typed), tuple(bindings.items()))
    params = {f"{app_a}.{k}": v for k, v in a.params.items()}
    params.update({f"{app_b}.{k}": v for k, v in bindings.items()})
    shown = tuple(v for _, vs in a.show for v in vs) + (value,)
    return TaskInstance(id=iid, kind="cross_app", instruction=text, apps=(app_a, app_b),
                        params=params, template=f"{app_a}.{a.template}>{app_b}.{b.template}",
                        goals=(goal,), show=((app_a, shown),), typed=(display(value),))


def answer_params(g: Goal) -> list[str]:
    """The parameters an `answer` is compared with in a goal (`answer ~ v` -> ["v"])."""
    out = []
    for c in conjuncts(g.condition):
        if isinstance(c, Compare) and Ref(("answer",)) in (c.left, c.right):
            other = c.right if c.left == Ref(("answer",)) else c.left
            if isinstance(other, Ref) and len(other.path) == 1:
                out.append(other.path[0])
    return out


def _typed_param(b: TaskInstance) -> str:
    """The parameter of `b` whose value it types (the message of a send)."""
    return next(k for k, v in b.params.items() if display(v) in b.typed)


def _loosen(e: Expr, param: str) -> Expr:
    """`col == param` -> `col ~ param`: typed text matches as an answer does."""
    def loosen(x: Expr) -> Expr:
        if isinstance(x, Compare) and x.op == "==" and Ref((param,)) in (x.left, x.right):
            return dataclasses.replace(x, op="~")
        return x
    return map_expr(e, loosen)


def done_already(inst: TaskInstance, specs: Sequence[AppSpec]) -> bool:
    """Whether a goal of `inst` holds right after a reset (a message already sent)."""
    by_name = {s.name: s for s in specs}
    return any(goal_holds(fresh_machine(by_name[g.app]), g) for g in inst.goals)


def can_pass_on(i: TaskInstance) -> bool:
    """A send: one typed text, and someone (a row named in the task) to send it to."""
    return i.kind == "state" and len(i.typed) == 1 and len(i.goals) == 1 and any(
        isinstance(v, str) and v and display(v) not in i.typed for v in i.params.values())


def can_lead(i: TaskInstance) -> bool:
    return i.kind == "information"


def can_follow(i: TaskInstance) -> bool:
    return i.kind in ("state", "navigation")


def one_per_target(items: Iterable[TaskInstance]) -> list[TaskInstance]:
    """One instance per template and recipient: what it types is replaced by the fact."""
    out: dict[tuple, TaskInstance] = {}
    for i in items:
        typed = _typed_param(i)
        key = (i.template, tuple(sorted((k, display(v)) for k, v in i.params.items()
                                        if k != typed)))
        out.setdefault(key, i)
    return list(out.values())
