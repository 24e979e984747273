"""Drawing task instances with a seed, on one app or on a phone of several, and finding
one again by its id.

    sample_tasks([shopping], n=200, seed=0)      -> 200 distinct instances, kinds in turn
    sample_tasks([shopping, messages, settings], n=50, seed=0)
        -> each app's instances ("In Settings, turn on VPN.") and cross-app ones
    find_task(specs, "shopping/ask_product_price_category_product_list#5c1f0a9e")

An app's templates are its spec's task section (the compiler writes one, and `phoneworld
build` gives a spec without one its synthesised templates). Cross-app instances join a
question in one app to a goal in another: either look it up, do the other thing, then
answer (`a+b/ta+tb#ha.hb`), or pass what was found on: send it as a message in the other
app (`a+b/ta>tb#ha.hb`).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterable, Sequence

from phoneworld.runtime.expr import display
from phoneworld.spec.ast import AppSpec, Compare, Const, Expr, Ref, Task
from phoneworld.spec.walk import map_expr
from phoneworld.tasks import phrases as P
from phoneworld.tasks.asked import Cell, answer_cells
from phoneworld.tasks.checkers import Goal, conjuncts, goal_holds
from phoneworld.tasks.instances import KINDS, TaskInstance, draw, fresh_machine
from phoneworld.tasks.sentences import close, is_question, tidy


def templates(spec: AppSpec) -> tuple[Task, ...]:
    """The spec's task templates."""
    return spec.tasks


def instances(spec: AppSpec) -> list[TaskInstance]:
    """Every instance of every template of `spec`, but composites no more than the other
    kinds together: each pairs two goals from rows of its own, so they would swamp the
    rest (377 to 45 on one real app). They are taken a row at a time from each composite
    template in turn, so that every template keeps some."""
    drawn = _drawn(spec)
    room = sum(len(items) for t, items in drawn if t.kind != "composite")
    kept: dict[str, int] = {}
    composites = [(t.name, items) for t, items in drawn if t.kind == "composite"]
    depth = 0
    while room > 0 and any(depth < len(items) for _, items in composites):
        for name, items in composites:
            if room > 0 and depth < len(items):
                kept[name] = depth + 1
                room -= 1
        depth += 1
    return [i for t, items in drawn
            for i in (items if t.kind != "composite" else items[:kept.get(t.name, 0)])]


def _drawn(spec: AppSpec) -> list[tuple[Task, list[TaskInstance]]]:
    """Every template of `spec` with its instances, each question asked once
    (`_distinct`)."""
    return _distinct(spec, [(t, draw(spec, t)) for t in templates(spec)])


def _distinct(spec: AppSpec, drawn: list[tuple[Task, list[TaskInstance]]]
              ) -> list[tuple[Task, list[TaskInstance]]]:
    """`drawn` without an instance that asks what an earlier one asks: the same goals with
    the same values and the same typed text, and words both templates can say ("What is
    written under Greenlight Oakland - Edgewater?" from uber's list of locations and from
    the page of one; shopping's "What is the unit of Strawberries?" from a category and
    from the favourites); or a question that reads a cell an earlier one reads, for the
    same answer (`asked.answer_cells`: onelist's "What is Theme set to?" after "What is
    written under “Theme” on Settings?"). A question about another cell ("What is the
    total of Bananas?", "How much does Bananas cost?": a cart row's and a product's) or
    another heading stays, whatever its answer."""
    said: dict[tuple, set[str]] = {}
    read: dict[str, set[Cell]] = {}
    out = []
    for t, items in drawn:
        kept = []
        for i in items:
            key = (i.kind, _meaning(i.goals), i.typed)
            words = {P.fill(v, i.params) for v in P.variants(t.instruction)}
            cells = answer_cells(spec, t, i)
            if words & said.get(key, set()) or cells & read.get(i.apps[0], set()):
                continue
            said.setdefault(key, set()).update(words)
            read.setdefault(i.apps[0], set()).update(cells)
            kept.append(i)
        out.append((t, kept))
    return out


