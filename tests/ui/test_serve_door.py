"""The web door (`gmscreen.ui.web.server`): the token, the Host and Origin checks, the session
and size caps, the headers, the static folder and the fonts, against one real server process
and real HTTP and websocket clients.

The server here starts, for each tab, a small stand-in for gmscreen (FAKE_APP: it speaks
textual-serve's protocol, notes what it is sent and ends on "quit"), so thirty tabs cost
thirty handshakes, not thirty screens. `test_serve_command.py` serves the real screen.
"""

from __future__ import annotations

import asyncio
import http.client
import inspect
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any, Iterator

import aiohttp
import pytest
from _serve import REPO, environment, free_port, wait_for

TOKEN = "door-test-token-0123456789abcdef"
FAKE_APP = textwrap.dedent("""
    import json, os, sys
    out, inp = sys.stdout.buffer, sys.stdin.buffer
    path = os.path.join(os.environ["DOOR_NOTES"], str(os.getpid()))
    def note(*what):
        with open(path, "a") as notes:
            notes.write(json.dumps(what) + "\\n")
    note("start", os.environ.get("COLUMNS"), os.environ.get("ROWS"))
    frame = "ready".encode()
    out.write(b"__GANGLION__\\n" + b"D" + len(frame).to_bytes(4, "big") + frame)
    out.flush()
    while True:
        head = inp.read(5)
        if len(head) < 5:
            break
        payload = inp.read(int.from_bytes(head[1:], "big"))
        if head[:1] == b"M":
            meta = json.loads(payload)
            note("meta", meta)
            if meta.get("type") == "quit":
                break
        else:
            note("data", payload.decode("utf-8", "replace"))
            if payload == b"flood":                  # a screen drawing frame after frame
                frame = b"x" * 8192
                for _ in range(200):
                    out.write(b"D" + len(frame).to_bytes(4, "big") + frame)
                out.flush()
""")
SERVER = textwrap.dedent("""
    import sys
    from gmscreen import i18n
    from gmscreen.ui.web import guard
    from gmscreen.ui.web.server import Door, WebServer
    port, command, token = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    i18n.set_language("fr")
    door = Door(hosts=guard.Hosts("127.0.0.1", frozenset({"table.example"})), token=token)
    WebServer(command, door, host="127.0.0.1", port=port, title="door", ready="listening").serve()
""")


class Door:
    def __init__(self, port: int, log: Path, notes: Path) -> None:
        self.port, self.log, self.notes = port, log, notes
        self.url = f"http://127.0.0.1:{port}"
        self.origin = self.url
        self.cookie = {f"gmscreen-token-{port}": TOKEN}

    def started(self) -> list[list[Any]]:
        """What each stand-in was sent, one list a process."""
        return [[json.loads(line) for line in path.read_text().splitlines()] for path in sorted(self.notes.iterdir())]


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Door]:
    tmp = tmp_path_factory.mktemp("door")
    notes = tmp / "notes"
    notes.mkdir()
    (tmp / "fake_app.py").write_text(FAKE_APP)
    port = free_port()
    log = tmp / "server.log"
    env = environment(tmp) | {"DOOR_NOTES": str(notes)}
    command = f"{sys.executable} -S {tmp / 'fake_app.py'}"
    with log.open("wb") as out:
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), command, TOKEN], cwd=REPO, env=env,
                                  stdin=subprocess.DEVNULL, stdout=out, stderr=out)
    try:
        assert wait_for(lambda: "listening" in log.read_text() or server.poll() is not None, 20), log.read_text()
        assert server.poll() is None, log.read_text()
        yield Door(port, log, notes)
    finally:
        server.terminate()
        assert server.wait(15) == 0, log.read_text()
        assert "Traceback" not in log.read_text(), log.read_text()


def get(door: Door, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """A plain HTTP GET, its Host header as given (http.client sends no other)."""
    connection = http.client.HTTPConnection("127.0.0.1", door.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def cookie_header(door: Door) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in door.cookie.items())}


async def handshake(door: Door, query: str = "", *, headers: dict[str, str] | None = None,
                    origin: str | None = None) -> tuple[int, aiohttp.ClientWebSocketResponse | None,
                                                        aiohttp.ClientSession]:
    """A websocket handshake as textual.js makes it: (status, the socket if open, its session)."""
    http = aiohttp.ClientSession()
    try:
        ws = await http.ws_connect(f"{door.url}/ws{query}", headers=headers or {}, origin=origin)
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status, None, http
    return 101, ws, http


