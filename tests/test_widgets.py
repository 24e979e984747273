"""The Material-like look of one box (`runtime.widgets`): what a switch shows beside its
track."""

from __future__ import annotations

import pytest

from phoneworld.runtime.widgets import switch_label


@pytest.mark.parametrize("text,checked,shown", [
    ("Image dimming (in Dark theme) ON", True, "Image dimming (in Dark theme)"),
    ("Image dimming (in Dark theme) OFF", False, "Image dimming (in Dark theme)"),
    ("夜间模式 开启", True, "夜间模式"),
    ("ON", True, "ON"),                 # a state word alone: the track's (`_room`)
    ("Turn on", True, "Turn on"),       # a label that ends in a lower-case word
    ("Sound OFF", True, "Sound OFF"),   # a word that does not say the switch's state
    ("Show images", False, "Show images"),
])
def test_a_switch_shows_its_label_without_its_state_word(text, checked, shown):
    """wikipedia's theme sheet: the Switch's text is its label and ON or OFF (the
    recording shows the label alone beside the track); flipped, the mock drew "Image
    dimming (in Dark theme) OFF"."""
    assert switch_label(text, checked) == shown