def _meaning(goals: tuple[Goal, ...]) -> tuple[tuple[str, Expr], ...]:
    """Each goal's condition with its parameters' values put in (names differ between
    templates that mean the same)."""
    out = []
    for g in goals:
        values = g.params
        out.append((g.app, map_expr(g.condition, lambda x, v=values: Const(v[x.path[0]])
                                    if isinstance(x, Ref) and len(x.path) == 1 and
                                    x.path[0] in v else x)))
    return tuple(out)


# -- phones: naming the app, and tasks across apps ------------------------------------------------

def on_phone(inst: TaskInstance, specs: Sequence[AppSpec]) -> TaskInstance:
    """A single-app instance as asked on a phone of several apps: the app is named."""
    if len(specs) < 2 or len(inst.apps) != 1:
        return inst
    app = next(s for s in specs if s.name == inst.apps[0])
    title = app.label
    # (a change of “Dark Theme?” is no question: its "?" is the app's)
    question = inst.kind == "information" and is_question(inst.instruction)
    t = close(P.lower_first(inst.instruction), "?" if question else ".")
    patterns = P.IN_APP_ASK if question else P.IN_APP
    pattern = P.pick(P.join([p for p in patterns if _joins(p, t)] or patterns),
                     "app:" + inst.id)
    if "and {t}" in pattern:
        t = P.unplease(t)  # "Open X and tell me ...", not "... and please tell me"
    text = pattern.replace("{app}", title).replace("{T}", P.upper_first(t)).replace("{t}", t)
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
    pattern = P.pick(P.join(P.ACROSS), iid)
    text = tidy(pattern.replace("{app_a}", titles[app_a]).replace("{app_b}", titles[app_b])
                .replace("{qa}", a.instruction)
                .replace("{b}", P.unplease(P.lower_first(b.instruction))))
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
    found = [v for g in a.goals for v in _answer_params(g) if v in a.params]
    if len(found) != 1 or not _can_pass_on(b):
        raise LookupError(f"{a.id} has no single answer to pass on to {b.id}")
    typed = _typed_param(b)
    value = a.params[found[0]]
    bindings = {**b.params, typed: value}
    ha, hb = a.id.rsplit("#", 1)[1], b.id.rsplit("#", 1)[1]
    iid = f"{app_a}+{app_b}/{a.template}>{b.template}#{ha}.{hb}"
    pattern = P.pick(P.join(P.PASS_ON), iid)
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


def _answer_params(g: Goal) -> list[str]:
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


def _done_already(inst: TaskInstance, specs: Sequence[AppSpec]) -> bool:
    """Whether a goal of `inst` holds right after a reset (a message already sent)."""
    by_name = {s.name: s for s in specs}
    return any(goal_holds(fresh_machine(by_name[g.app]), g) for g in inst.goals)


def _can_pass_on(i: TaskInstance) -> bool:
    """A send: one typed text, and someone (a row named in the task) to send it to."""
    return i.kind == "state" and len(i.typed) == 1 and len(i.goals) == 1 and any(
        isinstance(v, str) and v and display(v) not in i.typed for v in i.params.values())


def _can_lead(i: TaskInstance) -> bool:
    return i.kind == "information"


def _can_follow(i: TaskInstance) -> bool:
    return i.kind in ("state", "navigation")


# -- the public entry points ----------------------------------------------------------------------

