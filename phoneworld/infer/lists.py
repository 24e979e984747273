"""Passes from screens' representatives to their lists' rows: lists, parameters, rows.

    representatives{home, detail}  ->  lists{home: {RecyclerView#list: …}}
      ->  params{detail: (home, RecyclerView#list)}  ->  rows, ctx per observation
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict

from phoneworld.infer import content as C
from phoneworld.infer import extents as E
from phoneworld.infer.facts import Facts
from phoneworld.infer.keys import (
    list_items,
    list_key,
    list_label,
    texts_by_key,
)
from phoneworld.infer.layout import identifier, unique
from phoneworld.ir.model import ObsRef


def find_screen_lists(f: Facts) -> Facts:
    """Every adapter list of a representative becomes a content table (still empty),
    named after its screen and list, unique after sanitising.

        home: RecyclerView#list  ->  lists{home: {key: ListContent(table="home_list")}}
    """
    taken: set[str] = set()
    out: dict[str, dict[str, C.ListContent]] = {}
    for name, info in f.screens.items():
        out[name] = {}
        if info.root is None:
            continue
        for path, key in C.find_lists(info.root):
            node = info.root.at(path)
            lc = C.ListContent(key=key, table=unique(identifier(
                f"{name}_{list_label(node)}"), taken))
            lc.pitch, lc.axis, lc.span, lc.cross = C.layout_pitch(node)
            out[name][key] = lc
    return f.with_(lists=out)


def parameterise_screens(f: Facts) -> Facts:
    """A screen entered by tapping items of a list shows that item's row: its parameter
    is the list it was most often entered from (taps that went back to a screen already
    on the back stack do not count). A list whose item taps stay on its own
    screen but replace most of the list (a folder, a sub-category) parameterises its own
    screen (a drill-down); so does a choice that loads the chosen item into the screen it
    returns to (`loaded_choices`).

        home.list/[item] tap -> detail (x5)  ->  params{detail: (home, list)}
    """
    entries: dict[str, Counter] = defaultdict(Counter)
    for t in f.graph.transitions:
        # A choice that returns to a screen already open (a dialog's option, back to
        # its settings screen) does not open it with the chosen row.
        if t.item and t.target not in ("stay", "back") and t.target in f.screens \
                and t.count > t.returns:
            lkey = list_key(t.widget)
            if lkey in f.lists[t.source]:
                entries[t.target][(t.source, lkey)] += t.count - t.returns
    for (screen, lkey), n in drill_downs(f).items():
        if lkey in f.lists[screen]:
            entries[screen][(screen, lkey)] += n
    for (screen, source), n in loaded_choices(f).items():
        entries[screen][source] += n
    return f.with_(params={target: min(cnt, key=lambda k: (-cnt[k], k))
                           for target, cnt in entries.items()})


def loaded_choices(f: Facts) -> Counter:
    """(screen, (source, list key)) -> how often a choice from that list returned to the
    screen, already open, showing outside its lists a text that follows the item chosen:
    one text per item, and at least two items showing two texts (a file chooser that
    loads the file into the editor below it). Such a screen shows the chosen row, as one
    entered by a tap on an item does. A settings dialog's choice, which changes a row of
    its screen's list and no text of the screen's own, does not count."""
    by_step = {(sf.trace, sf.index): sf for sf in f.steps}
    out: Counter = Counter()
    for t in f.graph.transitions:
        if not t.item or t.target in ("stay", "back") or t.target not in f.screens \
                or t.count > t.returns:
            continue  # (taps that open the screen count as entries already)
        lkey = list_key(t.widget)
        if lkey not in f.lists[t.source]:
            continue
        seen: dict[str, dict[tuple[str, ...], set[str]]] = defaultdict(dict)
        for ex in t.examples:
            sf = by_step.get(tuple(ex))
            if sf is None or sf.after is None or sf.ref is None or sf.ref.item is None:
                continue
            chosen = _chosen(f.obs[sf.before].root, lkey, sf.ref.item)
            after = f.obs[sf.after].root
            if not chosen or after is None:
                continue
            for key, text in texts_by_key(after).items():
                seen[key].setdefault(chosen, set()).add(text)
        if any(len(by_item) >= 2 and all(len(v) == 1 for v in by_item.values())
               and len(set().union(*by_item.values())) >= 2 for by_item in seen.values()):
            out[(t.target, (t.source, lkey))] += t.count
    return out


def _chosen(root, lkey: str, index: int) -> tuple[str, ...]:
    """The texts of item `index` of the list `lkey` of a recorded tree."""
    if root is None:
        return ()
    for path, key in C.find_lists(root):
        if key == lkey and index < len(root.at(path).children):
            item = root.at(path).children[index]
            return tuple(n.text for _, _, n in C.item_fields(item) if n.text)
    return ()


def drill_downs(f: Facts) -> Counter:
    """(screen, list key) -> how often tapping an item of that list stayed on the screen
    but replaced most of the list (at least half of the items are new)."""
    out: Counter = Counter()
    for sf in f.steps:
        if sf.after is None or sf.ref is None or sf.ref.item is None:
            continue
        if sf.before not in f.where or f.where[sf.before] != f.where.get(sf.after):
            continue
        before = list_items(f.obs[sf.before].root, sf.ref.list_key)
        after = list_items(f.obs[sf.after].root, sf.ref.list_key)
        if min(len(before), len(after)) >= 2 and \
                len(before & after) * 2 < min(len(before), len(after)):
            out[(f.where[sf.before], sf.ref.list_key)] += 1
    return out


def collect_rows(f: Facts) -> Facts:
    """Fill every list's table, walking each trace's steps in order.

    An observation's `ctx` (the parameter row its screen shows) is set when the trace
    first reaches it: the row tapped in a list that parameterises the screen, else the
    screen's current parameter when coming back or staying, else none. Also records the
    row id tapped at every (trace, step), and the texts of every item each observation
    shows. A list of a parameterised screen that shows the same rows whatever its row
    (`unbound_lists`) keeps its rows under no row.

        obs 0:3 lists ("Milk", "$2"), ("Eggs", "$3")  ->  rows 1, 2; row_ids{0:3: (1, 2)}
    """
    first = _collect(f, frozenset())
    unbound = unbound_lists(first.lists, f.params)
    return _collect(f, unbound) if unbound else first


def unbound_lists(lists: dict[str, dict[str, C.ListContent]],
                  params: dict[str, tuple[str, str]]) -> frozenset[tuple[str, str]]:
    """(screen, list key) of the lists of parameterised screens that are not lists of
    their screen's row: every row the screen was seen with showed the same rows, and
    either two rows or more showed them or the same list on another screen shows them
    too (a player bar at the bottom of every screen, the tab page an album page lies
    over). A list that parameterises its own screen (a drill-down) always is.

        album(row 5): player bar ("Song A", "Song B"); home: the same bar, same songs
          ->  {(album, player bar)}: `list album_bar`, not `where item.ctx == param.id`
    """
    seen: dict[str, list[tuple[str, frozenset]]] = defaultdict(list)  # key -> rows shown
    for name, mine in lists.items():
        for key, lc in mine.items():
            if lc.rows:
                seen[key].append((name, _shown(lc.rows)))
    out = set()
    for screen, param in params.items():
        for key, lc in lists.get(screen, {}).items():
            groups: dict[int, list] = defaultdict(list)
            for r in lc.rows:
                if r[1] is not None:
                    groups[r[1]].append(r)
            shown = {_shown(rows) for rows in groups.values()}
            if param == (screen, key) or len(shown) != 1:
                continue
            (rows,) = shown
            if rows and (len(groups) >= 2 or (
                    any(s != screen and v == rows for s, v in seen[key]))):
                out.add((screen, key))
    return frozenset(out)


def _shown(rows: list[list]) -> frozenset:
    """What a person sees of rows: each row's non-empty texts, in whatever column."""
    return frozenset(tuple(sorted(v for v in r[2:] if isinstance(v, str) and v))
                     for r in rows)


