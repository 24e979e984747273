"""Screen graph + traces -> an `AppSpec`: layouts, content, state, effects, transitions.

    ScreenGraph(home, detail, cart; 14 transitions) + traces
      ->  AppSpec(tables=[home_list…], flags=[…], screens=[…], transitions=[…])

The passes, in order (each explained in the compile report through `Provenance`):
1. a representative observation per screen (the one whose widgets cover most of the
   screen's recorded transitions; ties: the earliest);
2. lists -> content tables, rows collected from every observation in trace order;
3. parameters: a screen entered by tapping list items shows that item's row;
4. texts that vary between observations of a parameterised screen -> bound to the row;
5. checkable views -> flags (or a `checked` column of a list's now-mutable table), and a
   `toggle` effect on every transition after which the recorded check state flipped;
6. transitions: per (screen, widget, action) the most frequent recorded target.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from phoneworld.infer import content as C
from phoneworld.infer.derived import (
    DESC,
    derive_texts,
    row_totals,
    seen_numbers,
    with_row_totals,
)
from phoneworld.infer.edits import insert_effect, row_edits, sent_rows
from phoneworld.infer.effects import (
    cross_screen_adds,
    memberships,
    with_cross_adds,
    without_flags,
)
from phoneworld.infer.keys import (
    last_part,
    list_items,
    list_key,
    list_label,
    resolve_key,
    texts_by_key,
    widget_keys,
)
from phoneworld.infer.layout import Namer, identifier, interactive, to_view
from phoneworld.infer.modules import recognise
from phoneworld.infer.play import states_at, steps_of
from phoneworld.infer.search import query_filters, with_queries, with_query_lists
from phoneworld.infer.transitions import classify_step, touch_target
from phoneworld.infer.typed import submit_flags, typed_fields, typed_tables, with_submits
from phoneworld.infer.widgets import widget_ref
from phoneworld.ir.model import AbstractScreen, ObsRef, ScreenGraph
from phoneworld.spec.ast import (
    AppSpec,
    BinOp,
    BoolOp,
    Column,
    Compare,
    Const,
    Effect,
    Flag,
    ListOf,
    Not,
    Ref,
    Screen,
    Table,
    Transition,
    View,
)
from phoneworld.spec.emit import emit_expr
from phoneworld.traces.model import Node, NodePath, Trace

_SPEC_ACTIONS = {"tap", "long_press", "type", "submit", "scroll", "back"}


@dataclass
class Provenance:
    """Where each inference came from (for the compile report)."""

    screens: dict[str, list[str]] = field(default_factory=dict)
    tables: dict[str, list[str]] = field(default_factory=dict)
    effects: dict[str, list[str]] = field(default_factory=dict)
    modules: dict[str, dict[str, str]] = field(default_factory=dict)
    dropped: list[str] = field(default_factory=list)


@dataclass
class _ScreenInfo:
    screen: AbstractScreen
    rep: ObsRef | None
    root: Node | None
    lists: dict[str, C.ListContent] = field(default_factory=dict)
    param_list: tuple[str, str] | None = None   # (source screen, list key)
    keys: dict[str, NodePath] = field(default_factory=dict)  # widget key -> path in rep
    names: dict[NodePath, str] = field(default_factory=dict)  # path in rep -> widget name


def infer_app(name: str, graph: ScreenGraph, traces: Sequence[Trace]
              ) -> tuple[AppSpec, Provenance]:
    """Infer a runnable spec for one app (pure, deterministic)."""
    prov = Provenance()
    obs = {ObsRef(trace=t, index=i): o for t, tr in enumerate(traces)
           for i, o in enumerate(tr.observations)}
    where = {ref: s.name for s in graph.screens for ref in s.observations}
    infos = {s.name: _representative(s, graph, traces, obs) for s in graph.screens}
    for s in graph.screens:
        prov.screens[s.name] = [f"{traces[r.trace].source}/{obs[r].source}"
                                for r in s.observations]

    # 2-3: lists and parameters.
    taken: set[str] = set()  # (#21) two lists of one screen may share a label
    for info in infos.values():
        if info.root is None:
            continue
        for path, key in C.find_lists(info.root):
            table = identifier(f"{info.screen.name}_{list_label(info.root.at(path))}")
            while table in taken:
                table += "_2"
            taken.add(table)
            lc = C.ListContent(key=key, table=table)
            lc.pitch, lc.axis, lc.span, lc.cross = C.layout_pitch(info.root.at(path))
            info.lists[key] = lc
    entries: dict[str, Counter] = defaultdict(Counter)
    for t in graph.transitions:
        if t.item and t.target not in ("stay", "back") and t.target in infos:
            lkey = list_key(t.widget)
            if lkey in infos[t.source].lists:
                entries[t.target][(t.source, lkey)] += t.count
    for (screen, lkey), n in _drill_downs(traces, where, obs).items():
        if lkey in infos[screen].lists:
            entries[screen][(screen, lkey)] += n
    for target, cnt in entries.items():
        infos[target].param_list = min(cnt, key=lambda k: (-cnt[k], k))

    ctx_of, tapped, row_ids = _collect_rows(traces, where, infos, obs)
    sends = sent_rows(traces, where, infos, obs, row_ids)
    edits, created = row_edits(traces, where, infos, obs, row_ids, tapped)
    edited = {infos[src].lists[e[1]].table for (src, _, _), e in edits.items()}
    for (src, _, _), (lkey, _, _, rid) in sends.items():
        created[infos[src].lists[lkey].table].add(rid)
    for info in infos.values():
        for lc in info.lists.values():
            C.name_columns(lc)

    # 4: detail texts bound to the parameter row.
    bindings: dict[str, dict[str, Ref]] = {}
    for info in infos.values():
        if info.param_list is None or info.root is None:
            continue
        plc = infos[info.param_list[0]].lists[info.param_list[1]]
        bindings[info.screen.name] = _bind_details(info, plc, obs, ctx_of)

    # 5: toggles.
    flags: list[Flag] = []
    flag_of: dict[tuple[str, str], str] = {}
    for info in infos.values():
        if info.root is None or info.screen.foreign:
            continue
        for key, path in sorted(info.keys.items()):
            node = info.root.at(path)
            if node.checkable and "[item]" not in key:
                fname = identifier(f"{info.screen.name}_{last_part(key)}")
                while any(f.name == fname for f in flags):
                    fname += "_2"
                first = _first_checked(info, key, obs)
                flags.append(Flag(name=fname, type="bool", initial=first))
                flag_of[(info.screen.name, key)] = fname
    toggles = _toggle_evidence(graph, traces, where, obs, infos, flag_of, prov)
    # (#21) cross-screen effects: a tap here after which a row shows up in a list elsewhere
    adds = cross_screen_adds(traces, where, infos, obs, row_ids, ctx_of, set(toggles))
    for add in adds.values():
        created[add.table] |= add.rows
    member = memberships(adds, toggles)  # switches whose state is a row's membership
    flags = [f for f in flags if f.name not in member]

    # Tables.
    tables: list[Table] = []
    for sname in sorted(infos):
        for lc in infos[sname].lists.values():
            mutable = lc.checkable is not None or lc.table in created or lc.table in edited
            rows = [tuple(r) for r in lc.rows if r[0] not in created.get(lc.table, ())]
            if lc.table in edited:
                # A list whose rows are removed and stepped holds one row per thing (a
                # cart line per product): later sightings of the same thing with other
                # numbers were made by actions in the traces, not the initial state.
                seen_first: set = set()
                unique = []
                for r in rows:
                    if (r[1], r[2]) not in seen_first:
                        seen_first.add((r[1], r[2]))
                        unique.append(r)
                rows = unique
            numeric = [i for i in range(len(lc.columns)) if lc.table in edited and rows
                       and all(C.is_int(r[2 + i]) for r in rows)]
            cols = [Column("id", "int"), Column("ctx", "int")] + [
                Column(c, "int" if i in numeric else "text") for i, c in enumerate(lc.columns)]
            rows = [r[:2] + tuple(int(v) if i in numeric else v for i, v in enumerate(r[2:]))
                    for r in rows]
            if lc.checkable is not None:
                # (#21) the recorded state of each row's switch; none where a row has none
                cols.append(Column("checked", "bool"))
                rows = [r + (lc.checks.get(r[0]),) for r in rows]
            tables.append(Table(name=lc.table, kind="state" if mutable else "content",
                                columns=tuple(cols), rows=tuple(rows)))
            prov.tables[lc.table] = [f"{sname}: {lc.key}"]

    inserts = {}
    for (src, widget, action), (lkey, column, field_key, rid) in sends.items():
        eff = insert_effect(infos[src], infos[src].lists[lkey], column, field_key, rid)
        if eff is not None:
            inserts[(src, widget, action)] = eff
            prov.effects[f"{src}.{widget}"] = [
                f"typed text appeared as a new row of {eff.target} (row {rid})"]
    for (src, widget, action), edit in edits.items():
        lc = infos[src].lists[edit[1]]
        where_row = _id_is_item()
        if edit[0] == "delete":
            eff = Effect(op="delete", target=lc.table, where=where_row)
        else:
            col = lc.columns[edit[2]]
            table = next(t for t in tables if t.name == lc.table)
            if dict((c.name, c.type) for c in table.columns)[col] != "int":
                continue
            eff = Effect(op="update", target=lc.table, where=where_row, values=(
                (col, BinOp("+" if edit[3] >= 0 else "-", Ref((col,)), Const(abs(edit[3])))),))
        inserts.setdefault((src, widget, action), eff)
        prov.effects[f"{src}.{widget}"] = [f"the tapped row of {lc.table} "
                                           f"{'vanished' if edit[0] == 'delete' else 'changed'}"]
    transitions = _transitions(graph, infos, toggles, tapped, prov, inserts)
    if adds:  # (#21)
        named = {k: (k[0], infos[k[0]].names.get(resolve_key(k[1], infos[k[0]].keys), ""))
                 for k in adds}
        transitions = without_flags(with_cross_adds(transitions, adds, named), set(member))
        for k, add in adds.items():
            prov.effects[f"{k[0]}.{named[k][1]}"] = [add.source]
    # (#21) derived values: numbers that follow the state, over the traces played on it
    data = AppSpec(name=name, package=graph.package, start=graph.start, tables=tuple(tables),
                   flags=tuple(flags), transitions=tuple(transitions))
    recorded = {lc.table: [dict(zip(["id", "ctx", *lc.columns], r, strict=False))
                           for r in lc.rows] for info in infos.values()
                for lc in info.lists.values()}
    transitions = with_row_totals(transitions, row_totals(data, recorded))
    data = dataclasses.replace(data, transitions=tuple(transitions))
    seen, numbers = seen_numbers(where, infos, obs)
    states = states_at(data, steps_of(traces, where, infos, obs, tapped, ctx_of))
    for (sname, key), e in derive_texts(data, seen, states, numbers).items():
        bindings.setdefault(sname, {})[key] = e
        prov.effects[f"{sname}: {key}"] = ["a number that follows the state: " + emit_expr(e)]
    # (#21) what was typed into each field, and what a submit keeps
    typed = typed_fields(traces, where, infos, obs,
                         {t.name for t in tables} | {f.name for f in flags})
    tables += typed_tables(typed)
    flags += submit_flags(typed)
    transitions = with_submits(transitions, typed)
    searched = query_filters(traces, where, infos, row_ids, typed)
    tables = with_queries(tables, searched)
    screens = [_screen(info, infos, bindings.get(info.screen.name, {}), flag_of, prov, member)
               for info in infos.values()]
    screens = with_query_lists(screens, searched)
    spec = AppSpec(name=name, package=graph.package, start=graph.start, width=graph.width,
                   height=graph.height, title=name, source="",
                   tables=tuple(tables), flags=tuple(flags), screens=tuple(screens),
                   transitions=tuple(transitions))
    return spec, prov


def _collect_rows(traces: Sequence[Trace], where, infos, obs):
    """Fill every list's table, walking each trace's steps in order.

    An observation's `ctx` (the parameter row its screen shows) is set when the trace
    first reaches it: the row tapped in a list that parameterises the screen, else the
    screen's current parameter when coming back or staying, else none. Returns the ctx
    of every observation and the row id tapped at every (trace, step).
    """
    ctx_of: dict[ObsRef, int | None] = {}
    tapped: dict[tuple[int, int], int] = {}
    row_ids: dict[ObsRef, dict[str, list[int]]] = {}

    def visit(ref: ObsRef, ctx: int | None) -> dict[str, list[int]]:
        if ref not in row_ids:
            ctx_of[ref] = ctx
            info = infos[where[ref]]
            found = {key: path for path, key in C.find_lists(obs[ref].root)} \
                if info.lists else {}
            row_ids[ref] = {key: C.collect(lc, obs[ref].root.at(found[key]), ctx)
                            for key, lc in info.lists.items() if key in found}
        return row_ids[ref]

    for t, trace in enumerate(traces):
        current: dict[str, int | None] = {}
        for k, step in enumerate(trace.steps):
            b = ObsRef(trace=t, index=step.before)
            if b not in where:
                continue
            src = where[b]
            ids = visit(b, ctx_of.get(b, current.get(src)))
            current[src] = ctx_of[b]
            target = touch_target(obs[b].root, step.action)
            if target is not None:
                ref_w = widget_ref(obs[b].root, target)
                got = ids.get(ref_w.list_key or "")
                if ref_w.item is not None and got and ref_w.item < len(got):
                    tapped[(t, k)] = got[ref_w.item]
            a = ObsRef(trace=t, index=step.after) if step.after is not None else None
            if a is None or a not in where or a in ctx_of:
                continue
            dst = where[a]
            info = infos[dst]
            ctx = None
            if info.param_list is not None:
                if (t, k) in tapped and info.param_list[0] == src:
                    ctx = tapped[(t, k)]
                elif dst == src or step.action.kind == "key":
                    ctx = current.get(dst)
            visit(a, ctx)
            current[dst] = ctx
    for ref in sorted(where, key=lambda r: (r.trace, r.index)):
        visit(ref, None)
    return ctx_of, tapped, row_ids


def _drill_downs(traces: Sequence[Trace], where, obs) -> Counter:
    """(screen, list key) -> how often tapping an item of that list stayed on the screen
    but replaced most of the list (a folder opened in a file chooser, a sub-category):
    the screen is then parameterised by its own list's rows."""
    out: Counter = Counter()
    for t, trace in enumerate(traces):
        for step in trace.steps:
            if step.after is None:
                continue
            a, b = ObsRef(trace=t, index=step.before), ObsRef(trace=t, index=step.after)
            if a not in where or where[a] != where.get(b):
                continue
            target = touch_target(obs[a].root, step.action)
            if target is None:
                continue
            ref = widget_ref(obs[a].root, target)
            if ref.item is None:
                continue
            before = list_items(obs[a].root, ref.list_key)
            after = list_items(obs[b].root, ref.list_key)
            if min(len(before), len(after)) >= 2 and \
                    len(before & after) * 2 < min(len(before), len(after)):
                out[(where[a], ref.list_key)] += 1
    return out


