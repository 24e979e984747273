"""The gymnasium env on the in-process backend: the gymnasium contract, rewards from
checkers, action formats, lazy observations, phones, registration."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from phoneworld.device.double import replay_actions  # noqa: E402
from phoneworld.env import make  # noqa: E402
from phoneworld.env.env import PhoneworldEnv  # noqa: E402
from phoneworld.env.observation import LazyObservation  # noqa: E402
from phoneworld.env.registration import example_apps, register_envs  # noqa: E402
from phoneworld.errors import InvalidAction, PhoneworldError  # noqa: E402
from phoneworld.runtime import Machine, Phone  # noqa: E402
from phoneworld.traces import read_traces  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TRACES = ROOT / "traces"

if "shopping" not in example_apps():
    pytest.skip("the example apps are not compiled into generated/", allow_module_level=True)
register_envs()


# -- stand-ins for phoneworld.tasks (any object with id, instruction, check) -------------------

@dataclass
class Result:
    success: bool
    reason: str = ""


class StateGoal:
    """Success when the tables a demo changed hold what they held after the demo."""

    def __init__(self, task_id: str, instruction: str, goal: dict[str, list]) -> None:
        self.id, self.instruction, self.goal = task_id, instruction, goal
        self.apps = ("shopping",)

    @classmethod
    def from_demo(cls, task_id: str, machine: Machine, demo: list[dict]) -> StateGoal:
        machine.reset()
        start = {t: machine.rows(t) for t in machine.state.tables}
        for a in demo:
            machine.step(a)
        goal = {t: machine.rows(t) for t in machine.state.tables if machine.rows(t) != start[t]}
        assert goal, "the demo changes nothing"
        return cls(task_id, "", goal)

    def check(self, target: Machine | Phone) -> Result:
        m = target.machines["shopping"] if isinstance(target, Phone) else target
        ok = all(m.rows(t) == rows for t, rows in self.goal.items())
        return Result(ok, "state reached" if ok else "state not reached")


class AnswerGoal:
    def __init__(self, task_id: str, instruction: str, answer: str) -> None:
        self.id, self.instruction, self.answer = task_id, instruction, answer
        self.apps = ("shopping",)

    def check(self, target: Machine | Phone) -> Result:
        ok = (target.answer or "").strip() == self.answer
        return Result(ok, f"answer {target.answer!r}")


def trace(app: str, name: str):
    return read_traces(TRACES / app / name)[0]


@pytest.fixture(scope="module")
def shop_tasks():
    t = trace("shopping", "deal_alerts_off_unfavourite")
    spec = PhoneworldEnv("shopping").backend.specs[0]
    demo = replay_actions(t)
    state = StateGoal.from_demo("deal_alerts", Machine(spec), demo)
    state.instruction = t.instruction
    q = trace("shopping", "last_snack_price")
    answer = AnswerGoal("snack_price", q.instruction, q.answer)
    return {"deal_alerts": (state, demo + [{"action_type": "status", "goal_status": "complete"}]),
            "snack_price": (answer, replay_actions(q))}


# -- the gymnasium contract ------------------------------------------------------------------------

@pytest.mark.parametrize("env_id", ["phoneworld/shopping-v0", "phoneworld/phone-v0"])
def test_check_env_passes(env_id):
    env = gymnasium.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(env.unwrapped)
    env.close()


def test_check_env_passes_through_gymnasium_make_wrappers():
    env = gymnasium.make("phoneworld/shopping-v0")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns that wrappers are applied
        check_env(env)
    env.close()


def test_every_example_app_is_registered():
    for name in example_apps():
        assert f"phoneworld/{name}-v0" in gymnasium.registry


def test_reset_returns_observation_and_info(shop_tasks):
    task, _ = shop_tasks["deal_alerts"]
    env = PhoneworldEnv("shopping", task=task)
    obs, info = env.reset(seed=3)
    assert obs in env.observation_space
    assert set(obs) == {"elements", "xml"}
    assert obs["xml"].startswith("<?xml") and "Corner Shop" in obs["xml"]
    assert obs["elements"].splitlines()[0].startswith("[0] TextView \"Corner Shop\"")
    assert info == {"task_id": "deal_alerts", "instruction": task.instruction, "step": 0,
                    "screen": "main", "event": "reset", "apps": ["shopping"]}


def test_a_verified_demo_earns_reward_1(shop_tasks):
    for task_id, (task, demo) in shop_tasks.items():
        env = PhoneworldEnv("shopping", tasks=[t for t, _ in shop_tasks.values()])
        obs, info = env.reset(seed=0, options={"task": task_id})
        assert info["instruction"] == task.instruction
        total = 0.0
        for i, a in enumerate(demo):
            obs, reward, terminated, truncated, info = env.step(a)
            total += reward
            assert "error" not in info, info
            assert terminated == (i == len(demo) - 1)
            assert truncated is False
        assert total == 1.0 and info["success"] is True, info


def test_random_play_almost_never_succeeds(shop_tasks):
    task, _ = shop_tasks["deal_alerts"]
    env = PhoneworldEnv("shopping", task=task, max_steps=40)
    env.action_space.seed(0)
    successes = ends = 0
    for episode in range(60):
        env.reset(seed=episode)
        while True:
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            if terminated or truncated:
                successes += reward == 1.0
                ends += 1
                break
    assert ends == 60
    assert successes <= 2


def test_the_step_limit_truncates_and_still_judges(shop_tasks):
    task, demo = shop_tasks["deal_alerts"]
    steps = demo[:-1]  # no status: the limit ends the episode
    env = PhoneworldEnv("shopping", task=task, max_steps=len(steps))
    env.reset(seed=0)
    for a in steps:
        obs, reward, terminated, truncated, info = env.step(a)
    assert (terminated, truncated, reward, info["success"]) == (False, True, 1.0, True)
    with pytest.raises(PhoneworldError, match="episode is over"):
        env.step({"action_type": "wait"})
    env.reset()  # and a new one starts
    assert env.step({"action_type": "wait"})[3] is False


def test_an_answer_ends_the_episode_unless_told_otherwise(shop_tasks):
    task, _ = shop_tasks["snack_price"]
    env = PhoneworldEnv("shopping", task=task)
    env.reset()
    _, reward, terminated, _, info = env.step({"action_type": "answer", "text": "$1.00"})
    assert terminated and reward == 0.0 and info["success"] is False
    env = PhoneworldEnv("shopping", task=task, end_on_answer=False)
    env.reset()
    _, _, terminated, _, _ = env.step({"action_type": "answer", "text": "$3.99"})
    assert not terminated
    _, reward, terminated, _, _ = env.step({"action_type": "status", "goal_status": "complete"})
    assert terminated and reward == 1.0


def test_without_a_task_the_reward_is_0():
    env = PhoneworldEnv("shopping", tasks=[])
    _, info = env.reset(seed=0)
    assert info["task_id"] is None
    _, reward, terminated, _, info = env.step({"action_type": "status",
                                               "goal_status": "complete"})
    assert terminated and reward == 0.0 and info["reason"] == "no task"


# -- actions ---------------------------------------------------------------------------------------

def test_every_action_format_reaches_the_app():
    env = PhoneworldEnv("shopping")
    for action in ({"action_type": "click", "x": 540, "y": 304},
                   {"name": "click", "arguments": {"coordinate": [500, 127]}},
                   'Reason: search.\nAction: {"action_type": "click", "x": 540, "y": 304}',
                   "<tool_call>{\"name\": \"click\", \"arguments\": {\"coordinate\": "
                   "[500, 127]}}</tool_call>"):
        env.reset()
        _, _, _, _, info = env.step(action)
        assert info["screen"] == "search", (action, info)
        _, _, _, _, info = env.step("button_press(button='back')")
        assert info["screen"] == "main"


def test_an_invalid_action_is_a_no_op_step_with_an_error():
    env = PhoneworldEnv("shopping", max_steps=3, invalid_reward=-0.1)
    obs0, _ = env.reset()
    obs, reward, terminated, truncated, info = env.step({"action_type": "click", "index": 999})
    assert reward == -0.1 and not terminated and not truncated
    assert info["error_field"] == "index" and "out of range" in info["error"]
    assert info["event"] == "invalid action" and info["action"] == {"action_type": "click",
                                                                     "index": 999}
    assert obs == obs0 and obs is not obs0
    _, _, _, _, info = env.step("I don't know what to do")
    assert info["error_field"] == "action" and info["action"] is None
    _, _, _, truncated, _ = env.step({"action_type": "fly"})
    assert truncated  # invalid steps count


def test_invalid_actions_can_raise_instead():
    env = PhoneworldEnv("shopping", invalid_action="raise")
    env.reset()
    with pytest.raises(InvalidAction) as err:
        env.step({"action_type": "scroll", "direction": "sideways"})
    assert err.value.field == "direction"


def test_sampled_actions_are_valid_and_deterministic():
    env = PhoneworldEnv("shopping")
    env.reset(seed=0)
    env.action_space.seed(7)
    first = [env.action_space.sample() for _ in range(200)]
    for a in first:
        assert a in env.action_space
    env.action_space.seed(7)
    assert [env.action_space.sample() for _ in range(200)] == first
    kinds = {a["action_type"] for a in first}
    assert {"click", "scroll", "navigate_back", "input_text"} <= kinds
    assert any("index" in a for a in first)  # taps elements of the screen shown
    assert {"action_type": "click", "x": 5000, "y": 1} not in env.action_space
    assert "not an action" not in env.action_space


def test_sampling_keeps_its_random_stream():
    # Drawn as `rng.choice(len(types), p=weights)` drew them before: same seed, same actions.
    from phoneworld.env.spaces import ActionSpace

    space = ActionSpace(1080, 2400, ("Shop",), seed=11)
    assert [space.sample()["action_type"] for _ in range(30)] == [
        "click", "scroll", "click", "double_tap", "click", "scroll", "navigate_back", "scroll",
        "keyboard_enter", "status", "keyboard_enter", "input_text", "click", "click",
        "navigate_home", "click", "click", "wait", "long_press", "scroll", "click", "click",
        "input_text", "wait", "scroll", "status", "scroll", "navigate_back", "scroll", "click"]
    for seed in range(5):
        space, rng = ActionSpace(1080, 2400, seed=seed), np.random.default_rng(seed)
        for _ in range(200):
            t = space._types[int(rng.choice(len(space._types), p=space._p))]
            assert space.sample()["action_type"] == t
            # what sample draws after the type, so both streams stay in step
            rng.bit_generator.state = space.np_random.bit_generator.state


def test_random_actions_never_crash_the_env():
    env = PhoneworldEnv(["shopping", "messages", "settings"], max_steps=25)
    env.action_space.seed(1)
    for episode in range(20):
        env.reset(seed=episode)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(env.action_space.sample())
            assert obs in env.observation_space
            done = terminated or truncated


# -- observations ----------------------------------------------------------------------------------

def test_observations_are_rendered_lazily_and_stay_true():
    env = PhoneworldEnv("shopping")
    obs0, _ = env.reset()
    assert isinstance(obs0, LazyObservation) and obs0.pending == ["elements", "xml"]
    obs1, *_ = env.step({"action_type": "click", "x": 540, "y": 304})  # -> search
    env.step({"action_type": "navigate_back"})
    # read after later steps: each shows the screen it was returned for
    assert "Corner Shop" in obs0["elements"]
    assert "Corner Shop" not in obs1["xml"] and "search" in obs1["xml"]
    assert obs1.pending == ["elements"]


def test_lazy_observations_behave_as_dicts():
    env = PhoneworldEnv("shopping")
    obs, _ = env.reset()
    plain = {"elements": obs["elements"], "xml": obs["xml"]}
    fresh, _ = env.reset()
    assert fresh == plain and dict(fresh) == plain and {**fresh} == plain
    for other in (copy.deepcopy(fresh), copy.copy(fresh), pickle.loads(pickle.dumps(fresh))):
        assert other == plain and type(other) is LazyObservation
    assert list(env.reset()[0].values()) == list(plain.values())
    assert env.reset()[0].get("xml") == plain["xml"]
    assert "xml" in repr(env.reset()[0])


def test_the_observation_can_hold_only_what_is_asked():
    env = PhoneworldEnv("shopping", observe=["elements"])
    obs, _ = env.reset()
    assert set(obs) == {"elements"} and obs in env.observation_space
    with pytest.raises(PhoneworldError, match="observe"):
        PhoneworldEnv("shopping", observe=["pixels"])


def test_in_process_screenshots_say_what_to_install_when_chromium_is_missing(monkeypatch,
                                                                           tmp_path):
    monkeypatch.setenv("PHONEWORLD_CHROMIUM", str(tmp_path / "no-chromium"))
    with pytest.raises(PhoneworldError, match="apt-get install chromium") as err:
        PhoneworldEnv("shopping", screenshot=True)
    assert "\n" not in str(err.value)


def test_in_process_screenshots_by_default_are_chromiums_at_the_device_size():
    from phoneworld.serve.screenshots import _SHARED, browser_missing, chromium_path

    why = browser_missing(chromium_path())
    if why:
        pytest.skip(why)
    from tests.test_runtime import shop_spec

    env = PhoneworldEnv(shop_spec(), screenshot=True, tasks=[])
    other = PhoneworldEnv(shop_spec(), observe=["screenshot"], tasks=[])
    try:
        assert _SHARED["users"] == 2  # one browser for both
        obs, _ = env.reset(seed=0)
        first = obs["screenshot"]
        assert first.shape == (2400, 1080, 3) and first.dtype == np.uint8
        assert obs in env.observation_space
        (field,) = [e for e in env._view.elements if e["editable"]]
        x1, y1, x2, y2 = field["bounds"]
        obs, _, _, _, info = env.step({"action_type": "input_text", "text": "oat",
                                       "index": field["index"]})
        assert "error" not in info
        typed = obs["screenshot"]
        rows = np.nonzero((typed != first).any(axis=(1, 2)))[0]
        # The change shows, and only about the field (its text and underline).
        assert len(rows) and y1 - 12 <= rows.min() and rows.max() <= y2 + 12
        obs2, _ = other.reset(seed=0)
        assert np.array_equal(obs2["screenshot"], first)
    finally:
        env.close()
        other.close()
    assert _SHARED["users"] == 0 and _SHARED["shots"] is None


def test_in_process_screenshots_take_a_renderer():
    calls = []

    def shot(outcome):
        calls.append(outcome.screen)
        return np.full((2400, 1080, 3), 200, dtype=np.uint8)

    env = PhoneworldEnv("shopping", screenshot=shot, screenshot_size=(108, 240))
    obs, _ = env.reset()
    assert calls == []
    img = obs["screenshot"]
    assert img.shape == (240, 108, 3) and img.dtype == np.uint8 and int(img[0, 0, 0]) == 200
    assert obs in env.observation_space and calls == ["main"]


def test_screenshots_have_the_device_size_unless_asked(tmp_path):
    # A click at (x, y) in the app's pixels lands where the image shows it (#22).
    env = PhoneworldEnv("shopping", screenshot=lambda o: np.zeros((10, 10, 3), np.uint8))
    obs, _ = env.reset()
    assert obs["screenshot"].shape == (env.height, env.width, 3) == (2400, 1080, 3)


def test_the_element_text_is_made_once_per_screen():
    from phoneworld.agent.elements import format_elements

    env = PhoneworldEnv("shopping")
    obs, _ = env.reset()
    again, _ = env.reset()
    assert obs["elements"] == format_elements(env._view.elements)
    assert again["elements"] is obs["elements"]  # the same screen: the same text


def test_render_ansi():
    env = PhoneworldEnv("shopping", render_mode="ansi")
    assert env.render() == ""
    env.reset()
    assert env.render().startswith("[0] TextView")
    assert PhoneworldEnv("shopping").render() is None


# -- tasks -----------------------------------------------------------------------------------------

def test_tasks_by_id_and_by_draw(shop_tasks):
    tasks = [t for t, _ in shop_tasks.values()]
    env = PhoneworldEnv("shopping", tasks=tasks)
    _, info = env.reset(seed=0, options={"task": "snack_price"})
    assert info["task_id"] == "snack_price"
    drawn = {env.reset(seed=s)[1]["task_id"] for s in range(20)}
    assert drawn == {"deal_alerts", "snack_price"}
    assert env.reset(seed=5)[1]["task_id"] == env.reset(seed=5)[1]["task_id"]
    with pytest.raises(PhoneworldError, match="did you mean 'snack_price'"):
        env.reset(options={"task": "snack_prize"})
    with pytest.raises(PhoneworldError, match="unknown reset option 'app'"):
        env.reset(options={"app": "shopping"})


def test_a_checker_that_fails_is_reported_not_raised():
    class Broken:
        id, instruction = "broken", "x"

        def check(self, target):
            raise PhoneworldError("no such table")

    env = PhoneworldEnv("shopping", task=Broken())
    env.reset()
    _, reward, _, _, info = env.step({"action_type": "status", "goal_status": "complete"})
    assert reward == 0.0 and "no such table" in info["reason"]


def test_tasks_module_demos_earn_reward_1():
    tasks = pytest.importorskip("phoneworld.tasks")
    if not all(hasattr(tasks, n) for n in ("sample_tasks", "make_demo")):
        pytest.skip("phoneworld.tasks is not complete yet")
    env = PhoneworldEnv("shopping")
    specs = env.backend.specs
    played = 0
    for instance in tasks.sample_tasks(specs, 10, 0):
        demo = tasks.make_demo(specs, instance)
        if demo is None or not demo.verified:
            continue
        env.reset(seed=0, options={"task": instance})
        reward = 0.0
        for step in demo.steps:
            _, r, terminated, truncated, info = env.step(step["action"])
            reward += r
            if terminated or truncated:
                break
        if not (terminated or truncated):
            _, r, *_ = env.step({"action_type": "status", "goal_status": "complete"})
            reward += r
        assert reward == 1.0, (instance.id, info)
        played += 1
    if not played:
        pytest.skip("no verified demo among the drawn tasks")


# -- phones and make -------------------------------------------------------------------------------

def test_a_phone_env_switches_apps():
    env = make(["shopping", "messages"])
    obs, info = env.reset(seed=0, options={"task": None})
    assert info["apps"] == ["shopping", "messages"]
    _, _, _, _, info = env.step({"action_type": "open_app", "app_name": "messages"})
    assert info["event"] == "open_app messages"
    _, _, _, _, info = env.step({"name": "open_app", "arguments": {"app_name": "shoping"}})
    assert "did you mean 'shopping'" in info["error"]


def test_make_finds_apps_by_name_folder_and_list():
    assert make("shopping").backend.specs[0].name == "shopping"
    assert make(ROOT / "generated" / "messages").backend.specs[0].name == "messages"
    phone = make(ROOT / "generated")
    assert isinstance(phone.backend.target, Phone) and len(phone.backend.specs) >= 3
    with pytest.raises(PhoneworldError, match="did you mean 'shopping'"):
        make("shoping")
    with pytest.raises(PhoneworldError, match="no generated app here"):
        make(ROOT / "traces")


def test_importing_phoneworld_env_registers_the_ids(tmp_path):
    """gymnasium 1.x's way: ids come with an import (`gymnasium.make("module:id")` does it),
    never through an import hook; the CLI's `import phoneworld` stays free of gymnasium.
    The script lies beside a folder named phoneworld/, which must not get in the way."""
    (tmp_path / "phoneworld").mkdir()
    script = tmp_path / "play.py"
    script.write_text(
        "import sys\nimport phoneworld, phoneworld.cli\n"
        "assert 'gymnasium' not in sys.modules and 'numpy' not in sys.modules\n"
        "assert not any('phoneworld' in type(f).__module__ for f in sys.meta_path)\n"
        "import gymnasium\n"
        "assert 'phoneworld/shopping-v0' not in gymnasium.registry\n"
        "env = gymnasium.make('phoneworld.env:phoneworld/shopping-v0')\n"
        "obs, info = env.reset(seed=0)\n"
        "assert info['screen'] == 'main' and 'phoneworld/phone-v0' in gymnasium.registry\n"
        "print('ok')\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "ok", out.stderr


def test_waiting_in_the_env_lets_an_ad_give_way():
    """AndroidWorld's `wait`, and PhoneBuddy's `wait` tool call, fire a timed screen's
    transition through the env as through the machine."""
    from tests.shop import splash_shop_spec

    env = PhoneworldEnv(splash_shop_spec())
    _, info = env.reset(seed=0)
    assert info["screen"] == "splash"
    _, _, _, _, info = env.step({"action_type": "wait"})
    assert (info["screen"], info["event"]) == ("home", "wait splash -> home")
    env.reset(seed=0)
    _, _, _, _, info = env.step('{"name": "wait", "arguments": {}}')
    assert info["screen"] == "home"
