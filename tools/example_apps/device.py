"""The phone around an app: the window decor, the status bar and the navigation bar.

A uiautomator2 dump of a whole screen holds one top-level node per window: the app's
window (decor view, then the app's layout under `android:id/content`), a dialog window
when one is up, and the system UI's status bar and navigation bar windows.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .views import (
    HEIGHT,
    NAV_TOP,
    STATUS_BOTTOM,
    WIDTH,
    View,
    frame,
    image,
    label,
    linear,
)

SYSTEMUI = "com.android.systemui"


@dataclass
class Clock:
    """The phone's clock and battery, which drift a little with every action."""

    minutes: int
    battery: int
    rng: random.Random

    @classmethod
    def start(cls, rng: random.Random) -> Clock:
        return cls(minutes=rng.randrange(8 * 60, 21 * 60), battery=rng.randrange(38, 99), rng=rng)

    def tick(self) -> None:
        self.minutes += self.rng.choice((0, 0, 1, 1, 2))
        if self.rng.random() < 0.12:
            self.battery -= 1

    def status_text(self) -> str:
        """The status bar's clock: 12-hour, no AM/PM ("9:41")."""
        h, m = divmod(self.minutes % (24 * 60), 60)
        return f"{(h - 1) % 12 + 1}:{m:02d}"

    def label(self, minutes: int | None = None) -> str:
        """A time as apps print it ("10:24 AM")."""
        h, m = divmod((self.minutes if minutes is None else minutes) % (24 * 60), 60)
        return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


DEFAULT_ICONS = (("wifi_combo", "Wifi three bars."), ("mobile_combo", "Phone four bars."))


def status_bar(clock: Clock, icons: Sequence[tuple[str, str]] = DEFAULT_ICONS) -> View:
    """The status bar window: clock on the left; system icons and battery on the right.

    `icons` are (id, content description) pairs, laid out left to right.
    """
    top = (0, 0, WIDTH, STATUS_BOTTOM)
    clock_text = clock.status_text()
    clock_view = label(clock_text, 42, 0, sp=14, rid="clock")
    clock_view.bounds = (42, 0, 42 + len(clock_text) * 24 + 6, STATUS_BOTTOM)
    clock_view.desc = clock.label()
    x1 = 870 - 58 * len(icons)
    icon_views = [frame((x + 6, 8, x + 52, 55), image((x + 10, 12, x + 48, 51)), rid=rid,
                        desc=desc)
                  for x, (rid, desc) in zip(range(x1, 870, 58), icons, strict=True)]
    battery = linear((882, 0, 1038, STATUS_BOTTOM),
                     image((886, 13, 914, 50), rid="battery_icon"),
                     label(f"{clock.battery}%", 924, 0, sp=13, rid="battery_percentage_view"),
                     rid="battery", desc=f"Battery {clock.battery} percent")
    end = linear((x1, 0, 1038, STATUS_BOTTOM),
                 linear((x1, 0, 870, STATUS_BOTTOM), *icon_views, rid="statusIcons"), battery,
                 rid="system_icons")
    start = frame((42, 0, 540, STATUS_BOTTOM), linear((42, 0, 540, STATUS_BOTTOM), clock_view,
                  rid="status_bar_start_side_content"), rid="status_bar_start_side_container")
    contents = linear((42, 0, 1038, STATUS_BOTTOM), start,
                      frame((x1, 0, 1038, STATUS_BOTTOM), end,
                            rid="status_bar_end_side_container"),
                      rid="status_bar_contents")
    return frame(top, frame(top, contents, rid="status_bar"), rid="status_bar_container")


def navigation_bar() -> View:
    """The three-button navigation bar window (Back, Home, Overview)."""
    b = (0, NAV_TOP, WIDTH, HEIGHT)

    def key(rid: str, desc: str, x1: int) -> View:
        v = View("android.widget.ImageView", (x1, NAV_TOP, x1 + 210, HEIGHT), rid=rid, desc=desc,
                 clickable=True, long_clickable=rid == "home", key=f"nav:{rid}")
        return linear((x1, NAV_TOP, x1 + 210, HEIGHT), v,
                      rid="center_group" if rid == "home" else "ends_group")

    buttons = linear((84, NAV_TOP, 996, HEIGHT), key("back", "Back", 84), key("home", "Home", 435),
                     key("recent_apps", "Overview", 786), rid="nav_buttons")
    inflater = frame(b, frame(b, buttons, rid="horizontal"), rid="navigation_inflater")
    return frame(b, frame(b, inflater, rid="navigation_bar_frame"))


def app_window(content: View) -> View:
    """The app's window: decor view, action bar root, then `content` under android:id/content."""
    area = (0, STATUS_BOTTOM, WIDTH, NAV_TOP)
    root = frame(area, content, rid="android:id/content")
    bar_root = linear(area, root, rid="action_bar_root")
    decor = linear((0, 0, WIDTH, NAV_TOP), frame(area, bar_root))
    return frame((0, 0, WIDTH, HEIGHT), decor,
                 View("android.view.View", (0, NAV_TOP, WIDTH, HEIGHT),
                      rid="android:id/navigationBarBackground"),
                 View("android.view.View", (0, 0, WIDTH, STATUS_BOTTOM),
                      rid="android:id/statusBarBackground"))


def screen(package: str, content: View, dialog: View | None, clock: Clock,
           icons: Sequence[tuple[str, str]] = DEFAULT_ICONS) -> list[tuple[str, View]]:
    """The windows of one screen, bottom to top, each with its package."""
    windows = [(package, app_window(content))]
    if dialog is not None:
        windows.append((package, dialog))
    windows.append((SYSTEMUI, status_bar(clock, icons)))
    windows.append((SYSTEMUI, navigation_bar()))
    return windows
