"""Sessions: one isolated machine (or phone, when several apps are served) per client.

    store = SessionStore(specs, max_sessions=1000, idle_timeout=1800)
    s = store.create(app="shopping", seed=0)
    with store.use(s.id) as s:              # the session's lock is held inside
        s.step({"action_type": "click", "index": 3})
        s.observation_json("elements")  # what the API sends: bytes of JSON

A session is a capability: its id is 128 random bits, and nothing lists the ids. The
store's lock guards only the table of sessions; each session has its own lock, held for
a whole request, so requests on one session run one at a time and different sessions
run side by side. Sessions idle for `idle_timeout` seconds are dropped by a sweep that
runs on `create` and at most every few seconds on `use`; at the cap, `create` sweeps,
then refuses with a 429.

A session holds the screen it last sent (its `Rendering`) and that screen's form as JSON
text. The runtime hands back the same rendering for as long as nothing changes (a no-op
tap, a wait, a scroll at the end of a list), but only while someone holds it; held, such
a step renders nothing and encodes nothing. In serve_load's random walk about 60% of
steps change nothing, and holding cuts the rendering work about 2.5x, for about 100 KiB
per session (one screen's boxes and elements).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from phoneworld.errors import InvalidAction, did_you_mean
from phoneworld.runtime import Machine, Phone
from phoneworld.runtime.phone import LAUNCHER
from phoneworld.runtime.render import Rendering
from phoneworld.serve.errors import ApiError, NoSuchSession, TooManySessions
from phoneworld.spec.ast import AppSpec

FORMATS = ("elements", "xml", "html", "none")
"""Observation formats over HTTP (`none`: the screen's name and state, no content)."""

_COMPACT = (",", ":")


class Session:
    """One client's machine or phone, its task and its bookkeeping."""

    __slots__ = ("id", "target", "task", "seed", "lock", "created", "last_used", "steps",
                 "event", "_names", "_shown")

    def __init__(self, session_id: str, target: Machine | Phone, names: Mapping[str, str],
                 task: Any = None, seed: int | None = None) -> None:
        self.id = session_id
        self.target = target
        self.task = task
        self.seed = seed
        self.lock = threading.Lock()
        self.created = self.last_used = time.monotonic()
        self.steps = 0
        self.event = "reset"
        self._names = names
        self._shown: tuple[Rendering, str, str] | None = None
        """(the rendering last sent, its format, that form as JSON text)."""

    @property
    def front(self) -> Machine:
        """The machine whose screen shows: the app in front, or the launcher."""
        t = self.target
        return t.current if isinstance(t, Phone) else t

    @property
    def app(self) -> str:
        """The app in front (`launcher` when a phone shows its launcher)."""
        t = self.target
        if isinstance(t, Phone):
            return t.foreground or LAUNCHER
        return t.spec.name

    def reset(self, seed: int | None = None, app: str | None = None) -> None:
        """Back to the initial state; `app` in front (a phone's default: the launcher, or
        the task's app when the task is about one app)."""
        t = self.target
        if isinstance(t, Phone):
            if app is None and self.task is not None and len(self.task.apps) == 1:
                app = str(self.task.apps[0])
            t.reset(seed, app=self.resolve_app(app) if app else None)
        else:
            if app is not None:
                self.resolve_app(app)
            t.reset(seed)
        self.seed = seed
        self.steps = 0
        self.event = "reset"

    def step(self, action: Any) -> None:
        """Apply one AndroidWorld JSON action (`InvalidAction` names a bad field)."""
        out = self.target.step(action)
        self.steps += 1
        self.event = out.event

    def resolve_app(self, name: str) -> str:
        """An installed app's name from its name, title or package (any case)."""
        if not isinstance(name, str):
            raise ApiError("must be a string: an app's name, title or package", field="app")
        got = self._names.get(name.casefold())
        if got is None:
            apps = sorted(set(self._names.values()))
            raise ApiError(f"no app {name!r} is served; apps: {', '.join(apps)}"
                           f"{did_you_mean(name, apps)}", field="app")
        return got

    def observation(self, format: str = "elements") -> dict[str, Any]:
        """The current screen as JSON: its name, app, package and the asked-for form."""
        return json.loads(self.observation_json(format))

    def observation_json(self, format: str = "elements") -> bytes:
        """`observation` as compact JSON bytes, the form's text reused while the screen
        is unchanged (see the module's docstring)."""
        m = self.front
        rendering = m.outcome().rendering
        head = json.dumps({
            "session": self.id, "app": self.app, "package": rendering.package,
            "screen": m.screen, "event": self.event, "step": self.steps,
            "done": self.target.done, "answer": self.target.answer,
            "screen_size": [m.spec.width, m.spec.height], "format": format,
        }, separators=_COMPACT)
        if format == "none":
            # Nothing rendered: holding the rendering would make the next step render it.
            self._shown = None
            return head.encode()
        shown = self._shown
        if shown is None or shown[0] is not rendering or shown[1] != format:
            shown = (rendering, format, json.dumps(getattr(rendering, format),
                                                   separators=_COMPACT))
            self._shown = shown
        return f'{head[:-1]},"{format}":{shown[2]}}}'.encode()

    def html(self) -> str:
        """The current screen as the phone-sized HTML page."""
        return self.front.observe("html")


class SessionStore:
    """Every live session, capped and expiring; safe to use from many threads."""

    def __init__(self, specs: Sequence[AppSpec], *, max_sessions: int = 1000,
                 idle_timeout: float = 1800.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not specs:
            raise ValueError("serve at least one app")
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        self.specs = tuple(specs)
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}
        self._building = 0
        self._next_sweep = 0.0
        self._names: dict[str, str] = {}
        for s in self.specs:
            for n in (s.name, s.title, s.package):
                if n:
                    self._names.setdefault(n.casefold(), s.name)

    @property
    def phone(self) -> bool:
        """Whether sessions are phones (several apps) rather than one app's machine."""
        return len(self.specs) > 1

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self, *, app: str | None = None, task: Any = None,
               seed: int | None = None) -> Session:
        """A new session, reset with `seed`, `app` in front; 429 at the cap."""
        with self._lock:
            self._sweep_locked()
            if len(self._sessions) + self._building >= self.max_sessions:
                raise TooManySessions(self.max_sessions, self.idle_timeout)
            self._building += 1
        try:
            target: Machine | Phone = Phone(self.specs) if self.phone else Machine(self.specs[0])
            session = Session(secrets.token_urlsafe(16), target, self._names, task, seed)
            try:
                session.reset(seed, app)
            except InvalidAction as err:
                raise ApiError(str(err), field="app") from err
            session.last_used = self._clock()
            with self._lock:
                self._sessions[session.id] = session
            return session
        finally:
            with self._lock:
                self._building -= 1

    def get(self, session_id: str) -> Session:
        """The live session `session_id`, or a 404."""
        now = self._clock()
        if now >= self._next_sweep:
            with self._lock:
                self._sweep_locked()
        session = self._sessions.get(session_id)
        if session is None:
            raise NoSuchSession(session_id, self.idle_timeout)
        session.last_used = now
        return session

    @contextmanager
    def use(self, session_id: str) -> Iterator[Session]:
        """The session, its lock held (requests on one session run one at a time)."""
        session = self.get(session_id)
        with session.lock:
            session.last_used = self._clock()
            yield session
        session.last_used = self._clock()

    def delete(self, session_id: str) -> None:
        """Drop a session (404 if it is not there)."""
        with self._lock:
            if self._sessions.pop(session_id, None) is None:
                raise NoSuchSession(session_id, self.idle_timeout)

    def expire(self) -> int:
        """Drop every session idle for longer than `idle_timeout`; how many went."""
        with self._lock:
            return self._sweep_locked(force=True)

    def clear(self) -> None:
        with self._lock:
            self._sessions.clear()

    def _sweep_locked(self, force: bool = False) -> int:
        now = self._clock()
        if not force and now < self._next_sweep and \
                len(self._sessions) + self._building < self.max_sessions:
            return 0
        self._next_sweep = now + min(10.0, self.idle_timeout / 4)
        cutoff = now - self.idle_timeout
        old = [k for k, s in self._sessions.items()
               if s.last_used < cutoff and not s.lock.locked()]
        for k in old:
            del self._sessions[k]
        return len(old)
