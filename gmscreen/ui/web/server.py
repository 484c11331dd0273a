"""`gmscreen serve`'s server: aiohttp, one gmscreen process a browser tab (textual-serve's
`AppService`), behind the door `guard.py` describes.

Every request meets, in one middleware, the Host check (a name rebound to 127.0.0.1 is
refused) and, when the screen has a token, the token (a `?token=` query once, then the cookie
it sets); the websocket meets besides the Origin check (a page of another site or port is
refused), the session cap (checked before any process starts) and the size caps. Every
response says it may not be framed and is not to be sniffed; the static folder (textual-serve's
scripts and fonts) lists nothing. A refusal is a short HTTP error, logged once a kind and
address, never a traceback.

This replaces textual-serve's `Server` rather than subclassing it: its routes, page and
message loop are rebuilt here on aiohttp's public API, and of textual-serve only `AppService`
(one process and its pipes), `DownloadManager` and the static folder are used;
`tests/ui/test_serve_door.py` checks that they still are what this module assumes.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from gmscreen import i18n
from gmscreen.campaign.textsafe import clean
from gmscreen.i18n import _, ngettext

from . import guard, page

STATICS = Path(textual_serve.__file__).resolve().parent / "static"
MAX_MESSAGE = 1 << 20                # bytes in one websocket message (keys, a paste)
FONT_SIZES = (6, 72)                 # the page's ?fontsize=, in pixels
REFUSALS_LOGGED = 1000               # kinds × addresses remembered, to log each once
HEADERS = {
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True)
class Door:
    """What the server lets in: the names it answers to, the token (None: none asked), the
    number of sessions at once."""

    hosts: guard.Hosts
    token: str | None = None
    max_sessions: int = guard.MAX_SESSIONS


class AppProcess(AppService):
    """textual-serve's `AppService` (the process of one tab), whose tab is closed when its
    process ends: else a process that died would keep its tab, and its place among the
    sessions, open until the browser left."""

    async def run(self) -> None:
        try:
            await super().run()
        finally:
            await self.remote_close()


def shown(text: str, limit: int = 80) -> str:
    """A header a client sent, as a log line may show it (no control, not too long)."""
    text = clean(text)
    return text if len(text) <= limit else text[:limit] + "…"


class WebServer:
    """The server of one `gmscreen serve`: `command` is the process each tab starts."""

    def __init__(self, command: str, door: Door, *, host: str, port: int, title: str, ready: str,
                 prog: str = "gmscreen serve") -> None:
        self.command = command
        self.door = door
        self.host = host
        self.port = port
        self.title = title
        self.ready = ready
        self.prog = prog
        self.cookie = guard.cookie_name(port)
        self.downloads = DownloadManager()
        self.sessions: set[asyncio.Task[Any]] = set()
        self.live = 0                       # sessions holding a place (from their handshake to their end)
        self._refused: set[tuple[str, str]] = set()

    # ------------------------------------------------------------ the application

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=64 * 1024)
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/download/{key}", self._download)
        app.router.add_static("/static", STATICS, show_index=False, follow_symlinks=False)
        app.on_response_prepare.append(self._headers)
        app.on_shutdown.append(self._stop_sessions)
        return app

    def serve(self) -> None:
        """Listen until SIGTERM or SIGINT (OSError when the address cannot be had)."""
        _one_line_logs(self.prog)
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        runner = web.AppRunner(self.application(), access_log=None, handle_signals=False)
        await runner.setup()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(number, stop.set)
        try:
            await web.TCPSite(runner, self.host, self.port).start()
            self.say(self.ready)
            await stop.wait()
        finally:
            await runner.cleanup()          # on_shutdown first: each tab's session saves and ends

    def say(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    # ------------------------------------------------------------ the door

    def refuse(self, request: web.Request, status: type[web.HTTPException], kind: str, why: str,
               text: str) -> web.HTTPException:
        """The error for a request turned away; said on the server's log the first time for this
        kind and address."""
        key = (kind, request.remote or "?")
        if key not in self._refused and len(self._refused) < REFUSALS_LOGGED:
            self._refused.add(key)
            self.say(_("{prog}: refused {address} {path}: {why}").format(
                prog=self.prog, address=request.remote or "?", path=shown(request.path, 40), why=why))
        return status(text=text + "\n")

    def signed_in(self, request: web.Request) -> bool:
        token = self.door.token
        if token is None:
            return True
        return guard.same_token(request.query.get("token"), token) or guard.same_token(
            request.cookies.get(self.cookie), token)

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        host = request.headers.get("Host")
        if host is None:
            raise self.refuse(request, web.HTTPBadRequest, "host", _("no Host header"),
                              _("A request needs a Host header."))
        if not self.door.hosts.allows(host):
            raise self.refuse(request, web.HTTPForbidden, "host", _("Host {host} is not this server's").format(
                host=shown(host)), _("gmscreen serve answers to localhost, to the address it listens on and to "
                                     "the names given with --allow-host, not to this name."))
        if request.path.startswith(page.STATIC):
            return await handler(request)
        if not self.signed_in(request):
            given = "token" in request.query or self.cookie in request.cookies
            raise self.refuse(request, web.HTTPForbidden, "token", _("wrong token") if given else _("no token"),
                              _("This screen needs its token: open the address gmscreen serve printed when "
                                "it started (…/?token=…)."))
        return await handler(request)

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(HEADERS)
        if request.path.endswith(".ttf") and response.status == 200:
            response.headers["Content-Type"] = "font/ttf"       # aiohttp knows no font type

    # ------------------------------------------------------------ the page

    async def _page(self, request: web.Request) -> web.Response:
        size = guard.cells(request.query.get("fontsize", "16"), FONT_SIZES[1]) or 16
        scheme = "wss" if request.scheme == "https" else "ws"
        html = page.render(title=self.title, websocket_url=f"{scheme}://{request.host}/ws",
                           font_size=max(size, FONT_SIZES[0]), lang=i18n.language() or i18n.DEFAULT)
        response = web.Response(text=html, content_type="text/html", charset="utf-8",
                                headers={"Cache-Control": "no-store"})
        token = self.door.token
        if token is not None and guard.same_token(request.query.get("token"), token):
            response.set_cookie(self.cookie, token, httponly=True, samesite="Strict", path="/")
        return response

    # ------------------------------------------------------------ the sessions

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if not guard.same_origin(origin, request.host):
            raise self.refuse(request, web.HTTPForbidden, "origin", _("Origin {origin} is not this server's").format(
                origin=shown(origin or "")), _("A page of another site may not open this screen."))
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        if not websocket.can_prepare(request).ok:
            raise web.HTTPBadRequest(text=_("Expected a websocket.") + "\n")
        if self.live >= self.door.max_sessions:
            raise self.refuse(request, web.HTTPServiceUnavailable, "busy", ngettext_sessions(self.door.max_sessions),
                              _("This server has as many tabs open as it takes ({n}): close one and reload.").format(
                                  n=self.door.max_sessions))
        width, height = guard.size(request.query.get("width", ""), request.query.get("height", "")) or guard.DEFAULT_SIZE
        task = asyncio.current_task()
        self.live += 1
        if task is not None:
            self.sessions.add(task)
        service: AppProcess | None = None
        try:
            await websocket.prepare(request)
            service = AppProcess(self.command, write_bytes=_to_tab(websocket, websocket.send_bytes),
                                 write_str=_to_tab(websocket, websocket.send_str), close=_closer(websocket),
                                 download_manager=self.downloads)
            await service.start(width, height)
            await self._messages(websocket, service)
        except asyncio.CancelledError:      # the server stops: the session ends as its tab would
            pass
        finally:
            try:
                if service is not None:
                    await service.stop()    # "quit": it saves and ends; then its place is free
                if websocket.prepared:
                    await websocket.close()
            finally:
                self.live -= 1
                if task is not None:
                    self.sessions.discard(task)
        return websocket

    async def _messages(self, websocket: web.WebSocketResponse, service: AppService) -> None:
        """What the browser sends (textual.js): keys, sizes, focus, pings. Anything else, or
        anything malformed, is ignored."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                sized = guard.size(data.get("width"), data.get("height"))
                if sized is not None:
                    await service.set_terminal_size(*sized)
            elif kind == "ping" and isinstance(data, str) and len(data) <= 32:
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    async def _stop_sessions(self, app: web.Application) -> None:
        """SIGTERM or ctrl+c: each tab's session is told to quit, as when its tab closes (the
        GM's screen saves), instead of the server waiting a minute for the tabs to go."""
        for task in list(self.sessions):
            task.cancel()

    # ------------------------------------------------------------ downloads (a screenshot)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text=_("No such download.") + "\n") from None
        response = web.StreamResponse()
        response.headers["Content-Type"] = meta.mime_type + (f"; charset={meta.encoding}" if meta.encoding else "")
        name = re.sub(r"[^A-Za-z0-9._-]", "_", meta.file_name) or "download"
        disposition = "inline" if meta.open_method == "browser" else "attachment"
        response.headers["Content-Disposition"] = f'{disposition}; filename="{name}"'
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response


