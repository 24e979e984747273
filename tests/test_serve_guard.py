"""The server against hostile clients: other sites' pages, non-JSON bodies, unbounded or
ill-formed typed text, and waitress's own refusals."""

from __future__ import annotations

import http.client
import json
import socket
import threading

import pytest

pytest.importorskip("flask")

from lxml import etree  # noqa: E402

from phoneworld.limits import MAX_TYPED  # noqa: E402
from phoneworld.serve.app import create_app  # noqa: E402
from phoneworld.serve.guard import check_write  # noqa: E402
from tests.test_runtime import shop_spec  # noqa: E402


@pytest.fixture(scope="module")
def app():
    app = create_app([shop_spec()], chromium="/nonexistent/chromium")
    yield app
    app.extensions["phoneworld"].close()


@pytest.fixture
def client(app):
    return app.test_client()


def _sessions(client) -> int:
    return client.get("/api").json["sessions"]


def _search_field(client) -> tuple[str, int]:
    obs = client.post("/api/sessions", json={}).json
    return obs["session"], next(e["index"] for e in obs["elements"] if e["editable"])


@pytest.mark.parametrize("headers, status, field", [
    ({"Origin": "http://evil.example"}, 403, "Origin"),
    ({"Origin": "null"}, 403, "Origin"),
    ({"Origin": "http://localhost:9999"}, 403, "Origin"),  # same host, another port
    ({"Sec-Fetch-Site": "cross-site"}, 403, "Origin"),
    ({"Sec-Fetch-Site": "same-site"}, 403, "Origin"),
    ({"Content-Type": "text/plain"}, 415, "Content-Type"),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "Content-Type"),
    ({"Content-Type": "multipart/form-data; boundary=x"}, 415, "Content-Type"),
])
@pytest.mark.parametrize("path", ["/api/sessions", "/session"])
def test_writes_from_other_sites_or_not_json_make_no_session(client, headers, status, field,
                                                              path):
    before = _sessions(client)
    headers = {"Content-Type": "application/json", **headers}
    r = client.post(path, data="{}", headers=headers)
    assert (r.status_code, r.is_json, r.json["field"]) == (status, True, field)
    assert _sessions(client) == before and "Set-Cookie" not in r.headers


def test_the_page_itself_and_non_browser_clients_may_write(client):
    same = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/session", json={}, headers=same).status_code == 201
    assert client.post("/api/sessions").status_code == 201  # no body, no browser: curl
    assert client.post("/api/sessions", json={},
                       headers={"Content-Type": "application/vnd.api+json"}).status_code == 201


def test_a_step_from_another_site_is_refused_on_the_fast_path_too(client):
    sid, _ = _search_field(client)
    r = client.post(f"/api/sessions/{sid}/step", json={"action_type": "wait"},
                    headers={"Origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post(f"/api/sessions/{sid}/step", data='{"action_type": "wait"}',
                    content_type="text/plain")
    assert r.status_code == 415
    assert client.get(f"/api/sessions/{sid}").json["steps"] == 0


def test_check_write_leaves_reads_alone_and_knows_its_own_origin_behind_a_proxy():
    check_write({"REQUEST_METHOD": "GET", "HTTP_ORIGIN": "http://evil.example"})
    check_write({"REQUEST_METHOD": "POST", "HTTP_ORIGIN": "http://[::1]:8000",
                 "HTTP_HOST": "[::1]:8000", "wsgi.url_scheme": "http"})
    check_write({"REQUEST_METHOD": "POST", "HTTP_ORIGIN": "https://phone.example",
                 "HTTP_HOST": "phone.example", "wsgi.url_scheme": "http"})
    check_write({"REQUEST_METHOD": "POST", "HTTP_ORIGIN": "https://phone.example",
                 "HTTP_SEC_FETCH_SITE": "same-origin", "HTTP_HOST": "127.0.0.1:8000"})


def test_typed_text_is_capped_and_appending_past_the_cap_is_a_400(client):
    sid, field = _search_field(client)
    chunk = "x" * (MAX_TYPED // 4)
    for _ in range(4):
        r = client.post(f"/api/sessions/{sid}/step", json={
            "action_type": "input_text", "index": field, "text": chunk, "clear_text": False})
        assert r.status_code == 200
    r = client.post(f"/api/sessions/{sid}/step", json={
        "action_type": "input_text", "index": field, "text": "y", "clear_text": False})
    assert (r.status_code, r.json["field"]) == (400, "text")
    r = client.post(f"/api/sessions/{sid}/step", json={
        "action_type": "input_text", "index": field, "text": "z" * (MAX_TYPED + 1)})
    assert (r.status_code, r.json["field"]) == (400, "text")


@pytest.mark.parametrize("text", ["\ud800", "a\x00b", "\ufffe", "\uffff", "\x1b[31m"])
def test_typed_text_that_xml_cannot_hold_is_a_400_not_a_500(client, text):
    sid, field = _search_field(client)
    body = json.dumps({"action_type": "input_text", "index": field, "text": text})
    r = client.post(f"/api/sessions/{sid}/step", data=body, content_type="application/json")
    assert (r.status_code, r.json["field"]) == (400, "text")
    xml = client.get(f"/api/sessions/{sid}/observation?format=xml").json["xml"]
    etree.fromstring(xml.encode())  # still well-formed


def test_what_a_field_may_hold_keeps_the_xml_observation_well_formed(client):
    sid, field = _search_field(client)
    text = "tab\tnew\nline é 中文 😀 <&>\"'"
    assert client.post(f"/api/sessions/{sid}/step", json={
        "action_type": "input_text", "index": field, "text": text}).status_code == 200
    xml = client.get(f"/api/sessions/{sid}/observation?format=xml").json["xml"]
    texts = [n.get("text") for n in etree.fromstring(xml.encode()).iter("node")]
    assert text in texts


def _waitress(app):
    from waitress.server import create_server

    from phoneworld.serve.server import json_errors

    sockets: dict = {}
    server = create_server(app, map=sockets, host="127.0.0.1", port=0, threads=2,
                           max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
                           asyncore_use_poll=True)
    json_errors(sockets.values())
    threading.Thread(target=server.run, daemon=True).start()
    return server


def test_waitress_refusals_are_json_too(app):
    server = _waitress(app)
    try:
        port = server.effective_port
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.putrequest("POST", "/api/sessions")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(10**12))
        conn.endheaders()
        r = conn.getresponse()
        assert r.status == 413 and r.getheader("Content-Type") == "application/json"
        assert json.loads(r.read())["status"] == 413
        with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
            raw.sendall(b"GARBAGE\r\nHost: x\r\nContent-Length: -1\r\n\r\n")
            reply = b""
            while chunk := raw.recv(65536):  # the server closes after a refusal
                reply += chunk
            reply = reply.decode()
        head, _, body = reply.partition("\r\n\r\n")
        assert " 400 " in head.split("\r\n")[0] and "application/json" in head
        assert json.loads(body)["status"] == 400
    finally:
        server.close()
