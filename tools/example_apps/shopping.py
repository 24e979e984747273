"""`com.example.shop`: a grocery app with categories, search, cart, checkout and orders."""

from __future__ import annotations

from .app import App, Route
from .shopping_data import (
    CATEGORIES,
    CATEGORY_OF,
    DESCRIPTIONS,
    FIELDS,
    ORDERS,
    PRODUCTS,
    Order,
    Product,
    delivery,
    money,
    subtotal,
)
from .views import (
    BOTTOM_NAV_TOP,
    MARGIN,
    WIDTH,
    View,
    action_slot,
    bottom_nav,
    button,
    frame,
    group,
    image,
    image_button,
    label,
    linear,
    toolbar,
    vlist,
)

AREA = (0, 63, WIDTH, 2337)


class ShopApp(App):
    package = "com.example.shop"
    activities = {"home": ".MainActivity", "category": ".CategoryActivity",
                  "search": ".SearchActivity", "product": ".ProductActivity",
                  "checkout": ".CheckoutActivity", "confirmation": ".OrderConfirmationActivity",
                  "order": ".OrderDetailActivity", "favourites": ".FavouritesActivity"}

    def __init__(self, clock) -> None:
        super().__init__(clock)
        self.route.params["tab"] = "home"
        self.cart: dict[str, int] = {"bananas": 1, "oat_milk": 1}
        self.favourites = ["strawberries"]
        self.orders = list(ORDERS)
        self.recent = ["bagels", "milk"]
        self.deal_alerts = True
        self.snackbar = ""
        self.errors: set[str] = set()

    # -- state changes ------------------------------------------------------------------

    def before_action(self) -> None:
        self.snackbar = ""

    def back(self) -> None:
        if len(self.stack) == 1 and self.route.params["tab"] != "home" and self.dialog is None:
            self.route.params["tab"] = "home"
        else:
            super().back()

    def open_tab(self, tab: str):
        def handler() -> None:
            del self.stack[1:]
            self.stack[0].params["tab"] = tab
            self.focus = ""
        return handler

    def add_to_cart(self, pid: str):
        def handler() -> None:
            self.cart[pid] = self.cart.get(pid, 0) + 1
            self.snackbar = f"Added {PRODUCTS[pid].name} to cart"
        return handler

    def change_quantity(self, pid: str, delta: int):
        def handler() -> None:
            self.cart[pid] += delta
            if self.cart[pid] <= 0 or delta == 0:
                del self.cart[pid]
        return handler

    def toggle_favourite(self, pid: str):
        def handler() -> None:
            if pid in self.favourites:
                self.favourites.remove(pid)
            else:
                self.favourites.append(pid)
        return handler

    def submit_search(self) -> None:
        query = self.fields.get("search", "").strip()
        self.route.params["query"] = query
        self.route.scroll.clear()
        if query:
            self.recent = [query] + [q for q in self.recent if q != query][:4]
        self.focus = ""

    def type_text(self, input_id: str, text: str) -> None:
        super().type_text(input_id, text)
        self.errors.discard(input_id)

    def place_order(self) -> None:
        self.errors = {f"checkout.{f}" for f, _ in FIELDS
                       if not self.fields.get(f"checkout.{f}", "").strip()}
        if self.errors:
            return
        f = {k: self.fields[f"checkout.{k}"].strip() for k, _ in FIELDS}
        number = max(o.number for o in self.orders) + 16
        address = f"{f['name']}, {f['street']}, {f['city']} {f['zip']}"
        self.orders.insert(0, Order(number, "Today", tuple(self.cart.items()), "Processing",
                                    address))
        self.cart.clear()
        self.stack = [Route("home", {"tab": "home"}), Route("confirmation", {"order": number})]
        self.focus = ""

    def go_to(self, name: str, **params):
        def handler() -> None:
            self.go(name, **params)
            if name == "search":
                self.focus = "search"
        return handler

    # -- shared pieces ------------------------------------------------------------------

    def _cart_action(self, i: int, n: int) -> View:
        count = sum(self.cart.values())
        x1, y1, x2, y2 = action_slot(i, n)
        kids = [image((x1 + 31, y1 + 31, x2 - 31, y2 - 31))]
        if count:
            kids.append(label(str(count), x2 - 50, y1 + 8, sp=11, rid="cart_badge"))
        return frame((x1, y1, x2, y2), *kids, rid="action_cart", clickable=True,
                     desc=f"Cart, {count} items", key="toolbar_cart",
                     on_tap=self.open_tab("cart"))

    def _product_item(self, p: Product):
        def build(y: int) -> View:
            info = [label(p.name, 341, y + 42, sp=18, rid="product_name", right=1033),
                    label(p.unit, 341, y + 113, sp=14, rid="product_unit")]
            price_row = [label(money(p.cents), 341, y + 189, sp=18, rid="product_price")]
            if p.badge:
                price_row.append(label(p.badge, 0, y + 195, sp=13, rid="product_badge",
                                       right=1033, align_right=True))
            info.append(linear((341, y + 189, 1033, y + 255), *price_row, rid="price_row"))
            return linear((0, y, WIDTH, y + 315),
                          image((MARGIN, y + 31, 299, y + 283), rid="product_image"),
                          linear((341, y + 42, 1033, y + 255), *info, rid="product_info"),
                          rid="product_item", clickable=True, key=f"product:{p.id}",
                          on_tap=self.go_to("product", id=p.id))
        return (315, build)

    def _screen(self, *children: View) -> View:
        return group(AREA, *children, rid="coordinator")

    # -- screens ------------------------------------------------------------------------

    def screen_home(self, route: Route) -> View:
        tab = route.params["tab"]
        count = sum(self.cart.values())
        tabs = [("home", "Home", self.open_tab("home"), ""),
                ("cart", "Cart", self.open_tab("cart"), str(count) if count else ""),
                ("orders", "Orders", self.open_tab("orders"), ""),
                ("account", "Account", self.open_tab("account"), "")]
        body = getattr(self, f"_tab_{tab}")(route)
        return self._screen(*body, bottom_nav(tabs, tab))

    def _tab_home(self, route: Route) -> list[View]:
        search = linear((MARGIN, 241, 1033, 367), image((89, 273, 152, 336)),
                        label("Search products", 184, 270, sp=16, rid="search_hint"),
                        rid="search_bar", clickable=True, key="search_bar",
                        on_tap=self.go_to("search"))
        items = []
        for cid, (name, products) in CATEGORIES.items():
            new = sum(p.badge == "New" for p in products)

            def build(y: int, cid=cid, name=name, products=products, new=new) -> View:
                kids = [image((MARGIN, y + 31, 215, y + 199), rid="category_icon"),
                        linear((257, y + 42, 850, y + 189),
                               label(name, 257, y + 47, sp=18, rid="category_name"),
                               label(f"{len(products)} products", 257, y + 121, sp=14,
                                     rid="category_count"), rid="category_text")]
                if new:
                    kids.append(label(f"{new} new", 0, y + 87, sp=13, rid="category_badge",
                                      right=940, align_right=True))
                kids.append(image((975, y + 84, 1038, y + 147), rid="chevron"))
                return linear((0, y, WIDTH, y + 231), *kids, rid="category_item",
                              clickable=True, key=f"category:{cid}",
                              on_tap=self.go_to("category", id=cid))
            items.append((231, build))
        return [toolbar("Corner Shop", actions=[image_button(
                    action_slot(0, 1), "Search", rid="action_search",
                    on_tap=self.go_to("search"))]),
                search, label("Shop by category", MARGIN, 409, sp=14, rid="section_title"),
                vlist("category_list", (0, 483, WIDTH, BOTTOM_NAV_TOP), items, route.scroll)]

    def _tab_cart(self, route: Route) -> list[View]:
        bar = toolbar("Cart")
        if not self.cart:
            return [bar, label("Your cart is empty", 306, 1000, sp=20, rid="empty_title"),
                    button((306, 1120, 774, 1246), "Start shopping", rid="start_shopping_button",
                           on_tap=self.open_tab("home"))]
        items = []
        for pid, qty in self.cart.items():
            p = PRODUCTS[pid]

            def build(y: int, p=p, qty=qty) -> View:
                stepper = linear(
                    (299, y + 157, 677, y + 262),
                    image_button((299, y + 157, 404, y + 262), "Decrease quantity",
                                 rid="decrease_button", key=f"decrease:{p.id}",
                                 enabled=qty > 1, on_tap=self.change_quantity(p.id, -1)),
                    label(str(qty), 470, y + 176, sp=18, rid="quantity"),
                    image_button((572, y + 157, 677, y + 262), "Increase quantity",
                                 rid="increase_button", key=f"increase:{p.id}",
                                 on_tap=self.change_quantity(p.id, 1)),
                    rid="quantity_stepper")
                return linear(
                    (0, y, WIDTH, y + 294), image((MARGIN, y + 31, 257, y + 241),
                                                  rid="cart_item_image"),
                    label(p.name, 299, y + 31, sp=18, rid="cart_item_name", right=900),
                    label(f"{money(p.cents)} each", 299, y + 100, sp=14,
                          rid="cart_item_unit_price"),
                    stepper,
                    label(money(p.cents * qty), 0, y + 178, sp=18, rid="cart_item_total",
                          right=1033, align_right=True),
                    image_button((933, y + 21, 1059, y + 147), f"Remove {p.name}",
                                 rid="remove_button", key=f"remove:{p.id}",
                                 on_tap=self.change_quantity(p.id, 0)),
                    rid="cart_item")
            items.append((294, build))
        sub = subtotal(self.cart.items())
        fee = delivery(sub)
        count = sum(self.cart.values())
        summary = linear(
            (0, 1743, WIDTH, BOTTOM_NAV_TOP),
            label(f"Subtotal ({count} items)", MARGIN, 1764, sp=16),
            label(money(sub), 0, 1764, sp=16, rid="cart_subtotal", right=1033, align_right=True),
            label("Delivery", MARGIN, 1827, sp=16),
            label(money(fee) if fee else "Free", 0, 1827, sp=16, rid="delivery_fee",
                  right=1033, align_right=True),
            label("Total", MARGIN, 1890, sp=18),
            label(money(sub + fee), 0, 1890, sp=18, rid="cart_total", right=1033,
                  align_right=True),
            button((MARGIN, 1974, 1033, 2100), "Checkout", rid="checkout_button",
                   on_tap=self.go_to("checkout")),
            rid="cart_summary")
        return [bar, vlist("cart_list", (0, 210, WIDTH, 1743), items, route.scroll), summary]

    def _tab_orders(self, route: Route) -> list[View]:
        items = []
        for o in self.orders:
            def build(y: int, o=o) -> View:
                total = subtotal(o.items)
                total += delivery(total)
                n = sum(q for _, q in o.items)
                return linear(
                    (0, y, WIDTH, y + 273),
                    label(f"Order #{o.number}", MARGIN, y + 37, sp=18, rid="order_number"),
                    label(o.date, 0, y + 42, sp=14, rid="order_date", right=1033,
                          align_right=True),
                    label(f"{n} items · {money(total)}", MARGIN, y + 110, sp=16,
                          rid="order_summary"),
                    label(o.status, MARGIN, y + 178, sp=14, rid="order_status"),
                    rid="order_item", clickable=True, key=f"order:{o.number}",
                    on_tap=self.go_to("order", number=o.number))
            items.append((273, build))
        return [toolbar("Orders"),
                vlist("order_list", (0, 210, WIDTH, BOTTOM_NAV_TOP), items, route.scroll)]

    def _tab_account(self, route: Route) -> list[View]:
        header = linear((0, 210, WIDTH, 462), image((MARGIN, 252, 215, 420),
                                                    desc="Profile picture"),
                        label("Jane Doe", 257, 262, sp=20, rid="profile_name"),
                        label("jane.doe@example.com", 257, 346, sp=14, rid="profile_email"),
                        rid="profile_header")

        def row(title: str, summary: str, key: str = "", on_tap=None, switch=None):
            def build(y: int) -> View:
                kids = [image((MARGIN, y + 63, 110, y + 126), rid="android:id/icon"),
                        label(title, 163, y + 42, sp=16, rid="android:id/title"),
                        label(summary, 163, y + 105, sp=14, rid="android:id/summary")]
                if switch is not None:
                    kids.append(View("android.widget.Switch", (880, y + 63, 1033, y + 126),
                                     rid="android:id/switch_widget", checkable=True,
                                     checked=switch, text="ON" if switch else "OFF"))
                return linear((0, y, WIDTH, y + 189), *kids, clickable=True, key=key,
                              on_tap=on_tap)
            return (189, build)

        saved = len(self.favourites)

        def toggle_alerts() -> None:
            self.deal_alerts = not self.deal_alerts
        rows = [row("Favourites", f"{saved} saved", "account:favourites",
                    self.go_to("favourites")),
                row("Addresses", "48 Maple Avenue, Springfield"),
                row("Payment methods", "Visa •••• 4242"),
                row("Deal alerts", "Weekly offers by notification", "account:deal_alerts",
                    toggle_alerts, switch=self.deal_alerts),
                row("Help & support", "FAQs, contact us"),
                row("Sign out", "jane.doe@example.com")]
        return [toolbar("Account"), header,
                vlist("account_list", (0, 483, WIDTH, BOTTOM_NAV_TOP), rows, route.scroll)]

    def screen_category(self, route: Route) -> View:
        name, products = CATEGORIES[route.params["id"]]
        actions = [image_button(action_slot(0, 2), "Search", rid="action_search",
                                on_tap=self.go_to("search")), self._cart_action(1, 2)]
        return self._screen(
            toolbar(name, up=self.back, actions=actions),
            label(f"{len(products)} products", MARGIN, 231, sp=14, rid="result_count"),
            vlist("product_list", (0, 294, WIDTH, 2337),
                  [self._product_item(p) for p in products], route.scroll))

    def screen_search(self, route: Route) -> View:
        bar = group((0, 63, WIDTH, 210),
                    image_button((0, 63, 147, 210), "Navigate up", key="up", on_tap=self.back),
                    self.edit_text("search", (147, 84, 933, 189), "Search products",
                                   rid="search_input", on_enter=self.submit_search),
                    image_button((933, 63, WIDTH, 210), "Search", rid="search_button",
                                 on_tap=self.submit_search),
                    rid="search_toolbar")
        query = route.params.get("query")
        if query is None:
            def recent(q: str):
                def pick() -> None:
                    self.fields["search"] = q
                    self.submit_search()
                return (147, lambda y: linear(
                    (0, y, WIDTH, y + 147), image((MARGIN, y + 42, 110, y + 105)),
                    label(q, 152, y + 44, sp=16, rid="recent_query"),
                    rid="recent_item", clickable=True, key=f"recent:{q}", on_tap=pick))
            return self._screen(bar, label("Recent searches", MARGIN, 241, sp=14,
                                           rid="section_title"),
                                vlist("recent_list", (0, 315, WIDTH, 2337),
                                      [recent(q) for q in self.recent], route.scroll))
        found = [p for p in PRODUCTS.values()
                 if query.lower() in p.name.lower()
                 or query.lower() in CATEGORIES[CATEGORY_OF[p.id]][0].lower()]
        if not found:
            return self._screen(bar, label(f"No results for \u201c{query}\u201d", MARGIN, 300,
                                           sp=18, rid="empty_title"))
        count = f"{len(found)} result{'s' * (len(found) != 1)} for \u201c{query}\u201d"
        return self._screen(bar, label(count, MARGIN, 231, sp=14, rid="result_count"),
                            vlist("search_results", (0, 294, WIDTH, 2337),
                                  [self._product_item(p) for p in found], route.scroll))

    def screen_product(self, route: Route) -> View:
        p = PRODUCTS[route.params["id"]]
        fav = View("android.widget.CheckBox", action_slot(0, 2), rid="favourite_button",
                   desc="Favourite", checkable=True, checked=p.id in self.favourites,
                   clickable=True, key="favourite", on_tap=self.toggle_favourite(p.id))
        text = f"{p.name}, {p.unit.lower()}. {DESCRIPTIONS[CATEGORY_OF[p.id]]}"
        lines = 1 + len(text) // 44
        details = linear(
            (0, 210, WIDTH, 2127),
            image((0, 210, WIDTH, 966), rid="product_hero", desc=p.name),
            label(p.name, MARGIN, 1008, sp=24, rid="product_name", right=1033),
            label(p.unit, MARGIN, 1100, sp=16, rid="product_unit"),
            label(money(p.cents), MARGIN, 1165, sp=24, rid="product_price"),
            label("In stock", MARGIN, 1260, sp=14, rid="stock_status"),
            label("About this product", MARGIN, 1344, sp=18, rid="description_title"),
            label(text, MARGIN, 1420, sp=16, rid="product_description", right=1033,
                  lines=lines))
        kids = [toolbar("Product details", up=self.back, actions=[fav, self._cart_action(1, 2)]),
                View("android.widget.ScrollView", (0, 210, WIDTH, 2127), rid="product_scroll",
                     children=[details], scrollable=True, focusable=True),
                linear((0, 2127, WIDTH, 2337),
                       button((MARGIN, 2159, 1033, 2306), "Add to cart",
                              rid="add_to_cart_button", key="add_to_cart",
                              on_tap=self.add_to_cart(p.id)), rid="bottom_bar")]
        if self.snackbar:
            kids.append(frame((32, 1953, 1048, 2106), linear(
                (32, 1953, 1048, 2106),
                label(self.snackbar, 74, 1995, sp=14, rid="snackbar_text", right=760),
                button((781, 1974, 1027, 2085), "VIEW CART", rid="snackbar_action",
                       on_tap=self.open_tab("cart"))), rid="snackbar_layout"))
        return self._screen(*kids)

    def screen_favourites(self, route: Route) -> View:
        bar = toolbar("Favourites", up=self.back)
        if not self.favourites:
            return self._screen(bar, label("No favourites yet", 330, 1000, sp=20,
                                           rid="empty_title"))
        return self._screen(bar, vlist("favourite_list", (0, 210, WIDTH, 2337),
                                       [self._product_item(PRODUCTS[f])
                                        for f in self.favourites], route.scroll))

    def screen_checkout(self, route: Route) -> View:
        form = [label("Delivery address", MARGIN, 241, sp=18, rid="address_title")]
        for i, (f, hint) in enumerate(FIELDS):
            y = 325 + i * 220
            kids = [self.edit_text(f"checkout.{f}", (MARGIN, y, 1033, y + 158), hint,
                                   rid=f"input_{f}")]
            if f"checkout.{f}" in self.errors:
                kids.append(label("Required", 89, y + 163, sp=12, rid="textinput_error"))
            form.append(linear((MARGIN, y, 1033, y + 210), *kids, rid=f"{f}_layout"))
        sub = subtotal(self.cart.items())
        fee = delivery(sub)
        rows = [("Items", f"{sum(self.cart.values())} items", money(sub), 1320),
                ("Delivery", "Delivery", money(fee) if fee else "Free", 1390),
                ("Total", "Total", money(sub + fee), 1460)]
        form.append(label("Order summary", MARGIN, 1240, sp=18, rid="summary_title"))
        for rid, text, value, y in rows:
            form.append(linear((MARGIN, y, 1033, y + 58), label(text, MARGIN, y, sp=16),
                               label(value, 0, y, sp=16, rid=f"summary_{rid.lower()}",
                                     right=1033, align_right=True)))
        return self._screen(
            toolbar("Checkout", up=self.back),
            View("android.widget.ScrollView", (0, 210, WIDTH, 2127), rid="checkout_form",
                 children=[linear((0, 210, WIDTH, 2127), *form)], scrollable=True,
                 focusable=True),
            linear((0, 2127, WIDTH, 2337),
                   button((MARGIN, 2159, 1033, 2306), "Place order", rid="place_order_button",
                          on_tap=self.place_order), rid="bottom_bar"))

    def screen_confirmation(self, route: Route) -> View:
        order = next(o for o in self.orders if o.number == route.params["order"])
        total = subtotal(order.items)
        total += delivery(total)
        first = order.address.split(",")[0].split()[0]
        return self._screen(
            toolbar("Order placed"),
            image((414, 399, 666, 651), rid="confirmation_icon", desc="Order confirmed"),
            label(f"Thank you, {first}!", MARGIN, 714, sp=24, rid="confirmation_title",
                  right=1033),
            label(f"Order #{order.number}", MARGIN, 819, sp=18, rid="order_number"),
            label(f"Total paid: {money(total)}", MARGIN, 892, sp=16, rid="order_total"),
            label("Delivering to", MARGIN, 1008, sp=14),
            label(order.address, MARGIN, 1071, sp=16, rid="delivery_address", right=1033,
                  lines=2),
            label("Arriving tomorrow, 10:00 AM – 12:00 PM", MARGIN, 1218, sp=16,
                  rid="delivery_window", right=1033),
            button((MARGIN, 1953, 1033, 2079), "View my orders", rid="view_orders_button",
                   on_tap=self.open_tab("orders")),
            button((MARGIN, 2121, 1033, 2247), "Continue shopping", rid="continue_button",
                   on_tap=self.open_tab("home")))

    def screen_order(self, route: Route) -> View:
        o = next(o for o in self.orders if o.number == route.params["number"])
        sub = subtotal(o.items)
        fee = delivery(sub)

        def pair(left: str, right: str, rid: str, height: int = 84, sp: float = 16):
            return (height, lambda y: linear(
                (0, y, WIDTH, y + height), label(left, MARGIN, y + 10, sp=sp),
                label(right, 0, y + 10, sp=sp, rid=rid, right=1033, align_right=True)))

        def text(t: str, rid: str, height: int, sp: float = 16):
            return (height, lambda y: label(t, MARGIN, y + 21, sp=sp, rid=rid, right=1033))

        rows = [text(o.status, "order_status", 105, 20), text(f"Placed {o.date}",
                                                              "order_date", 105, 14),
                text("Items", "section_title", 105, 18)]
        rows += [pair(f"{PRODUCTS[pid].name} × {q}", money(PRODUCTS[pid].cents * q),
                      "line_item_price", 105) for pid, q in o.items]
        rows += [pair("Subtotal", money(sub), "order_subtotal"),
                 pair("Delivery", money(fee) if fee else "Free", "order_delivery"),
                 pair("Total", money(sub + fee), "order_total", 105, 18),
                 text("Delivery address", "section_title", 105, 18),
                 text(o.address, "order_address", 147),
                 text("Payment", "section_title", 105, 18),
                 text("Visa •••• 4242", "order_payment", 105)]
        return self._screen(toolbar(f"Order #{o.number}", up=self.back),
                            vlist("order_detail", (0, 210, WIDTH, 2337), rows, route.scroll,
                                  padding=21))
