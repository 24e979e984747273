"""Recorded sessions of the settings app: what a user did, step by step."""

from __future__ import annotations

from .recorder import Session, registry
from .settings import SettingsApp

APP = SettingsApp
TRACES: list = []
trace = registry(TRACES)


@trace("dark_theme_via_search", "Turn on dark theme.")
def _(s: Session) -> None:
    s.tap("search_bar")
    s.type("search", "dark")
    s.tap("result:dark_theme")
    s.tap("switch:dark_theme")
    s.key("back")
    s.key("back")


@trace("airplane_mode_keep_wifi", "Turn on airplane mode but keep Wi-Fi on.")
def _(s: Session) -> None:
    s.tap("row:devices")
    s.key("back")
    s.tap("row:network")
    s.tap("switch:airplane")
    s.tap("switch:wifi")
    s.key("back")


@trace("font_size_large", "Make the font size Large.")
def _(s: Session) -> None:
    s.tap("row:display")
    s.tap("row:font_size")
    s.tap("choice:Largest")
    s.tap("dialog:Cancel")
    s.tap("row:font_size")
    s.tap("choice:Large")
    s.tap("dialog:OK")


@trace("reset_all_settings", "Reset all settings to their defaults.")
def _(s: Session) -> None:
    s.tap("row:sound")
    s.key("back")
    s.scroll("recycler_view", "down")
    s.tap("row:system")
    s.tap("row:reset_options")
    s.tap("row:reset_settings")
    s.tap("dialog:Reset")
    s.key("back")
    s.key("back")
    s.tap("row:sound")


@trace("android_version_and_patch",
       "Which Android version is this phone running, and when was its last security update?")
def _(s: Session) -> None:
    s.scroll("recycler_view", "down")
    s.tap("row:system")
    s.key("back")
    s.tap("row:about")
    s.tap("row:android_version")
    s.answer("Android 14, security update of February 5, 2024")


@trace("bluetooth_off_dnd_on", "Turn off Bluetooth and turn on Do Not Disturb.")
def _(s: Session) -> None:
    s.tap("row:devices")
    s.tap("switch:bluetooth")
    s.tap("up")
    s.tap("row:sound")
    s.tap("row:dnd")
    s.key("back")
    s.tap("row:notifications")


@trace("ip_address", "What is this phone's IP address?")
def _(s: Session) -> None:
    s.tap("row:network")
    s.key("back")
    s.scroll("recycler_view", "down")
    s.tap("row:about")
    s.scroll("recycler_view", "down")
    s.answer("192.168.1.23")
