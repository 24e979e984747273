"""One rule for the characters drawn a full em wide (`runtime.chars`), shared by the ink
sampler and the line breaker of texts over plates; the widths the page draws them at
agree (`runtime.advances`)."""

from __future__ import annotations

import pytest

from phoneworld.runtime.advances import advance
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
    assert sample.wide is wide and texts.wide is wide
    assert advance("中文", 10) == pytest.approx(20.0)  # a square glyph each (Noto CJK)
    assert advance("ｱｲ", 10) < 20.0