def _closer(websocket: web.WebSocketResponse) -> Callable[[], Awaitable[None]]:
    """What closes the tab, as textual-serve calls it: it awaits `close` and drops its result
    (aiohttp's says whether the socket was still open)."""

    async def close() -> None:
        await websocket.close()

    return close


def _to_tab(websocket: web.WebSocketResponse, send: Callable[[Any], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
    """`send` to the tab while it is there, then nothing: the process's output is still read
    (and dropped) until it ends. Else its first write after the tab closed would end textual-serve's
    reading of it, and a process writing a frame into a pipe nobody reads would hang, its stderr
    ("campaign saved") lost, its session's place given back while it still runs."""

    async def write(data: Any) -> None:
        if websocket.closed:
            return
        try:
            await send(data)
        except ConnectionError:
            pass

    return write


def ngettext_sessions(n: int) -> str:
    return ngettext("{n} session open, the most it takes", "{n} sessions open, the most it takes", n).format(n=n)


class _OneLine(logging.Formatter):
    """aiohttp's and textual-serve's log records as one line each: a malformed request is not
    worth a traceback."""

    def __init__(self, prog: str) -> None:
        super().__init__()
        self.prog = prog

    def format(self, record: logging.LogRecord) -> str:
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            line += f": {type(error).__name__}: {shown(str(error), 200)}"
        return f"{self.prog}: {line}"


class _Once(logging.Filter):
    """Each kind of record (its words, its error's type, its address) logged the first time only:
    a scanner sending garbage gets one line, not one a request."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: set[tuple[object, ...]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        key = (record.msg, type(error).__name__, shown(str(record.args), 100))
        if key in self.seen:
            return False
        if len(self.seen) < REFUSALS_LOGGED:
            self.seen.add(key)
        return True


def _one_line_logs(prog: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine(prog))
    handler.addFilter(_Once())
    for name in ("aiohttp", "textual-serve"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.WARNING)
        logger.propagate = False

