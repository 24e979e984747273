"""The shopping app's catalogue, past orders and prices (read-only content)."""

from __future__ import annotations

from typing import NamedTuple


class Product(NamedTuple):
    id: str
    name: str
    cents: int
    unit: str
    badge: str = ""


CATEGORIES: dict[str, tuple[str, list[Product]]] = {
    "produce": ("Fruit & Vegetables", [
        Product("bananas", "Bananas", 129, "Bunch of 6"),
        Product("strawberries", "Strawberries", 399, "1 lb clamshell", "Sale"),
        Product("avocados", "Hass Avocados", 449, "Bag of 4"),
        Product("spinach", "Baby Spinach", 299, "5 oz", "New"),
        Product("tomatoes", "Vine Tomatoes", 329, "1 lb"),
        Product("apples", "Honeycrisp Apples", 549, "3 lb bag"),
        Product("carrots", "Organic Carrots", 179, "2 lb bag", "New"),
    ]),
    "dairy": ("Dairy & Eggs", [
        Product("whole_milk", "Whole Milk", 349, "1 gallon"),
        Product("oat_milk", "Oat Milk", 429, "64 fl oz"),
        Product("cheddar", "Sharp Cheddar", 499, "8 oz block"),
        Product("eggs", "Large Brown Eggs", 389, "12 count"),
        Product("butter", "Salted Butter", 459, "16 oz", "Sale"),
        Product("cottage_cheese", "Cottage Cheese", 319, "16 oz"),
        Product("greek_yogurt", "Greek Yogurt", 149, "5.3 oz cup"),
    ]),
    "bakery": ("Bakery", [
        Product("sourdough", "Sourdough Loaf", 599, "24 oz"),
        Product("bagels", "Everything Bagels", 399, "6 count", "New"),
        Product("croissants", "Butter Croissants", 649, "4 count"),
        Product("muffins", "Blueberry Muffins", 499, "4 count"),
    ]),
    "snacks": ("Snacks", [
        Product("sea_salt_chips", "Sea Salt Potato Chips", 299, "8 oz"),
        Product("bbq_chips", "BBQ Potato Chips", 329, "8 oz"),
        Product("tortilla_chips", "Tortilla Chips", 349, "13 oz", "Sale"),
        Product("almonds", "Roasted Almonds", 699, "16 oz"),
        Product("granola_bars", "Granola Bars", 429, "6 count"),
        Product("dark_chocolate", "Dark Chocolate Bar", 249, "3.5 oz", "New"),
        Product("pretzels", "Pretzel Twists", 279, "16 oz"),
        Product("popcorn", "Butter Popcorn", 399, "3 bags", "New"),
    ]),
    "drinks": ("Drinks", [
        Product("orange_juice", "Orange Juice", 479, "52 fl oz"),
        Product("sparkling_water", "Sparkling Water", 549, "12 cans"),
        Product("cold_brew", "Cold Brew Coffee", 629, "32 fl oz", "New"),
        Product("green_tea", "Green Tea", 399, "20 bags"),
        Product("lemonade", "Lemonade", 329, "59 fl oz"),
    ]),
}
PRODUCTS = {p.id: p for _, items in CATEGORIES.values() for p in items}
CATEGORY_OF = {p.id: c for c, (_, items) in CATEGORIES.items() for p in items}
DESCRIPTIONS = {
    "produce": "Picked ripe and delivered fresh from local farms. Rinse before eating.",
    "dairy": "From pasture-raised herds. Keep refrigerated and use by the date on the pack.",
    "bakery": "Baked fresh every morning in our kitchen with no artificial preservatives.",
    "snacks": "A crowd-pleasing snack for lunch boxes, road trips and movie nights.",
    "drinks": "Best served chilled. Shake well before opening.",
}
DELIVERY_CENTS, FREE_DELIVERY_CENTS = 299, 3500


class Order(NamedTuple):
    number: int
    date: str
    items: tuple[tuple[str, int], ...]
    status: str
    address: str


ORDERS = (
    Order(10467, "Jun 9", (("eggs", 1), ("spinach", 1), ("greek_yogurt", 4)), "Shipped",
          "Jane Doe, 48 Maple Avenue, Springfield 62701"),
    Order(10452, "Jun 4", (("granola_bars", 2), ("orange_juice", 1)), "Delivered",
          "Jane Doe, 48 Maple Avenue, Springfield 62701"),
    Order(10431, "May 28", (("whole_milk", 1), ("sourdough", 1), ("avocados", 2),
                            ("cold_brew", 1)), "Delivered",
          "Jane Doe, 48 Maple Avenue, Springfield 62701"),
)
FIELDS = (("name", "Full name"), ("street", "Street address"), ("city", "City"),
          ("zip", "ZIP code"))


def money(cents: int) -> str:
    return f"${cents // 100}.{cents % 100:02d}"


def subtotal(items) -> int:
    return sum(PRODUCTS[pid].cents * qty for pid, qty in items)


def delivery(cents: int) -> int:
    return 0 if cents >= FREE_DELIVERY_CENTS else DELIVERY_CENTS
