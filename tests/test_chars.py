"""One rule for the characters drawn a full em wide (`runtime.chars`), shared by the
width estimate, the ink sampler and the line breaker of texts over plates."""

from __future__ import annotations

import pytest

from phoneworld.runtime import widgets
from phoneworld.runtime.chars import wide
from phoneworld.serve import texts
from phoneworld.visual import sample


@pytest.mark.parametrize("ch", ["中", "你", "한", "ア", "ー", "、", "Ａ", "😀", "\U00020000"])
def test_cjk_kana_hangul_fullwidth_and_emoji_are_wide(ch):
    assert wide(ch)


@pytest.mark.parametrize("ch", ["A", "é", "ж", "ｱ", "①", "☀", " ", "-", "\u0301"])
def test_latin_halfwidth_kana_and_ambiguous_symbols_are_not(ch):
    assert not wide(ch)


def test_the_three_users_share_it():
    assert widgets.wide is wide and sample.wide is wide and texts.wide is wide
    assert widgets.text_width("中文", 10) == 20.0  # a square glyph each
    assert widgets.text_width("ｱｲ", 10) < 20.0
