"""Dialogs: a window smaller than the screen over a page is a screen of its own, a dialog
that opens over the screen under it (`ui.dialogs`, `infer.screens`), and tasks open it,
never go to it."""

from __future__ import annotations

import dataclasses

import pytest

from phoneworld.compiler import compile_app
from phoneworld.errors import SpecError
from phoneworld.infer.screens import group_observations, visited
from phoneworld.ir.model import ObsRef
from phoneworld.spec.check import check
from phoneworld.spec.emit import emit
from phoneworld.spec.parse import parse
from phoneworld.tasks.sample import instances
from phoneworld.traces import read_traces
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.dialogs import dialog_layer, dialog_window, top_layer
from phoneworld.ui.node import Node
from tests.conftest import shared

W, H = 1080, 2148


def _text(t: str, b: tuple[int, int, int, int], **kw) -> Node:
    return Node(class_name="android.widget.TextView", text=t, bounds=b, **kw)


def _page(title: str = "Store") -> Node:
    return Node(class_name="android.widget.LinearLayout", bounds=(0, 0, W, H), children=(
        _text(title, (0, 0, W, 150)),
        Node(class_name="android.widget.Button", text="ADD", bounds=(800, 300, 1000, 400),
             clickable=True)))


def _sheet(title: str = "Set arrival time") -> Node:
    return Node(class_name="android.widget.FrameLayout", resource_id="app:id/bottomsheet",
                bounds=(0, 0, W, H), children=(
                    Node(class_name="android.widget.LinearLayout", bounds=(0, 1015, W, H),
                         children=(_text(title, (0, 1020, 806, 1185)),
                                   Node(class_name="android.widget.Button", text="OK",
                                        bounds=(556, 1950, 1036, 2104), clickable=True))),))


def _over(page: Node, sheet: Node | None = None) -> Node:
    """`page` with a scrim and `sheet` over it, as uber's time picker is recorded."""
    layer = () if sheet is None else (Node(class_name="android.widget.FrameLayout",
                                           bounds=(0, 0, W, H), children=(
        Node(class_name="android.view.View", resource_id="app:id/scrim",
             bounds=(0, 0, W, H), clickable=True), sheet)),)
    return Node(class_name="android.widget.FrameLayout", bounds=(0, 0, W, H),
                children=(page, *layer))


def test_a_sheet_over_a_scrim_is_the_dialog():
    root = _over(_page(), _sheet())
    assert dialog_layer(root) is root.children[1].children[1]
    assert dialog_window(root, W, H) == (0, 1015, W, H)
    assert top_layer(root) is dialog_layer(root)
    page = _over(_page())
    assert dialog_layer(page) is None and dialog_window(page, W, H) is None
    assert top_layer(page) is page


def test_a_full_screen_picture_or_web_page_under_content_is_no_scrim():
    for cls, clickable in (("android.widget.ImageView", True), ("android.webkit.WebView", True),
                           ("android.view.View", False)):
        back = Node(class_name=cls, bounds=(0, 0, W, H), clickable=clickable)
        root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, W, H),
                    children=(back, _sheet()))
        assert dialog_layer(root) is None, cls
    # nor is a thin bar over a scrim-like view (skype's progress bar over its web page)
    bar = Node(class_name="android.widget.FrameLayout", bounds=(0, 84, W, 111), children=(
        Node(class_name="android.view.View", bounds=(0, 93, 10, 102)),))
    root = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, W, H), children=(
        Node(class_name="android.view.View", bounds=(0, 0, W, H), clickable=True), bar))
    assert dialog_layer(root) is None


def test_a_window_smaller_than_the_screen_is_a_dialog():
    win = Node(class_name="android.widget.FrameLayout", bounds=(27, 496, 1053, 1351),
               children=(_text("Theme", (75, 544, 1005, 640)),))
    assert dialog_layer(win) is None  # the root itself is the dialog
    assert dialog_window(win, W, 1920) == (27, 496, 1053, 1351)
    assert dialog_window(_page(), W, H) is None
    # A dump of several windows: the last app window, smaller than the first.
    dump = Node(class_name="hierarchy", bounds=(0, 0, W, H), children=(
        Node(class_name="android.widget.FrameLayout", package="app", bounds=(0, 0, W, H),
             children=(_page(),)),
        Node(class_name="android.widget.FrameLayout", package="app",
             bounds=(27, 496, 1053, 1351), children=(_text("Theme", (75, 544, 1005, 640)),))))
    assert dialog_layer(dump) is dump.children[1]
    assert dialog_window(dump, W, H) == (27, 496, 1053, 1351)