def _representative(s: AbstractScreen, graph: ScreenGraph, traces: Sequence[Trace],
                    obs: dict[ObsRef, object]) -> _ScreenInfo:
    wanted = {t.widget for t in graph.transitions if t.source == s.name}
    best, best_score, best_keys = None, -1, {}
    for ref in s.observations:
        root = obs[ref].root
        if root is None:
            continue
        keys = widget_keys(root)
        score = sum(1 for w in wanted if resolve_key(w, keys) is not None)
        if score > best_score:
            best, best_score, best_keys = ref, score, keys
    root = obs[best].root if best is not None else None
    named = sorted({p for k, p in best_keys.items() if k in wanted
                    or interactive(root.at(p))}
                   | {p for w in wanted if (p := resolve_key(w, best_keys)) is not None})
    namer = Namer()
    names = {p: namer.name(root.at(p)) for p in named}
    return _ScreenInfo(screen=s, rep=best, root=root, keys=best_keys, names=names)


def _bind_details(info: _ScreenInfo, plc: C.ListContent, obs, ctx_of) -> dict[str, Ref]:
    """Bind each varying text of a parameterised screen to a column of its row."""
    per_key: dict[str, dict[int, str]] = defaultdict(dict)
    for ref in info.screen.observations:
        o = obs[ref]
        if o.root is None or not ctx_of.get(ref):
            continue
        for key, text in texts_by_key(o.root).items():
            per_key[key].setdefault(ctx_of[ref], text)
    rows = {r[0]: r for r in plc.rows}
    out: dict[str, Ref] = {}
    for key, values in sorted(per_key.items()):
        if len(set(values.values())) <= 1 and len(values) > 1:
            continue  # the same on every row: a literal label
        col = None
        for c, cname in enumerate(plc.columns):
            if all(rows[r][2 + c] == v for r, v in values.items() if r in rows):
                col = cname
                break
        if col is None:
            col = identifier(f"d_{last_part(key)}")
            while col in plc.columns:
                col += "_2"
            plc.columns.append(col)
            plc.fields.append(f"detail:{key}")
            for r in plc.rows:
                r.append(values.get(r[0], ""))
        out[key] = Ref(("param", col))
    return out


