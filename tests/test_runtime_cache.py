"""Rendered screens kept by the machine: the data's version, the cache, and no stale screens."""

from __future__ import annotations

import threading
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phoneworld.errors import InvalidAction
from phoneworld.runtime import Machine
from phoneworld.runtime.cache import LRU, RenderCache, frozen, screen_key
from phoneworld.runtime.render import Frame
from phoneworld.runtime.state import State
from tests.shop import ACTION, shop_spec, tap


def own_cache(spec) -> Machine:
    m = Machine(spec)
    m.cache = RenderCache()  # hits counted for this machine alone
    return m


def uncached(spec) -> Machine:
    m = Machine(spec)
    m.cache = RenderCache(size=0)  # keeps nothing: every screen rendered afresh
    return m


# -- State.version -------------------------------------------------------------------------------

def test_the_same_writes_from_a_reset_reach_the_same_version():
    s = State(shop_spec())
    start = s.version
    s.insert("cart", {"product": 2, "qty": 1})
    s.set_flag("notifications", False)
    after = s.version
    assert after != start
    s.reset()
    assert s.version == start
    s.insert("cart", {"product": 2, "qty": 1})
    s.set_flag("notifications", False)
    assert s.version == after
    s.reset()
    s.insert("cart", {"product": 3, "qty": 1})  # another write: another content
    assert s.version not in (start, after)


def test_writes_that_store_the_same_values_are_the_same_write():
    s = State(shop_spec())
    s.set_flag("last_viewed", 1)
    one = s.version
    s.reset()
    s.set_flag("last_viewed", 1.0)  # an int flag stores 1 either way
    assert s.version == one
    s.reset()
    assert s.flags["last_viewed"] == 0  # the initial flags, not the dict written to
    s.insert("cart", {"product": 1, "qty": True})  # an int column stores 1
    true = s.version
    s.reset()
    s.insert("cart", {"product": 1, "qty": 1})
    assert s.version == true
    s.reset()
    s.insert("cart", {"product": 1, "qty": 1.5})
    assert s.version != true


def test_a_loaded_image_is_a_new_version_unless_its_version_is_given():
    s = State(shop_spec())
    s.insert("cart", {"product": 2, "qty": 1})
    v, image = s.version, s.image()
    s.reset()
    s.load(image)
    assert s.version != v
    s.load(image, v)
    assert s.version == v
    assert State(shop_spec()).version == s.versions.initial  # shared by the spec's States


def test_initial_reads_survive_a_reset_and_writes_do_not():
    s = State(shop_spec())
    assert s.rows("cart") == []
    s.insert("cart", {"product": 2, "qty": 1})
    assert [r["product"] for r in s.rows("cart")] == [2]
    s.reset()
    assert s.rows("cart") == [] and s.by_key("cart", 2) is None
    assert s.flag("notifications") is True


# -- keys ------------------------------------------------------------------------------------------

def test_keys_tell_apart_what_renders_differently():
    assert frozen(1) != frozen(True) != frozen(1.0)
    assert frozen({"id": 1, "name": "a"}) == frozen({"id": 1, "name": "a"})
    f = Frame("detail", {"id": 1}, "product")
    g = f.copy()
    g.inputs["search"] = "milk"
    assert screen_key(0, 1, f, None) != screen_key(0, 1, g, None)
    assert screen_key(0, 1, f, None) != screen_key(0, 2, f, None)
    assert screen_key(0, 1, f, None) != screen_key(7, 1, f, None)
    assert screen_key(0, 1, f, None) != screen_key(0, 1, f, "answer")
    assert screen_key(0, 1, f, None) == screen_key(0, 1, f.copy(), None)


def test_an_unhashable_parameter_is_rendered_and_not_kept():
    cache = RenderCache()
    key = screen_key(0, 1, Frame("detail", {"tags": ["a", {"b"}]}), None)
    cache.put(key, object())  # type: ignore[arg-type]
    assert cache.get(key) is None and len(cache) == 0


def test_the_least_recently_used_goes_first():
    cache = RenderCache(size=2)
    for k in "abc":
        cache.put(k, k)  # type: ignore[arg-type]
        cache.get("a")
    assert cache.get("a") == "a" and cache.get("b") is None and cache.get("c") == "c"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 12), st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(0, 8)),
                                    max_size=40))
