"""An app's title is the name people see for it, never the folder its traces sit in."""

from __future__ import annotations

import pytest

from phoneworld.traces import read_traces
from phoneworld.traces.appname import app_title
from phoneworld.traces.model import Action, Observation, Step, Trace
from phoneworld.ui.node import Node
from tests.conftest import ROOT, shared, shared_folders

W, H = 1080, 2400


def _view(text: str = "", *, desc: str = "", children=(), cls: str = "TextView",
          package: str = "com.lolo.io.onelist", y: int = 0) -> Node:
    return Node(class_name=f"android.widget.{cls}", text=text, content_desc=desc,
                package=package, bounds=(0, y, W, y + 100), children=tuple(children))


def _obs(*views: Node, package: str = "com.lolo.io.onelist", foreign: bool = False,
         activity: str = "") -> Observation:
    root = _view(cls="FrameLayout", package=package, children=views)
    return Observation(root=root, width=W, height=H, package=package, foreign=foreign,
                       activity=activity or f"{package}/.MainActivity")


def _trace(*observations: Observation, steps=(), app: str = "com.lolo.io.onelist") -> Trace:
    return Trace(format="droidbot", name="t", app=app, source="t",
                 observations=tuple(observations), steps=tuple(steps))


def test_the_launcher_row_that_opened_the_app_names_it():
    launcher = _obs(_view("Chrome"), _view("OneList", y=200), _view("Settings", y=400),
                    package="com.android.launcher3", foreign=True)
    tap = Step(before=0, after=1, action=Action(kind="tap", x=540, y=250, target=(1,)))
    t = _trace(launcher, _obs(_view("Lists")), steps=(tap,))
    assert app_title([t], "onelist") == ("OneList", "launcher")
    # A permission dialog's button leading into the app names nothing.
    dialog = _obs(_view("CONTINUE"), package="com.android.permissioncontroller",
                  foreign=True)
    t = _trace(dialog, _obs(_view("Lists")), steps=(
        Step(before=0, after=1, action=Action(kind="tap", x=540, y=50, target=(0,))),))
    assert app_title([t], "onelist")[1] != "launcher"


def test_a_name_the_app_shows_that_spells_its_package():
    app = "de.szalkowski.activitylauncher"
    shows = [_obs(_view("Activity Launcher"), _view("Activity", y=200), package=app)
             for _ in range(2)]
    assert app_title([_trace(*shows, app=app)], "x") == ("Activity Launcher", "shown")
    # the first words of a title; a logo in capitals gives way to the name as written
    app = "org.wikipedia.dev"
    shows = [_obs(_view("WIKIPEDIA"), _view("Wikipedia", y=200), package=app),
             _obs(_view("WIKIPEDIA"), _view("Search Wikipedia", y=200), package=app)]
    assert app_title([_trace(*shows, app=app)], "x") == ("Wikipedia", "shown")
    # a company named once in a footer is not the app
    app = "com.tencent.qqmusic"
    footer = _obs(_view(" Tencent. All Rights Reserved."), package=app,
                  activity=f"{app}/{app}.activity.AppStarterActivity")
    assert app_title([_trace(footer, app=app)], "x") == ("Qqmusic", "package")


def test_where_the_app_shows_no_name_the_package_gives_one_and_says_so():
    assert app_title([_trace(_obs(_view("홈"), package="co.spoonme"), app="co.spoonme")],
                     "spoon_live") == ("Spoonme", "package")
    # the part the app's own classes also name, not a code name after it
    app = "com.skype.raider"
    obs = _obs(_view(cls="FrameLayout", package=app), package=app,
               activity=f"{app}/com.skype.android.app.signin.LandingActivity")
    assert app_title([_trace(obs, app=app)], "skype") == ("Skype", "package")
    # a build's flavour is no name
    app = "org.example.notes.debug"
    assert app_title([_trace(_obs(_view("x"), package=app), app=app)], "n")[0] == "Notes"


def test_a_start_of_the_package_the_app_writes_in_capitals_keeps_them():
    """qqmusic shows no name of its own, but "QQ" as a word on its pages (QQ好友, 下载QQ):
    `com.tencent.qqmusic` is "QQ Music", not "Qqmusic". Seen once, or inside a word of
    other letters ("QQMAIL"), it says nothing of the package."""
    app = "com.tencent.qqmusic"

    def obs(*texts):
        return _obs(*(_view(t, package=app, y=200 * i) for i, t in enumerate(texts)),
                    package=app)

    twice = [obs("QQ好友", "分享"), obs("下载QQ")]
    assert app_title([_trace(*twice, app=app)], "qqmusic") == ("QQ Music", "package")
    assert app_title([_trace(obs("QQ好友"), obs("分享"), app=app)], "q")[0] == "Qqmusic"
    assert app_title([_trace(obs("QQMAIL"), obs("QQMAIL"), app=app)], "q")[0] == "Qqmusic"


def test_phoneworld_recordings_keep_their_folder_name():
    traces = read_traces(ROOT / "traces" / "shopping")
    assert app_title(traces, "shopping") == ("shopping", "folder")


@pytest.mark.parametrize("folder", shared_folders())
def test_every_shared_app_has_a_name_that_is_not_its_folder(folder):
    traces = read_traces(shared(*folder.split("/")))
    name, how = app_title(traces, folder.split("/")[1])
    assert how in ("launcher", "shown", "package") and name
    assert "_" not in name and "\n" not in name and name[:1].isupper()
    assert name != folder.split("/")[1]


def test_shared_apps_that_show_their_name_are_called_by_it(shared_traces):
    want = {"droidbot/activitylauncher": "Activity Launcher", "droidbot/aeondroid":
            "AeonDroid", "droidbot/ajsha": "AJShA", "droidbot/wikipedia": "Wikipedia",
            "llamatouch/duolingo": "Duolingo", "droidbot/uber": "Uber"}
    for folder, name in want.items():
        assert app_title(read_traces(shared(*folder.split("/"))), "x")[0] == name, folder


def test_a_phoneworld_recording_of_a_launcher_tap_is_named_by_that_row():
    """A recording written by `phoneworld device record` of a LlamaTouch session keeps
    its launcher tap, so it is named as the original is ("Duolingo"), not by its folder."""
    launcher = _obs(_view("Duolingo"), package="com.google.android.apps.nexuslauncher",
                    foreign=True)
    tap = Step(before=0, after=1, action=Action(kind="tap", x=540, y=50, target=(0,)))
    app = "com.duolingo"
    t = _trace(launcher, _obs(_view("START"), package=app), steps=(tap,), app=app)
    native = t.model_copy(update={"format": "phoneworld"})
    assert app_title([t], "duolingo") == app_title([native], "duolingo") == \
        ("Duolingo", "launcher")
