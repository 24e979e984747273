"""Real phones: observe and act over adb, record sessions, judge success from the screen.

    from phoneworld.device.adb import AdbDevice          # uiautomator2 over adb
    from phoneworld.device.stable import observe          # a settled Screen
    from phoneworld.device.bridge import Bridge           # AndroidWorld actions -> gestures
    from phoneworld.device.recorder import Recorder       # sessions -> trace folders

Modules, one concept each: `protocol` (the `Device` protocol, `Screen`), `adb` (the
uiautomator2/adbutils implementation and its fast, clear failures), `stable` (settled
hierarchies, retries), `bridge` (element lists, gestures, trace actions), `touches`
(getevent -> gestures), `recorder` (sessions in phoneworld's trace format), `double`
(`ReplayDevice`, a device that replays recorded hierarchies, for tests), `predicates`
(screen predicates for success on real apps), `commands` (`phoneworld record`).
Nothing here imports uiautomator2 except `adb`, and only when connecting.
"""
