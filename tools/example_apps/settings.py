"""`com.example.settings`: a settings app of preference pages, switches and two dialogs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .app import App, Route
from .views import (
    MARGIN,
    WIDTH,
    View,
    action_slot,
    alert_dialog,
    group,
    image,
    image_button,
    label,
    linear,
    text_width,
    toolbar,
    vlist,
)

AREA = (0, 63, WIDTH, 2337)
DEFAULTS = {"wifi": True, "mobile_data": True, "airplane": False, "bluetooth": True,
            "adaptive_brightness": True, "dark_theme": False, "auto_rotate": False,
            "dnd": False, "vibrate_calls": True, "touch_sounds": True, "lock_sound": False,
            "notification_dot": True, "snooze": False, "lock_screen": True}
START = {**DEFAULTS, "auto_rotate": True, "lock_sound": True, "snooze": True}
FONT_SIZES = ("Small", "Default", "Large", "Largest")
Summary = str | Callable[["SettingsApp"], str]


@dataclass(frozen=True)
class Row:
    """One preference: a link to a page, a switch over a flag, a dialog, or a header."""

    id: str
    title: str
    summary: Summary = ""
    flag: str = ""
    opens: str = ""
    dialog: str = ""
    header: bool = False


def _on_off(flag: str, on: str = "On", off: str = "Off") -> Callable[[SettingsApp], str]:
    return lambda app: on if app.flags[flag] else off


def _network(app: SettingsApp) -> str:
    if app.flags["airplane"]:
        return "Airplane mode is on"
    return "Wi-Fi: HomeNet" if app.flags["wifi"] else "Wi-Fi off, mobile data"


PAGES: dict[str, tuple[str, str, list[Row]]] = {
    "main": ("Settings", ".Settings", [
        Row("network", "Network & internet", _network, opens="network"),
        Row("devices", "Connected devices",
            lambda a: "Bluetooth on" if a.flags["bluetooth"] else "Bluetooth off",
            opens="devices"),
        Row("apps", "Apps", "Recent apps, default apps"),
        Row("notifications", "Notifications", "Notification history, conversations",
            opens="notifications"),
        Row("battery", "Battery", lambda a: f"{a.clock.battery}%"),
        Row("storage", "Storage", "62% used - 48.6 GB free"),
        Row("sound", "Sound & vibration",
            lambda a: "Do Not Disturb is on" if a.flags["dnd"] else "Volume, haptics, "
            "Do Not Disturb", opens="sound"),
        Row("display", "Display", "Dark theme, font size, brightness", opens="display"),
        Row("wallpaper", "Wallpaper & style", "Colors, themed icons, app grid"),
        Row("accessibility", "Accessibility", "Display, interaction, audio"),
        Row("security", "Security & privacy", "App security, device lock, permissions"),
        Row("location", "Location", "On - 4 apps have access to location"),
        Row("system", "System", "Languages, gestures, time, backup", opens="system"),
        Row("about", "About phone", "Pixel 7", opens="about"),
    ]),
    "network": ("Network & internet", ".SubSettings$NetworkDashboardActivity", [
        Row("wifi", "Wi-Fi", lambda a: "HomeNet" if a.flags["wifi"] else "Off", flag="wifi"),
        Row("mobile_data", "Mobile data", lambda a: "T-Mobile" if a.flags["mobile_data"]
            else "Off", flag="mobile_data"),
        Row("airplane", "Airplane mode", _on_off("airplane"), flag="airplane"),
        Row("hotspot", "Hotspot & tethering", "Off"),
        Row("data_saver", "Data Saver", "Off"),
        Row("vpn", "VPN", "None"),
        Row("private_dns", "Private DNS", "Automatic"),
    ]),
    "devices": ("Connected devices", ".SubSettings$ConnectedDeviceDashboardActivity", [
        Row("pair", "Pair new device"),
        Row("bluetooth", "Bluetooth", lambda a: "Visible as \u201cPixel 7\u201d to other devices"
            if a.flags["bluetooth"] else "Off", flag="bluetooth"),
        Row("previous", "Previously connected devices", header=True),
        Row("buds", "Pixel Buds Pro", lambda a: "Disconnected" if a.flags["bluetooth"]
            else "Bluetooth is off"),
        Row("car", "Honda Civic", lambda a: "Disconnected" if a.flags["bluetooth"]
            else "Bluetooth is off"),
        Row("speaker", "JBL Flip 5", lambda a: "Disconnected" if a.flags["bluetooth"]
            else "Bluetooth is off"),
        Row("preferences", "Connection preferences", "Bluetooth, NFC, Android Auto"),
    ]),
    "display": ("Display", ".SubSettings$DisplaySettingsActivity", [
        Row("brightness_header", "Brightness", header=True),
        Row("brightness", "Brightness level", "52%"),
        Row("adaptive_brightness", "Adaptive brightness", "Optimize brightness for the light",
            flag="adaptive_brightness"),
        Row("appearance", "Appearance", header=True),
        Row("dark_theme", "Dark theme", "Use a dark background to help extend battery life",
            flag="dark_theme"),
        Row("font_size", "Font size", lambda a: a.font, dialog="font_size"),
        Row("timeout", "Screen timeout", "After 30 seconds of inactivity"),
        Row("auto_rotate", "Auto-rotate screen", "", flag="auto_rotate"),
    ]),
    "sound": ("Sound & vibration", ".SubSettings$SoundSettingsActivity", [
        Row("media_volume", "Media volume", "60%"),
        Row("dnd", "Do Not Disturb", _on_off("dnd", "On", "Off"), flag="dnd"),
        Row("vibrate_calls", "Vibrate for calls", "", flag="vibrate_calls"),
        Row("ringtone", "Phone ringtone", "Pixel Sounds"),
        Row("notification_sound", "Default notification sound", "Chime"),
        Row("touch_sounds", "Touch sounds", "", flag="touch_sounds"),
        Row("lock_sound", "Screen locking sound", "", flag="lock_sound"),
    ]),
    "notifications": ("Notifications", ".SubSettings$ConfigureNotificationSettingsActivity", [
        Row("history", "Notification history", "Show recent and snoozed notifications"),
        Row("lock_screen", "Notifications on lock screen", "Show conversations, default, "
            "and silent", flag="lock_screen"),
        Row("notification_dot", "Notification dot on app icon", "", flag="notification_dot"),
        Row("snooze", "Allow notification snoozing", "", flag="snooze"),
        Row("dnd_shortcut", "Do Not Disturb", _on_off("dnd", "On", "Off"), flag="dnd"),
    ]),
    "system": ("System", ".SubSettings$SystemDashboardActivity", [
        Row("languages", "Languages", "English (United States)"),
        Row("gestures", "Gestures", "Quick tap, navigation mode"),
        Row("date_time", "Date & time", "GMT-07:00 Pacific Daylight Time"),
        Row("backup", "Backup", "On"),
        Row("reset_options", "Reset options", "", opens="reset"),
    ]),
    "reset": ("Reset options", ".SubSettings$ResetDashboardActivity", [
        Row("reset_network", "Reset Wi-Fi, mobile & Bluetooth"),
        Row("reset_apps", "Reset app preferences"),
        Row("reset_settings", "Reset settings", "Return display, sound and network settings "
            "to their defaults", dialog="reset"),
    ]),
    "about": ("About phone", ".SubSettings$MyDeviceInfoActivity", [
        Row("device_name", "Device name", "Pixel 7"),
        Row("phone_number", "Phone number", "+1 415-555-0144"),
        Row("emergency", "Emergency information", "Info and contacts for Jane"),
        Row("legal", "Legal information"),
        Row("regulatory", "Regulatory labels"),
        Row("sim_status", "SIM status", "T-Mobile"),
        Row("model", "Model", "Pixel 7 (GVU6C)"),
        Row("imei", "IMEI", "353210110284466"),
        Row("android_version", "Android version", "14", opens="firmware"),
        Row("ip_address", "IP address",
            lambda a: "192.168.1.23" if a.flags["wifi"] else "Unavailable"),
        Row("wifi_mac", "Wi-Fi MAC address", "a4:83:e7:2c:91:0f"),
        Row("bluetooth_address", "Bluetooth address",
            lambda a: "a4:83:e7:2c:91:10" if a.flags["bluetooth"] else "Unavailable"),
        Row("build", "Build number", "UQ1A.240205.004"),
    ]),
    "firmware": ("Android version", ".SubSettings$FirmwareVersionActivity", [
        Row("fw_version", "Android version", "14"),
        Row("security_update", "Android security update", "February 5, 2024"),
        Row("play_update", "Google Play system update", "January 1, 2024"),
        Row("baseband", "Baseband version", "g5300g-230927-231102-B-11032532"),
        Row("kernel", "Kernel version", "5.10.177-android13-4-00003-g4b6ec1b5d3e1"),
        Row("fw_build", "Build number", "UQ1A.240205.004"),
    ]),
}
PAGE_OF = {row.id: page for page, (_, _, rows) in PAGES.items() for row in rows}


class SettingsApp(App):
    package = "com.example.settings"
    start = "page"

    def __init__(self, clock) -> None:
        super().__init__(clock)
        self.route.params["id"] = "main"
        self.flags = dict(START)
        self.saved = {"wifi": True, "mobile_data": True}
        self.font = "Default"
        self.font_choice = ""

    def activity(self) -> str:
        if self.route.name == "search":
            return f"{self.package}/.SearchResultsActivity"
        return f"{self.package}/{PAGES[self.route.params['id']][1]}"

    def status_icons(self) -> tuple[tuple[str, str], ...]:
        f = self.flags
        icons = [("dnd", "Do Not Disturb.")] if f["dnd"] else []
        if f["airplane"]:
            icons.append(("airplane", "Airplane mode."))
        if f["wifi"]:
            icons.append(("wifi_combo", "Wifi three bars."))
        if not f["airplane"]:
            icons.append(("mobile_combo", "Phone four bars." if f["mobile_data"]
                          else "Phone four bars. No data."))
        return tuple(icons)

    # -- state changes ------------------------------------------------------------------

    def toggle(self, flag: str):
        def handler() -> None:
            on = not self.flags[flag]
            self.flags[flag] = on
            if flag == "airplane" and on:
                self.saved = {k: self.flags[k] for k in ("wifi", "mobile_data", "bluetooth")}
                self.flags.update(wifi=False, mobile_data=False, bluetooth=False)
            elif flag == "airplane":
                self.flags.update(self.saved)
        return handler

    def open_page(self, page: str):
        def handler() -> None:
            self.go("page", id=page)
        return handler

    def ask(self, which: str):
        def handler() -> None:
            self.font_choice = self.font
            self.dialog = self._font_dialog if which == "font_size" else self._reset_dialog
        return handler

    def _close(self) -> None:
        self.dialog = None

    def _set_font(self) -> None:
        self.font = self.font_choice
        self.dialog = None

    def _reset(self) -> None:
        self.flags = dict(DEFAULTS)
        self.font = "Default"
        self.dialog = None

    def _font_dialog(self) -> View:
        def choose(size: str):
            def handler() -> None:
                self.font_choice = size
            return handler
        top = (2400 - (168 + 4 * 147 + 168)) // 2 + 168
        choices = [View("android.widget.CheckedTextView", (74, top + i * 147, 1006,
                                                           top + (i + 1) * 147),
                        rid="android:id/text1", text=size, checkable=True, clickable=True,
                        checked=size == self.font_choice, key=f"choice:{size}",
                        on_tap=choose(size))
                   for i, size in enumerate(FONT_SIZES)]
        body = View("android.widget.ListView", (74, top, 1006, top + 4 * 147),
                    rid="android:id/select_dialog_listview", children=choices)
        return alert_dialog("Font size", "", [("OK", self._set_font), ("Cancel", self._close)],
                            body=[body], body_height=4 * 147)

    def _reset_dialog(self) -> View:
        return alert_dialog("Reset all settings?", "Network, display and sound settings will "
                            "go back to their defaults. Your apps and data are not affected.",
                            [("Reset", self._reset), ("Cancel", self._close)])

    # -- screens ------------------------------------------------------------------------

    def _row(self, row: Row, icons: bool = False):
        summary = row.summary(self) if callable(row.summary) else row.summary
        if row.header:
            return (126, lambda y: linear((0, y, WIDTH, y + 126), label(
                row.title, 189 if icons else MARGIN, y + 52, sp=14, rid="android:id/title")))
        disabled = self.flags["airplane"] and row.flag in ("mobile_data", "bluetooth")
        height = 231 if summary and len(summary) > 38 else 189 if summary else 168
        on_tap = (None if disabled else self.toggle(row.flag) if row.flag else
                  self.open_page(row.opens) if row.opens else
                  self.ask(row.dialog) if row.dialog else None)

        def build(y: int) -> View:
            x = 189 if icons else MARGIN
            right = 850 if row.flag else 1033
            texts = [label(row.title, x, y + 37, sp=17, rid="android:id/title", right=right)]
            if summary:
                lines = 2 if len(summary) > 38 else 1
                texts.append(label(summary, x, y + 103, sp=14, rid="android:id/summary",
                                   right=right, lines=lines, enabled=not disabled))
            kids = []
            if icons:
                kids.append(linear((0, y, 147, y + height), image(
                    (MARGIN, y + height // 2 - 31, 110, y + height // 2 + 32),
                    rid="android:id/icon"), rid="icon_frame"))
            kids.append(View("android.widget.RelativeLayout", (x, y + 37, right, y + height - 31),
                             children=texts))
            if row.flag:
                on = self.flags[row.flag]
                kids.append(linear((880, y, 1033, y + height), View(
                    "android.widget.Switch", (880, y + height // 2 - 42, 1033,
                                              y + height // 2 + 42),
                    rid="android:id/switch_widget", text="ON" if on else "OFF", checkable=True,
                    checked=on, focusable=False, enabled=not disabled,
                    key=f"switch:{row.id}", on_tap=on_tap), rid="android:id/widget_frame"))
            return linear((0, y, WIDTH, y + height), *kids, clickable=True, enabled=not disabled,
                          key=f"row:{row.id}", on_tap=on_tap)
        return (height, build)

    def screen_page(self, route: Route) -> View:
        page = route.params["id"]
        title, _, rows = PAGES[page]
        items = [self._row(r, icons=page == "main") for r in rows]
        if page == "main":
            search = linear((MARGIN, 231, 1033, 357), image((89, 263, 152, 326)),
                            label("Search settings", 184, 266, sp=16), rid="search_action_bar",
                            clickable=True, key="search_bar", on_tap=self._open_search)
            return group(AREA, toolbar("Settings"), search,
                         vlist("recycler_view", (0, 378, WIDTH, 2337), items, route.scroll),
                         rid="main_content")
        if page == "about":
            items.insert(0, (315, lambda y: linear(
                (0, y, WIDTH, y + 315), image((MARGIN, y + 52, 194, y + 199)),
                label("Pixel 7", MARGIN, y + 220, sp=24, rid="device_name_header"))))
        return group(AREA, toolbar(title, up=self.back),
                     vlist("recycler_view", (0, 210, WIDTH, 2337), items, route.scroll),
                     rid="main_content")

    def _open_search(self) -> None:
        self.go("search")
        self.focus = "search"

    def screen_search(self, route: Route) -> View:
        query = self.fields.get("search", "").strip().lower()
        found = []
        if query:
            for page, (page_title, _, rows) in PAGES.items():
                for row in rows:
                    if query in row.title.lower() and not row.header and page != "main":
                        found.append(self._result(row, page_title))
        bar = group((0, 63, WIDTH, 210),
                    image_button((0, 63, 147, 210), "Navigate up", key="up", on_tap=self.back),
                    self.edit_text("search", (147, 84, 933, 189), "Search settings",
                                   rid="search_src_text"),
                    image_button(action_slot(0, 1), "Clear text", rid="search_close_btn"),
                    rid="search_toolbar")
        body = [vlist("results", (0, 210, WIDTH, 2337), found, route.scroll)]
        if query and not found:
            body.append(label("No results", (WIDTH - text_width("No results")) // 2, 420,
                              rid="no_results"))
        return group(AREA, bar, *body, rid="main_content")

    def _result(self, row: Row, page_title: str):
        def build(y: int) -> View:
            return linear((0, y, WIDTH, y + 189),
                          label(row.title, MARGIN, y + 37, sp=17, rid="android:id/title"),
                          label(page_title, MARGIN, y + 103, sp=14, rid="breadcrumb"),
                          clickable=True, key=f"result:{row.id}",
                          on_tap=self.open_page(PAGE_OF[row.id]))
        return (189, build)