def _collect(f: Facts, unbound: frozenset[tuple[str, str]]) -> Facts:
    """`collect_rows` with the lists `unbound` collected under no row."""
    lists = copy.deepcopy({k: dict(v) for k, v in f.lists.items()})
    ctx_of: dict[ObsRef, int | None] = {}
    tapped: dict[tuple[int, int], int] = {}
    row_ids: dict[ObsRef, dict[str, tuple[int, ...]]] = {}

    shown: dict[ObsRef, dict[str, list[tuple]]] = {}

    def visit(ref: ObsRef, ctx: int | None) -> dict[str, tuple[int, ...]]:
        if ref not in row_ids:
            ctx_of[ref] = ctx
            mine = lists[f.where[ref]]
            root = f.obs[ref].root
            found = {key: path for path, key in C.find_lists(root)} if mine else {}
            row_ids[ref], shown[ref] = {}, {}
            for key, lc in mine.items():
                if key in found:
                    at = None if (f.where[ref], key) in unbound else ctx
                    ids, values = C.collect(lc, root.at(found[key]), at)
                    E.measure(lc, root.at(found[key]), ids)
                    row_ids[ref][key], shown[ref][key] = tuple(ids), values
        return row_ids[ref]

    current: dict[str, int | None] = {}
    for sf in f.steps:
        if sf.index == 0:
            current = {}
        b = sf.before
        if b not in f.where:
            continue
        src = f.where[b]
        ids = visit(b, ctx_of.get(b, current.get(src)))
        current[src] = ctx_of[b]
        if sf.ref is not None and sf.ref.item is not None:
            got = ids.get(sf.ref.list_key or "")
            if got and sf.ref.item < len(got):
                row = got[sf.ref.item]
                a = sf.after
                if a is not None and f.where.get(a, src) != src:
                    key = sf.ref.list_key or ""
                    row = opened_row(lists[src][key], row,
                                     None if (src, key) in unbound else ctx_of[b],
                                     f.obs[b].root, f.obs[a].root)
                tapped[(sf.trace, sf.index)] = row
        a = sf.after
        if a is None or a not in f.where or a in ctx_of:
            continue
        dst = f.where[a]
        param = f.params.get(dst)
        ctx = None
        if param is not None:
            if (sf.trace, sf.index) in tapped and param[0] == src:
                ctx = tapped[(sf.trace, sf.index)]
            elif dst == src or sf.step.action.kind == "key" or \
                    ((sf.trace, sf.index) in tapped and f.params.get(src, ("",))[0] == dst):
                # back, or an option tapped in a dialog opened on one of dst's rows,
                # closing it: the screen still shows the row it was opened on
                ctx = current.get(dst)
        visit(a, ctx)
        current[dst] = ctx
    for ref in sorted(f.where, key=lambda r: (r.trace, r.index)):
        visit(ref, None)
    texts = {ref: {key: tuple(v + ("",) * (len(lists[f.where[ref]][key].fields) - len(v))
                              for v in values) for key, values in by_key.items()}
             for ref, by_key in shown.items()}
    return f.with_(lists=lists, ctx_of=ctx_of, tapped=tapped, row_ids=row_ids, shown=texts)


