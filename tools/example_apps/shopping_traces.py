"""Recorded sessions of the shopping app: what a user did, step by step."""

from __future__ import annotations

from .recorder import Session, registry
from .shopping import ShopApp

APP = ShopApp
TRACES: list = []
trace = registry(TRACES)


@trace("add_two_greek_yogurts", "Add two Greek yogurts to my cart.")
def _(s: Session) -> None:
    s.tap("category:dairy")
    s.scroll("product_list", "down")
    s.tap("product:greek_yogurt")
    s.tap("add_to_cart")
    s.tap("add_to_cart")
    s.tap("snackbar_action")


@trace("search_cheapest_chips", "Search for chips and add the cheapest one to my cart.")
def _(s: Session) -> None:
    s.tap("search_bar")
    s.type("search", "chips")
    s.key("enter")
    s.tap("product:bbq_chips")
    s.tap("up")
    s.tap("product:sea_salt_chips")
    s.tap("add_to_cart")
    s.tap("toolbar_cart")


@trace("checkout_new_address",
       "Check out my cart and have it delivered to Jane Doe, 12 Oak Street, Springfield 62704.")
def _(s: Session) -> None:
    s.tap("tab:cart")
    s.tap("checkout_button")
    s.tap("place_order_button")
    for field, value in (("name", "Jane Doe"), ("street", "12 Oak Street"),
                         ("city", "Springfield"), ("zip", "62704")):
        s.tap(f"checkout.{field}")
        s.type(f"checkout.{field}", value)
    s.tap("place_order_button")
    s.tap("view_orders_button")


@trace("three_bananas_no_oat_milk",
       "Make it three bunches of bananas in my cart and remove the oat milk.")
def _(s: Session) -> None:
    s.tap("category:produce")
    s.tap("product:bananas")
    s.tap("add_to_cart")
    s.tap("toolbar_cart")
    s.tap("remove:oat_milk")
    s.tap("increase:bananas")


@trace("order_total_may_28", "How much did I pay for my order from May 28?")
def _(s: Session) -> None:
    s.tap("tab:account")
    s.tap("tab:orders")
    s.tap("order:10452")
    s.key("back")
    s.tap("order:10431")
    s.answer("$27.74")


@trace("last_snack_price", "What does the last item in the Snacks category cost?")
def _(s: Session) -> None:
    s.tap("search_bar")
    s.type("search", "snacks")
    s.tap("search_button")
    s.scroll("search_results", "down")
    s.tap("product:popcorn")
    s.answer("$3.99")


@trace("favourite_sourdough", "Save the sourdough loaf to my favourites.")
def _(s: Session) -> None:
    s.tap("category:bakery")
    s.tap("product:sourdough")
    s.tap("favourite")
    s.key("back")
    s.key("back")
    s.tap("tab:account")
    s.tap("account:favourites")


@trace("deal_alerts_off_unfavourite",
       "Turn off deal alerts and remove the strawberries from my favourites.")
def _(s: Session) -> None:
    s.tap("tab:account")
    s.tap("account:deal_alerts")
    s.tap("account:favourites")
    s.tap("product:strawberries")
    s.tap("favourite")
    s.key("back")
    s.key("back")