def _trace(roots: list[Node]) -> Trace:
    obs = tuple(Observation(root=r, width=W, height=H, package="app", activity="app/.Main")
                for r in roots)
    steps = tuple(Step(before=i, after=i + 1, action=Action(kind="tap", x=900, y=350))
                  for i in range(len(obs) - 1))
    return Trace(format="phoneworld", name="t", app="app", source="t", observations=obs,
                 steps=steps)


def test_a_dialog_is_its_own_screen_over_the_screen_under_it():
    # store, picker over store, store, help, picker over help, store, picker over store
    store, help_ = _over(_page("Store")), _over(_page("Help"))
    picker_store, picker_help = _over(_page("Store"), _sheet()), _over(_page("Help"), _sheet())
    trace = _trace([store, picker_store, store, help_, picker_help, store, picker_store])
    screens, where = group_observations([trace])
    names = [where[r] for r in sorted(where, key=lambda r: r.index)]
    assert len({names[1], names[4], names[6]}) == 1  # one picker, whatever page is under
    assert names[1] not in (names[0], names[3])
    dialog = next(s for s in screens if s.name == names[1])
    assert dialog.window == (0, 1015, W, H)
    # two runs open on Store and close to it (or end the trace), one opens on Help and
    # closes to Store: Store is the screen under it
    assert dialog.over == names[0]
    assert all(s.window is None and s.over is None for s in screens if s.name != names[1])


def test_the_page_under_a_dialog_is_voted_in_the_order_the_steps_went():
    # DroidBot writes a state's file once: the files are store, help, picker-over-store,
    # but the steps go store -> help -> (back) store -> picker -> (OK) store. In file
    # order the picker follows help; in step order it opens on the store page.
    store, help_ = _over(_page("Store")), _over(_page("Help"))
    picker = _over(_page("Store"), _sheet())
    trace = _trace([store, help_, picker])
    tap, back = Action(kind="tap", x=900, y=350), Action(kind="key", key="back")
    trace = trace.model_copy(update={"steps": (
        Step(before=0, after=1, action=tap), Step(before=1, after=0, action=back),
        Step(before=0, after=2, action=tap), Step(before=2, after=0, action=tap))})
    assert visited(trace) == [0, 1, 0, 2, 0]
    screens, where = group_observations([trace])
    dialog = next(s for s in screens if s.window is not None)
    assert dialog.over == where[ObsRef(trace=0, index=0)]


def test_a_page_of_another_activity_or_app_is_not_under_a_dialog():
    # opened from Settings (another activity), closed to a browser (another app): the
    # sheet is over neither; opened again from its own activity's page, it is over that
    page, other = _over(_page("Fitting room")), _over(_page("Settings"))
    sheet = _over(_page("Fitting room"), _sheet("App theme"))
    web = _over(_page("Web"))
    trace = _trace([other, sheet, web])
    obs = list(trace.observations)
    obs[0] = obs[0].model_copy(update={"activity": "app/.Settings"})
    obs[2] = obs[2].model_copy(update={"package": "browser", "activity": "browser/.Main"})
    screens, _ = group_observations([trace.model_copy(update={"observations": tuple(obs)})])
    assert next(s for s in screens if s.window is not None).over is None
    obs.append(Observation(root=page, width=W, height=H, package="app",
                           activity="app/.Main"))
    steps = (*trace.steps, Step(before=3, after=1, action=Action(kind="tap", x=900, y=350)))
    screens, where = group_observations([trace.model_copy(
        update={"observations": tuple(obs), "steps": steps})])
    assert next(s for s in screens if s.window is not None).over == \
        where[ObsRef(trace=0, index=3)]


