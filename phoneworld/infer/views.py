"""Screens' layouts: each representative's view tree, with its data bindings and modules.

    representative of detail + details{title: param.name}  ->  Screen(detail, root=View(…
        TextView(text=param.name)…), modules=("detail",))
"""

from __future__ import annotations

from collections import Counter

from phoneworld.infer import content as C
from phoneworld.infer import extents as E
from phoneworld.infer import templates as T
from phoneworld.infer.derived import DESC
from phoneworld.infer.facts import Facts, ScreenFacts
from phoneworld.infer.keys import list_key
from phoneworld.infer.layout import to_view, view_path
from phoneworld.infer.modules import recognise
from phoneworld.spec.ast import Compare, Const, ListOf, Ref, Screen, View
from phoneworld.ui.dialogs import dialog_layer, dialog_window
from phoneworld.ui.node import NodePath
from phoneworld.ui.widgets import widget_ref


def build_screens(f: Facts) -> Facts:
    """Every screen's layout (from its representative) with lists bound to their tables,
    item templates from each list's first item, texts bound to the parameter where they
    vary with it, checkable views to their flags; and the modules recognised in it."""
    views = []
    modules = {}
    for info in f.screens.values():
        screen, found = _screen(f, info)
        views.append(screen)
        if info.root is not None:
            modules[screen.name] = found
    return f.with_(views=tuple(views)).noted(modules=modules)


def _opened(f: Facts, info: ScreenFacts, table: str) -> int | None:
    """The row of `table` the observation the screen's layout comes from shows, where the
    table holds it; None where it shows none (a list with no group expanded), and the
    runtime shows the lowest row a transition opens it with. A dialog opened on a list's
    row shows a row it was opened on, whatever rows a transition would let open it
    (activitylauncher's Theme dialog, not the "Settings" heading), and the one its layout
    was recorded with fits that layout (a dialog of ten choices is taller than one of
    three, its title higher); the representative is one of the row shown most often
    (`representatives.by_opened_row`), so this is that row (#22)."""
    keys = {r[0] for t in f.tables if t.name == table for r in t.rows}
    own = f.ctx_of.get(info.rep) if info.rep is not None else None
    return own if own is not None and own in keys else None


def _screen(f: Facts, info: ScreenFacts) -> tuple[Screen, dict[str, str]]:
    s = info.screen
    details = f.details.get(s.name, {})
    flag_of = f.flag_of
    mine = f.lists.get(s.name, {})
    param = opened = None
    if s.name in f.params:
        src, lkey = f.params[s.name]
        param = f.lists[src][lkey].table
        opened = _opened(f, info, param)
    window, over = _dialog(f, info)
    if info.root is None:
        root = View(cls="android.widget.FrameLayout", bounds=(0, 0, 0, 0))
        return Screen(name=s.name, priority=s.priority, root=root, package=s.package,
                      activity=s.activity, foreign=s.foreign, param=param,
                      seen=len(s.observations), opened=opened, window=window,
                      over=over), {}
    names = info.names
    root = info.root
    lists: dict[NodePath, tuple[ListOf, View]] = {}
    list_paths = {key: path for path, key in C.find_lists(root)}
    for key, lc in mine.items():
        lpath = list_paths.get(key)
        if lpath is None or not root.at(lpath).children:
            continue
        index = T.template_index(root.at(lpath))
        at = lpath + (index,)
        inner = {k.partition("/[item]")[2]: (p[len(at):], n) for k, (p, n, _) in
                 info.inner.items() if p[:len(at)] == at and list_key(k) == key}
        item, added = T.template_item(lc, root.at(lpath), frozenset(inner))
        fields = {rel: (lc.columns[lc.fields.index(k)] if k in lc.fields else None)
                  for k, rel, _ in C.item_fields(item)}
        fields.update((rel, lc.columns[lc.fields.index(k)]) for rel, k in added.items()
                      if not k.startswith(C.DESC))
        check_rel = {rel for k, rel, n in C.item_fields(item) if k == lc.checkable}

        def item_text(rel, node, fields=fields):
            col = fields.get(rel)
            return Ref(("item", col)) if col else (Const(node.text) if node.text else None)

        descs = {rel: C.description(lc, k) for k, rel, _ in C.item_fields(item, described=True)}
        descs.update((rel, Ref(("item", lc.columns[lc.fields.index(k)])))
                     for rel, k in added.items() if k.startswith(C.DESC))

        def item_desc(rel, node, descs=descs):
            bound = descs.get(rel)
            return bound or (Const(node.content_desc) if node.content_desc else None)

        def item_checked(rel, node, check_rel=check_rel):
            if rel in check_rel:
                return Ref(("item", "checked"))
            return Const(True) if node.checkable and node.checked else None

        item_names = {p[len(lpath) + 1:]: n for p, n in names.items()
                      if p[:len(lpath) + 1] == lpath + (index,)}
        item_names.update(inner.values())  # (#21) tapped views of other row types
        template = to_view(item, names=item_names, text_of=item_text,
                           checked_of=item_checked, lists={}, desc_of=item_desc)
        where = Ref(("item", "ctx"))
        cond = None
        if param is not None and any(r[1] is not None for r in lc.rows):
            cond = Compare("==", where, Ref(("param", "id")))
        pitch, sizes = E.row_sizes(lc, item)
        lists[lpath] = (ListOf(table=lc.table, where=cond, pitch=pitch, axis=lc.axis,
                               span=lc.span, cross=lc.cross, sizes=sizes), template)
    path_keys = {p: k for k, p in info.keys.items()}

    hints = _field_texts(f, info) if any(n.editable for _, n in root.walk()) else {}

    def text_of(path, node):
        if node.editable:
            key = widget_ref(root, path).key
            if key in details:  # an editor showing its parameter's content
                return details[key]
            text = _most_common(hints.get(key), node.text)
            return Const(text) if text else None
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
            return f.member.get(flag) or Ref((flag,))  # (#21) per row, where it is
        return Const(True) if node.checkable and node.checked else None

    def desc_of(path, node):  # (#21) a description may follow the state ("Cart, 4 items")
        if not node.content_desc:
            return None
        return details.get(DESC + widget_ref(root, path).key) or Const(node.content_desc)

    view = to_view(root, names=names, text_of=text_of, checked_of=checked_of, lists=lists,
                   desc_of=desc_of)
    layer = _layer(root, lists) if window is not None else ()
    modules = recognise(view, mine, param, flag_of, s.name)
    if window is not None:
        modules["dialog"] = (f"a window of {window[2] - window[0]}x{window[3] - window[1]} "
                             "over the screen under it")
    return Screen(name=s.name, priority=s.priority, root=view, package=s.package,
                  activity=s.activity, foreign=s.foreign, param=param,
                  modules=tuple(sorted(modules)), seen=len(s.observations),
                  opened=opened, window=window, over=over, layer=layer), modules