def _first_checked(info: _ScreenInfo, key: str, obs) -> bool:
    for ref in sorted(info.screen.observations, key=lambda r: (r.trace, r.index)):
        root = obs[ref].root
        if root is None:
            continue
        for path, node in root.walk():
            if node.checkable and widget_ref(root, path).key == key:
                return node.checked
    return False


def _checked_states(root: Node) -> dict[str, bool]:
    return {widget_ref(root, p).key: n.checked for p, n in root.walk() if n.checkable}


def _toggle_evidence(graph, traces, where, obs, infos, flag_of, prov) -> dict[tuple, list]:
    """(screen, widget, action) -> toggle effects, from check states that flipped."""
    out: dict[tuple, list] = defaultdict(list)
    for t, trace in enumerate(traces):
        for k, step in enumerate(trace.steps):
            if step.after is None:
                continue
            a, b = ObsRef(trace=t, index=step.before), ObsRef(trace=t, index=step.after)
            if a not in where or where[a] != where.get(b):
                continue
            before, after = _checked_states(obs[a].root), _checked_states(obs[b].root)
            widget, action, _, _ = classify_step(obs[a].root, step)
            for key, was in before.items():
                if key in after and after[key] != was:
                    if "[item]" in key:
                        eff = ("item", "checked")
                    elif (where[a], key) in flag_of:
                        eff = ("flag", flag_of[(where[a], key)])
                    else:
                        continue
                    slot = out[(where[a], widget, action)]
                    if eff not in slot:
                        slot.append(eff)
                        prov.effects[f"{where[a]}.{widget}"] = [
                            f"{trace.source}: {step.source or f'step {k}'} flipped {key}"]
    return out