def test_uber_time_picker_is_a_dialog_over_the_store_page(shared_traces):
    (trace,) = read_traces(shared("droidbot", "uber"))
    screens, where = group_observations([trace])
    picker = {where[r] for r in where
              if any(n.text == "Set arrival time"
                     for _, n in trace.observations[r.index].root.walk())}
    assert len(picker) == 1
    (name,) = picker
    dialog = next(s for s in screens if s.name == name)
    assert dialog.window == (0, 1015, 1080, 2148)
    under = next(s for s in screens if s.name == dialog.over)
    # the page under it shows no picker, and it is the store page whose "Arrive by" the
    # picker sets
    assert all(where.get(r) != name for r in under.observations)
    assert all(any(n.text == "Arrive by" for _, n in trace.observations[r.index].root.walk())
               for r in under.observations)


def test_on_every_shared_folder_a_dialog_screen_holds_only_dialogs(shared_traces):
    for folder in sorted(p for p in shared_traces.glob("*/*") if p.is_dir()):
        traces = read_traces(folder)
        screens, where = group_observations(traces)
        dialog = {s.name for s in screens if s.window is not None}
        for ref, name in where.items():
            o = traces[ref.trace].observations[ref.index]
            shows = dialog_window(o.root, o.width, o.height) is not None
            assert shows == (name in dialog), (folder.name, ref, name)
        for s in screens:
            assert s.over is None or (s.over != s.name and s.over not in dialog), \
                (folder.name, s.name, s.over)


_SPEC = '''app a { package "p" start home }
screen home P0 { view FrameLayout [0,0,1080,2148] }
screen picker P1 {
  dialog over home [0,1015,1080,2148]
  view FrameLayout [0,0,1080,2148]
}
'''


def test_a_dialog_round_trips_and_is_checked():
    spec = parse(_SPEC)
    picker = spec.screen("picker")
    assert picker.window == (0, 1015, 1080, 2148) and picker.over == "home"
    check(spec)
    assert parse(emit(spec)) == spec
    bare = parse(_SPEC.replace("dialog over home", "dialog"))
    assert bare.screen("picker").over is None and parse(emit(bare)) == bare
    with pytest.raises(SpecError, match="unknown screen 'hom'.*did you mean 'home'"):
        check(parse(_SPEC.replace("over home", "over hom")))
    with pytest.raises(SpecError, match="opens over itself"):
        check(parse(_SPEC.replace("over home", "over picker")))
    not_dialog = dataclasses.replace(spec, screens=(
        spec.screens[0], dataclasses.replace(picker, window=None)))
    with pytest.raises(SpecError, match="is not a dialog"):
        check(not_dialog)


_LAYERED = '''app a { package "p" start home }
screen home P0 { view FrameLayout [0,0,1080,2148] }
screen picker P1 {
  dialog over home [0,1015,1080,2148] layer [1,0]
  view FrameLayout [0,0,1080,2148] {
    view LinearLayout [0,0,1080,2148]
    view FrameLayout [0,0,1080,2148] {
      view FrameLayout [0,1015,1080,2148] {
        view TextView [0,1020,806,1185] text "Set arrival time"
      }
    }
  }
}
'''


def test_a_dialogs_layer_round_trips_and_is_checked():
    from phoneworld.spec.walk import own_root

    spec = parse(_LAYERED)
    picker = spec.screen("picker")
    assert picker.layer == (1, 0) and own_root(picker).bounds == (0, 1015, 1080, 2148)
    check(spec)
    assert parse(emit(spec)) == spec and "layer [1,0]" in emit(spec)
    with pytest.raises(SpecError, match=r"layer \[1, 3\] has no view at step 2"):
        check(parse(_LAYERED.replace("layer [1,0]", "layer [1,3]")))
    with pytest.raises(ValueError, match="without a dialog window"):
        emit(dataclasses.replace(spec, screens=(
            spec.screens[0], dataclasses.replace(picker, window=None, over=None))))