async def refused_or_open(door: Door, query: str = "", **kwargs: Any) -> int:
    status, ws, http = await handshake(door, query, **kwargs)
    try:
        if ws is not None:
            message = await ws.receive(timeout=10)             # the stand-in's first frame
            assert message.type == aiohttp.WSMsgType.BINARY and message.data == b"ready"
            await ws.close()
    finally:
        await http.close()
    return status


# ---------------------------------------------------------------- the token


@pytest.mark.parametrize("path, headers, status", [
    ("/", {}, 403),
    ("/?token=wrong-token-0123456789abcdef", {}, 403),
    (f"/?token={TOKEN}x", {}, 403),
    (f"/?token={TOKEN}", {}, 200),
    ("/", "cookie", 200),
    ("/download/anything", {}, 403),
    ("/download/anything", "cookie", 404),
])
def test_the_page_and_downloads_need_the_token(door: Door, path: str, headers: Any, status: int) -> None:
    got, head, body = get(door, path, cookie_header(door) if headers == "cookie" else headers)
    assert got == status, body
    if status == 403:
        assert body.decode().count("\n") == 1 and "?token=" in body.decode()     # one line, what to do


def test_the_token_in_the_address_becomes_a_cookie_for_this_port_only(door: Door) -> None:
    status, head, body = get(door, f"/?token={TOKEN}")
    assert status == 200
    cookie = head["set-cookie"]
    assert cookie.startswith(f"gmscreen-token-{door.port}={TOKEN};")
    assert {"HttpOnly", "Path=/", "SameSite=Strict"} <= {part.strip() for part in cookie.split(";")}
    assert head["cache-control"] == "no-store"
    assert 'searchParams.delete("token")' in body.decode()     # taken out of the address bar
    assert "set-cookie" not in get(door, "/", cookie_header(door))[1]


@pytest.mark.parametrize("query, cookie, origin, status", [
    ("", False, "own", 403),                                  # no token
    ("?token=wrong-token-0123456789abcdef", False, "own", 403),
    ("", True, "http://evil.example", 403),                   # a page of another site
    ("", True, "http://127.0.0.1:1", 403),                    # another port of this machine: same site
    ("", True, "null", 403),                                  # a sandboxed frame, a file
    ("", True, "own", 101),                                   # the page's own tab
    (f"?token={TOKEN}", False, None, 101),                    # a script, not a browser
])
async def test_the_websocket_needs_the_token_and_the_page_s_own_origin(door: Door, query: str, cookie: bool,
                                                                        origin: str | None, status: int) -> None:
    got = await refused_or_open(door, query, headers=cookie_header(door) if cookie else None,
                                origin=door.origin if origin == "own" else origin)
    assert got == status


# ---------------------------------------------------------------- hosts


@pytest.mark.parametrize("host, status", [
    ("evil.example:{port}", 403),           # a name rebound to 127.0.0.1
    ("127.0.0.1.evil.example:{port}", 403),
    ("10.0.0.7:{port}", 403),               # listening on 127.0.0.1: no other address is ours
    ("localhost:{port}", 200),
    ("127.0.0.1:{port}", 200),
    ("[::1]:{port}", 200),
    ("table.example:{port}", 200),          # --allow-host
    ("TABLE.example.:{port}", 200),
])
def test_only_this_server_s_own_names_are_answered(door: Door, host: str, status: int) -> None:
    headers = {"Host": host.format(port=door.port)}
    for path in ("/static/js/textual.js", f"/?token={TOKEN}"):
        assert get(door, path, headers)[0] == status, (host, path)


async def test_a_websocket_under_a_foreign_host_is_refused(door: Door) -> None:
    foreign = f"evil.example:{door.port}"
    assert await refused_or_open(door, f"?token={TOKEN}", headers={"Host": foreign},
                                 origin=f"http://{foreign}") == 403


def test_a_request_without_a_host_is_refused(door: Door) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", door.port, timeout=10)
    try:
        connection.putrequest("GET", "/static/js/textual.js", skip_host=True)
        connection.endheaders()
        assert connection.getresponse().status == 400
    finally:
        connection.close()


@pytest.mark.parametrize("request_bytes", [
    b"GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: localhost\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",          # TLS spoken to an HTTP port
])
def test_a_malformed_request_gets_a_clean_error_and_no_traceback(door: Door, request_bytes: bytes) -> None:
    import socket

    for _ in range(2):
        with socket.create_connection(("127.0.0.1", door.port), timeout=10) as raw:
            raw.sendall(request_bytes)
            raw.shutdown(socket.SHUT_WR)
            answer = raw.recv(4096)
        assert answer == b"" or re.match(rb"HTTP/1\.[01] 400 ", answer), answer
    said = door.log.read_text()
    assert "Traceback" not in said, said
    assert all(said.count(kind) <= 1 for kind in ("BadHttpMessage:", "InvalidURLError:")), said   # once


