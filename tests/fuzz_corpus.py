"""A corpus of malformed and hostile inputs, generated deterministically (seed 24).

    trace_cases()    ~800 trace folders/dumps: every manifest field of the wrong type,
                     JSON values swapped in DroidBot/LlamaTouch/Rico files, XML cut,
                     flipped and nested past the limits, links, FIFOs, loops
    spec_cases()     ~250 `.pw` texts: cut, flipped, unpaired surrogates, deep views
    request_cases()  ~250 HTTP requests to a served app: odd actions, bodies, headers
    argv_cases()     ~40 command lines with odd numbers and paths

`tests/test_fuzz.py` runs them all: no traceback, no partial output, no hang. A case is
a name (stable, for failure messages) and a function that writes its input under a
folder and returns the path to give the command.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.hostile import deep_view_list, deep_xml, droidbot_trace, native_trace, node, wide_xml

DATA = Path(__file__).resolve().parent / "data"
SEED = 24

VALUES: tuple[object, ...] = (
    None, True, False, 0, -1, 1.5, 10**30, -(10**30), "", "x", "\ud800", "a\x00b", "\ufffe",
    "../../etc/passwd", "x" * 100_001, [], {}, [[]], [1, 2], {"a": {}}, [None] * 3,
)
"""What a field is swapped for: every JSON type, the edges of numbers and of text."""

Json = dict | list


@dataclass(frozen=True)
class Case:
    name: str
    make: Callable[[Path], Path]


# -- JSON documents ------------------------------------------------------------------------

def json_paths(doc: object) -> list[tuple]:
    """Every path into `doc` (keys and list indices), root excluded, in document order."""
    out: list[tuple] = []
    stack: list[tuple[tuple, object]] = [((), doc)]
    while stack:
        path, value = stack.pop()
        if path:
            out.append(path)
        items = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        stack.extend(reversed([(path + (k,), v) for k, v in items]))
    return out


def swapped(doc: Json, path: tuple, value: object, *, delete: bool = False) -> Json:
    new = copy.deepcopy(doc)
    parent = new
    for k in path[:-1]:
        parent = parent[k]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return new


def _dump(doc: object) -> str:
    return json.dumps(doc)  # ensure_ascii: an unpaired surrogate as its \ud800 escape


def _copy_tree(src: Path, dst: Path) -> None:
    import shutil

    shutil.copytree(src, dst, symlinks=True)


def _json_case(name: str, base: Path, rel: str, path: tuple, value: object,
               delete: bool = False, prefix: str = "var utg = ") -> Case:
    def make(tmp: Path) -> Path:
        folder = tmp / base.name
        _copy_tree(base, folder)
        file = folder / rel
        doc = _load(file, prefix)
        lead = prefix if rel == "utg.js" else ""
        file.write_text(lead + _dump(swapped(doc, path, value, delete=delete)))
        return tmp
    return Case(name, make)


def _load(file: Path, prefix: str) -> Json:
    text = file.read_text(encoding="utf-8")
    if file.name == "utg.js":
        text = re.sub(r"^\s*var\s+\w+\s*=\s*", "", text).strip().rstrip(";")
    return json.loads(text)


def _swaps(family: str, base: Path, rel: str, rng: random.Random, limit: int | None,
           prefix: str = "var utg = ") -> list[Case]:
    try:
        doc = _load(base / rel, prefix)
    except ValueError:  # an empty event file, say: damaged already
        return []
    pairs = [(p, i) for p in json_paths(doc) for i in range(len(VALUES) + 1)]
    if limit is not None and len(pairs) > limit:
        pairs = sorted(rng.sample(pairs, limit))
    cases = []
    for p, i in pairs:
        where = ".".join(map(str, p))
        if i == len(VALUES):
            cases.append(_json_case(f"{family}:{rel}:{where}:deleted", base, rel, p, None,
                                    delete=True))
        else:
            cases.append(_json_case(f"{family}:{rel}:{where}:{i}", base, rel, p, VALUES[i]))
    return cases


# -- trace cases ---------------------------------------------------------------------------

def _native_manifest_cases() -> list[Case]:
    return _swaps("native", DATA / "phoneworld" / "tiny", "trace.json", random.Random(SEED),
                  None)


def _reader_json_cases(rng: random.Random) -> list[Case]:
    cases: list[Case] = []
    droidbot = DATA / "droidbot" / "quirks"
    for rel in sorted(p.relative_to(droidbot).as_posix() for p in droidbot.rglob("*.js*")):
        cases += _swaps("droidbot", droidbot, rel, rng, 12)
    llama = DATA / "llamatouch" / "quirks"
    for rel in ("0.vh", "1.vh", "2.vh"):
        cases += _swaps("llamatouch", llama, rel, rng, 30)
    rico = DATA / "rico" / "gappy"
    for rel in sorted(p.relative_to(rico).as_posix() for p in rico.rglob("*.json")):
        cases += _swaps("rico", rico, rel, rng, 40)
    return cases


_EVENT_LINES = [
    "", "[", "[Click]", "[Click] Screen Resolution (0, 0), Click Position (1, 1)",
    "[Click] Screen Resolution (320, 720), Click Position (-5, 99999999999)",
    "[Swipe] Screen Resolution (320, 720), Start Position (1, 1)", "[Input] \x00\ufffe",
    "[Long Click] Screen Resolution (320, 720), Click Position (1e3, 2)", "【点击事件】",
    "[Back]" * 1000, "[Drag] (1,1)(2,2)(3,3)", "[Home] trailing", "\udcff",
]


def _llamatouch_text_cases() -> list[Case]:
    base = DATA / "llamatouch" / "quirks"
    cases = []
    for i, line in enumerate(_EVENT_LINES):
        def make(tmp: Path, line: str = line) -> Path:
            _copy_tree(base, tmp / "t")
            (tmp / "t" / "eventStructs.txt").write_text(line + "\n[Back]\n", "utf-8",
                                                        errors="surrogateescape")
            return tmp / "t"
        cases.append(Case(f"llamatouch:eventStructs:{i}", make))
    for i, raw in enumerate([b"", b"\xff\xfe", b"null", b"com.x/" + b"A" * 200_000,
                             b"\x00" * 10]):
        for target in ("0.activity", "instruction.txt"):
            def make(tmp: Path, raw: bytes = raw, target: str = target) -> Path:
                _copy_tree(base, tmp / "t")
                (tmp / "t" / target).write_bytes(raw)
                return tmp / "t"
            cases.append(Case(f"llamatouch:{target}:{i}", make))
    return cases


def _write(file: Path, data: bytes) -> Path:
    file.write_bytes(data)
    return file


def _xml_cases(rng: random.Random) -> list[Case]:
    small = (DATA / "uiautomator" / "small.xml").read_bytes()
    blobs: list[tuple[str, bytes]] = []
    for k in range(40):
        blobs.append((f"cut{k}", small[:rng.randrange(len(small))]))
    for k in range(40):
        buf = bytearray(small)
        for _ in range(rng.randint(1, 6)):
            buf[rng.randrange(len(buf))] = rng.randrange(256)
        blobs.append((f"flip{k}", bytes(buf)))
    head = b"<?xml version='1.0' encoding='UTF-8'?>"
    laughs = (b'<!DOCTYPE h [<!ENTITY a "aaaaaaaaaa">' + b"".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'.encode()
        for i in range(9)) + b"]>")
    view = node(text="&j;", close=True).replace('"&amp;j;"', '"&j;"').encode()
    blobs += [
        ("billion-laughs", head + laughs + b"<hierarchy>" + view + b"</hierarchy>"),
        ("external-entity", head + b'<!DOCTYPE h [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
         b"<hierarchy>" + node(text="&x;").replace('"&amp;x;"', '"&x;"').encode()
         + b"</hierarchy>"),
        ("utf16-lie", b"<?xml version='1.0' encoding='UTF-16'?>" + small[small.index(b"?>")
                                                                         + 2:]),
        ("unknown-encoding", b"<?xml version='1.0' encoding='x-none'?><hierarchy/>"),
        ("bom", b"\xef\xbb\xbf" + small), ("nul", small.replace(b">", b">\x00", 1)),
        ("char-ref-nul", b"<hierarchy>" + node(text="&#0;").replace("&amp;#0;", "&#0;")
         .encode() + b"</hierarchy>"),
        ("char-ref-surrogate", b"<hierarchy>" + node(text="&#xD800;").replace(
            "&amp;#xD800;", "&#xD800;").encode() + b"</hierarchy>"),
        ("bounds-words", b"<hierarchy>" + node(bounds="[a,b][c,d]").encode() + b"</hierarchy>"),
        ("bounds-short", b"<hierarchy>" + node(bounds="[1,2][3]").encode() + b"</hierarchy>"),
        ("bounds-huge", b"<hierarchy>" + node(bounds="[99999999999999999999,0][1,1]").encode()
         + b"</hierarchy>"),
        ("bounds-inverted", b"<hierarchy>" + node(bounds="[900,900][0,0]").encode()
         + b"</hierarchy>"),
        ("no-bounds", b"<hierarchy><node text='x'/></hierarchy>"),
        ("empty", b""), ("blank", b"   \n"), ("not-xml", b"hello"), ("json", b"{}"),
        ("html", b"<html><body>x</body></html>"),
        ("hierarchy-only", b"<hierarchy rotation='1'/>"),
        ("many-windows", b"<hierarchy>" + node().encode() * 50 + b"</hierarchy>"),
    ]
    for depth in (2, 127, 128, 129, 300, 1000, 100_000):
        blobs.append((f"deep{depth}", deep_xml(depth)))
    blobs.append(("wide5001", wide_xml(5001, same_id=False)))
    blobs.append(("text-long", b"<hierarchy>" + node(text="x" * 100_001).encode()
                  + b"</hierarchy>"))
    cases = [Case("xml-dump:wide5000", lambda tmp: _write(tmp / "dump.xml", wide_xml(
        5000, same_id=False)))]  # at the limit: compiled, loaded and run (seconds), once
    for label, data in blobs:
        def dump(tmp: Path, data: bytes = data) -> Path:
            (tmp / "dump.xml").write_bytes(data)
            return tmp / "dump.xml"

        def trace(tmp: Path, data: bytes = data) -> Path:
            t = native_trace(tmp / "t" / "app", deep_xml(2))
            (t / "001.xml").write_bytes(data)
            return tmp / "t"
        cases += [Case(f"xml-dump:{label}", dump), Case(f"xml-in-trace:{label}", trace)]
    return cases


def _tree_cases() -> list[Case]:
    cases = []
    for depth in (127, 128, 129, 600):
        cases.append(Case(f"droidbot-deep:{depth}",
                          lambda tmp, d=depth: droidbot_trace(tmp / "run", deep_view_list(d))))
    cycle = deep_view_list(4)
    cycle[0]["parent"] = 3
    cycle[3]["children"] = [0]
    cases.append(Case("droidbot-cycle", lambda tmp: droidbot_trace(tmp / "run", cycle)))
    dangling = deep_view_list(3)
    dangling[1]["children"] = [7, -1, "x", None, 1]
    cases.append(Case("droidbot-dangling", lambda tmp: droidbot_trace(tmp / "run", dangling)))

    def rico_deep(tmp: Path, depth: int) -> Path:
        _copy_tree(DATA / "rico" / "gappy", tmp / "r")
        view = '{"class": "V", "bounds": [0, 0, 10, 10], "children": ['  # built as text:
        root = view * depth + "{}" + "]}" * depth  # json.dumps would recurse too deeply
        (tmp / "r" / "view_hierarchies" / "1.json").write_text(
            '{"activity_name": "a/b", "activity": {"root": ' + root + "}}")
        return tmp / "r"
    for depth in (127, 128, 200, 900):
        cases.append(Case(f"rico-deep:{depth}", lambda tmp, d=depth: rico_deep(tmp, d)))
    return cases


def _filesystem_cases() -> list[Case]:
    def link_out(tmp: Path) -> Path:
        (tmp / "secret.xml").write_bytes(deep_xml(2))
        t = native_trace(tmp / "in" / "app", deep_xml(2))
        (t / "001.xml").unlink()
        (t / "001.xml").symlink_to(tmp / "secret.xml")
        return tmp / "in"

    def fifo(tmp: Path) -> Path:
        t = native_trace(tmp / "in" / "app", deep_xml(2))
        (t / "001.xml").unlink()
        os.mkfifo(t / "001.xml")
        return tmp / "in"

    def dev_zero(tmp: Path) -> Path:
        t = native_trace(tmp / "in" / "app", deep_xml(2))
        (t / "001.xml").unlink()
        (t / "001.xml").symlink_to("/dev/zero")
        return tmp / "in"

    def manifest_fifo(tmp: Path) -> Path:
        t = native_trace(tmp / "in" / "app", deep_xml(2))
        (t / "trace.json").unlink()
        os.mkfifo(t / "trace.json")
        return tmp / "in"

    def self_links(tmp: Path) -> Path:
        native_trace(tmp / "in" / "app", deep_xml(2))
        for name in ("a", "b"):
            (tmp / "in" / name).symlink_to(tmp / "in")
        return tmp / "in"

    def link_loop(tmp: Path) -> Path:
        native_trace(tmp / "in" / "app", deep_xml(2))
        (tmp / "in" / "x").symlink_to(tmp / "in" / "y")
        (tmp / "in" / "y").symlink_to(tmp / "in" / "x")
        return tmp / "in"

    def dir_as_file(tmp: Path) -> Path:
        t = native_trace(tmp / "in" / "app", deep_xml(2))
        (t / "001.xml").unlink()
        (t / "001.xml").mkdir()
        return tmp / "in"

    def folder_link_out(tmp: Path) -> Path:
        native_trace(tmp / "elsewhere" / "app", deep_xml(2))
        native_trace(tmp / "in" / "own", deep_xml(3))
        (tmp / "in" / "linked").symlink_to(tmp / "elsewhere")
        return tmp / "in"

    def dumps_fifo(tmp: Path) -> Path:
        (tmp / "d").mkdir()
        (tmp / "d" / "0.xml").write_bytes(deep_xml(2))
        os.mkfifo(tmp / "d" / "1.xml")
        (tmp / "d" / "2.xml").symlink_to("/dev/zero")
        (tmp / "d" / "3.xml").symlink_to(tmp / "d" / "0.xml")
        return tmp / "d"

    def droidbot_links(tmp: Path) -> Path:
        run = droidbot_trace(tmp / "run", deep_view_list(3))
        for f in sorted((run / "events").iterdir()):
            f.unlink()
            os.mkfifo(f)
        (run / "states" / "state_zz.json").symlink_to("/etc/hostname")
        return run

    def manifest_names_folder(tmp: Path) -> Path:
        t = native_trace(tmp / "in" / "app", deep_xml(2))
        doc = json.loads((t / "trace.json").read_text())
        doc["steps"][1]["observation"] = "."
        (t / "trace.json").write_text(json.dumps(doc))
        return tmp / "in"

    makers = [link_out, fifo, dev_zero, manifest_fifo, self_links, link_loop, dir_as_file,
              folder_link_out, dumps_fifo, droidbot_links, manifest_names_folder]
    return [Case(f"fs:{m.__name__}", m) for m in makers]


def trace_cases() -> list[Case]:
    rng = random.Random(SEED)
    return (_native_manifest_cases() + _reader_json_cases(rng) + _llamatouch_text_cases()
            + _xml_cases(rng) + _tree_cases() + _filesystem_cases())


# -- spec cases ----------------------------------------------------------------------------

def base_spec() -> str:
    """The language-covering test spec without its tasks (planning them is slow)."""
    text = (DATA / "specs" / "shop.pw").read_text(encoding="utf-8")
    return re.sub(r"(?ms)^task .*?^}\n?", "", text)


def _nested_spec(depth: int) -> str:
    views = "view View [0,0,1,1] {\n" * (depth - 1) + "view View [0,0,1,1]\n" + \
        "}\n" * (depth - 1)
    return f'app a {{ package "p" start s }}\nscreen s P0 {{\n{views}}}\n'


def spec_cases() -> list[Case]:
    rng = random.Random(SEED + 1)
    base = base_spec()
    texts: list[tuple[str, str]] = []
    for k in range(40):
        texts.append((f"cut{k}", base[:rng.randrange(len(base))]))
    for k in range(60):
        chars = list(base)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice(
                '{}()[]"\\`#,;:=<>!-+*/0189aZ_ \n\t\x00é中')
        texts.append((f"flip{k}", "".join(chars)))
    strings = [m.span() for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"', base)]
    numbers = [m.span() for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", base)]
    names = [m.span() for m in re.finditer(r"\b[a-z_][a-z0-9_]*\b", base)]
    for k, (a, b) in enumerate(rng.sample(strings, min(40, len(strings)))):
        lit = rng.choice([r'"\ud800"', r'"x\udfffy"', r'"\u0000"', r'"\ufffe"', '"' + "x" *
                          200_000 + '"', r'"\"', '"\n"', r'"\u12"', '"{{ 7*7 }}"'])
        texts.append((f"string{k}", base[:a] + lit + base[b:]))
    for k, (a, b) in enumerate(rng.sample(numbers, min(30, len(numbers)))):
        num = rng.choice(["99999999999999999999999999", "-1", "1e999", "0x10", "1" * 5000,
                          "-0", "00"])
        texts.append((f"number{k}", base[:a] + num + base[b:]))
    for k, (a, b) in enumerate(rng.sample(names, min(40, len(names)))):
        word = rng.choice(["screen", "app", "true", "x" * 300, "item", "back", "P9", "",
                           "Émile", "`", "null"])
        texts.append((f"name{k}", base[:a] + word + base[b:]))
    for depth in (2, 128, 129, 130, 300, 2000):
        texts.append((f"deep{depth}", _nested_spec(depth)))
    texts += [("empty", ""), ("bom", "\ufeff" + base), ("nul", base.replace("\n", "\x00", 3)),
              ("crlf", base.replace("\n", "\r\n")), ("expr-deep", base.replace(
                  "where in_stock == true", "where " + "(" * 400 + "true" + ")" * 400)),
              ("bad-utf8", "\udcff" + base)]
    cases = []
    for label, text in texts:
        def make(tmp: Path, text: str = text) -> Path:
            (tmp / "s.pw").write_bytes(text.encode("utf-8", errors="surrogateescape"))
            return tmp / "s.pw"
        cases.append(Case(f"spec:{label}", make))
    return cases


# -- requests and command lines ------------------------------------------------------------

@dataclass(frozen=True)
class Request:
    name: str
    method: str
    path: str
    body: bytes | None = None
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)


_ACTION_TYPES = ["click", "long_press", "input_text", "keyboard_enter", "scroll", "swipe",
                 "navigate_back", "navigate_home", "open_app", "wait", "answer", "status",
                 "unknown", "double_tap", "teleport", "", None, 5]
_FIELDS = ["index", "x", "y", "text", "direction", "goal_status", "app_name", "keycode",
           "clear_text", "action_type", "extra"]


def request_cases() -> Iterator[Request]:
    """Requests against a session `{sid}` of a served app (the runner fills it in)."""
    rng = random.Random(SEED + 2)
    step = "/api/sessions/{sid}/step"
    for k in range(160):
        action: dict = {"action_type": rng.choice(_ACTION_TYPES)}
        for f in rng.sample(_FIELDS, rng.randint(0, 4)):
            action[f] = rng.choice(VALUES + (3, 540, 1200, "up", "KEYCODE_ENTER", "\x1b[2J",
                                             "x" * 10_001))
        yield Request(f"action{k}", "POST", step, _dump(action).encode())
    bodies = [b"", b"{", b"[]", b"null", b"1", b'"x"', b"[" * 50_000, b"{}" * 10,
              b'{"action_type": "wait"}' + b" " * 300_000, b"\xff\xfe", b'{"a":' * 1000,
              b'{"action_type": "\\ud800"}', b'{"action_type": "input_text", "text": '
              b'"\\ud800", "index": 0}']
    for k, body in enumerate(bodies):
        for path in (step, "/api/sessions", "/api/sessions/{sid}/reset", "/session"):
            yield Request(f"body{k}:{path}", "POST", path, body)
    for k, headers in enumerate([(), (("Content-Type", "text/plain"),),
                                 (("Content-Type", "application/json"),
                                  ("Origin", "http://evil.example")),
                                 (("Content-Type", "application/json"),
                                  ("Sec-Fetch-Site", "cross-site")),
                                 (("Content-Type", "application/x-www-form-urlencoded"),)]):
        for path in (step, "/api/sessions", "/session"):
            yield Request(f"headers{k}:{path}", "POST", path, b'{"action_type": "wait"}',
                          headers)
    for k, path in enumerate(["/api/sessions/{sid}/observation?format=pdf",
                              "/api/sessions/{sid}/observation?format=xml&x=1",
                              "/api/sessions/nope/observation", "/api/sessions/../../x",
                              "/api/tasks?n=-5", "/api/tasks?n=x", "/api/tasks?n=10000000",
                              "/graph?app=%00", "/graph.svg?session=%ff", "/?session=x" * 50,
                              "/?app=%ED%A0%80", "/api/sessions/{sid}/screenshot?scale=9",
                              "/api/sessions/{sid}/check", "/api/openapi.json"]):
        yield Request(f"get{k}", "GET", path, None, ())
    for k, method in enumerate(["PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]):
        yield Request(f"method{k}", method, "/api/sessions/{sid}", b"{}")


def argv_cases(tmp: Path) -> list[list[str]]:
    """Command lines that must each end with a message and an exit code, not a traceback."""
    gen = str(DATA.parent.parent / "generated")
    missing, file = str(tmp / "missing"), str(tmp / "file.txt")
    Path(file).write_text("x")
    out = []
    shop = str(Path(gen) / "shopping")  # one app: the odd numbers are the point, and
    # drawing every example app's cross-app tasks takes 20 s or more on a loaded machine
    for n in ("-5", "x", "1e3", "99999999999999999999", "", "0x10"):
        out += [["tasks", shop, "--n", n], ["tasks", shop, "--seed", n]]
    for n in ("-5", "x", "0", "", "1e3"):  # none valid: a valid one would look for a phone
        out.append(["record", "-o", str(tmp / "r"), "--max-steps", n])
    out += [["record", "-o", str(tmp / "r"), "--timeout", t] for t in ("nan", "-1", "inf", "")]
    for cmd in (["inspect"], ["check"], ["replay", gen], ["tasks"], ["serve"]):
        out += [cmd + [missing], cmd + [file], cmd + [str(tmp)]]
    loop = tmp / "loop"
    loop.symlink_to(loop)
    fifo = tmp / "fifo.pw"
    os.mkfifo(fifo)
    out += [["check", str(fifo)], ["build", str(fifo), "-o", str(tmp / "f")],
            ["check", "/dev/zero"], ["inspect", str(fifo)], ["inspect", "/dev/zero"]]
    tiny, spec = str(DATA / "phoneworld" / "tiny"), str(DATA / "specs" / "shop.pw")
    for target in (str(loop), str(loop / "x"), file):  # each refused: nothing written
        out += [["compile", tiny, "-o", target], ["build", spec, "-o", target]]
    out += [["compile", tiny, "-o", tiny], ["compile", tiny, "-o", str(Path(tiny) / "o")],
            ["build", spec, "-o", str(DATA / "specs")], ["build", spec, "-o", tiny]]
    out += [["compile", missing, "-o", str(tmp / "o")], ["compile", file, "-o", str(tmp / "o")],
            ["build", missing, "-o", str(tmp / "o")], ["build", file, "-o", str(tmp / "o")],
            ["serve", gen, "--port", "-3"], ["serve", gen, "--threads", "0"],
            ["nonsense"], ["--nonsense"], ["compile"], ["tasks", gen, "--json", "--n", "-1"]]
    return out