def _screen(info: _ScreenInfo, infos, details: dict[str, Ref], flag_of, prov,
            member=None) -> Screen:
    s = info.screen
    param = None
    if info.param_list is not None:
        param = infos[info.param_list[0]].lists[info.param_list[1]].table
    if info.root is None:
        root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 0, 0))
        return Screen(name=s.name, priority=s.priority, root=root, package=s.package,
                      activity=s.activity, foreign=s.foreign, param=param,
                      seen=len(s.observations))
    names = info.names
    root = info.root
    lists: dict[NodePath, tuple[ListOf, View]] = {}
    list_paths = {key: path for path, key in C.find_lists(root)}
    for key, lc in info.lists.items():
        lpath = list_paths.get(key)
        if lpath is None or not root.at(lpath).children:
            continue
        item = root.at(lpath).children[0]
        fields = {rel: (lc.columns[lc.fields.index(k)] if k in lc.fields else None)
                  for k, rel, _ in C.item_fields(item)}
        check_rel = {rel for k, rel, n in C.item_fields(item) if k == lc.checkable}

        def item_text(rel, node, fields=fields):
            col = fields.get(rel)
            return Ref(("item", col)) if col else (Const(node.text) if node.text else None)

        descs = {rel: C.description(lc, k) for k, rel, _ in C.item_fields(item, described=True)}

        def item_desc(rel, node, descs=descs):
            bound = descs.get(rel)
            return bound or (Const(node.content_desc) if node.content_desc else None)

        def item_checked(rel, node, check_rel=check_rel):
            if rel in check_rel:
                return Ref(("item", "checked"))
            return Const(True) if node.checkable and node.checked else None

        item_names = {p[len(lpath) + 1:]: n for p, n in names.items()
                      if p[:len(lpath) + 1] == lpath + (0,)}
        template = to_view(item, names=item_names, text_of=item_text,
                           checked_of=item_checked, lists={}, desc_of=item_desc)
        where = Ref(("item", "ctx"))
        cond = None
        if param is not None and any(r[1] is not None for r in lc.rows):
            cond = Compare("==", where, Ref(("param", "id")))
        lists[lpath] = (ListOf(table=lc.table, where=cond, pitch=lc.pitch, axis=lc.axis,
                               span=lc.span, cross=lc.cross), template)
    path_keys = {p: k for k, p in info.keys.items()}

    def text_of(path, node):
        if node.text:
            key = widget_ref(root, path).key
            if key in details:
                return details[key]
            return Const(node.text)
        return None

    def checked_of(path, node):
        key = path_keys.get(path)
        if key is not None and (s.name, key) in flag_of:
            flag = flag_of[(s.name, key)]
            return (member or {}).get(flag) or Ref((flag,))  # (#21) per row, where it is
        return Const(True) if node.checkable and node.checked else None

    def desc_of(path, node):  # (#21) a description may follow the state ("Cart, 4 items")
        if not node.content_desc:
            return None
        return details.get(DESC + widget_ref(root, path).key) or Const(node.content_desc)

    view = to_view(root, names=names, text_of=text_of, checked_of=checked_of, lists=lists,
                   desc_of=desc_of)
    modules = recognise(view, info.lists, param, flag_of, s.name)
    prov.modules[s.name] = modules
    return Screen(name=s.name, priority=s.priority, root=view, package=s.package,
                  activity=s.activity, foreign=s.foreign, param=param,
                  modules=tuple(sorted(modules)), seen=len(s.observations))


