"""The group-relative loop: advantages, group and mix bookkeeping, an update, devices, resume."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict
from pathlib import Path

import pytest

from rl.grpo import advantages, plan_groups, summarize
from rl.rollout import Episode, split
from tests.rl_fixtures import ROOT

pytestmark = pytest.mark.usefixtures("one_thread")


def test_advantages_are_relative_to_the_group() -> None:
    adv = advantages([1, 0, 0, 0, 1, 1], [0, 0, 0, 1, 1, 1])
    assert adv[0] > 0 > adv[1] == adv[2]
    assert adv[3] < 0 < adv[4] == adv[5]
    assert advantages([1, 1, 0, 0], [0, 0, 1, 1]) == [0, 0, 0, 0]  # no signal


def test_mix_sends_that_fraction_of_groups_to_mock_apps() -> None:
    mock, dev = ["m1", "m2"], ["d1"]
    assert all(s == "mock" for it in range(20) for _, s in plan_groups(mock, dev, 8, 1.0, 0,
                                                                       it).groups)
    assert all(s == "device" for _, s in plan_groups(mock, dev, 8, 0.0, 0, 3).groups)
    plans = [plan_groups(mock, dev, 8, 0.5, 0, it) for it in range(200)]
    share = sum(p.count("mock") for p in plans) / (8 * 200)
    assert 0.45 < share < 0.55
    for p in plans[:20]:  # every group's task comes from its own source's pool
        assert all((t in mock) == (s == "mock") for t, s in p.groups)
    assert plan_groups(mock, dev, 8, 0.5, 0, 7).groups == plan_groups(mock, dev, 8, 0.5, 0,
                                                                      7).groups
    assert all(s == "mock" for _, s in plan_groups(mock, [], 8, 0.0, 0, 1).groups)


def test_groups_go_to_the_templates_the_policy_half_solves() -> None:
    from types import SimpleNamespace as T

    from rl.grpo import Curriculum

    tasks = [T(id=f"{k}#{i}", template=k) for k in ("easy", "hard", "half", "new")
             for i in range(5)]
    cur = Curriculum()
    wins = {"easy": 1.0, "hard": 0.0, "half": 0.5}
    for _ in range(6):
        played = [t for t in tasks if t.template != "new"]
        eps = [Episode(t.id, "mock", g, reward=float(wins[t.template] > (j % 4) / 4))
               for g, t in enumerate(played) for j in range(4)]
        cur.record(played, eps)
    w = {k: cur.weight(T(id="x", template=k)) for k in ("easy", "hard", "half", "new")}
    assert w["new"] == 0.25 and w["half"] > 0.2  # unknown, or disagreeing episodes
    assert w["easy"] < 0.05 and w["hard"] < 0.05  # all alike: no signal
    counts = Counter(t.template for it in range(50)
                     for t, _ in plan_groups(tasks, [], 4, 1.0, 0, it, cur.weight).groups)
    assert counts["half"] + counts["new"] > 5 * (counts["easy"] + counts["hard"])
    plan = plan_groups(tasks, [], 4, 1.0, 0, 3, cur.weight)
    assert len({t.id for t, _ in plan.groups}) == 4  # no task twice in an iteration
    assert plan.groups == plan_groups(tasks, [], 4, 1.0, 0, 3, cur.weight).groups
    again = Curriculum(**asdict(cur))  # as a checkpoint holds it
    assert again.weight(tasks[0]) == cur.weight(tasks[0])


def test_summary_reports_success_per_source_and_valid_rate() -> None:
    eps = [Episode("a", "mock", 0, steps=[([1], [2])] * 2, reward=1.0, valid=2),
           Episode("a", "mock", 0, steps=[([1], [2])] * 2, reward=0.0, valid=1),
           Episode("b", "device", 1, steps=[([1], [2])], reward=1.0, valid=1)]
    s = summarize(eps)
    assert s["success"] == {"device": 1.0, "mock": 0.5}
    assert s["episodes"] == {"device": 1, "mock": 2}
    assert s["valid_rate"] == pytest.approx(4 / 5)


def test_split_deals_groups_to_workers() -> None:
    assert split([1, 2, 3, 4, 5], 2) == [[1, 3, 5], [2, 4]]
    assert split([1], 4) == [[1]]


def test_one_iteration_updates_the_weights(micro) -> None:
    torch = pytest.importorskip("torch")
    from rl.data import target
    from rl.grpo import update
    from rl.model import load_policy
    from rl.rollout import Slot, play

    folder, specs, tasks, _ = micro
    model, tok = load_policy(folder)
    torch.manual_seed(0)
    slots = [Slot(target(specs), tasks[0], "mock", 0) for _ in range(4)]
    eps = play(model, tok, slots, max_steps=2, max_new_tokens=8)
    assert all(e.n >= 1 and e.valid <= e.n for e in eps)  # junk output: failed steps only
    for e, r in zip(eps, [1.0, 0.0, 0.0, 1.0], strict=True):
        e.reward = r
    before = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1.0)
    stats = update(model, None, opt, sched, eps, pad=tok.pad_token_id)
    assert stats["used_steps"] == sum(e.n for e in eps)
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))


def _device(tasks: list) -> object:
    from phoneworld.device.double import ReplayDevice
    from phoneworld.env.backends.device import DeviceBackend
    from phoneworld.traces import read_traces

    trace = read_traces(ROOT / "traces" / "shopping" / "last_snack_price")[0]
    return DeviceBackend(ReplayDevice(trace), package=trace.app, tasks=tasks)


def _screen_task() -> object:
    from phoneworld.device.predicates import ScreenTask

    return ScreenTask("snacks", "Open the Snacks category.",
                      'exists(node where text ~ "Snacks")', ("shopping",))


def test_device_episodes_are_judged_by_the_screen_predicate(micro) -> None:
    pytest.importorskip("torch")
    from rl.model import load_policy
    from rl.rollout import Slot, play

    folder, *_ = micro
    model, tok = load_policy(folder)
    dev = _device([_screen_task()])
    eps = play(model, tok, [Slot(dev, _screen_task(), "device", 3)], max_steps=2,
               max_new_tokens=8)
    assert eps[0].source == "device" and eps[0].group == 3 and eps[0].n >= 1
    ok, reason = dev.check(_screen_task())  # the judge's verdict on where the episode ended
    assert eps[0].reward == (1.0 if ok else 0.0) and eps[0].reason == reason
    assert "final screen" in reason


def _cfg(out: Path, **kw: object) -> object:
    from rl.config import TrainConfig

    base = {"apps": [str(ROOT / "generated" / "shopping")], "out": str(out), "rl_steps": 2,
            "group": 2, "groups": 2, "max_steps": 2, "max_new_tokens": 8, "save_every": 1,
            "rl_lr": 1e-3, "demo_workers": 0}
    return TrainConfig(**{**base, **kw})


@pytest.mark.slow
def test_mixed_run_logs_groups_per_source(micro, tmp_path) -> None:
    pytest.importorskip("torch")
    from rl.online import train_rl

    folder, specs, tasks, _ = micro
    cfg = _cfg(tmp_path, mix=0.5, rl_steps=3, groups=4)
    _, log = train_rl(cfg, folder, specs, tasks, devices=[_device([_screen_task()])])
    assert len(log) == 3
    for rec in log:
        assert rec["groups"]["mock"] + rec["groups"]["device"] == 4
        for src in ("mock", "device"):
            assert (rec["episodes"].get(src, 0) == 2 * rec["groups"][src])
            assert (src in rec["success"]) == (rec["groups"][src] > 0)
        assert 0.0 <= rec["valid_rate"] <= 1.0
    assert sum(r["groups"]["device"] for r in log) > 0
    lines = (tmp_path / "rl" / "log.jsonl").read_text().splitlines()
    assert [json.loads(x)["iteration"] for x in lines] == [0, 1, 2]


@pytest.mark.slow
def test_resume_loses_and_repeats_no_iteration(micro, tmp_path) -> None:
    torch = pytest.importorskip("torch")
    from rl.model import load_policy
    from rl.online import train_rl

    folder, specs, tasks, _ = micro
    whole, log_whole = train_rl(_cfg(tmp_path / "a"), folder, specs, tasks)
    train_rl(_cfg(tmp_path / "b", rl_steps=1), folder, specs, tasks)  # stopped after one
    part, log_rest = train_rl(_cfg(tmp_path / "b", resume=True), folder, specs, tasks)
    assert [r["iteration"] for r in log_rest] == [1]
    lines = [json.loads(x) for x in (tmp_path / "b/rl/log.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in lines] == [0, 1]
    probed = [json.loads((tmp_path / r / "rl" / "probe.json").read_text()) for r in "ab"]
    assert probed[0] == probed[1]  # the resumed run draws from the pool its probe chose
    assert len(probed[0]["success"]) == len(tasks)  # fewer tasks than --probe: all probed
    assert set(probed[0]["pool"]) <= {t.id for t in tasks}
    for a, b in zip(log_whole, lines, strict=True):
        assert a["success"] == b["success"] and a["steps"] == b["steps"]
    m1, _ = load_policy(whole)
    m2, _ = load_policy(part)
    for p, q in zip(m1.parameters(), m2.parameters(), strict=True):
        assert torch.allclose(p, q, atol=1e-6)


def test_kl_to_the_reference_is_zero_before_any_change(micro) -> None:
    torch = pytest.importorskip("torch")
    from rl.data import target
    from rl.grpo import update
    from rl.model import load_policy
    from rl.rollout import Slot, play

    folder, specs, tasks, _ = micro
    model, tok = load_policy(folder)
    ref, _ = load_policy(folder)
    eps = play(model, tok, [Slot(target(specs), tasks[1], "mock", 0) for _ in range(2)],
               max_steps=1, max_new_tokens=6)
    eps[0].reward = 1.0
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1.0)
    stats = update(model, ref, opt, sched, eps, pad=tok.pad_token_id, beta=0.1, epochs=1)
    assert stats["kl"] == pytest.approx(0.0, abs=1e-6) and stats["used_steps"] == 2
    stats = update(model, ref, opt, sched, eps, pad=tok.pad_token_id, beta=0.1, epochs=1)
    assert stats["kl"] > 0.0  # one optimiser step later the policy has moved


@pytest.mark.slow
def test_a_mixed_run_goes_end_to_end_with_the_device_double(tmp_path, capsys) -> None:
    """`--mix 0.5` from demos to the final plot, a `ReplayDevice` standing in for the
    phone that `--device SERIAL` would connect: per-source success in the log and the
    curve, the final model and its evaluations."""
    pytest.importorskip("trl")
    from rl.train import train

    preds = tmp_path / "device_tasks.json"
    preds.write_text(json.dumps([{"id": "snacks", "instruction": "Open the Snacks category.",
                                  "app": "shopping",
                                  "predicate": 'exists(node where text ~ "Snacks")'}]))
    cfg = _cfg(tmp_path / "run", mix=0.5, predicates=str(preds), rl_steps=4, groups=4,
               tasks=4, sft_steps=4, sft_batch=2, eval_tasks=2, eval_every=2,
               tiny_size="micro", sft_processes=1)
    result = train(cfg, devices=[_device([_screen_task()])])
    run = tmp_path / "run"
    log = [json.loads(x) for x in (run / "rl" / "log.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in log] == [0, 1, 2, 3]
    assert sum(r["groups"]["device"] for r in log) > 0 < sum(r["groups"]["mock"] for r in log)
    for r in log:
        assert set(r["success"]) == {s for s, n in r["groups"].items() if n}
    curve = json.loads((run / "curve.json").read_text())
    assert [s["stage"] for s in curve["held_out"]] == ["before", "sft", "rl 2", "rl 4"]
    assert {s for r in curve["rl"] for s in r["success"]} == {"mock", "device"}
    assert (run / "curve.png").read_bytes().startswith(b"\x89PNG")
    assert result["eval"]["episodes"] == 2 and (run / "final" / "config.json").is_file()
    assert json.loads((run / "result.json").read_text())["final"] == str(run / "final")


def test_the_update_counts_only_the_tokens_the_policy_chose(micro) -> None:
    """Grounded decoding forces most of a reply (the action its reason names); those
    positions are recorded as not chosen and left out of the update's token mask."""
    torch = pytest.importorskip("torch")
    from rl.data import target
    from rl.ground import Grounded, seen_at
    from rl.grpo import step_batch, update
    from rl.model import load_policy, prompt_ids
    from rl.rollout import Slot, play

    folder, specs, tasks, _ = micro
    model, tok = load_policy(folder)
    screen = [{"index": 0, "text": "Bakery", "clickable": True, "bounds": [0, 0, 9, 9]},
              {"index": 1, "text": "Drinks", "clickable": True, "bounds": [0, 9, 9, 19]}]
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: x"}])

    def forced(head: str) -> bool:
        g = Grounded(tok, len(prompt), [seen_at("Open Drinks.", screen)])
        ids = prompt + tok.encode(head, add_special_tokens=False)
        g.mask(torch.tensor([ids]), torch.zeros((1, len(tok))))
        return len(ids) - len(prompt) in g.forced[0]

    assert forced('Reason: click "Drinks" [1]\nAction: ')  # the action its reason names
    assert not forced("Reason: ")  # which line to act on is a choice
    torch.manual_seed(0)
    eps = play(model, tok, [Slot(target(specs), tasks[0], "mock", 0) for _ in range(2)],
               max_steps=2, max_new_tokens=8)
    for e in eps:
        assert [len(f) for f in e.free] == [len(a) for _, a in e.steps]
    flags = [[j % 2 == 0 for j in range(len(a))] for e in eps for _, a in e.steps]
    rows = [s for e in eps for s in e.steps]
    _, _, act = step_batch(rows, tok.pad_token_id, flags)
    _, _, every = step_batch(rows, tok.pad_token_id)
    assert int(act.sum()) == sum(map(sum, flags)) < int(every.sum())
    eps[0].reward = 1.0
    before = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    update(model, None, opt, torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1.0), eps,
           pad=tok.pad_token_id)
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))


