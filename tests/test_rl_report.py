"""What a run shows: the success table and the two PNG plots (drawn by matplotlib)."""

from __future__ import annotations

import pytest

from rl.report import plot_curve, plot_rates, table

RESULT = {"success_rate": 0.75, "episodes": 8, "valid_rate": 0.96, "model": "runs/x/final",
          "per_app": {"shopping": {"success_rate": 0.75, "episodes": 8}},
          "per_kind": {"composite": {"success_rate": 0.5, "episodes": 4},
                       "state": {"success_rate": 1.0, "episodes": 4}}}


def _pixels(path):  # noqa: ANN001, ANN202
    from PIL import Image

    with Image.open(path) as im:
        return im.size, len(im.convert("RGB").getcolors(maxcolors=1 << 24))


def test_the_table_names_every_kind_and_app() -> None:
    text = table(RESULT)
    assert text.splitlines()[0].startswith("held-out success: 75.0% of 8 instances")
    assert "kind composite" in text and "50.0% of 4" in text and "app shopping" in text


def test_plots_are_drawn_pictures_not_blank(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("PIL")
    bars = plot_rates(RESULT, tmp_path / "eval.png")
    curve = plot_curve({"held_out": [{"stage": "before", "success_rate": 0.0},
                                     {"stage": "sft", "success_rate": 0.6},
                                     {"stage": "rl 10", "success_rate": 0.8}],
                        "rl": [{"iteration": i, "success": {"mock": i / 10, "device": 0.5}}
                               for i in range(10)]}, tmp_path / "sub" / "curve.png")
    for path in (bars, curve):
        (w, h), colours = _pixels(path)
        assert w >= 400 and h >= 300
        assert colours > 50  # text, axes and bars (antialiased), not a blank page
