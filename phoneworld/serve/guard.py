"""Which requests that change something the server accepts: same-origin, JSON bodies.

Any web page a person visits can make their browser send requests to a server on
127.0.0.1. A form or a `fetch` with a "simple" body (`text/plain`, a form encoding) goes
out without asking the server first, so such a page could create sessions until the cap
is reached. Hence, for every POST, PUT, PATCH and DELETE:

    Origin: http://evil.example           -> 403 (another site's page)
    Sec-Fetch-Site: cross-site            -> 403
    Content-Type: text/plain  + a body    -> 415 (the API takes JSON only)

A JSON body from another origin needs a CORS preflight, which this server never grants;
clients that are not browsers (agents, curl) send no Origin and are unaffected.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from phoneworld.serve.errors import ApiError

_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SITES = frozenset({"same-origin", "none"})
"""`Sec-Fetch-Site` values of a request the page itself (or the person) made."""
_DEFAULT_PORTS = {"http": "80", "https": "443"}


def check_write(environ: dict[str, Any]) -> None:
    """Raise an `ApiError` (403 or 415) for a write this server refuses; reads pass."""
    if environ.get("REQUEST_METHOD") not in _WRITES:
        return
    # A browser's own word first (pages cannot forge it, and it holds behind a proxy);
    # browsers that do not send it still send Origin.
    site = environ.get("HTTP_SEC_FETCH_SITE")
    if site is not None and site not in _SITES:
        raise ApiError(f"requests from another site's page are refused (Sec-Fetch-Site: "
                       f"{site})", 403, field="Origin")
    origin = environ.get("HTTP_ORIGIN")
    if site is None and origin is not None and not _same_origin(origin, environ):
        raise ApiError(f"requests from another origin ({origin[:100]}) are refused", 403,
                       field="Origin")
    if _has_body(environ) and not is_json(environ.get("CONTENT_TYPE", "")):
        raise ApiError("the body must be JSON, sent with Content-Type: application/json",
                       415, field="Content-Type")


def is_json(content_type: str) -> bool:
    """`application/json` or `application/<anything>+json`, parameters aside."""
    mime = content_type.split(";", 1)[0].strip().lower()
    return mime == "application/json" or (mime.startswith("application/")
                                          and mime.endswith("+json"))


def _has_body(environ: dict[str, Any]) -> bool:
    length = environ.get("CONTENT_LENGTH") or "0"
    return "HTTP_TRANSFER_ENCODING" in environ or length.strip() not in ("", "0")


def _same_origin(origin: str, environ: dict[str, Any]) -> bool:
    try:
        o = urlsplit(origin)
        port = o.port
    except ValueError:
        return False
    if not o.scheme or not o.hostname:
        return False  # "null": a sandboxed frame, a file:// page
    # Host and port only: behind a TLS proxy the page is https and the request http.
    return _netloc(o.hostname, port, o.scheme) == _host(environ.get("HTTP_HOST", ""),
                                                       o.scheme)


def _netloc(hostname: str, port: int | None, scheme: str) -> str:
    hostname = f"[{hostname}]" if ":" in hostname else hostname
    port_s = str(port) if port is not None else _DEFAULT_PORTS.get(scheme, "")
    return f"{hostname.lower()}:{port_s}"


def _host(host: str, scheme: str) -> str:
    try:
        h = urlsplit(f"//{host}")
        return _netloc(h.hostname or "", h.port, scheme)
    except ValueError:
        return ""
