"""Small things the rl tests share: one example app, toy navigation tasks, a micro model."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "generated" / "shopping"


@pytest.fixture
def one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """One torch thread and no hub: what every rl test runs under (`pytestmark`)."""
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


def toy_setup(n: int = 8) -> tuple[list, list, list]:
    """(specs, toy tasks, their chat examples) on the shopping app."""
    from rl import data
    from tests import rl_toy as toy

    specs = data.load_specs([APP])
    tasks = toy.sample_tasks(specs, n, 0)
    examples = []
    backend = data.target(specs)
    for t in tasks:
        demo = toy.make_demo(specs, t)
        examples += data.replay_examples(backend, t, data.demo_actions(demo)) or []
    return specs, tasks, examples


@pytest.fixture(scope="module")
def micro(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list, list, list]:
    """A micro model built from the toy examples: (folder, specs, tasks, examples)."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from rl import data
    from rl.model import build_tiny

    specs, tasks, examples = toy_setup()
    folder = build_tiny(data.corpus(specs, examples), tmp_path_factory.mktemp("micro"),
                        size="micro")
    return folder, specs, tasks, examples
