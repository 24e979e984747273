"""How an app's screens look: recorded pixels and sampled text styles, as generated data.

A generated app whose traces carry screenshots holds `look.json` and `assets/`; the
compiler writes them (`phoneworld.visual`), the runtime only reads them:

    look = load_look(Path("generated/qqmusic"))      # None where the app has none
    sl = look.screens["main"]                        # the screen's recorded look
    sl.plate                                         # asset name of its static pixels
    sl.marks_at[(x1, y1, x2, y2)]                    # what the recording shows there

A screen's *plate* is one recording of it. `marks` say what that recording shows where
(texts, check states, typed text), with the colours and text size seen there, so that a
page can tell what of the plate still holds and what state has changed: a mark no box
shows any more is painted over, a box no mark shows is drawn. A list's `items` are its
recorded rows (where they lie on the plate, their texts and marks), so a row that moved
or changed is cut from the recorded row most like it; `sprite` is a row with its texts
wiped, for rows like none recorded. Assets are content-addressed
(`<sha256 prefix>.<ext>`); names, colours and alignments are checked on loading, so a
look file brings nothing but data to a page.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from phoneworld.errors import PhoneworldError

LOOK_FILE = "look.json"
ASSET_DIR = "assets"
ASSET_NAME = re.compile(r"^[0-9a-f]{16,64}\.(?:webp|png|jpg)$")
"""What an asset's file name may be: a hash and an image type (nothing else is served)."""

Rect = tuple[int, int, int, int]
_TOKENS = itertools.count(1)

CHECKED, UNCHECKED = "\u2611", "\u2610"


def signature(views: Iterable[tuple[str, bool, bool]]) -> tuple[str, ...]:
    """What a list row shows, from its views' (text, checkable, checked) in document
    order: its texts and check states. Rows with the same signature look the same."""
    out: list[str] = []
    for text, checkable, checked in views:
        if text.strip():
            out.append(text)
        if checkable:
            out.append(CHECKED if checked else UNCHECKED)
    return tuple(out)


@dataclass(frozen=True)
class Style:
    """Text as the recording drew it: size in app pixels, colour, weight, alignment."""

    size: float = 0.0
    color: str = ""
    weight: int = 400
    align: str = "left"
    indent: float = 0.0
    """Where a left-aligned text starts inside its view (after an icon, a padding)."""
    top: float = -1.0
    """Where the text's ink starts below its view's top, for a text recorded at the top
    of a view much taller than it (a multi-line field's hint); -1: centred. Not stored
    (`compose` reads it from the mark's ink)."""
    plate_check: bool = False
    """The plate shows the check widget's box or radio button, in the state the box has
    (`compose_rows.check_redraw`): only its text is drawn. Not stored."""


@dataclass(frozen=True)
class Mark:
    """Something state-dependent that the plate shows at `bounds`: a text, a check state,
    a text field. `ink` is the part to paint over (in `bg`) when the box there changed."""

    bounds: Rect
    text: str = ""
    checked: bool | None = None
    ink: Rect = (0, 0, 0, 0)
    bg: str = "#ffffff"
    style: Style = field(default_factory=Style)


@dataclass(frozen=True)
class Item:
    """One recorded row of a list: where it lies on the plate, the texts it shows (its
    `signature`), and their marks (bounds relative to the row)."""

    bounds: Rect
    texts: tuple[str, ...]
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class ListLook:
    """A list as recorded: its rows, their background, and a blank row for new ones."""

    bounds: Rect
    bg: str
    items: tuple[Item, ...] = ()
    sprite: str | None = None
    """Asset of a recorded row with its texts wiped (drawn under a new row's texts)."""
    sprite_size: tuple[int, int] = (0, 0)
    """The sprite row's size in app pixels."""
    sprite_marks: tuple[Mark, ...] = ()
    """The sprite row's texts, bounds relative to the row (their style for new rows)."""
    elsewhere: tuple[tuple[Item, str], ...] = field(default=(), compare=False)
    """Rows of the same list recorded on other screens' plates (each with its plate's
    asset) that this one's plate does not show: a row scrolled off this plate, or one
    an expanded group pushed down, is cut from there, its own icon and all. Not stored:
    `rows_elsewhere` finds them when a look is made."""