def test_the_compiler_writes_where_a_sheet_is_in_its_screens_view():
    from phoneworld.infer.layout import view_path

    # a dump of the app's window and the system's: the sheet's node path counts the
    # system window and an invisible sibling, which the view leaves out
    hidden = Node(class_name="android.view.View", bounds=(0, 0, 1, 1), visible=False)
    app = Node(class_name="android.widget.FrameLayout", package="app", bounds=(0, 0, W, H),
               children=(hidden, _over(_page(), _sheet())))
    bar = Node(class_name="android.widget.FrameLayout", package="com.android.systemui",
               bounds=(0, 0, W, 80))
    dump = Node(class_name="hierarchy", bounds=(0, 0, W, H), children=(bar, app))
    sheet = dialog_layer(dump)
    at = next(p for p, n in dump.walk() if n is sheet)
    assert at == (1, 1, 1, 1)
    assert view_path(dump, at) == (0, 1, 1)  # the app's window is the view's root
    assert view_path(dump, (1, 0)) is None  # an invisible node has no view


def test_a_rows_dialog_is_not_opened_by_rows_recorded_doing_nothing(shared_traces, tmp_path):
    # The first half of activitylauncher's recording opens the Theme and Language choices
    # more often than it taps rows that do nothing: every row (a heading, a switch) must
    # still not open that dialog, only the rows recorded opening it.
    (trace,) = read_traces(shared("droidbot", "activitylauncher"))
    cut = (len(trace.steps) + 1) // 2
    steps = trace.steps[:cut]
    keep = sorted({i for s in steps for i in (s.before, s.after) if i is not None})
    new = {old: n for n, old in enumerate(keep)}
    first = trace.model_copy(update={
        "observations": tuple(trace.observations[i] for i in keep),
        "steps": tuple(s.model_copy(update={"before": new[s.before], "after": new.get(
            s.after)}) for s in steps)})
    spec = compile_app("activitylauncher", [first], "activitylauncher").spec
    dialogs = {s.name for s in spec.screens if s.window is not None}
    into = [t for t in spec.transitions if t.target in dialogs and t.with_param is not None
            and t.action == "tap"]
    assert into and all(t.when is not None for t in into)
    opened = {i.instruction for i in instances(spec) if i.kind == "navigation"}
    assert not any("Enable privileged mode" in x or "Settings" in x and "choices" in x
                   for x in opened), opened


def test_a_dialogs_own_views_leave_out_the_page_under_its_scrim():
    from phoneworld.spec.ast import Const, Screen, View
    from phoneworld.spec.walk import own_root
    from phoneworld.tasks.screentexts import _headed

    def text(t, b):
        return View("android.widget.TextView", b, text=Const(t))

    # the page's heading pair sits where the sheet is drawn: only the tree tells them apart
    page = View("android.widget.LinearLayout", (0, 0, W, H), children=(
        text("Arrive by", (154, 1752, 336, 1807)), text("3:15 PM", (154, 1807, 291, 1873))))
    sheet = View("android.widget.FrameLayout", (0, 0, W, H), children=(
        View("android.widget.LinearLayout", (0, 1015, W, H), children=(
            text("Set arrival time", (0, 1020, 806, 1185)),
            text("We'll let you know", (0, 1185, 806, 1260)))),))
    scrim = View("android.view.View", (0, 0, W, H), flags=("clickable",))
    root = View("android.widget.FrameLayout", (0, 0, W, H), children=(
        page, View("android.widget.FrameLayout", (0, 0, W, H), children=(scrim, sheet))))
    dialog = Screen("picker", "P1", root, window=(0, 1015, W, H), over="store", layer=(1, 1))
    assert own_root(dialog) is sheet
    # the spec says where the layer is (the compiler found it once, `ui.dialogs`); a
    # dialog without one is all of its tree, never found again by a threshold
    assert own_root(dataclasses.replace(dialog, layer=())) is root
    assert [h for h, _, _ in _headed(dialog)] == ["Set arrival time"]
    page_screen = Screen("store", "P0", root)
    assert own_root(page_screen) is root  # not a dialog: all of it
    assert "Arrive by" in [h for h, _, _ in _headed(page_screen)]