def _transitions(graph: ScreenGraph, infos, toggles, tapped, prov,
                 inserts=None) -> list[Transition]:
    """Per (screen, widget, action): the most frequent recorded target; where taps on
    different list rows went to different screens (a folder vs a file), a transition
    with a `when` on the row for each other target, tried before the default."""
    groups: dict[tuple, list] = defaultdict(list)
    for t in graph.transitions:
        if t.action not in _SPEC_ACTIONS or (t.action == "scroll" and t.target == "stay"):
            continue
        groups[(t.source, t.widget, t.action)].append(t)
    out = []
    for (src, widget, action), ts in sorted(groups.items()):
        info = infos[src]
        if action == "back":
            name = "back"
        else:
            path = resolve_key(widget, info.keys)
            name = info.names.get(path, "") if path is not None else ""
            if not name:
                prov.dropped.append(f"{src}: {action} on {widget} (not in the layout)")
                continue
        effects = tuple(_effects(info, widget, toggles.get((src, widget, action), [])))
        if inserts and (src, widget, action) in inserts:
            effects += (inserts[(src, widget, action)],)
        ts = sorted(ts, key=lambda t: (-t.count, t.target))
        default = ts[0]
        for target, when, count in _row_variants(ts, default.target, tapped):
            out.append(_transition(info, infos, name, widget, action, target, True, when,
                                   effects, count))
        out.append(_transition(info, infos, name, widget, action, default.target,
                               default.item, None, effects, default.count))
    return out