@dataclass(frozen=True)
class Gauge:
    """A picture that follows a text (a seek bar beside the number it sets): what the
    recordings showed at `bounds` while the text at `follows` read each of `variants`'
    texts (text, asset), and the colour that covers it for a text none showed. A toggle
    with no text follows itself (`follows == bounds`), its variants by check state
    (`CHECKED`, `UNCHECKED`)."""

    bounds: Rect
    follows: Rect
    bg: str = "#ffffff"
    variants: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ScreenLook:
    """One screen's recorded look (see the module docstring)."""

    plate: str
    marks: tuple[Mark, ...] = ()
    lists: tuple[ListLook, ...] = ()
    source: str = ""
    """The recording the plate was cut from (for the comparison page)."""
    accent: str = ""
    """The plate's most used strong colour (for switches and check boxes drawn on it)."""
    varying: tuple[Rect, ...] = ()
    """Pictures of the plate that other recordings show otherwise (an entity's photo):
    covered when the screen shows other texts than the plate."""
    gauges: tuple[Gauge, ...] = ()
    """Pictures that follow a text the state changes (`Gauge`)."""
    unbound: bool = False
    """Drawn for its screen opened without the parameter it has a table for (from a
    button that passes none): where no box lies at a text of the plate (a title bound to
    the parameter, not shown), the plate's text stays, as recorded for its parameter,
    rather than be wiped (`without_param`)."""
    window: Rect | None = None
    """A dialog's window (smaller than the screen, over a dimmed scrim): the plate shows
    it in these bounds; around it the recording showed the screen it opened over,
    dimmed by `scrim` (drawn over that screen as the machine shows it now)."""
    scrim: float = 0.0
    """How much the recording dims what lies under the window (black at this alpha)."""
    # Indexes of the fields above, made anew by every constructor and `replace` (not
    # init fields: a replaced look must not keep its original's).
    marks_at: dict[Rect, list[Mark]] = field(default_factory=dict, compare=False, init=False)
    lists_at: dict[Rect, ListLook] = field(default_factory=dict, compare=False, init=False)

    _bare: list[ScreenLook] = field(default_factory=list, compare=False, init=False,
                                    repr=False)

    def __post_init__(self) -> None:
        for m in self.marks:
            self.marks_at.setdefault(m.bounds, []).append(m)
        for lst in self.lists:
            self.lists_at.setdefault(lst.bounds, lst)

    def without_param(self) -> ScreenLook:
        """This look for its screen opened without a parameter (`unbound`), made once."""
        if self.unbound:
            return self
        if not self._bare:
            self._bare.append(replace(self, unbound=True))
        return self._bare[0]


@dataclass(frozen=True)
class Look:
    """An app's look: a `ScreenLook` per screen that has recorded pixels, and where the
    asset files lie."""

    screens: dict[str, ScreenLook]
    folder: Path | None = None
    data: dict[str, bytes] = field(default_factory=dict, compare=False, repr=False)
    """Assets held in memory (a look just compiled, not yet written), by name."""
    token: int = field(default_factory=lambda: next(_TOKENS), compare=False, init=False)
    """Tells looks apart in cache keys (renderings are shared between equal specs); not an
    argument, so a look made from another (`dataclasses.replace`) gets its own."""

    def asset(self, name: str) -> bytes:
        """The bytes of asset `name` (a `PhoneworldError` if it is not one)."""
        if name in self.data:
            return self.data[name]
        if not ASSET_NAME.match(name) or self.folder is None:
            raise PhoneworldError(f"no asset {name!r}")
        try:
            return (self.folder / ASSET_DIR / name).read_bytes()
        except OSError as err:
            raise PhoneworldError(f"asset {name}: {err.strerror or err}") from err

    def names(self) -> set[str]:
        """Every asset the look refers to."""
        out: set[str] = set()
        for s in self.screens.values():
            out.add(s.plate)
            out.update(lst.sprite for lst in s.lists if lst.sprite)
            out.update(name for g in s.gauges for _, name in g.variants)
        return out


