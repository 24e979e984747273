"""What a person calls each screen, in the app's own words.

    screen_labels(spec) -> {"main_cart": ("Cart", "title"), "settings": ("Settings", "opener"),
                            "main_activity_launcher_2": ("Menu", "opener"), ...}

A screen is called by its title (a fixed label in its top bar, or a dialog's title), else
by the label of the widget that opens it (the button or tab a person taps to get there):
"opener", or "button" where that label says what a button does, not where it goes ("START
+10 XP", a text button's "Leave Now": a task taps it rather than naming a screen after
it). A screen that gives way by itself (`on splash wait -> home`: a splash, an ad) is no
place to go: no label. A name is never an identifier: a screen the app gives no words for
has no label, and no task names it. Labels that are not names are left out: texts with no
letters ("21"), long sentences, a detail screen's title that is its row's own name,
buttons that close or go back ("OK", "Navigate up"), and the app's own name on any screen
but the start.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from phoneworld.spec.ast import AppSpec, Call, Compare, Const, Ref, Screen, View
from phoneworld.spec.walk import own_root, views
from phoneworld.tasks.sentences import end_mark
from phoneworld.tasks.wording import Called

_NOT_A_NAME = re.compile(
    r"^(navigate up|up|back|go back|collapse|expand|cancel|ok|okay|close|done|dismiss|yes|no|"
    r"skip|next|continue|later|not now|allow|deny|got it|retry|clear|delete|remove|save|"
    r"apply|confirm|submit|send)$", re.I)
"""Labels of buttons that close, confirm or step through something: what they lead to is
not called by them ("OK" opens no "OK" screen). English words only: no property of a text
tells "OK" or "Back" from "Settings" (each leads to one place, is short, a word), and the
structure does not either (a back button's target is a tab's too). What is not a word
list is a rule of its own: a button of a dialog (any language) names nothing, nor does a
label that is a sentence (`_not_a_place`), nor one that is no name (`is_name`: a
number, a time "3:00 PM", a text with no letters or cut short)."""
_TITLE_ID = re.compile(r"(^|[/:])(alert_?|dialog_?|toolbar_?|action_?bar_?|app_?bar_?|page_?)?"
                       r"title$", re.I)
_BAR_TITLE_ID = re.compile(r"(?:^|[/:_])[Tt]itle$|[a-z]Title$")
"""An id that calls a label a title, whatever title (uber's `hub_title` "Uber Pro",
`sectionTitle`): a label in the top bar with one is its screen's title. Not `subtitle`.
Outside the top bar such an id says less (uber's `ub__loyalty_header_title` "Blue" is a
tier's name in a header card): there, only `_TITLE_ID` marks a title."""
_HEAD_ID = re.compile(r"(title|head(line|er|ing)?)$", re.I)
"""An id that calls a label a sheet's heading (uber's `destination_time_picker_headline`
“Set arrival time”). A sheet drawn in its page's window (`Screen.layer`) is titled only
so: its first label may head its first section (wikipedia's theme sheet: “Font size”
over a stepper, then “Theme” over three buttons)."""
MAX_WORDS = 6
MAX_CHARS = 40


@lru_cache(maxsize=64)
def screen_labels(spec: AppSpec) -> dict[str, tuple[str, str]]:
    """Screen name -> (label, "title" or "opener") for every screen a person can name."""
    named = views_by_name(spec)
    dialogs = {s.name for s in spec.screens if "dialog" in s.modules}
    foreign = {s.name for s in spec.screens if s.foreign}
    start = spec.screen(spec.start)
    app_title = title_of(start, spec) if start is not None else ""
    tables = {t.name: t for t in spec.tables}
    timed = {t.screen for t in spec.transitions if t.action == "wait"}
    titles = {s.name: page_title(s, spec) for s in spec.screens if not s.foreign}
    documents = {s.name for s in spec.screens if not s.foreign and
                 titles[s.name] != without_site(title_of(s, spec), spec.title or spec.name)}
    """Screens titled by their web document: a page's own name, whoever opened it."""
    pictures = picture_names(spec)

    def opener(s: Screen) -> tuple[str, str] | None:
        """The label of the widget that most often opened `s`, and its kind: a widget of
        the app's own (another app's, a launcher's "Duolingo" icon, names the app)."""
        votes: Counter[str] = Counter()
        buttons: set[str] = set()
        places: set[str] = set()  # labels a view that is no button also gives
        for t in spec.transitions:
            if t.target != s.name or t.screen == s.name or t.screen in dialogs or \
                    t.screen in foreign or \
                    t.with_param is not None or (t.screen, t.widget) not in named or \
                    "editable" in named[(t.screen, t.widget)].flags:
                continue  # (a text field opens what it suggests, no place of its own)
            if _whole_page(named[(t.screen, t.widget)], spec):
                continue
            label = unglued(named[(t.screen, t.widget)], label_of(named[(t.screen, t.widget)]),
                            pictures)
            if label and is_name(label) and not _not_a_place(label) and \
                    label != app_title and not pictured(named[(t.screen, t.widget)], label):
                votes[label] += t.count
                if _is_button(named[(t.screen, t.widget)], label):
                    buttons.add(label)
                else:
                    places.add(label)
        if not votes:
            return None
        label = min(votes, key=lambda k: (-votes[k], k))
        return label, "button" if label in buttons - places else "opener"

    out: dict[str, tuple[str, str]] = {}
    for s in spec.screens:
        if s.foreign:
            continue
        title = titles[s.name]
        if title and s.name not in documents and any(
                t.target == s.name and t.screen != s.name and
                titles.get(t.screen) == title for t in spec.transitions) and \
                (found := opener(s)) is not None:
            out[s.name] = found  # a page under its parent's top bar (QQ互联's 我要发言 form)
            continue
        if title and s.param in tables and any(title in r for r in tables[s.param].rows):
            title = ""  # a detail screen's title that is its row's, not its own
        if title and (title != app_title or s.name == spec.start) and is_name(title) and \
                s.name not in timed:
            out[s.name] = (Called(title) if _a_button_says(s, title) else title, "title")
            continue
        if s.param is not None and "tabs" not in s.modules and "dialog" not in s.modules:
            continue  # a detail screen is named by its row
        if s.name in timed:
            continue  # a splash or an ad gives way by itself: no place to go to
        if (found := opener(s)) is not None:
            out[s.name] = found
    return {name: (_visible(label), kind) for name, (label, kind) in out.items()}


_BLANKS = "\u2800\u3164\u115f\u1160\uffa0\u200b\u200c\u200d\u2060\ufeff"
"""Characters that show nothing, which apps pad a label with where a space would be
trimmed (a braille blank, a Hangul filler, zero-width spaces)."""


def _visible(label: str) -> str:
    """`label` as a person reads it, without blank characters at its ends (spoon's page
    titled "노래⠀", a braille blank after it: "On 노래, what does it say …"); a `Called`
    label stays one."""
    said = label.strip().strip(_BLANKS).strip()
    return label if said == label else type(label)(said)


def page_title(s: Screen, spec: AppSpec) -> str:
    """A screen's title (`title_of`) without the site's name (`without_site`); on a web
    page whose document title says another page than its top bar (uber's bar still says
    "Uber | Payments", the page it came from, over a page that calls itself "Legal |
    Uber"), the document's: the bar lags the page it heads while the page loads."""
    app = spec.title or spec.name
    title = without_site(title_of(s, spec), app)
    web = next((without_site(const_text(v.text).strip(), app) for v in views(own_root(s))
                if v.cls.endswith("WebView") and is_name(const_text(v.text).strip())), "")
    if title and web and web.casefold() not in title.casefold() and \
            title.casefold() not in web.casefold() and \
            not any(t.casefold() == title.casefold() for t in _page_texts(s)):
        return web
    return title


def _page_texts(s: Screen) -> list[str]:
    """The fixed texts inside a screen's web views: where a bar's title that the page
    also shows is the page's own."""
    return [const_text(x.text).strip() for v in views(own_root(s))
            if v.cls.endswith("WebView") for x in views(v) if x is not v and
            const_text(x.text).strip()]


_SITE_SEPARATOR = re.compile(r"\s+[|–—·-]\s+")


def without_site(title: str, app: str) -> str:
    """A web page's title without the site's name that heads or ends it ("Legal | Uber"
    -> "Legal", "Uber | Payments" -> "Payments" in the Uber app): a person calls the page
    by what it is about; any other title as it is."""
    parts = _SITE_SEPARATOR.split(title.strip())
    kept = [p for p in parts if p.casefold() != app.strip().casefold()]
    return " ".join(kept) if len(parts) > 1 and len(kept) == 1 else title


def opening_row(spec: AppSpec, screen: str, column: str) -> str:
    """The `column` of the one row whose tap alone opens `screen` (wikipedia's theme
    sheet, opened by tapping Settings' "App theme" row and by nothing else), where it
    can name a place; "" where any row, several rows or anything else opens it. A switch
    there is said to be under that row ("Tap “App theme” and turn off ...")."""
    s = spec.screen(screen)
    table = next((t for t in spec.tables if s is not None and t.name == s.param), None)
    if table is None or column not in (cols := [c.name for c in table.columns]):
        return ""
    ids = set()
    for t in spec.transitions:
        if t.target != screen or t.screen == screen:
            continue
        w = t.when
        if t.with_param != Ref(("item",)) or not (
                isinstance(w, Compare) and w.op == "==" and w.left == Ref(("item", "id"))
                and isinstance(w.right, Const)):
            return ""
        ids.add(w.right.value)
    row = next((r for r in table.rows if len(ids) == 1 and r[0] in ids), None)
    name = row[cols.index(column)] if row is not None else ""
    return name if isinstance(name, str) and is_name(name) else ""


def place_label(spec: AppSpec, screen: str) -> str:
    """What a person calls `screen` as the place that holds a list or a text ("the list on
    Legal", "the “Chats” list"): its label, but one of a button's own words, which say
    what the button does and not what the screen is (uber's “Confirm Destination” opens
    the page of places to pick from: no “Confirm Destination” list); "" for none."""
    label, kind = screen_labels(spec).get(screen, ("", ""))
    return "" if kind == "button" else label


def _a_button_says(s: Screen, title: str) -> bool:
    """Whether a clickable view of the screen's own layer says its title, case aside (a
    page titled by what it asks for: 下载QQ over its 下载QQ button)."""
    want = title.strip().casefold()
    return any("clickable" in v.flags and isinstance(v.text, Const) and
               isinstance(v.text.value, str) and v.text.value.strip().casefold() == want
               for v in views(own_root(s)))


def _whole_page(view: View, spec: AppSpec) -> bool:
    """Whether a widget covers half the display or more: a tap on the page itself (a web
    page's wrapper, tapped while it loads), whose first text ("Loading", a map's "Map")
    is what the page shows, not a control's name for where it leads."""
    b = view.bounds
    return (b[2] - b[0]) * (b[3] - b[1]) >= 0.5 * spec.width * spec.height


def _not_a_place(label: str) -> bool:
    """Whether a button's label says what it does rather than where it goes: a sentence,
    ending with its own mark in any language ("Got it!", "Continue?", "确定！"), or a
    word of `_NOT_A_NAME`."""
    return end_mark(label) in ("!", "?", ".") or bool(_NOT_A_NAME.match(label))


def _is_button(view: View, label: str) -> bool:
    """Whether `label` says what a button does ("START +10 XP", "Add 2 items", uber's
    “Leave Now” drop-down) rather than where it goes (a tab's "Settings", an icon's
    "Search"): a button (by class or id) whose label holds a number, or a text button's
    own words (`Button`, `MaterialButton`: a command, "Confirm Destination", where the
    page it opens is called by nothing; not an `ImageButton`, whose description names
    its icon)."""
    said = f"{view.cls} {view.id or ''} {view.name}".lower()
    kind = view.cls.rsplit(".", 1)[-1]
    return (("button" in said or "btn" in said) and any(ch.isdigit() for ch in label)) or \
        (kind.endswith("Button") and kind != "ImageButton")


def is_name(text: str) -> bool:
    """Whether a text can name a place: it has a letter, is short, does not start with a
    number ("1 selected" is a count), is not cut short ("Settings…"), is no code
    (`is_code`) and nothing shown while loading (`is_transient`: "Loading")."""
    text = text.strip()
    return any(ch.isalpha() for ch in text) and len(text) <= MAX_CHARS and \
        len(text.split()) <= MAX_WORDS and not text[:1].isdigit() and \
        not text.endswith(("…", "...")) and not is_code(text) and not is_transient(text)


_IDENT = r"[A-Za-z_$][A-Za-z0-9_$]*"
_CODE = re.compile(rf"\.{_IDENT}(\.{_IDENT})*|{_IDENT}(\.{_IDENT}){{2,}}|"
                   rf"(@\+?|{_IDENT}(\.{_IDENT})*:)id/{_IDENT}")
"""A class or package name written as code: relative (".TrampolineActivity",
".accounts.CantAddAccountActivity"), full ("com.android.settings.Settings", three dotted
parts or more), or a resource id ("android:id/title", "@+id/save")."""


def is_code(text: object) -> bool:
    """Whether a text is code rather than words: a class, package or resource id as a
    program writes it (activitylauncher's ".TrampolineActivity" and
    "com.android.providers.downloads.ui.TrampolineActivity"). A person reads such a text
    but calls nothing by it. A file name ("plugins/", "simple_print_loop") or a word with
    one dot ("Node.js") is a name."""
    return isinstance(text, str) and bool(_CODE.fullmatch(text.strip()))


_NO_VALUE = frozenset({"n/a", "na", "none", "null", "nil", "unknown", "not set"})


def is_placeholder(text: str) -> bool:
    """Whether a text stands where a value will be, saying none yet (uber's star rating
    "-.--", "--", "N/A"): no letter or digit at all, or a word for none. No answer ("0.0"
    is one: a value that is zero)."""
    t = text.strip()
    return t.lower() in _NO_VALUE or not any(ch.isalnum() for ch in t)


_PROGRESS = re.compile(
    r"(?:^|\s)[A-Za-z]+ing\s*(?:\.{2,}|…)|^\W*(?:loading|fetching|connecting|searching|"
    r"refreshing|syncing|buffering|please wait|加载中|正在加载|載入中|読み込み中|"
    r"cargando|chargement|wird geladen)\W*$", re.I)
"""What an app shows while it works, before the text that will stand there: a verb's
"-ing" form followed by an ellipsis, anywhere in the text (uber's row "Fetching... Your
current location", "Loading…", "Connecting..."), or a text that is only one such word
(uber's button "Loading", there until its ride's price came: "UberX is unavailable").
The recordings cannot tell it by themselves: a recorder that keeps each state once
(DroidBot) kept uber's loading page and its "Fetching..." row as the only recordings of
their rows, and a later text at the same place is as often a scrolled list's next row; so
this one pattern, the only word list of it, names them. An ellipsis after a word of
another kind is a menu entry's ("Sort by...") or a cut text's ("Greek Yog…"); a word that
is also a state kept for days (an order "Processing") is not in the list."""


def is_transient(text: str) -> bool:
    """Whether a text is what the app shows while it loads (`_PROGRESS`): a later recording
    of the same place shows something else, so it names no row and answers nothing."""
    return bool(_PROGRESS.search(text.strip()))


def readable(v: object) -> bool:
    """Whether a value is one a person can read whole, to answer with or to name a row by
    (no text the recording typed, too, for a name: `instances`): a text or a number (not
    a flag, not missing), not empty, not cut short with "…", no placeholder
    (`is_placeholder`), no text shown while loading (`is_transient`) and no code
    (`is_code`: "What is written under “Launch activity as root”?" answered
    "de.szalkowski.activitylauncher.RootLauncherActivity" asks a person to spell out a
    program's name)."""
    if isinstance(v, bool) or not isinstance(v, (str, int, float)):
        return False
    t = str(v).strip()
    return t != "" and not t.endswith(("…", "...")) and \
        not (isinstance(v, str) and (is_placeholder(t) or is_code(t) or is_transient(t)))


def row_name(columns: list[str], row: tuple | list, name: str) -> tuple[str, str]:
    """(column, text) naming a row: its `name` column, or where a row of another layout
    leaves that empty, the first column of the same kind (`title_2` for `title`:
    onelist's "Theme" row), else its first text; ("", "") where it has none."""
    texts = [(c, v) for c, v in zip(columns, row, strict=False) if c not in ("id", "ctx")
             and isinstance(v, str) and v.strip()]
    for pick in (lambda c: c == name, lambda c: c.startswith(f"{name}_"), lambda c: True):
        found = next(((c, v) for c, v in texts if pick(c)), None)
        if found is not None:
            return found
    return "", ""


def is_heading(text: str) -> bool:
    """Whether a text can head another one: a name that is no value ("Version 1.0.3",
    "Starts at: 2023-10-18", an address: no digits, no "@", no "://")."""
    return is_name(text) and not any(ch.isdigit() for ch in text) and \
        "@" not in text and "://" not in text


def title_of(s: Screen | None, spec: AppSpec) -> str:
    """A screen's title: the first fixed label in its top bar (the top tenth, below the
    status bar) that is not an input, with no id, an id that says title (`hub_title`), or
    in the middle of the width; else the first fixed label whose id says it is a title (a dialog's
    `alertTitle`), else a popup's heading (`popup_heading`)."""
    if s is None:
        return ""
    return marked_title(s, spec) or popup_heading(s, spec)


def marked_title(s: Screen, spec: AppSpec) -> str:
    """The title a screen marks as one: in its top bar, or by its id; "" for none. A
    label under a row of buttons is in no top bar (duolingo's “Section 1: Rookie”, a
    section's header below the bar of streak, gems and hearts: a heading of the content,
    not the page's name)."""
    top = spec.height * 0.1
    titled = ""
    own = own_root(s)  # a dialog's own layer: the page under it has its own title
    bar = min((v.bounds[3] for v in views(own) if "clickable" in v.flags and
               v.bounds[1] > spec.height * 0.02 and v.bounds[3] < top), default=top)
    for v in fixed_texts(own):
        text = v.text.value.strip()  # type: ignore[union-attr]
        if "editable" in v.flags or is_picture(v):
            continue
        if spec.height * 0.02 < v.bounds[1] < min(top, bar) and \
                (not v.id or _TITLE_ID.search(v.id) or _BAR_TITLE_ID.search(v.id) or
                 _centred(v, spec)):
            return text
        if not titled and v.id and _TITLE_ID.search(v.id):
            titled = text
    return titled


_PICTURE = re.compile(r"(?:^|\.)Image$")


def is_picture(v: View) -> bool:
    """Whether a view is a web page's picture (`Image`), whose text is its alt text: what
    it shows, not the name of a page or of what tapping it does."""
    return bool(_PICTURE.search(v.cls))


def pictured(v: View, label: str) -> bool:
    """Whether `label`, a view's, is only the alt text of a picture in it (uber's web up
    arrow, `View desc "Arrow left" { Image text "Arrow left" }`): it names the icon, not
    the page the tap opens."""
    return any(is_picture(x) and const_text(x.text).strip() == label for x in views(v))


def picture_names(spec: AppSpec) -> frozenset[str]:
    """The alt texts of the web pictures the app's own screens show (uber's “Clock”,
    “Chevron down small”): the names of icons, which a web control's text may hold."""
    return frozenset(const_text(v.text) for s in spec.screens if not s.foreign
                     for v in views(s.root) if is_picture(v) and const_text(v.text))


@lru_cache(maxsize=64)
def web_row_names(spec: AppSpec) -> dict[str, str]:
    """Text of a web list's row -> that text without the names of the icons it holds (see
    `icon_runs`), for the rows whose text holds some: what a person calls the row (uber's
    "Location marker 50 Oak St San Francisco, California" is the place "50 Oak St San
    Francisco, California" beside a pin)."""
    out: dict[str, str] = {}
    tables = {t.name: t for t in spec.tables}
    for s in spec.screens:
        if s.foreign:
            continue
        for web in views(own_root(s)):
            if not web.cls.endswith("WebView"):
                continue
            for lst in views(web):
                table = tables.get(lst.items.table) if lst.items is not None else None
                if table is None:
                    continue
                columns = [c.name for c in table.columns]
                bound = {x.text.path[1] for x in views(lst) if isinstance(x.text, Ref) and
                         len(x.text.path) == 2 and x.text.path[0] == "item"}
                for c in sorted(bound & set(columns)):
                    texts = [r[columns.index(c)] for r in table.rows]
                    out.update(icon_runs([t for t in texts if isinstance(t, str)]))
    return out


def icon_runs(texts: list[str]) -> dict[str, str]:
    """Texts of one column of a web list -> each without the icon names it holds, for those
    that hold some. A web control's text is everything in it, its icons' names too, and a
    recording that keeps no pictures apart shows them only as words: the last words that
    alone tell texts apart, the same few for several texts, are a state's icon ("… Expand"
    and "… Collapse" on two rows; not "Peak flight hours at SJC" beside "… at OAK"),
    and a run of words that starts several texts, is none of them whole and is followed by
    a capital or a digit in each is an icon beside each ("Location marker Humanoid …",
    "Location marker 50 Oak St …"). A run shared by one text only is left: nothing tells
    it from the text's own words; so is a run that is a text of the column ("English"
    beside "English (Australia)": the rows name themselves)."""
    said = {t: t.split() for t in dict.fromkeys(t.strip() for t in texts) if t}
    tails: dict[str, set[str]] = {}
    for w in said.values():
        if len(w) > 2:
            tails.setdefault(" ".join(w[:-1]), set()).add(w[-1])
    flips = Counter(frozenset(e) for e in tails.values() if len(e) > 1)
    for t, w in said.items():
        if len(w) > 2 and flips[frozenset(tails[" ".join(w[:-1])])] > 1:
            said[t] = w[:-1]
    whole = {" ".join(w) for w in said.values()}
    groups: dict[str, list[str]] = {}
    for t, w in said.items():
        groups.setdefault(w[0], []).append(t)
    for _, members in sorted(groups.items()):
        if len(members) < 2:
            continue
        run = said[members[0]]
        for t in members[1:]:
            n = 0
            while n < min(len(run), len(said[t])) and run[n] == said[t][n]:
                n += 1
            run = run[:n]
        n = len(run)
        if " ".join(run) in whole or not all(x.isalpha() for x in run) or any(
                len(said[t]) <= n + 1 or not (said[t][n][:1].isupper() or
                                              said[t][n][:1].isdigit()) for t in members):
            continue
        for t in members:
            said[t] = said[t][n:]
    return {t: " ".join(w) for t, w in said.items() if w != t.split()}


def unglued(view: View, label: str, pictures: frozenset[str] = frozenset()) -> str:
    """`label` without the names of icons glued to its ends: a web control's text is
    made of what it holds, its pictures' alt texts too (uber's “Leave Now” button reads
    "Clock Leave Now Chevron down small"; a link with an arrow in it, "Return to Legal
    Hub Arrow right Arrow right"). A name is taken off where a picture in the view has it,
    or, for a web button recorded with nothing in it (the page's pictures folded into its
    text), where the app shows a picture of that name (`pictures`); never the whole label,
    and never off a plain text ("Add Payment Method" beside its “Payment Method” icon)."""
    if not view.children and not pictures:
        return label
    names = {const_text(x.text) for x in views(view) if x is not view and is_picture(x)}
    if not view.children and view.cls.rsplit(".", 1)[-1] == "Button":
        names |= pictures
    names.discard("")
    words = label.split()
    cut = True
    while cut:
        cut = False
        for name in sorted(names, key=lambda n: (-len(n.split()), n)):
            n = name.split()
            if len(words) > len(n) and (words[:len(n)] == n or words[-len(n):] == n):
                words = words[len(n):] if words[:len(n)] == n else words[:-len(n)]
                cut = True
                break
    return " ".join(words) if words != label.split() else label


def _centred(v: View, spec: AppSpec) -> bool:
    """Whether a label sits in the middle of the width, as a top bar's title does (qqmusic's
    “专辑”), a short one that is no button."""
    middle = (v.bounds[0] + v.bounds[2]) / 2
    return abs(middle - spec.width / 2) <= spec.width * 0.03 and \
        v.bounds[2] - v.bounds[0] < spec.width / 2 and "clickable" not in v.flags


def row_title(s: Screen, spec: AppSpec) -> str:
    """The title a detail screen shows for the row it was recorded with: its top-bar
    label bound to a column of its parameter row (`text param.title`), read from that row
    (the shopping favourites page, opened from the account row “Favourites”); "" where it
    has none, the row is not in the tables, or its text is no name."""
    table = next((t for t in spec.tables if t.name == s.param), None)
    if table is None or s.opened is None:
        return ""
    row = next((r for r in table.rows if r and r[0] == s.opened), None)
    columns = [c.name for c in table.columns]
    for v in views(s.root):
        ref = v.text
        if row is not None and isinstance(ref, Ref) and len(ref.path) == 2 and \
                ref.path[0] == "param" and ref.path[1] in columns and \
                spec.height * 0.02 < v.bounds[1] < spec.height * 0.1:
            text = row[columns.index(ref.path[1])]
            return text.strip() if isinstance(text, str) and is_name(text.strip()) else ""
    return ""


def popup_heading(s: Screen, spec: AppSpec) -> str:
    """The heading of a popup (a view smaller than the display) that marks none as its
    title: its first fixed text, at the popup's top (its top fifth), no field and no
    button, with more such text under it (qqmusic's “下载微信” over “您尚未安装微信…”)."""
    own = own_root(s)  # a sheet's own layer; its window is where its content shows
    b = s.window or own.bounds
    if (b[2] - b[0]) * (b[3] - b[1]) >= 0.8 * spec.width * spec.height:
        return ""
    said = [v for v in fixed_texts(own) if "editable" not in v.flags and
            "clickable" not in v.flags and "button" not in f"{v.cls} {v.id or ''}".lower()]
    if len(said) < 2 or said[0] is not fixed_texts(own)[0]:
        return ""
    head = said[0]
    if s.layer and not _HEAD_ID.search(head.id or ""):
        return ""  # a sheet in its page's window: a label with no such id heads a section
    if head.bounds[1] > b[1] + (b[3] - b[1]) // 5 or \
            not any(v.bounds[1] >= head.bounds[3] for v in said[1:]):
        return ""
    return const_text(head.text)


def label_of(view: View, *, into_lists: bool = False) -> str:
    """What a person would call a widget: its text, its description, or the first
    literal text among its descendants (in order; inside lists only with `into_lists`);
    "" where it shows none."""
    said = const_text(view.text) or _switch_text(view.text) or const_text(view.desc)
    if said:
        return unglued(view, said)
    stack = list(reversed(view.children))
    while stack:
        child = stack.pop()
        if child.items is None or into_lists:
            if const_text(child.text):
                return const_text(child.text)
            stack.extend(reversed(child.children))
    return ""


def _switch_text(e: object) -> str:
    """A switch's text that says its state (`choose(flag, "Dimming ON", "Dimming OFF")`)
    as it reads when on: what names the switch (its state words are taken off later)."""
    if isinstance(e, Call) and e.func == "choose" and len(e.args) == 3 and \
            isinstance(e.args[0], Ref) and len(e.args[0].path) == 1:
        return const_text(e.args[1])
    return ""


def const_text(e: object) -> str:
    """A literal text, stripped; "" for a binding or none."""
    return e.value.strip() if isinstance(e, Const) and isinstance(e.value, str) else ""


def fixed_texts(root: View) -> list[View]:
    """The views outside lists with a literal, non-blank text, in tree order."""
    out, stack = [], [root]
    while stack:
        v = stack.pop()
        if v.items is not None:
            continue
        if const_text(v.text):
            out.append(v)
        stack.extend(reversed(v.children))
    return out


def views_by_name(spec: AppSpec) -> dict[tuple[str, str], View]:
    """(screen, widget name) -> its view (outside lists and inside them)."""
    out: dict[tuple[str, str], View] = {}
    for s in spec.screens:
        stack = [s.root]
        while stack:
            v = stack.pop()
            if v.name:
                out.setdefault((s.name, v.name), v)
            stack.extend(v.children)
    return out
