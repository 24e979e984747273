"""Search: a results list shows the rows recorded for the query that was submitted.

    search "chips" -> search_snacks shows three chips; search "snacks" -> ten snacks
      ->  content search_snacks_search_results(..., typed_query text)
              { (1, ..., "snacks") ... (11, null, "Sea Salt Potato Chips", ..., "chips") }
          list search_snacks_search_results
              where search_search_input == "" or item.typed_query ~ search_search_input

Where every recorded look at a results list came after a one-field search was submitted
(`typed`), each row is tagged with the query it was seen for (the last one submitted in
its trace: coming back to the results shows them again), twice where two queries showed
it. The list shows the rows of the query in the state; before any search, all of them,
as recorded. A query nobody recorded shows nothing: what it would find is not known.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from phoneworld.infer.typed import Typed
from phoneworld.ir.model import ObsRef
from phoneworld.spec.ast import BoolOp, Column, Compare, Const, Ref, Screen, Table, View
from phoneworld.traces.model import Trace


@dataclass(frozen=True)
class QueryFilter:
    """A results list whose every recorded look followed a search: which rows each query
    showed."""

    table: str
    flag: str
    tags: tuple[tuple[int, tuple[str, ...]], ...]
    """(row id, the queries it was seen under)."""


def query_filters(traces: Sequence[Trace], where, infos, row_ids,
                  fields: list[Typed]) -> list[QueryFilter]:
    """The lists of the screens a one-field search leads to, where every look at them in
    the recordings came after a submitted query (so what each query shows is known)."""
    by_screen: dict[str, list[Typed]] = defaultdict(list)
    for f in fields:
        if f.sent:
            by_screen[f.screen].append(f)
    out = []
    for screen, fs in sorted(by_screen.items()):
        if len(fs) != 1:
            continue  # a form, not a search
        f = fs[0]
        # Observation -> the query whose results it shows: the last one submitted in its
        # trace (coming back to the results shows them again).
        tagged: dict[object, str] = {}
        targets: set[str] = set()
        sent = {(t, k): text for t, k, text in f.sent}
        for t, trace in enumerate(traces):
            query = None
            refs = [(k, ObsRef(trace=t, index=s.after)) for k, s in enumerate(trace.steps)
                    if s.after is not None]
            for k, ref in refs:
                if (t, k) in sent:
                    query = sent[(t, k)]
                    targets.add(where.get(ref, ""))
                if query is not None and ref in where:
                    tagged[ref] = query
        for target in sorted(targets - {"", screen}):
            for lkey, lc in sorted(infos[target].lists.items()):
                looks = [r for r in where if where[r] == target and lkey in row_ids.get(r, {})]
                if not looks or any(r not in tagged for r in looks):
                    continue
                tags: dict[int, dict[str, None]] = defaultdict(dict)
                for r in sorted(looks, key=lambda r: (r.trace, r.index)):
                    for rid in row_ids[r][lkey]:
                        tags[rid][tagged[r]] = None
                out.append(QueryFilter(lc.table, f.flag, tuple(
                    (rid, tuple(qs)) for rid, qs in sorted(tags.items()))))
    return list({q.table: q for q in out}.values())


QUERY = "typed_query"
"""The column of a results table that says which query a row was shown for."""


def with_queries(tables: list[Table], filters: list[QueryFilter]) -> list[Table]:
    """Each filtered table with the query of each row (a row shown for two queries is
    there twice, the second time with a new id)."""
    by_table = {q.table: q for q in filters}
    out = []
    for t in tables:
        q = by_table.get(t.name)
        if q is None:
            out.append(t)
            continue
        tags = dict(q.tags)
        rows, extra = [], []
        next_id = max((r[0] for r in t.rows if isinstance(r[0], int)), default=0) + 1
        for r in t.rows:
            queries = tags.get(r[0], ("",))
            rows.append((*r, queries[0]))
            for more in queries[1:]:
                extra.append((next_id, *r[1:], more))
                next_id += 1
        out.append(replace(t, columns=(*t.columns, Column(QUERY, "text")),
                           rows=tuple(rows + extra)))
    return out


def with_query_lists(screens: list[Screen], filters: list[QueryFilter]) -> list[Screen]:
    """Each filtered list shows the rows of the submitted query (all of them before any
    search, as recorded)."""
    flags = {q.table: q.flag for q in filters}

    def fix(v: View) -> View:
        children = tuple(fix(c) for c in v.children)
        items = v.items
        if items is not None and items.table in flags:
            flag = Ref((flags[items.table],))
            shows = BoolOp("or", (Compare("==", flag, Const("")),
                                  Compare("~", Ref(("item", QUERY)), flag)))
            items = replace(items, where=shows if items.where is None else
                            BoolOp("and", (items.where, shows)))
        return replace(v, children=children, items=items) \
            if children != v.children or items is not v.items else v
    return [replace(s, root=fix(s.root)) for s in screens]