def rows_elsewhere(screens: dict[str, ScreenLook]) -> dict[str, ScreenLook]:
    """`screens` with each list's rows recorded elsewhere (`ListLook.elsewhere`): the
    rows of the list at the same bounds on the other screens' plates (in name order),
    and of the same kind of row (their sprites' sizes, where both have one), but
    dialogs' (their plates dim what lies behind the window), rows cut short by
    their list or showing no text, rows whose texts were not all seen on the plate (a
    menu drawn over them), and rows of a signature this list's plate shows."""
    donors: dict[Rect, list[tuple[Item, str, tuple[int, int]]]] = {}
    for name in sorted(screens):
        sl = screens[name]
        if sl.window is not None:
            continue
        for lst in sl.lists:
            x1, y1, x2, y2 = lst.bounds
            for it in lst.items:
                b = it.bounds
                if it.texts and b[0] >= x1 and b[1] >= y1 and b[2] <= x2 and b[3] <= y2 \
                        and it.marks and all(m.style.size > 0 for m in it.marks if m.text):
                    donors.setdefault(lst.bounds, []).append((it, sl.plate, lst.sprite_size))
    out = {}
    for name, sl in screens.items():
        lists = []
        for lst in sl.lists:
            own = {it.texts for it in lst.items}
            seen: set[tuple[str, ...]] = set()
            got = []
            for it, plate, kind in donors.get(lst.bounds, ()):
                if plate == sl.plate or it.texts in own or it.texts in seen or (
                        kind != lst.sprite_size and 0 not in kind + lst.sprite_size):
                    continue  # (a list of other rows in the same place: another kind)
                seen.add(it.texts)
                got.append((it, plate))
            lists.append(replace(lst, elsewhere=tuple(got)) if got else lst)
        changed = any(a is not b for a, b in zip(lists, sl.lists, strict=True))
        out[name] = replace(sl, lists=tuple(lists)) if changed else sl
    return out


def load_look(folder: Path | str) -> Look | None:
    """The look of the generated app in `folder`, or None where it has no `look.json`."""
    folder = Path(folder)
    path = folder / LOOK_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_bytes())
        look = look_from_json(data, folder)
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise PhoneworldError(f"{path}: unreadable look: {err}") from err
    missing = sorted(n for n in look.names() if not (folder / ASSET_DIR / n).is_file())
    if missing:
        raise PhoneworldError(f"{path}: asset {missing[0]} is missing from "
                              f"{folder / ASSET_DIR} ({len(missing)} missing)")
    return look


def look_from_json(data: dict[str, Any], folder: Path | None = None) -> Look:
    """A `Look` from its JSON form (`look_to_json`'s output)."""
    screens = {}
    for name, s in data["screens"].items():
        plate = s["plate"]
        if not ASSET_NAME.match(plate):
            raise ValueError(f"screen {name}: bad asset name {plate!r}")
        screens[name] = ScreenLook(
            plate=plate, marks=tuple(_mark(m) for m in s.get("marks", ())),
            lists=tuple(_list(lst) for lst in s.get("lists", ())), source=s.get("source", ""),
            accent=_color(s["accent"]) if s.get("accent") else "",
            varying=tuple(_rect(r) for r in s.get("varying", ())),
            gauges=tuple(_gauge(g) for g in s.get("gauges", ())),
            **_dialog(s.get("dialog")))
    return Look(screens=rows_elsewhere(screens), folder=folder)


def _dialog(d: Any) -> dict[str, Any]:
    if d is None:
        return {}
    scrim = float(d["scrim"])
    if not 0.0 < scrim < 1.0:
        raise ValueError(f"bad scrim {scrim!r}")
    return {"window": _rect(d["window"]), "scrim": scrim}