def sample_tasks(specs: Sequence[AppSpec], n: int, seed: int) -> list[TaskInstance]:
    """`n` distinct task instances drawn with `seed` (fewer when there are not that many):
    single-app ones for one spec; on several, each app's (naming the app) and cross-app
    ones. Kinds take turns, and templates within a kind, so that every kind is there."""
    if n < 0:
        raise ValueError(f"n must be 0 or more, not {n}")
    specs = list(specs)
    rng = random.Random(seed)
    pools: dict[str, list[list[TaskInstance]]] = {k: [] for k in KINDS}
    for spec in specs:
        for t, items in _drawn(spec):
            if items:
                rng.shuffle(items)
                pools.setdefault(t.kind, []).append([on_phone(i, specs) for i in items])
    cross_pairs = []
    if len(specs) > 1:
        by_app = {s.name: instances(s) for s in specs}
        for a, b in itertools.permutations([s.name for s in specs], 2):
            leads = [i for i in by_app[a] if _can_lead(i)]
            follows = [i for i in by_app[b] if _can_follow(i)]
            if leads and follows:
                cross_pairs.append((leads, follows, cross))
            senders = _one_per_target(i for i in by_app[b] if _can_pass_on(i))
            facts = [i for i in leads if len(_answer_params(i.goals[0])) == 1]
            if facts and senders:
                cross_pairs.append((facts, senders, passed_on))
    for pool in pools.values():
        rng.shuffle(pool)
    out: list[TaskInstance] = []
    ids: set[str] = set()
    cross_tries = 0
    while len(out) < n:
        progressed = False
        for kind in KINDS:
            if len(out) >= n:
                break
            if kind == "cross_app":
                if cross_pairs and cross_tries < 50 * n:
                    leads, follows, join = cross_pairs[rng.randrange(len(cross_pairs))]
                    inst = join(rng.choice(leads), rng.choice(follows), specs)
                    cross_tries += 1
                    progressed = True
                    if inst.id not in ids and not _done_already(inst, specs):
                        ids.add(inst.id)
                        out.append(inst)
                continue
            pool = pools.get(kind, [])
            while pool:
                items = pool.pop(0)
                inst = items.pop()
                if items:
                    pool.append(items)
                if inst.id not in ids:
                    ids.add(inst.id)
                    out.append(inst)
                    progressed = True
                    break
        if not progressed:
            break
    return out


def find_task(specs: Sequence[AppSpec], task_id: str) -> TaskInstance:
    """The instance `task_id` names (as `sample_tasks` made it); `LookupError` if none."""
    specs = list(specs)
    by_name = {s.name: s for s in specs}
    try:
        apps, rest = task_id.split("/", 1)
        names, digest = rest.rsplit("#", 1)
    except ValueError:
        raise LookupError(f"{task_id!r} is not a task id (app/template#hash)") from None
    app_list = apps.split("+")
    missing = [a for a in app_list if a not in by_name]
    if missing:
        raise LookupError(f"no app {missing[0]!r} here ({', '.join(by_name)})")
    if len(app_list) == 1:
        return on_phone(_one(by_name[apps], names, digest), specs)
    sep = ">" if ">" in names else "+"
    if len(app_list) != 2 or names.count(sep) != 1 or digest.count(".") != 1:
        raise LookupError(f"{task_id!r} is not a cross-app task id (a+b/ta+tb#ha.hb or "
                          f"a+b/ta>tb#ha.hb)")
    ta, tb = names.split(sep)
    ha, hb = digest.split(".")
    a, b = _one(by_name[app_list[0]], ta, ha), _one(by_name[app_list[1]], tb, hb)
    return passed_on(a, b, specs) if sep == ">" else cross(a, b, specs)


def _one_per_target(items: Iterable[TaskInstance]) -> list[TaskInstance]:
    """One instance per template and recipient: what it types is replaced by the fact."""
    out: dict[tuple, TaskInstance] = {}
    for i in items:
        typed = _typed_param(i)
        key = (i.template, tuple(sorted((k, display(v)) for k, v in i.params.items()
                                        if k != typed)))
        out.setdefault(key, i)
    return list(out.values())


def _one(spec: AppSpec, template: str, digest: str) -> TaskInstance:
    task = next((t for t in templates(spec) if t.name == template), None)
    if task is None:
        from phoneworld.errors import did_you_mean

        raise LookupError(f"app {spec.name} has no task template {template!r}"
                          f"{did_you_mean(template, [t.name for t in templates(spec)])}")
    for inst in draw(spec, task):
        if inst.id.endswith("#" + digest):
            return inst
    raise LookupError(f"template {spec.name}/{template} has no instance #{digest}")
