"""Which task instances a run trains on and which it is judged on (`rl.data.split`)."""

from __future__ import annotations

from collections import Counter

import pytest

from rl import data
from tests.rl_fixtures import ROOT


@pytest.fixture(scope="module")
def specs() -> list:
    return data.load_specs([ROOT / "generated"])


def test_held_out_instances_are_new_parameters_of_trained_templates(specs) -> None:
    from phoneworld.tasks import templates
    from phoneworld.tasks.instances import draw

    held = data.held_out_ids(specs)
    assert held == data.held_out_ids(list(reversed(specs)))  # no order, no seed
    for spec in specs:
        for template in templates(spec):
            ids = {i.id for i in draw(spec, template)}
            kept = ids - held
            assert kept or not ids  # never a template's every instance
            assert len(ids & held) == min(len(ids) - 1, round(len(ids) * data.HELD_OUT_SHARE))
    assert len(held) >= 0.15 * sum(len(draw(s, t)) for s in specs for t in templates(s))


@pytest.mark.parametrize("n, held", [(300, 60), (40, 10), (10, 4)])
def test_split_trains_on_no_held_out_instance_of_any_seed(specs, n: int, held: int) -> None:
    reserve = data.held_out_ids(specs)
    runs = {seed: data.split(specs, n, held, seed) for seed in (0, 1)}
    for train, test in runs.values():
        assert len(train) == n and len(test) == held
        assert not any(data.is_held_out(t, reserve) for t in train)
        assert all(data.is_held_out(t, reserve) for t in test)
    trained = {t.id for seed in runs for t in runs[seed][0]}
    judged = {t.id for seed in runs for t in runs[seed][1]}
    assert not trained & judged  # no seed trains on what another is judged on
    assert data.split(specs, n, held, 0) == runs[0]  # deterministic
    if held >= 10:  # kinds take turns in the draw: several kinds are judged
        assert len(Counter(t.kind for t in runs[0][1])) >= 3


def test_one_app_alone_has_held_out_instances_of_its_own(specs) -> None:
    """`phoneworld eval --apps generated/shopping` after a run on every app finds 50
    instances the run never trained on."""
    train, _ = data.split(specs, 2400, 40, 0)
    shop = data.load_specs([ROOT / "generated" / "shopping"])
    trained = {t.id for t in train}
    fresh = [t for t in data.sample(shop, 50 + len(trained), 987654) if t.id not in trained]
    assert len(fresh) >= 50
    assert sum(t.id in data.held_out_ids(shop) for t in fresh[:50]) >= 40


def _split_drawing_each_size(specs, n: int, held: int, seed: int, kinds=None):
    """`split` as it was written before it drew once: a draw of every size in turn."""
    reserve = data.held_out_ids(specs)
    want = n + held
    while True:
        pool = data.sample(specs, want, seed, kinds)
        train = [t for t in pool if not data.is_held_out(t, reserve)]
        test = [t for t in pool if data.is_held_out(t, reserve)]
        if (len(train) >= n and len(test) >= held) or len(pool) < want:
            return train[:n], test[:held]
        want = want * 3 // 2 + 10


@pytest.mark.parametrize("n, held, kinds", [(0, 0, None), (7, 0, None), (200, 40, None),
                                            (30, 5, ["state", "navigation"])])
def test_one_draw_cut_to_each_size_is_a_draw_of_each_size(specs, n, held, kinds) -> None:
    """`split` draws once and cuts the draw to each size it would have drawn: the same
    instances in the same order as drawing every size."""
    for seed in (0, 3):
        assert data.split(specs, n, held, seed, kinds) == \
            _split_drawing_each_size(specs, n, held, seed, kinds)


def test_a_draw_the_apps_cannot_fill_is_drawn_at_each_size(specs) -> None:
    """More instances than an app has: every size is drawn as before, and all are there."""
    shop = [s for s in specs if s.name == "shopping"]
    everything = data.sample(shop, 10**6, 0)
    got = data.split(shop, 10**6, 5, 0)
    assert got == _split_drawing_each_size(shop, 10**6, 5, 0)
    assert len(got[0]) + len(got[1]) <= len(everything) < 10**6