def look_to_json(look: Look) -> dict[str, Any]:
    """The JSON form of `look` (stable: keys are sorted where it is written)."""
    return {"version": 1, "screens": {
        name: {"plate": s.plate, "source": s.source, "accent": s.accent,
               "varying": [list(r) for r in s.varying],
               **({"gauges": [{"bounds": list(g.bounds), "follows": list(g.follows),
                               "bg": g.bg, "variants": [list(v) for v in g.variants]}
                              for g in s.gauges]} if s.gauges else {}),
               **({"dialog": {"window": list(s.window), "scrim": s.scrim}}
                  if s.window is not None and s.scrim else {}),
               "marks": [_mark_json(m) for m in s.marks],
               "lists": [{"bounds": list(lst.bounds), "bg": lst.bg, "sprite": lst.sprite,
                          "sprite_size": list(lst.sprite_size),
                          "items": [{"bounds": list(i.bounds), "texts": list(i.texts),
                                     "marks": [_mark_json(m) for m in i.marks]}
                                    for i in lst.items],
                          "sprite_marks": [_mark_json(m) for m in lst.sprite_marks]}
                         for lst in s.lists]}
        for name, s in look.screens.items()}}


def _rect(v: Any) -> Rect:
    x1, y1, x2, y2 = (int(c) for c in v)
    return (x1, y1, x2, y2)


def _color(v: Any) -> str:
    s = str(v)
    if not re.fullmatch(r"#[0-9a-f]{6}", s):
        raise ValueError(f"bad colour {s!r}")
    return s


def _align(v: Any) -> str:
    if v not in ("left", "center", "right"):
        raise ValueError(f"bad alignment {v!r}")
    return str(v)


def _mark(m: dict[str, Any]) -> Mark:
    st = m.get("style") or {}
    checked = m.get("checked")
    return Mark(bounds=_rect(m["bounds"]), text=str(m.get("text", "")),
                checked=None if checked is None else bool(checked), ink=_rect(m["ink"]),
                bg=_color(m["bg"]),
                style=Style(size=float(st.get("size", 0)),
                            color=_color(st["color"]) if st.get("color") else "",
                            weight=int(st.get("weight", 400)),
                            align=_align(st.get("align", "left")),
                            indent=float(st.get("indent", 0))))


def _mark_json(m: Mark) -> dict[str, Any]:
    return {"bounds": list(m.bounds), "text": m.text, "checked": m.checked,
            "ink": list(m.ink), "bg": m.bg,
            "style": {"size": m.style.size, "color": m.style.color,
                      "weight": m.style.weight, "align": m.style.align,
                      "indent": m.style.indent}}


def _gauge(d: dict[str, Any]) -> Gauge:
    variants = []
    for text, name in d.get("variants", ()):
        if not ASSET_NAME.match(name):
            raise ValueError(f"bad asset name {name!r}")
        variants.append((str(text), str(name)))
    return Gauge(bounds=_rect(d["bounds"]), follows=_rect(d["follows"]), bg=_color(d["bg"]),
                 variants=tuple(variants))


def _list(d: dict[str, Any]) -> ListLook:
    sprite = d.get("sprite")
    if sprite is not None and not ASSET_NAME.match(sprite):
        raise ValueError(f"bad asset name {sprite!r}")
    w, h = (int(v) for v in d.get("sprite_size", (0, 0)))
    return ListLook(bounds=_rect(d["bounds"]), bg=_color(d["bg"]), sprite=sprite,
                    sprite_size=(w, h),
                    items=tuple(Item(bounds=_rect(i["bounds"]),
                                     texts=tuple(str(t) for t in i["texts"]),
                                     marks=tuple(_mark(m) for m in i.get("marks", ())))
                                for i in d.get("items", ())),
                    sprite_marks=tuple(_mark(m) for m in d.get("sprite_marks", ())))


def asset_source(looks: Iterable[Look | None]) -> Callable[[str], bytes | None]:
    """A lookup of asset bytes by name over several apps' looks (None for no such asset):
    what the server answers `assets/<name>` with, and the screenshotter draws from."""
    where: dict[str, Look] = {}
    for look in looks:
        if look is not None:
            for name in look.names():
                where.setdefault(name, look)

    def get(name: str) -> bytes | None:
        look = where.get(name)
        return look.asset(name) if look is not None else None

    return get