def _row_variants(ts, default: str, tapped) -> list[tuple[str, object, int]]:
    if not any(t.item for t in ts) or len({t.target for t in ts}) < 2:
        return []
    per_row: dict[int, Counter] = defaultdict(Counter)
    for t in ts:
        for ex in t.examples:
            row = tapped.get(ex)
            if row is not None:
                per_row[row][t.target] += 1
    by_target: dict[str, list[int]] = defaultdict(list)
    counts: Counter = Counter()
    for row, c in sorted(per_row.items()):
        target = min(c, key=lambda x: (-c[x], x))
        if target != default:
            by_target[target].append(row)
            counts[target] += c[target]
    out = []
    for target, rows in sorted(by_target.items()):
        tests = tuple(Compare("==", Ref(("item", "id")), Const(r)) for r in rows)
        out.append((target, tests[0] if len(tests) == 1 else BoolOp("or", tests),
                    counts[target]))
    return out


def _transition(info, infos, name, widget, action, target, item, when, effects,
                count) -> Transition:
    lkey = list_key(widget)
    if target == "stay" and item and info.param_list == (info.screen.name, lkey):
        target = info.screen.name  # a drill-down: the same screen, one level deeper
    with_param = None
    if item and target in infos and infos[target].param_list == (info.screen.name, lkey):
        with_param = Ref(("item",))
    return Transition(screen=info.screen.name, widget=name, action=action, target=target,
                      with_param=with_param, when=when, effects=effects, count=count)


def _effects(info, widget: str, toggles) -> list[Effect]:
    out = []
    for kind, what in toggles:
        if kind == "flag":
            out.append(Effect(op="toggle", target=what))
            continue
        table = _item_table(info, widget, mutable_only=True)
        if table:
            # (#21) only a row that has a switch: the others have no state to flip
            has_switch = Compare("!=", Ref(("checked",)), Const(None))
            out.append(Effect(op="update", target=table,
                              values=(("checked", Not(Ref(("item", "checked")))),),
                              where=BoolOp("and", (_id_is_item(), has_switch))))
    return out


def _id_is_item():
    return Compare("==", Ref(("id",)), Ref(("item", "id")))


def _item_table(info: _ScreenInfo, widget: str, mutable_only: bool = False) -> str | None:
    lc = info.lists.get(list_key(widget))
    if lc is None or (mutable_only and lc.checkable is None):
        return None
    return lc.table