def test_a_limited_token_is_scored_under_the_distribution_it_was_sampled_from(micro) -> None:
    """Rollouts sample from the grounded (masked) distribution; the update scores each
    token there the same way: renormalised over the tokens grounding allowed."""
    torch = pytest.importorskip("torch")
    from rl.data import target
    from rl.ground import Grounded, seen_at
    from rl.grpo import limited_at, token_logps, update
    from rl.model import load_policy, prompt_ids
    from rl.rollout import Episode, Slot, play

    folder, specs, tasks, _ = micro
    model, tok = load_policy(folder)
    torch.manual_seed(0)
    eps = play(model, tok, [Slot(target(specs), tasks[0], "mock", 0) for _ in range(2)],
               max_steps=2, max_new_tokens=12)
    for e in eps:  # one entry per step, at reply positions only
        assert len(e.allowed) == e.n
        assert all(0 <= j < len(a) for (_, a), lim in zip(e.steps, e.allowed, strict=True)
                   for j in lim)
    screen = [{"index": 0, "text": "Bakery", "clickable": True, "bounds": [0, 0, 9, 9]},
              {"index": 1, "text": "Drinks", "clickable": True, "bounds": [0, 9, 9, 19]}]
    prompt = prompt_ids(tok, [{"role": "user", "content": "Task: Open Drinks."}])
    head = tok.encode('Reason: click "', add_special_tokens=False)
    g = Grounded(tok, len(prompt), [seen_at("Open Drinks.", screen)])
    g.mask(torch.tensor([prompt + head]), torch.zeros((1, len(tok))))
    allowed = g.limits[0][len(head)]
    assert 1 < len(allowed) < len(tok)  # a choice between the screen's lines
    step = (prompt, head + [allowed[-1]])
    limited = limited_at([step], [{len(head): allowed}])
    ids = torch.tensor([step[0] + step[1]])
    with torch.no_grad():
        full = token_logps(model, ids, torch.ones_like(ids))
        kept = token_logps(model, ids, torch.ones_like(ids), limited)
        logits = model(input_ids=ids).logits[0, :-1].float()
    (_, c, _), = limited
    want = torch.log_softmax(logits[c, allowed], -1)[-1]
    assert float(kept[0, c]) == pytest.approx(float(want), abs=1e-5)
    assert float(kept[0, c]) > float(full[0, c])  # the forbidden mass is gone
    others = [j for j in range(ids.shape[1] - 1) if j != c]
    assert torch.equal(kept[0, others], full[0, others])  # other positions: unchanged
    played = [Episode("a", "mock", 0, steps=[step], allowed=[{len(head): allowed}],
                      reward=r) for r in (1.0, 0.0)]
    before = [p.detach().clone() for p in model.parameters()]
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    stats = update(model, None, opt, torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1.0),
                   played, pad=tok.pad_token_id)
    assert stats["used_steps"] == 2 and stats["loss"] == stats["loss"]  # not NaN
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
