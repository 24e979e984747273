"""The view-hierarchy model every part shares: readers, compiler, runtime, device, replay.

Modules, one concept each: `node` (`Node`, `Bounds`, `NodePath`), `hierarchy`
(uiautomator / Appium XML in and out), `skeleton` (what stays the same when a screen's
content changes), `hits` (which view a touch lands on), `widgets` (stable widget keys).
"""