# ---------------------------------------------------------------- caps


async def test_thirty_tabs_get_sixteen_sessions_and_the_rest_a_clean_refusal(door: Door) -> None:
    before = len(door.started())
    opened = await asyncio.gather(*(handshake(door, headers=cookie_header(door), origin=door.origin)
                                    for _ in range(30)))
    try:
        statuses = sorted(status for status, _ws, _http in opened)
        assert statuses == [101] * 16 + [503] * 14
        assert await asyncio.to_thread(wait_for, lambda: len(door.started()) - before >= 16, 20)
        assert len(door.started()) - before == 16            # the refused ones started no process
    finally:
        for _status, ws, http in opened:
            if ws is not None:
                await ws.close()
            await http.close()

    async def one_more() -> bool:                            # each place is given back when its tab closes
        return await refused_or_open(door, headers=cookie_header(door), origin=door.origin) == 101
    end = asyncio.get_running_loop().time() + 20
    while not await one_more():
        assert asyncio.get_running_loop().time() < end, "the places of closed tabs were never given back"
        await asyncio.sleep(0.1)
    said = door.log.read_text()
    assert said.count("sessions ouvertes") == 1, said         # logged once, not fourteen times


async def test_sizes_are_capped_at_500_by_200_in_the_query_and_in_resizes(door: Door) -> None:
    before = {path.name for path in door.notes.iterdir()}
    status, ws, http = await handshake(door, "?width=10000&height=10000", headers=cookie_header(door),
                                       origin=door.origin)
    try:
        assert status == 101 and ws is not None
        assert (await ws.receive(timeout=10)).data == b"ready"
        for packet in (["resize", {"width": 10000, "height": 10000}],
                       ["resize", {"width": -3, "height": 40}], ["resize", {"width": True, "height": 40}],
                       ["resize", {"width": "x", "height": 40}], ["resize", "big"], "not an envelope", [],
                       [7], ["stdin", 5], ["ping", "x" * 100], ["stdin", "\ud800a"], ["resize", {"width": 120, "height": 40}]):
            await ws.send_str(json.dumps(packet))
        await ws.send_str("{not json")
        await ws.send_bytes(b"\x00binary")
        await ws.send_str(json.dumps(["ping", "123"]))
        assert json.loads((await ws.receive(timeout=10)).data) == ["pong", "123"]    # still up
    finally:
        if ws is not None:
            await ws.close()
        await http.close()

    def finished() -> list[list[Any]] | None:
        new = [p for p in door.notes.iterdir() if p.name not in before]
        notes = [json.loads(line) for line in new[0].read_text().splitlines()] if new else []
        return notes if notes and notes[-1] == ["meta", {"type": "quit"}] else None
    assert await asyncio.to_thread(wait_for, finished, 20)
    notes = finished()
    assert notes == [["start", "500", "200"],
                     ["meta", {"type": "resize", "width": 500, "height": 200}],
                     ["data", "?a"],
                     ["meta", {"type": "resize", "width": 120, "height": 40}],
                     ["meta", {"type": "quit"}]]


async def test_a_tab_that_leaves_while_its_screen_draws_gets_its_screen_to_the_end(door: Door) -> None:
    """The process's output is read until it ends, so its screen never blocks on a full pipe, hears
    "quit" and ends (saved); its place is given back only then."""
    before = {path.name for path in door.notes.iterdir()}
    status, ws, http = await handshake(door, headers=cookie_header(door), origin=door.origin)
    try:
        assert status == 101 and ws is not None
        assert (await ws.receive(timeout=10)).data == b"ready"
        await ws.send_str(json.dumps(["stdin", "flood"]))
        await ws.receive(timeout=10)                             # the first of 1.6 MB of frames
    finally:
        if ws is not None:
            await ws.close()
        await http.close()

    def quit_heard() -> bool:
        new = [p for p in door.notes.iterdir() if p.name not in before]
        return bool(new) and new[0].read_text().splitlines()[-1] == json.dumps(["meta", {"type": "quit"}])
    assert await asyncio.to_thread(wait_for, quit_heard, 20)


# ---------------------------------------------------------------- headers, static, fonts