def _layer(root, lists: dict) -> tuple[int, ...]:
    """Where a dialog's own views are in its screen's view (`Screen.layer`): the view of
    the node `ui.dialogs.dialog_layer` finds in the layout's observation (a sheet over
    a scrim); () where the dialog is the whole hierarchy, or its layer is in no view."""
    layer = dialog_layer(root)
    if layer is None:
        return ()
    at = next(p for p, n in root.walk() if n is layer)
    if any(at[:k] in lists for k in range(len(at))):
        return ()  # (inside a list's row: the rows are a template)
    return view_path(root, at) or ()


def _dialog(f: Facts, info: ScreenFacts) -> tuple[tuple[int, int, int, int] | None,
                                                  str | None]:
    """A dialog's window as its layout's observation shows it (else as most of its
    observations do), and the screen it opens over where that is one of the app's."""
    s = info.screen
    if s.window is None:
        return None, None
    window = s.window
    if info.rep is not None:
        o = f.obs[info.rep]
        window = dialog_window(o.root, o.width, o.height) or window
    return window, s.over if s.over in f.screens and s.over != s.name else None


def _field_texts(f: Facts, info: ScreenFacts) -> dict[str, Counter]:
    """Text field key -> how often each text showed in it across the screen's
    observations: the one seen most is its hint, not what was typed into it once."""
    out: dict[str, Counter] = {}
    # (#21) a text typed in the recordings is what was entered, never the field's hint;
    # so is a field's text that holds one (a search box quoting its query), wherever it
    # was typed (the query box of the screen before the results).
    typed = {sf.step.action.text.strip() for sf in f.steps if sf.step.action.kind == "type"
             and sf.step.action.text and sf.step.action.text.strip()}
    for ref in info.screen.observations:
        root = f.obs[ref].root
        if root is None:
            continue
        for path, node in root.walk():
            if node.editable:
                key = widget_ref(root, path).key
                seen = out.setdefault(key, Counter())
                if node.text.strip() not in typed and not any(
                        len(t) >= 3 and t in node.text for t in typed):
                    seen[node.text] += 1
    return out


def _most_common(seen: Counter | None, rep: str) -> str:
    """The text seen most often (ties: the representative's, then the first in order)."""
    if seen is None:
        return rep
    if not seen:  # (#21) only ever what was typed: no hint
        return ""
    best = max(seen.values())
    return rep if seen.get(rep) == best else min(t for t, n in seen.items() if n == best)
