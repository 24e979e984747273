"""The pages for a person: the phone (`/`) and the screen graph (`/graph`).

The phone page is a fixed template; the screen itself is the runtime's HTML page, shown
in an `<iframe srcdoc>` that is sandboxed without scripts, under a transparent layer
that turns taps, long presses, swipes and the mouse wheel into AndroidWorld actions in
the app's own pixels, sent to the same JSON API an agent uses. Trace text reaches the
page only as data: autoescaped in templates, `tojson` for the page's settings, and
`textContent` in the script. The script carries a per-response nonce (see `CSP`).
"""

from __future__ import annotations

from typing import Any

from jinja2 import Environment

FRAME_WIDTH = 412
"""The phone frame's width in CSS pixels (its height keeps the app's proportions)."""


def frame_size(width: int, height: int) -> tuple[int, int]:
    """The frame for an app's screen size: 412 CSS px wide, e.g. 1080x2400 -> 412x915."""
    return FRAME_WIDTH, max(1, FRAME_WIDTH * height // max(1, width))


def csp(nonce: str | None = None) -> str:
    """The Content-Security-Policy for our pages: nothing from elsewhere, only our script."""
    script = f"'nonce-{nonce}'" if nonce else "'none'"
    return (f"default-src 'none'; script-src {script}; style-src 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; frame-src 'self'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'self'")


_PHONE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>phoneworld \u2014 {{ title }}</title>
<style>
body { margin: 0; font-family: Roboto, "Noto Sans", sans-serif; background: #f1f3f4;
       color: #202124; display: flex; gap: 28px; padding: 20px; align-items: flex-start; }
.device { background: #202124; border-radius: 36px; padding: 14px; flex: none;
          box-shadow: 0 6px 24px rgba(0,0,0,.25); }
.screen { position: relative; overflow: hidden; border-radius: 22px; background: #fff;
          width: {{ fw }}px; height: {{ fh }}px; }
.screen iframe { border: 0; width: {{ fw }}px; height: {{ fh }}px; pointer-events: none;
                 display: block; }
#touch { position: absolute; inset: 0; cursor: pointer; touch-action: none; }
.nav { display: flex; justify-content: space-around; padding: 10px 0 0; }
.nav button { background: none; border: 0; color: #e8eaed; font-size: 20px; width: 64px;
              height: 36px; cursor: pointer; border-radius: 18px; }
.nav button:hover { background: rgba(255,255,255,.12); }
.side { max-width: 560px; min-width: 280px; }
.side h1 { font-size: 20px; margin: 0 0 12px; }
.row { display: flex; gap: 8px; margin: 10px 0; flex-wrap: wrap; }
input[type=text] { flex: 1; min-width: 160px; padding: 6px 8px; font-size: 15px; }
button.act { padding: 6px 12px; font-size: 14px; cursor: pointer; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; font-size: 14px; }
dt { color: #5f6368; } dd { margin: 0; word-break: break-all; }
#error { color: #c5221f; min-height: 1.2em; font-size: 14px; }
details img { max-width: 100%; background: #fff; border: 1px solid #dadce0; }
a { color: #1a73e8; }
</style></head>
<body>
<div class="device">
 <div class="screen" id="screen">
  <iframe id="view" title="phone screen" sandbox="allow-same-origin" scrolling="no"></iframe>
  <div id="touch" role="application" aria-label="phone screen: tap, hold, swipe, scroll"></div>
 </div>
 <div class="nav">
  <button id="back" title="Back" aria-label="Back">\u25c1</button>
  <button id="home" title="Home" aria-label="Home">\u25cb</button>
  <button id="wait" title="Wait: a splash or an ad gives way" aria-label="Wait">\u23f3</button>
  <button id="reset" title="Reset the session" aria-label="Reset">\u21bb</button>
 </div>
</div>
<div class="side">
 <h1>{{ title }}</h1>
 <dl>
  <dt>app</dt><dd id="app"></dd>
  <dt>package</dt><dd id="package"></dd>
  <dt>screen</dt><dd id="screenname"></dd>
  <dt>last action</dt><dd id="event"></dd>
  <dt>steps</dt><dd id="steps"></dd>
  <dt>session</dt><dd id="sid">{{ session or "" }}</dd>
 </dl>
 <div class="row">
  <input type="text" id="text" placeholder="Type into the focused field"
         aria-label="text to type">
  <button class="act" id="type">Type</button>
  <button class="act" id="enter">Enter</button>
 </div>
 <div id="error" role="alert"></div>
 <p><a id="graphlink" href="{{ graph_url }}" target="_blank" rel="noopener">Screen graph</a>
  \u00b7 <a id="shot" href="{{ api }}/screenshot" target="_blank" rel="noopener">Screenshot</a>
  \u00b7 <a href="/api/openapi.json">API</a></p>
 <details id="graph"><summary>Screen graph here</summary><img id="graphimg" alt="screen graph">
 </details>
</div>
<script type="application/json" id="cfg">{{ cfg|tojson }}</script>
<script nonce="{{ nonce }}">
"use strict";
const cfg = JSON.parse(document.getElementById("cfg").textContent);
const $ = (id) => document.getElementById(id);
let busy = false;

async function call(method, path, body) {
  const init = {method, headers: {"Accept": "application/json"}};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const r = await fetch(cfg.api + path, init);
  const data = await r.json().catch(() => ({error: "HTTP " + r.status}));
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

let shown = null;
function show(obs) {
  if (obs.html !== shown) { $("view").srcdoc = obs.html; shown = obs.html; }
  $("app").textContent = obs.app;
  $("package").textContent = obs.package;
  $("screenname").textContent = obs.screen;
  $("event").textContent = obs.event;
  $("steps").textContent = String(obs.step);
  document.body.dataset.screen = obs.screen;
  document.body.dataset.step = String(obs.step);
  if ($("graph").open) refreshGraph();
}

function refreshGraph() {
  $("graphimg").src = cfg.graph_svg + "&t=" + Date.now();
}

async function run(method, path, body) {
  if (busy) return;
  busy = true;
  try { show(await call(method, path, body)); $("error").textContent = ""; }
  catch (e) { $("error").textContent = e.message; }
  finally { busy = false; }
}

const act = (action) => run("POST", "/step?format=html", action);

function appPoint(ev) {
  const box = $("touch").getBoundingClientRect();
  const clamp = (v, hi) => Math.max(0, Math.min(hi - 1, Math.round(v)));
  return {x: clamp((ev.clientX - box.left) * cfg.width / box.width, cfg.width),
          y: clamp((ev.clientY - box.top) * cfg.height / box.height, cfg.height)};
}

let down = null, timer = null, held = false;
$("touch").addEventListener("pointerdown", (ev) => {
  down = {ev: appPoint(ev), cx: ev.clientX, cy: ev.clientY};
  held = false;
  timer = setTimeout(() => {
    held = true;
    act({action_type: "long_press", x: down.ev.x, y: down.ev.y});
  }, 600);
});
$("touch").addEventListener("pointerup", (ev) => {
  clearTimeout(timer);
  if (!down || held) { down = null; return; }
  const dx = ev.clientX - down.cx, dy = ev.clientY - down.cy;
  const p = down.ev;
  down = null;
  if (Math.hypot(dx, dy) < 16) { act({action_type: "click", x: p.x, y: p.y}); return; }
  const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left")
                                                : (dy > 0 ? "down" : "up");
  act({action_type: "swipe", direction, x: p.x, y: p.y});
});
$("touch").addEventListener("pointerleave", () => { clearTimeout(timer); down = null; });
let lastWheel = 0;
$("touch").addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const now = Date.now();
  if (now - lastWheel < 250) return;
  lastWheel = now;
  const p = appPoint(ev);
  act({action_type: "scroll", direction: ev.deltaY > 0 ? "down" : "up", x: p.x, y: p.y});
}, {passive: false});

$("back").addEventListener("click", () => act({action_type: "navigate_back"}));
$("home").addEventListener("click", () => act({action_type: "navigate_home"}));
$("wait").addEventListener("click", () => act({action_type: "wait"}));
$("reset").addEventListener("click", () => run("POST", "/reset?format=html", {}));
$("type").addEventListener("click", () => act({action_type: "input_text", text: $("text").value}));
$("enter").addEventListener("click", () => act({action_type: "keyboard_enter"}));
$("text").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") act({action_type: "input_text", text: $("text").value});
});
$("graph").addEventListener("toggle", () => { if ($("graph").open) refreshGraph(); });

async function begin() {
  if (!cfg.session) {  // a visit makes no session: ask for one, explicitly
    const r = await fetch("/session", {method: "POST", body: JSON.stringify({app: cfg.app}),
      headers: {"Content-Type": "application/json", "Accept": "application/json"}});
    const data = await r.json().catch(() => ({error: "HTTP " + r.status}));
    if (!r.ok) { $("error").textContent = data.error || ("HTTP " + r.status); return; }
    Object.assign(cfg, {session: data.session, api: data.api, graph_svg: data.graph_svg});
    $("sid").textContent = data.session;
    $("graphlink").href = data.graph_url;
    $("shot").href = data.api + "/screenshot";
  }
  run("GET", "/observation?format=html");
  if (cfg.watch) setInterval(() => run("GET", "/observation?format=html"), 1000);
}
begin();
</script>
</body></html>
"""

_GRAPH = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>phoneworld \u2014 screen graph of {{ app }}</title>
{% if refresh %}<meta http-equiv="refresh" content="{{ refresh }}">{% endif %}
<style>
body { margin: 16px; font-family: Roboto, "Noto Sans", sans-serif; color: #202124; }
nav a { margin-right: 12px; } nav a.on { font-weight: bold; }
.legend { color: #5f6368; font-size: 13px; margin: 8px 0 12px; }
.graph { overflow: auto; border: 1px solid #dadce0; }
a { color: #1a73e8; }
</style></head>
<body>
<h1>Screen graph of {{ app }}</h1>
{% if apps|length > 1 %}<nav>{% for a in apps %}<a href="{{ a.url }}"
 {%- if a.name == app %} class="on"{% endif %}>{{ a.name }}</a>{% endfor %}</nav>{% endif %}
<p class="legend">{{ where }} Boxes are screens (fill: priority P0 darkest; blue outline:
the start screen; dashed: another package's screen; orange: the session's current screen).
Arrows are transitions (action and widget); back and stay transitions are in each box's
tooltip. {% if session %}<a href="{{ self_url }}">Reload</a>{% endif %}</p>
<div class="graph">{{ svg }}</div>
</body></html>
"""

_ENV = Environment(autoescape=True)
_PHONE_T = _ENV.from_string(_PHONE)
_GRAPH_T = _ENV.from_string(_GRAPH)


def phone_page(*, session: str | None, title: str, width: int, height: int, nonce: str,
               graph_url: str, graph_svg: str, watch: bool = False,
               app: str | None = None) -> str:
    """The phone page for one session; `width` x `height` is the app's screen size;
    `watch` polls the screen every second (to follow an agent's session). Without a
    session, the page's script asks for one (of `app`) with `POST /session`."""
    fw, fh = frame_size(width, height)
    api = f"/api/sessions/{session}" if session else ""
    cfg: dict[str, Any] = {"session": session, "api": api, "width": width, "height": height,
                           "graph_svg": graph_svg, "watch": watch, "app": app}
    return _PHONE_T.render(title=title, session=session, fw=fw, fh=fh, nonce=nonce, api=api,
                           graph_url=graph_url, cfg=cfg)


def graph_page(*, app: str, svg: str, apps: list[dict[str, str]], where: str,
               session: str | None, self_url: str, refresh: int | None = None) -> str:
    """The graph page; `svg` is trusted markup from `graph.screen_graph_svg` (it escapes)."""
    from markupsafe import Markup

    return _GRAPH_T.render(app=app, svg=Markup(svg), apps=apps, where=where, session=session,
                           self_url=self_url, refresh=refresh)
