"""The hand-built test shop: a product list, a detail screen with add-to-cart, a cart,
a settings switch and a search, with hostile strings in its data (SQL, HTML, a template).

    spec = shop_spec(); m = Machine(spec); m.reset(); tap(m, "Rye bread")

Tests take it as the `shop` fixture (and a reset machine on it as `m`, see conftest.py),
or call `shop_spec()` where they build a variant of it.
"""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from phoneworld.runtime import Machine
from phoneworld.spec.ast import (
    AppSpec,
    BinOp,
    BoolOp,
    Call,
    Column,
    Compare,
    Const,
    Effect,
    Flag,
    ListOf,
    Ref,
    Screen,
    Table,
    Task,
    TaskParam,
    Transition,
    View,
)

INJECTION = "'); DROP TABLE cart; --"
SCRIPT = "<script>alert(1)</script>"
TEMPLATE = "{{ 7*7 }}"

PRODUCTS = (
    (1, "Oat milk", "$3.49", "dairy"),
    (2, "Rye bread", "$2.10", "bakery"),
    (3, INJECTION, "$1.00", "odd"),
    (4, SCRIPT, "$0.50", "odd"),
    (5, TEMPLATE, "$7.00", "odd"),
    (6, "Apples", "$4.20", "fruit"),
    (7, "Pears", "$3.90", "fruit"),
    (8, "Butter", "$5.25", "dairy"),
)


def R(*path: str) -> Ref:
    return Ref(tuple(path))


def text(cls: str, bounds, value, **kw) -> View:
    return View(cls=f"android.widget.{cls}", bounds=bounds,
                text=value if not isinstance(value, str) else Const(value), **kw)


IN_CART = Call("exists", table="cart", where=Compare("==", R("product"), R("param", "id")))


def shop_spec() -> AppSpec:
    """A shop: product list, detail with add-to-cart, cart, settings switch, search."""
    row = View(
        cls="android.widget.LinearLayout", bounds=(0, 400, 1080, 700), name="product_row",
        id="com.shop:id/row", desc=BinOp("+", Const("Open "), R("item", "name")),
        flags=("clickable",),
        children=(
            text("TextView", (40, 420, 800, 520), R("item", "name"), id="com.shop:id/name"),
            text("TextView", (40, 540, 400, 640), R("item", "price"), id="com.shop:id/price"),
        ))
    home = View(
        cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
        children=(
            text("TextView", (40, 40, 600, 160), "Shop"),
            View(cls="android.widget.ImageButton", bounds=(900, 40, 1040, 160),
                 name="settings", desc=Const("Settings"), flags=("clickable",)),
            text("TextView", (700, 40, 880, 160), Call("count", table="cart"), name="cart",
                 desc=Const("Cart"), flags=("clickable",)),
            text("EditText", (40, 200, 1040, 320), "Search products", name="search",
                 id="com.shop:id/search", flags=("clickable", "editable", "focusable")),
            View(cls="androidx.recyclerview.widget.RecyclerView", bounds=(0, 400, 1080, 2200),
                 name="products", id="com.shop:id/list", items=ListOf("product", pitch=300),
                 children=(row,)),
        ))
    detail = View(
        cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
        children=(
            text("TextView", (40, 200, 1040, 320), R("param", "name"), id="com.shop:id/title"),
            text("TextView", (40, 340, 600, 440), R("param", "price")),
            text("Button", (40, 500, 600, 620), "Add to cart", name="add",
                 flags=("clickable",)),
            text("TextView", (640, 500, 1040, 620),
                 Call("count", table="cart", where=Compare("==", R("product"),
                                                           R("param", "id"))),
                 id="com.shop:id/in_cart"),
        ))
    cart_row = View(
        cls="android.widget.LinearLayout", bounds=(0, 300, 1080, 500), name="cart_row",
        flags=("clickable", "long_clickable"),
        children=(text("TextView", (40, 320, 600, 480), R("item", "product")),
                  text("TextView", (640, 320, 1040, 480), R("item", "qty"))))
    cart = View(
        cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
        children=(
            text("Button", (40, 100, 600, 220), "Clear", name="clear", flags=("clickable",)),
            View(cls="android.widget.ListView", bounds=(0, 300, 1080, 2400), name="lines",
                 items=ListOf("cart", pitch=200), children=(cart_row,)),
        ))
    settings_root = View(
        cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
        children=(
            View(cls="android.widget.Switch", bounds=(40, 200, 1040, 320),
                 name="notifications", text=Const("Notifications"),
                 checked=R("notifications"), flags=("clickable", "checkable")),
        ))
    results = View(
        cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400),
        children=(
            View(cls="android.widget.ListView", bounds=(0, 200, 1080, 2400), name="hits",
                 items=ListOf("product", where=Compare("~", R("name"), R("param")),
                              pitch=200),
                 children=(View(cls="android.widget.TextView", bounds=(0, 200, 1080, 400),
                                name="hit", text=R("item", "name"),
                                flags=("clickable",)),)),
        ))
    return AppSpec(
        name="shop", package="com.shop", start="home", title="Shop",
        tables=(
            Table("product", "content", (Column("id", "int"), Column("name"),
                                         Column("price"), Column("category")), PRODUCTS),
            Table("cart", "state", (Column("product", "int"), Column("qty", "int"))),
        ),
        flags=(Flag("notifications", "bool", True), Flag("last_viewed", "int", 0)),
        screens=(
            Screen("home", "P0", home, package="com.shop"),
            Screen("detail", "P0", detail, package="com.shop", param="product"),
            Screen("cart", "P1", cart, package="com.shop"),
            Screen("settings", "P1", settings_root, package="com.shop"),
            Screen("results", "P1", results, package="com.shop"),
        ),
        transitions=(
            Transition("home", "product_row", "tap", "detail", with_param=R("item")),
            Transition("home", "settings", "tap", "settings"),
            Transition("home", "cart", "tap", "cart"),
            Transition("home", "search", "submit", "results",
                       with_param=R("input", "search")),
            Transition("detail", "add", "tap", "stay", when=IN_CART, effects=(
                Effect("update", "cart", (("qty", BinOp("+", R("qty"), Const(1))),),
                       where=Compare("==", R("product"), R("param", "id"))),)),
            Transition("detail", "add", "tap", "stay", effects=(
                Effect("insert", "cart", (("product", R("param", "id")),
                                          ("qty", Const(1)))),)),
            Transition("detail", "back", "back", "back", effects=(
                Effect("set", "last_viewed", (("last_viewed", R("param", "id")),)),)),
            Transition("settings", "notifications", "tap", "stay",
                       effects=(Effect("toggle", "notifications"),)),
            Transition("cart", "clear", "tap", "stay", effects=(Effect("clear", "cart"),)),
            Transition("cart", "cart_row", "long_press", "stay", effects=(
                Effect("delete", "cart",
                       where=Compare("==", R("product"), R("item", "product"))),)),
            Transition("results", "hit", "tap", "detail", with_param=R("item")),
            Transition("cart", "cart_row", "tap", "detail", with_param=R("item")),
        ),
        tasks=(
            Task("add_bread", "state", "Add rye bread to the cart",
                 Call("exists", table="cart", where=Compare("==", R("product"), Const(2)))),
            Task("price_of", "information", "What does {p} cost?",
                 Call("exists", table="product", where=BoolOp("and", (
                     Compare("~", R("name"), R("p")), Compare("~", R("price"), R("answer"))))),
                 params=(TaskParam("p", "product", "name"),)),
        ),
    )


