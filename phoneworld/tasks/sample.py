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
app (`a+b/ta>tb#ha.hb`); how they are made, and an app named on a phone, is `crossapp`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from phoneworld.spec.ast import AppSpec, Const, Expr, Ref, Task
from phoneworld.spec.walk import map_expr
from phoneworld.tasks import wording as W
from phoneworld.tasks.asked import Cell, answer_cells
from phoneworld.tasks.checkers import Goal
from phoneworld.tasks.crossapp import cross, done_already, on_phone, pairs, passed_on
from phoneworld.tasks.instances import KINDS, TaskInstance, draw


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
    (`_distinct`); fresh lists, the caller may shuffle them."""
    return [(t, list(items)) for t, items in _drawn_once(spec)]


@lru_cache(maxsize=32)
def _drawn_once(spec: AppSpec) -> tuple[tuple[Task, tuple[TaskInstance, ...]], ...]:
    """`_drawn`, cached per spec: wording every instance to find the distinct ones is
    most of a draw's time (a trainer's split draws several times from the same apps)."""
    return tuple((t, tuple(items)) for t, items in
                 _distinct(spec, [(t, draw(spec, t)) for t in templates(spec)]))


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
            words = {W.fill(v, i.params) for v in W.variants(t.instruction)}
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
    cross_pairs = pairs(specs, {s.name: instances(s) for s in specs}) \
        if len(specs) > 1 else []
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
                    if inst.id not in ids and not done_already(inst, specs):
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
