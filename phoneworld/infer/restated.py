"""An item that restates a known row in another state, known by its place among its rows.

    recording 1: ("Network & internet", "Wi-Fi: HomeNet"), ("Apps", "Recent apps")
    recording 2: ("Network & internet", "Airplane mode is on"), ("Apps", "Recent apps")
      ->  one row "Network & internet" (the first recording's texts), seen in two states

Recording sessions of one app on phones in other states (airplane mode on, another
battery level) show the same rows with other summaries, and several rows of one list may
differ at once, so `content._in_place` (one item changed, all others the same) misses
them. An item is the row of an earlier recording of the list (under the same parameter
row) that sits where it sits among the rows around it: counted from the nearest item on
either side that is a known row, both sides agreeing where both are in that recording;
that shows the same key text (its first text) and is the only item showing it in both
recordings; and that this recording does not show already. So two "Delivered" orders, a
feed of cards titled alike, or two songs of one name at different places stay rows of
their own: a key text shown twice in a recording is no key, and a row elsewhere is not in
this item's place. A row may also move: a list in order of last activity puts the row
just acted on first (`moved_row`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Recording = tuple[Sequence[tuple], Sequence[int]]
"""(each item's texts, each item's row id) of one recording of a list, top to bottom."""


def key_text(values: tuple, states: Sequence[bool] = ()) -> tuple[int, str] | None:
    """(field, text) of the first text an item shows, fields that only say a switch's
    state (`states[i]`) passed over; None when it shows none."""
    for i, v in enumerate(values):
        if v and not (i < len(states) and states[i]):
            return i, v
    return None


def restated_row(values: Sequence[tuple], ids: Sequence[int], i: int,
                 known: Callable[[tuple], int | None], earlier: Sequence[Recording],
                 states: Sequence[bool] = ()) -> int | None:
    """The row item `i` of a recording restates, or None.

    `values` are the recording's items' texts; `ids` the rows of its items before `i`
    (already told); `known(v)` the row an item showing `v` is known to be, if any;
    `earlier` the earlier recordings of the list under the same parameter row, in the
    order they were made; `states[f]` whether field `f` only says a switch's state.
    The first earlier recording that places a row there decides."""
    key = key_text(values[i], states)
    if key is None or _count(values, key) != 1:
        return None
    before = [(i - j, ids[j]) for j in range(i - 1, -1, -1)]  # nearest first
    after = [(j - i, r) for j in range(i + 1, len(values))
             if (r := known(values[j])) is not None]
    shown = set(ids) | {r for _, r in after}
    for seq, rows in earlier:
        at = {r: p for p, r in enumerate(rows)}
        # counted from the nearest anchor on each side that this recording holds
        place_b = next((at[r] + d for d, r in before if r in at), None)
        place_a = next((at[r] - d for d, r in after if r in at), None)
        if place_b is None and place_a is None:
            continue
        if place_b is not None and place_a is not None and place_b != place_a:
            continue
        p = place_b if place_b is not None else place_a
        if p is None or not 0 <= p < len(rows) or rows[p] in shown:
            continue
        if key_text(seq[p], states) == key and _count(seq, key) == 1:
            return rows[p]
    return None


def _count(values: Sequence[tuple], key: tuple[int, str]) -> int:
    """How many items of a recording show `key`'s text in its field."""
    f, text = key
    return sum(1 for v in values if f < len(v) and v[f] == text)


def moved_row(values: Sequence[tuple], ids: Sequence[int], i: int,
              known: Callable[[tuple], int | None], earlier: Sequence[Recording],
              states: Sequence[bool] = ()) -> int | None:
    """The row item `i` of a recording is, moved to the top of its list, or None.

        earlier: Mom, Alice Chen "Meet you there?", Sam Rivera, Sunrise Dental
        now:     Alice Chen "You: Save me a seat!", Mom, Sam Rivera, Sunrise Dental
          ->  the item is row "Alice Chen", moved (a message sent to her)

    A list in order of last activity (chats, recent files, a feed of threads) puts the
    row something was just done to first, with its new summary. The item is the first
    of its recording; its key text (its first text) is shown by it alone there, and by
    exactly one item of an earlier recording of the list (under the same parameter row),
    elsewhere; every other item of this recording is a known row (the last may be cut
    by the list's edge and tell none), and they, in order,
    are that earlier recording's rows but that one (the one a prefix of the other, two
    rows at least: the same scroll of the list). Two rows of one name, a list scrolled
    elsewhere, or rows shuffled otherwise are not matched. The first earlier recording
    that matches decides."""
    key = key_text(values[i], states)
    if i != 0 or key is None or _count(values, key) != 1:
        return None
    rest = [known(values[j]) for j in range(i + 1, len(values))]
    if rest and rest[-1] is None:
        rest.pop()  # the last item, cut by the list's edge, shows less than its row
    if any(r is None for r in rest):
        return None
    for seq, rows in earlier:
        at = [p for p, v in enumerate(seq) if key_text(v, states) == key]
        if len(at) != 1 or at[0] == i or rows[at[0]] in rest:
            continue
        others = [r for p, r in enumerate(rows) if p != at[0]]
        n = min(len(rest), len(others))
        if n >= 2 and rest[:n] == others[:n] and abs(len(rest) - len(others)) <= 1:
            return rows[at[0]]
    return None