def opened_row(lc: C.ListContent, row: int, ctx: int | None, before, after) -> int:
    """(#21) The row a step on a list item opened another screen with: the row it hit,
    unless the screen it opened shows none of that row's texts but, in a column the row
    hit fills too (a row of its kind: not a heading), a text of exactly one other row of
    the list (one the screen before did not show outside its lists): then that row. A
    recording's screen before can be another scroll of the list than the device showed
    (DroidBot keeps one state file per `state_str`, which leaves out texts over 50
    characters, so onelist's scrolled list of long items shares the file of the
    unscrolled one), and a swipe names no row of its own: the editor it opened, showing
    the row's text, tells which row it was."""
    if after is None or not 0 < row <= len(lc.rows):
        return row
    mine = _row_texts(lc.rows[row - 1])
    shown = set(texts_by_key(after).values())
    if not mine or set(mine.values()) & shown:
        return row
    shown -= set(texts_by_key(before).values()) if before is not None else set()
    match = {r[0] for r in lc.rows if r[1] == ctx and r[0] != row and any(
        c in mine and v in shown for c, v in _row_texts(r).items())}
    return match.pop() if len(match) == 1 else row


def _row_texts(r: list) -> dict[int, str]:
    """A row's texts that can tell it apart (of three characters or more), by column."""
    return {c: v for c, v in enumerate(r[2:]) if isinstance(v, str) and len(v.strip()) >= 3}


def name_columns(f: Facts) -> Facts:
    """Column names from the fields' ids (`title`, `price`), unique, never reserved; and
    a column for each description that differs from row to row on its own."""
    lists = copy.deepcopy({k: dict(v) for k, v in f.lists.items()})
    for mine in lists.values():
        for lc in mine.values():
            C.name_columns(lc)
            C.desc_columns(lc)
    return f.with_(lists=lists)