def test_a_folder_inside_a_file_dialog_is_gone_into_not_opened_as_a_dialog(shared_traces):
    # ajsha's LOAD dialog lists folders; a folder's row opens the same dialog one level
    # deeper: "Open “examples/”.", not "Bring up the options for “examples/”."
    traces = read_traces(shared("droidbot", "ajsha"))
    spec = compile_app("ajsha", traces, "ajsha").spec
    said = [i.instruction for i in instances(spec) if i.kind == "navigation"]
    assert any("examples/" in x for x in said), said
    assert not any("options" in x or "choices" in x for x in said if "/”" in x), said


def test_a_launchers_scrim_under_its_workspace_and_dock_is_no_dialog():
    # Launcher3's drag layer: scrim_view, the workspace (apps on a page smaller than the
    # screen), then the dock drawn over both: no sheet is drawn last over the scrim.
    def group(b, *kids):
        return Node(class_name="android.view.ViewGroup", bounds=b, children=kids)

    layer = Node(class_name="android.widget.FrameLayout", bounds=(0, 0, W, H), children=(
        Node(class_name="android.view.View", resource_id="l:id/scrim_view",
             bounds=(0, 0, W, H)),
        Node(class_name="android.widget.ScrollView", resource_id="l:id/workspace",
             bounds=(0, 0, W, H), children=(group((57, 165, 1023, 1689),
                                                  _text("Duolingo", (60, 170, 300, 260))),)),
        group((0, 1791, W, H), _text("Search", (82, 1900, 997, 2000)))))
    assert dialog_layer(layer) is None


def test_a_sheet_is_titled_by_a_heading_its_id_calls_one():
    # uber's time picker heads its sheet with `..._headline` “Set arrival time”;
    # wikipedia's theme sheet starts with “Font size”, no id, a section's heading over its
    # stepper, with “Theme” further down: that sheet has no title of its own
    from phoneworld.spec.ast import AppSpec, Const, Screen, View
    from phoneworld.tasks.labels import popup_heading

    def sheet(head: str, rid: str, second: str) -> Screen:
        own = View("android.widget.FrameLayout", (0, 1054, W, H), children=(
            View("android.widget.TextView", (48, 1054, 600, 1198), text=Const(head), id=rid),
            View("android.widget.TextView", (48, 1469, 600, 1526), text=Const(second))))
        root = View("android.widget.FrameLayout", (0, 0, W, H), children=(
            View("android.widget.LinearLayout", (0, 0, W, H)), own))
        return Screen("s", "P1", root, window=(0, 1054, W, H), layer=(1,))

    spec = AppSpec(name="a", package="p", start="s", width=W, height=H)
    assert popup_heading(sheet("Set arrival time", "app:id/time_picker_headline",
                               "We'll let you know"), spec) == "Set arrival time"
    assert popup_heading(sheet("Font size", "", "Theme"), spec) == ""


def test_the_screens_under_real_dialogs(shared_traces):
    # wikipedia's theme sheet is over its own fitting room's article, opened from Settings
    # (another activity): over none; onelist's new-folder dialog (and the menu that
    # offers it) is over the file picker it was opened in, not the app's list (was none);
    # qqmusic's 下载微信 over the share sheet it was opened from (was the feedback form)
    def dialogs(app: str, text: str):
        traces = read_traces(shared("droidbot", app))
        screens, where = group_observations(traces)
        by = {s.name: s for s in screens}
        names = {where[r] for r in where if any(
            n.text == text for _, n in traces[r.trace].observations[r.index].root.walk())}
        found = [by[n] for n in sorted(names) if by[n].window is not None]
        assert found, (app, text)
        return found, by, traces

    (theme,), _, _ = dialogs("wikipedia", "Font size")
    assert theme.over is None
    found, by, _ = dialogs("onelist", "New folder")
    assert all(s.over is not None and by[s.over].package == s.package and
               by[s.over].window is None for s in found)
    (share,), by, traces = dialogs("qqmusic", "下载微信")
    assert share.over is not None and by[share.over].window is None
    assert by[share.over].activity == share.activity
    assert not any(n.text == "QQ互联" for r in by[share.over].observations
                   for _, n in traces[r.trace].observations[r.index].root.walk())