def index_of(machine: Machine, label: str) -> int:
    """The element index of the first element whose text or description is `label`."""
    for e in machine.observe():
        if label in (e["text"], e["content_desc"]):
            return e["index"]
    raise AssertionError(f"no element {label!r} on {machine.screen}")


def tap(machine: Machine, label: str):
    return machine.step({"action_type": "click", "index": index_of(machine, label)})


ACTION = st.one_of(
    st.fixed_dictionaries({"action_type": st.just("click"), "index": st.integers(0, 20)}),
    st.fixed_dictionaries({"action_type": st.sampled_from(["click", "long_press"]),
                           "x": st.integers(0, 1079), "y": st.integers(0, 2399)}),
    st.fixed_dictionaries({"action_type": st.just("input_text"),
                           "text": st.text(max_size=12), "index": st.integers(0, 12)}),
    st.fixed_dictionaries({"action_type": st.sampled_from(["scroll", "swipe"]),
                           "direction": st.sampled_from(["up", "down", "left", "right"])}),
    st.sampled_from([{"action_type": t} for t in
                     ("navigate_back", "navigate_home", "keyboard_enter", "wait")]),
    st.fixed_dictionaries({"action_type": st.just("answer"), "text": st.text(max_size=8)}),
    st.just({"action_type": "open_app", "app_name": "Shop"}),
)


def splash_shop_spec() -> AppSpec:
    """The shop behind an ad that gives way by itself (`on splash wait -> home`)."""
    spec = shop_spec()
    ad = View(cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400), children=(
        View(cls="android.widget.TextView", bounds=(40, 100, 400, 200), text=Const("Ad")),))
    return dataclasses.replace(
        spec, start="splash",
        screens=(*spec.screens, Screen("splash", "P0", ad, package="com.shop")),
        transitions=(*spec.transitions, Transition("splash", "", "wait", "home")))


def home_as(root: View, spec: AppSpec | None = None, **changes) -> AppSpec:
    """`spec` (the shop's by default) whose home screen is `root` alone: the results
    screen and every transition to or from home or results left out (they name widgets
    `root` lacks); `changes` replace other fields (tables)."""
    spec = spec or shop_spec()
    return dataclasses.replace(
        spec, screens=tuple(dataclasses.replace(s, root=root) if s.name == "home" else s
                            for s in spec.screens if s.name != "results"),
        transitions=tuple(t for t in spec.transitions
                          if t.screen not in ("home", "results")), **changes)


def with_page(button: View, page: str, spec: AppSpec | None = None) -> AppSpec:
    """The shop (or `spec`) with `button` on its home screen, whose tap opens a new,
    empty screen `page`."""
    spec = spec or shop_spec()
    screens = tuple(dataclasses.replace(s, root=dataclasses.replace(
        s.root, children=(*s.root.children, button))) if s.name == "home" else s
        for s in spec.screens) + (Screen(page, "P1", View(
            cls="android.widget.FrameLayout", bounds=(0, 0, 1080, 2400)), package="com.shop"),)
    return dataclasses.replace(spec, screens=screens, transitions=(
        *spec.transitions, Transition("home", button.name, "tap", page, count=1)))