def test_an_lru_holds_the_most_recently_used_values_within_its_weight(limit, ops):
    """Against a model: weight 0 reads a key, any other puts a value of that weight; the
    store keeps the most recently used values whose weights fit the limit together."""
    lru: LRU[tuple[str, int]] = LRU(limit, weigh=lambda v: v[1])
    model: list[tuple[str, int]] = []  # least recently used first
    for key, w in ops:
        if w == 0:
            got = lru.get(key)
            held = [v for v in model if v[0] == key]
            assert got == (held[0] if held else None)
            if held:
                model.remove(held[0])
                model.append(held[0])
            continue
        lru.put(key, (key, w))
        model = [v for v in model if v[0] != key] + ([(key, w)] if w <= limit else [])
        while sum(v[1] for v in model) > limit:
            model.pop(0)
        assert lru.weight == sum(v[1] for v in model) <= limit and len(lru) == len(model)
    assert lru.hits + lru.misses == sum(1 for _, w in ops if w == 0)


# -- the machine -------------------------------------------------------------------------------

def test_a_screen_met_again_is_not_rendered_again():
    m = own_cache(shop_spec())
    first = m.reset()
    xml = first.xml
    tap(m, "Rye bread")
    m.step({"action_type": "navigate_back"})  # writes last_viewed: other data
    hits = m.cache.hits
    again = m.reset()
    assert m.cache.hits == hits + 1
    assert again.rendering is first.rendering and again.xml == xml
    assert again.node == first.node  # made afresh each time, never kept


def test_a_screen_met_again_is_not_rendered_again_in_an_app_with_a_recorded_look():
    """A look (#22) is part of the key, and the data version is still found in it: apps
    compiled from screenshots were rendered afresh at every step before."""
    from phoneworld.runtime.look import Look

    m = own_cache(replace(shop_spec(), look=Look(screens={})))
    first = m.reset()
    first.xml  # noqa: B018 - rendered
    tap(m, "Rye bread")
    hits = m.cache.hits
    assert m.reset().rendering is first.rendering and m.cache.hits == hits + 1


def test_data_changed_by_an_action_shows_on_screens_seen_before():
    m = Machine(shop_spec())
    m.reset()
    tap(m, "Rye bread")
    before = m.observe("xml")
    tap(m, "Add to cart")
    assert m.observe("xml") != before
    m.step({"action_type": "navigate_back"})
    assert next(e for e in m.observe() if e["content_desc"] == "Cart")["text"] == "1"


def test_data_written_behind_the_machines_back_is_not_served_stale():
    m = Machine(shop_spec())
    m.reset()
    tap(m, "Settings")
    m.step({"action_type": "navigate_back"})
    m.state.insert("cart", {"product": 2, "qty": 1})
    tap(m, "Settings")
    m.step({"action_type": "navigate_back"})
    assert next(e for e in m.observe() if e["content_desc"] == "Cart")["text"] == "1"


def test_a_restored_snapshot_finds_its_screens():
    m = own_cache(shop_spec())
    m.reset()
    tap(m, "Apples")
    snap, xml = m.snapshot(), m.observe("xml")
    tap(m, "Add to cart")
    hits = m.cache.hits
    assert m.restore(snap).xml == xml and m.cache.hits == hits + 1


def test_machines_of_one_app_share_screens_and_other_apps_do_not():
    spec = shop_spec()
    a, b = Machine(spec), Machine(spec)
    a.cache = b.cache = RenderCache()
    for m in (a, b):
        m.reset()
        tap(m, "Rye bread")
        tap(m, "Add to cart")  # the same write in both: the same version
        m.step({"action_type": "navigate_back"}).xml  # noqa: B018 - read: rendered, kept
        m.step({"action_type": "wait"})
    assert a.outcome().rendering is b.outcome().rendering
    renamed = Machine(replace(spec, title="Other shop"))
    renamed.cache = a.cache
    assert renamed.reset().rendering is not a.reset().rendering


