"""Rows seen in another state, known by their place among their rows (#21): one row per
entity however many recordings and states showed it."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.infer import content as C
from phoneworld.infer.restated import key_text, moved_row, restated_row
from phoneworld.ui.node import Node


def _item(y: int, *texts: str) -> Node:
    return Node(class_name="android.widget.LinearLayout", bounds=(0, y, 1080, y + 100),
                children=tuple(
                    Node(class_name="android.widget.TextView", resource_id=f"app:id/f{i}",
                         text=t, bounds=(0, y, 1080, y + 50)) for i, t in enumerate(texts)))


def _list(*items: tuple[str, ...], top: int = 0) -> Node:
    """A list showing `items` top to bottom; `top` < 0 cuts the first one (scrolled)."""
    return Node(class_name="androidx.recyclerview.widget.RecyclerView",
                bounds=(0, 0, 1080, 2000),
                children=tuple(_item(top + 1 + 110 * i, *t) for i, t in enumerate(items)))


def _rows(*recordings: Node) -> list[list]:
    lc = C.ListContent(key="list", table="settings")
    for lst in recordings:
        C.collect(lc, lst, None)
    return lc.rows


SESSION_1 = [("Network & internet", "Wi-Fi: HomeNet"), ("Connected devices", "Bluetooth on"),
             ("Apps", "Recent apps"), ("Battery", "85%"), ("Storage", "62% used"),
             ("Sound & vibration", "Volume, haptics")]


def test_rows_of_another_session_in_their_place_are_the_same_rows():
    # airplane mode on: two rows changed at once (one changed is `_in_place`'s case)
    airplane = [("Network & internet", "Airplane mode is on"),
                ("Connected devices", "Bluetooth off"), *SESSION_1[2:]]
    # another battery level and Do Not Disturb on
    dnd = [*SESSION_1[:3], ("Battery", "46%"), SESSION_1[4], ("Sound & vibration", "DND on")]
    rows = _rows(_list(*SESSION_1), _list(*airplane), _list(*dnd))
    assert [tuple(r[2:]) for r in rows] == SESSION_1  # the first session's texts


def test_a_scrolled_recording_finds_its_rows_by_the_rows_around_them():
    # scrolled: the first item is cut, the list shows one more row further down
    scrolled = [SESSION_1[2], ("Battery", "46%"), *SESSION_1[4:], ("About phone", "Pixel 7")]
    rows = _rows(_list(*SESSION_1), _list(*scrolled, top=-40))
    assert [r[2] for r in rows] == [t for t, _ in SESSION_1] + ["About phone"]


def test_rows_that_share_a_title_but_not_a_place_stay_apart():
    # two orders "Delivered" in one recording: a title shown twice is no key
    orders = [("Delivered", "Order 1"), ("Delivered", "Order 2"), ("Shipped", "Order 3")]
    later = [("Delivered", "Order 4"), ("Delivered", "Order 5"), ("Shipped", "Order 3")]
    assert len(_rows(_list(*orders), _list(*later))) == 5
    # a song of one name at another place among the songs around it
    songs = [("Intro", "Album A"), ("Home", "Album A"), ("Outro", "Album A")]
    other = [("Intro", "Album A"), ("Outro", "Album A"), ("Home", "Album B")]
    assert [tuple(r[2:]) for r in _rows(_list(*songs), _list(*other))] == [
        *songs, ("Home", "Album B")]


def test_restated_row_needs_both_sides_to_agree():
    earlier = [([("A", "1"), ("B", "1"), ("C", "1")], (1, 2, 3))]
    known = {("C", "1"): 3}.get
    # B between A and C as before: row 2
    assert restated_row([("A", "1"), ("B", "2"), ("C", "1")], [1], 1, known, earlier) == 2
    # between A and C, but with C two places on: a row was inserted; no place agrees
    assert restated_row([("A", "1"), ("B", "2"), ("X", "9"), ("C", "1")], [1], 1,
                        known, earlier) is None
    # a row this recording shows already is not another item's
    assert restated_row([("A", "1"), ("B", "2"), ("B", "3")], [1, 2], 2,
                        known, earlier) is None


def test_a_switch_text_is_no_key():
    assert key_text(("", "ON", "Wi-Fi"), [False, True, False]) == (2, "Wi-Fi")
    assert key_text(("", ""), []) is None


_TITLES = [f"Entry {i}" for i in range(8)]


@st.composite
def _sessions(draw):
    """The list as first recorded, then windows of it where some rows show another state
    and at least one row the first one (the anchor every later recording has)."""
    first = [(t, f"{t}: 0") for t in _TITLES]
    out = [first]
    for _ in range(draw(st.integers(1, 4))):
        lo = draw(st.integers(0, len(_TITLES) - 2))
        hi = draw(st.integers(lo + 2, len(_TITLES)))
        states = draw(st.lists(st.integers(0, 2), min_size=hi - lo, max_size=hi - lo))
        keep = draw(st.integers(lo, hi - 1))
        out.append([(t, f"{t}: {0 if i + lo == keep else s}")
                    for i, (t, s) in enumerate(zip(_TITLES[lo:hi], states, strict=True))])
    return out


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_sessions())
def test_one_row_per_entity_whatever_the_states_recorded(sessions):
    lc = C.ListContent(key="list", table="settings")
    for items in sessions:
        C.collect(lc, _list(*items), None)
    recorded = {t for items in sessions for t, _ in items}
    # never drops a title recorded, never two rows of one
    assert sorted(r[2] for r in lc.rows) == sorted(recorded)
    assert [tuple(r[2:]) for r in lc.rows] == sessions[0]  # the first recording's texts
    # idempotent: seeing the same recordings again adds nothing and changes no row
    rows = [list(r) for r in lc.rows]
    for items in sessions:
        C.collect(lc, _list(*items), None)
    assert lc.rows == rows


def _switch_item(y: int, title: str, on: bool) -> Node:
    return Node(class_name="android.widget.LinearLayout", bounds=(0, y, 1080, y + 100),
                children=(
                    Node(class_name="android.widget.TextView", resource_id="app:id/title",
                         text=title, bounds=(0, y, 800, y + 50)),
                    Node(class_name="android.widget.TextView", resource_id="app:id/summary",
                         text=f"{title} is {'on' if on else 'off'}", bounds=(0, y, 800, y + 50)),
                    Node(class_name="android.widget.Switch", resource_id="app:id/switch",
                         text="ON" if on else "OFF", checkable=True, checked=on,
                         bounds=(900, y, 1000, y + 50))))


def test_a_switch_text_seen_in_both_states_on_one_row_turns_with_it():
    from phoneworld.infer.rules import state_texts

    lc = C.ListContent(key="list", table="network")
    # every row first recorded on; one row off in another session's phone
    for wifi, airplane in ((True, True), (False, True)):
        items = (_switch_item(1, "Wi-Fi", wifi), _switch_item(111, "Mobile data", True),
                 _switch_item(221, "Airplane mode", airplane))
        C.collect(lc, Node(class_name="android.widget.ListView", bounds=(0, 0, 1080, 2000),
                           children=items), None)
    C.name_columns(lc)
    assert [r[2] for r in lc.rows] == ["Wi-Fi", "Mobile data", "Airplane mode"]
    assert lc.checks == {1: True, 2: True, 3: True}  # as first recorded
    assert state_texts(lc) == {"switch": ("ON", "OFF")}


def test_the_example_settings_list_has_a_row_per_entry_it_shows():
    from tests.tasks_fixtures import example

    spec = example("settings")
    tables = {t.name: t for t in spec.tables}
    titles = [r[2] for r in tables["settings_recycler_view"].rows]
    assert titles == ["Network & internet", "Connected devices", "Apps", "Notifications",
                      "Battery", "Storage", "Sound & vibration", "Display",
                      "Wallpaper & style", "Accessibility", "Security & privacy", "Location",
                      "System", "About phone"]
    connected = [r[2] for r in tables["sub_settings_connected_recycler_view"].rows]
    assert len(connected) == len(set(connected))  # one Bluetooth, one Pixel Buds Pro
    position = next(t for t in spec.tasks if t.name == "position_of_settings_recycler_view")
    assert "Battery" not in str(position.condition)  # no row left out of position questions


CHATS = [("Mom", "Dad says hi"), ("Alice Chen", "Meet you there?"),
         ("Sam Rivera", "Amazing, thank you!"), ("Sunrise Dental", "Reminder: Thursday"),
         ("Ben Okafor", "That last goal")]


def test_a_chat_moved_to_the_top_after_a_message_is_still_its_row():
    # a message sent to Alice: her chat first, with its new summary; the rest in order
    sent = [("Alice Chen", "You: Save me a seat!"), CHATS[0], *CHATS[2:]]
    rows = _rows(_list(*CHATS), _list(*sent))
    assert [tuple(r[2:]) for r in rows] == CHATS
    # the last item cut by the list's edge (it shows less) does not stop it
    cut = [("Ben Okafor", "You: Running late"), *CHATS[:3], ("Sunrise Dental", "")]
    rows = _rows(_list(*CHATS), _list(*cut))
    assert [r[2] for r in rows] == [t for t, _ in CHATS]


def test_rows_that_move_otherwise_or_share_a_name_stay_apart():
    # moved to the middle, not the top: no list of last activity does that
    middle = [CHATS[0], CHATS[2], ("Alice Chen", "You: Hi"), *CHATS[3:]]
    assert len(_rows(_list(*CHATS), _list(*middle))) == 6
    # the others shuffled too: another order of the list, not a move
    shuffled = [("Alice Chen", "You: Hi"), CHATS[3], CHATS[0], CHATS[2], CHATS[4]]
    assert len(_rows(_list(*CHATS), _list(*shuffled))) == 6
    # two chats of one name earlier: which one moved, nothing tells
    twins = [*CHATS, ("Alice Chen", "Other Alice")]
    assert len(_rows(_list(*twins), _list(("Alice Chen", "You: Hi"), *CHATS[:1],
                                          *CHATS[2:]))) == 7
    # a new chat on top of the same rows is a new row (nothing of its name before)
    new = [("Priya Patel", "You: Happy birthday"), *CHATS[:4]]
    assert len(_rows(_list(*CHATS), _list(*new))) == 6


def test_moved_row_needs_the_same_rows_around_it():
    earlier = [([("A", "1"), ("B", "1"), ("C", "1"), ("D", "1")], (1, 2, 3, 4))]
    known = {("A", "1"): 1, ("C", "1"): 3, ("D", "1"): 4, ("X", "1"): 9}.get
    assert moved_row([("B", "2"), ("A", "1"), ("C", "1"), ("D", "1")], [], 0,
                     known, earlier) == 2
    # not the first item: no move to the top
    assert moved_row([("A", "1"), ("B", "2"), ("C", "1")], [1], 1, known, earlier) is None
    # a row of another scroll below it: not the same rows
    assert moved_row([("B", "2"), ("C", "1"), ("D", "1"), ("X", "1")], [], 0,
                     known, earlier) is None
    # one other row alone: too little to tell
    assert moved_row([("B", "2"), ("A", "1")], [], 0, known, earlier) is None