@pytest.mark.parametrize("path, headers", [
    (f"/?token={TOKEN}", {}), ("/", {}), ("/static/js/textual.js", {}), ("/static/nothing.js", {}),
    ("/static/", {}), ("/", {"Host": "evil.example"}),
])
def test_no_response_may_be_framed_or_sniffed(door: Door, path: str, headers: dict[str, str]) -> None:
    _status, head, _body = get(door, path, headers)
    assert head["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in head["content-security-policy"]
    assert head["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/static/", "/static/js/", "/static/fonts/", "/static", "/static/../",
                                  "/static/%2e%2e/server.py", "/static/..%2fserver.py"])
def test_the_static_folder_lists_nothing_and_holds_only_itself(door: Door, path: str) -> None:
    status, _head, body = get(door, path)
    assert status in (403, 404), (path, status)
    assert b"textual.js" not in body and b"RobotoMono" not in body and b"import" not in body


def test_the_page_asks_nothing_of_any_other_host_and_serves_both_faces_of_its_font(door: Door) -> None:
    import textual_serve

    from gmscreen.ui.web import page

    html = get(door, f"/?token={TOKEN}")[2].decode()
    addresses = re.findall(r"""(?:src|href)=["']([^"']+)|url\(["']?([^"')]+)""", html)
    assert addresses and all((a or b).startswith("/static/") for a, b in addresses), addresses
    assert re.findall(r"\b(?:https?|wss?):[^\s\"'<>]*", html) == [f"ws://127.0.0.1:{door.port}/ws"]
    assert "googleapis" not in html and "//fonts." not in html
    faces = re.findall(r"@font-face\s*{([^}]*)}", html)
    assert sorted(re.search(r"font-style:\s*(\w+)", face).group(1) for face in faces) == ["italic", "normal"]
    statics = Path(textual_serve.__file__).parent / "static"
    for name in page.USED:
        status, head, body = get(door, f"/static/{name}")
        assert status == 200 and body == (statics / name).read_bytes(), name
    for name in page.FONTS.values():
        assert "font" in get(door, f"/static/{name}")[1]["content-type"]
    # what the page loads asks no other host either
    assert not re.search(r"@import|url\(", (statics / "css/xterm.css").read_text())
    assert not re.search(r"""fetch\(["']http|["']https?://""", (statics / "js/textual.js").read_text())


def test_a_refusal_is_logged_once_a_kind_and_address(door: Door) -> None:
    for _ in range(3):
        assert get(door, "/")[0] == 403
    said = door.log.read_text()
    # One line for the token's kind, whichever came first on this server (the door is shared by
    # the module's tests: another may have sent a wrong token before).
    assert len(re.findall(r"refusé à 127\.0\.0\.1 /[^:\n]* : (?:pas de|mauvais) jeton", said)) == 1, said
    assert "Traceback" not in said


# ---------------------------------------------------------------- what the door assumes of textual-serve


def test_textual_serve_is_what_the_server_assumes() -> None:
    """An upgrade of textual-serve that changes what `server.py` uses fails here, and only here."""
    import textual_serve
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    from gmscreen.ui.web import page
    from gmscreen.ui.web.server import AppProcess

    def parameters(function: Any) -> list[str]:
        return list(inspect.signature(function).parameters)

    assert parameters(AppService.__init__) == ["self", "command", "write_bytes", "write_str", "close",
                                               "download_manager", "debug"]
    assert parameters(AppService.start) == ["self", "width", "height"]
    for name, wanted in (("stop", ["self"]), ("run", ["self"]), ("blur", ["self"]), ("focus", ["self"]),
                         ("send_bytes", ["self", "data"]), ("set_terminal_size", ["self", "width", "height"])):
        assert inspect.iscoroutinefunction(getattr(AppService, name)) and parameters(getattr(AppService, name)) == wanted
    assert [name for name in vars(AppProcess) if not name.startswith("__")] == ["run"]      # the one override
    assert "self.remote_close = close" in inspect.getsource(AppService.__init__)
    assert "await self.remote_close()" in inspect.getsource(AppService.on_meta)            # "exit" closes the tab
    assert parameters(DownloadManager.get_download_metadata) == ["self", "delivery_key"]
    assert parameters(DownloadManager.download) == ["self", "delivery_key"]
    statics = Path(textual_serve.__file__).parent / "static"
    assert all((statics / name).is_file() for name in page.USED)
    script = (statics / "js/textual.js").read_text()
    for used in ("dataset.sessionWebsocketUrl", "dataset.fontSize", "\"?width=\"", "&height=",
                 "fontFamily:\"'Roboto Mono', ", "window.onload=", '"stdin"', '"resize"', '"ping"'):
        assert used in script, used