def test_a_machine_in_a_thread_of_its_own_sees_its_own_data():
    spec = shop_spec()

    def play(m: Machine, n: int) -> list[str]:
        seen = []
        for _ in range(10):
            m.reset()
            tap(m, "Rye bread")
            for _ in range(n):
                tap(m, "Add to cart")
            m.step({"action_type": "navigate_back"})
            tap(m, "Cart")
            seen.append(m.observe("xml"))
        return seen

    want = {n: play(uncached(spec), n) for n in range(1, 5)}
    got: dict[int, list[str]] = {}
    threads = [threading.Thread(target=lambda n=n: got.update({n: play(Machine(spec), n)}))
               for n in want]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want and len({xml[0] for xml in want.values()}) == len(want)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(ACTION, max_size=15), min_size=1, max_size=4),
       st.lists(st.sampled_from(["elements", "xml", "html", None]), min_size=1))
def test_cached_screens_are_exactly_the_screens_rendered_afresh(episodes, reads):
    spec = shop_spec()
    cached, fresh = Machine(spec), uncached(spec)
    n = 0
    for actions in episodes:
        a, b = cached.reset(), fresh.reset()
        assert a.xml == b.xml
        for action in actions:
            try:
                a = cached.step(action)
            except InvalidAction as err:
                try:
                    fresh.step(action)
                except InvalidAction as err2:
                    assert str(err) == str(err2)
                    continue
                raise
            b = fresh.step(action)
            read = reads[n % len(reads)]
            n += 1
            if read is not None:
                assert getattr(a, read) == getattr(b, read)
            assert (a.screen, a.event, a.done) == (b.screen, b.event, b.done)
        assert cached.observe("xml") == fresh.observe("xml")
        assert cached.state.dump() == fresh.state.dump()


_WRITE = st.one_of(
    st.tuples(st.just("insert"), st.integers(1, 3), st.integers(0, 3)),
    st.tuples(st.just("flag"), st.booleans(), st.integers(0, 2)),
    st.tuples(st.just("clear"), st.just(0), st.just(0)),
    st.tuples(st.just("snap"), st.just(0), st.just(0)),
    st.tuples(st.just("load"), st.integers(0, 5), st.booleans()),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_WRITE, max_size=25))
def test_reads_kept_per_version_and_deferred_loads_are_the_data_sql_holds(ops) -> None:
    """Two States of a spec share what they read per version, and a loaded image reaches
    SQLite only when SQL needs it: whatever the writes, snapshots and loads, what a State
    reads (rows, keys, flags) and its image are what its database holds."""
    spec = shop_spec()
    states = [State(spec), State(spec)]
    snaps: list[tuple[bytes, int]] = []
    for n, (op, a, b) in enumerate(ops):
        s = states[n % 2]
        if op == "insert":
            s.insert("cart", {"product": a, "qty": b})
        elif op == "flag":
            s.set_flag("notifications", a)
            s.set_flag("last_viewed", b)
        elif op == "clear":
            s.clear("cart")
        elif op == "snap":
            snaps.append((s.image(), s.version))
        elif snaps:
            image, version = snaps[a % len(snaps)]
            s.load(image, version if b else None)
        for s in states:
            held = {n: s.conn.execute(f'SELECT * FROM "{n}" ORDER BY rowid').fetchall()
                    for n in ("cart", "flags")}
            assert [tuple(r.values()) for r in s.rows("cart")] == \
                [(p, q) for p, q in held["cart"]]
            assert s.by_key("cart", 2) == next((r for r in s.rows("cart")
                                                if r["product"] == 2), None)
            assert s.flags == {"notifications": bool(dict(held["flags"])["notifications"]),
                               "last_viewed": dict(held["flags"])["last_viewed"]}
            fresh = State(spec)
            fresh.load(s.image())  # the image is the data: a new version, read afresh
            assert fresh.dump() == s.dump()


def test_a_restore_to_the_data_held_does_not_reload_it() -> None:
    m = Machine(shop_spec())
    m.reset()
    assert m.state.conn is not None  # the data in SQLite now (earlier reads may spare it)
    snap = m.snapshot()
    tap(m, "Settings")
    assert m.screen != snap.stack[-1][0]
    assert m.snapshot().image is snap.image  # nothing written: the same bytes
    m.restore(snap)
    assert not m.state._unloaded and m.screen == snap.stack[-1][0]
